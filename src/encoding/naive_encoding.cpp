#include "encoding/naive_encoding.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "bdd/bdd_util.hpp"
#include "bdd/node_graph.hpp"
#include "bdd/state_set.hpp"
#include "board/count.hpp"
#include "board/errors.hpp"

namespace rushhour {
namespace {

constexpr int kFieldX = 0;
constexpr int kFieldY = 1;
constexpr int kFieldH = 2;

// NuSMV's scalar encoding: split the (ascending) value list by position, 1st, 3rd, ... to
// bit value 0 and 2nd, 4th, ... to 1, recursively, one bit per tree level; a one-value list is
// a leaf and the bits below it are free.
void nusmv_codes(const std::vector<int>& values, int bit, int bits, DomainCode::Cube& prefix,
                 std::vector<std::vector<DomainCode::Cube>>& codes) {
  if (values.size() == 1) {
    DomainCode::Cube cube = prefix;
    cube.resize(static_cast<std::size_t>(bits), DomainCode::kFree);
    codes[static_cast<std::size_t>(values[0] - 1)].push_back(cube);
    return;
  }
  if (bit >= bits) throw std::logic_error("scalar code ran out of bits");
  for (int side = 0; side < 2; ++side) {
    std::vector<int> half;
    for (std::size_t k = static_cast<std::size_t>(side); k < values.size(); k += 2)
      half.push_back(values[k]);
    prefix.push_back(static_cast<signed char>(side));
    nusmv_codes(half, bit + 1, bits, prefix, codes);
    prefix.pop_back();
  }
}

template <typename Enum>
Enum parse_name(const std::string& name, const std::vector<std::pair<std::string, Enum>>& table,
                const std::string& what) {
  std::string known;
  for (const auto& [text, value] : table) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + text;
  }
  throw InputError("unknown " + what + " '" + name + "' (expected " + known + ")");
}

const std::vector<std::pair<std::string, ScalarCode>> kCodeNames = {
    {"nusmv", ScalarCode::NuSmv}, {"binary", ScalarCode::Binary}};
const std::vector<std::pair<std::string, VariableOrder>> kOrderNames = {
    {"car-blocks", VariableOrder::CarBlocks},
    {"car-blocks-h-first", VariableOrder::CarBlocksOrientationFirst},
    {"bit-interleaved", VariableOrder::BitInterleaved}};
const std::vector<std::pair<std::string, VerticalDirection>> kVerticalNames = {
    {"up", VerticalDirection::Up}, {"down", VerticalDirection::Down}};
const std::vector<std::pair<std::string, InvarSchedule>> kScheduleNames = {
    {"car-by-car", InvarSchedule::CarByCar},
    {"car-by-car-reverse", InvarSchedule::CarByCarReverse},
    {"per-car", InvarSchedule::PerCar},
    {"balanced-tree", InvarSchedule::BalancedTree}};

template <typename Enum>
std::string name_of(Enum value, const std::vector<std::pair<std::string, Enum>>& table) {
  for (const auto& [text, v] : table)
    if (v == value) return text;
  throw std::logic_error("unnamed enum value");
}

}  // namespace

ScalarCode parse_scalar_code(const std::string& name) {
  return parse_name(name, kCodeNames, "scalar code");
}
VariableOrder parse_variable_order(const std::string& name) {
  return parse_name(name, kOrderNames, "variable order");
}
VerticalDirection parse_vertical_direction(const std::string& name) {
  return parse_name(name, kVerticalNames, "vertical direction");
}
InvarSchedule parse_invar_schedule(const std::string& name) {
  return parse_name(name, kScheduleNames, "schedule");
}
std::string to_string(ScalarCode code) { return name_of(code, kCodeNames); }
std::string to_string(VariableOrder order) { return name_of(order, kOrderNames); }
std::string to_string(VerticalDirection direction) { return name_of(direction, kVerticalNames); }
std::string to_string(InvarSchedule schedule) { return name_of(schedule, kScheduleNames); }
std::vector<std::string> invar_schedule_names() {
  std::vector<std::string> names;
  for (const auto& entry : kScheduleNames) names.push_back(entry.first);
  return names;
}

void NaiveOptions::check() const {
  if (size < 2 || size > 8)
    throw InputError("board size " + std::to_string(size) + " is outside 2..8");
  if (cars < 1) throw InputError("the number of cars must be at least 1 (got " +
                                 std::to_string(cars) + ")");
  if (exit_row < -1 || exit_row >= size)
    throw InputError("exit row " + std::to_string(exit_row) + " is not a row of the board");
}

