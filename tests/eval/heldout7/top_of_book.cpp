// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause * R1@31:px W2@26:px W2@27:qty R1@32:qty
// ctrlsched-truth: cause * W1@26:px R2@31:px R2@32:qty W1@27:qty
// Top-of-book cache for one instrument: the feed thread stores the best bid's
// price and size, a strategy thread reads the quote to price its orders. Each
// field is its own std::atomic, so no single access races, but a quote is the
// pair: a read that falls between the two stores of an update returns the
// price of one update with the size of another, a quote never published.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

struct Quote {
  long px;
  long qty;
};

constexpr Quote kOpening = {100, 1};
constexpr Quote kFeed[] = {{101, 5}, {102, 7}, {103, 2}};
constexpr int kReads = 3;

class TopOfBook {
 public:
  void update(const Quote& q) {
    px_.store(q.px, std::memory_order_release);
    qty_.store(q.qty, std::memory_order_release);  // BUG: not one step with px_
  }
  Quote read() const {
    Quote q;
    q.px = px_.load(std::memory_order_acquire);
    q.qty = qty_.load(std::memory_order_acquire);
    return q;
  }

 private:
  std::atomic<long> px_{kOpening.px};
  std::atomic<long> qty_{kOpening.qty};
};

bool was_published(const Quote& q) {
  if (q.px == kOpening.px && q.qty == kOpening.qty) return true;
  for (const Quote& f : kFeed)
    if (q.px == f.px && q.qty == f.qty) return true;
  return false;
}

int main() {
  TopOfBook book;
  Quote seen[kReads];
  std::thread feed([&] {
    for (const Quote& q : kFeed) book.update(q);
  });
  std::thread strategy([&] {
    for (int i = 0; i < kReads; ++i) seen[i] = book.read();
  });
  feed.join();
  strategy.join();
  for (const Quote& q : seen) {
    std::printf("quote %ld x %ld\n", q.px, q.qty);
    assert(was_published(q));
  }
  return 0;
}
