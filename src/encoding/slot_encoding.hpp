#pragma once
// The dual row/column encoding (SPEC §3). Each row holds its horizontal vehicles, each
// column its vertical ones; a line's filling is one arrangement of LineTable and has exactly
// one code:
//   line code "slot":  floor(n/2) slots, each (kind: 00 absent, 01 car, 10 truck; position of
//                      its first cell, ceil(log2(n-1)) bits, most significant first); present
//                      slots first, left to right, non-overlapping; an absent slot has
//                      position 0.
//   line code "index": the arrangement's index in LineTable, in binary.
// Rows and columns only interact through the cells both could cover: the legal set forbids a
// cell covered by a horizontal and a vertical vehicle at once.
//
// Variable layout: lines are ordered by the order name
//   "interleaved"   R0, C0, R1, C1, ...
//   "rows-columns"  R0, ..., Rn-1, C0, ..., Cn-1
//   "columns-rows"  C0, ..., Cn-1, R0, ..., Rn-1
// and within a line each code bit's current variable is followed by its next-state copy: a
// line is a DomainVariable whose values are the arrangements (bdd/domain_variable.hpp).
//
// Parts (encoding/line_partition.hpp): an encoding may be built for one part of the domain,
// the kind sequences of some lines fixed. A fixed line's variable then codes only the
// arrangements of its kind sequence (value k = the k-th such arrangement in LineTable order,
// in the line code asked for), so the part's BDDs have fewer variables and never mention the
// other arrangements; a line with a single arrangement has no variable bits at all and no
// transition part. Every state set of the encoding (legal, domain, winning, layers) is then a
// set of the part's configurations.
//
// Walls (with Rules::walls): one bit per cell, row r's n bits just before row r's line, so
// the layout without walls is unchanged. A wall's cell counts as covered by a crossing
// vehicle for both of its lines, which keeps vehicles off it and moves from crossing it; in
// the puzzle domain a row's arrangement must fit beside its walls (lines.hpp: puzzle_line).
//
// Transitions: line ℓ's relation R_ℓ(x_ℓ, x'_ℓ, crossings) holds iff one vehicle of ℓ slides
// (one cell for the step metric, any distance for the move metric) from arrangement x_ℓ to
// x'_ℓ and every cell of the old arrangement and every cell entered on the way is free of
// crossing vehicles (the old cells too, so that a predecessor is itself legal). One transition
// part per line (results/perf-log.md §3: coarser parts did not pay).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bdd/session.hpp"
#include "board/lines.hpp"
#include "encoding/line_partition.hpp"
#include "encoding/state_encoding.hpp"

namespace rushhour {

struct SlotEncodingOptions {
  std::string order = "interleaved";
  // "index" is the default: on 6x6 it gives a 3x smaller domain BDD and 3x smaller, 3.5x
  // faster frontiers than "slot" (results/order-table.md, results/6x6-linecode-*.log).
  std::string line_code = "index";

  static const std::vector<std::string>& orders();
  static const std::vector<std::string>& line_codes();
  void check() const;  // throws InputError on unknown names
};

// The lines (0..n-1 the rows, n..2n-1 the columns) in the variable order `order` names:
// SlotEncoding::lines_in_order() of every encoding of that order, whole or a part.
std::vector<int> line_sequence(const std::string& order, int n);

// The order in which StateEncoding::for_each_board visits the boards of a whole-domain slot
// encoding: lexicographic over the lines in variable order, each line by its code's value
// (its arrangement index for the "index" line code). A part's encoding visits its boards in
// the same relative order (a fixed line's code keeps the order of its arrangements), so the
// first boards of a set split over parts are the least keys of each part's first boards.
class EnumerationOrder {
 public:
  EnumerationOrder(int size, const SlotEncodingOptions& options);
  // Compared lexicographically, keys give for_each_board's order.
  std::vector<int> key(const Board& board) const;

 private:
  LineTable table_;
  std::vector<int> lines_;  // in variable order
  std::vector<int> code_;   // [arrangement]: its code's value
};

class SlotEncoding final : public StateEncoding {
 public:
  // Declares the variables it needs in `session` and builds every set and relation.
  // With a part, every set is restricted to the part's configurations (see above).
  SlotEncoding(BddSession& session, const Rules& rules, const SlotEncodingOptions& options,
               DomainPart part = {});

