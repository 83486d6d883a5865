// The fork server's messages between the driver (scheduler/driver/runs/fork_server.*) and the
// shim (shim/fork_server.cc); docs/fork-server.md explains the design.
//
// The driver starts the test once with CTRLSCHED_RECORD_FD naming one end of a SOCK_SEQPACKET
// socket pair instead of a run record. The shim's constructor finds a socket there, says hello,
// and then serves: per request (a run record memfd and the output capture descriptor, passed
// with SCM_RIGHTS) it forks; the child puts the record where the socket was (so the variable
// names the record, as after an exec) and goes on starting up exactly as an exec'd run would.
// The server reports the child's pid, reaps it (after killing the rest of its process group) and
// reports the wait status.
#pragma once

#include <cstdint>

namespace ctrlsched {

inline constexpr std::uint32_t kForkServerMagic = 0x4b524f46;  // "FORK"

enum class ForkServerMessage : std::uint32_t {
  Hello = 1,    // server → driver, once: ok != 0, or why the snapshot is unsafe (text)
  Run = 2,      // driver → server: fds [record, output] attached
  Started = 3,  // server → driver: value = the child's pid (also its process group)
  Ended = 4,    // server → driver: value = the wait status
  Failed = 5,   // server → driver: fork failed, value = errno
};

struct ForkServerPacket {
  std::uint32_t magic = kForkServerMagic;
  ForkServerMessage kind = ForkServerMessage::Hello;
  std::int32_t value = 0;
  std::uint32_t ok = 0;
  char text[240] = {};
};

}  // namespace ctrlsched
