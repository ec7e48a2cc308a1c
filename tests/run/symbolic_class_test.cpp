// The class engine's symbolic path (run/symbolic_class.hpp): a low threshold sends most of the
// configurations there and every figure stays the explicit engine's, with the components
// counted by closures (the default) and explicitly; classes above the memory bound are solved there instead of refused; an
// item is refused whole when one of its classes fits neither path; the BDD is bounded by the
// class's memory share. The engine suite (tests/engine_test.cpp, classes_symbolic) runs the
// same path on every board of the suite.
#include "run/symbolic_class.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "reference_figures.hpp"
#include "run/part_run.hpp"
#include "run/settings.hpp"
#include "test_tier.hpp"
#include "run/class_sweep.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("SymbolicClasses.MostClassesOf5x5", long);

namespace rushhour {

using run::classify_by_classes;
namespace {

using test_support::expect_same_figures;
using test_support::explicit_figures;

ClassEngineOptions with_solver(const Rules& rules, run::ComponentCount components = run::ComponentCount::ByClosures) {
  ClassEngineOptions options;
  options.threads = 2;
  options.class_solver = run::symbolic_class_solver(rules, options.samples_per_index, options.sample_indices, components);
  return options;
}

std::uint64_t states_of(const std::vector<ClassSizeBucket>& buckets) {
  std::uint64_t states = 0;
  for (const ClassSizeBucket& b : buckets) states += b.states;
  return states;
}

// The sweep with every class of more than `threshold` states on the symbolic path: at least
// `share` of the configurations go there, none of a class at or below the threshold, and
// every figure (counts, non-dominated, components, samples) is the explicit engine's.
void expect_symbolic_share(const Rules& rules, std::uint64_t threshold, double share,
                           run::ComponentCount components = run::ComponentCount::ByClosures) {
  ClassEngineOptions options = with_solver(rules, components);
  options.solver_above = threshold;
  options.measure_class_sizes = true;
  const ClassCensus census = classify_by_classes(rules, options);
  const std::uint64_t symbolic = states_of(census.solver_class_sizes);
  const std::uint64_t all = symbolic + states_of(census.class_sizes);
  EXPECT_GT(states_of(census.class_sizes), 0u) << rules.describe();  // both paths ran
  EXPECT_GE(static_cast<double>(symbolic), share * static_cast<double>(all)) << rules.describe();
  for (std::size_t k = 0; k < census.solver_class_sizes.size(); ++k) {
    if (census.solver_class_sizes[k].classes > 0) {
      EXPECT_GE(std::uint64_t{2} << k, threshold) << "bucket " << k;
    }
  }
  expect_same_figures(census.classification(), explicit_figures(rules), {.samples = true});
}

// --symbolic-above auto: up to 6x6 only the classes above the memory bound go to the symbolic
// path; from 7x7 on, those above 2^22 states.
TEST(SymbolicClasses, AutoThresholdFollowsTheBoardSize) {
  run::ClassSweepSettings sweep;  // symbolic_above unset: auto
  for (int size = 4; size <= 8; ++size) {
    run::CommonSettings common{.rules = Rules(size)};
    EXPECT_EQ(sweep.engine_options(common).solver_above,
              size <= 6 ? run::kSymbolicAboveBound : std::uint64_t{4194304})
        << size << "x" << size;
  }
  sweep.symbolic_above = 10;
  EXPECT_EQ(sweep.engine_options(run::CommonSettings{.rules = Rules(6)}).solver_above, 10u);
  EXPECT_EQ(run::parse_symbolic_above("auto"), std::nullopt);
  EXPECT_EQ(run::parse_symbolic_above("bound"), run::kSymbolicAboveBound);
}

TEST(SymbolicClasses, ALowThresholdSendsMostConfigurationsThere) {
  expect_symbolic_share(Rules(4, -1, Metric::Step), 12, 0.5);
  expect_symbolic_share(Rules(4, 0, Metric::Move, {.max_vehicles = 5}), 12, 0.4);
  expect_symbolic_share(Rules(6, -1, Metric::Step, {.max_vehicles = 4}), 64, 0.7);
}

TEST(SymbolicClasses, ComponentsCountedExplicitly) {
  expect_symbolic_share(Rules(4, -1, Metric::Move), 12, 0.5, run::ComponentCount::Explicit);
  expect_symbolic_share(Rules(5, -1, Metric::Step, {.max_cars = 4, .max_trucks = 2}), 64, 0.5,
                        run::ComponentCount::Explicit);
}

// A class the bit sets take stays off the symbolic path whatever its size (below the memory
// bound): with every class dense enough, none goes there; with a density asked of them, the
// sparse ones above the threshold still do. Every figure is the explicit engine's.
TEST(SymbolicClasses, ClassesTheBitSetsTakeStayOffIt) {
  const Rules rules(5, -1, Metric::Step, {.max_cars = 4, .max_trucks = 2});
  for (const std::uint64_t per_combination : {std::uint64_t{0}, std::uint64_t{3}}) {
    ClassEngineOptions options = with_solver(rules);
    options.solver_above = 12;
    options.bit_search_above = 0;
    options.bit_search_per_combination = per_combination;
    options.measure_class_sizes = true;
    const ClassCensus census = classify_by_classes(rules, options);
    EXPECT_TRUE(census.complete);
    EXPECT_GT(states_of(census.class_sizes), 0u);
    if (per_combination == 0) EXPECT_EQ(states_of(census.solver_class_sizes), 0u);
    else EXPECT_GT(states_of(census.solver_class_sizes), 0u);
    expect_same_figures(census.classification(), explicit_figures(rules), {.samples = true});
  }
}

// Both metrics, the mirror on (5x5's middle exit row): the mirror pairs solved symbolically
// count twice and give their images' samples.
TEST(SymbolicClasses, ClassesAboveTheMemoryBoundAreSolvedThere) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(5, -1, metric, {.max_cars = 4, .max_trucks = 2});
    ClassEngineOptions options = with_solver(rules);
    options.max_class_states = 100;
    options.measure_class_sizes = true;
    const ClassCensus census = classify_by_classes(rules, options);
    EXPECT_TRUE(census.complete);
    EXPECT_TRUE(census.refused.empty());
    EXPECT_GT(states_of(census.solver_class_sizes), 0u);
    for (std::size_t k = 7; k < census.class_sizes.size(); ++k)
      EXPECT_EQ(census.class_sizes[k].classes, 0u) << "an explicit class above 100 states";
    expect_same_figures(census.classification(), explicit_figures(rules), {.samples = true});
  }
}

