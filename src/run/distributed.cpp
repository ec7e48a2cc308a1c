#include "run/distributed.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "board/board.hpp"
#include "board/errors.hpp"
#include "run/run_directory.hpp"
#include "storage/class_checkpoint.hpp"
#include "explicit/counting.hpp"
#include "run/progress.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"


namespace rushhour::run {
namespace {

// The items of `ranges` that `state` does not hold, as sorted ranges.
std::vector<ItemRange> missing_of(const std::vector<ItemRange>& ranges, const ClassSweepState& state) {
  const std::vector<ItemRange> missing = state.missing_items();
  std::vector<ItemRange> result;
  std::size_t m = 0;
  for (const ItemRange& r : ranges) {
    while (m < missing.size() && missing[m].end <= r.begin) ++m;
    for (std::size_t k = m; k < missing.size() && missing[k].begin < r.end; ++k) {
      const ItemRange both{std::max(r.begin, missing[k].begin), std::min(r.end, missing[k].end)};
      if (both.begin < both.end) result.push_back(both);
    }
  }
  return result;
}

// Takes the refused items of `state` that lie in `ranges` out of it (they are in its done set
// with no figures) so that they are dealt again: a resume may have more memory. Returns how many.
std::uint64_t reopen_refused(ClassSweepState& state, const std::vector<ItemRange>& ranges) {
  std::vector<std::uint64_t> reopen, kept_refused;
  for (const std::uint64_t item : state.refused) {
    const auto in = std::upper_bound(ranges.begin(), ranges.end(), item,
                                     [](std::uint64_t value, const ItemRange& r) { return value < r.end; });
    (in != ranges.end() && in->begin <= item ? reopen : kept_refused).push_back(item);
  }
  if (reopen.empty()) return 0;
  reopen.erase(std::unique(reopen.begin(), reopen.end()), reopen.end());
  // The done set as ranges (the complement of the missing ones), without the reopened items.
  std::vector<ItemRange> done;
  std::uint64_t from = 0;
  for (const ItemRange& m : state.missing_items()) {
    if (m.begin > from) done.push_back({from, m.begin});
    from = m.end;
  }
  if (from < state.items) done.push_back({from, state.items});
  std::vector<ItemRange> kept;
  std::size_t k = 0;
  for (const ItemRange& r : done) {
    std::uint64_t at = r.begin;
    for (; k < reopen.size() && reopen[k] < r.end; ++k) {
      if (reopen[k] < at) continue;
      if (reopen[k] > at) kept.push_back({at, reopen[k]});
      at = reopen[k] + 1;
    }
    if (at < r.end) kept.push_back({at, r.end});
  }
  state.next_item = 0;
  if (!kept.empty() && kept.front().begin == 0) {
    state.next_item = kept.front().end;
    kept.erase(kept.begin());
  }
  state.later_items = std::move(kept);
  state.refused = std::move(kept_refused);
  return reopen.size();
}

// A sweep state as 64-bit words (for MPI messages): only the pairs with figures.
std::vector<std::uint64_t> encode_state(const ClassSweepState& s) {
  std::vector<std::uint64_t> w{s.items, s.next_item, s.later_items.size()};
  for (const ItemRange& r : s.later_items) w.insert(w.end(), {r.begin, r.end});
  std::uint64_t seconds = 0;
  std::memcpy(&seconds, &s.seconds, sizeof seconds);
  w.insert(w.end(), {s.classes, s.states, seconds, static_cast<std::uint64_t>(s.highest), s.tallies.size()});
  for (std::size_t v = 0; v < s.tallies.size(); ++v) {
    const VehicleTally& t = s.tallies[v];
    if (t.domain == 0 && t.count.empty()) continue;
    w.insert(w.end(), {v, t.domain, t.count.size()});
    for (const auto* figures : {&t.count, &t.nondominated, &t.components}) {
      if (figures->size() != t.count.size()) throw std::logic_error("a tally's figures differ in length");
      w.insert(w.end(), figures->begin(), figures->end());
    }
  }
  w.push_back(~std::uint64_t{0});
  w.push_back(s.sample_keys.size());
  for (const auto& keys : s.sample_keys) {
    w.push_back(keys.size());
    for (const SampleKey key : keys) {  // 128 bits: high word, low word
      w.push_back(static_cast<std::uint64_t>(key >> 64));
      w.push_back(static_cast<std::uint64_t>(key));
    }
  }
  // Items refused by the memory bound travel too: rank 0 must list them for --resume.
  w.push_back(s.refused.size());
  w.insert(w.end(), s.refused.begin(), s.refused.end());
  return w;
}

ClassSweepState decode_state(const std::vector<std::uint64_t>& w) {
  std::size_t at = 0;
  const auto next = [&] {
    if (at >= w.size()) throw std::runtime_error("a sweep state message is cut short");
    return w[at++];
  };
  ClassSweepState s;
  s.items = next();
  s.next_item = next();
  s.later_items.resize(next());
  for (ItemRange& r : s.later_items) r = {next(), next()};
  s.classes = next();
  s.states = next();
  const std::uint64_t seconds = next();
  std::memcpy(&s.seconds, &seconds, sizeof seconds);
  s.highest = static_cast<int>(next());
  s.tallies.resize(next());
  for (std::uint64_t v = next(); v != ~std::uint64_t{0}; v = next()) {
    if (v >= s.tallies.size()) throw std::runtime_error("a sweep state message names no tally");
    VehicleTally& t = s.tallies[v];
    t.domain = next();
    const std::uint64_t length = next();
    for (auto* figures : {&t.count, &t.nondominated, &t.components}) {
      figures->resize(length);
      for (std::uint64_t& value : *figures) value = next();
    }
  }
  s.sample_keys.resize(next());
  for (auto& keys : s.sample_keys) {
    keys.resize(next());
    for (SampleKey& key : keys) {
      const std::uint64_t high = next();
      key = static_cast<SampleKey>(high) << 64 | next();
    }
  }
  s.refused.resize(next());
  for (std::uint64_t& item : s.refused) item = next();
  return s;
}

// Rank 0 (or the one process): the job's state, its checkpoint and its own threads.
// What one rank has done, as rank 0 learns it.
struct RankLoad {
  std::uint64_t items = 0;
  std::uint64_t states = 0;
  double busy = 0;  // seconds its threads spent in items
  double cpu = 0;   // CPU seconds of its process (worker ranks: as of their last message)
  Clock::time_point heard = Clock::now();
};

// More ranks than this: the periodic progress gives their spread, not a line each.
constexpr int kRankLines = 16;

class Coordinator {
 public:
  Coordinator(const ClassJob& job, int ranks) : job_(job), ranks_(ranks), loads_(static_cast<std::size_t>(ranks)) {
    const std::uint64_t items = class_work_items(job.rules);
    const ClassSweepIdentity identity{.rules = job.rules,
                                      .samples_per_index = job.options.samples_per_index,
                                      .sample_indices = job.options.sample_indices,
                                      .mirror = job.options.mirror,
                                      .part = job.part};
    const int n = job.rules.size();
    state_.items = items;
    state_.tallies.resize(static_cast<std::size_t>((n * n / kCar + 1) * (n * n / kTruck + 1)));
    if (!job.out.empty()) {
      const RunDirectory directory(job.out);
      checkpoint_.emplace(directory.class_checkpoint(identity));
      if (job.resume) {
        std::string why;
        std::optional<ClassSweepState> saved = directory.class_sweep_to_resume(identity, &why);
        if (!saved && std::filesystem::exists(checkpoint_->path())) throw InputError("cannot resume: " + why);
        if (saved) {
          if (saved->items != items) throw InputError("cannot resume: the checkpoint belongs to another board");
          state_ = std::move(*saved);
        }
        log(saved ? "classes: resuming with " + std::to_string(state_.items_done()) + " of " + std::to_string(items) +
                        " work items finished"
                  : "classes: " + why + ", starting at the first work item");
      } else {
        checkpoint_->clear();
      }
    }
    job_items_ = part_items(items, job.part);
    const auto stride = static_cast<std::uint64_t>(std::max(1, job.options.item_stride));
    if (stride > 1) {  // a work sample: every stride-th item
      job_items_.clear();
      for (std::uint64_t item = 0; item < items; item += stride) job_items_.push_back({item, item + 1});
    }
    // Like the single-process sweep, a resume tries the items refused by the memory bound again.
    if (const std::uint64_t reopened = reopen_refused(state_, job_items_); reopened > 0)
      log("classes: " + std::to_string(reopened) + " work items refused by the memory bound run again");
    dealer_.emplace(missing_of(job_items_, state_));
    total_ = count_of(job_items_);
    done_before_ = total_ - dealer_->remaining();
    seconds_before_ = state_.seconds;
    states_before_ = static_cast<double>(state_.states);
    // The configurations of the job are known ahead for a whole job: the ETA goes by them.
    if (job.part.whole() && stride == 1 && job.rules.domain() == Domain::All) total_states_ = static_cast<double>(count_placements(job.rules).domain);
  }

