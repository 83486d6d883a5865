// The fork server's loop inside the test process (see fork_server.h and docs/fork-server.md).
//
// The snapshot point is in the shim's constructor, after its preparation that is the same for
// every run (runtime.cc, prepare_process): the dynamic loader has mapped and relocated
// everything, the constructors of the libraries initialized before the shim have run; the
// program's own constructors and main() have not. Each child therefore runs the rest of the
// start-up (the shim's set-up for its run, the program's constructors, main) just as an exec'd
// run does, from the same memory image: same addresses (ASLR was off for the one exec), same heap
// (an exec'd run prepares the same way at the same point, and nothing here allocates), same stack
// depth (the child returns into the constructor). Only system calls and stack buffers are used
// below.
#include "fork_server.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ctrlsched/fork_server.h"
#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {
namespace {

int socket_from_environment() {
  const char* text = std::getenv(kRecordFdEnv);
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  if (*end != '\0' || fd < 0 || fd > 1 << 20) return -1;
  struct stat st;
  if (fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) return -1;
  // Only the driver's socket pair: a program the test starts inherits the variable, and its
  // descriptor n may be some socket of the test's own.
  int type = 0;
  socklen_t length = sizeof type;
  if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_SEQPACKET) return -1;
  ucred peer{};
  length = sizeof peer;
  if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || peer.pid != getppid()) return -1;
  return static_cast<int>(fd);
}

// Threads of this process (entries of /proc/self/task), or -1 when unknown.
int thread_count() {
  const int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return -1;
  alignas(8) char buffer[4096];
  int count = 0;
  for (;;) {
    const long n = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
      if (entry->d_name[0] != '.') ++count;
      at += entry->d_reclen;
    }
  }
  close(dir);
  return count;
}

void send_packet(int sock, ForkServerMessage kind, std::int32_t value, bool ok = true, const char* text = nullptr) {
  ForkServerPacket packet;
  packet.kind = kind;
  packet.value = value;
  packet.ok = ok ? 1 : 0;
  if (text) std::strncpy(packet.text, text, sizeof packet.text - 1);
  while (send(sock, &packet, sizeof packet, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

// Receives one Run request; false when the driver closed the socket (or sent garbage).
bool receive_run(int sock, int& record_fd, int& output_fd) {
  ForkServerPacket packet;
  iovec iov{&packet, sizeof packet};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
  msghdr message{};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  long n;
  while ((n = recvmsg(sock, &message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<long>(sizeof packet) || packet.magic != kForkServerMagic || packet.kind != ForkServerMessage::Run) {
    return false;
  }
  const cmsghdr* header = CMSG_FIRSTHDR(&message);
  if (header == nullptr || header->cmsg_type != SCM_RIGHTS || header->cmsg_len != CMSG_LEN(2 * sizeof(int))) return false;
  int fds[2];
  std::memcpy(fds, CMSG_DATA(header), sizeof fds);
  record_fd = fds[0];
  output_fd = fds[1];
  return true;
}

// In the child: the process attributes an exec'd run gets from the driver's launch_child()
// (process group, death signal, output) that fork does not already carry over from the server
// (CPU, personality, signal mask and dispositions, stdin were set once for the server's exec).
void become_run(int sock, int record_fd, int output_fd, pid_t server) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != server) _exit(127);
  setpgid(0, 0);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  dup2(record_fd, sock);  // CTRLSCHED_RECORD_FD now names the record, as in an exec'd run
  close(record_fd);
  close(output_fd);
  const pid_t me = getpid();
  pwrite(sock, &me, sizeof me, offsetof(RunRecord, owner_pid));
}

}  // namespace

int fork_server_socket() noexcept { return socket_from_environment(); }

void serve_forks(int sock) noexcept {
  const int threads = thread_count();
  if (threads != 1) {
    char reason[160];
    std::snprintf(reason, sizeof reason,
                  "%d threads were running before main() (started by a library constructor)", threads);
    send_packet(sock, ForkServerMessage::Hello, 0, false, reason);
    _exit(0);
  }
  send_packet(sock, ForkServerMessage::Hello, 0);
  const pid_t server = getpid();
  for (;;) {
    int record_fd = -1, output_fd = -1;
    if (!receive_run(sock, record_fd, output_fd)) _exit(0);
    const pid_t pid = _Fork();  // no atfork handlers: nothing but libc's own state exists yet
    if (pid == 0) {
      become_run(sock, record_fd, output_fd, server);
      return;
    }
    close(record_fd);
    close(output_fd);
    if (pid < 0) {
      send_packet(sock, ForkServerMessage::Failed, errno);
      continue;
    }
    setpgid(pid, pid);  // also here, so the driver can kill the group as soon as it knows the pid
    send_packet(sock, ForkServerMessage::Started, pid);
    // Like the driver's reap(): once the child has exited, kill what it left in its group, then
    // collect it; the driver's timeouts kill the group from outside.
    siginfo_t info;
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    send_packet(sock, ForkServerMessage::Ended, status);
  }
}

}  // namespace ctrlsched::shim
