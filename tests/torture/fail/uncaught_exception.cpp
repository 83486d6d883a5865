// Failure kind: signal (SIGABRT from std::terminate). A worker thread parses jobs from a shared
// queue; when it finds the queue empty because another worker took the last job between its
// size check and its pop (two lock regions), it throws, nothing catches it in the thread, and
// std::terminate aborts the process.
#include <cstdio>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace {

std::mutex lock;
std::deque<int> jobs = {1, 2, 3};

int take() {
  {
    std::lock_guard<std::mutex> guard(lock);
    if (jobs.empty()) return 0;
  }
  // BUG: the check above and the pop below are separate critical sections.
  std::lock_guard<std::mutex> guard(lock);
  if (jobs.empty()) throw std::runtime_error("job queue unexpectedly empty");
  int job = jobs.front();
  jobs.pop_front();
  return job;
}

void work() {
  while (take() != 0) {
  }
}

}  // namespace

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  std::printf("all jobs done\n");
  return 0;
}
