// The bdd engine with --partition against the explicit engine, figure by figure: per-index
// counts, both dominance figures (the symbolic pass per part, and a class sweep after the
// parts), the samples, for every granularity, both metrics, vehicle limits, another exit row,
// 6x6 with few vehicles and a layer limit, with the first layers taken from the whole domain
// or not; and the options' checks.
#include "run/partitioned_run.hpp"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "cli_test_support.hpp"
#include "reference_figures.hpp"
#include "board/errors.hpp"
#include "encoding/line_partition.hpp"
#include "run/engine.hpp"
#include "run/part_run.hpp"
#include "run/run_directory.hpp"
#include "run/settings.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("Boards/FiguresOnlyRun.*/rows_5x5move", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/WholeLayersRun.*/rows_5x5*_whole4", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/PartitionedRun.*", long);
RUSHHOUR_TEST_TIER_OF("PartitionedRun.CountsTheComponentsFromTheIndexAsked", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/SavedPartitionedRun.*", long);

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
  const Classification& expected = test_support::explicit_figures(rules);
  run::ProgressLog log(true, "");
  const Classification got = run::classify_partitioned(partitioned_settings(rules, partition), nullptr, log);
  test_support::expect_same_figures(got, expected, {.dominance = true, .samples = true});
  for (std::size_t i = 0; i < got.layers.size(); ++i) EXPECT_GT(got.layers[i].bdd_nodes, 0u);
}

TEST_P(PartitionedRun, StopsAfterTheLayerLimit) {
  const auto& [partition, rules] = GetParam();
  const Classification& expected = test_support::explicit_figures(rules);
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

std::vector<std::uint64_t> layer_nodes(const Classification& figures) {
  std::vector<std::uint64_t> nodes;
  for (const LayerFigures& layer : figures.layers) nodes.push_back(layer.bdd_nodes);
  return nodes;
}

std::size_t files_under(const std::filesystem::path& directory) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory))
    count += entry.is_regular_file() ? 1 : 0;
  return count;
}

// Removes every third part file of the run in `dir` (the second of each three); returns how many.
std::size_t remove_every_third_part_file(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "parts"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::size_t removed = 0;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (i % 3 == 1) removed += std::filesystem::remove(files[i]) ? 1 : 0;
  return removed;
}

// Two worker processes, every part saved in DIR/parts (a file each); then a third of the part
// files removed and the run resumed: the figures of the parts found are summed, the others
// classified again, and every figure (the BDD nodes too) is the uninterrupted run's.
class SavedPartitionedRun : public ::testing::TestWithParam<PartitionCase> {};

