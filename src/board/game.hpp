#pragma once
// The game on top of a Board (SPEC §2): the target, the domain, winning, steps and moves.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/rules.hpp"

namespace rushhour {

// The target: the rightmost horizontal vehicle of the exit row (index into vehicles()),
// or nullopt if the exit row holds no horizontal vehicle.
std::optional<std::size_t> find_target(const Rules& rules, const Board& board);

// Empty if `board` lies in the domain of `rules` (it has a target, the target is a car,
// the vehicle limits hold); otherwise the reason it does not.
std::string domain_violation(const Rules& rules, const Board& board);
inline bool in_domain(const Rules& rules, const Board& board) {
  return domain_violation(rules, board).empty();
}

// A board of the domain is winning when its target covers the two rightmost exit-row cells.
bool is_winning(const Rules& rules, const Board& board);

// One step (|delta| = 1) or move (|delta| >= 1) of vehicles()[vehicle] along its axis,
// positive = right/down.
struct Move {
  std::size_t vehicle;
  int delta;
  friend bool operator==(const Move&, const Move&) = default;
};

// Legal moves of the rules' metric: single steps, or slides of any length over free cells.
std::vector<Move> legal_moves(const Metric metric, const Board& board);
std::vector<Board> neighbours(const Metric metric, const Board& board);

}  // namespace rushhour
