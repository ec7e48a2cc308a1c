#include "run/job_scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <span>
#include <optional>
#include <stdexcept>
#include <thread>

#include "run/progress.hpp"
#include "run/rank_dealing.hpp"
#include "util/forked_workers.hpp"
#include "util/process.hpp"

#ifdef RUSHHOUR_WITH_MPI
#include <mpi.h>
#endif

namespace rushhour::run {
namespace {

using std::chrono::milliseconds;

// Finished units as words (unit, seconds, length, result words ...), for ranks and pipes.
void append_unit(Words& words, const FinishedUnit& unit) {
  words.insert(words.end(), {unit.unit, word_of_double(unit.seconds), unit.result.size()});
  words.insert(words.end(), unit.result.begin(), unit.result.end());
}

std::vector<FinishedUnit> units_of(std::span<const std::uint64_t> words, int worker) {
  std::vector<FinishedUnit> units;
  for (std::size_t at = 0; at < words.size();) {
    if (words.size() - at < 3 || words[at + 2] > words.size() - at - 3)
      throw std::runtime_error("a message of finished units is cut short");
    FinishedUnit unit{.unit = words[at], .worker = worker, .seconds = double_of_word(words[at + 1]), .result = {}};
    const auto begin = words.begin() + static_cast<std::ptrdiff_t>(at + 3);
    unit.result.assign(begin, begin + static_cast<std::ptrdiff_t>(words[at + 2]));
    at += 3 + words[at + 2];
    units.push_back(std::move(unit));
  }
  return units;
}

// Results of this process's threads on their way to the coordinator. A waiting coordinator
// is woken by a batch of results, or by a thread that ends, not by every result: on a board
// of millions of small work items a wake-up per item cost as much CPU as solving them
// (results/perf-log.md §25). Otherwise it wakes at the end of its wait.
class ResultQueue {
 public:
  static constexpr std::size_t kWakeBatch = 64;
  void push(FinishedUnit&& unit) {
    bool batch = false;
    {
      const std::lock_guard lock(mutex_);
      units_.push_back(std::move(unit));
      batch = units_.size() >= kWakeBatch;
    }
    if (batch) arrived_.notify_one();
  }
  void wake() {
    {
      const std::lock_guard lock(mutex_);
      woken_ = true;
    }
    arrived_.notify_one();
  }
  // What has arrived, after waiting up to `wait` for a batch or a wake().
  std::deque<FinishedUnit> take(milliseconds wait) {
    std::unique_lock lock(mutex_);
    if (units_.size() < kWakeBatch && wait.count() > 0)
      arrived_.wait_for(lock, wait, [&] { return units_.size() >= kWakeBatch || woken_; });
    woken_ = false;
    return std::exchange(units_, {});
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<FinishedUnit> units_;
  bool woken_ = false;
};

// `threads` threads, each with its own solver, solving the units `next` hands out (one call
// at a time; nullopt ends the thread) and pushing their results. A solver's failure stops
// the other threads after their running units; join() rethrows it.
class LocalWorkers {
 public:
  using Next = std::function<std::optional<std::uint64_t>()>;
  // worker_id(t): the worker a result of thread t is credited to.
  LocalWorkers(int threads, const ScheduledJob& job, Next next, ResultQueue& queue, std::function<bool()> stop,
               std::function<int(int thread)> worker_id)
      : next_(std::move(next)), stop_(std::move(stop)), running_(std::max(1, threads)) {
    for (int t = 0; t < std::max(1, threads); ++t)
      threads_.emplace_back([this, &job, &queue, t, id = worker_id(t)] { work(job, queue, id); });
  }
  ~LocalWorkers() {
    failed_ = true;  // after an exception in the caller: the threads end after their units
    for (std::thread& thread : threads_)
      if (thread.joinable()) thread.join();
  }
  LocalWorkers(const LocalWorkers&) = delete;
  LocalWorkers& operator=(const LocalWorkers&) = delete;

