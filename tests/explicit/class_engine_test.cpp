// The class engine against the explicit engine, figure by figure: layer counts, dominance
// figures, samples, also with other exit rows, vehicle limits and thread counts, with the
// mirror on and off, the numbering of 7x7/8x8 forced on small boards, and items refused by a
// tiny class bound then retried by a resume.
#include "explicit/class_engine.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <tuple>

#include "board/errors.hpp"
#include "explicit/counting.hpp"
#include "explicit/explicit_engine.hpp"
#include "class_sweep_support.hpp"
#include "reference_figures.hpp"
#include "test_tier.hpp"
#include "run/class_sweep.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("OtherExitRows/ClassEngine.*/5x5_*", long);

namespace rushhour {

using run::classify_by_classes;
namespace {

using test_support::expect_same_figures;
using test_support::explicit_figures;

// How the sweep runs: the defaults, without the mirror, with the numbering of 7x7 and 8x8
// (32-bit lanes), with the items of the larger classes refused (above 20 states on 4x4, 300 on
// larger boards) and then retried, with every class searched whole (not split into parts).
enum class Variant { Default, NoMirror, Wide, Refused, Whole, Released };

std::string variant_name(Variant v) {
  switch (v) {
    case Variant::Default: return "default";
    case Variant::NoMirror: return "nomirror";
    case Variant::Wide: return "wide";
    case Variant::Refused: return "refused";
    case Variant::Whole: return "whole";
    case Variant::Released: return "released";
  }
  return "?";
}

// A census of `rules` swept as `variant` says; for Refused, the first sweep must refuse some
// items and stay incomplete, and a resume from its last checkpoint retries them unbounded.
ClassCensus sweep(const Rules& rules, Variant variant, int threads = 2) {
  ClassEngineOptions options;
  options.threads = threads;
  options.mirror = variant != Variant::NoMirror;
  options.wide_numbering = variant == Variant::Wide;
  options.split_classes = variant != Variant::Whole;
  if (variant == Variant::Released) options.release_after_combos = options.release_after_states = 0;
  if (variant != Variant::Refused) return classify_by_classes(rules, options);
  options.max_class_states = rules.size() == 4 ? 20 : 300;
  std::optional<ClassSweepState> last;
  options.on_checkpoint = [&](const ClassSweepState& state) { last = state; };
  const ClassCensus bounded = classify_by_classes(rules, options);
  EXPECT_FALSE(bounded.complete);
  EXPECT_FALSE(bounded.refused.empty());
  EXPECT_TRUE(last.has_value());
  if (!last) return bounded;
  EXPECT_EQ(last->refused, bounded.refused);
  ClassEngineOptions retry;
  retry.threads = threads;
  retry.resume = &*last;
  return classify_by_classes(rules, retry);
}

class ClassEngine : public ::testing::TestWithParam<std::tuple<int, int, Metric, Variant>> {
 protected:
  Rules rules() const { return Rules(std::get<0>(GetParam()), std::get<1>(GetParam()), std::get<2>(GetParam())); }
};

TEST_P(ClassEngine, EqualsTheExplicitEngine) {
  const ClassCensus census = sweep(rules(), std::get<3>(GetParam()));
  ASSERT_TRUE(census.complete);
  EXPECT_TRUE(census.refused.empty());
  expect_same_figures(census.classification(), explicit_figures(rules()), {.samples = true});
}

std::string board_name(const ::testing::TestParamInfo<std::tuple<int, int, Metric, Variant>>& param) {
  const int n = std::get<0>(param.param);
  const int exit_row = std::get<1>(param.param);
  return std::to_string(n) + "x" + std::to_string(n) + "_exit" +
         (exit_row < 0 ? std::string("default") : std::to_string(exit_row)) + "_" +
         to_string(std::get<2>(param.param)) + "_" + variant_name(std::get<3>(param.param));
}

// The default sweep runs in the engine suite (tests/engine_test.cpp) with every engine; here
// the sweep's other ways.
INSTANTIATE_TEST_SUITE_P(
    SmallBoards, ClassEngine,
    ::testing::Combine(::testing::Values(4, 5), ::testing::Values(-1), ::testing::Values(Metric::Step, Metric::Move),
                     ::testing::Values(Variant::NoMirror, Variant::Wide, Variant::Refused, Variant::Whole, Variant::Released)),
    board_name);

INSTANTIATE_TEST_SUITE_P(
    OtherExitRows, ClassEngine,
    ::testing::Values(std::make_tuple(4, 0, Metric::Step, Variant::NoMirror),
                    std::make_tuple(4, 3, Metric::Move, Variant::Wide),
                    std::make_tuple(5, 4, Metric::Step, Variant::NoMirror),
                    std::make_tuple(5, 0, Metric::Move, Variant::Refused),
                    std::make_tuple(5, 1, Metric::Step, Variant::Wide)),
    board_name);

TEST(ClassEngineLimits, LimitedRunAndTalliesOfTheFullRunAgree) {
  const VehicleLimits limits{4, 2, -1};
  const Rules limited(5, -1, Metric::Step, limits);
  const Classification& expected = explicit_figures(limited);
  ClassEngineOptions options;
  options.threads = 2;
  // A run under the limits, with samples ...
  expect_same_figures(classify_by_classes(limited, options).classification(limits, {}), expected, {.samples = true});
  // ... and the same figures summed from the tallies of a run without limits (no samples:
  // they were taken over the whole domain).
  const ClassCensus whole = classify_by_classes(Rules(5, -1, Metric::Step), options);
  const Classification derived = whole.classification(limits, {});
  expect_same_figures(derived, expected);
  EXPECT_TRUE(derived.samples.empty());
  std::uint64_t domain = 0;
  for (const VehicleTally& tally : whole.tallies) domain += tally.domain;
  EXPECT_EQ(domain, explicit_figures(Rules(5, -1, Metric::Step)).domain_count);
}

TEST(ClassEngineLimits, SixBySixWithFewVehicles) {
  const Rules rules(6, -1, Metric::Move, VehicleLimits{-1, -1, 4});
  for (const Variant variant : {Variant::Wide, Variant::Refused, Variant::Whole})
    expect_same_figures(sweep(rules, variant).classification(), explicit_figures(rules), {.samples = true});
}

TEST(ClassEngineLimits, LimitsWithAndWithoutTheMirror) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(5, -1, metric, VehicleLimits{4, 2, -1});
    for (const Variant variant : {Variant::NoMirror, Variant::Refused})
      expect_same_figures(sweep(rules, variant).classification(), explicit_figures(rules), {.samples = true});
  }
}

