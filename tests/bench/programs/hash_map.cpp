// Memory-heavy micro program in C++: fills a std::unordered_map with 150k entries and looks each
// up 3 times (allocation, hashing, bucket chains: instrumented libstdc++ inline code), on the main
// thread — every access point is on the fast path.
#include <cstdio>
#include <unordered_map>

int main() {
  long hits = 0;
  static std::unordered_map<long, long> map;  // static: its accesses are never filtered
  for (long i = 0; i < 150000; ++i) map[i * 7919] = i;
  for (int round = 0; round < 3; ++round)
    for (long i = 0; i < 150000; ++i) hits += map.count(i * 7919);
  std::printf("%ld\n", hits);
  return 0;
}
