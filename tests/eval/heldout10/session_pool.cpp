// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_pool R1@45 W2@53 R1@51
//
// Connection reuse for the reporting service.  Request handlers borrow
// an idle backend session from the pool when there is one and open a
// fresh session otherwise; sessions go back to the pool when the
// request is done.

#include <atomic>
#include <cassert>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

class Session {
public:
    Session(int id, std::string peer) : id_(id), peer_(std::move(peer)) {}

    // Stand-in for a round trip to the backend: hash the query text.
    unsigned long execute(const std::string& query) {
        unsigned long h = 1469598103934665603ul;
        for (char c : query)
            h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ul;
        ++queries_;
        return h;
    }

    int id() const { return id_; }
    long queries() const { return queries_; }

private:
    int id_;
    std::string peer_;
    long queries_ = 0;
};

class SessionPool {
public:
    std::size_t idle_count() const {
        std::lock_guard<std::mutex> guard(mutex_);
        return idle_.size();
    }

    // Precondition: the caller has seen idle_count() > 0.
    std::unique_ptr<Session> take() {
        std::lock_guard<std::mutex> guard(mutex_);
        assert(!idle_.empty() && "take() called on an empty pool");
        std::unique_ptr<Session> s = std::move(idle_.back());
        idle_.pop_back();
        return s;
    }

    void give_back(std::unique_ptr<Session> s) {
        std::lock_guard<std::mutex> guard(mutex_);
        idle_.push_back(std::move(s));
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Session>> idle_;
};

SessionPool g_pool;
std::atomic<int> g_next_session_id{1};

static std::unique_ptr<Session> open_session() {
    return std::make_unique<Session>(g_next_session_id.fetch_add(1), "reports-db:5432");
}

static std::unique_ptr<Session> checkout() {
    if (g_pool.idle_count() > 0)
        return g_pool.take();
    return open_session();
}

static unsigned long handle_request(int worker, int n) {
    std::unique_ptr<Session> s = checkout();
    std::string query = "SELECT total FROM daily_sales WHERE shard = " +
                        std::to_string(worker) + " AND day = " + std::to_string(n);
    unsigned long result = s->execute(query);
    g_pool.give_back(std::move(s));
    return result;
}

int main() {
    g_pool.give_back(open_session());

    unsigned long sums[2] = {0, 0};
    std::vector<std::thread> workers;
    for (int w = 0; w < 2; ++w) {
        workers.emplace_back([w, &sums] {
            for (int n = 0; n < 3; ++n)
                sums[w] += handle_request(w, n);
        });
    }
    for (auto& t : workers)
        t.join();

    std::printf("pool holds %zu sessions, checksums %lx %lx\n",
                g_pool.idle_count(), sums[0], sums[1]);
    return 0;
}
