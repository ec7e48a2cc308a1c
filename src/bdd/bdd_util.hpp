#pragma once
// Small helpers over BuDDy's `bdd` handles: cubes, renamings, minterm reading, node counts.
// Exact counts: bdd/state_set.hpp.
#include <bdd.h>

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace rushhour {

// The conjunction of the positive literals of `variables` (a variable set for quantifiers
// and counting).
bdd variable_set(std::span<const int> variables);

// The minterm setting variables[k] to values[k].
bdd assignment(std::span<const int> variables, const std::vector<bool>& values);

// Owns a BuDDy renaming (bddPair). Must be destroyed before the BddSession.
class VarRenaming {
 public:
  VarRenaming(std::span<const int> from, std::span<const int> to);
  ~VarRenaming();
  VarRenaming(const VarRenaming&) = delete;
  VarRenaming& operator=(const VarRenaming&) = delete;
  VarRenaming(VarRenaming&& other) noexcept : pair_(std::exchange(other.pair_, nullptr)) {}
  VarRenaming& operator=(VarRenaming&&) = delete;

  bdd apply(const bdd& f) const { return bdd_replace(f, pair_); }

 private:
  bddPair* pair_;
};

// Values of `variables` in one satisfying assignment of f (f != bddfalse), choosing 0 for
// variables f does not constrain.
std::vector<bool> one_assignment(const bdd& f, std::span<const int> variables);

// The literals of a cube (a conjunction of literals, such as a minterm) by variable:
// result[v] is 1 or 0 if the cube fixes variable v, -1 if not; bdd_varnum() entries.
// Throws std::logic_error if f is not a cube.
std::vector<signed char> cube_values(const bdd& cube);

// Calls visit(values) for every assignment of `variables` satisfying f (values[k] is the
// value of variables[k]) until visit returns false; returns false if stopped. f must depend
// on `variables` only.
bool for_each_assignment(const bdd& f, std::span<const int> variables,
                         const std::function<bool(const std::vector<bool>&)>& visit);

// Disjunction of all terms, merged pairwise in a balanced tree (cheaper than a chain).
bdd disjunction(std::vector<bdd> terms);

// by_count[k]: the assignments under which exactly k of `markers` hold, for k = 0..cap (those
// with more are dropped). A dynamic programme over the markers in their order: give them in
// variable order to keep the partial sets small.
std::vector<bdd> count_true(std::span<const bdd> markers, int cap);

// a ∧ ¬b in one pass (bddop_diff). Spelled a & !b, BuDDy first builds ¬b as a BDD of its own,
// a full copy: on 6x6 that was 16% of the dominance closures, whose `reached` has millions of
// nodes and changes after every transition part.
inline bdd minus(const bdd& a, const bdd& b) { return bdd_apply(a, b, bddop_diff); }

}  // namespace rushhour
