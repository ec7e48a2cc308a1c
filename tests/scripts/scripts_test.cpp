// scripts/plot_run.py and scripts/draw_board.py on a real 4x4 run made here, and
// scripts/plot_clusters.py on the committed 6x6 puzzle database summary. They need
// Debian's /usr/bin/python3 with h5py, numpy and matplotlib; without them the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("Scripts.ClustersMinimalEqualsTheMinimalSweeps", long);
RUSHHOUR_TEST_TIER_OF("Scripts.ClustersMinimalCutsALongListAtAThousand", long);

namespace {

namespace fs = std::filesystem;
using rushhour::test_support::CommandRun;
using rushhour::test_support::run_rushhour;
using rushhour::test_support::run_shell;
using rushhour::test_support::read_text;
using rushhour::test_support::TempDir;

const std::string kPython = "/usr/bin/python3";

std::string script(const std::string& name) {
  return kPython + " " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/" + name;
}

// The fields of `text` between `delimiter`s (a markdown row's cells, a JSON list's values),
// spaces removed, empty ones left out.
std::vector<std::string> fields_of(const std::string& text, char delimiter) {
  std::vector<std::string> fields;
  std::istringstream in(text);
  for (std::string field; std::getline(in, field, delimiter);) {
    std::erase(field, ' ');
    if (!field.empty()) fields.push_back(field);
  }
  return fields;
}


std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

bool is_png(const fs::path& path) {
  const std::string head = read_text(path).substr(0, 8);
  return head == std::string("\x89PNG\r\n\x1a\n", 8);
}

// One line on stderr, naming the script.
void expect_one_line_reason(const CommandRun& run, const std::string& script_name) {
  EXPECT_EQ(occurrences(run.err, "\n"), 1u) << run.err;
  EXPECT_EQ(run.err.rfind(script_name + ": ", 0), 0u) << run.err;
}

class ScriptsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    python_ok_ = run_shell(kPython + " -c 'import h5py, numpy, matplotlib'").status == 0;
    if (!python_ok_) return;
    dir_ = std::make_unique<TempDir>("rushhour_scripts_test");
    classify_ = run_rushhour("classify --size 4 -q --out " + (*dir_ / "run"));
  }
  static void TearDownTestSuite() { dir_.reset(); }

  void SetUp() override {
    if (!python_ok_)
      GTEST_SKIP() << kPython << " lacks h5py, numpy or matplotlib";
    ASSERT_EQ(classify_.status, 0) << classify_.err;
  }

  static std::string path(const std::string& leaf) { return *dir_ / leaf; }

  static inline bool python_ok_ = false;
  static inline std::unique_ptr<TempDir> dir_;
  static inline CommandRun classify_;
};

