// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause * R1@31 W2@139
//
// Connection registry for a small line-protocol front end. The acceptor
// registers each accepted socket; a background reaper closes connections whose
// session has been idle for longer than the configured timeout.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::uint64_t now_ms() {
    using namespace std::chrono;
    return static_cast<std::uint64_t>(
        duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count());
}

struct Session {
    Session(std::string user_, std::uint64_t now) : user(std::move(user_)), last_activity_ms(now) {}

    std::uint64_t idle_ms(std::uint64_t now) const {
        return now > last_activity_ms ? now - last_activity_ms : 0;
    }

    std::string user;
    std::uint64_t last_activity_ms;
    std::uint64_t bytes_in = 0;
};

struct Connection {
    explicit Connection(int fd_) : fd(fd_) {}

    int fd;
    std::unique_ptr<Session> session;
};

class ConnRegistry {
public:
    ConnRegistry(std::size_t capacity, std::uint64_t idle_timeout_ms)
        : capacity_(capacity), idle_timeout_ms_(idle_timeout_ms),
          reaper_([this] { reap_loop(); }) {}

    ~ConnRegistry() {
        {
            std::lock_guard lk(mu_);
            stopping_ = true;
        }
        cv_.notify_all();
        reaper_.join();
    }

    ConnRegistry(const ConnRegistry&) = delete;
    ConnRegistry& operator=(const ConnRegistry&) = delete;

    // Returns nullptr when the registry is full; the caller closes the socket.
    Connection* add(int fd) {
        std::lock_guard lk(mu_);
        if (conns_.size() >= capacity_)
            return nullptr;
        conns_.push_back(std::make_unique<Connection>(fd));
        return conns_.back().get();
    }

    std::size_t live() const {
        std::lock_guard lk(mu_);
        std::size_t n = 0;
        for (const auto& c : conns_)
            n += c->fd >= 0;
        return n;
    }

private:
    void reap_loop() {
        std::unique_lock lk(mu_);
        while (!stopping_) {
            sweep(now_ms());
            cv_.wait_for(lk, std::chrono::milliseconds(10), [this] { return stopping_; });
        }
    }

    // Called with mu_ held.
    void sweep(std::uint64_t now) {
        for (auto& c : conns_) {
            if (c->fd >= 0 && c->session->idle_ms(now) > idle_timeout_ms_)
                c->fd = -1;   // the poller closes the socket once it sees the slot freed
        }
    }

    const std::size_t capacity_;
    const std::uint64_t idle_timeout_ms_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::vector<std::unique_ptr<Connection>> conns_;
    std::thread reaper_;   // last, so it starts once the members above exist
};

// Parses the client's "HELLO <user> <version>" line.
bool parse_hello(const char* line, std::string& user, int& version) {
    char name[32];
    if (std::sscanf(line, "HELLO %31s %d", name, &version) != 2)
        return false;
    user = name;
    return version >= 1;
}

}  // namespace

int main() {
    ConnRegistry registry(64, 30000);

    // Stand-in for the accept loop: clients connect and send their hello.
    unsigned accepted = 0, rejected = 0;
    for (int fd = 100; fd < 116; ++fd) {
        char hello[64];
        std::snprintf(hello, sizeof hello, "HELLO client%d %d\r\n", fd, 2 + fd % 3);
        std::string user;
        int version = 0;
        if (!parse_hello(hello, user, version)) {
            ++rejected;
            continue;
        }
        // Register first: a full registry turns the client away before we
        // spend anything on a session.
        Connection* conn = registry.add(fd);
        if (conn == nullptr) {
            ++rejected;
            continue;
        }
        conn->session = std::make_unique<Session>(std::move(user), now_ms());
        ++accepted;
    }

    std::printf("accepted %u, rejected %u, live %zu\n", accepted, rejected, registry.live());
    return 0;
}
