#include "encoding/state_encoding.hpp"

namespace rushhour {

TransitionPart make_transition_part(bdd relation,
                                    std::span<const DomainVariable* const> changed) {
  const std::vector<int> from = variables_of(changed, Copy::Current);
  const std::vector<int> to = variables_of(changed, Copy::Next);
  return {std::move(relation), variable_set(to), std::make_shared<VarRenaming>(from, to)};
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