  bool finished() const { return count_of(missing_of(job_items_, state_)) == 0; }
  std::uint64_t remaining_to_deal() {
    const std::lock_guard lock(mutex_);
    return dealer_->remaining();
  }

  std::optional<std::uint64_t> next_local() {
    const std::lock_guard lock(mutex_);
    if (stopping_) return std::nullopt;
    return dealer_->next();
  }
  std::vector<ItemRange> next_batch(std::uint64_t want) {
    const std::lock_guard lock(mutex_);
    if (stopping_) return {};
    return dealer_->batch(want, ranks_);
  }
  // The finished items of `rank` (cpu: its process's CPU seconds so far, < 0 if not known).
  void add(int rank, const ClassSweepState& delta, double cpu = -1) {
    const std::lock_guard lock(mutex_);
    add_sweep(state_, delta, job_.options.samples_per_index, job_.options.sample_indices);
    RankLoad& load = loads_[static_cast<std::size_t>(rank)];
    load.items += delta.items_done();
    load.states += delta.states;
    load.busy += delta.seconds;
    if (cpu >= 0) load.cpu = cpu;
    load.heard = Clock::now();
  }

  void note_cpu(int rank, double cpu) {
    const std::lock_guard lock(mutex_);
    loads_[static_cast<std::size_t>(rank)].cpu = cpu;
  }

