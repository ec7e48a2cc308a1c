#pragma once
// Checking a named option value against the names an encoding offers.
#include <algorithm>
#include <string>
#include <vector>

#include "board/errors.hpp"

namespace rushhour {

// Throws InputError("unknown WHAT 'VALUE'CONTEXT (expected a, b, c)") unless VALUE is one of
// `names`.
inline void require_choice(const std::string& what, const std::string& value,
                           const std::vector<std::string>& names, const std::string& context = "") {
  if (std::find(names.begin(), names.end(), value) != names.end()) return;
  std::string expected;
  for (const auto& name : names) expected += (expected.empty() ? "" : ", ") + name;
  throw InputError("unknown " + what + " '" + value + "'" + context + " (expected " + expected + ")");
}

}  // namespace rushhour
