// The fork server (docs/fork-server.md; messages in ctrlsched/fork_server.h).
#pragma once

namespace ctrlsched::shim {

// Called first thing in the shim's constructor. When CTRLSCHED_RECORD_FD names a socket this
// process is a fork server: it serves runs until the driver closes the socket, and returns only
// in each forked child, with the child's run record where the socket was. Otherwise it returns at
// once. Allocates nothing, so a child's heap is the heap an exec'd run has at this point.
void serve_forks_if_asked() noexcept;

}  // namespace ctrlsched::shim