// Every figure of the census: the tallies of every (cars, trucks) pair and the samples.
void expect_same_census(const ClassCensus& got, const ClassCensus& expected) {
  EXPECT_EQ(got.complete, expected.complete);
  EXPECT_EQ(got.classes, expected.classes);
  ASSERT_EQ(got.tallies.size(), expected.tallies.size());
  for (std::size_t v = 0; v < got.tallies.size(); ++v) EXPECT_EQ(got.tallies[v], expected.tallies[v]) << v;
  EXPECT_EQ(got.samples, expected.samples);
}

TEST(ClassEngineMirror, SevenBySevenWithFewVehiclesEqualsTheSweepWithoutIt) {
  // No explicit engine at 7x7: the mirror must not change any figure or sample.
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(7, -1, metric, VehicleLimits{-1, -1, 4});
    const ClassCensus mirrored = sweep(rules, Variant::Default);
    ASSERT_TRUE(mirrored.complete);
    const Classification c = mirrored.classification();
    EXPECT_GT(c.domain_count, 1'000'000u);
    // The exact counter (no enumeration) gives the same domain and winning set.
    const PlacementCounts exact = count_placements(rules);
    EXPECT_EQ(c.domain_count, exact.domain);
    EXPECT_EQ(c.winning_count, exact.winning);
    expect_same_census(mirrored, sweep(rules, Variant::NoMirror));
  }
}

TEST(ClassEngineSplit, SevenBySevenWithFewVehiclesEqualsTheWholeSearch) {
  // Few vehicles on a large board: most classes split into parts. Every figure and sample,
  // with the mirror, equals the search of every class whole.
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(7, -1, metric, VehicleLimits{-1, -1, 4});
    expect_same_census(sweep(rules, Variant::Default), sweep(rules, Variant::Whole));
  }
}

