#pragma once
// One interface for every classification engine, and the registry that lists them. Adding an
// engine: a value of EngineKind (settings.hpp) with its name, a class implementing Engine
// (a thin adapter over the engine's module), and its line in engine.cpp's registry.
#include <string>

#include "board/classification.hpp"
#include "run/progress.hpp"
#include "run/run_directory.hpp"
#include "run/settings.hpp"

namespace rushhour::run {

// What an engine returns: its figures, and the text the command prints on stdout before
// them (a work sample's rate and class sizes, a finished part's line). Engines never print.
struct RunOutcome {
  Classification figures;
  std::string report{};
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Classifies settings.common.rules. `directory` is null when the run has none (no --out);
  // otherwise the engine keeps there what it needs to resume and honours --resume. Progress
  // lines go to `log`; the engine stops at its next safe point once
  // StopSignals::stop_requested(). Returns the figures (complete = false if stopped early).
  // Throws InputError for bad input (e.g. a directory of another run), BddFailure or
  // std::runtime_error for runtime failures, after keeping the work it finished.
  virtual RunOutcome run(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) const = 0;
  // Whether an incomplete result (stopped early) is still written as classification.h5
  // with complete = 0, or only the engine's checkpoint keeps it.
  virtual bool writes_incomplete_results() const { return true; }
  // What a stopped run keeps, for the line that reports the stop.
  virtual std::string kept_when_stopped() const { return "finished layers are kept"; }
};

// The engine of `kind`.
const Engine& engine_for(EngineKind kind);

}  // namespace rushhour::run
