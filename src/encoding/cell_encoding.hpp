#pragma once
// The cell encoding (SPEC §3): every cell holds one symbol
//   E empty, HS horizontal start, HC horizontal continuation, VS vertical start,
//   VC vertical continuation,
// so a car is a start and one continuation, a truck a start and two (the start is the left
// or top cell). A configuration has exactly one code: a cell's symbol depends only on the
// vehicle covering it and on whether it is that vehicle's first cell.
//
// With walls (Rules::walls) a sixth symbol W (a wall) has code 101: no rule below lets a
// start or a continuation lie on it, no move's window holds it (a window's cells other than
// the vehicle's are E), so moves keep walls in place and never cross them; the legal set
// also holds the rules' number of walls. Without walls W is not a value (the same BDDs).
//
// Symbol code (3 bits b0 b1 b2 per cell; the other three codes are illegal), "sequential":
//   E 000, HS 001, HC 010, VS 011, VC 100
// i.e. each cell is a DomainVariable (bdd/domain_variable.hpp) over the five symbols in the
// order of CellSymbol with the binary code
// (on 6x6 it gave the smallest domain and frontiers of the codes measured,
// results/cell-encoding.md).
//
// Legal set: every cell holds a valid code and, along each row (HS, HC) and each column
// (VS, VC), with s_k the symbol of the line's k-th cell:
//   s_k = S  ->  k+1 < n ∧ s_{k+1} = C
//   s_k = C  ->  s_{k-1} = S ∨ (s_{k-1} = C ∧ s_{k-2} = S)        (false off the board)
// i.e. every start is followed by one or two continuations and every continuation belongs
// to a run S C or S C C; runs never leave the board. These strings are exactly the codes of
// configurations.
// Domain: legal ∧ the exit row's rightmost HS starts a car (its cell k+2 is not HC) ∧ the
// vehicle limits over vehicles = #starts and trucks = #continuations whose predecessor on
// the axis is a continuation (cars = the difference), each counted by a DP in variable order.
// Winning: domain ∧ s(exit row, n-2) = HS.
//
// Variable layout: the cells in the order named by `order`
//   "row-major"      row by row from the top, left to right;
//   "column-major"   column by column from the left, top to bottom;
//   "anti-diagonal"  by the distance (n-1-c) + |r-e| from the exit cell (e, n-1), the
//                    exit row's rightmost cell first; ties by row, then column;
// and within a cell b0, b0', b1, b1', b2, b2' (each bit's current variable followed by its
// next-state copy): 6 n² variables.
//
// Transitions. One *move* m of a vehicle of length L along a line (row: left/right, column:
// up/down) from first cell s to s' = s + δ (|δ| = 1 for the step metric, any δ ≠ 0 that
// keeps it on the board for the move metric) fixes the symbols of its window, the line's
// cells min(s, s') .. max(s, s') + L - 1: before, the vehicle at s and E elsewhere; after,
// the vehicle at s' and E elsewhere. With W_m the window cells and D_m ⊆ W_m the cells whose
// symbol differs,
//   R_m = ∧_{k ∈ W_m} x_k = before_k  ∧  ∧_{k ∈ D_m} x'_k = after_k  ∧  read_m,
//   read_m = (δ > 0 ∧ s'+L < n) ? x_{s'+L} ≠ C : true.
// Exactness: for y ∈ S (legal), R_m(x, y) forces y to hold, at s', a vehicle of length
// exactly L (for δ < 0 the cell s'+L lies in the window and is E; for δ > 0 read_m checks
// it, unchanged between x and y) with E over the rest of the window. Moving that vehicle
// back gives a configuration, and x, equal to y outside W_m and to `before` inside, is its
// code (codes are cell-local): so every predecessor is legal, and as moves are reversible
// and keep the target and the totals, it lies in the domain. Conversely every step or move
// of a domain configuration is some m.
// One part per row and per column (results/cell-encoding.md: the sweet spot); a part P with
// moves M_P changes x_P = ∪ D_m and
//   R_P = ∨_{m ∈ M_P} R_m ∧ ∧_{k ∈ x_P \ D_m} x'_k = x_k,
//   Pre_P(S) = ∃x'_P . R_P ∧ S[x_P ↦ x'_P].
#include <functional>
#include <string>
#include <vector>

#include "bdd/session.hpp"
#include "encoding/state_encoding.hpp"

namespace rushhour {

struct CellEncodingOptions {
  std::string order = "row-major";

  static const std::vector<std::string>& orders();
  void check() const;  // throws InputError on unknown names
};

enum class CellSymbol : std::uint8_t {
  Empty,
  HorizontalStart,
  HorizontalContinuation,
  VerticalStart,
  VerticalContinuation,
  Wall  // only with walls
};

class CellEncoding final : public StateEncoding {
 public:
  // Declares the variables it needs in `session` and builds every set and relation.
  CellEncoding(BddSession& session, const Rules& rules, const CellEncodingOptions& options);

  std::string name() const override { return "cell"; }
  std::string order_name() const override { return options_.order; }
  std::string layout_description() const override;
  bdd encode(const Board& board) const override;

  // The configurations whose totals satisfy `wanted`, counting vehicles = starts and
  // trucks = continuations that follow a continuation on their axis (cars = the
  // difference): exact on legal configurations only, so conjoin it with a legal set.
  bdd vehicle_counts_where(
      const std::function<bool(int cars, int trucks)>& wanted) const override;
  const CellEncodingOptions& options() const { return options_; }

 private:
  struct Move {
    std::vector<std::pair<int, CellSymbol>> before;  // (cell, symbol) over the window
    std::vector<std::pair<int, CellSymbol>> after;   // the changed cells only
    int read_cell = -1;                              // must not hold `read_not`
    CellSymbol read_not = CellSymbol::Empty;
  };

  // Cell (row, col) holds `symbol` (in the next state if `next`).
  bdd holds(int cell, CellSymbol symbol, bool next = false) const;
  bdd holds(int row, int col, CellSymbol symbol) const;  // false off the board
  bdd local_rules(int cell) const;
  std::vector<Move> line_moves(bool horizontal, int line, Metric metric) const;
  bdd move_relation(const Move& move, const std::vector<int>& changed) const;
  std::vector<TransitionPart> make_parts(Metric metric) const;
  // by_count[k] = the assignments (legal or not) with k cells where marker(row, col) holds,
  // for k = 0..cap; assignments with more are dropped (a DP in variable order).
  std::vector<bdd> count_distribution(const std::function<bdd(int row, int col)>& marker,
                                      int cap) const;
  // The configurations whose (cars, trucks) satisfy `wanted`, with at most max_vehicles
  // vehicles and max_trucks trucks.
  bdd counts_where(const std::function<bool(int cars, int trucks)>& wanted, int max_vehicles,
                   int max_trucks) const;
  bdd within_limits() const;  // counts_where the rules' limits
  // all_current_ holds each cell's bits together, cells in variable order.
  Board board_of(const std::vector<bool>& values) const override;

  CellEncodingOptions options_;
  int n_;
  std::vector<int> cell_sequence_;           // cells in variable order
  std::vector<DomainVariable> cells_;  // cell -> its symbol
};

}  // namespace rushhour
