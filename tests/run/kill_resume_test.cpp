// SIGKILL at chosen moments of a `rushhour classify` run, each time resumed with --resume: the
// final result file must equal an uninterrupted run's. The long version (20 random kills over
// a full 5x5 run with dominance, compared with h5py) is scripts/kill_resume.py.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "reference_figures.hpp"
#include "storage/classification_file.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("KillResume.PartitionedRunOnTwoWorkersResumesAfterAKillOrAStop", long);
RUSHHOUR_TEST_TIER_OF("KillResume.FiguresOnlyPartitionedRunResumesAfterAKill", long);

extern char** environ;

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;
namespace fs = std::filesystem;

// The .tmp files under `dir` with their modification times.
std::map<fs::path, fs::file_time_type> tmp_files(const fs::path& dir) {
  std::map<fs::path, fs::file_time_type> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code gone;
    const auto time = fs::last_write_time(it->path(), gone);
    if (it->path().extension() == ".tmp" && !gone) found[it->path()] = time;
  }
  return found;
}

// True while a .tmp file is being written: one that is new or rewritten since `stale` (a kill
// may leave a stale one behind, which the next write overwrites).
bool fresh_tmp(const fs::path& dir, const std::map<fs::path, fs::file_time_type>& stale) {
  for (const auto& [path, time] : tmp_files(dir))
    if (auto it = stale.find(path); it == stale.end() || it->second != time) return true;
  return false;
}

// Starts `rushhour classify ARGS` (its output to /dev/null) in a process group of its own,
// polls `signal_when` every 0.2 ms and sends `signal` the moment it holds, to the process or,
// with `to_group`, to its whole group (as a terminal's Ctrl-C does). Returns the wait status,
// and in *sent whether the signal was sent (false: the run finished first).
int run_and_signal(const std::vector<std::string>& args, const std::function<bool()>& signal_when, int signal,
                   bool* sent, bool to_group = false) {
  *sent = false;
  std::vector<std::string> argv_text{RUSHHOUR_BINARY, "classify"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  EXPECT_EQ(spawned, 0);
  if (spawned != 0) return -1;
  int status = 0;
  while (true) {
    if (waitpid(pid, &status, WNOHANG) == pid) return status;
    if (signal_when()) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  kill(to_group ? -pid : pid, signal);
  *sent = true;
  waitpid(pid, &status, 0);
  return status;
}

// run_and_signal with SIGKILL: true if the process was killed, false if it finished first
// (status 0).
bool run_and_kill(const std::vector<std::string>& args, const std::function<bool()>& kill_when) {
  bool sent = false;
  const int status = run_and_signal(args, kill_when, SIGKILL, &sent);
  if (!sent) {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "raw status " << status;
    return false;
  }
  // It may have finished between the check and the kill.
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// The BDD nodes of every layer, a resumed run's against the uninterrupted run's.
void expect_same_layer_nodes(const Classification& result, const Classification& reference) {
  std::vector<std::uint64_t> nodes, reference_nodes;
  for (const auto& layer : result.layers) nodes.push_back(layer.bdd_nodes);
  for (const auto& layer : reference.layers) reference_nodes.push_back(layer.bdd_nodes);
  EXPECT_EQ(nodes, reference_nodes);
}

TEST(KillResume, SigkillDuringLayersAndWritesThenResumeGivesTheUninterruptedResult) {
  TempDir dir("kill_resume");
  const std::string reference_dir = dir / "reference";
  const fs::path killed = dir.path() / "killed";
  ASSERT_EQ(run_rushhour("classify --size 5 --no-dominance -q --out " + reference_dir).status, 0);
  const Classification reference = read_classification(fs::path(reference_dir) / "classification.h5");

  const std::vector<std::string> args{"--size", "5", "--no-dominance", "-q", "--resume",
                                      "--out", killed.string()};
  auto layer_exists = [&](int index) {
    char name[32];
    std::snprintf(name, sizeof name, "layer-%04d.bdd", index);
    return fs::exists(killed / "layers" / name);
  };
  // 1. Mid-run: as soon as layer 3 is on disk (--resume with no layers starts afresh).
  EXPECT_TRUE(run_and_kill(args, [&] { return layer_exists(3); })) << "the run finished before layer 3 was seen";
  // 2. While a later layer file is being written (its .tmp exists), or failing that once
  //    layer 12 is done.
  const auto stale_layers = tmp_files(killed / "layers");
  EXPECT_TRUE(run_and_kill(args, [&] { return fresh_tmp(killed / "layers", stale_layers) || layer_exists(12); }))
      << "the resumed run finished before a layer was written";
  // 3. While classification.h5 is being written: its .tmp is fresh. The write takes a few
  //    milliseconds and the poll may miss it; the kill is recorded, not required.
  const auto stale = tmp_files(killed);
  const fs::path result_tmp = killed / "classification.h5.tmp";
  const bool killed_writing = run_and_kill(args, [&] {
    const auto now = tmp_files(killed);
    const auto it = now.find(result_tmp);
    return it != now.end() && (!stale.contains(result_tmp) || stale.at(result_tmp) != it->second);
  });
  RecordProperty("killed_while_writing_the_result", killed_writing ? 1 : 0);

  const auto resumed = run_rushhour("classify --size 5 --no-dominance -q --resume --out " + killed.string());
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const Classification result = read_classification(killed / "classification.h5");
  test_support::expect_same_figures(result, reference, {.samples = true});
  expect_same_layer_nodes(result, reference);
}

// The part files of a partitioned run in `dir` so far.
std::size_t killed_part_files(const fs::path& dir) {
  std::size_t count = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir / "parts", ec), end; !ec && it != end; it.increment(ec))
    count += it->path().extension() == ".bdd" ? 1 : 0;
  return count;
}

// A partitioned run on two worker processes (whose parts are files of their own): SIGKILL once
// some parts are saved and again while a part file is written; --resume continues with the
// unfinished parts and gives the uninterrupted run's figures (its BDD nodes too). Then the
// same after a SIGTERM, which the run obeys.
TEST(KillResume, PartitionedRunOnTwoWorkersResumesAfterAKillOrAStop) {
  TempDir dir("kill_resume_parts");
  const std::string reference_dir = dir / "reference";
  const fs::path killed = dir.path() / "killed";
  const std::string options = "--size 5 --partition rows --part-workers 2 --no-dominance -q";
  ASSERT_EQ(run_rushhour("classify " + options + " --out " + reference_dir).status, 0);
  const Classification reference = read_classification(fs::path(reference_dir) / "classification.h5");

  const std::vector<std::string> args{"--size", "5", "--partition", "rows", "--part-workers", "2",
                                      "--no-dominance", "-q", "--resume", "--out", killed.string()};
  const auto saved_parts = [&] { return killed_part_files(killed); };
  // 1. Once 300 of the 3888 parts are saved.
  EXPECT_TRUE(run_and_kill(args, [&] { return saved_parts() >= 300; })) << "the run finished before 300 parts";
  const std::size_t after_first = saved_parts();
  // 2. While a part file is being written (its .tmp is fresh), or failing that at 2000 parts.
  const auto stale = tmp_files(killed / "parts");
  EXPECT_TRUE(run_and_kill(args, [&] { return fresh_tmp(killed / "parts", stale) || saved_parts() >= 2000; }))
      << "the resumed run finished before a part was written";
  EXPECT_GE(saved_parts(), after_first);

  const auto resumed = run_rushhour("classify " + options + " --resume --out " + killed.string());
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const Classification result = read_classification(killed / "classification.h5");
  test_support::expect_same_figures(result, reference, {.dominance = false, .samples = true});
  expect_same_layer_nodes(result, reference);
  EXPECT_EQ(saved_parts(), 3888u);

  // SIGTERM to the run's process group once 500 parts are saved (as a terminal's Ctrl-C
  // signals every process of the group): the workers stop their parts unfinished, the run
  // exits 143 with an incomplete result, and --resume finishes it with the same figures.
  const fs::path stopped = dir.path() / "stopped";
  std::vector<std::string> stop_args = args;
  stop_args.back() = stopped.string();
  const auto stopped_parts = [&] { return killed_part_files(stopped); };
  bool sent = false;
  const int status = run_and_signal(stop_args, [&] { return stopped_parts() >= 500; }, SIGTERM, &sent, true);
  ASSERT_TRUE(sent) << "the run finished before 500 parts";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 143) << "raw status " << status;
  EXPECT_LT(stopped_parts(), 3888u);
  EXPECT_FALSE(read_classification(stopped / "classification.h5").complete);
  ASSERT_EQ(run_rushhour("classify " + options + " --resume --out " + stopped.string()).status, 0);
  const Classification finished = read_classification(stopped / "classification.h5");
  test_support::expect_same_figures(finished, reference, {.dominance = false, .samples = true});
}

