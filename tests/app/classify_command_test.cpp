// Golden runs of `rushhour classify`: the summary, the result file, exit statuses for bad
// input, node-table exhaustion with the finished layers kept, and resuming from them.
#include <gtest/gtest.h>

#include "explicit/counting.hpp"

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <regex>

#include "cli_test_support.hpp"
#include "reference_figures.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/explicit_engine.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/classification_file.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("ClassifyCommand.TerminatedDominancePassResumesFromItsCheckpoint", long);
RUSHHOUR_TEST_TIER_OF("ClassifyCommand.DominancePassInSlicesReachesTheSameFigures", long);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

using test_support::expect_same_figures;

// Runs `rushhour ARGS --log LOG` in the background, sends SIGNAL (e.g. "TERM") as soon as LOG
// holds a line matching the grep pattern `line` (giving up after a minute) and waits for it.
test_support::CommandRun run_and_signal_when_logged(const std::string& args, const std::string& log,
                                               const std::string& line, const std::string& signal) {
  return test_support::run_shell(std::string(RUSHHOUR_BINARY) + " " + args + " --log " + log +
                            " & pid=$!; for i in $(seq 1200); do grep -q '" + line + "' " + log +
                            " 2>/dev/null && break; sleep 0.05; done; kill -" + signal + " $pid; wait $pid");
}

TEST(ClassifyCommand, FourByFourSummaryAndResultFile) {
  TempDir dir("classify_4x4");
  const auto run = run_rushhour("classify --size 4 --out " + dir.path().string());
  ASSERT_EQ(run.status, 0) << run.err;
  // The summary with its timing line stripped.
  const std::string summary = std::regex_replace(run.out, std::regex("\n[0-9.e+-]+ s, peak RSS.*\n$"), "\n");
  EXPECT_EQ(summary,
            "rushhour classify: 4x4, exit row 1, step metric, no vehicle limits\n"
            "engine bdd, encoding slot, order interleaved\n"
            "domain 13146, winning 4592, solvable 9444, unsolvable 3702, max index 10\n"
            "\n"
            "index  configurations  non-dominated  components\n"
            "    0            4592           2061         659\n"
            "    1            1919            481         151\n"
            "    2            1263            526         147\n"
            "    3             743             73          52\n"
            "    4             497             55          43\n"
            "    5             250             46          35\n"
            "    6             106             41          35\n"
            "    7              44              9           8\n"
            "    8              22              9           9\n"
            "    9               6              2           2\n"
            "   10               2              2           2\n"
            "\n"
            "hardest configuration (index 10): ooBCAABCooDDooEE\n"
            "ooBC\n"
            "AABC <exit\n"
            "ooDD\n"
            "ooEE\n"
            "\n"
            // The digest of these figures: fixed, so that digests stay comparable across versions.
            "run digest 517e4855b01d884d (its figures)\n");
  // One progress line per layer on stderr, layers 0 to 10.
  std::istringstream progress(run.err);
  std::vector<int> layer_lines;
  for (std::string line; std::getline(progress, line);)
    if (int index = -1; std::sscanf(line.c_str(), "layer %d:", &index) == 1) layer_lines.push_back(index);
  EXPECT_EQ(layer_lines, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})) << run.err;

  const Classification stored = read_classification(dir.path() / "classification.h5");
  const Classification expected = test_support::explicit_figures(Rules(4));
  expect_same_figures(stored, expected);
  EXPECT_EQ(stored.engine, "bdd");
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "layers" / "layer-0010.bdd"));
}

// Each engine through the command line: the file it writes holds the explicit engine's
// figures (the engines themselves are compared in every case by tests/engine_test.cpp).
class ClassifyEveryEngine : public ::testing::TestWithParam<std::string> {};

TEST_P(ClassifyEveryEngine, WritesTheExplicitEnginesFigures) {
  const std::string engine = GetParam();
  TempDir dir("classify_engine_" + engine);
  const auto run = run_rushhour("classify --engine " + engine + " --size 4 --metric move -q --out " +
                                dir.path().string() + (engine == "explicit" ? "" : " --threads 2"));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("engine " + engine), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("domain 13146, winning 4592, solvable 9444, unsolvable 3702, max index 7"), std::string::npos)
      << run.out;
  const Classification stored = read_classification(dir.path() / "classification.h5");
  const Classification& expected = test_support::explicit_figures(Rules(4, -1, Metric::Move));
  EXPECT_EQ(stored.engine, engine);
  expect_same_figures(stored, expected, {.samples = engine != "bdd"});
}