TEST_F(ScriptsTest, PlotRunWritesTheThreePlots) {
  const CommandRun run = run_shell(script("plot_run.py") + " " + path("run") + " --out " +
                                   path("plots"));
  ASSERT_EQ(run.status, 0) << run.err;
  for (const char* what : {"counts", "nodes", "seconds"}) {
    const fs::path png = fs::path(path("plots")) / (std::string("4x4-step-") + what + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    EXPECT_GT(fs::file_size(png), 10000u) << png;
    EXPECT_TRUE(is_png(png)) << png;
    EXPECT_NE(run.out.find(png.string()), std::string::npos) << run.out;
  }
}

TEST_F(ScriptsTest, PlotRunDefaultsToThePlotsDirectoryOfTheRun) {
  const CommandRun run = run_shell(script("plot_run.py") + " " + path("run") + " --prefix p");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(is_png(fs::path(path("run")) / "plots" / "p-counts.png"));
}

TEST_F(ScriptsTest, PlotRunRejectsAMissingOrForeignFileWithExit2) {
  CommandRun run = run_shell(script("plot_run.py") + " " + path("no-such-run"));
  EXPECT_EQ(run.status, 2);
  expect_one_line_reason(run, "plot_run.py");

  fs::create_directories(path("text"));
  std::ofstream(path("text") + "/classification.h5") << "not HDF5\n";
  run = run_shell(script("plot_run.py") + " " + path("text") + " --out " + path("text-plots"));
  EXPECT_EQ(run.status, 2);
  expect_one_line_reason(run, "plot_run.py");

  fs::create_directories(path("foreign"));
  ASSERT_EQ(run_shell(kPython + " -c \"import h5py; h5py.File('" + path("foreign") +
                      "/classification.h5', 'w').create_dataset('x', data=[1])\"")
                .status,
            0);
  run = run_shell(script("plot_run.py") + " " + path("foreign") + " --out " +
                  path("foreign-plots"));
  EXPECT_EQ(run.status, 2);
  expect_one_line_reason(run, "plot_run.py");
  EXPECT_NE(run.err.find("not a rushhour"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(path("foreign-plots")));
}

TEST_F(ScriptsTest, DrawBoardSvgHasTheRedTargetAndOneShapePerVehicle) {
  // 6x6: trucks B and J, ten cars including A.
  const std::string board = "BBBCooDDoCoooAAEoFGGHEoFoIHJJJoIKKLL";
  const CommandRun run =
      run_shell(script("draw_board.py") + " " + board + " --out " + path("six.svg"));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string svg = read_text(path("six.svg"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(occurrences(svg, "class=\"vehicle "), 12u);
  EXPECT_EQ(occurrences(svg, "class=\"vehicle truck\""), 2u);
  EXPECT_EQ(occurrences(svg, "class=\"vehicle car"), 10u);
  for (const char letter : std::string("ABCDEFGHIJKL"))
    EXPECT_EQ(occurrences(svg, std::string("data-letter=\"") + letter + "\""), 1u) << letter;
  // The target is the only red vehicle.
  const auto target = svg.find("data-letter=\"A\"");
  ASSERT_NE(target, std::string::npos);
  const std::string target_tag = svg.substr(target, svg.find("/>", target) - target);
  EXPECT_NE(target_tag.find("fill=\"#d7191c\""), std::string::npos) << target_tag;
  EXPECT_EQ(occurrences(svg, "class=\"vehicle car target\""), 1u);
  // The exit mark: an arrow head and its label.
  EXPECT_EQ(occurrences(svg, "class=\"exit\""), 1u);
  EXPECT_NE(svg.find(">exit</text>"), std::string::npos);
}

TEST_F(ScriptsTest, DrawBoardDrawsWallsAsWalls) {
  const CommandRun run = run_shell(script("draw_board.py") + " xoBCAABCooDDoxEE --out " + path("walls.svg"));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string svg = read_text(path("walls.svg"));
  EXPECT_EQ(occurrences(svg, "class=\"wall\""), 2u);
  EXPECT_EQ(occurrences(svg, "class=\"vehicle "), 5u);
  EXPECT_EQ(occurrences(svg, "data-letter=\"x\""), 0u);
}

TEST_F(ScriptsTest, DrawBoardAcceptsLinesAndDotsAndWritesPng) {
  const CommandRun run = run_shell(script("draw_board.py") +
                                   " \"$(printf '..BC\\nAABC\\n..DD\\n..EE')\" --out " +
                                   path("lines.png"));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(is_png(path("lines.png")));
  EXPECT_GT(fs::file_size(path("lines.png")), 5000u);
}

TEST_F(ScriptsTest, DrawBoardDrawsTheHardestSamplesOfARun) {
  CommandRun run = run_shell(script("draw_board.py") + " --run " + path("run") +
                             " --hardest --title hardest --out " + path("hardest.svg"));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string svg = read_text(path("hardest.svg"));
  // The 4x4 run's two index-10 boards: ooBCAABCooDDooEE and BBCDAACDooEEooFF.
  EXPECT_EQ(occurrences(svg, "class=\"vehicle car target\""), 2u);
  EXPECT_EQ(occurrences(svg, "class=\"vehicle "), 11u);
  EXPECT_EQ(occurrences(svg, ">index 10</text>"), 2u);

  run = run_shell(script("draw_board.py") + " --run " + path("run") + " --out " +
                  path("hardest.png"));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(is_png(path("hardest.png")));
}

TEST_F(ScriptsTest, DrawBoardDrawsTheHardestClustersOfAList) {
  ASSERT_EQ(run_shell(std::string(RUSHHOUR_BINARY) + " classify --size 4 --engine classes -q --clusters " +
                      path("clusters.h5") + " --clusters-text " + path("clusters.txt"))
                .status,
            0);
  // The page draw_board.py makes of the list with OPTIONS (it must succeed).
  const auto page_of = [&](const std::string& options, const std::string& name) {
    const CommandRun run = run_shell(script("draw_board.py") + " --clusters-text " + path("clusters.txt") + " " +
                                     options + " --out " + path(name));
    EXPECT_EQ(run.status, 0) << run.err;
    return read_text(path(name));
  };
  const auto captions = [](const std::string& svg, int index, int size) {
    return occurrences(svg, ">index " + std::to_string(index) + ", cluster " + std::to_string(size) + "</text>");
  };
  // The list's first three lines: the two index-10 clusters (59 and 34 configurations), then
  // the larger index-9 cluster.
  const std::string first = page_of("--sample 3", "clusters.svg");
  EXPECT_EQ(occurrences(first, "class=\"vehicle car target\""), 3u);
  EXPECT_EQ(captions(first, 10, 59), 1u);
  EXPECT_EQ(captions(first, 10, 34), 1u);
  EXPECT_EQ(captions(first, 9, 34), 1u);
  // --per-index 1: the first cluster of each index, the list's order kept.
  const std::string per_index = page_of("--per-index 1 --sample 3", "per-index.svg");
  EXPECT_EQ(occurrences(per_index, "class=\"vehicle car target\""), 3u);
  EXPECT_EQ(captions(per_index, 10, 59), 1u);
  EXPECT_EQ(captions(per_index, 10, 34), 0u);
  EXPECT_EQ(captions(per_index, 9, 34), 1u);
  EXPECT_EQ(occurrences(per_index, ">index 8, "), 1u);
  EXPECT_EQ(run_shell(script("draw_board.py") + " --clusters-text " + path("clusters.txt") +
                      " --per-index 0 --out " + path("zero.svg")).status, 2);
  EXPECT_EQ(run_shell(script("draw_board.py") + " AAoo --per-index 1 --out " + path("lone.svg")).status, 2);
  std::ofstream(path("bad.txt")) << "10 ooBCAABCooDDooEE\n";
  EXPECT_EQ(run_shell(script("draw_board.py") + " --clusters-text " + path("bad.txt") + " --out " + path("bad.svg")).status, 2);
}

// The committed 6x6 puzzle database's summary (move metric only) beside a both-metrics one:
// one line per summary and metric, each block's clusters checked against the summary's total.
TEST_F(ScriptsTest, PlotClustersDrawsOneLinePerDatabaseAndMetric) {
  const std::string committed = std::string(RUSHHOUR_SOURCE_DIR) + "/results/6x6-puzzle/clusters/database.txt";
  std::ofstream(path("both.txt")) << "clusters 9\ncomplete 0\ncontent rushhour clusters\ndomain all\nmetric move\n"
                                     "size 4\nwork_sample 7\nclusters per highest index (move metric):\n0 5\n2 3\n3 1\n"
                                     "clusters per highest index (step metric):\n0 5\n1 1\n4 2\n6 1\n";
  const CommandRun run = run_shell(script("plot_clusters.py") + " " + committed + " " + path("both.txt") +
                                   " --label puzzle --label sample --out " + path("clusters.svg"));
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string svg = read_text(path("clusters.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  for (const char* line : {"clusters-0-move", "clusters-1-move", "clusters-1-step"})
    EXPECT_EQ(occurrences(svg, std::string("id=\"") + line + "\""), 1u) << line;
  EXPECT_EQ(occurrences(svg, "id=\"clusters-"), 3u);
  EXPECT_NE(run.out.find("puzzle, move metric: 52 indices, 33167684 clusters, highest index 51 (1 clusters)\n"),
            std::string::npos) << run.out;
  EXPECT_NE(run.out.find("sample (work sample 1/7), step metric: 4 indices, 9 clusters, highest index 6 (1 clusters)\n"),
            std::string::npos) << run.out;
  // The same summaries give the same file.
  ASSERT_EQ(run_shell(script("plot_clusters.py") + " " + committed + " " + path("both.txt") +
                      " --label puzzle --label sample --out " + path("again.svg")).status, 0);
  EXPECT_EQ(read_text(path("again.svg")), svg);

  std::ofstream(path("short.txt")) << "clusters 10\ncontent rushhour clusters\nclusters per highest index (move metric):\n0 9\n";
  std::ofstream(path("none.txt")) << "clusters 10\ncontent rushhour clusters\n";
  const std::string out = " --out " + path("bad.svg");
  for (const std::string& bad : {path("short.txt") + out, path("none.txt") + out, path("missing.txt") + out,
                                 committed + " --label a --label b" + out, committed + " --out " + path("bad.pdf")}) {
    const CommandRun refused = run_shell(script("plot_clusters.py") + " " + bad);
    EXPECT_EQ(refused.status, 2) << bad;
    expect_one_line_reason(refused, "plot_clusters.py");
  }
  EXPECT_FALSE(fs::exists(path("bad.svg")));
  EXPECT_FALSE(fs::exists(path("bad.pdf")));
}

TEST_F(ScriptsTest, DrawBoardRejectsBadBoardsWithExit2) {
  const std::vector<std::string> bad = {
      "ooBCAABCooDDooE",    // 15 characters
      "BBBBAAooCCCCDDDD",   // a run of 4
      "ooBCBBAAooCCooDD",   // B not straight
      "ooBCAACCooDDooEE",   // B a single cell
      "ooBCAABCooDxooEE",   // 'x' is a wall, so D has one cell
      "ooBCAABC?oDDooEE",   // neither empty nor a letter
      "ooooooBBooAAoooo",   // A not in the exit row
      "ooooAABBoooooooo",   // B right of A in the exit row
      "ooBCooBCooDDooEE",   // no target
      "oooCAAACooDDooEE",   // A a truck
  };
  for (const std::string& board : bad) {
    const std::string out = path("bad.svg");
    const CommandRun run =
        run_shell(script("draw_board.py") + " '" + board + "' --out " + out);
    EXPECT_EQ(run.status, 2) << board;
    expect_one_line_reason(run, "draw_board.py");
    EXPECT_FALSE(fs::exists(out)) << board;
  }
  const CommandRun size = run_shell(script("draw_board.py") +
                                    " ooBCAABCooDDooEE --size 5 --out " + path("bad.svg"));
  EXPECT_EQ(size.status, 2);
  expect_one_line_reason(size, "draw_board.py");
  const CommandRun format =
      run_shell(script("draw_board.py") + " ooBCAABCooDDooEE --out " + path("bad.pdf"));
  EXPECT_EQ(format.status, 2);
  expect_one_line_reason(format, "draw_board.py");
}

}  // namespace

namespace {

TEST(Scripts, ClassEngineBenchmarkPrintsItsRates) {
  const CommandRun run = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/bench/bench_classes.sh 50000 " +
                                   std::string(RUSHHOUR_BINARY) + " 1");
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  EXPECT_EQ(occurrences(run.out, "work sample 1/50000: 1510 classes, 98042 configurations"), 2u) << run.out;
  EXPECT_EQ(occurrences(run.out, "peak RSS"), 3u) << run.out;
}

TEST(Scripts, SixBySixSymbolicJobRefusesAnUnknownMetric) {
  const CommandRun run = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/run_6x6_symbolic.sh sideways " +
                                   std::string(RUSHHOUR_BINARY));
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("no configs/6x6-symbolic-sideways.cfg"), std::string::npos) << run.err;
}

// The 6x6 symbolic jobs' options (whole layers, parts, the symbolic pass) on 4x4, the board
// and the paths given on the command line over the config's: the move job keeps its part
// files, the step job its parts checkpoint only.
TEST(Scripts, SixBySixSymbolicConfigsRunOnASmallBoard) {
  TempDir dir("symbolic_configs");
  for (const auto& [metric, max_index, kept] : {std::tuple{"move", "max index 7\n", "parts"},
                                                std::tuple{"step", "max index 10\n", "parts-checkpoint.txt"}}) {
    const CommandRun run = run_rushhour(std::string("classify --config ") + RUSHHOUR_SOURCE_DIR +
                                        "/configs/6x6-symbolic-" + metric + ".cfg --size 4 -q --out " +
                                        (dir.path() / metric).string() + " --log " +
                                        (dir.path() / metric).string() + ".log");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find(max_index), std::string::npos) << run.out;
    EXPECT_TRUE(fs::exists(dir.path() / metric / kept)) << metric;
  }
}

TEST(Scripts, SixBySixClassJobRefusesAnUnknownJob) {
  const CommandRun run = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/run_6x6_classes.sh sideways " +
                                   std::string(RUSHHOUR_BINARY));
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("no configs/6x6-classes-sideways.cfg"), std::string::npos) << run.err;
}

}  // namespace

