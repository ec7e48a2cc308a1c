#pragma once
// The table of `rushhour explode --out FILE.h5` (SPEC §6): parallel 1-D datasets, one entry
// per (size, cars) cell.
//
// Format version 1: root attributes content ("rushhour explosion table"), format_version (int64),
// tool_version, buddy_version, configuration (strings, the RunMetadata); datasets /size, /cars,
// /nodes, /buddy_nodes, /lower_bound, /labeled_placements, /peak_nodes, /published,
// /dual_legal_nodes (int64) and /seconds (float64), all of the same length, in the order of `rows`.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "storage/run_metadata.hpp"

namespace rushhour {

inline constexpr std::int64_t kExplosionFormatVersion = 1;
inline constexpr const char* kExplosionContent = "rushhour explosion table";

struct ExplosionRow {
  int size = 0;
  int cars = 0;
  std::int64_t nodes = -1;               // CUDD-style node count of Invar; -1 = not finished
  std::int64_t buddy_nodes = -1;         // bdd_nodecount of Invar; -1 = not finished
  std::int64_t lower_bound = 0;          // C(size^2, cars - 1)
  double seconds = 0;                    // time spent on the cell
  std::int64_t labeled_placements = -1;  // placements of `cars` labeled cars; -1 = not finished
  std::int64_t peak_nodes = -1;          // BuDDy live nodes at the peak of the build
  std::int64_t published = -1;           // the published figure, -1 where the paper had n/a
  std::int64_t dual_legal_nodes = -1;    // dual encoding's legal set for exactly `cars` cars
};

// Writes datasets size, cars, nodes, buddy_nodes, lower_bound, seconds, labeled_placements,
// peak_nodes, published, dual_legal_nodes, atomically (temporary file, then rename), with
// the run's metadata as root attributes. Throws std::runtime_error if the file system fails.
void write_explosion_table(const std::filesystem::path& path, const std::vector<ExplosionRow>& rows,
                           const RunMetadata& metadata = RunMetadata::current(""));

}  // namespace rushhour
