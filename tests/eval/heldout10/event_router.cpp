// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_router,g_monitor lock1@44:g_router lock2@89:g_monitor lock2@36:g_router lock1@78:g_monitor
// ctrlsched-truth: cause g_router,g_monitor lock1@89:g_monitor lock2@44:g_router lock2@78:g_monitor lock1@36:g_router
//
// In-process pub/sub for market data.  The feed thread publishes price
// ticks; a dashboard session keeps a PriceMonitor subscribed while it is
// open and detaches it when the user closes the view.

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

struct Event {
    std::string topic;
    double value;
};

class EventRouter {
public:
    using Handler = std::function<void(const Event&)>;

    int subscribe(std::string topic, Handler handler) {
        std::lock_guard<std::mutex> guard(mutex_);
        int id = next_id_++;
        subs_.push_back({id, std::move(topic), std::move(handler)});
        return id;
    }

    void unsubscribe(int id) {
        std::lock_guard<std::mutex> guard(mutex_);
        std::erase_if(subs_, [id](const Subscription& s) { return s.id == id; });
    }

    // Delivery is synchronous and in subscription order.  The table lock
    // is held while handlers run so that once unsubscribe() returns the
    // handler will not be called again.
    void publish(const Event& ev) {
        std::lock_guard<std::mutex> guard(mutex_);
        ++published_;
        for (auto& s : subs_)
            if (s.topic == ev.topic)
                s.handler(ev);
    }

    std::size_t subscriber_count() {
        std::lock_guard<std::mutex> guard(mutex_);
        return subs_.size();
    }

private:
    struct Subscription {
        int id;
        std::string topic;
        Handler handler;
    };

    std::mutex mutex_;
    std::vector<Subscription> subs_;
    int next_id_ = 1;
    long published_ = 0;
};

class PriceMonitor {
public:
    void attach(EventRouter& router) {
        std::lock_guard<std::mutex> guard(mutex_);
        router_ = &router;
        sub_id_ = router.subscribe("price", [this](const Event& ev) { on_price(ev); });
    }

    void on_price(const Event& ev) {
        std::lock_guard<std::mutex> guard(mutex_);
        if (closed_)
            return;
        last_ = ev.value;
        high_ = std::max(high_, ev.value);
        ++ticks_;
    }

    // Called when the dashboard view goes away.  Marks the monitor closed
    // and drops the subscription so the router stops calling us.
    void close() {
        std::lock_guard<std::mutex> guard(mutex_);
        closed_ = true;
        if (router_ != nullptr) {
            router_->unsubscribe(sub_id_);
            router_ = nullptr;
        }
    }

    double high() {
        std::lock_guard<std::mutex> guard(mutex_);
        return high_;
    }

    long ticks() {
        std::lock_guard<std::mutex> guard(mutex_);
        return ticks_;
    }

private:
    std::mutex mutex_;
    EventRouter* router_ = nullptr;
    int sub_id_ = 0;
    bool closed_ = false;
    double last_ = 0.0;
    double high_ = 0.0;
    long ticks_ = 0;
};

EventRouter g_router;
PriceMonitor g_monitor;

int main() {
    g_monitor.attach(g_router);

    std::thread feed([] {
        const double prices[] = {101.25, 101.50, 100.75, 102.00};
        for (double p : prices)
            g_router.publish(Event{"price", p});
    });

    std::thread dashboard([] {
        // Render a couple of frames, then the user closes the view.
        double shown = 0.0;
        for (int frame = 0; frame < 2; ++frame)
            shown = std::max(shown, g_monitor.high());
        g_monitor.close();
        assert(shown <= 102.00);
    });

    feed.join();
    dashboard.join();

    assert(g_router.subscriber_count() == 0);
    std::printf("monitor saw %ld ticks, high %.2f\n", g_monitor.ticks(), g_monitor.high());
    return 0;
}
