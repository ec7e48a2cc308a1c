#include "storage/run_metadata.hpp"

#include "bdd/session.hpp"

namespace rushhour {

RunMetadata RunMetadata::current(std::string configuration) {
  return {RUSHHOUR_VERSION, BddSession::buddy_version(), std::move(configuration)};
}

}  // namespace rushhour
