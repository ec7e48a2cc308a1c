#include "encoding/state_encoding.hpp"

#include <algorithm>
#include <optional>

namespace rushhour {

TransitionPart make_transition_part(bdd relation,
                                    std::span<const DomainVariable* const> changed) {
  const std::vector<int> from = variables_of(changed, Copy::Current);
  const std::vector<int> to = variables_of(changed, Copy::Next);
  return {std::move(relation), variable_set(to), std::make_shared<VarRenaming>(from, to)};
}

std::vector<DomainVariable> StateEncoding::lay_out(BddSession& session,
                                                   std::shared_ptr<const DomainCode> code,
                                                   const std::vector<int>& sequence) {
  return lay_out(session, std::vector<std::shared_ptr<const DomainCode>>(sequence.size(), code),
                 sequence);
}

std::vector<DomainVariable> StateEncoding::lay_out(
    BddSession& session, const std::vector<std::shared_ptr<const DomainCode>>& codes,
    const std::vector<int>& sequence) {
  VariableLayout layout;
  std::vector<std::optional<DomainVariable>> placed(sequence.size());
  for (int item : sequence)
    placed[static_cast<std::size_t>(item)] = layout.add(codes[static_cast<std::size_t>(item)]);
  std::vector<DomainVariable> variables;
  for (auto& variable : placed) variables.push_back(std::move(*variable));
  variable_count_ = layout.variable_count();
  session.ensure_variables(variable_count_);
  std::vector<const DomainVariable*> in_order;
  for (int item : sequence) in_order.push_back(&variables[static_cast<std::size_t>(item)]);
  all_current_ = variables_of(in_order, Copy::Current);
  current_set_ = variable_set(all_current_);
  return variables;
}

bdd StateEncoding::wall_count_between(int min, int max) const {
  if (max < min || max < 0) return bddfalse;
  const std::vector<bdd> by_count = count_true(wall_at_, max);
  bdd result = bddfalse;
  for (std::size_t k = static_cast<std::size_t>(std::max(min, 0)); k < by_count.size(); ++k) result |= by_count[k];
  return result;
}

bdd StateEncoding::walls_are(std::uint64_t mask) const {
  if (!walled()) return mask == 0 ? bddtrue : bddfalse;
  bdd cube = bddtrue;
  for (std::size_t cell = 0; cell < wall_at_.size(); ++cell) cube &= (mask >> cell & 1) ? wall_at_[cell] : !wall_at_[cell];
  return cube;
}

Board StateEncoding::decode_one(const bdd& states) const {
  return board_of(one_assignment(states, all_current_));
}

void StateEncoding::for_each_board(const bdd& states,
                                   const std::function<bool(const Board&)>& visit) const {
  for_each_assignment(states, all_current_,
                      [&](const std::vector<bool>& values) { return visit(board_of(values)); });
}

}  // namespace rushhour
