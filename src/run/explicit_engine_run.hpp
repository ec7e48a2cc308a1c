#pragma once
// Engine "explicit": explicit/explicit_engine.hpp behind the Engine interface.
#include "run/engine.hpp"

namespace rushhour::run {

class ExplicitEngineRun final : public Engine {
 public:
  RunOutcome run(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) const override;
};

}  // namespace rushhour::run
