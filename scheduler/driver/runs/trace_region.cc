// The trace region's memfd and mapping (see trace_region.h).
#include "runs/trace_region.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "ctrlsched/trace_format.h"
#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

[[noreturn]] void internal(int fd, const std::string& what) {
  const int saved = errno;
  if (fd >= 0) ::close(fd);
  throw DriverError(ExitCode::Internal, what + ": " + std::strerror(saved));
}

}  // namespace

TraceRegion::TraceRegion() {
  fd_ = ::memfd_create("ctrlsched-trace", MFD_CLOEXEC);
  if (fd_ < 0) internal(-1, "memfd_create for the trace region failed");
  if (::ftruncate(fd_, static_cast<off_t>(kTraceRegionBytes)) != 0) {
    internal(fd_, "sizing the trace region failed");
  }
  void* map = ::mmap(nullptr, kTraceRegionBytes, PROT_READ, MAP_SHARED, fd_, 0);
  if (map == MAP_FAILED) internal(fd_, "mapping the trace region failed");
  map_ = map;
}

TraceRegion::~TraceRegion() {
  if (map_) ::munmap(map_, kTraceRegionBytes);
  if (fd_ >= 0) ::close(fd_);
}

std::size_t TraceRegion::size() const { return static_cast<std::size_t>(kTraceRegionBytes); }

}  // namespace ctrlsched::driver