TEST_P(SavedPartitionedRun, OnTwoWorkerProcessesSavesEveryPartAndResumesFromThem) {
  const auto& [partition, rules] = GetParam();
  const Classification& expected = test_support::explicit_figures(rules);
  test_support::TempDir dir("partitioned_run");
  run::RunSettings settings = partitioned_settings(rules, partition);
  settings.symbolic.part_workers = 2;
  settings.common.out = dir.path();
  const run::RunDirectory directory(dir.path());
  run::ProgressLog log(true, "");
  const Classification got = run::classify_partitioned(settings, &directory, log);
  test_support::expect_same_figures(got, expected, {.dominance = true, .samples = true});
  const std::uint64_t parts = count_parts(parse_partition(partition, rules), rules);
  ASSERT_EQ(files_under(dir.path() / "parts"), parts);

  const std::size_t removed = remove_every_third_part_file(dir.path());
  ASSERT_GT(removed, 0u);
  settings.common.resume = true;
  settings.symbolic.part_workers = 1;
  // The parts classified again start from the whole domain's first layers: the same BDDs.
  settings.symbolic.whole_layers = 2;
  const Classification resumed = run::classify_partitioned(settings, &directory, log);
  test_support::expect_same_figures(resumed, expected, {.dominance = true, .samples = true});
  EXPECT_EQ(layer_nodes(resumed), layer_nodes(got));
  EXPECT_EQ(files_under(dir.path() / "parts"), parts);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The whole-domain layers (--whole-layers K) are saved in DIR/whole-layers.h5 and read from
// there on --resume with the same K; another K computes them again; a damaged file is refused.
TEST(SavedPartitionedRun, ResumesFromTheSavedWholeLayers) {
  const Rules rules(4, -1, Metric::Move);
  const Classification& expected = test_support::explicit_figures(rules);
  test_support::TempDir dir("partitioned_whole_layers");
  run::RunSettings settings = partitioned_settings(rules, "rows");
  settings.symbolic.whole_layers = 3;
  settings.common.out = dir.path();
  const run::RunDirectory directory(dir.path());
  const auto whole_layers = dir.path() / "whole-layers.h5";
  const auto resume = [&](int whole, const std::string& log_name) {
    settings.symbolic.whole_layers = whole;
    run::ProgressLog log(true, (dir.path() / log_name).string());
    const Classification got = run::classify_partitioned(settings, &directory, log);
    test_support::expect_same_figures(got, expected, {.dominance = true, .samples = true});
    return read_text(dir.path() / log_name);
  };
  EXPECT_NE(resume(3, "first.log").find("whole domain: layers 0..2 in"), std::string::npos);
  ASSERT_TRUE(std::filesystem::exists(whole_layers));
  settings.common.resume = true;
  std::filesystem::remove_all(dir.path() / "parts");
  EXPECT_NE(resume(3, "same.log").find("whole domain: layers 0..2 read from " + whole_layers.string()),
            std::string::npos);
  std::filesystem::remove_all(dir.path() / "parts");
  EXPECT_NE(resume(2, "other.log").find("whole domain: layers 0..1 in"), std::string::npos);
  std::filesystem::remove_all(dir.path() / "parts");
  EXPECT_NE(resume(2, "again.log").find("read from"), std::string::npos);
  const std::string bytes = read_text(whole_layers);
  std::ofstream(whole_layers, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 64);
  settings.symbolic.whole_layers = 2;
  std::filesystem::remove_all(dir.path() / "parts");
  run::ProgressLog log(true, "");
  EXPECT_THROW(run::classify_partitioned(settings, &directory, log), InputError);

  // A file that cannot be written (here a directory is in the way) is reported, not fatal.
  std::filesystem::remove(whole_layers);
  std::filesystem::create_directories(whole_layers / "in-the-way");
  settings.common.resume = false;
  EXPECT_NE(resume(2, "unsaved.log").find("whole domain: not saved ("), std::string::npos);
}

std::string partition_case_name(const ::testing::TestParamInfo<PartitionCase>& info) {
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
    ::testing::Combine(::testing::Values("exit-row", "rows", "rows+2", "lines:R0,R1,C3"),
                       ::testing::Values(Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move),
                                         Rules(4, 0, Metric::Step),
                                         Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1}))),
    partition_case_name);

INSTANTIATE_TEST_SUITE_P(
    FiveByFive, PartitionedRun,
    ::testing::Combine(::testing::Values("exit-row", "rows", "lines:R1,R2,C4"),
                       ::testing::Values(Rules(5, -1, Metric::Step), Rules(5, -1, Metric::Move),
                                         Rules(5, 4, Metric::Move, {.max_vehicles = 5}))),
    partition_case_name);

// 6x6 with few vehicles: the symbolic dominance pass of every rows part (the class engine's
// work items) against the explicit engine (scripts/partition_dominance_check.sh compares the
// same runs with the class engine).
INSTANTIATE_TEST_SUITE_P(
    SixBySixFewVehicles, PartitionedRun,
    ::testing::Combine(::testing::Values("rows"),
                       ::testing::Values(Rules(6, -1, Metric::Step, {.max_vehicles = 4}),
                                         Rules(6, -1, Metric::Move, {.max_vehicles = 4}))),
    partition_case_name);

// --whole-layers K: the first K layers computed on the whole domain, every part starting
// from its share of them. The same figures, whether the whole layers end before, within or
// after a part's own, and under a layer limit below K.
class WholeLayersRun : public ::testing::TestWithParam<std::tuple<std::string, Rules, int>> {};

TEST_P(WholeLayersRun, GivesEveryFigureOfTheExplicitEngine) {
  const auto& [partition, rules, whole_layers] = GetParam();
  const Classification& expected = test_support::explicit_figures(rules);
  run::RunSettings settings = partitioned_settings(rules, partition);
  settings.symbolic.whole_layers = whole_layers;
  run::ProgressLog log(true, "");
  const Classification got = run::classify_partitioned(settings, nullptr, log);
  test_support::expect_same_figures(got, expected, {.dominance = true, .samples = true});

  settings.symbolic.max_layers = 2;
  const Classification limited = run::classify_partitioned(settings, nullptr, log);
  EXPECT_FALSE(limited.complete);
  ASSERT_EQ(limited.layers.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(limited.layers[i].count, expected.layers[i].count);
}

std::string whole_layers_name(const ::testing::TestParamInfo<std::tuple<std::string, Rules, int>>& info) {
  const auto& [partition, rules, whole_layers] = info.param;
  return partition_case_name({{partition, rules}, info.index}) + "_whole" + std::to_string(whole_layers);
}

INSTANTIATE_TEST_SUITE_P(
    FourByFour, WholeLayersRun,
    ::testing::Combine(::testing::Values("exit-row", "rows"),
                       ::testing::Values(Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move),
                                         Rules(4, 0, Metric::Step),
                                         Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1})),
                       ::testing::Values(1, 3, 100)),
    whole_layers_name);

