// A parallel word count with std::async, std::promise and std::packaged_task: the text is split
// into chunks counted by async tasks, a promise carries the longest word found by another
// thread, and a packaged_task runs on a std::thread. Must pass every seed with exact results.
#include <cassert>
#include <cstdio>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

int count_words(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  int n = 0;
  while (in >> word) n++;
  return n;
}

}  // namespace

int main() {
  const std::vector<std::string> chunks = {"the quick brown fox", "jumps over", "the lazy dog",
                                           "and keeps running far away"};
  std::vector<std::future<int>> counts;
  for (const auto& chunk : chunks) counts.push_back(std::async(std::launch::async, count_words, chunk));

  std::promise<std::string> longest_promise;
  std::future<std::string> longest = longest_promise.get_future();
  std::thread finder([&chunks, p = std::move(longest_promise)]() mutable {
    std::string best;
    for (const auto& chunk : chunks) {
      std::istringstream in(chunk);
      std::string word;
      while (in >> word)
        if (word.size() > best.size()) best = word;
    }
    p.set_value(best);
  });

  std::packaged_task<int(int, int)> add([](int a, int b) { return a + b; });
  std::future<int> sum = add.get_future();
  std::thread adder(std::move(add), 40, 2);

  int total = 0;
  for (auto& f : counts) total += f.get();
  assert(total == 14);
  assert(longest.get() == "running");
  assert(sum.get() == 42);
  finder.join();
  adder.join();
  std::printf("%d words, longest 'running'\n", total);
  return 0;
}
