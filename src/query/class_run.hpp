#pragma once
// A run directory of the class engine (`classify --engine classes --out DIR`) opened for
// queries. Such a run saves no layers: DIR/classes-checkpoint.txt holds the sweep's figures
// per number of cars and trucks and the least keys of its highest indices, which answer
// counts (filtered by vehicle numbers), the hardest configurations and samples; a board is
// answered by searching its component (board/search.hpp), which needs no layer at all.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

#include "board/count.hpp"
#include "explicit/class_census.hpp"

namespace rushhour {

// The census of the class sweep in DIR; nullopt if DIR holds layers (a bdd run: its
// --dominance-by classes leaves a class checkpoint too) or no class sweep checkpoint.
// Throws InputError if the checkpoint is damaged or foreign.
std::optional<ClassCensus> open_class_run(const std::filesystem::path& run_directory);

// The configurations of index `index` whose numbers of cars, trucks and walls pass `filter`.
Count census_count(const ClassCensus& census, int index,
                   const std::function<bool(int cars, int trucks, int walls)>& filter);

}  // namespace rushhour