  void stop() {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  bool stopping() {
    const std::lock_guard lock(mutex_);
    return stopping_;
  }

  // The state with its wall time (earlier runs' included), saved if there is a checkpoint.
  ClassSweepState save() {
    ClassSweepState state;
    {
      const std::lock_guard lock(mutex_);
      state_.seconds = seconds_before_ + seconds_since(start_);
      state = state_;
    }
    if (checkpoint_) checkpoint_->save(state);
    last_save_ = Clock::now();
    return state;
  }
  void tick() {
    if (checkpoint_ && seconds_since(last_save_) >= job_.options.checkpoint_seconds) save();
    if (seconds_since(last_report_) >= job_.options.progress_seconds) report();
  }

  // The progress lines (main thread only: its CPU time is the dealing's): the job's, with its
  // ETA, then one per rank (the periodic lines of more than kRankLines ranks: their spread).
  void report(bool last = false) {
    last_report_ = Clock::now();
    std::vector<RankLoad> loads;
    std::uint64_t states = 0;
    {
      const std::lock_guard lock(mutex_);
      loads = loads_;
      states = state_.states;
    }
    loads[0].cpu = process_cpu_seconds();
    std::uint64_t done = 0;
    for (const RankLoad& load : loads) done += load.items;
    const double elapsed = seconds_since(start_);
    const std::string eta =
        total_states_ ? eta_text(elapsed, static_cast<double>(states) - states_before_, *total_states_ - states_before_)
                      : eta_text(elapsed, static_cast<double>(done), static_cast<double>(total_ - done_before_));
    char text[320];
    std::snprintf(text, sizeof text, "classes: %s%swork items %llu/%llu, %llu configurations", ranks_ > 1 ? std::to_string(ranks_).c_str() : "",
                  ranks_ > 1 ? " ranks, " : "", static_cast<unsigned long long>(done_before_ + done),
                  static_cast<unsigned long long>(total_), static_cast<unsigned long long>(states));
    std::string line = text;
    if (total_states_) {
      std::snprintf(text, sizeof text, " (%.1f%%)", 100.0 * static_cast<double>(states) / *total_states_);
      line += text;
    }
    std::snprintf(text, sizeof text, ", elapsed %.1f s, ETA %s", elapsed, eta.c_str());
    log(line + text);
    if (ranks_ == 1) return;
    if (last || ranks_ <= kRankLines) {
      for (std::size_t r = 0; r < loads.size(); ++r) {
        const RankLoad& load = loads[r];
        std::snprintf(text, sizeof text, "classes: rank %zu: %llu work items, %llu configurations, busy %.1f s, CPU %.1f s%s",
                      r, static_cast<unsigned long long>(load.items), static_cast<unsigned long long>(load.states), load.busy,
                      load.cpu, r == 0 ? "" : (", last heard " + duration_text(seconds_since(load.heard)) + " ago").c_str());
        line = text;
        if (r == 0) {  // the dealing, gathering and checkpoints: the coordination's cost
          std::snprintf(text, sizeof text, " (its dealing thread %.2f s)", thread_cpu_seconds());
          line += text;
        }
        log(line);
      }
      return;
    }
    // The spread over ranks: least, median and most of their items and busy seconds, and the
    // rank not heard from longest (a stalled rank shows here).
    std::vector<double> items, busy;
    std::size_t silent = 1;
    for (std::size_t r = 0; r < loads.size(); ++r) {
      items.push_back(static_cast<double>(loads[r].items));
      busy.push_back(loads[r].busy);
      if (r > 0 && loads[r].heard < loads[silent].heard) silent = r;
    }
    const auto spread = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      char part[100];
      std::snprintf(part, sizeof part, "%.0f / %.0f / %.0f", v.front(), v[v.size() / 2], v.back());
      return std::string(part);
    };
    log("classes: per rank least / median / most: work items " + spread(items) + ", busy seconds " + spread(busy) +
        "; rank " + std::to_string(silent) + " last heard " + duration_text(seconds_since(loads[silent].heard)) + " ago");
  }