namespace {

TEST(Scripts, CompareRunsAgreesOnTwoEnginesAndNotOnTwoMetrics) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("compare_runs");
  const std::string base = "classify --size 4 -q --out " + dir.path().string();
  ASSERT_EQ(run_rushhour(base + "/bdd").status, 0);
  ASSERT_EQ(run_rushhour(base + "/classes --engine classes").status, 0);
  ASSERT_EQ(run_rushhour(base + "/move --engine classes --metric move").status, 0);
  const auto h5 = [&](const std::string& name) { return (dir.path() / name / "classification.h5").string(); };
  const CommandRun agree = run_shell(script("compare_runs.py") + " " + h5("bdd") + " " + h5("classes"));
  EXPECT_EQ(agree.status, 0) << agree.out << agree.err;
  EXPECT_NE(agree.out.find("compared the counts of 11 indices"), std::string::npos) << agree.out;
  EXPECT_NE(agree.out.find("all compared figures agree"), std::string::npos) << agree.out;
  const CommandRun differ = run_shell(script("compare_runs.py") + " " + h5("bdd") + " " + h5("move"));
  EXPECT_EQ(differ.status, 1) << differ.out << differ.err;
  EXPECT_NE(differ.out.find("DIFFERENT metric"), std::string::npos) << differ.out;
  EXPECT_EQ(run_shell(script("compare_runs.py") + " " + h5("bdd")).status, 2);
}