TEST(ClassEngineMirror, AppliesToOddBoardsWithTheExitInTheMiddleOnly) {
  EXPECT_TRUE(mirror_applies(Rules(5), true));
  EXPECT_TRUE(mirror_applies(Rules(7), true));
  EXPECT_FALSE(mirror_applies(Rules(7), false));
  EXPECT_FALSE(mirror_applies(Rules(6), true));
  EXPECT_FALSE(mirror_applies(Rules(5, 1), true));
}

TEST(ClassEngineSizes, EightByEightSamplesNeedMoreThan64Bits) {
  const Rules rules(8, -1, Metric::Step, VehicleLimits{-1, -1, 2});
  ClassEngineOptions options;
  options.threads = 2;
  const ClassCensus census = classify_by_classes(rules, options);
  ASSERT_TRUE(census.complete);
  const Classification c = census.classification();
  const PlacementCounts exact = count_placements(rules);
  EXPECT_EQ(c.domain_count, exact.domain);
  EXPECT_EQ(c.winning_count, exact.winning);
  ASSERT_FALSE(c.samples.empty());
  bool wide_key = false;
  for (const auto& per_index : census.samples)
    for (const auto& [key, board] : per_index) {
      wide_key = wide_key || key >> 64 != 0;
      EXPECT_EQ(board.size(), 64u);
      EXPECT_NE(board.find('A'), std::string::npos);
    }
  EXPECT_TRUE(wide_key);
}

TEST(ClassEngineThreads, OneAndFiveThreadsGiveTheSameCensus) {
  const Rules rules(5, -1, Metric::Move);
  ClassEngineOptions one;
  one.threads = 1;
  ClassEngineOptions five;
  five.threads = 5;
  const ClassCensus a = classify_by_classes(rules, one);
  const ClassCensus b = classify_by_classes(rules, five);
  EXPECT_EQ(a.classes, b.classes);
  ASSERT_EQ(a.tallies.size(), b.tallies.size());
  for (std::size_t v = 0; v < a.tallies.size(); ++v) {
    EXPECT_EQ(a.tallies[v].domain, b.tallies[v].domain);
    EXPECT_EQ(a.tallies[v].count, b.tallies[v].count);
    EXPECT_EQ(a.tallies[v].nondominated, b.tallies[v].nondominated);
    EXPECT_EQ(a.tallies[v].components, b.tallies[v].components);
  }
  EXPECT_EQ(a.classification().samples, b.classification().samples);
}

TEST(ClassEngineProgress, ReportsEveryWorkItemAndStopsWhenAsked) {
  const Rules rules(4);
  ClassEngineOptions options;
  options.progress_seconds = 0;
  ClassProgress last;
  options.on_progress = [&](const ClassProgress& p) { last = p; };
  const ClassCensus census = classify_by_classes(rules, options);
  EXPECT_TRUE(census.complete);
  EXPECT_EQ(last.items_done, last.items_total);
  EXPECT_EQ(last.states, explicit_figures(rules).domain_count);
  EXPECT_EQ(last.classes, census.classes);

  options.should_stop = [] { return true; };
  EXPECT_FALSE(classify_by_classes(Rules(5), options).complete);
}

}  // namespace
}  // namespace rushhour

