#include "run/explicit_engine_run.hpp"

#include <chrono>

#include "explicit/explicit_engine.hpp"

namespace rushhour::run {

Classification ExplicitEngineRun::run(const RunSettings& settings, const RunDirectory* /*directory*/,
                                      ProgressLog& log) const {
  const auto start = std::chrono::steady_clock::now();
  Classification result = classify_explicit(
      settings.common.rules, settings.explicit_options(), [&](int index, const LayerFigures& f) {
        log.line(layer_line(index, f.count, 0, f.seconds,
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
      });
  if (!settings.common.dominance) {
    result.nondominated.clear();
    result.components.clear();
  }
  return result;
}

}  // namespace rushhour::run
