// Small text helpers shared by the renderers of localize/ (internal header).
#pragma once

#include <cstdint>
#include <string>

namespace ctrlsched::localize {

// "0x1a2b" (lower case, no padding).
std::string hex(std::uint64_t value);
// "0x00000000001a2b" style: 16 digits, for hashes.
std::string hex16(std::uint64_t value);
// The part after the last '/'.
std::string base_name(const std::string& path);

}  // namespace ctrlsched::localize
