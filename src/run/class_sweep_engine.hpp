#pragma once
// Engine "classes": explicit/class_engine.hpp behind the Engine interface, checkpointed in
// DIR/classes-checkpoint.txt and resumed from it. The symbolic engine's dominance figures
// come from the same sweep (add_class_dominance).
#include "run/engine.hpp"

namespace rushhour::run {

class ClassSweepEngine final : public Engine {
 public:
  RunOutcome run(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) const override;
  bool writes_incomplete_results() const override { return false; }
  std::string kept_when_stopped() const override {
    return "the class sweep's checkpoint is kept";
  }
};

// --dominance-by classes: the dominance figures of the finished layers in `result` from a
// class sweep, whose per-index counts must equal the layers' (std::runtime_error if not).
// A stopped sweep leaves `result` without dominance figures.
void add_class_dominance(const RunSettings& settings, const RunDirectory* directory,
                         ProgressLog& log, Classification& result);

}  // namespace rushhour::run
