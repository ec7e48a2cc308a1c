#include "bdd/bdd_util.hpp"

#include <algorithm>
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

std::vector<signed char> cube_values(const bdd& cube) {
  if (cube == bddfalse) throw std::logic_error("cube_values of the empty set");
  std::vector<signed char> values(static_cast<std::size_t>(bdd_varnum()), -1);
  for (bdd node = cube; node != bddtrue;) {
    const bdd low = bdd_low(node);
    const bdd high = bdd_high(node);
    if (low != bddfalse && high != bddfalse) throw std::logic_error("cube_values of a non-cube");
    values[static_cast<std::size_t>(bdd_var(node))] = low == bddfalse ? 1 : 0;
    node = low == bddfalse ? high : low;
  }
  return values;
}

namespace {

// Walks f along `by_level` (variable positions sorted by level), expanding skipped variables.
bool walk(const bdd& f, const std::vector<std::pair<int, int>>& by_level, std::size_t k,
          std::vector<bool>& values, const std::function<bool(const std::vector<bool>&)>& visit) {
  if (f == bddfalse) return true;
  if (k == by_level.size()) return visit(values);
  const auto [variable, position] = by_level[k];
  const bool tests_here = f != bddtrue && bdd_var(f) == variable;
  for (bool value : {false, true}) {
    values[position] = value;
    const bdd branch = tests_here ? (value ? bdd_high(f) : bdd_low(f)) : f;
    if (!walk(branch, by_level, k + 1, values, visit)) return false;
  }
  return true;
}

}  // namespace

bool for_each_assignment(const bdd& f, std::span<const int> variables,
                         const std::function<bool(const std::vector<bool>&)>& visit) {
  std::vector<std::pair<int, int>> by_level;
  for (std::size_t k = 0; k < variables.size(); ++k)
    by_level.emplace_back(variables[k], static_cast<int>(k));
  std::sort(by_level.begin(), by_level.end(), [](const auto& a, const auto& b) {
    return bdd_var2level(a.first) < bdd_var2level(b.first);
  });
  std::vector<bool> values(variables.size(), false);
  return walk(f, by_level, 0, values, visit);
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

std::vector<bdd> count_true(std::span<const bdd> markers, int cap) {
  std::vector<bdd> by_count = {bddtrue};
  for (const bdd& here : markers) {
    std::vector<bdd> next(std::min<std::size_t>(by_count.size() + 1, static_cast<std::size_t>(cap) + 1), bddfalse);
    for (std::size_t k = 0; k < by_count.size(); ++k) {
      next[k] |= by_count[k] & !here;
      if (k + 1 < next.size()) next[k + 1] |= by_count[k] & here;
    }
    by_count = std::move(next);
  }
  return by_count;
}

}  // namespace rushhour
