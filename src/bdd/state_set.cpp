#include "bdd/state_set.hpp"

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "bdd/node_graph.hpp"

namespace rushhour {
namespace {

// 2^shift · value, checked.
Count shifted(Count value, int shift) {
  if (value == 0) return 0;
  if (shift >= 128 || (value << shift) >> shift != value)
    throw std::overflow_error("satisfying assignment count exceeds 2^128 - 1");
  return value << shift;
}

// 2^53: below it a double holds every integer, and bdd_satcountset's sums are exact.
constexpr double kExactInDouble = 9007199254740992.0;

}  // namespace

Count exact_count(const bdd& f, const bdd& variables) {
  // bdd_satcountset answers 0 for an empty variable set and counts variables outside the set
  // as if f did not test them: both cases go to the walk, which counts or refuses them.
  // (∃V. f is a constant exactly when f tests no other variable. Not bdd_support: BuDDy keeps
  // its buffer across sessions and writes past it after a session with more variables.)
  if (f == bddfalse) return 0;
  if (variables != bddtrue && bdd_exist(f, variables) == bddtrue) {
    const double count = bdd_satcountset(f, variables);
    if (count < kExactInDouble) return static_cast<Count>(count);
  }
  return count_by_node_walk(f, variables);
}

Count count_by_node_walk(const bdd& f, const bdd& variables) {
  // rank[l] = the number of counted variables at levels above l; rank[varnum] = all of them.
  const int levels = bdd_varnum();
  std::vector<char> counted(static_cast<std::size_t>(levels), 0);
  {
    int* vars = nullptr;
    int size = 0;
    if (bdd_scanset(variables, vars, size) != 0) throw std::logic_error("exact_count: bad variable set");
    for (int k = 0; k < size; ++k) counted[static_cast<std::size_t>(bdd_var2level(vars[k]))] = 1;
    free(vars);
  }
  std::vector<int> rank(static_cast<std::size_t>(levels) + 1, 0);
  for (std::size_t l = 0; l < counted.size(); ++l) rank[l + 1] = rank[l] + counted[l];
  if (f == bddfalse) return 0;
  if (f == bddtrue) return shifted(1, rank.back());

  const NodeGraph graph(f);
  auto level_of = [&](int node) { return node < 2 ? levels : bdd_var2level(::bdd_var(node)); };
  std::vector<Count> below(graph.nodes().size());
  for (std::size_t k = 0; k < graph.nodes().size(); ++k) {
    const int node = graph.nodes()[k];
    const int level = level_of(node);
    if (!counted[static_cast<std::size_t>(level)])
      throw std::logic_error("exact_count: the set mentions a variable outside the counted ones");
    Count total = 0;
    for (const int child : {::bdd_low(node), ::bdd_high(node)}) {
      const Count at_child = child < 2 ? Count(child) : below[static_cast<std::size_t>(graph.index(child))];
      const int skipped = rank[static_cast<std::size_t>(level_of(child))] -
                          rank[static_cast<std::size_t>(level)] - 1;
      total = checked_add(total, shifted(at_child, skipped));
    }
    below[k] = total;
  }
  return shifted(below.back(), rank[static_cast<std::size_t>(level_of(f.id()))]);
}

}  // namespace rushhour
