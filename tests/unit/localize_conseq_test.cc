// ConSeq prediction (conseq.h) on traces built by hand: critical-read selection, the feasibility
// rules of section 7.1 (happens-before, same-thread overwrite, mutual exclusion), the equal-value
// filter, the ranking, and the directives.
#include <catch2/catch.hpp>

#include "ctrlsched/localize/conseq.h"
#include "localize_trace_builder.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;

namespace {

constexpr std::uint64_t kX = 0x5000;
constexpr std::uint64_t kY = 0x5008;
constexpr std::uint64_t kLock = 0x6000;
std::uint64_t site(std::uint64_t offset) { return make_site(0, offset); }

std::vector<std::string> describe_all(const Trace& trace, const std::vector<OrderCandidate>& candidates) {
  RawSymbolizer raw;
  std::vector<std::string> lines;
  for (const OrderCandidate& c : candidates) lines.push_back(describe_candidate(trace, c, raw));
  return lines;
}

std::vector<std::string> predict_lines(Trace& trace, std::vector<CriticalRead> critical,
                                       const PredictOptions& options = {}) {
  trace.modules = {{"app", 0x555555554000, 0x5000}};
  return describe_all(trace, predict_orders(trace, critical, options));
}

}  // namespace

// Figure 1(c) of the paper (Mozilla): T1 resets runningUrl (S1) and InProgress (S2); T2 checks
// InProgress (S3) and asserts runningUrl != NULL (S4). In the passing run T2 runs first.
TEST_CASE("the paper's Mozilla example: S4 could read the NULL written by S1", "[localize][conseq]") {
  TraceBuilder b;
  constexpr std::uint64_t kUrl = kX, kInProgress = kY;
  b.write(0, kUrl, site(0x100), 8, 0);         // 0 main: runningUrl = url
  b.write(0, kInProgress, site(0x110), 4, 0);  // 1 main: InProgress = TRUE
  b.spawn(2);                                  // 2..5
  std::size_t s3 = b.read(2, kInProgress, site(0x300), 4, 1);     // 6 S3 reads TRUE
  std::size_t s4 = b.read(2, kUrl, site(0x310), 8, 0x55558010);       // 7 S4 reads url
  std::size_t s1 = b.write(1, kUrl, site(0x200), 8, 0x55558010);      // 8 S1: runningUrl = NULL
  std::size_t s2 = b.write(1, kInProgress, site(0x210), 4, 1);    // 9 S2: InProgress = FALSE
  b.exit(1);
  b.exit(2);
  b.join(0, 1);
  b.join(0, 2);
  b.read(0, kUrl, site(0x120), 8, 0);
  b.read(0, kInProgress, site(0x130), 4, 0);

  Trace& trace = b.trace();
  std::vector<CriticalRead> critical{{s3, 2}, {s4, 1}};
  std::vector<OrderCandidate> found = predict_orders(trace, critical);
  REQUIRE(found.size() == 2);
  CHECK(found[0].kind == OrderKind::AlternativeWrite);
  CHECK(found[0].write == s1);
  CHECK(found[0].read == s4);
  CHECK(found[0].value_read == 0x55558010);
  CHECK(found[0].value_possible == 0);
  CHECK(found[0].value_possible_known);
  CHECK(found[0].source == std::optional<std::size_t>(0));
  CHECK(found[1].write == s2);
  CHECK(found[1].read == s3);
  CHECK(predict_lines(trace, critical) ==
        std::vector<std::string>{"W T1 app+0x1ff → R T2 app+0x30f  0x5000 (read 0x55558010, could read 0)",
                                 "W T1 app+0x20f → R T2 app+0x2ff  0x5008 (read 1, could read 0)"});

  ForceDirective d = to_force_directive(trace, found[0], 50);
  CHECK(d.kind == static_cast<std::uint32_t>(ForceKind::Order));
  CHECK(d.count == 2);
  CHECK(d.hold_limit == 50);
  CHECK(d.steps[0].site == site(0x200));
  CHECK(d.steps[0].access == static_cast<std::uint8_t>(ForceAccess::Write));
  CHECK(d.steps[0].role == 0);
  CHECK(d.steps[1].site == site(0x310));
  CHECK(d.steps[1].access == static_cast<std::uint8_t>(ForceAccess::Read));
  CHECK(d.steps[1].role == 1);
}

TEST_CASE("a write ordered after the read by join cannot be read", "[localize][conseq]") {
  for (bool joined : {true, false}) {
    TraceBuilder b;
    b.write(0, kX, site(0x100), 4, 0);          // 0 x = 5
    b.spawn(1);                                 // 1, 2
    std::size_t r = b.read(1, kX, site(0x200), 4, 5);
    b.exit(1);
    if (joined) b.join(0, 1);
    b.write(0, kX, site(0x110), 4, 5);          // x = 7
    b.read(0, kX, site(0x120), 4, 7);
    std::vector<std::string> expected;
    if (!joined) expected = {"W T0 app+0x10f → R T1 app+0x1ff  0x5000 (read 5, could read 7)"};
    CHECK(predict_lines(b.trace(), {{r, 1}}) == expected);
  }
}

