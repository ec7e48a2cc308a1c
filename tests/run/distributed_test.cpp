// A class sweep spread over processes: parts merged, and MPI ranks (mpirun, oversubscribed on
// this machine), killed and resumed, against the single-process run figure by figure.
#include "run/merge_parts.hpp"
#include "run/environment.hpp"

#include "run/run_directory.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "board/errors.hpp"
#include "class_sweep_support.hpp"
#include "cli_test_support.hpp"
#include "encoding/line_partition.hpp"
#include "reference_figures.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/classification_file.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("MpiKill.PartitionedRunKilledThenResumedWithAnotherRankCount", long);
RUSHHOUR_TEST_TIER_OF("SmallBoards/MpiParts.*/5x5_limited_rows", long);

namespace rushhour::run {
namespace {

using test_support::CommandRun;
using test_support::run_rushhour;
using test_support::run_shell;
using test_support::summary_of;
using test_support::TempDir;

TEST(ItemParts, EveryItemIsInExactlyOnePart) {
  const std::uint64_t items = 1000;
  for (int parts : {1, 2, 3, 4, 7, 8, 20}) {
    std::vector<int> owner(items, 0);
    for (int part = 1; part <= parts; ++part) {
      std::uint64_t last_end = 0;
      for (const ItemRange& r : part_items(items, {part, parts})) {
        EXPECT_LT(r.begin, r.end);
        EXPECT_TRUE(last_end == 0 || last_end < r.begin) << "ranges sorted and not adjacent";
        last_end = r.end;
        for (std::uint64_t item = r.begin; item < r.end; ++item) {
          ++owner[item];
          ASSERT_EQ(part_of_chunk(item / kPartChunk, parts), part) << parts << " parts, item " << item;
        }
      }
    }
    for (std::uint64_t item = 0; item < items; ++item) ASSERT_EQ(owner[item], 1) << parts << " parts, item " << item;
  }
  EXPECT_EQ(part_items(items, {}), (std::vector<ItemRange>{{0, items}}));
  EXPECT_EQ(parse_item_part("2/5"), (ItemPart{2, 5}));
  for (const char* bad : {"0/3", "4/3", "3", "1/0", "1/2x", "-1/2"}) EXPECT_THROW(parse_item_part(bad), InputError) << bad;
}

// The balance of the split, on the assignment of chunks itself: every part holds equally many
// chunks (within one) and one chunk of every window of N consecutive chunks, for any N and the
// item counts of 4x4 to 7x7; and on 6x6 (8 kind sequences per row, so chunk c's rows 3, 2, 1
// are the base-8 digits of c) no part is tied to kind sequences of a row: each part holds
// every kind sequence of each of those rows in about its share of 1/8 (a plain round robin
// gives part K of 8 a single kind sequence of row 3, and parts of 64 one of rows 2 and 3).
TEST(ItemParts, ChunksAreBalancedForAnyPartCount) {
  for (const std::uint64_t items : {std::uint64_t{8} * 8 * 8 * 8, class_work_items(Rules(5)),
                                    class_work_items(Rules(6)), class_work_items(Rules(7))}) {
    const std::uint64_t chunks = (items + kPartChunk - 1) / kPartChunk;
    for (int parts : {1, 2, 3, 4, 5, 7, 8, 16, 37, 64, 512, 1021}) {
      std::vector<std::uint64_t> held(static_cast<std::size_t>(parts) + 1, 0);
      std::vector<bool> seen(static_cast<std::size_t>(parts) + 1, false);
      for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
        if (chunk % static_cast<std::uint64_t>(parts) == 0) seen.assign(seen.size(), false);
        const int part = part_of_chunk(chunk, parts);
        ASSERT_TRUE(part >= 1 && part <= parts);
        ASSERT_FALSE(seen[static_cast<std::size_t>(part)]) << "part " << part << " twice in a window";
        seen[static_cast<std::size_t>(part)] = true;
        ++held[static_cast<std::size_t>(part)];
      }
      const auto [least, most] = std::minmax_element(held.begin() + 1, held.end());
      EXPECT_LE(*most - *least, 1u) << items << " items, " << parts << " parts";
      if (parts <= 8) {  // and part_items agrees (the larger N are covered by the loop above)
        std::uint64_t total = 0;
        for (int part = 1; part <= parts; ++part)
          for (const ItemRange& r : part_items(items, {part, parts})) total += r.end - r.begin;
        EXPECT_EQ(total, items);
      }
    }
  }
  const std::uint64_t chunks = class_work_items(Rules(6)) / kPartChunk;
  ASSERT_EQ(chunks, 4096u);
  for (int parts : {2, 3, 4, 5, 7, 8, 16}) {
    for (int part = 1; part <= parts; ++part) {
      std::vector<std::uint64_t> mine;
      for (std::uint64_t chunk = 0; chunk < chunks; ++chunk)
        if (part_of_chunk(chunk, parts) == part) mine.push_back(chunk);
      for (const std::uint64_t digit : {std::uint64_t{1}, std::uint64_t{8}, std::uint64_t{64}}) {
        std::vector<double> share(8, 0);
        for (const std::uint64_t chunk : mine) share[chunk / digit % 8] += 8.0 / static_cast<double>(mine.size());
        for (int kind = 0; kind < 8; ++kind)
          EXPECT_TRUE(share[static_cast<std::size_t>(kind)] > 0.5 && share[static_cast<std::size_t>(kind)] < 1.5)
              << "part " << part << "/" << parts << ", kind sequence " << kind << " of the row of digit " << digit
              << ": " << share[static_cast<std::size_t>(kind)] << " of its share";
      }
    }
  }
}

// Parts K/N of 5x5, each swept on its own and merged in reverse order: the state of the whole
// sweep, item by item, for N = 2, 3, 4, 8 and both metrics.
TEST(ItemParts, PartsOf5x5MergedEqualTheWholeSweep) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(5, -1, metric);
    ClassEngineOptions options;
    options.threads = 2;
    const std::uint64_t items = class_work_items(rules);
    ClassSweepState whole = test_support::sweep_item_ranges(rules, {{0, items}}, options);
    whole.seconds = 0;
    for (int parts : {2, 3, 4, 8}) {
      ClassSweepState merged;
      for (int part = parts; part >= 1; --part) {
        const ClassSweepState state = test_support::sweep_item_ranges(rules, part_items(items, {part, parts}), options);
        EXPECT_GT(state.states, 0u) << "part " << part << "/" << parts << " holds configurations";
        add_sweep(merged, state, options.samples_per_index, options.sample_indices);
      }
      merged.seconds = 0;
      EXPECT_EQ(merged, whole) << parts << " parts, " << to_string(metric);
    }
  }
}

