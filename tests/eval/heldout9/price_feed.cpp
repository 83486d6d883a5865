// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_book R1@51 R2@51 W1@56 W2@56
// ctrlsched-truth: cause g_book R1@51 R2@51 W2@56 W1@56
//
// Top-of-book for a handful of instruments, fed by an A/B line pair.
// The exchange publishes every message on two redundant multicast lines; each
// line has its own handler thread, whichever copy arrives first is applied and
// the late duplicate is dropped by sequence number.

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kSymbols = 6;

struct Quote {
    std::uint32_t symbol;
    std::uint64_t seq;     // per-symbol sequence number assigned by the exchange
    std::int64_t bid;      // prices in ticks
    std::int64_t ask;
    std::uint32_t bid_size;
    std::uint32_t ask_size;
};

struct Level {
    std::uint64_t last_seq = 0;
    std::int64_t bid = 0;
    std::int64_t ask = 0;
    std::uint32_t bid_size = 0;
    std::uint32_t ask_size = 0;
    std::uint64_t updates = 0;
};

class QuoteBook {
public:
    // Returns false for a copy we have already applied from the other line.
    bool apply(const Quote& q) {
        {
            // Roughly half of all traffic is the losing copy of a message, so
            // filter those under the shared lock and keep the lines from
            // serialising on each other.
            std::shared_lock rd(mu_);
            if (q.seq <= levels_[q.symbol].last_seq)
                return false;
        }
        std::unique_lock wr(mu_);
        Level& lv = levels_[q.symbol];
        lv.last_seq = q.seq;
        lv.bid = q.bid;
        lv.ask = q.ask;
        lv.bid_size = q.bid_size;
        lv.ask_size = q.ask_size;
        lv.updates += 1;
        return true;
    }

    Level snapshot(std::uint32_t symbol) const {
        std::shared_lock rd(mu_);
        return levels_[symbol];
    }

private:
    mutable std::shared_mutex mu_;
    std::array<Level, kSymbols> levels_{};
};

}  // namespace

QuoteBook g_book;

namespace {

// Wire format of one packet: symbol, seq, bid, ask, sizes, little endian.
struct Packet {
    unsigned char bytes[40];
};

Packet encode(const Quote& q) {
    Packet p{};
    std::memcpy(p.bytes + 0, &q.symbol, 4);
    std::memcpy(p.bytes + 4, &q.seq, 8);
    std::memcpy(p.bytes + 12, &q.bid, 8);
    std::memcpy(p.bytes + 20, &q.ask, 8);
    std::memcpy(p.bytes + 28, &q.bid_size, 4);
    std::memcpy(p.bytes + 32, &q.ask_size, 4);
    return p;
}

Quote decode(const Packet& p) {
    Quote q{};
    std::memcpy(&q.symbol, p.bytes + 0, 4);
    std::memcpy(&q.seq, p.bytes + 4, 8);
    std::memcpy(&q.bid, p.bytes + 12, 8);
    std::memcpy(&q.ask, p.bytes + 20, 8);
    std::memcpy(&q.bid_size, p.bytes + 28, 4);
    std::memcpy(&q.ask_size, p.bytes + 32, 4);
    return q;
}

struct LineStats {
    unsigned applied = 0;
    unsigned dropped = 0;
};

void run_line(const std::vector<Packet>& packets, LineStats& stats) {
    for (const Packet& p : packets) {
        Quote q = decode(p);
        if (q.symbol >= kSymbols)
            continue;
        if (g_book.apply(q))
            ++stats.applied;
        else
            ++stats.dropped;
    }
}

}  // namespace

int main() {
    // A short burst of traffic: a few quotes per instrument.
    std::vector<Packet> packets;
    std::array<std::uint64_t, kSymbols> next_seq{};
    std::array<std::uint64_t, kSymbols> expected{};
    for (unsigned i = 0; i < 24; ++i) {
        Quote q{};
        q.symbol = (i * 5) % kSymbols;
        q.seq = ++next_seq[q.symbol];
        q.bid = 10000 + 3 * static_cast<std::int64_t>(i);
        q.ask = q.bid + 2;
        q.bid_size = 100 + i;
        q.ask_size = 200 - i;
        packets.push_back(encode(q));
        expected[q.symbol] += 1;
    }

    // Both lines carry identical traffic.
    LineStats a, b;
    std::thread line_a(run_line, std::cref(packets), std::ref(a));
    std::thread line_b(run_line, std::cref(packets), std::ref(b));
    line_a.join();
    line_b.join();

    unsigned applied = a.applied + b.applied;
    for (std::uint32_t s = 0; s < kSymbols; ++s) {
        Level lv = g_book.snapshot(s);
        // Every message must be applied exactly once, whichever line won it.
        assert(lv.updates == expected[s]);
        assert(lv.last_seq == next_seq[s]);
    }
    assert(applied == packets.size());
    std::printf("applied %u (A %u, B %u), dropped %u\n", applied, a.applied, b.applied,
                a.dropped + b.dropped);
    return 0;
}