TEST_CASE("a write overwritten by a later write of the same thread before the read is not a candidate",
          "[localize][conseq]") {
  TraceBuilder b;
  b.spawn(2);                                             // 0..3
  std::size_t w3 = b.write(1, kX, site(0x100), 4, 0);     // 4 T1: x = 3
  b.write(2, kX, site(0x200), 4, 3);                      // 5 T2: x = 1 (overwritten by 6)
  std::size_t w = b.write(2, kX, site(0x210), 4, 1);      // 6 T2: x = 2
  std::size_t r = b.read(2, kX, site(0x220), 4, 2);       // 7 T2 reads 2
  b.exit(1);
  b.exit(2);
  b.join(0, 1);
  b.join(0, 2);
  b.read(0, kX, site(0x300), 4, 2);
  std::vector<OrderCandidate> found = predict_orders(b.trace(), std::vector<CriticalRead>{{r, 1}});
  REQUIRE(found.size() == 1);
  CHECK(found[0].write == w3);
  CHECK(found[0].source == std::optional<std::size_t>(w));
  CHECK(predict_lines(b.trace(), {{r, 1}}) ==
        std::vector<std::string>{"W T1 app+0xff → R T2 app+0x21f  0x5000 (read 2, could read 3)"});
}

TEST_CASE("an earlier write of the reader's own thread is forced by moving the other write first",
          "[localize][conseq]") {
  TraceBuilder b;
  b.spawn(2);
  std::size_t own = b.write(1, kX, site(0x100), 4, 0);    // T1: x = 1
  std::size_t other = b.write(2, kX, site(0x200), 4, 1);  // T2: x = 2
  std::size_t r = b.read(1, kX, site(0x110), 4, 2);       // T1 reads 2
  std::vector<OrderCandidate> found = predict_orders(b.trace(), std::vector<CriticalRead>{{r, 1}});
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == OrderKind::AlternativeWrite);
  CHECK(found[0].write == own);
  CHECK(found[0].source == std::optional<std::size_t>(other));
  ForceDirective d = to_force_directive(b.trace(), found[0], 10);
  CHECK(d.steps[0].site == site(0x200));  // T2's write ...
  CHECK(d.steps[1].site == site(0x100));  // ... before T1's
  CHECK(d.steps[1].access == static_cast<std::uint8_t>(ForceAccess::Write));
  // r before T2's write (the early read) would read 1 too: covered by this candidate, not repeated.
  CHECK(predict_lines(b.trace(), {{r, 1}}) ==
        std::vector<std::string>{
            "W T1 app+0xff → R T1 app+0x10f  0x5000 (read 2, could read 1)  (by moving W T2 app+0x1ff before it)"});
}

TEST_CASE("mutual exclusion (a): a write before the read in its critical section hides other sections' writes",
          "[localize][conseq]") {
  for (bool writer_locks : {true, false}) {
    TraceBuilder b;
    b.spawn(2);
    if (writer_locks) b.lock(2, kLock);
    b.write(2, kX, site(0x200), 4, 0);            // T2: x = 2
    if (writer_locks) b.unlock(2, kLock);
    b.lock(1, kLock);
    b.write(1, kX, site(0x100), 4, 2);            // T1: x = 1
    std::size_t r = b.read(1, kX, site(0x110), 4, 1);
    b.unlock(1, kLock);
    b.exit(1);
    b.exit(2);
    b.join(0, 1);
    b.join(0, 2);
    b.read(0, kX, site(0x300), 4, 1);
    std::vector<std::string> expected;
    if (!writer_locks) expected = {"W T2 app+0x1ff → R T1 app+0x10f  0x5000 (read 1, could read 2)"};
    CHECK(predict_lines(b.trace(), {{r, 1}}) == expected);
  }
}

TEST_CASE("mutual exclusion (b): a write followed in its critical section by another never reaches a locked read",
          "[localize][conseq]") {
  for (bool reader_locks : {true, false}) {
    TraceBuilder b;
    b.spawn(2);
    b.lock(1, kLock);
    b.write(1, kX, site(0x100), 4, 0);  // T1: x = 1
    b.write(1, kX, site(0x110), 4, 1);  // T1: x = 2
    b.unlock(1, kLock);
    if (reader_locks) b.lock(2, kLock);
    std::size_t r = b.read(2, kX, site(0x200), 4, 2);
    if (reader_locks) b.unlock(2, kLock);
    std::vector<std::string> expected;
    if (reader_locks) {
      // Only before T1's whole section: x was 0.
      expected = {"R T2 app+0x1ff → W T1 app+0xff  0x5000 (read 2, could read 0)"};
    } else {
      // Between T1's writes: 1 (the early read just before the second write sees 1 as well).
      expected = {"W T1 app+0xff → R T2 app+0x1ff  0x5000 (read 2, could read 1)"};
    }
    CHECK(predict_lines(b.trace(), {{r, 1}}) == expected);
  }
}

