#pragma once
// The naive coordinate encoding of m labeled cars (SPEC §3), the one whose BDD explodes.
//
// Coordinates. Car i (0-based here, "car i+1" in the paper) has integers x_i (column) and
// y_i (row) in 1..n, (1,1) the lower-left corner, and a boolean h_i (1 = horizontal).
// A horizontal car covers (x,y),(x+1,y). A vertical car covers (x,y),(x,y+1) with
// VerticalDirection::Up (the published model) or (x,y),(x,y-1) with VerticalDirection::Down.
//
// Scalar code of x_i and y_i: b = ceil(log2 n) boolean variables, bit 0 on top.
//  - ScalarCode::NuSmv (published): the ascending value list 1..n is split by bit 0 by
//    position (1st, 3rd, 5th... values -> 0; 2nd, 4th... -> 1), each half again by bit 1,
//    and so on until one value is left; the bits below a leaf are don't-care. For n = 4 this
//    is the binary code of v-1 with its least significant bit on top; for n = 5, 6, 7 some
//    values own two (or more) codes and no code is invalid.
//  - ScalarCode::Binary: the binary code of v-1, most significant bit on top; the codes
//    n..2^b-1 are invalid and excluded by the range constraint inside on_board().
//
// Variable layout. Every (car, field, bit) is one "current" variable; the sequence of them
// is fixed by VariableOrder:
//  - CarBlocks (published): x_1 bits, y_1 bits, h_1, x_2 bits, ... , h_m.
//  - CarBlocksOrientationFirst: h_1, x_1 bits, y_1 bits, h_2, ...
//  - BitInterleaved: for bit k = 0..b-1: x_1[k], y_1[k], x_2[k], y_2[k], ...; then h_1..h_m.
// With next-state variables (needed only by transition_step()) every current variable at
// position p gets BuDDy variable 2p and its primed copy 2p+1 (interleaved, as NuSMV does);
// without them it is variable p. BDD variable = level: the session never reorders.
// Each x_i, y_i (domain value v-1 for coordinate v) and h_i is a DomainVariable
// (bdd/domain_variable.hpp) placed on those variables.
//
// Invar = AND_i on_board(i) AND AND_{i<j} disjoint(i,j); it mentions current variables only.
#include <bdd.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bdd/domain_variable.hpp"

namespace rushhour {

enum class ScalarCode { NuSmv, Binary };
enum class VariableOrder { CarBlocks, CarBlocksOrientationFirst, BitInterleaved };
enum class VerticalDirection { Up, Down };

// How Invar's conjunction is scheduled; the result is the same canonical BDD.
//  - CarByCar: acc = on_board(1); for i = 2..m: acc &= on_board(i), then acc &= disjoint(j,i)
//    for j < i, one small constraint at a time (the intermediate is Invar of the first i cars).
//  - CarByCarReverse: the same from the last car (bottom of the order) up to the first.
//  - PerCar: D_i = on_board(i) AND AND_{j<i} disjoint(j,i) built on its own, then
//    acc = D_1 AND D_2 AND ... in order.
//  - BalancedTree: all m + m(m-1)/2 constraints conjoined as a balanced binary tree.
enum class InvarSchedule { CarByCar, CarByCarReverse, PerCar, BalancedTree };

ScalarCode parse_scalar_code(const std::string& name);          // "nusmv" | "binary"
VariableOrder parse_variable_order(const std::string& name);    // "car-blocks" | ...
VerticalDirection parse_vertical_direction(const std::string& name);  // "up" | "down"
InvarSchedule parse_invar_schedule(const std::string& name);    // "car-by-car" | ...
std::string to_string(ScalarCode code);
std::string to_string(VariableOrder order);
std::string to_string(VerticalDirection direction);
std::string to_string(InvarSchedule schedule);
std::vector<std::string> invar_schedule_names();

struct NaiveOptions {
  int size = 4;  // n
  int cars = 2;  // m
  ScalarCode code = ScalarCode::NuSmv;
  VariableOrder order = VariableOrder::CarBlocks;
  VerticalDirection vertical = VerticalDirection::Up;
  bool next_state = false;  // declare primed copies (for transition_step())
  // Exit row counted from the top as in SPEC §2 (-1 = default (n-1)/2); only winning() uses it.
  int exit_row = -1;

