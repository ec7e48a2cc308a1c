#include "run/engine.hpp"

#include <stdexcept>

#include "run/class_sweep_engine.hpp"
#include "run/explicit_engine_run.hpp"
#include "run/symbolic_engine.hpp"

namespace rushhour::run {

const Engine& engine_for(EngineKind kind) {
  // The registry.
  static const SymbolicEngine symbolic;
  static const ExplicitEngineRun explicit_engine;
  static const ClassSweepEngine class_sweep;
  switch (kind) {
    case EngineKind::Symbolic: return symbolic;
    case EngineKind::Explicit: return explicit_engine;
    case EngineKind::Classes: return class_sweep;
  }
  throw std::logic_error("engine_for: unknown engine kind");
}

}  // namespace rushhour::run
