// The fork server (docs/fork-server.md; messages in ctrlsched/fork_server.h).
#pragma once

namespace ctrlsched::shim {

// The driver's socket when CTRLSCHED_RECORD_FD names one, i.e. this process is to be a fork
// server; -1 otherwise. Looks, changes nothing.
int fork_server_socket() noexcept;

// Serves runs on `sock` until the driver closes it, and returns only in each forked child, with
// the child's run record where the socket was. Allocates nothing, so a child's heap is the heap
// an exec'd run has at this point.
void serve_forks(int sock) noexcept;

}  // namespace ctrlsched::shim