std::vector<std::pair<int, int>> covered_cells(const NaivePlacement& p, VerticalDirection vertical) {
  if (p.horizontal) return {{p.x, p.y}, {p.x + 1, p.y}};
  return {{p.x, p.y}, {p.x, vertical == VerticalDirection::Up ? p.y + 1 : p.y - 1}};
}

int NaiveEncoding::bits_per_coordinate(int size) { return bits_for(size); }

int NaiveEncoding::variable_count(const NaiveOptions& options) {
  const int current = options.cars * (2 * bits_per_coordinate(options.size) + 1);
  return options.next_state ? 2 * current : current;
}

NaiveEncoding::NaiveEncoding(const NaiveOptions& options)
    : options_(options), bits_(bits_per_coordinate(options.size)) {
  options_.check();
  if (bdd_varnum() < variable_count())
    throw std::logic_error("the BDD session declares fewer variables than the naive encoding needs");
  const int n = options_.size;
  std::shared_ptr<const DomainCode> coordinate_code;
  if (options_.code == ScalarCode::NuSmv) {
    std::vector<std::vector<DomainCode::Cube>> cubes(static_cast<std::size_t>(n));
    std::vector<int> values;
    for (int v = 1; v <= n; ++v) values.push_back(v);
    DomainCode::Cube prefix;
    nusmv_codes(values, 0, bits_, prefix, cubes);
    coordinate_code = DomainCode::from_cubes(std::move(cubes));
  } else {
    coordinate_code = DomainCode::binary(n);
  }
  // Value v of a coordinate (1..n) is the domain value v - 1; h is the domain {0, 1}.
  const std::shared_ptr<const DomainCode> orientation_code = DomainCode::binary(2);
  for (int car = 0; car < options_.cars; ++car) {
    for (int field : {kFieldX, kFieldY, kFieldH}) {
      std::vector<int> current, next;
      for (int bit = 0; bit < (field == kFieldH ? 1 : bits_); ++bit) {
        const int p = position(car, field, bit);
        current.push_back(options_.next_state ? 2 * p : p);
        if (options_.next_state) next.push_back(2 * p + 1);
      }
      variables_.emplace_back(field == kFieldH ? orientation_code : coordinate_code,
                              std::move(current), std::move(next));
    }
  }
}

std::vector<std::vector<int>> NaiveEncoding::codes(int value) const {
  std::vector<std::vector<int>> result;
  for (const DomainCode::Cube& cube : field(0, kFieldX).code().cubes(value - 1))
    result.emplace_back(cube.begin(), cube.end());
  return result;
}

int NaiveEncoding::position(int car, int field, int bit) const {
  const int m = options_.cars;
  const int block = 2 * bits_ + 1;
  switch (options_.order) {
    case VariableOrder::CarBlocks:
      return car * block + field * bits_ + bit;
    case VariableOrder::CarBlocksOrientationFirst:
      return car * block + (field == kFieldH ? 0 : 1 + field * bits_ + bit);
    case VariableOrder::BitInterleaved:
      return field == kFieldH ? 2 * m * bits_ + car : bit * 2 * m + car * 2 + field;
  }
  throw std::logic_error("unknown variable order");
}

const DomainVariable& NaiveEncoding::field(int car, int field) const {
  if (car < 0 || car >= options_.cars) throw std::out_of_range("car index out of range");
  return variables_[static_cast<std::size_t>(3 * car + field)];
}

bdd NaiveEncoding::coordinate_is(int car, int field_index, int value, bool next) const {
  return field(car, field_index).encode(value - 1, next ? Copy::Next : Copy::Current);
}

bdd NaiveEncoding::x_is(int car, int value, bool next) const {
  return coordinate_is(car, kFieldX, value, next);
}
bdd NaiveEncoding::y_is(int car, int value, bool next) const {
  return coordinate_is(car, kFieldY, value, next);
}
bdd NaiveEncoding::horizontal(int car, bool next) const {
  return field(car, kFieldH).encode(1, next ? Copy::Next : Copy::Current);
}

bdd NaiveEncoding::covers(int car, int cx, int cy, bool next) const {
  const int dy = options_.vertical == VerticalDirection::Up ? 1 : -1;
  // Anchor in the cell itself or one step back along the car's axis.
  const bdd as_horizontal = horizontal(car, next) & y_is(car, cy, next) &
                            (x_is(car, cx, next) | x_is(car, cx - 1, next));
  const bdd as_vertical = (!horizontal(car, next)) & x_is(car, cx, next) &
                          (y_is(car, cy, next) | y_is(car, cy - dy, next));
  return as_horizontal | as_vertical;
}

