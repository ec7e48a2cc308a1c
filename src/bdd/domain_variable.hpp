#pragma once
// Integer variables over BuDDy's boolean ones (a meta-variable in Storm's sense).
//
// A DomainCode maps the values 0..size-1 of a finite domain to assignments of b boolean code
// bits k = 0..b-1 (bit 0 on top in the variable order among the variable's bits). Value v
// owns one or more cubes: each cube fixes every bit to 0 or 1 or leaves it free (kFree).
// The cubes of different values are disjoint; an assignment no cube matches is an invalid
// code. Two codes are built in:
//   binary(size): v in b = ceil(log2 size) bits, most significant bit first, one full cube
//                 per value; the assignments size..2^b-1 are invalid;
//   from_cubes(): any table (e.g. NuSMV's scalar code, where a value may own several cubes).
//
// A DomainVariable places a code on BuDDy variables: bit k's current-state variable x_k is
// current()[k] and its next-state copy x'_k is next()[k] (next() is empty when the variable
// has no next-state copy). VariableLayout hands out variables interleaved, x_0, x'_0, x_1,
// x'_1, ...: a relation between x and x' then stays local in the order.
//
// In formulas, for a variable X with code C and value v:
//   encode(v)   = ∨_{c ∈ C(v)} ∧_{k fixed by c} (x_k ⇔ c_k)     (bddfalse outside 0..size-1)
//   canonical(v) = ∧_k (x_k ⇔ first cube of C(v), free bits read as 0): one code per value
//   range()     = ∨_v encode(v)       the valid codes (bddtrue when no code is invalid)
//   unchanged() = ∧_k (x'_k ⇔ x_k)    the frame condition: X keeps its code
//   same_value() = ∨_v encode(v) ∧ encode'(v)   X' codes the value X codes (any codes)
// encode, canonical and range take a Copy to build the same over x' instead of x.
#include <bdd.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rushhour {

// ceil(log2(values)): the bits of a binary code of `values` values (0 for a single value).
int bits_for(int values);

class DomainCode {
 public:
  static constexpr signed char kFree = -1;
  using Cube = std::vector<signed char>;  // one entry per bit: 0, 1 or kFree

  static std::shared_ptr<const DomainCode> binary(int size);
  // cubes[v] = the cubes of value v, each of the same length b; throws std::logic_error if two
  // values share an assignment or a value has no cube.
  static std::shared_ptr<const DomainCode> from_cubes(std::vector<std::vector<Cube>> cubes);

  int size() const { return static_cast<int>(cubes_.size()); }
  int bits() const { return bits_; }
  const std::vector<Cube>& cubes(int value) const { return cubes_.at(static_cast<std::size_t>(value)); }
  // The value whose code matches `assignment` (bit 0 its most significant bit), -1 if none.
  int decode(std::uint64_t assignment) const { return value_of_[assignment]; }

 private:
  explicit DomainCode(std::vector<std::vector<Cube>> cubes);

  std::vector<std::vector<Cube>> cubes_;
  int bits_ = 0;
  std::vector<int> value_of_;  // assignment -> value, -1 = invalid (2^bits entries)
};

enum class Copy { Current, Next };

class DomainVariable {
 public:
  // `next` is empty or as long as `current`; both as long as the code has bits.
  DomainVariable(std::shared_ptr<const DomainCode> code, std::vector<int> current,
                 std::vector<int> next = {});

  const DomainCode& code() const { return *code_; }
  int size() const { return code_->size(); }
  int bits() const { return code_->bits(); }
  const std::vector<int>& current() const { return current_; }
  const std::vector<int>& next() const { return next_; }
  bool has_next() const { return !next_.empty(); }

  bdd encode(int value, Copy copy = Copy::Current) const;
  bdd canonical(int value, Copy copy = Copy::Current) const;
  bdd range(Copy copy = Copy::Current) const;
  // The variable set {x_k} (or {x'_k}), for quantifiers and counting; built on first use, so
  // that a variable may be laid out before its BuDDy variables are declared.
  const bdd& cube(Copy copy = Copy::Current) const;
  bdd unchanged() const;
  bdd same_value() const;
  // The value coded by bit values values[offset + k] of bit k; -1 if the code is invalid.
  int decode(const std::vector<bool>& values, std::size_t offset = 0) const;

 private:
  const std::vector<int>& variables(Copy copy) const;

  std::shared_ptr<const DomainCode> code_;
  std::vector<int> current_;
  std::vector<int> next_;
  mutable bdd current_cube_ = bddfalse;  // bddfalse = not built yet (a cube never is)
  mutable bdd next_cube_ = bddfalse;
};

// Hands out BuDDy variables in order: each bit of each added variable gets the next free
// variable and, with a next-state copy, the one after it (x_k, x'_k interleaved).
class VariableLayout {
 public:
  DomainVariable add(std::shared_ptr<const DomainCode> code, bool with_next = true);
  int variable_count() const { return next_free_; }

 private:
  int next_free_ = 0;
};

// The variables of every bit of `variables`, in their order (current or next copies).
std::vector<int> variables_of(std::span<const DomainVariable* const> variables, Copy copy);

}  // namespace rushhour
