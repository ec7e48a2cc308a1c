#pragma once
// A board's index and an optimal solution by breadth-first search from the board itself,
// with no saved layer: the index is the distance to the nearest winning configuration
// (SPEC §2) in the graph of the rules' metric, and the search stays inside the board's
// component. A component lies within the board's class (the kind sequence of every line never
// changes), so the search visits at most a few million configurations on 6x6.
#include <optional>
#include <vector>

#include "board/board.hpp"
#include "board/rules.hpp"

namespace rushhour {

// A lower bound on the index of a configuration of the rules' domain (0 exactly for the
// winning ones), from the vehicles between the target and the exit; the int maximum if one
// of them can never leave the exit row (the configuration is unsolvable). Searches skip
// what cannot reach a winning configuration within their depth.
int index_lower_bound(const Rules& rules, const BoardKey& key);

// The boards from `board` to a winning one, each one step or move (the rules' metric) from
// the previous, as few as there can be (the board's index is size() - 1); nullopt if the
// board is unsolvable. Throws std::invalid_argument if the board is not in the rules' domain.
std::optional<std::vector<Board>> shortest_solution(const Rules& rules, const Board& board);

// Whether every vehicle of the board but the target is needed: removing any one of them
// lowers the board's index (`index`, in the rules' metric). Removing a vehicle never raises
// the index, and keeps the board in the domain (also the puzzle domain). One search for an
// optimal solution, then one per vehicle that stays still along it, to depth index - 1.
// Throws std::invalid_argument if `index` is not the board's.
bool is_minimal(const Rules& rules, const Board& board, int index);

// The board's component (all steps, also through winning configurations; moves connect the
// same configurations) with the index of each configuration in the rules' metric, from one
// breadth-first search over the component and one from its winning configurations.
struct ComponentIndices {
  std::vector<BoardKey> keys;  // keys[0] is the board's
  std::vector<int> index;      // per key; all -1 if the component holds no winning configuration
};
// Throws std::invalid_argument if the board is not in the rules' domain.
ComponentIndices component_indices(const Rules& rules, const Board& board);

}  // namespace rushhour
