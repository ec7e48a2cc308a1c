#include "encoding/cell_encoding.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "board/errors.hpp"
#include "board/rules_codec.hpp"
#include "encoding/option_choice.hpp"

namespace rushhour {
namespace {


constexpr int kSymbols = 5;

CellSymbol start_of(bool horizontal) {
  return horizontal ? CellSymbol::HorizontalStart : CellSymbol::VerticalStart;
}
CellSymbol continuation_of(bool horizontal) {
  return horizontal ? CellSymbol::HorizontalContinuation : CellSymbol::VerticalContinuation;
}

// The symbol of the line's k-th cell when a vehicle of length `length` starts at `start`
// and nothing else lies on the cells considered.
CellSymbol symbol_at(int k, int start, int length, bool horizontal) {
  if (k == start) return start_of(horizontal);
  if (k > start && k < start + length) return continuation_of(horizontal);
  return CellSymbol::Empty;
}

}  // namespace

const std::vector<std::string>& CellEncodingOptions::orders() {
  static const std::vector<std::string> names = {"row-major", "anti-diagonal", "column-major"};
  return names;
}

void CellEncodingOptions::check() const {
  require_choice("cell order", order, orders(), " for the cell encoding");
}

CellEncoding::CellEncoding(BddSession& session, const Rules& rules,
                           const CellEncodingOptions& options)
    : StateEncoding(rules), options_(options), n_(rules.size()) {
  options_.check();
  const int n = n_;
  const int exit = rules.exit_row();

  // Variable layout.
  for (int cell = 0; cell < n * n; ++cell) cell_sequence_.push_back(cell);
  if (options_.order == "column-major") {
    std::stable_sort(cell_sequence_.begin(), cell_sequence_.end(),
                     [n](int a, int b) { return a % n < b % n; });
  } else if (options_.order == "anti-diagonal") {
    // Row-major ties: stable sort on the distance from the exit cell alone.
    auto distance = [n, exit](int cell) { return (n - 1 - cell % n) + std::abs(cell / n - exit); };
    std::stable_sort(cell_sequence_.begin(), cell_sequence_.end(),
                     [&](int a, int b) { return distance(a) < distance(b); });
  }
  // The sequential code of the symbols E, HS, HC, VS, VC (and W with walls) is the binary
  // code of 0..4 (0..5).
  const bool with_walls = !rules.walls().none();
  cells_ = lay_out(session, DomainCode::binary(with_walls ? kSymbols + 1 : kSymbols), cell_sequence_);
  for (int cell = 0; with_walls && cell < n * n; ++cell) wall_at_.push_back(holds(cell, CellSymbol::Wall));

  bdd legal = walled() ? wall_count_between(rules.walls().min, rules.walls().max) : bddtrue;
  for (int cell : cell_sequence_) legal &= local_rules(cell);
  legal_ = state_set(legal);

  // The exit row's rightmost start is horizontal (HS) and starts a car.
  bdd target_is_car = bddfalse;
  for (int c = 0; c + 1 < n; ++c) {
    bdd term = holds(exit, c, CellSymbol::HorizontalStart) &
               !holds(exit, c + 2, CellSymbol::HorizontalContinuation);
    for (int k = c + 1; k < n; ++k) term &= !holds(exit, k, CellSymbol::HorizontalStart);
    target_is_car |= term;
  }
  bdd domain = legal & target_is_car;
  unlimited_winning_ = state_set(domain & holds(exit, n - 2, CellSymbol::HorizontalStart));
  if (!rules.limits().unlimited()) {
    vehicle_limits_ = within_limits();
    domain &= vehicle_limits_;
  }
  domain_ = state_set(domain);
  winning_ = state_set(domain & holds(exit, n - 2, CellSymbol::HorizontalStart));

  step_parts_ = make_parts(Metric::Step);
  move_parts_ = make_parts(Metric::Move);
  session.check();
}

bdd CellEncoding::holds(int cell, CellSymbol symbol, bool next) const {
  return cells_[static_cast<std::size_t>(cell)].encode(static_cast<int>(symbol),
                                                       next ? Copy::Next : Copy::Current);
}

bdd CellEncoding::holds(int row, int col, CellSymbol symbol) const {
  if (row < 0 || row >= n_ || col < 0 || col >= n_) return bddfalse;
  return holds(row * n_ + col, symbol);
}

bdd CellEncoding::local_rules(int cell) const {
  const int r = cell / n_;
  const int c = cell % n_;
  bdd rules = cells_[static_cast<std::size_t>(cell)].range();
  for (bool horizontal : {true, false}) {
    const int dr = horizontal ? 0 : 1;  // one cell further along the axis
    const int dc = horizontal ? 1 : 0;
    const CellSymbol start = start_of(horizontal);
    const CellSymbol cont = continuation_of(horizontal);
    rules &= bdd_imp(holds(r, c, start), holds(r + dr, c + dc, cont));
    rules &= bdd_imp(holds(r, c, cont),
                     holds(r - dr, c - dc, start) |
                         (holds(r - dr, c - dc, cont) & holds(r - 2 * dr, c - 2 * dc, start)));
  }
  return rules;
}

std::vector<CellEncoding::Move> CellEncoding::line_moves(bool horizontal, int line,
                                                         Metric metric) const {
  auto cell_of = [&](int k) { return horizontal ? line * n_ + k : k * n_ + line; };
  std::vector<Move> moves;
  for (int length : {kCar, kTruck}) {
    for (int from = 0; from + length <= n_; ++from) {
      for (int to = 0; to + length <= n_; ++to) {
        if (to == from || std::abs(to - from) > longest_slide(metric, n_)) continue;
        Move move;
        for (int k = std::min(from, to); k < std::max(from, to) + length; ++k) {
          const CellSymbol before = symbol_at(k, from, length, horizontal);
          const CellSymbol after = symbol_at(k, to, length, horizontal);
          move.before.emplace_back(cell_of(k), before);
          if (after != before) move.after.emplace_back(cell_of(k), after);
        }
        // Moving forward, the cell behind the vehicle's new position lies outside the
        // window: it must not continue the vehicle, or it would be longer than `length`.
        if (to > from && to + length < n_) {
          move.read_cell = cell_of(to + length);
          move.read_not = continuation_of(horizontal);
        }
        moves.push_back(std::move(move));
      }
    }
  }
  return moves;
}

bdd CellEncoding::move_relation(const Move& move, const std::vector<int>& changed) const {
  bdd relation = bddtrue;
  for (const auto& [cell, symbol] : move.before) relation &= holds(cell, symbol);
  for (const auto& [cell, symbol] : move.after) relation &= holds(cell, symbol, true);
  if (move.read_cell >= 0) relation &= !holds(move.read_cell, move.read_not);
  for (int cell : changed) {
    const bool changed_here = std::any_of(move.after.begin(), move.after.end(),
                                          [cell](const auto& a) { return a.first == cell; });
    if (!changed_here) relation &= cells_[static_cast<std::size_t>(cell)].unchanged();
  }
  return relation;
}

std::vector<TransitionPart> CellEncoding::make_parts(Metric metric) const {
  // Lines 0..n-1 are rows, n..2n-1 columns.
  std::vector<std::vector<Move>> groups;
  for (int line = 0; line < 2 * n_; ++line) {
    std::vector<Move> moves = line_moves(line < n_, line % n_, metric);
    if (!moves.empty()) groups.push_back(std::move(moves));
  }

  std::vector<TransitionPart> parts;
  for (const auto& group : groups) {
    std::vector<int> changed;
    for (const Move& m : group)
      for (const auto& [cell, symbol] : m.after) changed.push_back(cell);
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    std::vector<bdd> terms;
    for (const Move& m : group) terms.push_back(move_relation(m, changed));
    std::vector<const DomainVariable*> changed_cells;
    for (int cell : changed) changed_cells.push_back(&cells_[static_cast<std::size_t>(cell)]);
    parts.push_back(make_transition_part(disjunction(std::move(terms)), changed_cells));
  }
  return parts;
}

std::vector<bdd> CellEncoding::count_distribution(
    const std::function<bdd(int row, int col)>& marker, int cap) const {
  std::vector<bdd> markers;
  for (int cell : cell_sequence_) markers.push_back(marker(cell / n_, cell % n_));
  return count_true(markers, cap);
}

bdd CellEncoding::counts_where(const std::function<bool(int, int)>& wanted, int max_vehicles,
                               int max_trucks) const {
  // Counted separately, each count's sets stay small: starts are single-cell markers, and
  // only the truck markers look back along an axis.
  const std::vector<bdd> by_vehicles = count_distribution(
      [this](int r, int c) {
        return holds(r, c, CellSymbol::HorizontalStart) | holds(r, c, CellSymbol::VerticalStart);
      },
      max_vehicles);
  const std::vector<bdd> by_trucks = count_distribution(
      [this](int r, int c) {
        return (holds(r, c, CellSymbol::HorizontalContinuation) &
                holds(r, c - 1, CellSymbol::HorizontalContinuation)) |
               (holds(r, c, CellSymbol::VerticalContinuation) &
                holds(r - 1, c, CellSymbol::VerticalContinuation));
      },
      max_trucks);
  std::vector<bdd> selected;
  for (std::size_t trucks = 0; trucks < by_trucks.size(); ++trucks) {
    std::vector<bdd> vehicle_totals;
    for (std::size_t vehicles = trucks; vehicles < by_vehicles.size(); ++vehicles)
      if (wanted(static_cast<int>(vehicles - trucks), static_cast<int>(trucks)))
        vehicle_totals.push_back(by_vehicles[vehicles]);
    selected.push_back(by_trucks[trucks] & disjunction(std::move(vehicle_totals)));
  }
  return disjunction(std::move(selected));
}

bdd CellEncoding::vehicle_counts_where(const std::function<bool(int, int)>& wanted) const {
  const int most = n_ * n_ / 2;  // every vehicle covers two cells at least
  return counts_where(wanted, most, most);
}

bdd CellEncoding::within_limits() const {
  const VehicleLimits& limits = rules_.limits();
  const int most = n_ * n_ / 2;
  return counts_where([&limits](int cars, int trucks) { return limits.allows(cars, trucks); },
                      limits.max_vehicles >= 0 ? limits.max_vehicles : most,
                      limits.max_trucks >= 0 ? limits.max_trucks : most);
}

std::string CellEncoding::layout_description() const {
  // "coding=sequential" names the symbol code, part of the identity of saved layers.
  return "encoding=cell coding=sequential order=" + options_.order + " " + rules_text_without_metric(rules_) +
         " variables=" + std::to_string(variable_count_);
}

bdd CellEncoding::encode(const Board& board) const {
  if (board.size() != n_) throw InputError("board size does not match the encoding");
  if (board.walls() != 0 && !walled()) throw InputError("a board with walls in an encoding without walls");
  std::vector<CellSymbol> symbols(n_ * n_, CellSymbol::Empty);
  for (int cell = 0; cell < n_ * n_; ++cell)
    if (board.walls() >> cell & 1) symbols[cell] = CellSymbol::Wall;
  for (const Vehicle& v : board.vehicles())
    for (int k = 0; k < v.length; ++k)
      symbols[v.cell(k, n_)] = k == 0 ? start_of(v.horizontal()) : continuation_of(v.horizontal());
  bdd minterm = bddtrue;
  for (int cell : cell_sequence_) minterm &= holds(cell, symbols[cell]);
  return minterm;
}

Board CellEncoding::board_of(const std::vector<bool>& values) const {
  std::vector<CellSymbol> symbols(n_ * n_, CellSymbol::Empty);
  std::size_t bit = 0;  // all_current_ holds each cell's three bits together, in layout order
  for (int cell : cell_sequence_) {
    const DomainVariable& variable = cells_[static_cast<std::size_t>(cell)];
    const int symbol = variable.decode(values, bit);
    bit += static_cast<std::size_t>(variable.bits());
    if (symbol < 0) throw std::logic_error("decode: a state set holds an invalid cell code");
    symbols[cell] = static_cast<CellSymbol>(symbol);
  }
  std::vector<Vehicle> vehicles;
  std::uint64_t walls = 0;
  for (int r = 0; r < n_; ++r) {
    for (int c = 0; c < n_; ++c) {
      const CellSymbol s = symbols[r * n_ + c];
      if (s == CellSymbol::Wall) walls |= std::uint64_t{1} << (r * n_ + c);
      if (s != CellSymbol::HorizontalStart && s != CellSymbol::VerticalStart) continue;
      const bool horizontal = s == CellSymbol::HorizontalStart;
      auto continues = [&](int k) {
        const int rr = horizontal ? r : r + k;
        const int cc = horizontal ? c + k : c;
        return rr < n_ && cc < n_ && symbols[rr * n_ + cc] == continuation_of(horizontal);
      };
      if (!continues(1)) throw std::logic_error("decode: a start without a continuation");
      vehicles.push_back({r, c, horizontal ? Orientation::Horizontal : Orientation::Vertical,
                          continues(2) ? kTruck : kCar});
    }
  }
  return Board(n_, std::move(vehicles), walls);
}

}  // namespace rushhour
