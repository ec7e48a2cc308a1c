#include <stdexcept>

#include "app/commands.hpp"

namespace rushhour::app {

int run_classify(const std::vector<std::string>&) {
  throw std::runtime_error("'classify' is not implemented yet");
}

}  // namespace rushhour::app