// --samples compares the sample boards index by index: a partitioned bdd run takes the class
// engine's (the least keys); one board changed, or no samples at all, is reported.
TEST(Scripts, CompareRunsComparesTheSamples) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("compare_samples");
  const std::string base = "classify --size 4 -q --out " + dir.path().string();
  ASSERT_EQ(run_rushhour(base + "/parts --partition rows --dominance-by symbolic").status, 0);
  ASSERT_EQ(run_rushhour(base + "/classes --engine classes").status, 0);
  ASSERT_EQ(run_rushhour(base + "/none --engine classes --samples 0").status, 0);
  const auto h5 = [&](const std::string& name) { return (dir.path() / name / "classification.h5").string(); };
  const std::string compare = script("compare_runs.py") + " --samples " + h5("parts") + " ";
  const CommandRun agree = run_shell(compare + h5("classes"));
  EXPECT_EQ(agree.status, 0) << agree.out << agree.err;
  EXPECT_NE(agree.out.find("compared the samples of 10 indices (47 boards)"), std::string::npos) << agree.out;
  EXPECT_NE(agree.out.find("all compared figures agree"), std::string::npos) << agree.out;

  ASSERT_EQ(run_shell(kPython + " -c \"import h5py; f = h5py.File('" + h5("classes") +
                      "', 'r+'); b = f['samples/board']; i = list(f['samples/index'][()]).index(10); "
                      "b[i] = b'oooooooooooooooo'\"").status, 0);
  const CommandRun differ = run_shell(compare + h5("classes"));
  EXPECT_EQ(differ.status, 1) << differ.out << differ.err;
  EXPECT_NE(differ.out.find("DIFFERENT samples of index 10"), std::string::npos) << differ.out;

  const CommandRun none = run_shell(compare + h5("none"));
  EXPECT_EQ(none.status, 2) << none.out << none.err;
  EXPECT_NE(none.err.find("has no samples to compare"), std::string::npos) << none.err;
}

