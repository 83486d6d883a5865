// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_east,g_west lock1@36:g_east lock2@36:g_west lock2@42:g_east lock1@42:g_west
// ctrlsched-truth: cause g_east,g_west lock1@36:g_west lock2@36:g_east lock2@42:g_west lock1@42:g_east
//
// Nightly stock rebalancing between two regional warehouses.  Each
// warehouse guards its own stock table; a rebalancer moves surplus from
// one site to the other.

#include <cassert>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Warehouse {
public:
    explicit Warehouse(std::string name) : name_(std::move(name)) {}

    void receive(const std::string& sku, int qty) {
        std::lock_guard<std::mutex> guard(mutex_);
        stock_[sku] += qty;
    }

    int on_hand(const std::string& sku) const {
        std::lock_guard<std::mutex> guard(mutex_);
        auto it = stock_.find(sku);
        return it == stock_.end() ? 0 : it->second;
    }

    // Moves up to `qty` units of `sku` to `other`.  Both tables are held
    // for the duration so the units are never visible in neither (or
    // both) warehouses.  Returns the number of units actually moved.
    int transfer_to(Warehouse& other, const std::string& sku, int qty) {
        std::lock_guard<std::mutex> mine(mutex_);
        auto it = stock_.find(sku);
        if (it == stock_.end() || it->second == 0)
            return 0;
        int moved = it->second < qty ? it->second : qty;
        it->second -= moved;
        std::lock_guard<std::mutex> theirs(other.mutex_);
        other.stock_[sku] += moved;
        ++other.inbound_transfers_;
        return moved;
    }

    const std::string& name() const { return name_; }

private:
    mutable std::mutex mutex_;
    std::string name_;
    std::map<std::string, int> stock_;
    long inbound_transfers_ = 0;
};

Warehouse g_east("east");
Warehouse g_west("west");

struct RebalancePlan {
    Warehouse* from;
    Warehouse* to;
    std::vector<std::string> skus;
};

static int run_plan(const RebalancePlan& plan) {
    int total = 0;
    for (const auto& sku : plan.skus)
        total += plan.from->transfer_to(*plan.to, sku, 5);
    return total;
}

int main() {
    const std::vector<std::string> skus = {"bolt-m6", "washer-6", "nut-m6"};
    for (const auto& sku : skus) {
        g_east.receive(sku, 40);
        g_west.receive(sku, 25);
    }

    // East has surplus bolts, west has surplus nuts; both jobs run at once.
    RebalancePlan east_to_west{&g_east, &g_west, {"bolt-m6", "washer-6"}};
    RebalancePlan west_to_east{&g_west, &g_east, {"nut-m6", "washer-6"}};

    int moved_ew = 0, moved_we = 0;
    std::thread t1([&] { moved_ew = run_plan(east_to_west); });
    std::thread t2([&] { moved_we = run_plan(west_to_east); });
    t1.join();
    t2.join();

    for (const auto& sku : skus)
        assert(g_east.on_hand(sku) + g_west.on_hand(sku) == 65);
    std::printf("moved %d east->west, %d west->east\n", moved_ew, moved_we);
    return 0;
}
