#pragma once
// Engine "bdd": the symbolic retrograde analysis (retrograde/) over a state encoding
// (encoding/), its layers saved in DIR/layers and its dominance pass checkpointed in
// DIR/dominance; or its dominance figures from a class sweep (--dominance-by classes).
#include "run/engine.hpp"

namespace rushhour::run {

class SymbolicEngine final : public Engine {
 public:
  RunOutcome run(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) const override;
};

}  // namespace rushhour::run
