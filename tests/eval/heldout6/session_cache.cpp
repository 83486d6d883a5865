// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_cache R1@26 R2@26 W1@34 W2@34
// ctrlsched-truth: cause g_cache R1@26 R2@26 W2@34 W1@34
//
// session_cache.cpp - a small session table guarded by a std::shared_mutex.
//
// Bug: SessionCache::get_or_create() looks the user up under a shared lock,
// drops it, builds a new session and inserts it under the unique lock without
// looking again. Two requests for the same user that both miss the lookup both
// insert, so the user ends up with two sessions (duplicate key in the table)
// and the two requests are handed different session ids.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

class SessionCache {
public:
    static constexpr int kCapacity = 16;

    int get_or_create(int user) {
        {
            std::shared_lock lk(mu_);
            for (int i = 0; i < count_; ++i)
                if (users_[i] == user)
                    return ids_[i];
        }
        int id = make_session_id(user);
        std::unique_lock lk(mu_);
        users_[count_] = user;
        ids_[count_] = id;
        ++count_;
        return id;
    }

    // Every user must own at most one session.
    bool consistent() {
        std::shared_lock lk(mu_);
        for (int i = 0; i < count_; ++i)
            for (int j = i + 1; j < count_; ++j)
                if (users_[i] == users_[j])
                    return false;
        return true;
    }

private:
    int make_session_id(int user) { return user * 1000 + ++serial_; }

    std::shared_mutex mu_;
    int users_[kCapacity] = {};
    int ids_[kCapacity] = {};
    int count_ = 0;
    std::atomic<int> serial_{0};
};

SessionCache g_cache;

int main() {
    int first = 0, second = 0;
    std::thread a([&] { first = g_cache.get_or_create(42); });
    std::thread b([&] { second = g_cache.get_or_create(42); });
    a.join();
    b.join();
    std::printf("sessions for user 42: %d %d\n", first, second);
    assert(g_cache.consistent());
    assert(first == second);
    return 0;
}
