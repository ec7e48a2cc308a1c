#pragma once
// The game parameters as root attributes of the HDF5 files rushhour writes (classification.h5,
// the cluster database): `size`, `exit_row`, `metric`, `max_cars`, `max_trucks`,
// `max_vehicles` (-1 = none), `domain` (`all` or `puzzle`; a file without it holds the
// whole domain), `min_walls` and `max_walls` (the wall range; a file without them has none).
#include "board/rules.hpp"
#include "storage/hdf5.hpp"

namespace rushhour {

void write_rules_attributes(const h5::Location& at, const Rules& rules);
// Throws h5::Error if an attribute is missing, mistyped or out of range, or the parameters
// are no valid rules.
Rules read_rules_attributes(const h5::Location& at);

}  // namespace rushhour
