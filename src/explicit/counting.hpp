#pragma once
// Exact counts of configurations (SPEC §2) without enumerating them.
//
// A configuration is one arrangement of horizontal vehicles per row and one of vertical
// vehicles per column (LineTable) such that no cell is covered twice. The counter fixes the
// exit row's arrangement a and sweeps the columns left to right with a profile dynamic
// programme whose state is, for every other row, how many cells (0, 1 or 2) of a horizontal
// vehicle started further left still lie ahead. In column c the rows whose vehicle is
// finished may start a car or a truck there; the rows covered by horizontal vehicles in
// column c (H) then admit exactly the vertical arrangements of column c disjoint from H.
// Summing over a gives all placements; restricting a gives the domain (its rightmost
// segment is a car) and the winning set (that car ends in the last column). The puzzle
// domain adds a bit per row to the state: whether the row has a cell that neither a
// horizontal vehicle nor a wall covers (a row its own pieces fill is outside it).
//
// With vehicle limits every count is a polynomial in (cars, trucks), truncated at the
// limits, and only monomials allowed by the limits are summed. Every coefficient is a
// Count: exact for every board size the rules accept (8x8 placements exceed 2^64; the
// largest, 8x8 without limits, is far below 2^128, and the sums are overflow-checked).
#include <vector>

#include "board/count.hpp"
#include "board/rules.hpp"

namespace rushhour {

struct PlacementCounts {
  Count placements = 0;  // all vehicle placements within the limits, target or not
  Count domain = 0;      // placements whose exit-row target exists and is a car
  Count winning = 0;     // domain configurations whose target touches the exit
  friend bool operator==(const PlacementCounts&, const PlacementCounts&) = default;
};

// Counts for the rules' size, exit row, vehicle limits, domain and wall range (the metric
// plays no role). In the puzzle domain the domain and winning counts are the puzzle
// domain's, placements all of them.
// With `by_walls`, also per number of walls: entry w counts the configurations with exactly w
// walls, for w from 0 to the rules' most walls (those below the least too).
PlacementCounts count_placements(const Rules& rules, std::vector<PlacementCounts>* by_walls = nullptr);

}  // namespace rushhour
