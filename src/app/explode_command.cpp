#include <stdexcept>

#include "app/commands.hpp"

namespace rushhour::app {

int run_explode(const std::vector<std::string>&) {
  throw std::runtime_error("'explode' is not implemented yet");
}

}  // namespace rushhour::app
