#include "run/explicit_engine_run.hpp"

#include "explicit/explicit_engine.hpp"
#include "util/clock.hpp"

namespace rushhour::run {

RunOutcome ExplicitEngineRun::run(const RunSettings& settings, const RunDirectory* /*directory*/,
                                  ProgressLog& log) const {
  const auto start = Clock::now();
  Classification result = classify_explicit(
      settings.common.rules, settings.explicit_options(), [&](int index, const LayerFigures& f) {
        log.line(layer_line(index, f.count, 0, f.seconds, seconds_since(start)));
      });
  if (!settings.common.dominance) {
    result.nondominated.clear();
    result.components.clear();
  }
  return {std::move(result)};
}

}  // namespace rushhour::run
