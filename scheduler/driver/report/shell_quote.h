// Shell quoting for the replay commands we print, so a user can paste them into sh/bash/zsh
// unchanged whatever the test's arguments contain (spaces, quotes, '$', newlines).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ctrlsched::driver {

// Returns `word` unchanged when it needs no quoting, else wrapped in single quotes with every
// embedded ' written as '\''. The empty word becomes ''.
std::string shell_quote(std::string_view word);

// The words quoted and joined by single spaces.
std::string shell_join(std::span<const std::string> words);

}  // namespace ctrlsched::driver
