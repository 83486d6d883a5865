// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_quota R1@19 W2@23 W1@23
// Disk quota of an upload service: reserve() checks the remaining quota under the shared lock
// (uploads check concurrently), then takes the exclusive lock to charge it. Two uploads that
// each fit alone both pass the check and together overrun the quota.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

class Quota {
public:
    explicit Quota(long limit, long used) : limit_(limit), used_(used) {}

    bool reserve(long bytes) {
        {
            std::shared_lock<std::shared_mutex> rd(mu_);
            if (used_ + bytes > limit_)
                return false;
        }
        std::unique_lock<std::shared_mutex> wr(mu_);
        used_ += bytes;
        assert(used_ <= limit_ && "quota overrun");
        return true;
    }

    long used() {
        std::shared_lock<std::shared_mutex> rd(mu_);
        return used_;
    }

private:
    std::shared_mutex mu_;
    long limit_;
    long used_;
};

Quota g_quota(1000, 400);

void upload(long size) {
    if (!g_quota.reserve(size)) {
        std::fprintf(stderr, "upload of %ld bytes rejected: over quota\n", size);
        return;
    }
    // ... store the file ...
}

int main() {
    std::thread a(upload, 350);
    std::thread b(upload, 500);
    a.join();
    b.join();
    std::printf("quota used: %ld of 1000\n", g_quota.used());
    return 0;
}
