// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_store_mu,g_index_mu lock1@34:g_store_mu lock2@42:g_index_mu lock2@43:g_store_mu lock1@28:g_index_mu
// ctrlsched-truth: cause g_store_mu,g_index_mu lock1@42:g_index_mu lock2@34:g_store_mu lock1@43:g_store_mu lock2@28:g_index_mu
// A small document store: the writer stores documents and indexes each one while it still holds
// the store; the compactor takes the index, then the store, and rebuilds the word totals.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

constexpr int kDocs = 4;

struct Doc {
  int id;
  int words;
};

Doc g_store[kDocs];
int g_store_count = 0;
int g_index[kDocs];  // document id per index slot
int g_index_count = 0;
long g_indexed_words = 0;
std::mutex g_store_mu;
std::mutex g_index_mu;

// Adds a stored document to the index. The caller holds g_store_mu.
static void index_doc(int slot) {
  std::lock_guard<std::mutex> lk(g_index_mu);
  g_index[g_index_count++] = g_store[slot].id;
}

static void writer() {
  for (int i = 0; i < kDocs; ++i) {
    std::lock_guard<std::mutex> lk(g_store_mu);
    int slot = g_store_count++;
    g_store[slot] = Doc{100 + i, 10 * (i + 1)};
    index_doc(slot);
  }
}

static void compactor() {
  std::lock_guard<std::mutex> ilk(g_index_mu);
  std::lock_guard<std::mutex> slk(g_store_mu);
  assert(g_index_count == g_store_count);
  long words = 0;
  for (int i = 0; i < g_index_count; ++i) {
    for (int j = 0; j < g_store_count; ++j) {
      if (g_store[j].id == g_index[i]) words += g_store[j].words;
    }
  }
  g_indexed_words = words;
}

int main() {
  std::thread w(writer);
  std::thread c(compactor);
  w.join();
  c.join();
  assert(g_index_count == kDocs);
  std::printf("indexed %d documents, %ld words at compaction\n", g_index_count, g_indexed_words);
  return 0;
}
