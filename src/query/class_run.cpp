#include "query/class_run.hpp"

#include <string>

#include "run/run_directory.hpp"

namespace rushhour {

std::optional<ClassCensus> open_class_run(const std::filesystem::path& run_directory) {
  const run::RunDirectory directory(run_directory);
  if (directory.has_layers() || directory.has_parts()) return std::nullopt;
  const std::optional<run::RunDirectory::SavedSweep> saved = directory.saved_class_sweep();
  if (!saved) return std::nullopt;
  return census_of_sweep(saved->identity.rules, saved->state);
}

Count census_count(const ClassCensus& census, int index,
                   const std::function<bool(int cars, int trucks, int walls)>& filter) {
  Count count = 0;
  const TallyShape& shape = census.shape;
  for (int walls = shape.min_walls; walls <= shape.max_walls(); ++walls)
    for (int cars = 0; cars <= shape.max_cars; ++cars)
      for (int trucks = 0; trucks <= shape.max_trucks; ++trucks) {
        const VehicleTally& tally = census.tally(walls, cars, trucks);
        if (filter(cars, trucks, walls) && index >= 0 && static_cast<std::size_t>(index) < tally.count.size())
          count += tally.count[static_cast<std::size_t>(index)];
      }
  return count;
}

}  // namespace rushhour
