// The bdd engine with --partition against the explicit engine, figure by figure: per-index
// counts, both dominance figures (the symbolic pass per part, and a class sweep after the
// parts), the samples, for every granularity, both metrics, vehicle limits, another exit row
// and a layer limit; and the options' checks.
#include "run/partitioned_run.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "cli_test_support.hpp"
#include "reference_figures.hpp"
#include "run/engine.hpp"

namespace rushhour {
namespace {

using PartitionCase = std::tuple<std::string, Rules>;

run::RunSettings partitioned_settings(const Rules& rules, const std::string& partition) {
  run::RunSettings settings{.engine = run::EngineKind::Symbolic,
                            .common = {.rules = rules, .quiet = true}};
  settings.symbolic.partition = partition;
  settings.sweep.threads = 2;
  return settings;
}

class PartitionedRun : public ::testing::TestWithParam<PartitionCase> {};

TEST_P(PartitionedRun, GivesEveryFigureOfTheExplicitEngine) {
  const auto& [partition, rules] = GetParam();
  const Classification& expected = testing::explicit_figures(rules);
  run::ProgressLog log(true, "");
  const Classification got = run::classify_partitioned(partitioned_settings(rules, partition), nullptr, log);
  testing::expect_same_figures(got, expected, {.dominance = true, .samples = true});
  for (std::size_t i = 0; i < got.layers.size(); ++i) EXPECT_GT(got.layers[i].bdd_nodes, 0u);
}

TEST_P(PartitionedRun, StopsAfterTheLayerLimit) {
  const auto& [partition, rules] = GetParam();
  const Classification& expected = testing::explicit_figures(rules);
  run::RunSettings settings = partitioned_settings(rules, partition);
  settings.symbolic.max_layers = 4;
  run::ProgressLog log(true, "");
  const Classification got = run::classify_partitioned(settings, nullptr, log);
  EXPECT_FALSE(got.complete);
  ASSERT_EQ(got.layers.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(got.layers[i].count, expected.layers[i].count);
  EXPECT_TRUE(got.nondominated.empty());
  EXPECT_EQ(got.domain_count, expected.domain_count);
}

std::string case_name(const ::testing::TestParamInfo<PartitionCase>& info) {
  const auto& [partition, rules] = info.param;
  std::string name = partition + "_" + std::to_string(rules.size()) + "x" +
                     std::to_string(rules.size()) + to_string(rules.metric());
  if (rules.exit_row() != (rules.size() - 1) / 2) name += "_exit" + std::to_string(rules.exit_row());
  if (!rules.limits().unlimited()) name += "_limited";
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    FourByFour, PartitionedRun,
    ::testing::Combine(::testing::Values("exit-row", "rows", "rows+2"),
                       ::testing::Values(Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move),
                                         Rules(4, 0, Metric::Step),
                                         Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1}))),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    FiveByFive, PartitionedRun,
    ::testing::Combine(::testing::Values("exit-row", "rows"),
                       ::testing::Values(Rules(5, -1, Metric::Step), Rules(5, -1, Metric::Move),
                                         Rules(5, 4, Metric::Move, {.max_vehicles = 5}))),
    case_name);

// Through the engine registry, the dominance figures from a class sweep after the parts.
TEST(PartitionedRun, DominanceByClassesAfterTheParts) {
  const Rules rules(4, -1, Metric::Move);
  run::RunSettings settings = partitioned_settings(rules, "rows");
  settings.symbolic.dominance_by_classes = true;
  run::ProgressLog log(true, "");
  const Classification got = run::engine_for(run::EngineKind::Symbolic).run(settings, nullptr, log);
  testing::expect_same_figures(got, testing::explicit_figures(rules));
}

// A sample of the parts: every K-th part alone, a benchmark; its counts are those parts'.
TEST(PartitionedRun, PartSampleClassifiesEveryKthPart) {
  const Rules rules(4);
  run::RunSettings settings = partitioned_settings(rules, "rows");
  settings.common.dominance = false;
  settings.symbolic.part_stride = 3;
  run::ProgressLog log(true, "");
  const Classification sampled = run::classify_partitioned(settings, nullptr, log);
  EXPECT_GT(sampled.domain_count, 0u);
  EXPECT_LT(sampled.domain_count, testing::explicit_figures(rules).domain_count);
  Count layers = 0;
  for (const LayerFigures& layer : sampled.layers) layers += layer.count;
  EXPECT_EQ(layers, sampled.solvable_count);
}

struct BadPartition {
  std::string args;
  std::string message;
};

class PartitionRejects : public ::testing::TestWithParam<BadPartition> {};

TEST_P(PartitionRejects, WithStatusTwoAndOneLine) {
  const auto run = testing::run_rushhour("classify -q " + GetParam().args);
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find(GetParam().message), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadOptions, PartitionRejects,
    ::testing::Values(
        BadPartition{"--size 4 --partition cols", "unknown partition 'cols'"},
        BadPartition{"--size 4 --partition rows+5", "unknown partition 'rows+5'"},
        BadPartition{"--size 4 --engine explicit --partition rows", "--partition applies to the bdd engine only"},
        BadPartition{"--size 4 --engine classes --part-sample 3", "--part-sample applies to the bdd engine only"},
        BadPartition{"--size 4 --part-sample 3", "--part-sample goes with --partition"},
        BadPartition{"--size 4 --partition rows --part-sample 0", "--part-sample must be >= 1"},
        BadPartition{"--size 4 --partition rows --part-sample 2 --out /tmp/x", "benchmark of a partition"},
        BadPartition{"--size 4 --partition rows --encoding cell", "goes with the slot encoding"},
        BadPartition{"--size 4 --partition rows --out /tmp/x --resume", "do not resume"},
        BadPartition{"--size 4 --partition rows --dominance-by symbolic --dominance-indices 3",
                     "counts every index"}));

// The command line: the summary of a partitioned run is the explicit engine's.
TEST(PartitionedRun, ClassifyCommandReportsTheExplicitFigures) {
  const auto whole = testing::run_rushhour("classify --size 4 -q --engine explicit");
  const auto parts = testing::run_rushhour("classify --size 4 -q --partition rows --dominance-by symbolic");
  ASSERT_EQ(whole.status, 0) << whole.err;
  ASSERT_EQ(parts.status, 0) << parts.err;
  const auto table = [](const std::string& out) {
    const auto from = out.find("domain ");
    return out.substr(from, out.find("hardest") - from);
  };
  EXPECT_EQ(table(parts.out), table(whole.out));
}

}  // namespace
}  // namespace rushhour
