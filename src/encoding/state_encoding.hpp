#pragma once
// The interface every state encoding of the classification offers (SPEC §3), so the
// retrograde driver never knows which one it runs.
//
// Variables: each encoding lays out its DomainVariables (bdd/domain_variable.hpp), each with
// current-state variables x (the configuration) and next-state copies x' interleaved (used
// only inside transition parts). Every state set mentions current-state variables only and is
// a StateSet over current_variables(); every configuration of the board has exactly one
// code, so StateSet::count() counts configurations exactly.
//
// Transitions are given as parts. For a part P with relation R_P(x_P, x'_P, x_read), where
// x_P are the current variables the part may change, x'_P their next-state copies and
// x_read further current variables it only reads:
//     Pre_P(S) = ∃x'_P . R_P ∧ S[x_P ↦ x'_P]
// and Pre(S) = ∪_P Pre_P(S) = { x in the domain : some step (or move) of the chosen metric
// leads from x into S }, for S a subset of the domain. Variables outside x_P are left alone
// by a part: a part needs no frame condition for them.
//
// Walls (Rules::walls): with walls the state holds, for every cell, whether a wall lies on it
// (each encoding says how). No transition part changes a wall, and every relation treats a
// wall's cell as covered, so walls are state that moves keep; the legal set holds the
// configurations with the rules' number of walls, on cells no vehicle covers.
#include <bdd.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bdd/bdd_util.hpp"
#include "bdd/domain_variable.hpp"
#include "bdd/session.hpp"
#include "bdd/state_set.hpp"
#include "board/board.hpp"
#include "board/errors.hpp"
#include "board/rules.hpp"

namespace rushhour {

struct TransitionPart {
  bdd relation;                          // R_P over x_P, x'_P and read-only current variables
  bdd next_variables;                    // the set x'_P, quantified away
  std::shared_ptr<VarRenaming> rename;   // x_P ↦ x'_P
};

// The part with relation R_P over the variables `changed` (x_P) and their next-state copies.
TransitionPart make_transition_part(bdd relation,
                                    std::span<const DomainVariable* const> changed);

class StateEncoding {
 public:
  virtual ~StateEncoding() = default;
  StateEncoding(const StateEncoding&) = delete;
  StateEncoding& operator=(const StateEncoding&) = delete;

  const Rules& rules() const { return rules_; }
  virtual std::string name() const = 0;        // "slot" or "cell"
  virtual std::string order_name() const = 0;  // the variable order's name
  // Canonical text describing the variable layout and parameters; two encodings with equal
  // descriptions give identical BDDs for identical sets (used to validate saved layers).
  virtual std::string layout_description() const = 0;
  int variable_count() const { return variable_count_; }  // BuDDy variables to declare

  const bdd& current_variables() const { return current_set_; }  // the set x
  // The configurations of `states` (current-state variables only), counted over x.
  StateSet state_set(bdd states) const { return StateSet(std::move(states), current_set_); }
  // Every legal configuration (each vehicle whole, on the board, no cell covered twice),
  // target or not.
  const StateSet& legal() const { return legal_; }
  const StateSet& domain() const { return domain_; }    // legal configurations of the rules' domain
  const StateSet& winning() const { return winning_; }  // winning configurations (⊆ domain)
  // The rules' vehicle limits as a constraint (bddtrue without limits) and the winning set of
  // the same board without them: domain() and winning() are the unlimited sets ∧
  // vehicle_limits(). Moves never change the vehicle counts, so the driver may run its
  // frontiers unlimited.
  const bdd& vehicle_limits() const { return vehicle_limits_; }
  const StateSet& unlimited_winning() const { return unlimited_winning_; }
  const std::vector<TransitionPart>& transitions(Metric metric) const {
    return metric == Metric::Step ? step_parts_ : move_parts_;
  }

  // The configurations with exactly `walls` walls (bddtrue for 0 without walls); any number
  // for walls < 0.
  bdd wall_count_is(int walls) const { return walls < 0 ? bddtrue : wall_count_between(walls, walls); }

  virtual bdd encode(const Board& board) const = 0;  // the minterm of one configuration
  // The configuration of one satisfying assignment of `states` (states != bddfalse).
  Board decode_one(const bdd& states) const;
  // Configurations whose vehicle totals satisfy `wanted`; exact on legal configurations
  // (conjoin it with a state set), e.g. for query filters.
  virtual bdd vehicle_counts_where(
      const std::function<bool(int cars, int trucks)>& wanted) const = 0;
  // Calls visit(board) for every configuration of `states` until visit returns false.
  void for_each_board(const bdd& states, const std::function<bool(const Board&)>& visit) const;

 protected:
  // An encoding's constructor declares its variables and fills in every set and part below
  // (current_set_ first: the state sets are counted over it).
  explicit StateEncoding(const Rules& rules) : rules_(rules) {}
  // One DomainVariable with `code` for each item 0..sequence.size()-1 (a line, a cell),
  // laid out in the order `sequence` with x_k, x'_k interleaved and declared in `session`;
  // sets variable_count_, all_current_ and current_set_. Returns the variables by item.
  std::vector<DomainVariable> lay_out(BddSession& session, std::shared_ptr<const DomainCode> code,
                                      const std::vector<int>& sequence);
  // The same with a code of its own for each item: codes[item].
  std::vector<DomainVariable> lay_out(BddSession& session,
                                      const std::vector<std::shared_ptr<const DomainCode>>& codes,
                                      const std::vector<int>& sequence);
  // The configuration whose current variables all_current_[k] have values[k]; throws
  // std::logic_error on an invalid code.
  virtual Board board_of(const std::vector<bool>& values) const = 0;
  bool walled() const { return !wall_at_.empty(); }
  // The configurations with `min` to `max` walls (over wall_at_, cells in ascending order).
  bdd wall_count_between(int min, int max) const;
  // The cube of the walls of `mask` (bit row * n + column) on every cell: exactly those walls.
  bdd walls_are(std::uint64_t mask) const;

  Rules rules_;
  int variable_count_ = 0;
  std::vector<int> all_current_;  // the current variables x, in variable order
  bdd current_set_;               // the set x
  StateSet legal_;
  StateSet domain_;
  StateSet winning_;
  // [cell]: a wall lies on the cell (current variables); empty when the rules have no walls.
  std::vector<bdd> wall_at_;
  bdd vehicle_limits_ = bddtrue;
  StateSet unlimited_winning_;
  std::vector<TransitionPart> step_parts_;
  std::vector<TransitionPart> move_parts_;
};

}  // namespace rushhour