namespace rushhour {
namespace {

TEST(ClassEngineResume, AStoppedSweepResumesToTheSameCensus) {
  const Rules rules(5, -1, Metric::Move);
  ClassEngineOptions options;
  options.threads = 2;
  const ClassCensus whole = classify_by_classes(rules, options);

  // Stop at the first checkpoint that lies inside the sweep.
  std::optional<ClassSweepState> saved;
  bool stop = false;
  ClassEngineOptions first = options;
  first.checkpoint_seconds = 0;
  first.on_checkpoint = [&](const ClassSweepState& state) {
    if (!stop && state.next_item > 0 && state.next_item < state.items) {
      saved = state;
      stop = true;
    }
  };
  first.should_stop = [&] { return stop; };
  const ClassCensus partial = classify_by_classes(rules, first);
  ASSERT_TRUE(saved.has_value());
  EXPECT_FALSE(partial.complete);

  ClassEngineOptions second = options;
  second.threads = 3;
  second.resume = &*saved;
  std::optional<ClassSweepState> last;
  second.on_checkpoint = [&](const ClassSweepState& state) { last = state; };
  const ClassCensus resumed = classify_by_classes(rules, second);
  ASSERT_TRUE(resumed.complete);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->next_item, last->items);
  EXPECT_EQ(resumed.classes, whole.classes);
  ASSERT_EQ(resumed.tallies.size(), whole.tallies.size());
  for (std::size_t v = 0; v < whole.tallies.size(); ++v) EXPECT_EQ(resumed.tallies[v], whole.tallies[v]) << v;
  expect_same_figures(resumed.classification(), explicit_figures(rules), {.samples = true});
}

// A checkpoint that fails while the workers run (a write error, bad_alloc in its snapshot)
// ends the sweep with that exception, the workers joined first: no std::terminate.
TEST(ClassEngineFailures, AFailedCheckpointReachesTheCallerAfterTheWorkersStop) {
  ClassEngineOptions options;
  options.threads = 2;
  options.checkpoint_seconds = 0;
  int calls = 0;
  options.on_checkpoint = [&calls](const ClassSweepState&) {
    ++calls;
    throw std::runtime_error("checkpoint write failed");
  };
  EXPECT_THROW(classify_by_classes(Rules(5), options), std::runtime_error);
  EXPECT_EQ(calls, 1);
}

TEST(ClassEngineResume, AStateOfAnotherBoardIsRefused) {
  ClassSweepState state;
  state.items = 3;
  ClassEngineOptions options;
  options.resume = &state;
  EXPECT_THROW(classify_by_classes(Rules(4), options), InputError);
}

}  // namespace
}  // namespace rushhour

