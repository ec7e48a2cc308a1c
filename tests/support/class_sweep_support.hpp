#pragma once
// Tests: the class sweep state of exactly the work items of some ranges (a part of a job),
// run through sweep_work_items and added up item by item as the run layer does.
#include <cstdint>
#include <optional>
#include <vector>

#include "board/board.hpp"
#include "explicit/class_engine.hpp"

namespace rushhour::testing {

inline ClassSweepState sweep_item_ranges(const Rules& rules, const std::vector<ItemRange>& ranges,
                                         const ClassEngineOptions& options) {
  const int n = rules.size();
  ClassSweepState state;
  state.items = class_work_items(rules);
  state.tallies.resize(static_cast<std::size_t>((n * n / kCar + 1) * (n * n / kTruck + 1)));
  std::size_t range = 0;
  std::uint64_t at = ranges.empty() ? 0 : ranges.front().begin;
  sweep_work_items(
      rules, options,
      [&]() -> std::optional<std::uint64_t> {
        while (range < ranges.size() && at >= ranges[range].end)
          if (++range < ranges.size()) at = ranges[range].begin;
        if (range == ranges.size()) return std::nullopt;
        return at++;
      },
      [&](std::uint64_t, ClassSweepState&& delta) {
        add_sweep(state, delta, options.samples_per_index, options.sample_indices);
      });
  return state;
}

// a + b (add_sweep on a copy).
inline ClassSweepState sum_of_sweeps(ClassSweepState a, const ClassSweepState& b, int samples_per_index,
                                     int sample_indices) {
  add_sweep(a, b, samples_per_index, sample_indices);
  return a;
}

}  // namespace rushhour::testing