INSTANTIATE_TEST_SUITE_P(Engines, ClassifyEveryEngine, ::testing::Values("bdd", "explicit", "classes"));

// Runs `args --resume` and compares the classification it writes with the explicit engine's.
void expect_resume_gives_explicit_figures(const std::string& args, const std::filesystem::path& dir, const Rules& rules) {
  const auto resumed = run_rushhour(args + " --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const Classification stored = read_classification(dir / "classification.h5");
  expect_same_figures(stored, test_support::explicit_figures(rules), {.samples = true});
}

TEST(ClassifyCommand, ClassesEngineStoppedRunResumesToTheSameFigures) {
  TempDir dir("classify_classes_resume");
  const std::string log = dir / "progress.log";
  const std::string args = "classify --engine classes --threads 1 --size 5 --metric step -q "
                           "--checkpoint-seconds 0 --out " + dir.path().string();
  // SIGINT as soon as the first progress line is written: the signal handlers are in place
  // by then and the sweep has not finished, so the run must stop at a safe point.
  const auto first = run_and_signal_when_logged(args, log, ".", "INT");
  ASSERT_EQ(first.status, 130) << first.err;
  EXPECT_NE(first.err.find("stopped by signal 2"), std::string::npos) << first.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "classification.h5"));
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(dir.path());
  ASSERT_TRUE(saved.has_value());
  EXPECT_LT(saved->state.next_item, saved->state.items) << "the sweep was not stopped early";
  const auto second = run_rushhour(args + " --log " + log + " --resume");
  ASSERT_EQ(second.status, 0) << second.err;
  const Classification stored = read_classification(dir.path() / "classification.h5");
  expect_same_figures(stored, test_support::explicit_figures(Rules(5, -1, Metric::Step)), {.samples = true});

  // Another metric in the same directory is refused.
  const auto other = run_rushhour("classify --engine classes --size 5 --metric move -q --resume --out " +
                                  dir.path().string());
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_NE(other.err.find("other parameters"), std::string::npos) << other.err;
}

TEST(ClassifyCommand, ClassesItemsAboveTheMemoryBoundAreRefusedAndRetriedByResume) {
  TempDir dir("classify_classes_refused");
  const std::string args = "classify --engine classes --threads 2 --size 5 --metric move -q --out " + dir.path().string();
  // 100 KiB for two threads (about 2 300 states of a class each): the largest 5x5 classes do
  // not fit, nor does the symbolic path's first node table.
  const auto first = run_rushhour(args + " --max-memory 100K");
  EXPECT_EQ(first.status, 1) << first.err;
  EXPECT_NE(first.err.find("work items hold a class above the memory bound"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("--resume with more memory retries them"), std::string::npos) << first.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "classification.h5"));
  expect_resume_gives_explicit_figures(args, dir.path(), Rules(5, -1, Metric::Move));
}

TEST(ClassifyCommand, ClassesSymbolicAboveGivesTheExplicitFigures) {
  TempDir dir("classify_classes_symbolic");
  const auto run = run_rushhour("classify --engine classes --threads 2 --size 4 --metric move --symbolic-above 10 -q --out " +
                                dir.path().string());
  ASSERT_EQ(run.status, 0) << run.err;
  expect_same_figures(read_classification(dir.path() / "classification.h5"),
                      test_support::explicit_figures(Rules(4, -1, Metric::Move)), {.samples = true});
}

TEST(ClassifyCommand, ClassesOnBitSetsGiveTheExplicitFigures) {
  TempDir dir("classify_classes_bits");
  const auto run = run_rushhour("classify --engine classes --threads 2 --size 5 --metric move --bit-search-above 0 -q --out " +
                                dir.path().string());
  ASSERT_EQ(run.status, 0) << run.err;
  expect_same_figures(read_classification(dir.path() / "classification.h5"),
                      test_support::explicit_figures(Rules(5, -1, Metric::Move)), {.samples = true});
}

// 7x7 moves: a column's digit slides by up to 13 places either way, the widest shifts.
TEST(ClassifyCommand, ClassesOnBitSetsGiveTheStateByStateFiguresOn7x7Moves) {
  TempDir dir("classify_classes_bits_7x7");
  const std::string common = "classify --engine classes --threads 2 --size 7 --max-vehicles 5 --metric move -q --out ";
  const auto bits = run_rushhour(common + (dir.path() / "bits").string() + " --bit-search-above 0");
  ASSERT_EQ(bits.status, 0) << bits.err;
  const auto states = run_rushhour(common + (dir.path() / "states").string() + " --bit-search-above never");
  ASSERT_EQ(states.status, 0) << states.err;
  expect_same_figures(read_classification(dir.path() / "bits" / "classification.h5"),
                      read_classification(dir.path() / "states" / "classification.h5"), {.samples = true});
}