// A run's figures: its checkpoint without the seconds, and its summary without the timing line.
std::string figures_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "classes-checkpoint.txt");
  std::string line, text;
  while (std::getline(in, line))
    if (line.rfind("seconds ", 0) != 0 && line.rfind("checksum ", 0) != 0) text += line + "\n";
  return text;
}

// The single-process run of `args` in `dir`: its summary (figures_of(dir) holds the rest).
std::string reference_run(const std::string& args, const std::string& dir) {
  const CommandRun run = run_rushhour("classify " + args + " --threads 1 -q --out " + dir);
  EXPECT_EQ(run.status, 0) << run.err;
  return summary_of(run.out);
}

using PartsCase = std::tuple<std::string, int>;  // metric, parts

class ItemPartsRun : public ::testing::TestWithParam<PartsCase> {};

TEST_P(ItemPartsRun, MergedPartsEqualTheWholeRun) {
  const auto& [metric, parts] = GetParam();
  const TempDir dir("rushhour_parts");
  const std::string args = "--size 5 --engine classes --metric " + metric;
  const std::string whole = reference_run(args, dir / "whole");
  const std::string of = "/" + std::to_string(parts);
  std::string directories;  // the last part first
  for (int part = 1; part <= parts; ++part) {
    const std::string out = dir / ("part" + std::to_string(part));
    const CommandRun run = run_rushhour("classify " + args + " --threads 2 -q --items " + std::to_string(part) + of +
                                        " --out " + out);
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("part " + std::to_string(part) + of + " of 5x5"), std::string::npos) << run.out;
    EXPECT_FALSE(std::filesystem::exists(out + "/classification.h5"));
    directories = " " + out + directories;
  }
  const CommandRun merged = run_rushhour("merge --out " + dir / "merged" + directories);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(summary_of(merged.out), whole);
  EXPECT_EQ(figures_of(dir.path() / "merged"), figures_of(dir.path() / "whole"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "merged" / "classification.h5"));
  // The merged run answers queries like the whole one.
  const CommandRun query = run_rushhour("query --run " + dir / "merged" + " --hardest --json");
  const CommandRun expected = run_rushhour("query --run " + dir / "whole" + " --hardest --json");
  EXPECT_EQ(query.status, 0) << query.err;
  EXPECT_EQ(query.out, expected.out);
  // It verifies like the whole one, its parts' item records solved again.
  const CommandRun verified = run_rushhour("verify --run " + dir / "merged");
  EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("ok    items: 20 of "), std::string::npos) << verified.out;
}