// A limited run's figures are sums over the (cars, trucks) pairs of a full class run's census.
TEST(Scripts, CensusLimitsReproducesALimitedRun) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("census_limits");
  const std::string base = "classify --size 4 -q --out " + dir.path().string();
  ASSERT_EQ(run_rushhour(base + "/full --engine classes").status, 0);
  ASSERT_EQ(run_rushhour(base + "/limited --max-cars 3 --max-trucks 1").status, 0);
  ASSERT_EQ(run_rushhour(base + "/move --max-cars 3 --metric move").status, 0);
  const std::string census = (dir.path() / "full" / "classes-checkpoint.txt").string();
  const auto h5 = [&](const std::string& name) { return (dir.path() / name / "classification.h5").string(); };
  const CommandRun agree = run_shell(script("census_limits.py") + " " + census + " " + h5("limited"));
  EXPECT_EQ(agree.status, 0) << agree.out << agree.err;
  EXPECT_NE(agree.out.find("count: 8 indices compared, 0 differ"), std::string::npos) << agree.out;
  EXPECT_NE(agree.out.find("all figures agree"), std::string::npos) << agree.out;
  // One count changed in the limited file is reported.
  ASSERT_EQ(run_shell(kPython + " -c \"import h5py; f = h5py.File('" + h5("limited") +
                      "', 'r+'); c = f['layers/count']; c[3] = c[3] + 1\"").status, 0);
  const CommandRun wrong = run_shell(script("census_limits.py") + " " + census + " " + h5("limited"));
  EXPECT_EQ(wrong.status, 1) << wrong.out << wrong.err;
  EXPECT_NE(wrong.out.find("count: 8 indices compared, 1 differ (first: index 3)"), std::string::npos) << wrong.out;
  const CommandRun metric = run_shell(script("census_limits.py") + " " + census + " " + h5("move"));
  EXPECT_EQ(metric.status, 2) << metric.out << metric.err;
  EXPECT_NE(metric.err.find("different boards or metrics"), std::string::npos) << metric.err;
}

// A walled class run's census per number of walls: census_limits.py checks an explicit run of
// one number of walls against it, census_walls.py prints the explicit runs' figures.
TEST(Scripts, CensusPerNumberOfWallsGivesEachWallCountsRun) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("census_walls");
  const std::string base = "classify --size 4 -q --out " + dir.path().string();
  ASSERT_EQ(run_rushhour(base + "/walled --engine classes --walls 2").status, 0);
  ASSERT_EQ(run_rushhour(base + "/one --engine explicit --walls 1-1").status, 0);
  const std::string census = (dir.path() / "walled" / "classes-checkpoint.txt").string();
  const CommandRun agree =
      run_shell(script("census_limits.py") + " " + census + " " + (dir.path() / "one" / "classification.h5").string());
  EXPECT_EQ(agree.status, 0) << agree.out << agree.err;
  EXPECT_NE(agree.out.find("domain: census 67260, classification 67260"), std::string::npos) << agree.out;
  EXPECT_NE(agree.out.find("all figures agree"), std::string::npos) << agree.out;
  const CommandRun table = run_shell(script("census_walls.py") + " " + census);
  EXPECT_EQ(table.status, 0) << table.out << table.err;
  // The explicit engine's figures of 0, 1 and 2 walls (domain, winning, solvable, unsolvable,
  // highest index).
  for (const std::string row : {"| 0 | 13 146 | 4 592 | 9 444 | 3 702 | 10 |", "| 1 | 67 260 | 23 602 | 44 120 | 23 140 | 10 |",
                                "| 2 | 169 057 | 59 484 | 103 387 | 65 670 | 10 |"})
    EXPECT_NE(table.out.find(row), std::string::npos) << row << "\n" << table.out;
}

// The census of a part of a walled sweep (classify --items K/N): census_walls.py takes it only
// with --part, and the parts' domains per number of walls add up to the whole sweep's.
TEST(Scripts, CensusPerNumberOfWallsOfTheParts) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("census_walls_parts");
  std::array<std::uint64_t, 3> domain{};  // per number of walls, over the parts
  for (int part = 1; part <= 2; ++part) {
    const std::string out = (dir.path() / ("part" + std::to_string(part))).string();
    ASSERT_EQ(run_rushhour("classify --size 4 -q --engine classes --walls 2 --items " + std::to_string(part) +
                           "/2 --out " + out).status, 0);
    const std::string census = out + "/classes-checkpoint.txt";
    const CommandRun refused = run_shell(script("census_walls.py") + " " + census);
    EXPECT_EQ(refused.status, 2) << refused.out;
    EXPECT_NE(refused.err.find("is part " + std::to_string(part) + "/2 of a sweep: pass --part"), std::string::npos)
        << refused.err;
    const CommandRun table = run_shell(script("census_walls.py") + " --part " + census);
    ASSERT_EQ(table.status, 0) << table.out << table.err;
    EXPECT_NE(table.out.find("part " + std::to_string(part) + "/2 of the work items"), std::string::npos) << table.out;
    for (int walls = 0; walls <= 2; ++walls) {
      std::smatch row;
      ASSERT_TRUE(std::regex_search(table.out, row, std::regex("\n\\| " + std::to_string(walls) + " \\| ([0-9 ]+) \\|")))
          << table.out;
      std::string digits = row[1];
      std::erase(digits, ' ');
      domain[static_cast<std::size_t>(walls)] += std::stoull(digits);
    }
  }
  EXPECT_EQ(domain, (std::array<std::uint64_t, 3>{13146, 67260, 169057}));  // the explicit engine's, as above
}

