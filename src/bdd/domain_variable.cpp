#include "bdd/domain_variable.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "bdd/bdd_util.hpp"

namespace rushhour {
namespace {

// A code's decoding table has 2^bits entries; a wider code would be a mistake here.
constexpr int kMaxCodeBits = 24;

}  // namespace

int bits_for(int values) {
  int bits = 0;
  while ((1 << bits) < values) ++bits;
  return bits;
}

std::shared_ptr<const DomainCode> DomainCode::binary(int size) {
  if (size < 1) throw std::logic_error("a domain holds at least one value");
  const int bits = bits_for(size);
  std::vector<std::vector<Cube>> cubes(static_cast<std::size_t>(size));
  for (int v = 0; v < size; ++v) {
    Cube cube(static_cast<std::size_t>(bits));
    for (int k = 0; k < bits; ++k) cube[static_cast<std::size_t>(k)] = (v >> (bits - 1 - k)) & 1;
    cubes[static_cast<std::size_t>(v)].push_back(std::move(cube));
  }
  return from_cubes(std::move(cubes));
}

std::shared_ptr<const DomainCode> DomainCode::from_cubes(std::vector<std::vector<Cube>> cubes) {
  return std::shared_ptr<const DomainCode>(new DomainCode(std::move(cubes)));
}

DomainCode::DomainCode(std::vector<std::vector<Cube>> cubes) : cubes_(std::move(cubes)) {
  if (cubes_.empty() || cubes_.front().empty())
    throw std::logic_error("a domain code needs a cube for every value");
  bits_ = static_cast<int>(cubes_.front().front().size());
  if (bits_ > kMaxCodeBits) throw std::logic_error("a domain code of more than 24 bits");
  value_of_.assign(std::size_t{1} << bits_, -1);
  for (int v = 0; v < size(); ++v) {
    if (cubes_[static_cast<std::size_t>(v)].empty())
      throw std::logic_error("value " + std::to_string(v) + " of a domain code has no cube");
    for (const Cube& cube : cubes_[static_cast<std::size_t>(v)]) {
      if (static_cast<int>(cube.size()) != bits_)
        throw std::logic_error("the cubes of a domain code differ in length");
      for (std::uint64_t a = 0; a < value_of_.size(); ++a) {
        bool matches = true;
        for (int k = 0; k < bits_ && matches; ++k) {
          const signed char bit = cube[static_cast<std::size_t>(k)];
          matches = bit == kFree || bit == static_cast<signed char>(a >> (bits_ - 1 - k) & 1);
        }
        if (!matches) continue;
        if (value_of_[a] >= 0 && value_of_[a] != v)
          throw std::logic_error("two values of a domain code share an assignment");
        value_of_[a] = v;
      }
    }
  }
}

DomainVariable::DomainVariable(std::shared_ptr<const DomainCode> code, std::vector<int> current,
                               std::vector<int> next)
    : code_(std::move(code)), current_(std::move(current)), next_(std::move(next)) {
  if (static_cast<int>(current_.size()) != code_->bits() ||
      (!next_.empty() && next_.size() != current_.size()))
    throw std::logic_error("a domain variable needs one BuDDy variable per code bit");
}

const std::vector<int>& DomainVariable::variables(Copy copy) const {
  if (copy == Copy::Current) return current_;
  if (next_.empty()) throw std::logic_error("this domain variable has no next-state copy");
  return next_;
}

bdd DomainVariable::encode(int value, Copy copy) const {
  if (value < 0 || value >= size()) return bddfalse;
  const std::vector<int>& vars = variables(copy);
  bdd result = bddfalse;
  for (const DomainCode::Cube& cube : code_->cubes(value)) {
    bdd term = bddtrue;
    for (std::size_t k = 0; k < vars.size(); ++k)
      if (cube[k] != DomainCode::kFree) term &= cube[k] ? bdd_ithvar(vars[k]) : bdd_nithvar(vars[k]);
    result |= term;
  }
  return result;
}

bdd DomainVariable::canonical(int value, Copy copy) const {
  if (value < 0 || value >= size()) return bddfalse;
  const std::vector<int>& vars = variables(copy);
  const DomainCode::Cube& first = code_->cubes(value).front();
  bdd term = bddtrue;
  for (std::size_t k = 0; k < vars.size(); ++k)
    term &= first[k] == 1 ? bdd_ithvar(vars[k]) : bdd_nithvar(vars[k]);
  return term;
}

bdd DomainVariable::range(Copy copy) const {
  std::vector<bdd> values;
  for (int v = 0; v < size(); ++v) values.push_back(encode(v, copy));
  return disjunction(std::move(values));
}

const bdd& DomainVariable::cube(Copy copy) const {
  bdd& cached = copy == Copy::Current ? current_cube_ : next_cube_;
  if (cached == bddfalse) cached = variable_set(variables(copy));
  return cached;
}

bdd DomainVariable::unchanged() const {
  const std::vector<int>& next = variables(Copy::Next);
  bdd same = bddtrue;
  for (std::size_t k = 0; k < current_.size(); ++k)
    same &= bdd_biimp(bdd_ithvar(current_[k]), bdd_ithvar(next[k]));
  return same;
}

bdd DomainVariable::same_value() const {
  bdd result = bddfalse;
  for (int v = 0; v < size(); ++v) result |= encode(v) & encode(v, Copy::Next);
  return result;
}

int DomainVariable::decode(const std::vector<bool>& values, std::size_t offset) const {
  std::uint64_t assignment = 0;
  for (std::size_t k = 0; k < current_.size(); ++k) assignment = assignment << 1 | values[offset + k];
  return code_->decode(assignment);
}

DomainVariable VariableLayout::add(std::shared_ptr<const DomainCode> code, bool with_next) {
  std::vector<int> current, next;
  for (int k = 0; k < code->bits(); ++k) {
    current.push_back(next_free_++);
    if (with_next) next.push_back(next_free_++);
  }
  return DomainVariable(std::move(code), std::move(current), std::move(next));
}

std::vector<int> variables_of(std::span<const DomainVariable* const> variables, Copy copy) {
  std::vector<int> result;
  for (const DomainVariable* variable : variables) {
    const std::vector<int>& vars = copy == Copy::Current ? variable->current() : variable->next();
    result.insert(result.end(), vars.begin(), vars.end());
  }
  return result;
}

}  // namespace rushhour
