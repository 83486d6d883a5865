// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_active R1@23 W2@23 W1@23
// ctrlsched-truth: cause g_active R1@26 W2@26 W1@26
// ctrlsched-truth: cause g_active R1@23 W2@26 W1@23
// ctrlsched-truth: cause g_active R1@26 W2@23 W1@26
// download_slots.cpp - a downloader limits itself to two parallel transfers with a
// std::counting_semaphore and tracks the number of active transfers for its progress display.
//
// The semaphore admits two threads at once, so the plain `g_active` counter is updated by two
// threads concurrently: an increment or decrement can be lost and the count does not return
// to zero.
#include <cassert>
#include <cstdio>
#include <semaphore>
#include <thread>

std::counting_semaphore<2> g_slots(2);
int g_active = 0;
int g_peak = 0;

void download(int id) {
  g_slots.acquire();
  ++g_active;
  if (g_active > g_peak) g_peak = g_active;
  std::printf("transfer %d running\n", id);
  --g_active;
  g_slots.release();
}

int main() {
  std::thread a(download, 1), b(download, 2), c(download, 3);
  a.join();
  b.join();
  c.join();
  std::printf("peak %d parallel transfers\n", g_peak);
  assert(g_active == 0 && "active transfer count drifted");
  return 0;
}
