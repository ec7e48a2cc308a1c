#include "encoding/naive_encoding.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "board/errors.hpp"

namespace rushhour {
namespace {

// Counts can pass 2^64 in intermediate products before the overflow check; GCC and Clang
// both provide 128-bit integers.
__extension__ typedef unsigned __int128 Wide;

constexpr int kFieldX = 0;
constexpr int kFieldY = 1;
constexpr int kFieldH = 2;

// NuSMV's scalar encoding: split the (ascending) value list by position, 1st, 3rd, ... to
// bit value 0 and 2nd, 4th, ... to 1, recursively, one bit per tree level; a one-value list is
// a leaf and the bits below it are free.
void nusmv_codes(const std::vector<int>& values, int bit, int bits, std::vector<int>& prefix,
                 std::vector<std::vector<std::vector<int>>>& codes) {
  if (values.size() == 1) {
    std::vector<int> cube = prefix;
    cube.resize(static_cast<std::size_t>(bits), -1);
    codes[static_cast<std::size_t>(values[0] - 1)].push_back(cube);
    return;
  }
  if (bit >= bits) throw std::logic_error("scalar code ran out of bits");
  for (int side = 0; side < 2; ++side) {
    std::vector<int> half;
    for (std::size_t k = static_cast<std::size_t>(side); k < values.size(); k += 2)
      half.push_back(values[k]);
    prefix.push_back(side);
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

// A read-only walk over the nodes of f. The caller holds f, so none of its nodes can be
// collected, and the walk creates no node, so plain node indices are safe for its duration;
// they never leave this file.
struct NodeGraph {
  std::vector<int> nodes;   // internal nodes of f, children before parents (post-order)
  std::vector<int> dense;   // node index -> position in `nodes`, -1 if not a node of f

  explicit NodeGraph(const bdd& f) : dense(static_cast<std::size_t>(bdd_getallocnum()), -1) {
    const int root = f.id();
    if (root < 2) return;
    // Iterative post-order: a node is emitted after both children.
    std::vector<std::pair<int, int>> stack{{root, 0}};
    dense[static_cast<std::size_t>(root)] = -2;  // on the stack
    while (!stack.empty()) {
      auto& [node, state] = stack.back();
      if (state < 2) {
        const int child = state == 0 ? ::bdd_low(node) : ::bdd_high(node);
        ++state;
        if (child >= 2 && dense[static_cast<std::size_t>(child)] == -1) {
          dense[static_cast<std::size_t>(child)] = -2;
          stack.emplace_back(child, 0);
        }
        continue;
      }
      dense[static_cast<std::size_t>(node)] = static_cast<int>(nodes.size());
      nodes.push_back(node);
      stack.pop_back();
    }
  }
  int index(int node) const { return dense[static_cast<std::size_t>(node)]; }
};

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

int NaiveEncoding::bits_per_coordinate(int size) {
  int bits = 0;
  while ((1 << bits) < size) ++bits;
  return bits;
}

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
  codes_.resize(static_cast<std::size_t>(n));
  if (options_.code == ScalarCode::NuSmv) {
    std::vector<int> values;
    for (int v = 1; v <= n; ++v) values.push_back(v);
    std::vector<int> prefix;
    nusmv_codes(values, 0, bits_, prefix, codes_);
  } else {
    for (int v = 1; v <= n; ++v) {
      std::vector<int> cube(static_cast<std::size_t>(bits_));
      for (int bit = 0; bit < bits_; ++bit) cube[static_cast<std::size_t>(bit)] = ((v - 1) >> (bits_ - 1 - bit)) & 1;
      codes_[static_cast<std::size_t>(v - 1)].push_back(cube);
    }
  }
}

std::vector<std::vector<int>> NaiveEncoding::codes(int value) const {
  return codes_.at(static_cast<std::size_t>(value - 1));
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

int NaiveEncoding::variable(int car, int field, int bit, bool next) const {
  if (car < 0 || car >= options_.cars) throw std::out_of_range("car index out of range");
  if (next && !options_.next_state)
    throw std::logic_error("next-state variables were not declared (NaiveOptions::next_state)");
  const int p = position(car, field, bit);
  return options_.next_state ? 2 * p + (next ? 1 : 0) : p;
}

int NaiveEncoding::current_variable(int car, int field, int bit) const {
  return variable(car, field, bit, false);
}

bdd NaiveEncoding::coordinate_is(int car, int field, int value, bool next) const {
  if (value < 1 || value > options_.size) return bddfalse;
  bdd result = bddfalse;
  for (const auto& cube : codes_[static_cast<std::size_t>(value - 1)]) {
    bdd term = bddtrue;
    for (int bit = 0; bit < bits_; ++bit) {
      const int b = cube[static_cast<std::size_t>(bit)];
      if (b < 0) continue;
      const int var = variable(car, field, bit, next);
      term &= b ? bdd_ithvar(var) : bdd_nithvar(var);
    }
    result |= term;
  }
  return result;
}

bdd NaiveEncoding::x_is(int car, int value, bool next) const {
  return coordinate_is(car, kFieldX, value, next);
}
bdd NaiveEncoding::y_is(int car, int value, bool next) const {
  return coordinate_is(car, kFieldY, value, next);
}
bdd NaiveEncoding::horizontal(int car, bool next) const {
  return bdd_ithvar(variable(car, kFieldH, 0, next));
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
    for (int field : {kFieldX, kFieldY}) {
      bdd first_codes = bddfalse;
      for (const auto& value_codes : codes_) {
        bdd cube = bddtrue;
        for (int bit = 0; bit < bits_; ++bit) {
          const int var = variable(car, field, bit, false);
          cube &= value_codes.front()[static_cast<std::size_t>(bit)] == 1 ? bdd_ithvar(var)
                                                                          : bdd_nithvar(var);
        }
        first_codes |= cube;
      }
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
  auto same = [&](int car, int field) {
    bdd result = bddfalse;
    for (int v = 1; v <= n; ++v)
      result |= coordinate_is(car, field, v, false) & coordinate_is(car, field, v, true);
    return result;
  };
  auto shifted = [&](int car, int field) {  // field' = field +- 1, both in 1..n
    bdd result = bddfalse;
    for (int v = 1; v <= n; ++v)
      result |= coordinate_is(car, field, v, false) &
                (coordinate_is(car, field, v - 1, true) | coordinate_is(car, field, v + 1, true));
    return result;
  };
  auto same_h = [&](int car) { return bdd_biimp(horizontal(car, false), horizontal(car, true)); };
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
    for (auto [field, value] : {std::pair{kFieldX, p.x}, std::pair{kFieldY, p.y}}) {
      if (value < 1 || value > options_.size) return bddfalse;
      const auto& code = codes_[static_cast<std::size_t>(value - 1)].front();
      for (int bit = 0; bit < bits_; ++bit) {
        const int var = variable(car, field, bit, false);
        cube &= code[static_cast<std::size_t>(bit)] == 1 ? bdd_ithvar(var) : bdd_nithvar(var);
      }
    }
    cube &= p.horizontal ? horizontal(car) : !horizontal(car);
  }
  return cube;
}

bdd NaiveEncoding::current_variable_set() const {
  std::vector<int> vars;
  for (int car = 0; car < options_.cars; ++car) {
    for (int field : {kFieldX, kFieldY})
      for (int bit = 0; bit < bits_; ++bit) vars.push_back(variable(car, field, bit, false));
    vars.push_back(variable(car, kFieldH, 0, false));
  }
  return bdd_makeset(vars.data(), static_cast<int>(vars.size()));
}

bdd NaiveEncoding::next_variable_set() const {
  std::vector<int> vars;
  for (int car = 0; car < options_.cars; ++car) {
    for (int field : {kFieldX, kFieldY})
      for (int bit = 0; bit < bits_; ++bit) vars.push_back(variable(car, field, bit, true));
    vars.push_back(variable(car, kFieldH, 0, true));
  }
  return bdd_makeset(vars.data(), static_cast<int>(vars.size()));
}

bdd NaiveEncoding::prime(const bdd& f) const {
  bddPair* pair = bdd_newpair();
  for (int car = 0; car < options_.cars; ++car) {
    for (int field : {kFieldX, kFieldY})
      for (int bit = 0; bit < bits_; ++bit)
        bdd_setpair(pair, variable(car, field, bit, false), variable(car, field, bit, true));
    bdd_setpair(pair, variable(car, kFieldH, 0, false), variable(car, kFieldH, 0, true));
  }
  const bdd result = bdd_replace(f, pair);
  bdd_freepair(pair);
  return result;
}

std::int64_t complement_edge_node_count(const bdd& f) {
  if (f.id() < 2) return 1;  // a constant: CUDD's single constant node
  const NodeGraph graph(f);
  // Edge reference r = 2 * class + phase: class 0 is the constant (phase 1 = true); a class
  // is a function up to negation, phase 1 means "the negation of the class representative".
  // Nodes are classified bottom-up (by level), normalising each node's low edge to phase 0,
  // which is CUDD's canonical form with the roles of the two edges swapped.
  const std::size_t count = graph.nodes.size();
  std::vector<std::int64_t> ref(count);
  auto edge = [&](int node) -> std::int64_t {
    return node < 2 ? node : ref[static_cast<std::size_t>(graph.index(node))];
  };
  std::vector<std::vector<int>> by_level(static_cast<std::size_t>(bdd_varnum()));
  for (std::size_t k = 0; k < count; ++k)
    by_level[static_cast<std::size_t>(bdd_var2level(::bdd_var(graph.nodes[k])))].push_back(
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
      const int node = graph.nodes[static_cast<std::size_t>(k)];
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

std::int64_t exact_satcount(const bdd& f, const bdd& variable_set) {
  // rank[l] = number of counted variables at levels above l; rank[varnum] = all of them.
  const int levels = bdd_varnum();
  std::vector<int> in_set(static_cast<std::size_t>(levels), 0);
  {
    int* vars = nullptr;
    int size = 0;
    if (bdd_scanset(variable_set, vars, size) != 0) throw std::logic_error("bad variable set");
    for (int k = 0; k < size; ++k) in_set[static_cast<std::size_t>(bdd_var2level(vars[k]))] = 1;
    free(vars);
  }
  std::vector<int> rank(static_cast<std::size_t>(levels) + 1, 0);
  for (int l = 0; l < levels; ++l)
    rank[static_cast<std::size_t>(l) + 1] = rank[static_cast<std::size_t>(l)] + in_set[static_cast<std::size_t>(l)];
  const Wide limit = static_cast<Wide>(std::numeric_limits<std::int64_t>::max());
  auto shifted = [&](Wide value, int shift) {
    if (value == 0) return value;
    if (shift >= 64 || (value << shift) >> shift != value || (value << shift) > limit)
      throw std::overflow_error("satisfying assignment count exceeds 2^63-1");
    return value << shift;
  };
  if (f.id() == 0) return 0;
  if (f.id() == 1) return static_cast<std::int64_t>(shifted(1, rank.back()));
  const NodeGraph graph(f);
  std::vector<Wide> count(graph.nodes.size());
  auto level_of = [&](int node) { return node < 2 ? levels : bdd_var2level(::bdd_var(node)); };
  for (std::size_t k = 0; k < graph.nodes.size(); ++k) {
    const int node = graph.nodes[k];
    const int level = level_of(node);
    if (!in_set[static_cast<std::size_t>(level)])
      throw std::logic_error("exact_satcount: f mentions a variable outside the counted set");
    Wide total = 0;
    for (int child : {::bdd_low(node), ::bdd_high(node)}) {
      const Wide below = child < 2 ? static_cast<Wide>(child)
                                   : count[static_cast<std::size_t>(graph.index(child))];
      const int gap = rank[static_cast<std::size_t>(level_of(child))] - rank[static_cast<std::size_t>(level)] - 1;
      total += shifted(below, gap);
      if (total > limit) throw std::overflow_error("satisfying assignment count exceeds 2^63-1");
    }
    count[k] = total;
  }
  const int root_level = level_of(f.id());
  return static_cast<std::int64_t>(
      shifted(count[static_cast<std::size_t>(graph.index(f.id()))], rank[static_cast<std::size_t>(root_level)]));
}

std::int64_t labeled_placements(const NaiveEncoding& encoding, const bdd& f) {
  return exact_satcount(f & encoding.canonical_codes(), encoding.current_variable_set());
}

std::int64_t naive_lower_bound(int size, int cars) {
  const std::int64_t n = static_cast<std::int64_t>(size) * size;
  const std::int64_t k = cars - 1;
  if (k < 0 || k > n) return 0;
  // C(n, k) by the multiplicative formula; each partial product is itself a binomial.
  Wide result = 1;
  for (std::int64_t i = 1; i <= k; ++i) result = result * static_cast<Wide>(n - k + i) / static_cast<Wide>(i);
  return static_cast<std::int64_t>(result);
}

}  // namespace rushhour