INSTANTIATE_TEST_SUITE_P(BothMetrics, ItemPartsRun,
                         ::testing::Combine(::testing::Values("step", "move"), ::testing::Values(2, 3, 4, 8)),
                         [](const ::testing::TestParamInfo<PartsCase>& param) {
                           return std::get<0>(param.param) + "_" + std::to_string(std::get<1>(param.param)) + "parts";
                         });

// A part whose items are refused by the memory bound ends with exit 1 and lists them in its
// checkpoint; its --resume with more memory runs them, and the merged parts equal the whole.
TEST(ItemPartsRun, APartsResumeRetriesItsRefusedItems) {
  const TempDir dir("rushhour_part_refused");
  const std::string args = "--size 5 --engine classes --metric move";
  const std::string whole = reference_run(args, dir / "whole");
  const std::string part1 = "classify " + args + " --threads 1 -q --items 1/2 --out " + dir / "part1";
  const CommandRun bounded = run_rushhour(part1 + " --max-memory 100K");
  EXPECT_EQ(bounded.status, 1) << bounded.err;
  EXPECT_NE(bounded.err.find("--resume with more memory retries them"), std::string::npos) << bounded.err;
  const auto saved = ClassCheckpoint::read(dir.path() / "part1");
  ASSERT_TRUE(saved.has_value());
  EXPECT_FALSE(saved->state.refused.empty());
  // A merge refuses the part while refused items are missing from its figures.
  ASSERT_EQ(run_rushhour("classify " + args + " --threads 1 -q --items 2/2 --out " + dir / "part2").status, 0);
  const CommandRun early = run_rushhour("merge --out " + dir / "merged " + dir / "part1 " + dir / "part2");
  EXPECT_EQ(early.status, 2) << early.err;
  EXPECT_NE(early.err.find("work items refused by the memory bound (--resume it with more memory)"), std::string::npos)
      << early.err;
  const CommandRun resumed = run_rushhour(part1 + " --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_TRUE(ClassCheckpoint::read(dir.path() / "part1")->state.refused.empty());
  const CommandRun merged = run_rushhour("merge --out " + dir / "merged " + dir / "part1 " + dir / "part2");
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(summary_of(merged.out), whole);
  EXPECT_EQ(figures_of(dir.path() / "merged"), figures_of(dir.path() / "whole"));
}

TEST(ItemPartsRun, WrongMissingDuplicatedOrUnfinishedPartsAreRefused) {
  const TempDir dir("rushhour_bad_parts");
  const std::string args = "classify --size 4 --engine classes --threads 1 -q ";
  for (int part = 1; part <= 2; ++part)
    ASSERT_EQ(run_rushhour(args + "--items " + std::to_string(part) + "/2 --out " + dir / ("p" + std::to_string(part))).status, 0);
  ASSERT_EQ(run_rushhour(args + "--metric move --items 2/2 --out " + dir / "move2").status, 0);
  ASSERT_EQ(run_rushhour(args + "--items 2/3 --out " + dir / "of3").status, 0);
  ASSERT_EQ(run_rushhour(args + "--out " + dir / "whole").status, 0);
  // A part that stopped early: its checkpoint holds none of its items.
  {
    const Rules rules(4);
    ClassSweepState empty;
    empty.items = class_work_items(rules);
    empty.tallies.resize(9 * 6);
    RunDirectory(dir.path() / "unfinished").class_checkpoint({.rules = rules, .part = {2, 2}}).save(empty);
  }
  const auto refused = [&](const std::string& parts, const std::string& reason) {
    const CommandRun run = run_rushhour("merge --out " + dir / "merged " + parts);
    EXPECT_EQ(run.status, 2) << parts;
    EXPECT_NE(run.err.find(reason), std::string::npos) << parts << ": " << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "merged" / "classification.h5")) << parts;
  };
  refused(dir / "p1", "parts missing: 2 of 2");
  refused(dir / "p1 " + dir / "p2 " + dir / "p2", "part 2/2 is given twice");
  refused(dir / "p1 " + dir / "move2", "a part of other parameters");
  refused(dir / "p1 " + dir / "of3", "of a split into 3");
  refused(dir / "p1 " + dir / "whole", "not a part");
  refused(dir / "p1 " + dir / "unfinished", "is not finished");
  refused(dir / "p1 " + dir / "nowhere", "no class sweep checkpoint");
  EXPECT_EQ(run_rushhour("merge --out " + dir / "merged " + dir / "p1 " + dir / "p2").status, 0);
  // --items without --out, or with another engine, is bad usage.
  EXPECT_EQ(run_rushhour("classify --size 4 --engine classes --items 1/2").status, 2);
  EXPECT_EQ(run_rushhour("classify --size 4 --engine explicit --items 1/2 --out " + dir / "x").status, 2);
  EXPECT_EQ(run_rushhour("classify --size 4 --engine classes --items 3/2 --out " + dir / "x").status, 2);
}