  bool finished() const { return running_ == 0; }
  void join() {
    for (std::thread& thread : threads_) thread.join();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  void work(const ScheduledJob& job, ResultQueue& queue, int id) {
    try {
      const std::unique_ptr<UnitSolver> solver = job.make_solver();
      const std::function<bool()> stop = [this] { return failed_ || stop_(); };
      for (;;) {
        if (stop()) break;
        std::optional<std::uint64_t> unit;
        {
          const std::lock_guard lock(deal_);
          unit = next_();
        }
        if (!unit) break;
        const auto start = Clock::now();
        Words result = solver->solve(*unit, stop);
        queue.push({.unit = *unit, .worker = id, .seconds = seconds_since(start), .result = std::move(result)});
      }
    } catch (...) {
      const std::lock_guard lock(deal_);
      if (!failure_) failure_ = std::current_exception();
      failed_ = true;
    }
    --running_;
    queue.wake();
  }

  Next next_;
  std::function<bool()> stop_;
  std::mutex deal_;
  std::atomic<bool> failed_{false};
  std::atomic<int> running_;
  std::exception_ptr failure_;
  std::vector<std::thread> threads_;
};

// The coordinator's side of every back-end: the loads, the job's results, its checkpoints
// and the progress lines. Coordinator's thread only.
class Coordination {
 public:
  Coordination(const ScheduledJob& job, const SchedulerSettings& settings, int workers, std::string worker_kind,
               int ranks)
      : job_(job), settings_(settings), kind_(std::move(worker_kind)), ranks_(ranks),
        total_(count_of(job.units)), loads_(static_cast<std::size_t>(std::max(1, workers))) {}

  void add(FinishedUnit&& unit) {
    if (unit.worker < 0 || static_cast<std::size_t>(unit.worker) >= loads_.size())
      throw std::logic_error("a result from worker " + std::to_string(unit.worker));
    WorkerLoad& load = loads_[static_cast<std::size_t>(unit.worker)];
    ++load.units;
    load.busy += unit.seconds;
    load.heard = Clock::now();
    ++done_;
    job_.add(std::move(unit));
  }
  // A worker other than 0, not in `ended`, not heard from for more than `seconds`; -1 if none.
  int silent_worker(double seconds, const std::vector<bool>& ended) const {
    for (std::size_t w = 1; w < loads_.size(); ++w)
      if (!ended[w] && seconds_since(loads_[w].heard) > seconds) return static_cast<int>(w);
    return -1;
  }
  // A message from a rank (a request or results) reached rank 0.
  void note_message() { ++messages_; }

  void note_cpu(int worker, double cpu) {
    if (worker < 0 || static_cast<std::size_t>(worker) >= loads_.size()) return;
    loads_[static_cast<std::size_t>(worker)].cpu = cpu;
    loads_[static_cast<std::size_t>(worker)].heard = Clock::now();
  }

  // Called once when a stop arrives, before the checkpoint (e.g. to end the dealing).
  void on_stop(std::function<void()> action) { on_stop_ = std::move(action); }
  // Whether a stop has arrived (the first time: on_stop, then the checkpoint at once, as a
  // launcher's SIGKILL may follow).
  bool stop_arrived() {
    if (stopped_) return true;
    if (!settings_.should_stop || !settings_.should_stop()) return false;
    stopped_ = true;
    if (on_stop_) on_stop_();
    checkpoint();
    return true;
  }
  bool stopped() const { return stopped_; }

  void checkpoint() {
    if (job_.checkpoint) job_.checkpoint();
    last_checkpoint_ = Clock::now();
  }
  // Before a failure goes on: what is finished is kept; a failure to save it leaves the first.
  void checkpoint_before_failing(ResultQueue* queue) noexcept {
    try {
      if (queue != nullptr)
        for (FinishedUnit& unit : queue->take(milliseconds(0))) add(std::move(unit));
      checkpoint();
    } catch (...) {
    }
  }
  void tick() {
    if (job_.checkpoint && seconds_since(last_checkpoint_) >= settings_.checkpoint_seconds) checkpoint();
    if (seconds_since(last_report_) >= settings_.progress_seconds) report(false);
  }

