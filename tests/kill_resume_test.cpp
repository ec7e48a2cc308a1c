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
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "reference_figures.hpp"
#include "storage/classification_file.hpp"

extern char** environ;

namespace rushhour {
namespace {

using testing::run_rushhour;
using testing::TempDir;
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

// Starts `rushhour classify ARGS`, polls `kill_when` every 0.2 ms and sends SIGKILL the moment
// it holds. Returns true if the process was killed, false if it finished first (status 0).
bool run_and_kill(const std::vector<std::string>& args, const std::function<bool()>& kill_when) {
  std::vector<std::string> argv_text{RUSHHOUR_BINARY, "classify"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(spawned, 0);
  if (spawned != 0) return false;
  int status = 0;
  while (true) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "raw status " << status;
      return false;
    }
    if (kill_when()) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  // It may have finished between the check and the kill.
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
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
  testing::expect_same_figures(result, reference, {.samples = true});
  std::vector<std::uint64_t> nodes, reference_nodes;
  for (const auto& layer : result.layers) nodes.push_back(layer.bdd_nodes);
  for (const auto& layer : reference.layers) reference_nodes.push_back(layer.bdd_nodes);
  EXPECT_EQ(nodes, reference_nodes);
}

}  // namespace
}  // namespace rushhour
