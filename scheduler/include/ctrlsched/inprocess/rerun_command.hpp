// The command line the adapters print to rerun one test: every word shell-quoted, so the printed
// line can be pasted into a shell whatever the binary's path or the test's name holds.
#pragma once

#include <string>
#include <string_view>

namespace ctrlsched {

// `word` as one shell word: unchanged when it holds only characters no shell treats specially,
// otherwise in single quotes (a single quote inside becomes '\'').
inline std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789_-+=./:,@%") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace ctrlsched
