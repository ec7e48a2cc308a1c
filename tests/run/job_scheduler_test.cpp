// The one job scheduler (run/job_scheduler.hpp) on a job of its own: every unit's result
// reaches the job exactly once on every back-end of this process (threads, forked
// processes); a stop ends the dealing with a checkpoint at once; a solver's failure reaches
// the caller after every finished unit is added and the checkpoint taken. MPI ranks are
// tested through the jobs that use them (tests/run/distributed_test.cpp).
#include "run/job_scheduler.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "run/progress.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

// Unit u's result: u², and the process that solved it.
class SquareSolver final : public UnitSolver {
 public:
  explicit SquareSolver(std::uint64_t fail_at = ~std::uint64_t{0}) : fail_at_(fail_at) {}
  Words solve(std::uint64_t unit, const std::function<bool()>&) override {
    if (unit == fail_at_) throw std::runtime_error("unit " + std::to_string(unit) + " failed");
    return {unit * unit, static_cast<std::uint64_t>(::getpid())};
  }

 private:
  std::uint64_t fail_at_;
};

struct SquareJob {
  std::map<std::uint64_t, int> seen;  // unit -> times added
  std::set<std::uint64_t> processes;
  std::uint64_t sum = 0;
  int checkpoints = 0;
  std::uint64_t units_at_first_checkpoint = 0;
  std::vector<std::string> lines;

  ScheduledJob job(std::vector<ItemRange> units, std::uint64_t fail_at = ~std::uint64_t{0}) {
    ScheduledJob j;
    j.name = "squares";
    j.unit_name = "units";
    j.units = std::move(units);
    j.make_solver = [fail_at] { return std::make_unique<SquareSolver>(fail_at); };
    j.add = [this](FinishedUnit&& unit) {
      ASSERT_EQ(unit.result.size(), 2u);
      EXPECT_EQ(unit.result[0], unit.unit * unit.unit);
      ++seen[unit.unit];
      sum += unit.result[0];
      processes.insert(unit.result[1]);
    };
    j.checkpoint = [this] {
      if (checkpoints++ == 0) units_at_first_checkpoint = seen.size();
    };
    j.progress = [](const ProgressView& view) {
      return "squares: " + std::to_string(view.units_done) + "/" + std::to_string(view.units_total);
    };
    return j;
  }
  SchedulerSettings settings(Backend backend, int workers) {
    return {.backend = backend,
            .workers = workers,
            .progress_seconds = 0,
            .checkpoint_seconds = 1e9,
            .should_stop = nullptr,
            .log = [this](const std::string& line) { lines.push_back(line); }};
  }
};

std::uint64_t sum_of_squares(const std::vector<ItemRange>& ranges) {
  std::uint64_t sum = 0;
  for (const ItemRange& r : ranges)
    for (std::uint64_t u = r.begin; u < r.end; ++u) sum += u * u;
  return sum;
}

class EveryBackend : public ::testing::TestWithParam<std::pair<Backend, int>> {};

TEST_P(EveryBackend, HandsEveryUnitToTheJobOnce) {
  const auto [backend, workers] = GetParam();
  const std::vector<ItemRange> units{{3, 40}, {100, 101}, {200, 260}};
  SquareJob square;
  const SchedulerOutcome outcome = run_job(square.job(units), square.settings(backend, workers));
  EXPECT_TRUE(outcome.finished);
  EXPECT_FALSE(outcome.stopped);
  EXPECT_EQ(square.seen.size(), count_of(units));
  for (const auto& [unit, times] : square.seen) EXPECT_EQ(times, 1) << unit;
  EXPECT_EQ(square.sum, sum_of_squares(units));
  std::uint64_t loads = 0;
  for (const WorkerLoad& load : outcome.loads) loads += load.units;
  EXPECT_EQ(loads, count_of(units));
  EXPECT_EQ(outcome.loads.size(), static_cast<std::size_t>(workers));
  EXPECT_GE(square.checkpoints, 1);  // at the end
  // Forked workers solve in processes of their own; threads in this one.
  EXPECT_EQ(square.processes.count(static_cast<std::uint64_t>(::getpid())), backend == Backend::threads ? 1u : 0u);
  // Progress: the job's line, then a line per worker when there are several.
  ASSERT_FALSE(square.lines.empty());
  EXPECT_NE(std::find(square.lines.begin(), square.lines.end(), "squares: 98/98"), square.lines.end());
  const std::string kind = backend == Backend::threads ? "thread" : "worker";
  bool worker_line = false;
  for (const std::string& line : square.lines) worker_line = worker_line || line.rfind("squares: " + kind + " 1: ", 0) == 0;
  EXPECT_EQ(worker_line, workers > 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, EveryBackend,
                         ::testing::Values(std::pair{Backend::threads, 1}, std::pair{Backend::threads, 3},
                                           std::pair{Backend::processes, 1}, std::pair{Backend::processes, 3}),
                         [](const ::testing::TestParamInfo<std::pair<Backend, int>>& param) {
                           return std::string(param.param.first == Backend::threads ? "threads" : "processes") +
                                  std::to_string(param.param.second);
                         });

TEST(JobScheduler, AStopEndsTheDealingWithACheckpointAtOnce) {
  // Forked workers get one SIGTERM on a stop, which their stop handler (inherited) takes.
  const StopSignals signals;
  for (const Backend backend : {Backend::threads, Backend::processes}) {
    SquareJob square;
    SchedulerSettings settings = square.settings(backend, 2);
    settings.should_stop = [&square] { return square.seen.size() >= 5; };
    const std::vector<ItemRange> units{{0, 100000}};
    const SchedulerOutcome outcome = run_job(square.job(units), settings);
    EXPECT_TRUE(outcome.stopped);
    EXPECT_FALSE(outcome.finished);
    EXPECT_GE(square.seen.size(), 5u);
    EXPECT_LT(square.seen.size(), count_of(units));
    EXPECT_GE(square.units_at_first_checkpoint, 5u);  // the stop's checkpoint holds what arrived
    EXPECT_GE(square.checkpoints, 2);                  // and the last one
    for (const auto& [unit, times] : square.seen) EXPECT_EQ(times, 1) << unit;
  }
}

TEST(JobScheduler, ASolversFailureComesAfterTheFinishedUnitsAndTheCheckpoint) {
  for (const Backend backend : {Backend::threads, Backend::processes}) {
    SquareJob square;
    try {
      run_job(square.job({{0, 50}}, 20), square.settings(backend, 2));
      FAIL() << "the failure was lost";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "unit 20 failed");
    }
    EXPECT_FALSE(square.seen.count(20));
    EXPECT_GE(square.checkpoints, 1);
    std::uint64_t sum = 0;
    for (const auto& [unit, times] : square.seen) {
      EXPECT_EQ(times, 1) << unit;
      sum += unit * unit;
    }
    EXPECT_EQ(square.sum, sum);
  }
}

TEST(JobScheduler, AFailureOfTheJobItselfReachesTheCaller) {
  SquareJob square;
  ScheduledJob job = square.job({{0, 1000}});
  job.add = [](FinishedUnit&&) { throw std::runtime_error("cannot add"); };
  EXPECT_THROW(run_job(job, square.settings(Backend::threads, 2)), std::runtime_error);
}

TEST(JobScheduler, NoUnitsIsAFinishedJob) {
  SquareJob square;
  const SchedulerOutcome outcome = run_job(square.job({}), square.settings(Backend::threads, 2));
  EXPECT_TRUE(outcome.finished);
  EXPECT_TRUE(square.seen.empty());
}

}  // namespace
}  // namespace rushhour::run