TEST(ClassifyCommand, ClassesWorkSamplePrintsItsRate) {
  const auto run = run_rushhour("classify --engine classes --size 5 --work-sample 7");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("work sample 1/7: [1-9][0-9]* classes, [1-9][0-9]* "
                                                    "configurations in [0-9.]+ s, [0-9.]+ M configurations/s")))
      << run.out;
  const std::string all = run.out + run.err;
  EXPECT_NE(all.find("a work sample (every 7th item)"), std::string::npos) << all;
  EXPECT_EQ(all.find("stopped early"), std::string::npos) << all;
}

// Under vehicle limits the sizing lists every item's classes, so the estimate's memory counts
// the job's largest class where its sample does not solve it: the same class as when every
// item is drawn and solved.
TEST(ClassifyCommand, EstimateUnderLimitsCountsTheJobsLargestClass) {
  const auto largest = [](const std::string& out) {
    std::smatch match;
    if (std::regex_search(out, match, std::regex("plus a class of ([0-9]+) states, its largest, on each further thread")) ||
        std::regex_search(out, match, std::regex("the largest class the sized items hold, ([0-9]+) states, in place of "
                                                 "the sample's largest \\([0-9]+\\)")))
      return match[1].str();
    return std::string();
  };
  const std::string job = "classify --engine classes --size 5 --max-vehicles 4 --threads 2 --estimate --estimate-items ";
  const auto every_item = run_rushhour(job + "100000");
  const auto few_items = run_rushhour(job + "4");
  ASSERT_EQ(every_item.status, 0) << every_item.err;
  ASSERT_EQ(few_items.status, 0) << few_items.err;
  EXPECT_NE(largest(every_item.out), "") << every_item.out;
  EXPECT_EQ(largest(few_items.out), largest(every_item.out)) << few_items.out;
  // Four items drawn (seed 1) miss the largest class: the sizing supplies it.
  EXPECT_NE(few_items.out.find("in place of the sample's largest"), std::string::npos) << few_items.out;
}

