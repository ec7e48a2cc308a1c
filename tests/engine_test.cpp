// Every engine of the registry (run/engine.hpp) against the explicit engine's figures, through
// the one Engine interface: counts, dominance figures and the summary counts, both metrics,
// with and without vehicle limits.
#include "run/engine.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "reference_figures.hpp"

namespace rushhour {
namespace {

using EngineCase = std::tuple<run::EngineKind, Rules>;

class EveryEngine : public ::testing::TestWithParam<EngineCase> {};

TEST_P(EveryEngine, GivesTheExplicitEnginesFigures) {
  const auto& [kind, rules] = GetParam();
  run::RunSettings settings{.engine = kind, .common = {.rules = rules, .quiet = true}};
  settings.sweep.threads = 2;
  run::ProgressLog log(true, "");
  const Classification got = run::engine_for(kind).run(settings, nullptr, log);
  const Classification& expected = testing::explicit_figures(rules);
  EXPECT_TRUE(got.complete);
  EXPECT_EQ(got.engine, run::to_string(kind));
  EXPECT_EQ(got.domain_count, expected.domain_count);
  EXPECT_EQ(got.winning_count, expected.winning_count);
  EXPECT_EQ(got.solvable_count, expected.solvable_count);
  EXPECT_EQ(got.unsolvable_count, expected.unsolvable_count);
  ASSERT_EQ(got.layers.size(), expected.layers.size());
  for (std::size_t i = 0; i < got.layers.size(); ++i)
    EXPECT_EQ(got.layers[i].count, expected.layers[i].count) << "index " << i;
  EXPECT_EQ(got.nondominated, expected.nondominated);
  EXPECT_EQ(got.components, expected.components);
}

std::string case_name(const ::testing::TestParamInfo<EngineCase>& info) {
  const auto& [kind, rules] = info.param;
  std::string name = run::to_string(kind) + "_" + std::to_string(rules.size()) + "x" +
                     to_string(rules.metric());
  if (!rules.limits().unlimited()) name += "_limited";
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    FourByFour, EveryEngine,
    ::testing::Combine(::testing::Values(run::EngineKind::Symbolic, run::EngineKind::Explicit,
                                         run::EngineKind::Classes),
                       ::testing::Values(Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move),
                                         Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1}))),
    case_name);

}  // namespace
}  // namespace rushhour
