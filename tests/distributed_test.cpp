// A class sweep spread over processes: parts merged, and MPI ranks (mpirun, oversubscribed on
// this machine), killed and resumed, against the single-process run figure by figure.
#include "run/distributed.hpp"

#include "run/run_directory.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "board/errors.hpp"
#include "cli_test_support.hpp"
#include "storage/class_checkpoint.hpp"

namespace rushhour::run {
namespace {

using testing::CommandRun;
using testing::run_rushhour;
using testing::run_shell;
using testing::TempDir;

TEST(ItemParts, EveryItemIsInExactlyOnePart) {
  const std::uint64_t items = 1000;
  for (int parts : {1, 3, 7, 20}) {
    std::vector<int> owner(items, 0);
    for (int part = 1; part <= parts; ++part)
      for (const ItemRange& r : part_items(items, {part, parts}))
        for (std::uint64_t item = r.begin; item < r.end; ++item) ++owner[item];
    for (std::uint64_t item = 0; item < items; ++item) ASSERT_EQ(owner[item], 1) << parts << " parts, item " << item;
  }
  EXPECT_EQ(part_items(items, {}), (std::vector<ItemRange>{{0, items}}));
  EXPECT_EQ(parse_item_part("2/5"), (ItemPart{2, 5}));
  for (const char* bad : {"0/3", "4/3", "3", "1/0", "1/2x", "-1/2"}) EXPECT_THROW(parse_item_part(bad), InputError) << bad;
}

// A run's figures: its checkpoint without the seconds, and its summary without the timing line.
std::string figures_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "classes-checkpoint.txt");
  std::string line, text;
  while (std::getline(in, line))
    if (line.rfind("seconds ", 0) != 0 && line.rfind("checksum ", 0) != 0) text += line + "\n";
  return text;
}
std::string summary_of(const std::string& out) {
  std::istringstream in(out);
  std::string line, text;
  while (std::getline(in, line))
    if (line.find(" s, peak RSS") == std::string::npos) text += line + "\n";
  return text;
}

// The single-process run of `args` in `dir`: its summary (figures_of(dir) holds the rest).
std::string reference_run(const std::string& args, const std::string& dir) {
  const CommandRun run = run_rushhour("classify " + args + " --threads 1 -q --out " + dir);
  EXPECT_EQ(run.status, 0) << run.err;
  return summary_of(run.out);
}

class ItemPartsRun : public ::testing::TestWithParam<std::string> {};

TEST_P(ItemPartsRun, MergedPartsEqualTheWholeRun) {
  const TempDir dir("rushhour_parts");
  const std::string args = "--size 5 --engine classes --metric " + GetParam();
  const std::string whole = reference_run(args, dir / "whole");
  for (int part = 1; part <= 3; ++part) {
    const CommandRun run = run_rushhour("classify " + args + " --threads 2 -q --items " + std::to_string(part) +
                                        "/3 --out " + dir / ("part" + std::to_string(part)));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("part " + std::to_string(part) + "/3 of 5x5"), std::string::npos) << run.out;
    EXPECT_FALSE(std::filesystem::exists(dir / ("part" + std::to_string(part)) + "/classification.h5"));
  }
  const CommandRun merged =
      run_rushhour("merge --out " + dir / "merged" + " " + dir / "part3" + " " + dir / "part1" + " " + dir / "part2");
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(summary_of(merged.out), whole);
  EXPECT_EQ(figures_of(dir.path() / "merged"), figures_of(dir.path() / "whole"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "merged" / "classification.h5"));
  // The merged run answers queries like the whole one.
  const CommandRun query = run_rushhour("query --run " + dir / "merged" + " --hardest --json");
  const CommandRun expected = run_rushhour("query --run " + dir / "whole" + " --hardest --json");
  EXPECT_EQ(query.status, 0) << query.err;
  EXPECT_EQ(query.out, expected.out);
}

INSTANTIATE_TEST_SUITE_P(BothMetrics, ItemPartsRun, ::testing::Values("step", "move"));

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
    ClassCheckpoint(dir.path() / "unfinished", part_parameters(class_sweep_identity(rules, 5, 10, true), {2, 2})).save(empty);
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
  // Progress per rank, from rank 0 only.
  EXPECT_NE(run.err.find(std::to_string(ranks) + " ranks"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("; per rank items (busy seconds) "), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    SmallBoards, MpiRanks,
    ::testing::Combine(::testing::Values("--size 5", "--size 6 --max-vehicles 5"), ::testing::Values("step", "move"),
                       ::testing::Values(2, 3)),
    [](const ::testing::TestParamInfo<MpiCase>& param) {
      return std::string(std::get<0>(param.param) == "--size 5" ? "5x5" : "6x6_5vehicles") + "_" +
             std::get<1>(param.param) + "_" + std::to_string(std::get<2>(param.param)) + "ranks";
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
  const std::vector<pid_t> ranks = children_of(job);
  ASSERT_EQ(::kill(job, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(job, &status, 0), job);
  // The ranks lose their launcher and end; a resume must not run beside them.
  for (pid_t rank : ranks) {
    for (int k = 0; k < 1000 && ::kill(rank, 0) == 0; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (::kill(rank, 0) == 0) {
      ADD_FAILURE() << "rank process " << rank << " outlived its killed mpirun by 10 s";
      ::kill(rank, SIGKILL);
    }
  }
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
// end the job with exit 1, so that a --resume in one process retries them: the figures of the resumed job are the single process's.
TEST(MpiRefused, ItemsRefusedOnAWorkerRankAreRetriedByResume) {
  MPIRUN_OR_SKIP(two, 2);
  const TempDir dir("rushhour_mpi_refused");
  const std::string args = "--size 5 --engine classes --metric move";
  const std::string single = reference_run(args, dir / "single");
  const CommandRun bounded = run_shell(*two + " classify " + args + " --threads 1 --max-memory 100K --out " + dir / "job");
  EXPECT_EQ(bounded.status, 1) << bounded.err;
  EXPECT_NE(bounded.err.find("--resume in one process (without mpirun) with more memory retries them"),
            std::string::npos)
      << bounded.err;
  // Resumed under mpirun, the refused items still stop the job; in one process they run.
  const CommandRun again = run_shell(*two + " classify " + args + " --threads 1 --resume --out " + dir / "job");
  EXPECT_EQ(again.status, 1) << again.err;
  const CommandRun resumed = run_rushhour("classify " + args + " --threads 1 --resume --out " + dir / "job");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(summary_of(resumed.out), single);
  EXPECT_EQ(figures_of(dir.path() / "job"), figures_of(dir.path() / "single"));
}

}  // namespace
}  // namespace rushhour::run