// ---- MPI ----------------------------------------------------------------------------------

// "mpirun ... -np N" with what CI needs (root, more ranks than cores), or nullopt with the
// reason it cannot run here.
std::optional<std::string> mpirun(int ranks, std::string* why) {
  if (!mpi_built_in()) {
    *why = "this rushhour is built without MPI (install libopenmpi-dev: scripts/setup.sh)";
    return std::nullopt;
  }
  if (run_shell("command -v mpirun").status != 0) {
    *why = "mpirun is not installed (openmpi-bin: scripts/setup.sh)";
    return std::nullopt;
  }
  return "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 mpirun "
         "--oversubscribe -np " +
         std::to_string(ranks) + " " + RUSHHOUR_BINARY;
}

#define MPIRUN_OR_SKIP(variable, ranks)                 \
  std::string why_##variable;                           \
  const auto variable = mpirun(ranks, &why_##variable); \
  if (!variable) GTEST_SKIP() << why_##variable;

using MpiCase = std::tuple<std::string, std::string, int>;  // board options, metric, ranks

class MpiRanks : public ::testing::TestWithParam<MpiCase> {};

TEST_P(MpiRanks, GiveTheFiguresOfTheSingleProcessRun) {
  const auto& [board, metric, ranks] = GetParam();
  MPIRUN_OR_SKIP(command, ranks);
  const TempDir dir("rushhour_mpi");
  const std::string args = board + " --engine classes --metric " + metric;
  const std::string single = reference_run(args, dir / "single");
  const CommandRun run = run_shell(*command + " classify " + args + " --threads 1 --out " + dir / "ranks");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(summary_of(run.out), single);
  EXPECT_EQ(figures_of(dir.path() / "ranks"), figures_of(dir.path() / "single"));
  // Progress in total and per rank, from rank 0 only.
  EXPECT_NE(run.err.find(std::to_string(ranks) + " ranks, work items "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("(100.0%), elapsed "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(", ETA 0 s"), std::string::npos) << run.err;
  for (int rank = 0; rank < ranks; ++rank)
    EXPECT_NE(run.err.find("classes: rank " + std::to_string(rank) + ": "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("(its dealing thread "), std::string::npos) << run.err;
}

// A work sample over ranks sweeps the items one process sweeps: the same classes and
// configurations (its rate differs).
TEST(MpiWorkSample, SweepsTheItemsOfTheSingleProcessSample) {
  MPIRUN_OR_SKIP(two, 2);
  const std::string args = " classify --size 5 --engine classes --work-sample 7 --threads 1";
  const CommandRun single = run_rushhour(args + " -q");
  const CommandRun ranks = run_shell(*two + args);
  ASSERT_EQ(single.status, 0) << single.err;
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  const auto figures = [](const std::string& out) { return out.substr(0, out.find(" in ")); };
  EXPECT_NE(single.out.find("work sample 1/7: "), std::string::npos) << single.out;
  EXPECT_EQ(figures(ranks.out), figures(single.out));
  EXPECT_NE(ranks.err.find("classes: rank 1: "), std::string::npos) << ranks.err;
  // With vehicle limits one process samples within them: refused under a launcher.
  EXPECT_EQ(run_shell(*two + args + " --max-vehicles 3").status, 2);
}

INSTANTIATE_TEST_SUITE_P(
    SmallBoards, MpiRanks,
    ::testing::Combine(::testing::Values("--size 5", "--size 6 --max-vehicles 5"), ::testing::Values("step", "move"),
                       ::testing::Values(2, 3)),
    [](const ::testing::TestParamInfo<MpiCase>& param) {
      return std::string(std::get<0>(param.param) == "--size 5" ? "5x5" : "6x6_5vehicles") + "_" +
             std::get<1>(param.param) + "_" + std::to_string(std::get<2>(param.param)) + "ranks";
    });

// Walls over ranks: the records of each item carry its walls, the census its tallies per
// number of walls.
INSTANTIATE_TEST_SUITE_P(WalledBoards, MpiRanks,
                         ::testing::Combine(::testing::Values("--size 5 --walls 1 --max-vehicles 4"),
                                            ::testing::Values("step", "move"), ::testing::Values(2)),
                         [](const ::testing::TestParamInfo<MpiCase>& param) {
                           return "5x5_walls1_4vehicles_" + std::get<1>(param.param) + "_" +
                                  std::to_string(std::get<2>(param.param)) + "ranks";
                         });

// Starts `command` (output to files in dir) and returns its pid: mpirun's own.
pid_t start(const std::string& command, const TempDir& dir) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string exec = "exec " + command + " >" + dir / "killed.out" + " 2>" + dir / "killed.err";
    ::execl("/bin/sh", "sh", "-c", exec.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// The pid of rank `rank` among the children of `parent` (from their environment).
std::optional<pid_t> rank_pid(pid_t parent, int rank) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    fields >> state >> ppid;
    if (ppid != parent) continue;
    std::ifstream environ(entry.path() / "environ");
    std::string variable;
    while (std::getline(environ, variable, '\0'))
      if (variable == "OMPI_COMM_WORLD_RANK=" + std::to_string(rank)) return static_cast<pid_t>(std::stoi(name));
  }
  return std::nullopt;
}

std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (int rank = 0; rank < 8; ++rank)
    if (const auto pid = rank_pid(parent, rank)) children.push_back(*pid);
  return children;
}

// Kills mpirun (SIGKILL) and waits for its ranks, which lose their launcher and end: a resume
// must not run beside them.
void kill_mpirun(pid_t job) {
  const std::vector<pid_t> ranks = children_of(job);
  ASSERT_EQ(::kill(job, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(job, &status, 0), job);
  for (pid_t rank : ranks) {
    for (int k = 0; k < 1000 && ::kill(rank, 0) == 0; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (::kill(rank, 0) == 0) {
      ADD_FAILURE() << "rank process " << rank << " outlived its killed mpirun by 10 s";
      ::kill(rank, SIGKILL);
    }
  }
}

// Waits until the checkpoint in dir holds some but not all items; false if the job ended first.
bool wait_for_partial_checkpoint(const std::filesystem::path& dir, pid_t job) {
  for (int k = 0; k < 6000; ++k) {
    int status = 0;
    if (::waitpid(job, &status, WNOHANG) == job) return false;
    try {
      if (const auto saved = ClassCheckpoint::read(dir); saved && saved->state.items_done() > 0)
        return saved->state.items_done() < saved->state.items;
    } catch (const InputError&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

const char* const kKillBoard = "--size 6 --max-vehicles 6 --max-trucks 1 --engine classes --metric move";

TEST(MpiKill, ARankKilledThenResumedWithAnotherRankCount) {
  MPIRUN_OR_SKIP(three, 3);
  MPIRUN_OR_SKIP(two, 2);
  const TempDir dir("rushhour_mpi_kill_rank");
  const std::string single = reference_run(kKillBoard, dir / "single");
  const pid_t job = start(*three + " classify " + kKillBoard + " --threads 1 --checkpoint-seconds 0.2 --out " + dir / "job", dir);
  ASSERT_TRUE(wait_for_partial_checkpoint(dir.path() / "job", job)) << "the job ended before the kill";
  std::optional<pid_t> victim;
  for (int k = 0; k < 500 && !victim; ++k, std::this_thread::sleep_for(std::chrono::milliseconds(10)))
    victim = rank_pid(job, 2);
  ASSERT_TRUE(victim.has_value());
  ASSERT_EQ(::kill(*victim, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(job, &status, 0), job);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream err(dir / "killed.err");
  std::stringstream text;
  text << err.rdbuf();
  EXPECT_NE(text.str().find("rank 2"), std::string::npos) << text.str();
  const auto saved = ClassCheckpoint::read(dir.path() / "job");
  ASSERT_TRUE(saved.has_value());
  EXPECT_LT(saved->state.items_done(), saved->state.items);

  const CommandRun resumed = run_shell(*two + " classify " + kKillBoard + " --threads 1 --resume --out " + dir / "job");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming with"), std::string::npos) << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), single);
  EXPECT_EQ(figures_of(dir.path() / "job"), figures_of(dir.path() / "single"));
}

TEST(MpiKill, MpirunKilledThenResumedWithAnotherRankCount) {
  MPIRUN_OR_SKIP(two, 2);
  MPIRUN_OR_SKIP(three, 3);
  const TempDir dir("rushhour_mpi_kill_mpirun");
  const std::string single = reference_run(kKillBoard, dir / "single");
  const pid_t job = start(*two + " classify " + kKillBoard + " --threads 1 --checkpoint-seconds 0.2 --out " + dir / "job", dir);
  ASSERT_TRUE(wait_for_partial_checkpoint(dir.path() / "job", job)) << "the job ended before the kill";
  kill_mpirun(job);
  const CommandRun resumed = run_shell(*three + " classify " + kKillBoard + " --threads 1 --resume --out " + dir / "job");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), single);
  EXPECT_EQ(figures_of(dir.path() / "job"), figures_of(dir.path() / "single"));
  // And a resume without mpirun finds the job finished and writes the same figures.
  const CommandRun again = run_rushhour(std::string("classify ") + kKillBoard + " --threads 1 -q --resume --out " + dir / "job");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(summary_of(again.out), single);
}


// Items a worker rank refuses (a class above the memory bound) reach rank 0's checkpoint and
// end the job with exit 1; a --resume retries them, under mpirun (bounded again: still refused;
// with more memory: run) or in one process, and ends with the single process's figures.
TEST(MpiRefused, ItemsRefusedOnAWorkerRankAreRetriedByResume) {
  MPIRUN_OR_SKIP(two, 2);
  const TempDir dir("rushhour_mpi_refused");
  const std::string args = "--size 5 --engine classes --metric move";
  const std::string single = reference_run(args, dir / "single");
  const CommandRun bounded = run_shell(*two + " classify " + args + " --threads 1 --max-memory 100K --out " + dir / "job");
  EXPECT_EQ(bounded.status, 1) << bounded.err;
  EXPECT_NE(bounded.err.find("--resume with more memory retries them"), std::string::npos) << bounded.err;
  const std::size_t refused = ClassCheckpoint::read(dir.path() / "job")->state.refused.size();
  EXPECT_GT(refused, 0u);
  const CommandRun again =
      run_shell(*two + " classify " + args + " --threads 1 --max-memory 100K --resume --out " + dir / "job");
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_NE(again.err.find(std::to_string(refused) + " work items refused by the memory bound run again"),
            std::string::npos)
      << again.err;
  const CommandRun resumed = run_shell(*two + " classify " + args + " --threads 1 --resume --out " + dir / "job");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), single);
  EXPECT_EQ(figures_of(dir.path() / "job"), figures_of(dir.path() / "single"));
}

// ---- MPI: the parts of a partitioned bdd run ---------------------------------------------

std::size_t part_files(const std::filesystem::path& run) {
  std::size_t count = 0;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(run / "parts", error), end; !error && it != end;
       it.increment(error))
    count += it->is_regular_file() ? 1 : 0;
  return count;
}

std::vector<std::uint64_t> layer_nodes(const std::filesystem::path& run) {
  std::vector<std::uint64_t> nodes;
  for (const LayerFigures& layer : read_classification(run / "classification.h5").layers) nodes.push_back(layer.bdd_nodes);
  return nodes;
}

struct MpiPartsCase {
  std::string name;
  std::string board;  // the options that make `rules`
  Rules rules;
  std::string partition;  // with the dominance options
  bool dominance;
};

class MpiParts : public ::testing::TestWithParam<MpiPartsCase> {};

// Two ranks deal the parts: every figure is the explicit engine's, the summary and the BDD
// nodes the single process's, every part is saved; a third of the part files removed, three
// ranks resume from the others and give them again; a query answers as on the single run.
TEST_P(MpiParts, GiveTheExplicitFiguresAndResumeFromTheSavedParts) {
  const MpiPartsCase& c = GetParam();
  MPIRUN_OR_SKIP(two, 2);
  MPIRUN_OR_SKIP(three, 3);
  const TempDir dir("rushhour_mpi_parts");
  const std::string args = " classify " + c.board + " --partition " + c.partition;
  const CommandRun single = run_rushhour(args + " --part-workers 1 -q --out " + dir / "single");
  ASSERT_EQ(single.status, 0) << single.err;
  const CommandRun ranks = run_shell(*two + args + " --out " + dir / "ranks");
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  EXPECT_EQ(summary_of(ranks.out), summary_of(single.out));
  const Classification& expected = test_support::explicit_figures(c.rules);
  test_support::expect_same_figures(read_classification(dir.path() / "ranks" / "classification.h5"), expected,
                               {.dominance = c.dominance, .samples = true});
  EXPECT_EQ(layer_nodes(dir.path() / "ranks"), layer_nodes(dir.path() / "single"));
  EXPECT_NE(ranks.err.find(", 2 MPI ranks"), std::string::npos) << ranks.err;
  EXPECT_NE(ranks.err.find("rank 1: "), std::string::npos) << ranks.err;
  const std::uint64_t parts = part_files(dir.path() / "single");
  EXPECT_EQ(part_files(dir.path() / "ranks"), parts);

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() / "ranks" / "parts"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::size_t removed = 0;
  for (std::size_t k = 1; k < files.size(); k += 3) removed += std::filesystem::remove(files[k]) ? 1 : 0;
  ASSERT_GT(removed, 0u);
  const CommandRun resumed = run_shell(*three + args + " --resume --out " + dir / "ranks");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resumed " + std::to_string(parts - removed) + " finished parts"), std::string::npos)
      << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), summary_of(single.out));
  test_support::expect_same_figures(read_classification(dir.path() / "ranks" / "classification.h5"), expected,
                               {.dominance = c.dominance, .samples = true});
  EXPECT_EQ(layer_nodes(dir.path() / "ranks"), layer_nodes(dir.path() / "single"));
  EXPECT_EQ(part_files(dir.path() / "ranks"), parts);
  for (const std::string query : {" --hardest --sample 3", " --index 2 --count --cars 2"})
    EXPECT_EQ(run_rushhour("query --run " + dir / "ranks" + query).out,
              run_rushhour("query --run " + dir / "single" + query).out)
        << query;
}

INSTANTIATE_TEST_SUITE_P(
    SmallBoards, MpiParts,
    ::testing::Values(
        MpiPartsCase{"4x4_rows", "--size 4", Rules(4), "rows --dominance-by symbolic", true},
        // Every rank computes the first layers on the whole domain and its parts read them.
        MpiPartsCase{"4x4_move_rows_whole_layers", "--size 4 --metric move", Rules(4, -1, Metric::Move),
                     "rows --dominance-by symbolic --whole-layers 3", true},
        // rows+2 (4·6³·6² parts, each file written and synced) only with vehicle limits.
        MpiPartsCase{"4x4_move_exit0_limited_rows2", "--size 4 --metric move --exit-row 0 --max-cars 3 --max-trucks 1",
                     Rules(4, 0, Metric::Move, {.max_cars = 3, .max_trucks = 1}), "rows+2 --dominance-by symbolic",
                     true},
        // The class sweep's dominance figures, on rank 0 after the parts.
        MpiPartsCase{"4x4_move_classes", "--size 4 --metric move", Rules(4, -1, Metric::Move), "rows", true},
        // 5x5 with at most 5 vehicles: its many parts over the ranks in seconds (the whole 5x5
        // rows partition is checked without MPI in partitioned_run_test).
        MpiPartsCase{"5x5_limited_rows", "--size 5 --max-vehicles 5", Rules(5, -1, Metric::Step, {.max_vehicles = 5}),
                     "rows --no-dominance", false}),
    [](const ::testing::TestParamInfo<MpiPartsCase>& param) { return param.param.name; });

TEST(MpiParts, OptionsOfOneProcessAreRefused) {
  MPIRUN_OR_SKIP(two, 2);
  const CommandRun workers = run_shell(*two + " classify --size 4 --partition rows --part-workers 2 -q");
  EXPECT_EQ(workers.status, 2);
  EXPECT_NE(workers.err.find("start a rank per core"), std::string::npos) << workers.err;
  const CommandRun whole = run_shell(*two + " classify --size 4 --engine bdd -q");
  EXPECT_EQ(whole.status, 2);
  EXPECT_NE(whole.err.find("--engine bdd with --partition"), std::string::npos) << whole.err;
}

// --part-files figures on the ranks: rank 0 keeps the finished parts' summed figures in the
// checkpoint, no rank writes a part file; the explicit engine's figures and the single
// process's BDD nodes. A single process's part files, a third of them removed, resumed so on
// three ranks: rank 0 takes in the others, the ranks classify the rest, the same figures.
TEST(MpiParts, FiguresOnlyRunKeepsTheCheckpointOnRankZero) {
  MPIRUN_OR_SKIP(two, 2);
  MPIRUN_OR_SKIP(three, 3);
  const TempDir dir("rushhour_mpi_figures");
  const std::string args = " classify --size 4 --metric move --partition rows --dominance-by symbolic";
  const CommandRun single = run_rushhour(args + " --part-workers 1 -q --out " + dir / "single");
  ASSERT_EQ(single.status, 0) << single.err;
  const Classification& expected = test_support::explicit_figures(Rules(4, -1, Metric::Move));
  const CommandRun ranks = run_shell(*two + args + " --part-files figures --out " + dir / "ranks");
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  EXPECT_EQ(summary_of(ranks.out), summary_of(single.out));
  test_support::expect_same_figures(read_classification(dir.path() / "ranks" / "classification.h5"), expected,
                               {.dominance = true, .samples = true});
  EXPECT_EQ(layer_nodes(dir.path() / "ranks"), layer_nodes(dir.path() / "single"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "ranks" / "parts"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "ranks" / "parts-checkpoint.txt"));

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() / "single" / "parts"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::size_t removed = 0;
  for (std::size_t k = 1; k < files.size(); k += 3) removed += std::filesystem::remove(files[k]) ? 1 : 0;
  const CommandRun resumed = run_shell(*three + args + " --part-files figures --resume --out " + dir / "single");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("took the figures of " + std::to_string(files.size() - removed) + " part files"),
            std::string::npos)
      << resumed.err;
  test_support::expect_same_figures(read_classification(dir.path() / "single" / "classification.h5"), expected,
                               {.dominance = true, .samples = true});
  EXPECT_EQ(layer_nodes(dir.path() / "single"), layer_nodes(dir.path() / "ranks"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "single" / "parts"));
}