  // The job's line, then one per worker (the periodic lines of many workers: their spread).
  void report(bool last) {
    last_report_ = Clock::now();
    if (!settings_.log) return;
    if (job_.progress)
      settings_.log(job_.progress({.units_done = done_, .units_total = total_, .ranks = ranks_,
                                   .elapsed = seconds_since(start_)}));
    if (loads_.size() == 1) return;
    if (ranks_ > 1) loads_[0].cpu = process_cpu_seconds();
    const std::string prefix = job_.name + ": ";
    if (last || loads_.size() <= static_cast<std::size_t>(kWorkerLines)) {
      for (std::size_t w = 0; w < loads_.size(); ++w) {
        const WorkerLoad& load = loads_[w];
        char text[200];
        std::snprintf(text, sizeof text, "%s %zu: %llu %s, busy %.1f s", kind_.c_str(), w,
                      static_cast<unsigned long long>(load.units), job_.unit_name.c_str(), load.busy);
        std::string line = prefix + text;
        if (load.cpu >= 0) {
          std::snprintf(text, sizeof text, ", CPU %.1f s", load.cpu);
          line += text;
        }
        if (ranks_ > 1 && w == 0) {  // the dealing, gathering and checkpoints: the coordination's cost
          std::snprintf(text, sizeof text, " (its dealing thread %.2f s, %llu messages from ranks)", thread_cpu_seconds(),
                        static_cast<unsigned long long>(messages_));
          line += text;
        } else if (ranks_ > 1) {
          line += ", last heard " + duration_text(seconds_since(load.heard)) + " ago";
        }
        settings_.log(line);
      }
      return;
    }
    // The spread: least, median and most of the workers' units and busy seconds, and the one
    // not heard from longest (a stalled rank shows here).
    std::vector<double> units, busy;
    std::size_t silent = 1;
    for (std::size_t w = 0; w < loads_.size(); ++w) {
      units.push_back(static_cast<double>(loads_[w].units));
      busy.push_back(loads_[w].busy);
      if (w > 0 && loads_[w].heard < loads_[silent].heard) silent = w;
    }
    const auto spread = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      char part[100];
      std::snprintf(part, sizeof part, "%.0f / %.0f / %.0f", v.front(), v[v.size() / 2], v.back());
      return std::string(part);
    };
    settings_.log(prefix + "per " + kind_ + " least / median / most: " + job_.unit_name + " " + spread(units) +
                  ", busy seconds " + spread(busy) + "; " + kind_ + " " + std::to_string(silent) + " last heard " +
                  duration_text(seconds_since(loads_[silent].heard)) + " ago");
  }

  SchedulerOutcome outcome() const {
    return {.stopped = stopped_, .finished = done_ == total_, .ranks = ranks_, .loads = loads_};
  }

