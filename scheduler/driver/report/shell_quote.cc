// Shell quoting: see shell_quote.h. Conservative: anything outside a small safe set is quoted.
#include "report/shell_quote.h"

namespace ctrlsched::driver {

std::string shell_quote(std::string_view word) {
  if (word.empty()) return "''";
  constexpr std::string_view kSafe =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,";
  // '=' is special only in the first word of a command, which is always "ctrlsched" here.
  if (word.find_first_not_of(kSafe) == std::string_view::npos) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string shell_join(std::span<const std::string> words) {
  std::string text;
  for (const std::string& word : words) {
    if (!text.empty()) text += ' ';
    text += shell_quote(word);
  }
  return text;
}

}  // namespace ctrlsched::driver