INSTANTIATE_TEST_SUITE_P(
    FourByFourManyParts, WholeLayersRun,
    ::testing::Combine(::testing::Values("rows+2"),
                       ::testing::Values(Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move)),
                       ::testing::Values(3)),
    whole_layers_name);

INSTANTIATE_TEST_SUITE_P(
    FiveByFive, WholeLayersRun,
    ::testing::Combine(::testing::Values("rows"),
                       ::testing::Values(Rules(5, -1, Metric::Step), Rules(5, -1, Metric::Move),
                                         Rules(5, 4, Metric::Move, {.max_vehicles = 5})),
                       ::testing::Values(4)),
    whole_layers_name);

INSTANTIATE_TEST_SUITE_P(
    SixBySixFewVehicles, WholeLayersRun,
    ::testing::Combine(::testing::Values("rows"),
                       ::testing::Values(Rules(6, -1, Metric::Step, {.max_vehicles = 4}),
                                         Rules(6, -1, Metric::Move, {.max_vehicles = 4})),
                       ::testing::Values(3)),
    whole_layers_name);

// Each part written and fsynced takes a few milliseconds: the finest partition (rows+2, 4·6³·6²
// parts) only with the vehicle limits.
std::vector<PartitionCase> saved_cases(const std::vector<std::string>& partitions, const std::vector<Rules>& rules) {
  std::vector<PartitionCase> cases;
  for (const std::string& partition : partitions)
    for (const Rules& r : rules) cases.emplace_back(partition, r);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    FourByFour, SavedPartitionedRun,
    ::testing::ValuesIn([] {
      auto cases = saved_cases({"exit-row", "rows"},
                               {Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move), Rules(4, 0, Metric::Step),
                                Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1})});
      cases.emplace_back("rows+2", Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1}));
      return cases;
    }()),
    partition_case_name);

INSTANTIATE_TEST_SUITE_P(
    FiveByFive, SavedPartitionedRun,
    ::testing::ValuesIn(saved_cases({"exit-row", "rows"},
                                    {Rules(5, -1, Metric::Step), Rules(5, -1, Metric::Move),
                                     Rules(5, 4, Metric::Move, {.max_vehicles = 5})})),
    partition_case_name);

// --part-files figures: no part files, the finished parts' summed figures in
// DIR/parts-checkpoint.txt. A run that saved part files, a third of them then removed, resumed
// so: it takes in the part files left (and removes them), classifies the others and gives
// every figure (the BDD nodes too) of the uninterrupted run; resumed once more, it classifies
// nothing and gives them again from the checkpoint alone. A damaged checkpoint, one of other
// parameters, and a resume that would save part files beside it are refused.
class FiguresOnlyRun : public ::testing::TestWithParam<PartitionCase> {};

