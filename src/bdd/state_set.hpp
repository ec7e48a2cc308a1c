#pragma once
// A set of states together with the variables it is counted over (as Sylvan's reachability
// tool keeps each set with its variable set).
//
// A StateSet is a BDD f and a variable set V (a cube of positive literals); f must mention
// variables of V only. count() is |{a ∈ {0,1}^V : f(a) = 1}|, the number of assignments of V
// that satisfy f: variables of V that f skips count twice, variables outside V do not exist.
// Counting codes, it counts states exactly when every state has one code, which holds for
// the encodings' state sets (their legal sets exclude invalid codes, see state_encoding.hpp).
//
// The count is exact at every size. count_by_node_walk visits each node of f once, with
//   #(node at level l) = Σ_{child c} #(c) · 2^(|V between l and c's level| - 1)
//   #(true) = 1, #(false) = 0,  count = #(f) · 2^(|V above f's level|)
// in 128-bit arithmetic (Count). BuDDy's bdd_satcountset computes the same sums in doubles:
// every partial sum is a node's count times a power of two and no node's count exceeds the
// total, so its result is exact whenever it is below 2^53. exact_count takes BuDDy's count
// there (on the 6x6 domain, legal set and two layers, 57-70 k nodes, it took 1-22 ms where
// the walk took 25-295 ms) and the walk above (the 8x8 domain exceeds 2^64).
#include <bdd.h>

#include <cstdint>

#include "board/count.hpp"

namespace rushhour {

// The exact count of f over `variables` as described above. Both throw std::logic_error if
// f mentions a variable outside `variables`, std::overflow_error above 2^128 - 1.
Count exact_count(const bdd& f, const bdd& variables);
Count count_by_node_walk(const bdd& f, const bdd& variables);

class StateSet {
 public:
  StateSet() = default;  // the empty set over no variables
  StateSet(bdd states, bdd variables) : states_(std::move(states)), variables_(std::move(variables)) {}

  const bdd& states() const { return states_; }
  const bdd& variables() const { return variables_; }
  Count count() const { return exact_count(states_, variables_); }
  bool empty() const { return states_ == bddfalse; }
  // The set g over the same variables (g must mention them only).
  StateSet with(bdd g) const { return StateSet(std::move(g), variables_); }

 private:
  bdd states_ = bddfalse;
  bdd variables_ = bddtrue;
};

}  // namespace rushhour