// A partitioned run on two ranks whose mpirun is killed (SIGKILL) while parts are being saved,
// resumed on three ranks: the explicit engine's figures and the uninterrupted run's summary.
TEST(MpiKill, PartitionedRunKilledThenResumedWithAnotherRankCount) {
  MPIRUN_OR_SKIP(two, 2);
  MPIRUN_OR_SKIP(three, 3);
  const TempDir dir("rushhour_mpi_kill_parts");
  const std::string args = " classify --size 5 --metric move --partition rows --no-dominance";
  const CommandRun single = run_rushhour(args + " --part-workers 1 -q");
  ASSERT_EQ(single.status, 0) << single.err;
  const pid_t job = start(*two + args + " --out " + dir / "job", dir);
  bool partial = false;
  for (int k = 0; k < 6000 && !partial; ++k) {
    int status = 0;
    ASSERT_NE(::waitpid(job, &status, WNOHANG), job) << "the job ended before the kill";
    partial = part_files(dir.path() / "job") > 100;
    if (!partial) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(partial);
  kill_mpirun(job);
  const std::size_t saved = part_files(dir.path() / "job");
  const Rules rules(5, -1, Metric::Move);
  EXPECT_LT(saved, count_parts(parse_partition("rows", rules), rules));
  const CommandRun resumed = run_shell(*three + args + " --resume --out " + dir / "job");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resumed "), std::string::npos) << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), summary_of(single.out));
  test_support::expect_same_figures(read_classification(dir.path() / "job" / "classification.h5"),
                               test_support::explicit_figures(rules), {.dominance = false, .samples = true});
}

// Three hosts made of network namespaces, joined over TCP (scripts/netns_hosts.sh): a class
// sweep and a partitioned bdd run give one process's digest; a host killed and a link taken down
// mid-job end the job with every received item in the checkpoint, and --resume on the two hosts
// left gives one process's digest (scripts/netns_job_check.sh prints a line per check).
TEST(AcrossHosts, FiguresAndFaults) {
  const CommandRun run =
      run_shell("bash " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/netns_job_check.sh " + RUSHHOUR_BINARY);
  if (run.status == 3) GTEST_SKIP() << run.err;
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  std::istringstream lines(run.out);
  int passed = 0;
  for (std::string line; std::getline(lines, line);) passed += line.rfind("ok ", 0) == 0;
  EXPECT_EQ(passed, 6) << run.out;
}

}  // namespace
}  // namespace rushhour::run