TEST_P(FiguresOnlyRun, ResumesFromItsCheckpointAndTakesInPartFiles) {
  const auto& [partition, rules] = GetParam();
  const Classification& expected = test_support::explicit_figures(rules);
  test_support::TempDir dir("figures_only_run");
  run::RunSettings settings = partitioned_settings(rules, partition);
  settings.symbolic.part_workers = 2;
  settings.common.out = dir.path();
  const run::RunDirectory directory(dir.path());
  run::ProgressLog quiet(true, "");
  const Classification with_files = run::classify_partitioned(settings, &directory, quiet);
  const std::size_t files = files_under(dir.path() / "parts");
  const std::size_t removed = remove_every_third_part_file(dir.path());
  ASSERT_GT(removed, 0u);

  settings.common.resume = true;
  settings.symbolic.part_layers = false;
  const auto checkpoint = dir.path() / "parts-checkpoint.txt";
  const auto resume = [&](const std::string& log_name) {
    run::ProgressLog log(true, (dir.path() / log_name).string());
    const Classification got = run::classify_partitioned(settings, &directory, log);
    test_support::expect_same_figures(got, expected, {.dominance = true, .samples = true});
    EXPECT_EQ(layer_nodes(got), layer_nodes(with_files));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "parts"));
    EXPECT_TRUE(std::filesystem::exists(checkpoint));
    return read_text(dir.path() / log_name);
  };
  const std::string converted = resume("converted.log");
  EXPECT_NE(converted.find("took the figures of " + std::to_string(files - removed) + " part files into"),
            std::string::npos)
      << converted;
  const std::string again = resume("again.log");
  EXPECT_NE(again.find("resumed " + std::to_string(files) + " finished parts from " + checkpoint.string()),
            std::string::npos)
      << again;

  const std::string bytes = read_text(checkpoint);
  std::ofstream(checkpoint, std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  EXPECT_THROW(run::classify_partitioned(settings, &directory, quiet), InputError);
  std::ofstream(checkpoint, std::ios::trunc) << bytes;
  settings.symbolic.part_layers = true;
  EXPECT_THROW(run::classify_partitioned(settings, &directory, quiet), InputError);
  settings.symbolic.part_layers = false;
  settings.common.samples_per_index += 1;
  EXPECT_THROW(run::classify_partitioned(settings, &directory, quiet), InputError);
  settings.common.samples_per_index -= 1;
  // A fresh run of either kind starts afresh: the checkpoint goes.
  settings.common.resume = false;
  settings.symbolic.part_layers = true;
  test_support::expect_same_figures(run::classify_partitioned(settings, &directory, quiet), expected,
                               {.dominance = true, .samples = true});
  EXPECT_FALSE(std::filesystem::exists(checkpoint));
}

INSTANTIATE_TEST_SUITE_P(
    Boards, FiguresOnlyRun,
    ::testing::Values(PartitionCase{"rows", Rules(4, -1, Metric::Step)},
                      PartitionCase{"exit-row", Rules(4, 0, Metric::Move, {.max_cars = 3, .max_trucks = 1})},
                      PartitionCase{"rows", Rules(5, -1, Metric::Move)},
                      PartitionCase{"rows", Rules(6, -1, Metric::Step, {.max_vehicles = 4})}),
    partition_case_name);

// query has no layers to answer from in a run that keeps figures only, and says so.
TEST(FiguresOnlyRun, QueryRefusesWithTheReason) {
  test_support::TempDir dir("figures_only_query");
  const std::string out = dir / "run";
  const auto run = test_support::run_rushhour("classify -q --size 4 --partition rows --part-files figures --out " + out);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / "classification.h5"));
  for (const std::string question : {"--hardest", "--index 3 --count", "--board ooooAAoooooooooo"}) {
    const auto query = test_support::run_rushhour("query --run " + out + " " + question);
    EXPECT_EQ(query.status, 2) << query.err;
    EXPECT_NE(query.err.find("keeps its parts' figures only (--part-files figures)"), std::string::npos) << query.err;
  }
}

// Through the engine registry, the dominance figures from a class sweep after the parts.
TEST(PartitionedRun, DominanceByClassesAfterTheParts) {
  const Rules rules(4, -1, Metric::Move);
  run::RunSettings settings = partitioned_settings(rules, "rows");
  settings.symbolic.dominance_by_classes = true;
  run::ProgressLog log(true, "");
  const Classification got = run::engine_for(run::EngineKind::Symbolic).run(settings, nullptr, log).figures;
  test_support::expect_same_figures(got, test_support::explicit_figures(rules));
}

// --dominance-components-from I: the components of the indices from I on, -1 below, and
// every other figure, partitioned or not; a saved run resumes only with the same I.
TEST(PartitionedRun, CountsTheComponentsFromTheIndexAsked) {
  for (const auto& [rules, from] : {std::pair{Rules(4, -1, Metric::Step), 4}, std::pair{Rules(5, -1, Metric::Move), 6}}) {
    const Classification& expected = test_support::explicit_figures(rules);
    ASSERT_GT(expected.max_index(), from);
    for (const std::string partition : {"none", "rows"}) {
      SCOPED_TRACE(rules.describe() + " --partition " + partition);
      run::RunSettings settings = partitioned_settings(rules, partition);
      settings.symbolic.components_from = from;
      run::ProgressLog log(true, "");
      const Classification got = run::engine_for(run::EngineKind::Symbolic).run(settings, nullptr, log).figures;
      test_support::expect_same_figures(got, expected, {.dominance = false, .samples = partition != "none"});
      ASSERT_EQ(got.nondominated, expected.nondominated);
      ASSERT_EQ(got.components.size(), expected.components.size());
      for (std::size_t i = 0; i < got.components.size(); ++i)
        EXPECT_EQ(got.components[i], static_cast<int>(i) >= from ? expected.components[i] : -1) << "index " << i;
    }
  }
  const Rules rules(4);
  test_support::TempDir dir("partitioned_components_from");
  run::RunSettings settings = partitioned_settings(rules, "rows");
  settings.symbolic.components_from = 4;
  settings.common.out = dir.path();
  const run::RunDirectory directory(dir.path());
  run::ProgressLog log(true, "");
  ASSERT_TRUE(run::classify_partitioned(settings, &directory, log).complete);
  settings.common.resume = true;
  settings.symbolic.components_from = 0;
  EXPECT_THROW(run::classify_partitioned(settings, &directory, log), InputError);
  settings.symbolic.components_from = 4;
  EXPECT_TRUE(run::classify_partitioned(settings, &directory, log).complete);
}