// --estimate: the exact number of configurations, the sizes of the job's items (all of them
// on these boards), about --estimate-items of them solved, and the projection with its
// interval. Where every item is drawn (4x4, 40 items asked) the projection is the sample's
// own CPU and the interval 0; the same seed draws the same items.
TEST(ClassifyCommand, EstimateProjectsTheJobFromAStratifiedSample) {
  const std::regex report(
      "work sample: the sizes of (all ([0-9]+) work items|([0-9]+) of ([0-9]+) work items \\(one in ([0-9]+)\\)) in "
      "[0-9.]+ CPU s; ([0-9]+) of them solved, drawn from "
      "([0-9]+) strata of equal configurations and the items without any: ([0-9]+) configurations, ([0-9.]+) CPU s "
      "solving\nprojected CPU: ([0-9.]+) s \\+- ([0-9.]+) \\(95% interval: [0-9.]+ to [0-9.]+ CPU hours\\)\n"
      "projected wall on 2 threads: ");
  const Rules walled(5, -1, Metric::Move, {}, Domain::Puzzle, {0, 2});
  std::string first_draw;
  for (const std::string& board : {std::string("--size 5 --walls 2 --domain puzzle --metric move"),
                                   std::string("--size 4 --estimate-items 100000")}) {
    const auto run = run_rushhour("classify --engine classes --threads 2 --estimate " + board);
    ASSERT_EQ(run.status, 0) << run.err;
    const PlacementCounts counts = count_placements(board.starts_with("--size 4") ? Rules(4) : walled);
    EXPECT_NE(run.out.find("configurations: " + to_string(counts.domain) + " (exact count)"), std::string::npos)
        << run.out;
    std::smatch match;
    ASSERT_TRUE(std::regex_search(run.out, match, report)) << run.out;
    const std::uint64_t items = class_work_items(board.starts_with("--size 4") ? Rules(4) : walled);
    const auto drawn = std::stoull(match[6].str());
    EXPECT_GE(std::stoull(match[7].str()), 1u);
    EXPECT_LE(std::stoull(match[7].str()), 16u);
    if (board.starts_with("--size 4")) {
      EXPECT_EQ(std::stoull(match[2].str()), items);  // all of them sized
      EXPECT_EQ(match[8].str(), to_string(counts.domain));  // every item drawn: the whole job
      EXPECT_EQ(match[11].str(), "0.0");
      EXPECT_LT(drawn, items);  // only the items within the domain are solved
    } else {
      // 2 534 976 items: one in a prime stride sized.
      const auto sized = std::stoull(match[3].str()), stride = std::stoull(match[5].str());
      EXPECT_EQ(std::stoull(match[4].str()), items);
      EXPECT_EQ(sized, (items + stride - 1) / stride);
      EXPECT_LE(sized, 1u << 20);
      for (unsigned long long d = 2; d * d <= stride; ++d) EXPECT_NE(stride % d, 0u) << stride << " is not prime";
      EXPECT_GE(drawn, 100u);
      EXPECT_LE(drawn, 150u);
      EXPECT_LT(std::stoull(match[8].str()), static_cast<unsigned long long>(counts.domain));
      first_draw = match[6].str() + " " + match[8].str();
      const auto again = run_rushhour("classify --engine classes --threads 1 --estimate --estimate-seed 1 " + board);
      ASSERT_TRUE(std::regex_search(again.out, match, std::regex("([0-9]+) of them solved.*: ([0-9]+) configurations")))
          << again.out;
      EXPECT_EQ(match[1].str() + " " + match[2].str(), first_draw) << "the same seed, the same items";
    }
    EXPECT_NE(run.out.find("memory per process about "), std::string::npos) << run.out;
    // No item holds 2^28 configurations here: every one drawn is solved whole.
    std::smatch parts;
    ASSERT_TRUE(std::regex_search(run.out, parts, std::regex("projected CPU of the items by part: items solved whole ([0-9.]+)%, "
                                                                "column searches of the items solved by drawn classes ([0-9.]+)%, "
                                                                "classes state by state ([0-9.]+)%, classes in parts ([0-9.]+)%, "
                                                                "classes on bit sets ([0-9.]+)%, symbolic classes ([0-9.]+)%\n")))
        << run.out;
    EXPECT_EQ(parts[1].str(), "100.0") << run.out;
    for (int p = 2; p <= 6; ++p) EXPECT_EQ(parts[static_cast<std::size_t>(p)].str(), "0.0") << run.out;
    EXPECT_EQ(run.out.find("index  configurations"), std::string::npos) << "no classification: " << run.out;
  }
}

TEST(ClassifyCommand, DominanceByClassesAfterTheLayers) {
  TempDir dir("classify_dominance_by_classes");
  const std::string out = " -q --out " + dir.path().string();
  ASSERT_EQ(run_rushhour("classify --size 4 --metric move --no-dominance" + out).status, 0);
  const auto run = run_rushhour("classify --size 4 --metric move --dominance-by classes --threads 2 --resume" + out);
  ASSERT_EQ(run.status, 0) << run.err;
  const Classification stored = read_classification(dir.path() / "classification.h5");
  const Classification expected = test_support::explicit_figures(Rules(4, -1, Metric::Move));
  EXPECT_EQ(stored.engine, "bdd");
  expect_same_figures(stored, expected);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "classes-checkpoint.txt"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "layers" / "layer-0007.bdd"));
}

TEST(ClassifyCommand, CellEncodingRunIsQueryable) {
  TempDir dir("classify_cell");
  const auto run = run_rushhour("classify --size 4 --metric move --encoding cell -q --out " + dir.path().string());
  ASSERT_EQ(run.status, 0) << run.err;
  const Classification stored = read_classification(dir.path() / "classification.h5");
  const Classification expected = test_support::explicit_figures(Rules(4, -1, Metric::Move));
  EXPECT_EQ(stored.encoding, "cell");
  expect_same_figures(stored, expected);
  const auto query = run_rushhour("query --run " + dir.path().string() + " --index 2 --cars 3 --count --sample 0 --json");
  ASSERT_EQ(query.status, 0) << query.err;
  EXPECT_EQ(query.out.rfind("{\"index\": 2, \"count\": ", 0), 0u) << query.out;
}