TEST_CASE("writes of the value the read saw are not suspicious", "[localize][conseq]") {
  TraceBuilder b;
  b.write(0, kX, site(0x100), 4, 0);                  // T0: x = 5
  b.spawn(2);
  b.write(1, kX, site(0x200), 4, 5);                  // T1: x = 5 again
  std::size_t r = b.read(2, kX, site(0x300), 4, 5);   // T2 reads 5
  CHECK(predict_lines(b.trace(), {{r, 1}}).empty());
  PredictOptions keep_equal;
  keep_equal.equal_value_filter = false;
  CHECK(predict_lines(b.trace(), {{r, 1}}, keep_equal) ==
        std::vector<std::string>{"W T0 app+0xff → R T2 app+0x2ff  0x5000 (read 5, could read 5)"});
}

TEST_CASE("candidates rank by distance, then first occurrence, and repeat per site pair once",
          "[localize][conseq]") {
  TraceBuilder b;
  b.spawn(2);
  b.write(1, kX, site(0x100), 4, 0);                      // T1: x = 1
  b.write(1, kY, site(0x110), 4, 0);                      // T1: y = 1
  std::size_t ry1 = b.read(2, kY, site(0x200), 4, 1);     // T2 reads y (distance 3)
  std::size_t rx1 = b.read(2, kX, site(0x210), 4, 1);     // T2 reads x (distance 2)
  std::size_t rx2 = b.read(2, kX, site(0x210), 4, 1);     // same site again (distance 1)
  b.write(1, kX, site(0x120), 4, 1);                      // T1: x = 9
  b.read(0, kX, site(0x300), 4, 9);
  std::vector<CriticalRead> critical{{ry1, 3}, {rx1, 2}, {rx2, 1}};
  b.trace().modules = {{"app", 0x555555554000, 0x5000}};
  std::vector<OrderCandidate> found = predict_orders(b.trace(), critical);
  REQUIRE(found.size() == 3);
  CHECK(found[0].read == rx2);  // distance 1: could read 9
  CHECK(found[0].occurrences == 2);
  CHECK(found[1].read == rx2);  // early read: before x = 1
  CHECK(found[1].kind == OrderKind::EarlyRead);
  CHECK(found[2].read == ry1);
  CHECK(describe_all(b.trace(), found)[0] ==
        "W T1 app+0x11f → R T2 app+0x20f  0x5000 (read 1, could read 9)  ×2");
}

TEST_CASE("critical reads in failure-site functions: the last max-distance shared reads of each activation",
          "[localize][conseq]") {
  TraceBuilder b;
  b.spawn(1);
  b.write(0, kX);                                         // makes x and y shared
  b.write(0, kY);
  b.read(1, kX);                                          // outside any failure function
  b.event(EventKind::FuncEntry, 1, site(0x150), site(0x900));  // enter F = [0x100, 0x200)
  std::size_t a = b.read(1, kX);
  b.read(1, 0x7777);                                      // T1 only: not shared, not counted
  std::size_t c = b.read(1, kY);
  b.event(EventKind::FuncEntry, 1, site(0x450), site(0x160));  // F calls G
  std::size_t d = b.read(1, kX);
  b.leave(1);
  std::size_t e = b.read(1, kY);
  b.leave(1);                                             // F returns
  b.read(1, kX);                                          // after F
  b.event(EventKind::FuncEntry, 0, site(0x120), site(0x990));  // T0 enters F and never returns
  std::size_t f = b.read(0, kX);
  std::vector<FailureFunction> functions{{0, 0x100, 0x200, "F"}};
  (void)a;
  CHECK(critical_reads_in_functions(b.trace(), functions, 3) ==
        std::vector<CriticalRead>{{c, 3}, {d, 2}, {e, 1}, {f, 1}});
  CHECK(critical_reads_in_functions(b.trace(), functions, 0).empty());
  CHECK(critical_reads_in_functions(b.trace(), {}, 3).empty());
}

TEST_CASE("critical reads of a failing run: the failing thread's last shared reads", "[localize][conseq]") {
  TraceBuilder b;
  b.spawn(2);
  b.write(1, kX);
  b.write(1, kY);
  std::size_t r1 = b.read(2, kX);
  std::size_t r2 = b.read(2, kY);
  b.read(1, kX);
  std::size_t r3 = b.read(2, kX);
  b.read(2, 0x7777);  // not shared
  CHECK(critical_reads_before_failure(b.trace(), 2, 2) == std::vector<CriticalRead>{{r2, 2}, {r3, 1}});
  CHECK(critical_reads_before_failure(b.trace(), 2, 5) == std::vector<CriticalRead>{{r1, 3}, {r2, 2}, {r3, 1}});
}
