#include <stdexcept>

#include "app/commands.hpp"

namespace rushhour::app {

int run_query(const std::vector<std::string>&) {
  throw std::runtime_error("'query' is not implemented yet");
}

}  // namespace rushhour::app
