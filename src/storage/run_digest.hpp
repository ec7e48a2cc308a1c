#pragma once
// The digest of a finished run: one checksum over its figures (the rules, the domain, winning,
// solvable and unsolvable counts, and per index the configurations, non-dominated
// configurations and components), so that two runs of the same job compare one line. Only the
// figures count: not the engine, the thread, rank or part count, the times, the BDD sizes or
// the sample boards (whose choice differs between engines), so every engine that computes the
// same figures gives the same digest. FNV-1a, 64 bits (util/fnv1a.hpp): it detects
// a differing figure, not tampering.
#include <string>

#include "board/classification.hpp"

namespace rushhour {

// 16 hexadecimal digits.
std::string run_digest(const Classification& figures);

}  // namespace rushhour
