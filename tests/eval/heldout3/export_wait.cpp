// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_done,g_cv R1@27:g_done W2@21:g_done signal2@22:g_cv wait1@28:g_cv
// Background export: main starts the exporter and waits for it to finish before printing the
// summary. The exporter raises the done flag and notifies without holding the mutex, so both
// can happen between main's check of the flag and its wait; main then waits forever.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

std::mutex g_mu;
std::condition_variable g_cv;
bool g_done = false;
std::vector<std::string> g_lines;

void export_rows(int rows) {
    for (int i = 0; i < rows; i++)
        g_lines.push_back("row," + std::to_string(i) + "," + std::to_string(i * i));
    g_done = true;
    g_cv.notify_one();
}

void wait_for_export() {
    std::unique_lock<std::mutex> lk(g_mu);
    while (!g_done)
        g_cv.wait(lk);
}

int main() {
    std::thread exporter(export_rows, 3);
    wait_for_export();
    std::printf("exported %zu rows\n", g_lines.size());
    exporter.join();
    return 0;
}
