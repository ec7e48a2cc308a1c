#include "explicit/class_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "board/errors.hpp"
#include "explicit/class_lines.hpp"
#include "explicit/class_solver.hpp"
#include "util/clock.hpp"

namespace rushhour {

using class_engine::LineTables;
using class_engine::WorkerFigures;
using class_engine::make_worker;
using class_engine::minimal_records;
using class_engine::tables_of;
using class_engine::wide_numbering;
using class_engine::work_items;
using class_engine::items_within_limits;

namespace {

// Folds later_items into next_item where they touch it, and drops the ranges below it.
void normalize_items(ClassSweepState& state) {
  std::vector<ItemRange>& later = state.later_items;
  std::size_t first = 0;
  while (first < later.size() && later[first].begin <= state.next_item) {
    state.next_item = std::max(state.next_item, later[first].end);
    ++first;
  }
  later.erase(later.begin(), later.begin() + static_cast<std::ptrdiff_t>(first));
}

}  // namespace

std::uint64_t class_work_items(const Rules& rules) { return work_items(tables_of(rules, rules.size() > 6)); }

void sweep_work_items(const Rules& rules, const ClassEngineOptions& options,
                      const std::function<std::optional<std::uint64_t>()>& next_item,
                      const std::function<void(std::uint64_t item, ClassSweepState&& delta)>& on_item) {
  if (options.on_clusters) throw std::logic_error("cluster records come from a whole sweep (classify_by_classes)");
  const bool wide = wide_numbering(rules, options);
  const LineTables tables = tables_of(rules, wide);
  const std::uint64_t items = work_items(tables);
  const int threads = std::max(1, options.threads);
  std::vector<std::unique_ptr<WorkerFigures>> workers;
  for (int w = 0; w < threads; ++w) workers.push_back(make_worker(tables, rules, options, wide));
  std::mutex deal, report;
  std::atomic<bool> stopped{false};
  std::exception_ptr failure;
  auto run = [&](WorkerFigures& worker) {
    try {
      for (;;) {
        if (stopped || (options.should_stop && options.should_stop())) break;
        std::optional<std::uint64_t> item;
        {
          const std::lock_guard lock(deal);
          item = next_item();
        }
        if (!item) break;
        if (*item >= items) throw std::logic_error("work item " + std::to_string(*item) + " of " + std::to_string(items));
        const auto start = std::chrono::steady_clock::now();
        worker.run_item(*item);
        ClassSweepState delta = worker.take_item(*item, items);
        delta.seconds = seconds_since(start);
        const std::lock_guard lock(report);
        on_item(*item, std::move(delta));
      }
    } catch (...) {
      const std::lock_guard lock(report);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
  };
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) pool.emplace_back(run, std::ref(*workers[static_cast<std::size_t>(w)]));
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

ClassCensus classify_by_classes(const Rules& rules, const ClassEngineOptions& options) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("the class engine supports sizes up to " + std::to_string(kMaxClassEngineSize) +
                     " (got " + std::to_string(rules.size()) + ")");
  const auto start = std::chrono::steady_clock::now();
  const bool wide = wide_numbering(rules, options);
  const LineTables tables = tables_of(rules, wide);
  const int n = rules.size();
  const int max_cars = n * n / kCar;
  const int max_trucks = n * n / kTruck;

  std::uint64_t items = 1;
  for (int i = 0; i < n; ++i) items *= static_cast<std::uint64_t>(tables.groups);

  const int threads = std::max(1, options.threads);
  const auto stride = static_cast<std::uint64_t>(std::max(1, options.item_stride));
  const std::size_t pairs = static_cast<std::size_t>((max_cars + 1) * (max_trucks + 1));
  ClassSweepState base;
  base.items = items;
  base.tallies.resize(pairs);
  if (options.resume != nullptr) {
    base = *options.resume;
    if (base.items != items || base.tallies.size() != pairs || base.next_item > items ||
        (!base.later_items.empty() && base.later_items.back().end > items))
      throw InputError("the class sweep to resume belongs to another board");
  }

  std::vector<std::unique_ptr<WorkerFigures>> workers;
  for (int w = 0; w < threads; ++w) workers.push_back(make_worker(tables, rules, options, wide));
  // The items an earlier run refused are tried again first, then the sweep goes on at next.
  const std::vector<std::uint64_t> retries = std::move(base.refused);
  base.refused.clear();
  std::atomic<std::size_t> retry{0};
  // Positions in the sequence of items to run: every item, or the listed ones.
  const std::vector<std::uint64_t> listed = items_within_limits(tables, rules, items);
  const std::uint64_t positions = listed.empty() ? items : listed.size();
  auto item_at = [&](std::uint64_t position) {
    return position >= positions ? items : listed.empty() ? position : listed[position];
  };
  const std::uint64_t first_position =
      listed.empty() ? base.next_item
                     : static_cast<std::uint64_t>(std::lower_bound(listed.begin(), listed.end(), base.next_item) - listed.begin());
  std::atomic<std::uint64_t> next{first_position};
  std::atomic<std::uint64_t> done{0};
  std::atomic<bool> stopped{false};
  std::exception_ptr failure;
  // Checkpoints pause the workers between items: once every running worker waits, each item
  // before `next` is finished and in some worker's tallies.
  std::mutex mutex;
  std::condition_variable resume_work, worker_waits;
  bool pause = false;
  int waiting = 0;
  int running = threads;
  // An item and its cluster records, reported before the worker takes another item (so
  // before it can wait for a checkpoint). A class given to the class solver has no records.
  if (options.on_clusters && options.class_solver)
    throw std::logic_error("cluster records come from classes solved by the sweep (no class_solver)");
  std::mutex clusters_mutex;
  auto run_item = [&](WorkerFigures& worker, std::uint64_t item) {
    worker.run_item(item);
    if (!options.on_clusters) return;
    ClusterRecords records = worker.take_clusters();
    if (options.minimal_clusters) records = minimal_records(tables, rules, std::move(records));
    if (records.records.empty()) return;
    const std::lock_guard lock(clusters_mutex);
    options.on_clusters(item, std::move(records));
  };
  auto run = [&](WorkerFigures& worker) {
    try {
      for (;;) {
        {
          std::unique_lock lock(mutex);
          if (pause) {
            ++waiting;
            worker_waits.notify_all();
            resume_work.wait(lock, [&] { return !pause; });
            --waiting;
          }
        }
        if (stopped) break;
        if (const std::size_t r = retry.fetch_add(1); r < retries.size()) {
          run_item(worker, retries[r]);
          continue;
        }
        const std::uint64_t position = next.fetch_add(stride);
        if (position >= positions) break;
        const std::uint64_t item = item_at(position);
        if (!base.later_items.empty() && base.holds(item)) {  // finished by an earlier run
          ++done;
          continue;
        }
        run_item(worker, item);
        ++done;
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
    const std::lock_guard lock(mutex);
    --running;
    worker_waits.notify_all();
  };

  // The sweep so far: base plus every worker (call with the workers paused or finished).
  auto snapshot = [&] {
    ClassSweepState state;
    state.items = items;
    state.next_item = item_at(next.load());
    state.later_items = base.later_items;
    normalize_items(state);
    state.classes = base.classes;
    state.states = base.states;
    state.highest = base.highest;
    for (const auto& w : workers) {
      state.classes += w->classes();
      state.states += w->states();
      state.highest = std::max(state.highest, w->highest_index());
    }
    const auto slots = static_cast<std::size_t>(state.highest + 1);
    state.tallies.resize(pairs);
    for (std::size_t v = 0; v < pairs; ++v) {
      VehicleTally& sum = state.tallies[v];
      sum.count.assign(slots, 0);
      sum.nondominated.assign(slots, 0);
      sum.components.assign(slots, 0);
      auto add = [&](const VehicleTally& part) {
        add_exact(sum.domain, part.domain);
        for (std::size_t i = 0; i < slots && i < part.count.size(); ++i) {
          add_exact(sum.count[i], part.count[i]);
          add_exact(sum.nondominated[i], part.nondominated[i]);
          add_exact(sum.components[i], part.components[i]);
        }
      };
      add(base.tallies[v]);
      for (const auto& w : workers) add(w->tallies().by_vehicles[v]);
    }
    state.sample_keys.assign(slots, {});
    const int lowest_sampled = std::max(0, state.highest - options.sample_indices + 1);
    for (int i = state.highest; i >= lowest_sampled && options.samples_per_index > 0; --i) {
      const auto ui = static_cast<std::size_t>(i);
      std::vector<SampleKey> keys;
      // A part keeps index i only if i was among its own T highest when it was met.
      if (i >= base.highest - options.sample_indices + 1 && ui < base.sample_keys.size())
        keys.insert(keys.end(), base.sample_keys[ui].begin(), base.sample_keys[ui].end());
      for (const auto& w : workers)
        if (i >= w->highest() - options.sample_indices + 1)
          keys.insert(keys.end(), w->best_keys()[ui].begin(), w->best_keys()[ui].end());
      std::sort(keys.begin(), keys.end());
      keys.resize(std::min(keys.size(), static_cast<std::size_t>(options.samples_per_index)));
      state.sample_keys[ui] = std::move(keys);
    }
    for (std::size_t r = std::min(retry.load(), retries.size()); r < retries.size(); ++r)
      state.refused.push_back(retries[r]);
    for (const auto& w : workers) state.refused.insert(state.refused.end(), w->refused().begin(), w->refused().end());
    std::sort(state.refused.begin(), state.refused.end());
    state.seconds = base.seconds + seconds_since(start);
    return state;
  };

  if (options.should_stop && options.should_stop()) stopped = true;
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) pool.emplace_back(run, std::ref(*workers[static_cast<std::size_t>(w)]));
  auto report = [&] {
    if (!options.on_progress) return;
    ClassProgress p;
    p.items_done = first_position / stride + done;
    p.items_total = (positions + stride - 1) / stride;
    p.classes = base.classes;
    p.states = base.states;
    for (const auto& w : workers) {
      p.classes += w->classes();
      p.states += w->states();
    }
    p.elapsed = base.seconds + seconds_since(start);
    options.on_progress(p);
  };
  auto last_report = std::chrono::steady_clock::now();
  auto last_checkpoint = last_report;
  // A failure here (a checkpoint that cannot be written, bad_alloc in a snapshot) must not
  // unwind past running workers, whose std::thread destructors would end the process: they
  // are stopped and joined first, and the failure goes on to the caller.
  try {
    for (;;) {
      {
        const std::lock_guard lock(mutex);
        if (running == 0) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (options.should_stop && options.should_stop()) stopped = true;
      if (seconds_since(last_report) >= options.progress_seconds) {
        report();
        last_report = std::chrono::steady_clock::now();
      }
      if (options.on_checkpoint && seconds_since(last_checkpoint) >= options.checkpoint_seconds) {
        std::unique_lock lock(mutex);
        pause = true;
        worker_waits.wait(lock, [&] { return waiting == running; });
        const ClassSweepState state = snapshot();
        lock.unlock();
        options.on_checkpoint(state);  // may take a while (a file write): workers wait
        lock.lock();
        pause = false;
        resume_work.notify_all();
        last_checkpoint = std::chrono::steady_clock::now();
      }
    }
  } catch (...) {
    {
      const std::lock_guard lock(mutex);
      stopped = true;
      pause = false;
    }
    resume_work.notify_all();
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);  // no checkpoint: a worker's item is cut short
  report();
  const ClassSweepState state = snapshot();
  if (options.on_checkpoint) options.on_checkpoint(state);

  ClassCensus census = census_of_sweep(rules, state);
  census.complete = census.complete && stride == 1;
  if (options.measure_class_sizes) {
    census.class_sizes.resize(64);
    census.solver_class_sizes.resize(64);
    for (const auto& w : workers) {
      for (std::size_t k = 0; k < 64; ++k) {
        census.class_sizes[k].classes += w->class_sizes()[k].classes;
        census.class_sizes[k].states += w->class_sizes()[k].states;
        census.class_sizes[k].cpu_seconds += w->class_sizes()[k].cpu_seconds;
        census.solver_class_sizes[k].classes += w->solver_class_sizes()[k].classes;
        census.solver_class_sizes[k].states += w->solver_class_sizes()[k].states;
        census.solver_class_sizes[k].cpu_seconds += w->solver_class_sizes()[k].cpu_seconds;
      }
      census.largest_class = std::max(census.largest_class, w->largest_class());
    }
    for (auto* sizes : {&census.class_sizes, &census.solver_class_sizes})
      while (!sizes->empty() && sizes->back().classes == 0) sizes->pop_back();
  }
  return census;
}

}  // namespace rushhour