 private:
  const ScheduledJob& job_;
  const SchedulerSettings& settings_;
  std::string kind_;
  int ranks_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::uint64_t messages_ = 0;  // from ranks, under MPI
  std::vector<WorkerLoad> loads_;
  bool stopped_ = false;
  std::function<void()> on_stop_;
  Clock::time_point start_ = Clock::now(), last_checkpoint_ = Clock::now(), last_report_ = Clock::now();
};

// The units of `job.units` one at a time, or in batches, until a stop.
class Dealer {
 public:
  explicit Dealer(const std::vector<ItemRange>& units) : dealer_(units) {}
  std::optional<std::uint64_t> next() {
    const std::lock_guard lock(mutex_);
    if (stopping_) return std::nullopt;
    return dealer_.next();
  }
  std::vector<ItemRange> batch(std::uint64_t want, int ranks) {
    const std::lock_guard lock(mutex_);
    if (stopping_) return {};
    return dealer_.batch(want, ranks);
  }
  void stop() {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  bool stopping() {
    const std::lock_guard lock(mutex_);
    return stopping_;
  }

 private:
  std::mutex mutex_;
  ItemDealer dealer_;
  bool stopping_ = false;
};

// Hands every result that has arrived to the job, looking for a stop after each (adding
// may take a while: the job's own work per unit).
void drain(ResultQueue& queue, Coordination& coordination, milliseconds wait = milliseconds(0)) {
  for (FinishedUnit& unit : queue.take(wait)) {
    coordination.add(std::move(unit));
    coordination.stop_arrived();
  }
}

SchedulerOutcome run_on_threads(const ScheduledJob& job, const SchedulerSettings& settings) {
  const int threads = std::max(1, settings.workers);
  Coordination coordination(job, settings, threads, "thread", 1);
  Dealer dealer(job.units);
  coordination.on_stop([&dealer] { dealer.stop(); });
  ResultQueue queue;
  LocalWorkers local(
      threads, job, [&] { return dealer.next(); }, queue, [&] { return dealer.stopping(); }, [](int t) { return t; });
  for (;;) {
    const bool ended = local.finished();  // read first: what the threads pushed is in the queue
    drain(queue, coordination, ended ? milliseconds(0) : milliseconds(50));
    if (ended) break;
    coordination.stop_arrived();
    coordination.tick();
  }
  try {
    local.join();
  } catch (...) {
    coordination.checkpoint_before_failing(&queue);
    throw;
  }
  coordination.checkpoint();
  coordination.report(true);
  return coordination.outcome();
}

// A forked worker's reply: its unit, its seconds and its result.
std::string reply_text(const FinishedUnit& unit) {
  Words words;
  append_unit(words, unit);
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(std::uint64_t));
}

SchedulerOutcome run_on_processes(const ScheduledJob& job, const SchedulerSettings& settings) {
  const int workers = static_cast<int>(std::min<std::uint64_t>(
      static_cast<std::uint64_t>(std::max(1, settings.workers)), std::max<std::uint64_t>(1, count_of(job.units))));
  Coordination coordination(job, settings, workers, "worker", 1);
  ItemDealer dealer(job.units);
  // In each child, the solver it made for its first unit (the parent never makes one).
  auto solver = std::make_shared<std::unique_ptr<UnitSolver>>();
  const std::function<bool()> child_stop = settings.should_stop ? settings.should_stop : [] { return false; };
  ForkedWorkers* pool_of_waiting = nullptr;
  ForkedWorkers pool(
      workers,
      [&job, solver, child_stop](const std::string& text) {
        if (!*solver) *solver = job.make_solver();
        const std::uint64_t unit = std::stoull(text);
        const auto start = Clock::now();
        Words result = (*solver)->solve(unit, child_stop);
        return reply_text({.unit = unit, .worker = 0, .seconds = seconds_since(start), .result = std::move(result)});
      },
      [&coordination](int worker, const std::string& reply) {
        if (reply.size() % sizeof(std::uint64_t) != 0) throw std::runtime_error("a worker's reply is cut short");
        Words words(reply.size() / sizeof(std::uint64_t));
        std::memcpy(words.data(), reply.data(), reply.size());
        for (FinishedUnit& unit : units_of(words, worker)) coordination.add(std::move(unit));
      },
      [&coordination, &pool_of_waiting] {
        // The children got the stop signal's SIGTERM from the parent: their solvers end early.
        if (coordination.stop_arrived() && pool_of_waiting != nullptr) pool_of_waiting->interrupt();
        coordination.tick();
      });
  pool_of_waiting = &pool;
  try {
    while (const std::optional<std::uint64_t> unit = dealer.next()) {
      if (coordination.stop_arrived()) break;
      pool.submit(std::to_string(*unit));
    }
    pool.finish();
  } catch (...) {
    coordination.checkpoint_before_failing(nullptr);
    throw;
  }
  coordination.checkpoint();
  coordination.report(true);
  return coordination.outcome();
}

#ifdef RUSHHOUR_WITH_MPI
SchedulerOutcome run_on_ranks(const ScheduledJob& job, const SchedulerSettings& settings) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Coordination coordination(job, settings, ranks, "rank", ranks);
  Dealer dealer(job.units);
  coordination.on_stop([&dealer] { dealer.stop(); });
  ResultQueue queue;
  std::vector<bool> ended(static_cast<std::size_t>(ranks), false);
  try {
    LocalWorkers local(
        settings.workers, job, [&] { return dealer.next(); }, queue, [&] { return dealer.stopping(); },
        [](int) { return 0; });
    serve_ranks({.ranks = ranks,
                 .batch =
                     [&](std::uint64_t want) {
                       coordination.note_message();
                       return dealer.batch(want, ranks);
                     },
                 .results =
                     [&](int rank, double cpu, std::span<const std::uint64_t> words) {
                       coordination.note_message();
                       for (FinishedUnit& unit : units_of(words, rank)) coordination.add(std::move(unit));
                       coordination.note_cpu(rank, cpu);
                     },
                 .done =
                     [&](int rank, double cpu) {
                       coordination.note_cpu(rank, cpu);
                       ended[static_cast<std::size_t>(rank)] = true;
                     },
                 .local_finished = [&] { return local.finished(); },
                 .should_stop = [&] { return coordination.stop_arrived(); },
                 .on_stop =
                     [&] {
                       if (settings.log) settings.log(job.name + ": stopping; the ranks end their running " + job.unit_name);
                     },
                 .tick =
                     [&] {
                       drain(queue, coordination);
                       coordination.tick();
                       if (const int silent = coordination.silent_worker(settings.lost_rank_seconds, ended); silent > 0)
                         throw std::runtime_error("rank " + std::to_string(silent) + " not heard from for " +
                                                  duration_text(settings.lost_rank_seconds) +
                                                  " (a lost host or link; --rank-timeout)");
                     }});
    local.join();
    drain(queue, coordination);
  } catch (const std::exception& e) {
    coordination.checkpoint_before_failing(&queue);
    abort_job(e.what(), 0);
  }
  coordination.checkpoint();
  coordination.report(true);
  return coordination.outcome();
}
#endif

}  // namespace

SchedulerOutcome run_job(const ScheduledJob& job, const SchedulerSettings& settings) {
  switch (settings.backend) {
    case Backend::threads:
      return run_on_threads(job, settings);
    case Backend::processes:
      return run_on_processes(job, settings);
    case Backend::mpi:
#ifdef RUSHHOUR_WITH_MPI
      return run_on_ranks(job, settings);
#else
      throw std::logic_error("MPI is not built in");
#endif
  }
  throw std::logic_error("no such back-end");
}

#ifdef RUSHHOUR_WITH_MPI
void run_job_rank(const std::function<std::unique_ptr<UnitSolver>()>& make_solver, const SchedulerSettings& settings,
                  int rank) {
  ScheduledJob job;
  job.make_solver = make_solver;
  ItemQueue items;
  ResultQueue queue;
  try {
    LocalWorkers local(
        settings.workers, job, [&] { return items.next(); }, queue, [&] { return items.stopped(); },
        [rank](int) { return rank; });
    serve_rank0(items, {.want = static_cast<std::uint64_t>(std::max(1, settings.workers)),
                        .take_results =
                            [&] {
                              Words words;
                              for (const FinishedUnit& unit : queue.take(milliseconds(0))) append_unit(words, unit);
                              return words;
                            },
                        .local_finished = [&] { return local.finished(); },
                        .should_stop = [&] { return settings.should_stop && settings.should_stop(); }});
    local.join();
  } catch (const std::exception& e) {
    abort_job(e.what(), rank);
  }
}
#endif

}  // namespace rushhour::run
