// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_bus,g_sub lock1@66:g_bus lock2@72:g_sub lock2@57:g_bus lock1@35:g_sub
// ctrlsched-truth: cause g_bus,g_sub lock1@72:g_sub lock2@66:g_bus lock2@35:g_sub lock1@57:g_bus
//
// event_bus.cpp - a tiny publish/subscribe bus.
//
// Bug: Bus::publish() keeps the bus mutex locked while it runs the subscriber
// callbacks, and Subscriber::on_event() takes the subscriber's own mutex. At
// the same time Subscriber::unsubscribe() holds the subscriber mutex and calls
// Bus::remove(), which takes the bus mutex. The publisher thread holds bus ->
// wants subscriber, the unsubscribing thread holds subscriber -> wants bus:
// lock-order inversion, both threads block forever.
#include <cstdio>
#include <mutex>
#include <thread>

class Subscriber;

class Bus {
public:
    void add(Subscriber* s);
    void remove(Subscriber* s);
    void publish(int event);

private:
    static constexpr int kMax = 8;
    std::mutex mu_;
    Subscriber* subs_[kMax] = {};
    int count_ = 0;
};

class Subscriber {
public:
    void on_event(int event) {
        std::lock_guard lk(mu_);
        if (active_)
            last_event_ = event;
    }
    void unsubscribe(Bus& bus);
    int last_event() {
        std::lock_guard lk(mu_);
        return last_event_;
    }

private:
    std::mutex mu_;
    bool active_ = true;
    int last_event_ = 0;
};

void Bus::add(Subscriber* s) {
    std::lock_guard lk(mu_);
    subs_[count_++] = s;
}

void Bus::remove(Subscriber* s) {
    std::lock_guard lk(mu_);
    for (int i = 0; i < count_; ++i)
        if (subs_[i] == s) {
            subs_[i] = subs_[--count_];
            return;
        }
}

void Bus::publish(int event) {
    std::lock_guard lk(mu_);
    for (int i = 0; i < count_; ++i)
        subs_[i]->on_event(event);
}

void Subscriber::unsubscribe(Bus& bus) {
    std::lock_guard lk(mu_);
    active_ = false;
    bus.remove(this);
}

Bus g_bus;
Subscriber g_sub;

int main() {
    g_bus.add(&g_sub);
    std::thread publisher([] { g_bus.publish(1); });
    std::thread leaver([] { g_sub.unsubscribe(g_bus); });
    publisher.join();
    leaver.join();
    std::printf("last event seen: %d\n", g_sub.last_event());
    return 0;
}