  std::string name() const override { return "slot"; }
  std::string order_name() const override { return options_.order; }
  std::string layout_description() const override;
  bdd encode(const Board& board) const override;

  // The configurations with exactly `cars` cars and `trucks` trucks (any legality).
  bdd vehicle_count_is(int cars, int trucks) const;
  // The configurations whose totals satisfy `wanted` (any legality).
  bdd vehicle_counts_where(
      const std::function<bool(int cars, int trucks)>& wanted) const override;
  // (cars, trucks) -> the configurations with those totals (any legality), for the totals
  // `keep` accepts (the totals grow line by line: a rejected partial total is dropped at once).
  std::map<std::pair<int, int>, bdd> vehicle_distribution(const std::function<bool(int cars, int trucks)>& keep) const {
    return count_distribution(keep);
  }
  const SlotEncodingOptions& options() const { return options_; }
  const DomainPart& part() const { return part_; }
  // Up to `count` configurations of `states`, those with the least explicit-engine keys
  // (the arrangement indices of the rows, then the columns, the first row most significant),
  // in ascending key order: samples independent of the variable order and of the part.
  // KeyOrder::Mirrored: those whose top-bottom mirror images have the least keys (rows read
  // from the last, columns reversed), in that order.
  // Not with walls (partitioned runs, which take samples this way, refuse them).
  enum class KeyOrder { Plain, Mirrored };
  std::vector<Board> least_boards(bdd states, int count, KeyOrder order = KeyOrder::Plain) const;

  // Lines 0..n-1 are rows, n..2n-1 columns.
  int line_count() const { return 2 * rules_.size(); }
  // The lines in variable order.
  const std::vector<int>& lines_in_order() const { return line_sequence_; }
  // The variable coding `line`'s value: its index in arrangements(line).
  const DomainVariable& line_variable(int line) const { return lines_[static_cast<std::size_t>(line)]; }
  // The arrangements (LineTable indices) `line` may hold in this encoding, ascending.
  const std::vector<int>& arrangements(int line) const { return allowed_[static_cast<std::size_t>(line)]; }
  // The value of `line`'s variable that codes `arrangement`, -1 if the encoding does not admit it.
  int value_of(int line, int arrangement) const {
    return value_of_[static_cast<std::size_t>(line)][static_cast<std::size_t>(arrangement)];
  }
  // The configurations whose `line` holds `arrangement` (a cube over the line's bits);
  // bddfalse for an arrangement the encoding does not admit on the line.
  bdd is_arrangement(int line, int arrangement, Copy copy = Copy::Current) const {
    const int value = value_of(line, arrangement);
    return value < 0 ? bddfalse : line_variable(line).encode(value, copy);
  }

 private:
  // all_current_ holds each line's bits together, lines in variable order.
  Board board_of(const std::vector<bool>& values) const override;
  // Cell k of line `line` covered by a vehicle of the crossing line.
  // With walls, a wall's cell counts as covered.
  bdd crossing_covered(int line, int k) const;
  // The configurations whose row `row` has walls exactly on the cells of `walls` (bit c: column c).
  bdd row_walls_are(int row, std::uint32_t walls) const;
  bdd line_relation(int line, Metric metric) const;
  std::vector<TransitionPart> make_parts(Metric metric) const;
  // (cars, trucks) -> configurations with those totals, for the totals `keep` accepts; the
  // totals only grow line by line, so a rejected partial total is dropped at once.
  std::map<std::pair<int, int>, bdd> count_distribution(
      const std::function<bool(int cars, int trucks)>& keep) const;

  SlotEncodingOptions options_;
  DomainPart part_;
  LineTable table_;
  std::vector<std::vector<int>> allowed_;   // [line]: the arrangements a value codes, ascending
  std::vector<std::vector<int>> value_of_;  // [line][arrangement]: its value, -1 if not admitted
  std::vector<DomainVariable> lines_;  // line -> its arrangement, a DomainVariable
  std::vector<int> line_sequence_;     // lines in variable order
  // Variable layout: lines, and with walls 2n + cell for a cell's wall bit, in variable order.
  std::vector<int> item_sequence_;
  std::vector<std::vector<bdd>> covered_;  // [line][k]: cell k of the line covered by its own vehicles
};

}  // namespace rushhour
