#pragma once
// Tests: the class sweep state of exactly the work items of some ranges (a part of a job),
// each item solved by the class engine's ItemSolver and added up as the run layer does.
#include <cstdint>
#include <memory>
#include <vector>

#include "board/board.hpp"
#include "explicit/class_engine.hpp"

namespace rushhour::test_support {

inline ClassSweepState sweep_item_ranges(const Rules& rules, const std::vector<ItemRange>& ranges,
                                         const ClassEngineOptions& options) {
  ClassSweepState state;
  state.items = class_work_items(rules);
  state.tallies.resize(tally_shape(rules).size());
  const ClassItems items(rules, options);
  const std::unique_ptr<ItemSolver> solver = items.solver();
  for (const ItemRange& range : ranges)
    for (std::uint64_t item = range.begin; item < range.end; ++item)
      add_sweep(state, solver->solve(item).delta, options.samples_per_index, options.sample_indices);
  return state;
}

// a + b (add_sweep on a copy).
inline ClassSweepState sum_of_sweeps(ClassSweepState a, const ClassSweepState& b, int samples_per_index,
                                     int sample_indices) {
  add_sweep(a, b, samples_per_index, sample_indices);
  return a;
}

}  // namespace rushhour::test_support
