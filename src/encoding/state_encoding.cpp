#include "encoding/state_encoding.hpp"

namespace rushhour {

TransitionPart make_transition_part(bdd relation,
                                    std::span<const DomainVariable* const> changed) {
  const std::vector<int> from = variables_of(changed, Copy::Current);
  const std::vector<int> to = variables_of(changed, Copy::Next);
  return {std::move(relation), variable_set(to), std::make_shared<VarRenaming>(from, to)};
}

}  // namespace rushhour