namespace rushhour {
namespace {

// The whole sweep's state, as its final checkpoint.
ClassSweepState whole_sweep(const Rules& rules, const ClassEngineOptions& options) {
  ClassSweepState last;
  ClassEngineOptions with_state = options;
  with_state.on_checkpoint = [&](const ClassSweepState& state) { last = state; };
  EXPECT_TRUE(classify_by_classes(rules, with_state).complete);
  return last;
}

// Every `parts`-th run of `chunk` items, starting at run `part`.
std::vector<ItemRange> strided_ranges(std::uint64_t items, int part, int parts, std::uint64_t chunk) {
  std::vector<ItemRange> ranges;
  for (std::uint64_t begin = static_cast<std::uint64_t>(part) * chunk; begin < items;
       begin += static_cast<std::uint64_t>(parts) * chunk)
    ranges.push_back({begin, std::min(items, begin + chunk)});
  return ranges;
}

ClassSweepState without_seconds(ClassSweepState state) {
  state.seconds = 0;
  return state;
}

class ClassSweepParts : public ::testing::TestWithParam<std::tuple<int, Metric, VehicleLimits>> {};

TEST_P(ClassSweepParts, MergedPartsEqualTheWholeSweep) {
  const auto& [size, metric, limits] = GetParam();
  const Rules rules(size, -1, metric, limits);
  ClassEngineOptions options;
  options.threads = 2;
  options.samples_per_index = 3;
  options.sample_indices = 4;
  const ClassSweepState whole = whole_sweep(rules, options);
  const std::uint64_t items = class_work_items(rules);
  ASSERT_EQ(whole.items, items);
  // Three strided parts, merged in another order than they were cut.
  std::vector<ClassSweepState> parts;
  for (int part = 0; part < 3; ++part) {
    parts.push_back(test_support::sweep_item_ranges(rules, strided_ranges(items, part, 3, 5), options));
    EXPECT_FALSE(census_of_sweep(rules, parts.back()).complete);
    EXPECT_FALSE(parts.back().missing_items().empty());
  }
  ClassSweepState merged = test_support::sum_of_sweeps(parts[2], parts[0], options.samples_per_index, options.sample_indices);
  EXPECT_FALSE(census_of_sweep(rules, merged).complete);
  merged = test_support::sum_of_sweeps(merged, parts[1], options.samples_per_index, options.sample_indices);
  EXPECT_EQ(merged.next_item, items);
  EXPECT_TRUE(merged.later_items.empty());
  EXPECT_TRUE(merged.missing_items().empty());
  EXPECT_EQ(without_seconds(merged), without_seconds(whole));
  // The whole sweep's figures are checked against the explicit engine above.
  EXPECT_TRUE(census_of_sweep(rules, merged).complete);
}

INSTANTIATE_TEST_SUITE_P(
    SmallBoards, ClassSweepParts,
    ::testing::Values(std::make_tuple(4, Metric::Step, VehicleLimits{}), std::make_tuple(4, Metric::Move, VehicleLimits{}),
                    std::make_tuple(5, Metric::Step, VehicleLimits{}), std::make_tuple(5, Metric::Move, VehicleLimits{}),
                    std::make_tuple(5, Metric::Move, VehicleLimits{4, 2, -1})),
    [](const ::testing::TestParamInfo<std::tuple<int, Metric, VehicleLimits>>& param) {
      const int size = std::get<0>(param.param);
      return std::to_string(size) + "x" + std::to_string(size) + "_" + to_string(std::get<1>(param.param)) +
             (std::get<2>(param.param) == VehicleLimits{} ? std::string() : "_limited");
    });

TEST(ClassSweepParts, OneItemDeltasAddUpInAnyOrder) {
  const Rules rules(4, -1, Metric::Move);
  ClassEngineOptions options;
  options.threads = 3;
  const ClassSweepState whole = whole_sweep(rules, options);
  std::vector<ClassSweepState> deltas;
  const ClassItems items(rules, options);
  const std::unique_ptr<ItemSolver> solver = items.solver();
  for (std::uint64_t item = 0; item < whole.items; ++item) {
    ClassSweepState delta = solver->solve(item).delta;
    EXPECT_TRUE(delta.holds(item));
    EXPECT_EQ(delta.items_done(), 1u);
    deltas.push_back(std::move(delta));
  }
  ASSERT_EQ(deltas.size(), whole.items);
  ClassSweepState sum;
  for (auto it = deltas.rbegin(); it != deltas.rend(); ++it)
    add_sweep(sum, *it, options.samples_per_index, options.sample_indices);
  EXPECT_EQ(without_seconds(sum), without_seconds(whole));
}

TEST(ClassSweepParts, OverlappingOrForeignStatesAreRefused) {
  const Rules rules(4);
  const std::uint64_t items = class_work_items(rules);
  ClassEngineOptions options;
  const ClassSweepState a = test_support::sweep_item_ranges(rules, {{0, items / 2}}, options);
  const ClassSweepState b = test_support::sweep_item_ranges(rules, {{items / 2 - 1, items}}, options);
  EXPECT_THROW(test_support::sum_of_sweeps(a, b, 5, 10), InputError);
  EXPECT_THROW(test_support::sum_of_sweeps(a, a, 5, 10), InputError);
  const ClassSweepState other = test_support::sweep_item_ranges(Rules(5), {{0, 10}}, options);
  EXPECT_THROW(test_support::sum_of_sweeps(a, other, 5, 10), InputError);
}

// A work sample's items (and --estimate's sized ones): every k-th, counted across the ranges.
TEST(ClassSweepParts, EveryKthItemIsCountedAcrossTheRanges) {
  EXPECT_EQ(every_kth({{0, 5}, {10, 13}, {20, 21}}, 3), (std::vector<ItemRange>{{0, 1}, {3, 4}, {11, 12}}));
  EXPECT_EQ(every_kth({{0, 5}, {10, 13}, {20, 21}}, 1).size(), 9u);
  EXPECT_EQ(every_kth({{4, 6}}, 7), (std::vector<ItemRange>{{4, 5}}));
  EXPECT_TRUE(every_kth({}, 2).empty());
}

TEST(ClassSweepParts, AResumedSweepSkipsTheItemsOfItsState) {
  const Rules rules(5, -1, Metric::Step);
  ClassEngineOptions options;
  options.threads = 2;
  const ClassSweepState whole = whole_sweep(rules, options);
  // Items done out of order (as a distributed run leaves them), then the rest in one sweep.
  ClassSweepState partial = test_support::sweep_item_ranges(rules, strided_ranges(whole.items, 1, 4, 7), options);
  ASSERT_FALSE(partial.later_items.empty());
  ClassEngineOptions rest = options;
  rest.resume = &partial;
  const ClassSweepState resumed = whole_sweep(rules, rest);
  EXPECT_EQ(without_seconds(resumed), without_seconds(whole));
}

}  // namespace
}  // namespace rushhour