// A sweep with --minimal-counts: census_walls.py adds the minimal clusters per number of
// walls under each rule counted (the public rule: those a sweep keeping every minimal record
// under it holds).
TEST(Scripts, CensusPerNumberOfWallsCountsTheMinimalClusters) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("census_walls_minimal");
  const std::string sweep =
      "classify --size 5 --max-vehicles 5 -q --engine classes --threads 2 --metric move "
      "--domain puzzle --walls 1 --minimal --minimal-rule public --clusters ";
  const std::string all = (dir.path() / "all.h5").string();
  ASSERT_EQ(run_rushhour(sweep + all).status, 0);
  const std::string out = (dir.path() / "counted").string();
  ASSERT_EQ(run_rushhour(sweep + (dir.path() / "counted.h5").string() +
                         " --minimal-counts any,public --clusters-min-index 4 --out " + out)
                .status,
            0);
  const CommandRun table =
      run_shell(script("census_walls.py") + " " + out + "/classes-checkpoint.txt");
  ASSERT_EQ(table.status, 0) << table.out << table.err;
  EXPECT_NE(table.out.find("| minimal clusters (any rule) | minimal clusters (public rule) |"), std::string::npos)
      << table.out;
  for (const std::string walls : {"0", "1"}) {
    std::smatch json;
    const std::string answer =
        run_rushhour("query --clusters " + all + " --count --json --walls " + walls).out;
    ASSERT_TRUE(std::regex_search(answer, json, std::regex("\"clusters\": ([0-9]+)"))) << answer;
    ASSERT_NE(json[1].str(), "0");
    // The row of that number of walls ends with its minimal clusters.
    std::smatch row;
    ASSERT_TRUE(std::regex_search(table.out, row,
                                  std::regex("\n\\| " + walls + " \\|[^\n]* ([0-9 ]+) \\|\n")))
        << table.out;
    std::string digits = row[1];
    std::erase(digits, ' ');
    EXPECT_EQ(digits, json[1].str()) << walls << " walls\n" << table.out;
  }
  // --per-index: per highest index, the public rule's minimal clusters of each number of walls
  // (the table's columns 8 and 9) are the records of that index in the database of all of them.
  const CommandRun by_index =
      run_shell(script("census_walls.py") + " --per-index " + out + "/classes-checkpoint.txt");
  ASSERT_EQ(by_index.status, 0) << by_index.out << by_index.err;
  std::map<std::string, std::vector<std::string>> columns;  // walls -> per index
  std::istringstream rows(by_index.out);
  for (std::string line; std::getline(rows, line);) {
    if (!std::regex_match(line, std::regex("\\| [0-9]+ \\|.*"))) continue;
    const std::vector<std::string> cells = fields_of(line, '|');
    ASSERT_EQ(cells.size(), 10u) << line;
    columns["0"].push_back(cells[7]);
    columns["1"].push_back(cells[8]);
  }
  ASSERT_GT(columns["1"].size(), 4u) << by_index.out;
  for (const std::string walls : {"0", "1"}) {
    const std::string answer = run_rushhour("query --clusters " + all + " --count --json --walls " + walls).out;
    std::smatch list;
    ASSERT_TRUE(std::regex_search(answer, list, std::regex("\"per_index\": \\[([0-9, ]*)\\]"))) << answer;
    std::vector<std::string> expected = fields_of(list[1].str(), ',');
    expected.resize(columns[walls].size(), "0");
    EXPECT_EQ(columns[walls], expected) << walls << " walls\n" << by_index.out;
  }
}

// A bdd run's log holds its dominance pass as "dominance index I: ..." lines; a class sweep's
// figures are compared with them, and one changed figure in the log is reported.
TEST(Scripts, CompareRunsChecksADominanceLog) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("compare_logs");
  const fs::path log = dir.path() / "bdd.log";
  ASSERT_EQ(run_rushhour("classify --size 4 -q --dominance-by symbolic --out " + (dir.path() / "bdd").string() + " --log " + log.string()).status, 0);
  ASSERT_EQ(run_rushhour("classify --size 4 -q --engine classes --out " + (dir.path() / "classes").string()).status, 0);
  const auto h5 = [&](const std::string& name) { return (dir.path() / name / "classification.h5").string(); };
  const std::string compare = script("compare_runs.py") + " " + h5("bdd") + " " + h5("classes") + " --dominance-log ";
  const CommandRun agree = run_shell(compare + log.string());
  EXPECT_EQ(agree.status, 0) << agree.out << agree.err;
  EXPECT_NE(agree.out.find("compared the logged dominance figures of 11 indices (11 with components), 0 to 10"),
            std::string::npos) << agree.out;

  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  std::string changed = text.str();
  const std::string line = "dominance index 10: 2 non-dominated";
  ASSERT_NE(changed.find(line), std::string::npos) << changed;
  changed.replace(changed.find(line), line.size(), "dominance index 10: 3 non-dominated");
  std::ofstream(dir.path() / "changed.log") << changed;
  const CommandRun differ = run_shell(compare + (dir.path() / "changed.log").string());
  EXPECT_EQ(differ.status, 1) << differ.out << differ.err;
  EXPECT_NE(differ.out.find("DIFFERENT non-dominated of index 10 (log vs B): 3 vs 2"), std::string::npos) << differ.out;

  EXPECT_EQ(run_shell(compare + (dir.path() / "missing.log").string()).status, 2);
  EXPECT_EQ(run_shell(compare + log.string() + " --dominance-log " + (dir.path() / "changed.log").string()).status, 2)
      << "two logs that disagree";
}

}  // namespace

