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

class SlotEncoding final : public StateEncoding {
 public:
  // Declares the variables it needs in `session` and builds every set and relation.
  SlotEncoding(BddSession& session, const Rules& rules, const SlotEncodingOptions& options);

  std::string name() const override { return "slot"; }
  std::string order_name() const override { return options_.order; }
  std::string layout_description() const override;
  bdd encode(const Board& board) const override;

  // The configurations with exactly `cars` cars and `trucks` trucks (any legality).
  bdd vehicle_count_is(int cars, int trucks) const;
  // The configurations whose totals satisfy `wanted` (any legality).
  bdd vehicle_counts_where(
      const std::function<bool(int cars, int trucks)>& wanted) const override;
  const SlotEncodingOptions& options() const { return options_; }

  // Lines 0..n-1 are rows, n..2n-1 columns.
  int line_count() const { return 2 * rules_.size(); }

 private:
  // all_current_ holds each line's bits together, lines in variable order.
  Board board_of(const std::vector<bool>& values) const override;
  bdd is_arrangement(int line, int arrangement, Copy copy = Copy::Current) const {
    return lines_[static_cast<std::size_t>(line)].encode(arrangement, copy);
  }
  // Cell k of line `line` covered by a vehicle of the crossing line.
  bdd crossing_covered(int line, int k) const;
  bdd line_relation(int line, Metric metric) const;
  std::vector<TransitionPart> make_parts(Metric metric) const;
  // (cars, trucks) -> configurations with those totals, for the totals `keep` accepts; the
  // totals only grow line by line, so a rejected partial total is dropped at once.
  std::map<std::pair<int, int>, bdd> count_distribution(
      const std::function<bool(int cars, int trucks)>& keep) const;

  SlotEncodingOptions options_;
  LineTable table_;
  std::vector<DomainVariable> lines_;  // line -> its arrangement, a DomainVariable
  std::vector<int> line_sequence_;     // lines in variable order
  std::vector<std::vector<bdd>> covered_;  // [line][k]: cell k of the line covered by its own vehicles
};

}  // namespace rushhour