// The parts a partitioned run that keeps figures only has checkpointed so far (0: none).
std::size_t checkpointed_parts(const fs::path& dir) {
  std::ifstream in(dir / "parts-checkpoint.txt");
  std::string line;
  for (int i = 0; i < 3 && std::getline(in, line); ++i) {
    if (line.rfind("finished ", 0) == 0) return std::stoul(line.substr(9));
  }
  return 0;
}

// The same with --part-files figures, the finished parts checkpointed every 50 ms in one file:
// SIGKILL once a checkpoint is written and again while one is written; --resume gives the
// uninterrupted run's figures and BDD nodes.
TEST(KillResume, FiguresOnlyPartitionedRunResumesAfterAKill) {
  TempDir dir("kill_resume_figures");
  const std::string reference_dir = dir / "reference";
  const fs::path killed = dir.path() / "killed";
  const std::string options = "--size 5 --partition rows --part-workers 2 --no-dominance -q --part-files figures";
  ASSERT_EQ(run_rushhour("classify " + options + " --out " + reference_dir).status, 0);
  const Classification reference = read_classification(fs::path(reference_dir) / "classification.h5");

  const std::vector<std::string> args{"--size", "5", "--partition", "rows", "--part-workers", "2",
                                      "--no-dominance", "-q", "--part-files", "figures", "--checkpoint-seconds",
                                      "0.05", "--resume", "--out", killed.string()};
  EXPECT_TRUE(run_and_kill(args, [&] { return checkpointed_parts(killed) >= 300; }))
      << "the run finished before 300 parts";
  const std::size_t after_first = checkpointed_parts(killed);
  const auto stale = tmp_files(killed);
  EXPECT_TRUE(run_and_kill(args, [&] { return fresh_tmp(killed, stale) || checkpointed_parts(killed) >= 2000; }))
      << "the resumed run finished before a checkpoint was written";
  EXPECT_GE(checkpointed_parts(killed), after_first);
  EXPECT_LT(checkpointed_parts(killed), 3888u);

  const auto resumed = run_rushhour("classify " + options + " --resume --out " + killed.string());
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const Classification result = read_classification(killed / "classification.h5");
  test_support::expect_same_figures(result, reference, {.dominance = false, .samples = true});
  expect_same_layer_nodes(result, reference);
  EXPECT_EQ(checkpointed_parts(killed), 3888u);
  EXPECT_FALSE(fs::exists(killed / "parts"));
}

}  // namespace
}  // namespace rushhour