namespace {

// results/6x6-walls/db_report.sh on the form of the walled database job (minimal clusters
// counted, the records kept from one highest index, both metrics): its hardest list under each
// rule is the minimal sweep's list from that index (fewer than 1000, said on stderr), and its
// census table per index ends with every minimal cluster of that rule.
TEST(Scripts, DatabaseReportListsTheMinimalClustersKept) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("db_report");
  const std::string sweep = "classify --engine classes --threads 2 -q --size 5 --max-vehicles 6 --metric move "
                            "--domain puzzle --walls 1";
  const std::string run = (dir.path() / "run").string();
  ASSERT_EQ(run_rushhour(sweep + " --clusters-metrics both --minimal-counts any,public --clusters-min-index 9 "
                         "--clusters " + run + "/db.h5 --out " + run).status, 0);
  const fs::path out = dir.path() / "report";
  const CommandRun report = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/results/6x6-walls/db_report.sh " +
                                      run + " " + run + "/db.h5 " + out.string() + " " + RUSHHOUR_BINARY);
  ASSERT_EQ(report.status, 0) << report.err << report.out;
  EXPECT_NE(report.err.find("minimal clusters of highest index 9 or more, the least kept"), std::string::npos)
      << report.err;
  EXPECT_TRUE(fs::exists(out / "minimal-per-index.svg"));
  // The hardest clusters of each metric, as query --hardest lists them.
  for (const std::string metric : {"move", "step"}) {
    const CommandRun hardest = run_rushhour("query --clusters " + run + "/db.h5 --metric " + metric + " --hardest");
    ASSERT_EQ(hardest.status, 0) << hardest.err;
    EXPECT_EQ(hardest.out.rfind("hardest: clusters of highest index ", 0), 0u) << hardest.out;
    EXPECT_EQ(read_text(out / ("hardest-" + metric + ".txt")), hardest.out) << metric;
  }
  const std::string census = read_text(out / "census.md");
  for (const std::string rule : {"any", "public"}) {
    SCOPED_TRACE(rule);
    const fs::path text = dir.path() / (rule + ".txt");
    ASSERT_EQ(run_rushhour(sweep + " --minimal --minimal-rule " + rule + " --clusters " +
                           (dir.path() / (rule + ".h5")).string() + " --clusters-text " + text.string())
                  .status,
              0);
    std::istringstream lines(read_text(text));
    std::string from_nine;
    std::size_t all = 0;
    for (std::string line; std::getline(lines, line); ++all)
      if (std::stoi(line) >= 9) from_nine += line + "\n";
    ASSERT_FALSE(from_nine.empty());
    EXPECT_EQ(read_text(out / rule / "minimal-hardest-1000-move.txt"), from_nine);
    // The "all" row of the table per index: the rule's minimal clusters with 0-1 walls.
    std::smatch row;
    ASSERT_TRUE(std::regex_search(census, row, std::regex("\n\\| all \\|([^\n]*)\n"))) << census;
    const std::vector<std::string> cells = fields_of(row[1].str(), '|');
    ASSERT_EQ(cells.size(), 9u) << row[0];
    EXPECT_EQ(cells[rule == "any" ? 5 : 8], std::to_string(all)) << census;
  }
}

// scripts/clusters_minimal.sh where more than 1000 minimal clusters qualify for the hardest
// list (step metric, from a both-metrics database): the list is the first 1000 lines of the
// minimal sweep's text list. The sorted candidates then exceed a pipe's buffer, so a reader
// that stops at line 1000 can end the script by SIGPIPE (it did, now and then).
TEST(Scripts, ClustersMinimalCutsALongListAtAThousand) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("clusters_minimal_long");
  const std::string sweep = "classify --engine classes --threads 2 -q --size 5 --domain puzzle --walls 1";
  const fs::path both = dir.path() / "both.h5";
  ASSERT_EQ(run_rushhour(sweep + " --metric move --clusters-metrics both --clusters " + both.string()).status, 0);
  const std::string metric = "step";
  const fs::path minimal_text = dir.path() / ("minimal-" + metric + ".txt");
  ASSERT_EQ(run_rushhour(sweep + " --metric " + metric + " --minimal --clusters " +
                         (dir.path() / (metric + ".h5")).string() + " --clusters-text " + minimal_text.string())
                .status,
            0);
  std::istringstream lines(read_text(minimal_text));
  std::string first_thousand;
  std::size_t listed = 0;
  for (std::string line; std::getline(lines, line); ++listed)
    if (listed < 1000) first_thousand += line + "\n";
  ASSERT_GT(listed, 4000u);
  const fs::path keep = dir.path() / "keep";
  const CommandRun run = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/clusters_minimal.sh " +
                                   both.string() + " " + metric + " " + keep.string() + " " + RUSHHOUR_BINARY + " 2");
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  EXPECT_EQ(read_text(keep / ("minimal-hardest-1000-" + metric + ".txt")), first_thousand);
}