  void log(const std::string& line) const {
    if (job_.log) job_.log(line);
  }
  const ClassJob& job() const { return job_; }
  bool has_checkpoint() const { return checkpoint_.has_value(); }
  std::string checkpoint_path() const { return checkpoint_ ? checkpoint_->path().string() : ""; }

 private:
  const ClassJob& job_;
  int ranks_;
  std::mutex mutex_;
  ClassSweepState state_;
  std::optional<ClassCheckpoint> checkpoint_;
  std::vector<ItemRange> job_items_;
  std::optional<ItemDealer> dealer_;
  std::uint64_t total_ = 0, done_before_ = 0;
  std::vector<RankLoad> loads_;
  bool stopping_ = false;
  double seconds_before_ = 0;
  double states_before_ = 0;
  std::optional<double> total_states_;  // configurations of the whole job
  Clock::time_point start_ = Clock::now(), last_save_ = Clock::now(), last_report_ = Clock::now();
};

// Runs this process's share in the background: its threads take items from `next` until it
// returns nullopt.
std::unique_ptr<BackgroundWork> local_sweep(const ClassJob& job, std::function<std::optional<std::uint64_t>()> next,
                                            std::function<void(ClassSweepState&&)> on_item, std::function<bool()> stop) {
  return std::make_unique<BackgroundWork>([&job, next = std::move(next), on_item = std::move(on_item), stop = std::move(stop)] {
    ClassEngineOptions options = job.options;
    options.should_stop = stop;
    sweep_work_items(job.rules, options, next, [&](std::uint64_t, ClassSweepState&& delta) { on_item(std::move(delta)); });
  });
}

ClassJobResult finish(Coordinator& coordinator, bool stopped) {
  const ClassSweepState state = coordinator.save();
  coordinator.report(true);
  ClassJobResult result;
  result.stopped = stopped;
  result.finished = coordinator.finished();
  result.census = census_of_sweep(coordinator.job().rules, state);
  result.checkpoint = coordinator.checkpoint_path();
  if (stopped)
    coordinator.log(coordinator.has_checkpoint() ? "classes: stopped early; --resume continues from " + coordinator.checkpoint_path()
                                                 : "classes: stopped early; without --out there is no checkpoint");
  return result;
}

ClassJobResult run_in_process(const ClassJob& job) {
  Coordinator coordinator(job, 1);
  std::atomic<bool> stop{false};
  const std::unique_ptr<BackgroundWork> local = local_sweep(
      job, [&] { return coordinator.next_local(); }, [&](ClassSweepState&& delta) { coordinator.add(0, delta); },
      [&] { return stop.load(); });
  while (!local->finished()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (job.should_stop && job.should_stop() && !stop) {
      stop = true;
      coordinator.stop();
      coordinator.save();  // at once: the running items may take long
    }
    coordinator.tick();
  }
  try {
    local->join();
  } catch (...) {
    coordinator.save();
    throw;
  }
  return finish(coordinator, stop);
}

#ifdef RUSHHOUR_WITH_MPI

ClassJobResult run_rank0(const ClassJob& job, int ranks) {
  std::optional<Coordinator> made;
  std::exception_ptr refused;
  try {
    made.emplace(job, ranks);
  } catch (...) {
    refused = std::current_exception();
  }
  if (!job_starts(!refused)) std::rethrow_exception(refused);
  Coordinator& coordinator = *made;
  coordinator.log("classes: " + std::to_string(ranks) + " ranks, " + std::to_string(job.options.threads) +
                  " threads on rank 0, " + std::to_string(coordinator.remaining_to_deal()) + " work items to run");
  std::atomic<bool> stop{false};
  const std::unique_ptr<BackgroundWork> local = local_sweep(
      job, [&] { return coordinator.next_local(); }, [&](ClassSweepState&& delta) { coordinator.add(0, delta); },
      [&] { return stop.load(); });
  try {
    serve_ranks({.ranks = ranks,
                 .batch = [&](std::uint64_t want) { return coordinator.next_batch(want); },
                 .results = [&](int rank, double cpu,
                                const std::vector<std::uint64_t>& words) { coordinator.add(rank, decode_state(words), cpu); },
                 .done = [&](int rank, double cpu) { coordinator.note_cpu(rank, cpu); },
                 .local_finished = [&] { return local->finished(); },
                 .should_stop = [&] { return job.should_stop && job.should_stop(); },
                 .on_stop =
                     [&] {
                       stop = true;
                       coordinator.stop();
                       coordinator.save();  // at once: a launcher's SIGKILL may follow
                       coordinator.log("classes: stopping; the ranks finish their running items");
                     },
                 .tick = [&] { coordinator.tick(); }});
    local->join();
  } catch (const std::exception& e) {
    coordinator.save();
    abort_job(e.what(), 0);
  }
  return finish(coordinator, stop);
}

void run_worker_rank(const ClassJob& job, int rank) {
  if (!job_starts(false)) return;
  std::mutex mutex;
  ItemQueue queue;
  ClassSweepState pending;  // finished items not yet sent
  const std::unique_ptr<BackgroundWork> local = local_sweep(
      job, [&] { return queue.next(); },
      [&](ClassSweepState&& delta) {
        const std::lock_guard lock(mutex);
        add_sweep(pending, delta, job.options.samples_per_index, job.options.sample_indices);
      },
      [&] { return queue.stopped(); });
  try {
    serve_rank0(queue, {.want = static_cast<std::uint64_t>(std::max(1, job.options.threads)),
                        .take_results =
                            [&] {
                              const std::lock_guard lock(mutex);
                              std::vector<std::uint64_t> words;
                              if (pending.items_done() == 0) return words;
                              words = encode_state(pending);
                              pending = ClassSweepState{};
                              return words;
                            },
                        .local_finished = [&] { return local->finished(); },
                        .should_stop = [&] { return job.should_stop && job.should_stop(); }});
    local->join();
  } catch (const std::exception& e) {
    abort_job(e.what(), rank);
  }
}

ClassJobResult run_over_mpi(const ClassJob& job) {
  ClassJobResult result;
  with_mpi([&](int rank, int ranks) {
    if (rank == 0) {
      result = run_rank0(job, ranks);
    } else {
      ClassJob quiet = job;
      quiet.log = nullptr;
      run_worker_rank(quiet, rank);
    }
    result.ranks = ranks;
  });
  return result;
}

#endif

}  // namespace

ClassJobResult run_class_job(const ClassJob& job) {
#ifdef RUSHHOUR_WITH_MPI
  if (job.over_mpi) return run_over_mpi(job);
#endif
  return run_in_process(job);
}

MergedParts merge_item_parts(const std::vector<std::filesystem::path>& part_directories) {
  if (part_directories.empty()) throw InputError("merge needs the directories of the parts");
  MergedParts merged;
  std::map<int, std::filesystem::path> seen;
  int parts = 0;
  int samples = 0, sample_indices = 0;
  for (const std::filesystem::path& directory : part_directories) {
    const std::optional<RunDirectory::SavedSweep> saved = RunDirectory(directory).saved_class_sweep();
    if (!saved) throw InputError(directory.string() + ": no class sweep checkpoint (not a part of a job)");
    const ItemPart part = saved->identity.part;
    if (part.whole())
      throw InputError(directory.string() + ": not a part (a run of every work item: " + saved->identity.text() + ")");
    const std::string parameters = saved->identity.whole().text();
    if (merged.parameters.empty()) {
      merged.parameters = parameters;
      parts = part.parts;
      samples = saved->identity.samples_per_index;
      sample_indices = saved->identity.sample_indices;
    } else if (parameters != merged.parameters) {
      throw InputError(directory.string() + ": a part of other parameters (" + parameters + ", not " +
                       merged.parameters + ")");
    } else if (part.parts != parts) {
      throw InputError(directory.string() + ": part " + part.describe() + " of a split into " +
                       std::to_string(part.parts) + ", the others into " + std::to_string(parts));
    }
    if (const auto [it, fresh] = seen.emplace(part.part, directory); !fresh)
      throw InputError("part " + part.describe() + " is given twice: " + it->second.string() + " and " + directory.string());
    const std::uint64_t missing = count_of(missing_of(part_items(saved->state.items, part), saved->state));
    if (missing > 0)
      throw InputError(directory.string() + ": part " + part.describe() + " is not finished (" + std::to_string(missing) +
                       " of its work items missing; --resume it)");
    if (!saved->state.refused.empty())
      throw InputError(directory.string() + ": part " + part.describe() + " has " +
                       std::to_string(saved->state.refused.size()) +
                       " work items refused by the memory bound (--resume it with more memory)");
    const std::uint64_t beyond = saved->state.items_done() - count_of(part_items(saved->state.items, part));
    if (beyond != 0) throw InputError(directory.string() + ": part " + part.describe() + " holds items of other parts");
    try {
      add_sweep(merged.state, saved->state, samples, sample_indices);
    } catch (const InputError& e) {
      throw InputError(directory.string() + ": " + e.what());
    }
  }
  std::string missing;
  for (int p = 1; p <= parts; ++p)
    if (!seen.count(p)) missing += (missing.empty() ? "" : ", ") + std::to_string(p);
  if (!missing.empty())
    throw InputError("parts missing: " + missing + " of " + std::to_string(parts));
  return merged;
}

}  // namespace rushhour::run
