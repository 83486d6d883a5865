// Atomics as accesses of the analyses (ctrlsched/plain_access.h) and the symbolizer's
// toolchain-header test (report/symbolizer.h).
#include <catch2/catch.hpp>

#include "ctrlsched/plain_access.h"
#include "report/symbolizer.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

TEST_CASE("plain accesses: atomic operations are reads and writes of the analyses", "[atomics]") {
  CHECK(plain_access_kind(EventKind::Read) == PlainAccess::Read);
  CHECK(plain_access_kind(EventKind::AtomicLoad) == PlainAccess::Read);
  CHECK(plain_access_kind(EventKind::Write) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicStore) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicRmw, 0x1000) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicRmw, 0) == PlainAccess::None);  // a fence
  CHECK(plain_access_kind(EventKind::FuncEntry) == PlainAccess::None);
  // Through a NULL pointer: the zero page is no location another thread could access.
  CHECK(plain_access_kind(EventKind::Read, 4) == PlainAccess::None);
  CHECK(plain_access_kind(EventKind::Write, 0xff8) == PlainAccess::None);
  CHECK(plain_access_kind(EventKind::Read, 0x1000) == PlainAccess::Read);
}

TEST_CASE("symbolizer: toolchain headers are walked out of", "[atomics]") {
  CHECK(is_toolchain_header("/usr/include/c++/12/bits/atomic_base.h"));
  CHECK(is_toolchain_header("/usr/include/c++/12/bits/stl_tree.h"));
  CHECK(is_toolchain_header("/usr/include/x86_64-linux-gnu/bits/stdio2.h"));
  CHECK(is_toolchain_header("/usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h"));
  CHECK_FALSE(is_toolchain_header("/work/project/src/cache.cpp"));
  CHECK_FALSE(is_toolchain_header("../tests/eval/corpus/hit_counter.cpp"));
  CHECK_FALSE(is_toolchain_header(""));
}