// scripts/clusters_minimal.sh on a both-metrics database: under each metric its counts are
// the minimal sweep's clusters per highest index, and its hardest list is the minimal
// sweep's text list (fewer than 1000 clusters here, so all of it).
TEST(Scripts, ClustersMinimalEqualsTheMinimalSweeps) {
  if (!fs::exists(kPython)) GTEST_SKIP() << kPython << " is missing";
  TempDir dir("clusters_minimal_script");
  const std::string sweep = "classify --engine classes --threads 2 -q --size 5 --max-cars 4 --max-trucks 1";
  const fs::path both = dir.path() / "both.h5";
  const fs::path both_text = dir.path() / "both.txt";
  ASSERT_EQ(run_rushhour(sweep + " --metric move --clusters-metrics both --clusters " + both.string() + " --clusters-text " +
                         both_text.string())
                .status,
            0);
  for (const std::string metric : {"step", "move"}) {
    SCOPED_TRACE(metric);
    const fs::path minimal_text = dir.path() / ("minimal-" + metric + "-sweep.txt");
    ASSERT_EQ(run_rushhour(sweep + " --metric " + metric + " --minimal --clusters " + (dir.path() / (metric + ".h5")).string() +
                           " --clusters-text " + minimal_text.string())
                  .status,
              0);
    const fs::path keep = dir.path() / "keep";
    const CommandRun run = run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/clusters_minimal.sh " +
                                     both.string() + " " + metric + " " + keep.string() + " " + RUSHHOUR_BINARY + " 2");
    ASSERT_EQ(run.status, 0) << run.err << run.out;
    const std::string sweep_list = read_text(minimal_text);
    ASSERT_FALSE(sweep_list.empty());
    EXPECT_EQ(read_text(keep / ("minimal-hardest-1000-" + metric + ".txt")), sweep_list);
    // After the attributes, the minimal clusters per highest index: the sweep's lines of each index.
    std::map<int, int> per_index;
    std::istringstream lines(sweep_list);
    for (std::string line; std::getline(lines, line);) ++per_index[std::stoi(line)];
    const std::string summary = read_text(keep / ("minimal-" + metric + ".txt"));
    const std::string heading = "clusters per highest index (" + metric + " metric):\n";
    ASSERT_NE(summary.find(heading), std::string::npos) << summary;
    EXPECT_NE(summary.find("\nminimal 1\n"), std::string::npos) << summary;
    std::istringstream table(summary.substr(summary.find(heading) + heading.size()));
    std::map<int, int> listed;
    int rows = 0;
    for (int index = 0, minimal = 0; table >> index >> minimal; ++rows) listed[index] = minimal;
    EXPECT_EQ(listed, per_index);
    EXPECT_GT(rows, 4);
  }
  // scripts/check_minimal.py agrees with the move list by board searches, and finds a list
  // with one minimal cluster left out wrong.
  const fs::path keep = dir.path() / "keep";
  const std::string check = script("check_minimal.py") + " " + RUSHHOUR_BINARY + " " + both.string() + " move " +
                            both_text.string() + " ";
  const CommandRun agreed = run_shell(check + (keep / "minimal-hardest-1000-move.txt").string() + " 40");
  ASSERT_EQ(agreed.status, 0) << agreed.err << agreed.out;
  EXPECT_NE(agreed.out.find("\n40 clusters checked, 0 disagreements"), std::string::npos) << agreed.out;
  EXPECT_NE(agreed.out.find("not minimal"), std::string::npos) << agreed.out;
  // Without the first minimal cluster the check meets.
  const std::string first = agreed.out.substr(0, agreed.out.find(": minimal\n"));
  const std::string board = first.substr(first.rfind('\n') + 1).substr(first.substr(first.rfind('\n') + 1).find(' ') + 1);
  std::istringstream minimal_lines(read_text(keep / "minimal-hardest-1000-move.txt"));
  std::size_t left_out = 0;
  {
    std::ofstream doctored(dir.path() / "doctored.txt");
    for (std::string line; std::getline(minimal_lines, line);) {
      if (line.find(" " + board) != std::string::npos && ++left_out) continue;
      doctored << line << "\n";
    }
  }
  ASSERT_EQ(left_out, 1u) << board;
  const CommandRun disagreed = run_shell(check + (dir.path() / "doctored.txt").string() + " 40");
  EXPECT_EQ(disagreed.status, 1) << disagreed.err << disagreed.out;
  EXPECT_NE(disagreed.out.find("DISAGREES"), std::string::npos) << disagreed.out;
  // scripts/plot_clusters.py plots the two summaries, each labelled as minimal only.
  const CommandRun plot = run_shell(script("plot_clusters.py") + " " + (keep / "minimal-step.txt").string() + " " +
                                    (keep / "minimal-move.txt").string() + " --out " + (dir.path() / "plot.svg").string());
  ASSERT_EQ(plot.status, 0) << plot.err;
  EXPECT_EQ(occurrences(plot.out, "(minimal only)"), 2u) << plot.out;
}

}  // namespace
