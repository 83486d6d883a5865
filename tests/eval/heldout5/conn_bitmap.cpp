// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_free_mask R1@19 W2@22 W1@22
// A database connection pool that keeps its free connections in an atomic bitmap (bit i set:
// connection i is free). Three request handlers each check out one connection for their query.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

constexpr int kConns = 8;
constexpr int kHandlers = 3;

std::atomic<unsigned> g_free_mask{(1u << kConns) - 1};
int g_conn_port[kConns];
int g_checked_out[kHandlers] = {-1, -1, -1};  // each handler writes only its own entry
long g_rows[kHandlers];

static int checkout() {
  unsigned mask = g_free_mask.load();
  if (mask == 0) return -1;
  int conn = __builtin_ctz(mask);
  g_free_mask.store(mask & ~(1u << conn));
  return conn;
}

static void checkin(int conn) { g_free_mask.fetch_or(1u << conn); }

static long run_query(int conn, int id) {
  long rows = 0;
  for (int i = 0; i < 16 * (id + 1); ++i) rows += (g_conn_port[conn] + i) % 7;
  return rows;
}

static void handler(int id) {
  int conn = checkout();
  assert(conn >= 0);
  g_checked_out[id] = conn;
  g_rows[id] = run_query(conn, id);
}

int main() {
  for (int i = 0; i < kConns; ++i) g_conn_port[i] = 5432 + i;
  std::thread t0(handler, 0), t1(handler, 1), t2(handler, 2);
  t0.join();
  t1.join();
  t2.join();
  for (int i = 0; i < kHandlers; ++i) {
    for (int j = 0; j < i; ++j) assert(g_checked_out[i] != g_checked_out[j]);
  }
  assert(__builtin_popcount(g_free_mask.load()) == kConns - kHandlers);
  for (int i = 0; i < kHandlers; ++i) checkin(g_checked_out[i]);
  assert(g_free_mask.load() == (1u << kConns) - 1);
  std::printf("connections %d %d %d, rows %ld %ld %ld\n", g_checked_out[0], g_checked_out[1],
              g_checked_out[2], g_rows[0], g_rows[1], g_rows[2]);
  return 0;
}