TEST(ClassifyCommand, ConfigFileAndCommandLine) {
  TempDir dir("classify_config");
  {
    std::ofstream cfg(dir / "job.cfg");
    cfg << "# comment\nsize = 5\nmetric = move\nmax-vehicles = 3\n";
  }
  // The command line wins over the file.
  const auto run = run_rushhour("classify --config " + (dir / "job.cfg") + " --size 4 -q");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("4x4, exit row 1, move metric, <= 3 vehicles"), std::string::npos)
      << run.out;
}

struct BadInput {
  std::string args;
  std::string reason;  // a piece of the one-line message
};

class ClassifyRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(ClassifyRejects, WithStatusTwoAndOneLine) {
  TempDir dir("classify_bad");
  {
    std::ofstream(dir / "unknown-key.cfg") << "size = 5\ncolour = red\n";
    std::ofstream(dir / "bad-value.cfg") << "size = five\n";
  }
  std::string args = GetParam().args;
  args = std::regex_replace(args, std::regex("DIR"), dir.path().string());
  const auto run = run_rushhour(args);
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(GetParam().reason), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

// BuDDy's counts are doubles, exact up to 2^53; the 8x8 domain is beyond 2^64. The refusal
// comes from the counting polynomial, before the run directory or any BDD exists.
TEST(ClassifyCommand, TheBddEngineRefusesADomainBeyondExactDoublesBeforeAnyWork) {
  TempDir dir("classify_8x8_bdd");
  const auto run = run_rushhour("classify --size 8 --out " + dir / "run");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_EQ(run.err,
            "rushhour: the bdd engine counts exactly up to 2^53 configurations; 8x8, exit row 3, "
            "step metric, no vehicle limits has 52282990070597671149 (set vehicle limits)\n");
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

INSTANTIATE_TEST_SUITE_P(
    BadOptions, ClassifyRejects,
    ::testing::Values(BadInput{"classify", "needs --size"},
                      BadInput{"classify --size 9", "outside 2..8"},
                      BadInput{"classify --size 1", "outside 2..8"},
                      BadInput{"classify --size x", "size"},
                      BadInput{"classify --size 6 --exit-row 6", "exit row 6 is outside"},
                      BadInput{"classify --size 4 --metric jump", "unknown metric 'jump'"},
                      BadInput{"classify --size 4 --max-cars two", "max-cars"},
                      BadInput{"classify --size 4 --max-trucks -3", ">= 0"},
                      BadInput{"classify --size 4 --engine magic", "unknown engine"},
                      BadInput{"classify --size 4 --order zigzag", "unknown variable order"},
                      BadInput{"classify --size 4 --encoding dots", "expected slot or cell"},
                      BadInput{"classify --size 4 --encoding cell --line-code slot", "slot encoding only"},
                      BadInput{"classify --size 4 --engine explicit --order rows-columns",
                               "bdd engine only"},
                      BadInput{"classify --size 4 --engine classes --encoding cell", "bdd engine only"},
                      BadInput{"classify --size 4 --dominance-by symbolic --threads 2", "class sweeps only"},
                      BadInput{"classify --size 4 --engine classes --threads -1", "--threads must be"},
                      BadInput{"classify --size 4 --engine explicit --out DIR --resume",
                               "--resume applies to the bdd and classes engines only"},
                      BadInput{"classify --size 4 --engine classes --checkpoint-seconds -1",
                               "--checkpoint-seconds must be"},
                      BadInput{"classify --size 4 --no-dominance --checkpoint-seconds 5", "--checkpoint-seconds applies to class sweeps"},
                      BadInput{"classify --size 4 --engine classes --work-sample 0", "--work-sample must be"},
                      BadInput{"classify --size 4 --engine classes --work-sample 3 --out DIR",
                               "benchmark of the classes engine"},
                      BadInput{"classify --size 5 --no-dominance --no-mirror", "class sweeps only"},
                      BadInput{"classify --size 4 --engine explicit --symbolic-above 10", "class sweeps only"},
                      BadInput{"classify --size 4 --engine classes --symbolic-above many",
                               "--symbolic-above: 'many' is not auto, bound or a number"},
                      BadInput{"classify --size 4 --engine explicit --bit-search-above 10", "class sweeps only"},
                      BadInput{"classify --size 4 --engine classes --bit-search-above -3",
                               "--bit-search-above: '-3' is not auto, never or a number"},
                      BadInput{"classify --size 4 --engine classes --bit-search-above 0 --clusters DIR/c.h5",
                               "not with --bit-search-above"},
                      BadInput{"classify --size 4 --dominance-by magic", "unknown --dominance-by 'magic'"},
                      BadInput{"classify --size 4 --engine explicit --dominance-by classes",
                               "--dominance-by applies to the bdd engine"},
                      BadInput{"classify --size 4 --no-dominance --dominance-by classes",
                               "goes with the dominance figures"},
                      BadInput{"classify --size 5 --engine classes --max-memory lots", "not a size"},
                      BadInput{"classify --size 4 --frobnicate", "frobnicate"},
                      BadInput{"classify --size 4 --walls 1 --partition rows", "not with --walls"},
                      BadInput{"classify --size 4 --estimate", "--estimate"},
                      BadInput{"classify --size 4 --engine classes --estimate --items 1/2", "--estimate samples"},
                      BadInput{"classify --size 4 --engine classes --estimate --work-sample 3", "--estimate samples"},
                      BadInput{"classify --size 4 --engine classes --estimate-items 40", "go with --estimate"},
                      BadInput{"classify --size 4 --engine classes --estimate-seed 4", "go with --estimate"},
                      BadInput{"classify --size 4 --engine classes --estimate --estimate-items 1", "--estimate-items must"},
                      BadInput{"classify --size 4 --estimate-items 40", "--estimate-items"},
                      BadInput{"classify --size 4 --walls 1-2 --engine classes --symbolic-above 100",
                               "--symbolic-above"},
                      BadInput{"classify --size 4 --walls 3-1 --engine explicit", "wall range '3-1' is empty"},
                      BadInput{"classify --size 4 --walls 15 --engine explicit", "15 walls do not fit on a 4x4 board"},
                      BadInput{"classify --size 4 --walls two --engine explicit", "is not K or A-B"},
                      BadInput{"classify --size 6 --walls 1 --engine explicit --max-vehicles 3",
                               "the explicit engine supports walls up to 5x5"},
                      BadInput{"classify --size 4 --resume", "--resume needs --out"},
                      BadInput{"classify --size 4 --max-memory lots", "not a size"},
                      BadInput{"classify --config DIR/missing.cfg", "cannot read config file"},
                      BadInput{"classify --config DIR/unknown-key.cfg", "colour"},
                      BadInput{"classify --config DIR/bad-value.cfg", "size"},
                      BadInput{"classify --size 4 --dominance-by symbolic --dominance-indices some", "not auto, all"},
                      BadInput{"classify --size 4 --frontiers some", "unknown frontiers 'some'"},
                      BadInput{"classify --size 4 --dominance-by symbolic --dominance-stop -2", "--dominance-stop must be"},
                      BadInput{"classify --size 4 --no-dominance --dominance-stop 3",
                               "--dominance-stop applies to the symbolic dominance pass only"},
                      // Options that the chosen engine or dominance path would ignore.
                      BadInput{"classify --size 4 --exit-row -5", "exit row -5 is outside the board"},
                      BadInput{"classify --size 4 --dominance-indices 3",
                               "--dominance-indices applies to the symbolic dominance pass only"},
                      BadInput{"classify --size 4 --engine explicit --max-memory 1G",
                               "--max-memory applies to the bdd and classes engines only"},
                      BadInput{"classify --size 4 --engine classes --bdd-nodes 5000",
                               "--bdd-nodes applies to the bdd engine only"},
                      BadInput{"classify --size 4 --engine explicit --max-layers 3",
                               "--max-layers applies to the bdd engine only"},
                      BadInput{"classify --size 4 --engine classes --frontiers limited",
                               "--frontiers applies to the bdd engine only"},
                      BadInput{"classify --size 4 --engine explicit --dominance-stop 3",
                               "--dominance-stop applies to the bdd engine only"},
                      BadInput{"classify --size 4 --engine classes --dominance-components 9",
                               "--dominance-components applies to the bdd engine only"},
                      BadInput{"classify --size 4 --engine classes --rank-timeout 30",
                               "--rank-timeout applies under an MPI launcher only"},
                      BadInput{"classify --size 4 --engine classes --rank-timeout 4", "--rank-timeout must be >= 5"},
                      BadInput{"classify --size 4 --engine explicit --rank-timeout 30",
                               "--rank-timeout applies to jobs under an MPI launcher"},
                      BadInput{"frobnicate", "unknown command"}));

TEST(ClassifyCommand, NodeCeilingStopsWithStatusOneAndResumeFinishes) {
  TempDir dir("classify_ceiling");
  const std::string out = " --out " + dir.path().string();
  const auto stopped = run_rushhour("classify --size 5 -q --bdd-nodes 1000 --bdd-cache 100 --bdd-max-nodes 60000" + out);
  EXPECT_EQ(stopped.status, 1);
  EXPECT_NE(stopped.err.find("node table ceiling 60000 nodes reached"), std::string::npos) << stopped.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "layers" / "layer-0000.bdd"));

