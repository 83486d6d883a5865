// Starting and talking to a fork server (see fork_server.h).
#include "runs/fork_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "ctrlsched/fork_server.h"
#include "exit_codes.h"
#include "runs/run_record_region.h"
#include "runs/stop_request.h"

namespace ctrlsched::driver {
namespace {

constexpr int kStopCheckMs = 50;
// How long a server may take to exit by itself once its socket is closed (see ~ForkServer).
constexpr int kServerExitGraceMs = 200;

[[noreturn]] void server_gone(const std::string& what) {
  throw DriverError(ExitCode::Internal, "the fork server " + what + " (run with --no-fork-server to avoid it)");
}

// One packet, or nullopt on end of file / error / timeout (timeout_ms < 0: no time limit). With
// `stop_on_request`, a stop request (Ctrl-C, SIGTERM) also ends the wait: nothing the driver
// waits for from a server may outlast the user's wish to stop (docs/fork-server.md).
std::optional<ForkServerPacket> receive(int socket, int timeout_ms, bool stop_on_request = false) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
  pollfd fd{socket, POLLIN, 0};
  for (;;) {
    if (stop_on_request && interrupted()) return std::nullopt;
    int wait_ms = timeout_ms;
    if (timeout_ms >= 0) {
      wait_ms = static_cast<int>(std::max<std::int64_t>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count()));
    }
    // The signal may land just before poll() starts; a short slice bounds how late we notice.
    if (stop_on_request && (wait_ms < 0 || wait_ms > kStopCheckMs)) wait_ms = kStopCheckMs;
    const int ready = ::poll(&fd, 1, wait_ms);
    if (ready > 0) break;
    if (ready < 0 && errno != EINTR) return std::nullopt;
    if (ready == 0 && timeout_ms >= 0 && Clock::now() >= deadline) return std::nullopt;
  }
  ForkServerPacket packet;
  ssize_t n;
  while ((n = ::recv(socket, &packet, sizeof packet, 0)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(sizeof packet) || packet.magic != kForkServerMagic) return std::nullopt;
  packet.text[sizeof packet.text - 1] = '\0';
  return packet;
}

void stop_process(pid_t pid) {
  if (pid <= 0) return;
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::optional<ForkServer> ForkServer::start(const LaunchTarget& target, int cpu, std::chrono::duration<double> timeout,
                                            std::string* why_not) {
  std::optional<ForkServer> server = spawn(target, cpu, why_not);
  if (!server || !server->await_hello(timeout, why_not)) return std::nullopt;
  return server;
}

std::optional<ForkServer> ForkServer::spawn(const LaunchTarget& target, int cpu, std::string* why_not) {
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) {
    *why_not = std::string("socketpair failed: ") + std::strerror(errno);
    return std::nullopt;
  }
  LaunchOptions options;
  options.cpu = cpu;
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  options.output_fd = null_fd;  // the server itself prints nothing; each run gets its own output
  pid_t pid = -1;
  try {
    pid = launch_process(target, sockets[1], nullptr, options);
  } catch (...) {
    ::close(sockets[0]);
    ::close(sockets[1]);
    if (null_fd >= 0) ::close(null_fd);
    throw;
  }
  ::close(sockets[1]);
  if (null_fd >= 0) ::close(null_fd);
  return ForkServer(pid, sockets[0]);
}

bool ForkServer::await_hello(std::chrono::duration<double> timeout, std::string* why_not) {
  if (!hello_pending_) return true;
  const int timeout_ms = static_cast<int>(std::chrono::duration<double, std::milli>(timeout).count());
  const std::optional<ForkServerPacket> hello = receive(socket_, timeout_ms, true);
  if (interrupted()) throw Interrupted();  // the caller's server object stops it
  if (!hello || hello->kind != ForkServerMessage::Hello) {
    *why_not = "the test did not start as a fork server";
    return false;
  }
  if (!hello->ok) {
    *why_not = hello->text;
    return false;
  }
  hello_pending_ = false;
  return true;
}

ForkServer::ForkServer(ForkServer&& other) noexcept
    : pid_(other.pid_), socket_(other.socket_), hello_pending_(other.hello_pending_) {
  other.pid_ = -1;
  other.socket_ = -1;
}

ForkServer::~ForkServer() {
  if (socket_ >= 0) ::close(socket_);
  // The server keeps the next run's process forked and waiting for a request. At end of file
  // that child exits, the server reaps it and exits too: let it, briefly, so that the child is
  // not orphaned (killed by its death signal, it would wait for init to reap it). A server busy
  // with a run, or stuck, is killed after the grace time as before. A server whose hello never
  // came forked no run yet (or one in its own process group, killed with it): stopped at once.
  if (pid_ > 0 && socket_ >= 0 && !hello_pending_) {
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) {
      pollfd fd{pidfd, POLLIN, 0};
      while (::poll(&fd, 1, kServerExitGraceMs) < 0 && errno == EINTR) {
      }
      ::close(pidfd);
    }
  }
  stop_process(pid_);
}

pid_t ForkServer::launch(RunRecordRegion& region, int output_fd) {
  ForkServerPacket packet;
  packet.kind = ForkServerMessage::Run;
  iovec iov{&packet, sizeof packet};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(2 * sizeof(int));
  const int fds[2] = {region.fd(), output_fd};
  std::memcpy(CMSG_DATA(header), fds, sizeof fds);
  ssize_t n;
  while ((n = ::sendmsg(socket_, &message, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(sizeof packet)) server_gone("is gone");
  // A stop request ends the wait too: the caller then tears this server down, and the child it
  // may have forked dies with it (PR_SET_PDEATHSIG).
  const std::optional<ForkServerPacket> reply = receive(socket_, -1, true);
  if (!reply && interrupted()) throw Interrupted();
  if (!reply) server_gone("is gone");
  if (reply->kind == ForkServerMessage::Failed) {
    errno = reply->value;
    throw DriverError(ExitCode::Internal, std::string("fork failed in the fork server: ") + std::strerror(errno));
  }
  if (reply->kind != ForkServerMessage::Started || reply->value <= 0) server_gone("sent an unexpected message");
  return static_cast<pid_t>(reply->value);
}

int ForkServer::wait_status() {
  const std::optional<ForkServerPacket> reply = receive(socket_, -1);
  if (!reply || reply->kind != ForkServerMessage::Ended) server_gone("did not report how a run ended");
  return reply->value;
}

std::optional<int> ForkServer::wait_status_within(std::chrono::milliseconds limit) {
  const std::optional<ForkServerPacket> reply = receive(socket_, static_cast<int>(limit.count()));
  if (!reply || reply->kind != ForkServerMessage::Ended) return std::nullopt;
  return reply->value;
}

}  // namespace ctrlsched::driver