  void check() const;  // throws InputError: size 2..8, cars >= 1, exit row on the board
};

// One placed car in naive coordinates (1-based, (1,1) lower-left).
struct NaivePlacement {
  int x = 1;
  int y = 1;
  bool horizontal = true;
  friend bool operator==(const NaivePlacement&, const NaivePlacement&) = default;
};

// The cells covered by `p` under `vertical`, each as (x, y); cells may lie off the board.
std::vector<std::pair<int, int>> covered_cells(const NaivePlacement& p, VerticalDirection vertical);

class NaiveEncoding {
 public:
  // Builds the per-value code BDDs. A BddSession with at least variable_count(options)
  // variables must be live and must outlive this object.
  explicit NaiveEncoding(const NaiveOptions& options);

  static int bits_per_coordinate(int size);  // ceil(log2 size)
  static int variable_count(const NaiveOptions& options);
  int variable_count() const { return variable_count(options_); }
  const NaiveOptions& options() const { return options_; }

  // The codes of value v (1..n) as cubes over bits 0..b-1: each entry is 0, 1 or -1 (free).
  std::vector<std::vector<int>> codes(int value) const;

  // Atomic predicates. `next` selects the primed copies (requires options.next_state).
  bdd x_is(int car, int value, bool next = false) const;
  bdd y_is(int car, int value, bool next = false) const;
  bdd horizontal(int car, bool next = false) const;
  bdd covers(int car, int cx, int cy, bool next = false) const;  // car covers cell (cx, cy)

  bdd on_board(int car) const;           // both cells on the board (and valid codes)
  bdd disjoint(int a, int b) const;      // no cell covered by both a and b
  bdd canonical_codes() const;           // each coordinate uses its first code: one per placement

  // Invar under `schedule`. `after_each` runs after every BDD operation (to sample the node
  // count, check the session and the clock); it may throw to abandon the build.
  bdd invariant(InvarSchedule schedule, const std::function<void()>& after_each = {}) const;

  // Goal of the naive model: car 1 horizontal in the exit row with its right cell in column n.
  bdd winning() const;
  // One step (step metric), as a NuSMV TRANS: exactly one car i moves one cell along its
  // axis (x_i' = x_i +- 1 if h_i, else y_i' = y_i +- 1, values in 1..n); h_i and every other
  // car keep their values (equality of values, not of codes). Legality is left to Invar, as
  // NuSMV's INVAR applies to both ends: Invar(s) AND T(s,s') AND Invar(s') is exactly "one
  // car steps into a free cell on the board". Kept apart from Invar, it stays linear in m,
  // while folding the free-cell test into T makes it explode like Invar itself.
  bdd transition_step() const;

  // The cube of one placement per car (first code of each value), over current variables.
  bdd placement_cube(const std::vector<NaivePlacement>& cars) const;
  // The current variables, as a BuDDy variable set (for counting and quantification).
  bdd current_variable_set() const;
  bdd next_variable_set() const;  // requires options.next_state
  // f with every current variable renamed to its primed copy (f must mention current only).
  bdd prime(const bdd& f) const;

 private:
  // Position of bit `bit` of field `field` (0 = x, 1 = y, 2 = h) of `car` in the order.
  int position(int car, int field, int bit) const;
  const DomainVariable& field(int car, int field) const;
  bdd coordinate_is(int car, int field, int value, bool next) const;  // value 1..n
  bdd variable_set_of(Copy copy) const;

  NaiveOptions options_;
  int bits_;
  std::vector<DomainVariable> variables_;  // [3 car + field]
};

// Node count as CUDD (complement edges) would report it: BuDDy's internal nodes of f, minus
// the number of pairs {g, NOT g} of nodes of f that are each other's negation, plus one for
// CUDD's single constant node. Computed from the graph alone (a bottom-up canonical form
// that normalises the low edge to be regular), without building any negation.
std::int64_t complement_edge_node_count(const bdd& f);

// Labeled placements: the distinct tuples (x_i, y_i, h_i)_i that satisfy f, i.e. the
// assignments of f AND canonical_codes() over the current variables. Throws
// std::overflow_error beyond 2^63-1.
std::int64_t labeled_placements(const NaiveEncoding& encoding, const bdd& f);

// C(n^2, m-1), the fooling-set lower bound for orders that keep each car's variables together.
std::int64_t naive_lower_bound(int size, int cars);

}  // namespace rushhour
