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

// True once the driver has closed its end: nothing is queued (the driver sends a request only
// after the previous run's end was reported) and the peer is gone.
bool driver_gone(int sock) {
  char byte;
  ssize_t n;
  while ((n = recv(sock, &byte, 1, MSG_PEEK | MSG_DONTWAIT)) < 0 && errno == EINTR) {
  }
  return n == 0;
}

// In the child: the process attributes an exec'd run gets from the driver's launch_child()
// (process group, death signal, output) that fork does not already carry over from the server
// (CPU, personality, signal mask and dispositions, stdin were set once for the server's exec).
// The death signal was set right after the fork; the process group is set before Started is
// sent, so that the driver can kill the group as soon as it knows the pid.
void become_run(int sock, int record_fd, int output_fd, const int took[2]) {
  const char taken = 1;
  while (write(took[1], &taken, 1) < 0 && errno == EINTR) {
  }
  close(took[0]);
  close(took[1]);
  setpgid(0, 0);
  send_packet(sock, ForkServerMessage::Started, getpid());
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
  const int entry_errno = errno;  // a run starts with the errno an exec'd run has here
  // A child writes a byte here when it takes a request, so that the server knows whether to
  // report its end: a waiting child can also end without one (the driver closed the socket, or
  // someone killed it). Both ends are closed in every run before the program sees its files.
  int took[2];
  if (pipe2(took, O_CLOEXEC | O_NONBLOCK) != 0) {
    send_packet(sock, ForkServerMessage::Hello, 0, false, "the fork server could not make a pipe");
    _exit(0);
  }
  send_packet(sock, ForkServerMessage::Hello, 0);
  const pid_t server = getpid();
  for (;;) {
    // The next run's process is forked before its request arrives: the fork then overlaps the
    // driver's work on the previous run instead of following it. The child waits for the
    // request itself; the server meanwhile only waits for the child to end.
    const pid_t pid = _Fork();  // no atfork handlers: nothing but libc's own state exists yet
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != server) _exit(127);
      int record_fd = -1, output_fd = -1;
      if (!receive_run(sock, record_fd, output_fd)) _exit(0);  // the driver is done
      become_run(sock, record_fd, output_fd, took);
      errno = entry_errno;
      return;
    }
    if (pid < 0) {  // answer the next request with the reason
      const int error = errno;
      int record_fd = -1, output_fd = -1;
      if (!receive_run(sock, record_fd, output_fd)) _exit(0);
      close(record_fd);
      close(output_fd);
      send_packet(sock, ForkServerMessage::Failed, error);
      continue;
    }
    setpgid(pid, pid);
    // Like the driver's reap(): once the child has exited, kill what it left in its group, then
    // collect it; the driver's timeouts kill the group from outside.
    siginfo_t info;
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    char taken = 0;
    if (read(took[0], &taken, 1) != 1) {  // it ended waiting: fork the next, unless the driver is done
      if (driver_gone(sock)) _exit(0);
      continue;
    }
    send_packet(sock, ForkServerMessage::Ended, status);
  }
}

}  // namespace ctrlsched::shim