// A solver that takes only classes of at most 300 states: an item with a larger one is
// refused whole (what the solver already solved of it is not counted), and a resume with
// the real solver gives the explicit engine's figures.
TEST(SymbolicClasses, AnItemWithAClassNeitherPathTakesIsRefusedWhole) {
  const Rules rules(5, -1, Metric::Step, {.max_cars = 4, .max_trucks = 2});
  ClassEngineOptions options = with_solver(rules);
  const ClassSolver real = options.class_solver;
  int declined = 0, solved = 0;
  options.class_solver = [&](const ClassLines& lines) -> std::optional<ClassFigures> {
    if (lines.states > 300) {
      ++declined;
      return std::nullopt;
    }
    ++solved;
    return real(lines);
  };
  options.threads = 1;
  options.max_class_states = 100;
  std::optional<ClassSweepState> last;
  options.on_checkpoint = [&](const ClassSweepState& state) { last = state; };
  const ClassCensus bounded = classify_by_classes(rules, options);
  EXPECT_GT(declined, 0);
  EXPECT_GT(solved, 0);
  EXPECT_FALSE(bounded.complete);
  EXPECT_FALSE(bounded.refused.empty());
  ASSERT_TRUE(last.has_value());
  ClassEngineOptions retry = with_solver(rules);
  retry.max_class_states = 100;
  retry.resume = &*last;
  const ClassCensus resumed = classify_by_classes(rules, retry);
  EXPECT_TRUE(resumed.refused.empty());
  expect_same_figures(resumed.classification(), explicit_figures(rules), {.samples = true});
}

// The class of one car in every line of an n x n board but one column.
ClassLines a_large_class(int n, std::uint64_t max_bytes) {
  ClassLines lines;
  for (int line = 0; line < 2 * n; ++line)
    lines.sequences.push_back(line == n + 2 ? std::vector<int>{} : std::vector<int>{kCar});
  lines.max_bytes = max_bytes;
  return lines;
}

TEST(SymbolicClasses, TheBddIsBoundedByTheClassShare) {
  const ClassSolver solver = run::symbolic_class_solver(Rules(6, -1, Metric::Step), 5, 10);
  const std::optional<ClassFigures> figures = solver(a_large_class(6, 0));
  ASSERT_TRUE(figures.has_value());
  EXPECT_GT(figures->states, 100000u);
  // Too small for the first node table: not started.
  EXPECT_FALSE(solver(a_large_class(6, 100'000)).has_value());
  // Room for the first node table, not for the class's BDDs.
  EXPECT_FALSE(solver(a_large_class(6, run::kPartInitialNodes * 40)).has_value());
  // And the next class still has a BDD session.
  const std::optional<ClassFigures> again = solver(a_large_class(6, 0));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->count, figures->count);
}

// Most configurations of 5x5 on the symbolic path (every class of more than 32 states, about
// 30 000 classes), both metrics, the mirror on.
TEST(SymbolicClasses, MostClassesOf5x5) {
  for (const Metric metric : {Metric::Step, Metric::Move}) expect_symbolic_share(Rules(5, -1, metric), 32, 0.75);
}

}  // namespace
}  // namespace rushhour