// A partitioned run's parts get a cache entry per kPartCacheRatio nodes unless
// --bdd-cache-ratio is given; an unpartitioned run keeps the option's default.
TEST(PartitionedRun, PartsTakeTheirCacheRatioUnlessOneIsGiven) {
  const auto cache_ratio = [](const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(run::classify_options()).run(), vm);
    po::notify(vm);
    return run::settings_from(vm, run::Environment{}).symbolic.bdd.cache_ratio;
  };
  EXPECT_EQ(cache_ratio({"--size", "4", "--partition", "rows"}), run::kPartCacheRatio);
  EXPECT_EQ(cache_ratio({"--size", "4", "--partition", "rows", "--bdd-cache-ratio", "2"}), 2);
  EXPECT_EQ(cache_ratio({"--size", "4"}), BddSettings{}.cache_ratio);
  EXPECT_NE(run::kPartCacheRatio, BddSettings{}.cache_ratio);
}

// A resumed run must be the same run: parts saved with other parameters are refused.
TEST(PartitionedRun, ResumeRefusesThePartsOfAnotherRun) {
  const Rules rules(4);
  test_support::TempDir dir("partitioned_other");
  run::RunSettings settings = partitioned_settings(rules, "exit-row");
  settings.common.dominance = false;
  settings.common.out = dir.path();
  const run::RunDirectory directory(dir.path());
  run::ProgressLog log(true, "");
  ASSERT_TRUE(run::classify_partitioned(settings, &directory, log).complete);
  settings.common.resume = true;
  settings.common.rules = Rules(4, -1, Metric::Move);
  EXPECT_THROW(run::classify_partitioned(settings, &directory, log), InputError);
  // Without --resume the old parts are removed and the run starts afresh.
  settings.common.resume = false;
  test_support::expect_same_figures(run::classify_partitioned(settings, &directory, log),
                               test_support::explicit_figures(settings.common.rules), {.dominance = false});
}

// A fresh run in a directory of the other kind removes its files: an unpartitioned run the
// part files, a partitioned run the layer files, so that query finds the latest run's.
TEST(PartitionedRun, AFreshRunRemovesTheFilesOfTheOtherKind) {
  test_support::TempDir dir("partitioned_fresh");
  const std::string out = dir / "run";
  ASSERT_EQ(test_support::run_rushhour("classify -q --no-dominance --size 4 --partition rows --out " + out).status, 0);
  ASSERT_TRUE(std::filesystem::exists(std::filesystem::path(out) / "parts"));
  const auto whole = test_support::run_rushhour("classify --no-dominance --size 4 --metric move --out " + out);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_NE(whole.err.find("part files of a partitioned run"), std::string::npos) << whole.err;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "parts"));
  const auto board = test_support::run_rushhour("query --run " + out + " --hardest --json");
  EXPECT_NE(board.out.find("\"index\": 7,"), std::string::npos) << board.out;
  const auto parts = test_support::run_rushhour("classify --no-dominance --size 4 --partition rows --out " + out);
  ASSERT_EQ(parts.status, 0) << parts.err;
  EXPECT_NE(parts.err.find("layer files of an unpartitioned run"), std::string::npos) << parts.err;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "layers"));
}