  const auto resumed = run_rushhour("classify --size 5 --resume --no-dominance" + out);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming after"), std::string::npos);
  const Classification stored = read_classification(dir.path() / "classification.h5");
  expect_same_figures(stored, test_support::explicit_figures(Rules(5)), {.dominance = false});
}

// A class sweep checkpoint that cannot be written ends the run with status 1 and the reason,
// not with SIGABRT from threads still running.
TEST(ClassifyCommand, ClassSweepCheckpointWriteFailureExitsOne) {
  TempDir dir("classify_checkpoint_fails");
  // The checkpoint's temporary file cannot be created where a non-empty directory stands.
  std::filesystem::create_directories(dir.path() / "classes-checkpoint.txt.tmp" / "blocker");
  const auto run = run_rushhour("classify --engine classes --size 5 --threads 2 -q "
                                "--checkpoint-seconds 0 --out " + dir.path().string());
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("rushhour: error: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("classes-checkpoint.txt"), std::string::npos) << run.err;
}

TEST(ClassifyCommand, ResumeRefusesARunWithOtherParameters) {
  TempDir dir("classify_other_run");
  const std::string out = " --out " + dir.path().string();
  ASSERT_EQ(run_rushhour("classify --size 4 -q --max-layers 3" + out).status, 0);
  const auto refused = run_rushhour("classify --size 4 --metric move --resume -q" + out);
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("other parameters"), std::string::npos) << refused.err;
}

