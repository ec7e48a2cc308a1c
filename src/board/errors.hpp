#pragma once
// Error types shared by every module. The CLI maps them to exit statuses:
// InputError -> 2 (bad usage, bad board string, bad config or result file),
// any other std::exception -> 1 (a runtime failure such as BDD node exhaustion).
#include <stdexcept>
#include <string>

namespace rushhour {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace rushhour
