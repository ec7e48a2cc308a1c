#include "bdd/bdd_util.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace rushhour {

bdd variable_set(std::span<const int> variables) {
  bdd set = bddtrue;
  for (int v : variables) set &= bdd_ithvar(v);
  return set;
}

bdd assignment(std::span<const int> variables, const std::vector<bool>& values) {
  bdd cube = bddtrue;
  for (std::size_t k = 0; k < variables.size(); ++k)
    cube &= values[k] ? bdd_ithvar(variables[k]) : bdd_nithvar(variables[k]);
  return cube;
}

VarRenaming::VarRenaming(std::span<const int> from, std::span<const int> to)
    : pair_(bdd_newpair()) {
  if (from.size() != to.size()) throw std::logic_error("VarRenaming: unequal variable lists");
  for (std::size_t k = 0; k < from.size(); ++k) bdd_setpair(pair_, from[k], to[k]);
}

VarRenaming::~VarRenaming() {
  if (pair_ != nullptr) bdd_freepair(pair_);
}

std::uint64_t exact_count(const bdd& f, const bdd& set) {
  const double count = bdd_satcountset(f, set);
  if (!(count >= 0) || count > 9007199254740992.0 || std::floor(count) != count)
    throw std::runtime_error("BDD count " + std::to_string(count) + " is not exact in a double");
  return static_cast<std::uint64_t>(count);
}

std::vector<bool> one_assignment(const bdd& f, std::span<const int> variables) {
  if (f == bddfalse) throw std::logic_error("one_assignment of an empty set");
  std::vector<bool> values(variables.size(), false);
  // Walk one path to the true terminal, preferring the low branch.
  std::vector<std::pair<int, bool>> path;
  bdd node = f;
  while (node != bddtrue) {
    const bdd low = bdd_low(node);
    if (low != bddfalse) {
      path.emplace_back(bdd_var(node), false);
      node = low;
    } else {
      path.emplace_back(bdd_var(node), true);
      node = bdd_high(node);
    }
  }
  for (std::size_t k = 0; k < variables.size(); ++k)
    for (const auto& [var, value] : path)
      if (var == variables[k]) values[k] = value;
  return values;
}

bdd disjunction(std::vector<bdd> terms) {
  if (terms.empty()) return bddfalse;
  while (terms.size() > 1) {
    std::vector<bdd> merged;
    merged.reserve((terms.size() + 1) / 2);
    for (std::size_t k = 0; k + 1 < terms.size(); k += 2) merged.push_back(terms[k] | terms[k + 1]);
    if (terms.size() % 2) merged.push_back(terms.back());
    terms = std::move(merged);
  }
  return terms.front();
}

}  // namespace rushhour