// A walled run: the summary names the walls, the file records the wall range (so it reads
// back as the rules it was made with) and the figures of the engine in process.
TEST(ClassifyCommand, WalledExplicitRunRecordsItsWallRange) {
  TempDir dir("classify_walls");
  const auto run = run_rushhour("classify --size 4 --engine explicit --walls 1-2 --metric move --out " + (dir / "run"));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("4x4, exit row 1, move metric, 1-2 walls, no vehicle limits"), std::string::npos) << run.out;
  const Classification saved = read_classification(dir.path() / "run" / "classification.h5");
  const Rules rules(4, -1, Metric::Move, {}, Domain::All, {1, 2});
  EXPECT_EQ(saved.rules, rules);
  expect_same_figures(saved, classify_explicit(rules));
  // Its samples are walled boards.
  ASSERT_FALSE(saved.samples.empty());
  EXPECT_NE(saved.samples.front().board.find('x'), std::string::npos) << saved.samples.front().board;
}

// SIGTERM during a run: exit 143 after writing a valid result file at a safe point; the
// finished layers resume to the figures of an uninterrupted run.
TEST(ClassifyCommand, TerminatedRunStopsCleanlyAndResumes) {
  TempDir dir("classify_sigterm");
  const std::string out = " --out " + dir.path().string();
  const std::string log = (dir.path() / "progress.log").string();
  // SIGTERM once layer 3 is reported: the handlers are in place and 5x5 has 34 layers to go.
  const auto stopped = run_and_signal_when_logged("classify --size 5 -q" + out, log, "^layer   3:", "TERM");
  ASSERT_EQ(stopped.status, 143) << stopped.err;
  EXPECT_NE(stopped.err.find("stopped by signal 15"), std::string::npos) << stopped.err;
  const Classification partial = read_classification(dir.path() / "classification.h5");
  const Classification& expected = test_support::explicit_figures(Rules(5));
  EXPECT_FALSE(partial.complete) << "the run was not stopped early";
  ASSERT_GE(partial.layers.size(), 4u);
  ASSERT_LT(partial.layers.size(), expected.layers.size());
  for (std::size_t i = 0; i < partial.layers.size(); ++i)
    EXPECT_EQ(partial.layers[i].count, expected.layers[i].count) << "index " << i;
  EXPECT_TRUE(partial.nondominated.empty());

  ASSERT_EQ(run_rushhour("classify --size 5 -q --resume" + out).status, 0);
  const Classification resumed = read_classification(dir.path() / "classification.h5");
  expect_same_figures(resumed, expected);
}

