#pragma once
// The digest of a finished run: one checksum over its figures (the rules, the domain, winning,
// solvable and unsolvable counts, and per index the configurations, non-dominated
// configurations and components), so that two runs of the same job compare one line. Only the
// figures count: not the engine, the thread, rank or part count, the times, the BDD sizes or
// the sample boards (whose choice differs between engines), so every engine that computes the
// same figures gives the same digest. FNV-1a, 64 bits (util/fnv1a.hpp): it detects
// a differing figure, not tampering.
#include <cstdint>
#include <string>
#include <vector>

#include "board/classification.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {

// 16 hexadecimal digits.
std::string run_digest(const Classification& figures);

// Adds one line per index to `hash`: the index, its configurations and, where given, its
// non-dominated configurations and components (the run digest's lines; also those of a
// partitioned run's part digest, storage/part_store.hpp).
void add_index_lines(Fnv1a64& hash, const std::vector<LayerFigures>& layers, const std::vector<Count>& nondominated,
                     const std::vector<std::int64_t>& components);

}  // namespace rushhour