bdd NaiveEncoding::on_board(int car) const {
  const int n = options_.size;
  bdd x_ok = bddfalse;
  bdd y_ok = bddfalse;
  bdd x_room = bddfalse;  // a horizontal car's right cell fits
  bdd y_room = bddfalse;  // a vertical car's other cell fits
  for (int v = 1; v <= n; ++v) {
    x_ok |= x_is(car, v);
    y_ok |= y_is(car, v);
    if (v + 1 <= n) x_room |= x_is(car, v);
    const int other = options_.vertical == VerticalDirection::Up ? v + 1 : v - 1;
    if (other >= 1 && other <= n) y_room |= y_is(car, v);
  }
  return x_ok & y_ok & bdd_ite(horizontal(car), x_room, y_room);
}

bdd NaiveEncoding::disjoint(int a, int b) const {
  bdd shared = bddfalse;
  for (int cx = 1; cx <= options_.size; ++cx)
    for (int cy = 1; cy <= options_.size; ++cy) shared |= covers(a, cx, cy) & covers(b, cx, cy);
  return !shared;
}

bdd NaiveEncoding::canonical_codes() const {
  bdd result = bddtrue;
  for (int car = 0; car < options_.cars; ++car) {
    for (int field_index : {kFieldX, kFieldY}) {
      bdd first_codes = bddfalse;
      for (int v = 0; v < options_.size; ++v) first_codes |= field(car, field_index).canonical(v);
      result &= first_codes;
    }
  }
  return result;
}

bdd NaiveEncoding::invariant(InvarSchedule schedule, const std::function<void()>& after_each) const {
  const int m = options_.cars;
  auto step = [&](bdd value) {
    if (after_each) after_each();
    return value;
  };
  // Car i's own constraints against the cars before it: on the board, disjoint from each.
  auto own_constraints = [&](int car, bdd acc) {
    acc = step(acc & on_board(car));
    for (int other = 0; other < car; ++other) acc = step(acc & disjoint(other, car));
    return acc;
  };
  switch (schedule) {
    case InvarSchedule::CarByCar: {
      bdd acc = bddtrue;
      for (int car = 0; car < m; ++car) acc = own_constraints(car, acc);
      return acc;
    }
    case InvarSchedule::CarByCarReverse: {
      bdd acc = bddtrue;
      for (int car = m - 1; car >= 0; --car) {
        acc = step(acc & on_board(car));
        for (int other = m - 1; other > car; --other) acc = step(acc & disjoint(car, other));
      }
      return acc;
    }
    case InvarSchedule::PerCar: {
      bdd acc = bddtrue;
      for (int car = 0; car < m; ++car) acc = step(acc & own_constraints(car, bddtrue));
      return acc;
    }
    case InvarSchedule::BalancedTree: {
      std::vector<bdd> parts;
      for (int car = 0; car < m; ++car) {
        parts.push_back(on_board(car));
        for (int other = 0; other < car; ++other) parts.push_back(disjoint(other, car));
      }
      while (parts.size() > 1) {
        std::vector<bdd> next;
        for (std::size_t k = 0; k + 1 < parts.size(); k += 2) next.push_back(step(parts[k] & parts[k + 1]));
        if (parts.size() % 2 == 1) next.push_back(parts.back());
        parts = std::move(next);
      }
      return parts.empty() ? bddtrue : parts.front();
    }
  }
  throw std::logic_error("unknown schedule");
}

bdd NaiveEncoding::winning() const {
  const int n = options_.size;
  const int exit_row = options_.exit_row >= 0 ? options_.exit_row : (n - 1) / 2;
  // SPEC rows count from the top (0-based); naive y counts from the bottom (1-based).
  return horizontal(0) & x_is(0, n - 1) & y_is(0, n - exit_row);
}

bdd NaiveEncoding::transition_step() const {
  const int n = options_.size;
  const int m = options_.cars;
  auto same = [&](int car, int field_index) { return field(car, field_index).same_value(); };
  auto shifted = [&](int car, int field_index) {  // field' = field +- 1, both in 1..n
    bdd result = bddfalse;
    for (int v = 1; v <= n; ++v)
      result |= coordinate_is(car, field_index, v, false) &
                (coordinate_is(car, field_index, v - 1, true) |
                 coordinate_is(car, field_index, v + 1, true));
    return result;
  };
  auto same_h = [&](int car) { return field(car, kFieldH).unchanged(); };
  bdd relation = bddfalse;
  for (int car = 0; car < m; ++car) {
    bdd move = same_h(car) & bdd_ite(horizontal(car), shifted(car, kFieldX) & same(car, kFieldY),
                                      same(car, kFieldX) & shifted(car, kFieldY));
    for (int other = 0; other < m; ++other)
      if (other != car) move &= same(other, kFieldX) & same(other, kFieldY) & same_h(other);
    relation |= move;
  }
  return relation;
}

