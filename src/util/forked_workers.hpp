#pragma once
// Jobs run in forked worker processes, each job's text sent down a pipe and its result's
// text sent back. Processes rather than threads: a job may use state that is global to a
// process (BuDDy's node table), and each child has its own copy of it.
//
// The children are forked in the constructor, so the caller must not hold such state then.
// A child runs `work` on one job at a time and leaves with _exit(0) when its job pipe
// closes, and dies with the parent (PR_SET_PDEATHSIG), so a killed run leaves no workers.
// Each child is in a process group of its own: signals to the parent's group reach the
// parent only, and the children get the one SIGTERM of interrupt().
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace rushhour {

class ForkedWorkers {
 public:
  // `work` runs in a child; what it throws reaches the parent as a std::runtime_error with
  // its message. `done` runs in the parent with each result and the number (0-based) of the
  // child that sent it, in the order they arrive. While the parent waits for results it
  // calls `while_waiting` (if given) about five times a second (e.g. to interrupt()).
  using Work = std::function<std::string(const std::string& job)>;
  using Done = std::function<void(int worker, const std::string& result)>;
  ForkedWorkers(int workers, Work work, Done done, std::function<void()> while_waiting = nullptr);
  // Kills and reaps children still running (after an exception).
  ~ForkedWorkers();
  ForkedWorkers(const ForkedWorkers&) = delete;
  ForkedWorkers& operator=(const ForkedWorkers&) = delete;

  // Hands `job` to an idle child, first waiting for one (and calling `done` on the results
  // that arrive meanwhile).
  void submit(const std::string& job);
  // Waits for every job's result, then ends the children.
  void finish();
  // Sends SIGTERM to every child once (their stop handlers end their jobs early).
  void interrupt();

 private:
  struct Child {
    pid_t pid = -1;
    int jobs = -1;     // write end of its job pipe
    int results = -1;  // read end of its result pipe
    bool busy = false;
  };
  // Waits for one result and hands it to `done`.
  void collect();
  void end_children(bool kill_them);

  Done done_;
  std::function<void()> while_waiting_;
  void (*previous_sigpipe_)(int) = nullptr;
  std::vector<Child> children_;
  bool interrupted_ = false;
};

}  // namespace rushhour