// A class engine run in a directory of a bdd run (its part files or its layers) removes them,
// fresh or resumed, so that query answers from the class run (here of the other metric); a
// refused --resume (the class checkpoint of the bdd run's dominance sweep, of the step metric)
// removes nothing.
TEST(PartitionedRun, AClassEngineRunRemovesTheFilesOfABddRun) {
  test_support::TempDir dir("partitioned_then_classes");
  const std::string out = dir / "run";
  for (const std::string bdd_run : {"--partition rows", "", "--partition rows --dominance-by symbolic"}) {
    for (const std::string resume : {"", " --resume"}) {
      ASSERT_EQ(test_support::run_rushhour("classify -q --size 4 " + bdd_run + " --out " + out).status, 0);
      const bool parts = !bdd_run.empty();
      ASSERT_TRUE(std::filesystem::exists(std::filesystem::path(out) / (parts ? "parts" : "layers")));
      const std::string classify = "classify --size 4 --metric move --engine classes --threads 1 --out " + out;
      if (bdd_run.find("symbolic") == std::string::npos) {  // the class sweep's checkpoint is there
        const auto refused = test_support::run_rushhour(classify + " --resume");
        EXPECT_EQ(refused.status, 2) << refused.err;
        ASSERT_TRUE(std::filesystem::exists(std::filesystem::path(out) / (parts ? "parts" : "layers")));
      }
      const std::string checkpoint = out + "/classes-checkpoint.txt";
      if (!resume.empty()) std::filesystem::remove(checkpoint);
      const auto classes = test_support::run_rushhour(classify + resume);
      ASSERT_EQ(classes.status, 0) << classes.err;
      EXPECT_NE(classes.err.find("layer and part files of a bdd run"), std::string::npos) << classes.err;
      EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "parts")) << bdd_run << resume;
      EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "layers")) << bdd_run << resume;
      const auto hardest = test_support::run_rushhour("query --run " + out + " --hardest --json");
      ASSERT_EQ(hardest.status, 0) << hardest.err;
      EXPECT_NE(hardest.out.find("\"index\": 7,"), std::string::npos) << bdd_run << resume << hardest.out;
    }
  }
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
  EXPECT_LT(sampled.domain_count, test_support::explicit_figures(rules).domain_count);
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
  const auto run = test_support::run_rushhour("classify -q " + GetParam().args);
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
        BadPartition{"--size 4 --part-workers 2", "--part-workers goes with --partition"},
        BadPartition{"--size 4 --partition rows --part-workers 300", "--part-workers must be"},
        BadPartition{"--size 4 --partition rows --dominance-by symbolic --dominance-indices 3",
                     "counts the components of every index, or from --dominance-components-from"},
        BadPartition{"--size 4 --partition rows --dominance-by symbolic --dominance-components-from -1",
                     "--dominance-components-from must be >= 0"},
        BadPartition{"--size 4 --whole-layers 2", "--whole-layers goes with --partition"},
        BadPartition{"--size 4 --partition rows --whole-layers -1", "--whole-layers must be >= 0"},
        BadPartition{"--size 4 --engine classes --whole-layers 2", "--whole-layers applies to the bdd engine only"},
        BadPartition{"--size 4 --part-files figures --out /tmp/x", "--part-files goes with --partition and --out DIR"},
        BadPartition{"--size 4 --partition rows --part-files figures", "--part-files goes with --partition and --out DIR"},
        BadPartition{"--size 4 --partition rows --part-files bdd --out /tmp/x", "unknown --part-files 'bdd'"},
        BadPartition{"--size 4 --engine classes --part-files figures", "--part-files applies to the bdd engine only"},
        BadPartition{"--size 4 --partition rows --no-dominance --checkpoint-seconds 5 --out /tmp/x",
                     "--checkpoint-seconds applies to class sweeps (engine classes, --dominance-by classes) and to "
                     "partitioned runs with --part-files figures only"},
        BadPartition{"--size 4 --partition rows --part-files figures --checkpoint-seconds -1 --out /tmp/x",
                     "--checkpoint-seconds must be >= 0"},
        BadPartition{"--size 4 --partition rows --dominance-components-from 3",
                     "--dominance-components-from applies to the symbolic dominance pass only"},
        BadPartition{"--size 4 --partition rows --no-dominance --dominance-by symbolic --dominance-components-from 3",
                     "--dominance-components-from applies to the symbolic dominance pass only"}));

// The command line: the summary of a partitioned run is the explicit engine's.
TEST(PartitionedRun, ClassifyCommandReportsTheExplicitFigures) {
  const auto whole = test_support::run_rushhour("classify --size 4 -q --engine explicit");
  const auto parts = test_support::run_rushhour("classify --size 4 -q --partition rows --dominance-by symbolic");
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
