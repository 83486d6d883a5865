// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_latch R1@19 W2@27 signal2@28 wait1@21
//
// ready_latch.cpp - a one-shot start latch: workers block until main opens it.
//
// Bug: StartLatch::wait() tests the `started_` flag without holding the mutex
// and then waits on the condition variable without re-checking the flag. If
// open() sets the flag and notifies after the worker saw `started_ == false`
// but before it is waiting, the notification is lost: the worker sleeps
// forever and main, joining it, blocks too.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

class StartLatch {
public:
    void wait() {
        if (!started_) {
            std::unique_lock lk(mu_);
            cv_.wait(lk);
        }
    }

    void open() {
        std::lock_guard lk(mu_);
        started_ = true;
        cv_.notify_all();
    }

private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool started_ = false;
};

StartLatch g_latch;
int g_jobs_done = 0;

void worker() {
    g_latch.wait();
    for (int i = 0; i < 3; ++i)
        ++g_jobs_done;
}

int main() {
    std::thread t(worker);
    std::printf("main: setting up\n");
    g_latch.open();
    t.join();
    std::printf("jobs done: %d\n", g_jobs_done);
    return 0;
}