bdd NaiveEncoding::placement_cube(const std::vector<NaivePlacement>& cars) const {
  if (static_cast<int>(cars.size()) != options_.cars)
    throw std::invalid_argument("placement_cube needs one placement per car");
  bdd cube = bddtrue;
  for (int car = 0; car < options_.cars; ++car) {
    const NaivePlacement& p = cars[static_cast<std::size_t>(car)];
    for (auto [field_index, value] : {std::pair{kFieldX, p.x}, std::pair{kFieldY, p.y}}) {
      if (value < 1 || value > options_.size) return bddfalse;
      cube &= field(car, field_index).canonical(value - 1);
    }
    cube &= p.horizontal ? horizontal(car) : !horizontal(car);
  }
  return cube;
}

bdd NaiveEncoding::variable_set_of(Copy copy) const {
  std::vector<const DomainVariable*> all;
  for (const DomainVariable& variable : variables_) all.push_back(&variable);
  return variable_set(variables_of(all, copy));
}

bdd NaiveEncoding::current_variable_set() const { return variable_set_of(Copy::Current); }

bdd NaiveEncoding::next_variable_set() const {
  if (!options_.next_state)
    throw std::logic_error("next-state variables were not declared (NaiveOptions::next_state)");
  return variable_set_of(Copy::Next);
}

bdd NaiveEncoding::prime(const bdd& f) const {
  std::vector<const DomainVariable*> all;
  for (const DomainVariable& variable : variables_) all.push_back(&variable);
  return VarRenaming(variables_of(all, Copy::Current), variables_of(all, Copy::Next)).apply(f);
}

std::int64_t complement_edge_node_count(const bdd& f) {
  if (f.id() < 2) return 1;  // a constant: CUDD's single constant node
  const NodeGraph graph(f);
  const std::vector<int>& nodes = graph.nodes();
  // Edge reference r = 2 * class + phase: class 0 is the constant (phase 1 = true); a class
  // is a function up to negation, phase 1 means "the negation of the class representative".
  // Nodes are classified bottom-up (by level), normalising each node's low edge to phase 0,
  // which is CUDD's canonical form with the roles of the two edges swapped.
  const std::size_t count = nodes.size();
  std::vector<std::int64_t> ref(count);
  auto edge = [&](int node) -> std::int64_t {
    return node < 2 ? node : ref[static_cast<std::size_t>(graph.index(node))];
  };
  std::vector<std::vector<int>> by_level(static_cast<std::size_t>(bdd_varnum()));
  for (std::size_t k = 0; k < count; ++k)
    by_level[static_cast<std::size_t>(bdd_var2level(::bdd_var(nodes[k])))].push_back(
        static_cast<int>(k));
  std::int64_t classes = 0;
  struct Entry {
    std::int64_t low, high;
    int node;  // dense index
    bool flipped;
  };
  std::vector<Entry> entries;
  for (auto level = by_level.rbegin(); level != by_level.rend(); ++level) {
    entries.clear();
    for (int k : *level) {
      const int node = nodes[static_cast<std::size_t>(k)];
      std::int64_t low = edge(::bdd_low(node));
      std::int64_t high = edge(::bdd_high(node));
      const bool flipped = (low & 1) != 0;
      if (flipped) {
        low ^= 1;
        high ^= 1;
      }
      entries.push_back({low, high, k, flipped});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.low != b.low ? a.low < b.low : a.high < b.high;
    });
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k == 0 || entries[k].low != entries[k - 1].low || entries[k].high != entries[k - 1].high)
        ++classes;
      ref[static_cast<std::size_t>(entries[k].node)] = 2 * classes + (entries[k].flipped ? 1 : 0);
    }
  }
  return classes + 1;
}

std::int64_t labeled_placements(const NaiveEncoding& encoding, const bdd& f) {
  const Count count = exact_count(f & encoding.canonical_codes(), encoding.current_variable_set());
  if (count > static_cast<Count>(std::numeric_limits<std::int64_t>::max()))
    throw std::overflow_error("labeled placements exceed 2^63-1");
  return static_cast<std::int64_t>(count);
}

std::int64_t naive_lower_bound(int size, int cars) {
  const std::int64_t n = static_cast<std::int64_t>(size) * size;
  const std::int64_t k = cars - 1;
  if (k < 0 || k > n) return 0;
  // C(n, k) by the multiplicative formula; each partial product is itself a binomial.
  Count result = 1;
  for (std::int64_t i = 1; i <= k; ++i)
    result = checked_mul(result, static_cast<Count>(n - k + i)) / static_cast<Count>(i);
  return static_cast<std::int64_t>(result);
}

}  // namespace rushhour