// SIGTERM in the middle of the dominance pass: the pass is checkpointed after every index, and
// --resume continues it below the last finished index, to the explicit engine's figures.
TEST(ClassifyCommand, TerminatedDominancePassResumesFromItsCheckpoint) {
  TempDir dir("classify_dominance_resume");
  const std::string out = " --out " + dir.path().string();
  const std::string log = (dir.path() / "progress.log").string();
  const auto stopped =
      run_and_signal_when_logged("classify --size 5 --dominance-by symbolic -q" + out, log, "dominance index 12:", "TERM");
  ASSERT_EQ(stopped.status, 143) << stopped.err;
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "dominance" / "progress.txt"));

  const auto resumed_run = run_rushhour("classify --size 5 --dominance-by symbolic --resume" + out);
  ASSERT_EQ(resumed_run.status, 0) << resumed_run.err;
  EXPECT_NE(resumed_run.err.find("dominance resumed below index"), std::string::npos);
  EXPECT_EQ(resumed_run.err.find("dominance index 33:"), std::string::npos) << "started at the top";
  const Classification resumed = read_classification(dir.path() / "classification.h5");
  expect_same_figures(resumed, test_support::explicit_figures(Rules(5)));

  // Other dominance options: the checkpoint is not used.
  const auto other = run_rushhour("classify --size 5 --dominance-by symbolic --resume --dominance-indices 3" + out);
  ASSERT_EQ(other.status, 0) << other.err;
  EXPECT_NE(other.err.find("dominance starts at the top: the dominance checkpoint belongs to other parameters"),
            std::string::npos) << other.err;
}

// --dominance-stop ends the pass after an index like a safe stop, exit 0; slices taken with
// --resume add up to the explicit engine's figures.
TEST(ClassifyCommand, DominancePassInSlicesReachesTheSameFigures) {
  TempDir dir("classify_dominance_slices");
  const std::string out = " --out " + dir.path().string();
  const auto first = run_rushhour("classify --size 5 --metric move --dominance-by symbolic --dominance-stop 12" + out);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_NE(first.err.find("dominance index 12:"), std::string::npos);
  EXPECT_EQ(first.err.find("dominance index 11:"), std::string::npos);
  EXPECT_NE(first.err.find("dominance stopped after index 12 as asked"), std::string::npos);
  EXPECT_TRUE(read_classification(dir.path() / "classification.h5").nondominated.empty());

  const auto second = run_rushhour("classify --size 5 --metric move --dominance-by symbolic --resume --dominance-stop 5" + out);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_NE(second.err.find("dominance resumed below index 12"), std::string::npos);
  EXPECT_EQ(second.err.find("dominance index 12:"), std::string::npos);
  EXPECT_NE(second.err.find("dominance index 5:"), std::string::npos);
  EXPECT_EQ(second.err.find("dominance index 4:"), std::string::npos);

  const auto last = run_rushhour("classify --size 5 --metric move --dominance-by symbolic --resume" + out);
  ASSERT_EQ(last.status, 0) << last.err;
  EXPECT_NE(last.err.find("dominance resumed below index 5"), std::string::npos);
  const Classification finished = read_classification(dir.path() / "classification.h5");
  expect_same_figures(finished, test_support::explicit_figures(Rules(5, -1, Metric::Move)));
}

TEST(ClassifyCommand, StoppedRunResumesToTheSameFigures) {
  TempDir dir("classify_resume");
  const std::string out = " --out " + dir.path().string();
  const auto partial = run_rushhour("classify --size 4 -q --max-layers 4" + out);
  ASSERT_EQ(partial.status, 0) << partial.err;
  EXPECT_NE(partial.out.find("INCOMPLETE"), std::string::npos);
  const Classification stopped = read_classification(dir.path() / "classification.h5");
  EXPECT_FALSE(stopped.complete);
  ASSERT_EQ(stopped.layers.size(), 4u);
  ASSERT_EQ(run_rushhour("classify --size 4 -q --resume" + out).status, 0);
  const Classification resumed = read_classification(dir.path() / "classification.h5");
  const Classification expected = test_support::explicit_figures(Rules(4));
  expect_same_figures(resumed, expected);
  // The layer files keep what each layer took, so the resumed run reports the first run's
  // seconds for the layers it loaded, to the bit.
  for (std::size_t i = 0; i < resumed.layers.size(); ++i) {
    EXPECT_GE(resumed.layers[i].seconds, 0.0) << "layer " << i;
    if (i < stopped.layers.size()) {
      EXPECT_EQ(resumed.layers[i].seconds, stopped.layers[i].seconds) << "layer " << i;
    }
  }
}

}  // namespace
}  // namespace rushhour
