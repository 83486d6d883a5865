// Errors are one line (docs/exit-codes.md), but many quote what the user gave: a handle, an
// option value, a file name, a line of a schedule file. Any of those can hold a newline or
// another control character (a handle pasted with its line break, `--seeds $'1\n2'`), which
// would split the error or garble the terminal. one_line() writes them as C-style escapes.
// Found by fuzzing the handle parser (docs/fuzzing.md).
#pragma once

#include <string>
#include <string_view>

namespace ctrlsched::driver {

inline std::string one_line(std::string_view message) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;  // printable ASCII, and UTF-8 sequences as they are
    }
  }
  return out;
}

}  // namespace ctrlsched::driver
