// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_book+40 R1@27 W2@39 R1@38
// ctrlsched-truth: cause g_book+40 R1@27 R2@27 W1@39 R2@38
// ctrlsched-truth: cause g_book+40 R1@27 R2@27 W2@39 R1@38
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

struct Fill {
  int taker;
  int qty;
  long price;
};

class OrderBook {
 public:
  void add_liquidity(long price, int qty) {
    std::lock_guard<std::mutex> lk(mu_);
    best_price_ = price;
    best_qty_ += qty;
  }

  int best_qty() {
    std::lock_guard<std::mutex> lk(mu_);
    return best_qty_;
  }

  long best_price() {
    std::lock_guard<std::mutex> lk(mu_);
    return best_price_;
  }

  void fill(int taker, int n) {
    if (n <= 0) return;
    std::lock_guard<std::mutex> lk(mu_);
    assert(best_qty_ >= n);
    best_qty_ -= n;
    filled_ += n;
    if (nfills_ < kMaxFills) fills_[nfills_++] = Fill{taker, n, best_price_};
  }

  int filled() {
    std::lock_guard<std::mutex> lk(mu_);
    return filled_;
  }

 private:
  static constexpr int kMaxFills = 64;
  std::mutex mu_;
  int best_qty_ = 0;
  long best_price_ = 0;
  int filled_ = 0;
  int nfills_ = 0;
  Fill fills_[kMaxFills];
};

OrderBook g_book;

static void taker(int id, int lot, int orders) {
  for (int i = 0; i < orders; ++i) {
    if (g_book.best_qty() >= lot) {
      g_book.fill(id, lot);
    }
  }
}

int main() {
  g_book.add_liquidity(10150, 30);
  std::vector<std::thread> takers;
  takers.emplace_back(taker, 1, 4, 4);
  takers.emplace_back(taker, 2, 7, 2);
  takers.emplace_back(taker, 3, 5, 2);
  for (auto& t : takers) t.join();
  int left = g_book.best_qty();
  assert(left >= 0);
  assert(left + g_book.filled() == 30);
  std::printf("filled %d, %d left at %ld\n", g_book.filled(), left, g_book.best_price());
  return 0;
}
