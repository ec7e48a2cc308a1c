#include "run/class_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "board/errors.hpp"
#include "explicit/counting.hpp"
#include "run/job_scheduler.hpp"
#include "run/progress.hpp"
#include "run/rank_dealing.hpp"
#include "run/run_directory.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/item_records.hpp"
#include "util/clock.hpp"
#include "util/fnv1a.hpp"
#include "util/process.hpp"

namespace rushhour::run {
namespace {

// ---- An item's figures as words (results travel between threads, processes and ranks). ----

class WordReader {
 public:
  explicit WordReader(const Words& words) : words_(words) {}
  std::uint64_t next() {
    if (at_ >= words_.size()) throw std::runtime_error("an item's figures are cut short");
    return words_[at_++];
  }
  double next_double() { return double_of_word(next()); }
  SampleKey next_key() {  // 128 bits: high word, low word
    const std::uint64_t high = next();
    return static_cast<SampleKey>(high) << 64 | next();
  }
  bool at_end() const { return at_ == words_.size(); }

 private:
  const Words& words_;
  std::size_t at_ = 0;
};

void append_key(Words& w, SampleKey key) {
  w.push_back(static_cast<std::uint64_t>(key >> 64));
  w.push_back(static_cast<std::uint64_t>(key));
}

// A sweep state: only the pairs with figures.
void append_state(Words& w, const ClassSweepState& s) {
  w.insert(w.end(), {s.items, s.next_item, s.later_items.size()});
  for (const ItemRange& r : s.later_items) w.insert(w.end(), {r.begin, r.end});
  w.insert(w.end(), {s.classes, s.states, word_of_double(s.seconds), static_cast<std::uint64_t>(s.highest), s.tallies.size()});
  for (std::size_t v = 0; v < s.tallies.size(); ++v) {
    const VehicleTally& t = s.tallies[v];
    if (t.domain == 0 && t.count.empty()) continue;
    w.insert(w.end(), {v, t.domain, t.count.size()});
    for (const auto* figures : {&t.count, &t.nondominated, &t.components}) {
      if (figures->size() != t.count.size()) throw std::logic_error("a tally's figures differ in length");
      w.insert(w.end(), figures->begin(), figures->end());
    }
    for (const std::vector<std::uint64_t>& minimal : t.minimal) {
      w.push_back(minimal.size());
      w.insert(w.end(), minimal.begin(), minimal.end());
    }
  }
  w.push_back(~std::uint64_t{0});
  w.push_back(s.sample_keys.size());
  for (const auto& keys : s.sample_keys) {
    w.push_back(keys.size());
    for (const SampleKey key : keys) append_key(w, key);
  }
  w.push_back(s.refused.size());
  w.insert(w.end(), s.refused.begin(), s.refused.end());
}

ClassSweepState read_state(WordReader& r) {
  ClassSweepState s;
  s.items = r.next();
  s.next_item = r.next();
  s.later_items.resize(r.next());
  for (ItemRange& range : s.later_items) range = {r.next(), r.next()};
  s.classes = r.next();
  s.states = r.next();
  s.seconds = r.next_double();
  s.highest = static_cast<int>(r.next());
  s.tallies.resize(r.next());
  for (std::uint64_t v = r.next(); v != ~std::uint64_t{0}; v = r.next()) {
    if (v >= s.tallies.size()) throw std::runtime_error("an item's figures name no tally");
    VehicleTally& t = s.tallies[v];
    t.domain = r.next();
    const std::uint64_t length = r.next();
    for (auto* figures : {&t.count, &t.nondominated, &t.components}) {
      figures->resize(length);
      for (std::uint64_t& value : *figures) value = r.next();
    }
    for (std::vector<std::uint64_t>& minimal : t.minimal) {
      minimal.resize(r.next());
      for (std::uint64_t& value : minimal) value = r.next();
    }
  }
  s.sample_keys.resize(r.next());
  for (auto& keys : s.sample_keys) {
    keys.resize(r.next());
    for (SampleKey& key : keys) key = r.next_key();
  }
  s.refused.resize(r.next());
  for (std::uint64_t& item : s.refused) item = r.next();
  return s;
}

void append_sizes(Words& w, const std::vector<ClassSizeBucket>& sizes) {
  w.push_back(sizes.size());
  for (const ClassSizeBucket& b : sizes) w.insert(w.end(), {b.classes, b.states, word_of_double(b.cpu_seconds)});
}

std::vector<ClassSizeBucket> read_sizes(WordReader& r) {
  std::vector<ClassSizeBucket> sizes(r.next());
  for (ClassSizeBucket& b : sizes) b = {.classes = r.next(), .states = r.next(), .cpu_seconds = r.next_double()};
  return sizes;
}

}  // namespace

Words encode_item(const ItemFigures& f) {
  Words w;
  append_state(w, f.delta);
  w.push_back(f.clusters.records.size());
  for (const ClusterRecord& c : f.clusters.records) {
    append_key(w, c.hardest);
    w.insert(w.end(), {c.highest_index, c.cars, c.trucks, c.walls, c.size, c.hardest_count, c.winning});
    append_key(w, c.other_hardest);
    w.insert(w.end(), {c.other_highest_index, c.other_hardest_count});
  }
  for (const auto* histogram : {&f.clusters.histogram, &f.clusters.other_histogram}) {
    w.push_back(histogram->size());
    w.insert(w.end(), histogram->begin(), histogram->end());
  }
  append_sizes(w, f.class_sizes);
  append_sizes(w, f.solver_class_sizes);
  w.push_back(f.largest_class);
  w.push_back(word_of_double(f.cpu_seconds));
  w.push_back(f.drawn_from);
  w.push_back(f.class_draws.size());
  for (const ClassDraw& d : f.class_draws)
    w.insert(w.end(), {d.configurations, d.times, word_of_double(d.cpu_seconds), static_cast<std::uint64_t>(d.path)});
  w.push_back(word_of_double(f.draw_search_seconds));
  return w;
}

ItemFigures decode_item(const Words& words) {
  WordReader r(words);
  ItemFigures f;
  f.delta = read_state(r);
  f.clusters.records.resize(r.next());
  for (ClusterRecord& c : f.clusters.records) {
    c.hardest = r.next_key();
    c.highest_index = static_cast<std::uint32_t>(r.next());
    c.cars = static_cast<std::uint32_t>(r.next());
    c.trucks = static_cast<std::uint32_t>(r.next());
    c.walls = static_cast<std::uint32_t>(r.next());
    c.size = r.next();
    c.hardest_count = r.next();
    c.winning = r.next();
    c.other_hardest = r.next_key();
    c.other_highest_index = static_cast<std::uint32_t>(r.next());
    c.other_hardest_count = r.next();
  }
  for (auto* histogram : {&f.clusters.histogram, &f.clusters.other_histogram}) {
    histogram->resize(r.next());
    for (std::uint64_t& value : *histogram) value = r.next();
  }
  f.class_sizes = read_sizes(r);
  f.solver_class_sizes = read_sizes(r);
  f.largest_class = r.next();
  f.cpu_seconds = r.next_double();
  f.drawn_from = r.next();
  f.class_draws.resize(r.next());
  for (ClassDraw& d : f.class_draws) {
    d.configurations = r.next();
    d.times = r.next();
    d.cpu_seconds = r.next_double();
    const std::uint64_t path = r.next();
    if (path >= kClassPaths) throw std::runtime_error("an item's figures name no class path " + std::to_string(path));
    d.path = static_cast<ClassPath>(path);
  }
  f.draw_search_seconds = r.next_double();
  if (!r.at_end()) throw std::runtime_error("an item's figures run on past their end");
  return f;
}

namespace {

// ---- The job. ----

// Solves work items for the scheduler.
class ItemUnitSolver final : public UnitSolver {
 public:
  // With `timed`, each item's figures carry the CPU of solving it (two system calls an item:
  // measurable on boards of millions of small items, so only for --estimate).
  ItemUnitSolver(std::unique_ptr<ItemSolver> solver, bool timed) : solver_(std::move(solver)), timed_(timed) {}
  Words solve(std::uint64_t unit, const std::function<bool()>&) override {
    const double before = timed_ ? thread_cpu_seconds() : 0;
    ItemFigures figures = solver_->solve(unit);
    if (timed_) figures.cpu_seconds = thread_cpu_seconds() - before;
    return encode_item(figures);
  }

 private:
  std::unique_ptr<ItemSolver> solver_;
  bool timed_;
};

// A worker's solver of the job's items.
std::unique_ptr<UnitSolver> unit_solver(const ClassJob& job, const ClassItems& items) {
  return std::make_unique<ItemUnitSolver>(job.item_solver ? job.item_solver() : items.solver(),
                                          job.options.record_item_costs);
}

// A state that holds the items of `ranges` (sorted, disjoint) and no figures.
ClassSweepState state_of_items(std::uint64_t items, std::size_t pairs, const std::vector<ItemRange>& ranges) {
  ClassSweepState state;
  state.items = items;
  state.tallies.resize(pairs);
  for (const ItemRange& r : ranges) {
    if (r.begin == state.next_item) state.next_item = r.end;
    else if (!state.later_items.empty() && state.later_items.back().end == r.begin) state.later_items.back().end = r.end;
    else state.later_items.push_back(r);
  }
  return state;
}

// Takes the refused items of `state` that lie in `ranges` out of it (they are in its done set
// with no figures) so that they run again: a resume may have more memory. Returns how many.
std::uint64_t reopen_refused(ClassSweepState& state, const std::vector<ItemRange>& ranges, std::size_t pairs) {
  std::vector<std::uint64_t> reopen, kept_refused;
  for (const std::uint64_t item : state.refused) {
    const auto in = std::upper_bound(ranges.begin(), ranges.end(), item,
                                     [](std::uint64_t value, const ItemRange& r) { return value < r.end; });
    (in != ranges.end() && in->begin <= item ? reopen : kept_refused).push_back(item);
  }
  if (reopen.empty()) return 0;
  reopen.erase(std::unique(reopen.begin(), reopen.end()), reopen.end());
  // The done set (the complement of the missing items) without the reopened items.
  const std::vector<ItemRange> done = complement(state.missing_items(), state.items);
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
  const ClassSweepState done_set = state_of_items(state.items, pairs, kept);
  state.next_item = done_set.next_item;
  state.later_items = done_set.later_items;
  state.refused = std::move(kept_refused);
  return reopen.size();
}

ClassSweepIdentity identity_of(const ClassJob& job) {
  return {.rules = job.rules,
          .samples_per_index = job.options.samples_per_index,
          .sample_indices = job.options.sample_indices,
          .mirror = job.options.mirror,
          .part = job.part,
          .minimal_counts = job.options.minimal_counts};
}

// The coordinator's side: the sweep's state, its checkpoint, its census and its progress.
class ClassSweepJob {
 public:
  ClassSweepJob(const ClassJob& job, const ClassItems& items) : job_(job) {
    pairs_ = tally_shape(job.rules).size();
    state_.items = items.count();
    state_.tallies.resize(pairs_);
    std::optional<ClassSweepState> resumed;
    if (job.options.resume != nullptr) resumed = *job.options.resume;
    else if (!job.out.empty() && job.resume) resumed = class_sweep_to_resume(job);
    if (!job.out.empty()) {
      checkpoint_.emplace(RunDirectory(job.out).class_checkpoint(identity_of(job)));
      if (!resumed) checkpoint_->clear();
      item_records_.emplace(job.out, identity_of(job).text(), !resumed);
    }
    if (resumed) {
      if (resumed->items != state_.items || resumed->tallies.size() != pairs_ ||
          resumed->next_item > state_.items ||
          (!resumed->later_items.empty() && resumed->later_items.back().end > state_.items))
        throw InputError("cannot resume: the class sweep's checkpoint belongs to another board");
      state_ = std::move(*resumed);
    }
    // The job's items: the part's, within the vehicle limits (the others add nothing: they
    // count as done), every stride-th of them for a work sample.
    job_items_ = part_items(state_.items, job.part);
    const std::vector<ItemRange> within = intersection(job_items_, items.within_limits());
    if (count_of(within) < count_of(job_items_)) {
      const std::vector<ItemRange> outside = intersection(complement(within, state_.items), job_items_);
      add_sweep(state_, state_of_items(state_.items, pairs_, missing_of(outside, state_)), job.options.samples_per_index,
                job.options.sample_indices);
    }
    const auto stride = static_cast<std::uint64_t>(std::max(1, job.options.item_stride));
    job_items_ = stride > 1 ? every_kth(within, stride) : within;
    if (!job.only_items.empty()) {
      std::vector<ItemRange> only;
      for (const std::uint64_t item : job.only_items) only.push_back({item, item + 1});
      job_items_ = intersection(job_items_, only);
    }
    if (const std::uint64_t reopened = reopen_refused(state_, job_items_, pairs_); reopened > 0)
      log("classes: " + std::to_string(reopened) + " work items refused by the memory bound run again");
    units_ = missing_of(job_items_, state_);
    done_before_ = count_of(job_items_) - count_of(units_);
    seconds_before_ = state_.seconds;
    states_before_ = static_cast<double>(state_.states);
    // The configurations of a whole job are known ahead (a 7x7 puzzle domain's count takes
    // seconds): the ETA goes by them, since items differ in size by orders of magnitude.
    if (job.part.whole() && stride == 1 && job.only_items.empty())
      total_states_ = static_cast<double>(count_placements(job.rules).domain);
  }

  std::uint64_t to_run() const { return count_of(units_); }

  ScheduledJob scheduled(const ClassItems& items) {
    ScheduledJob s;
    s.name = "classes";
    s.unit_name = "work items";
    s.units = units_;
    s.make_solver = [&items, &job = job_] { return unit_solver(job, items); };
    s.add = [this](FinishedUnit&& unit) { add(decode_item(unit.result)); };
    s.checkpoint = [this] { save(); };
    s.progress = [this](const ProgressView& view) { return progress_line(view); };
    return s;
  }

  ClassJobResult finish(const SchedulerOutcome& outcome) {
    ClassJobResult result;
    result.stopped = outcome.stopped;
    result.ranks = outcome.ranks;
    result.finished = count_of(missing_of(job_items_, state_)) == 0;
    ClassCensus census = census_of_sweep(job_.rules, state_);
    if (job_.options.measure_class_sizes) {
      census.class_sizes = class_sizes_;
      census.solver_class_sizes = solver_class_sizes_;
    }
    census.largest_class = largest_class_;
    result.census = std::move(census);
    result.item_costs = std::move(item_costs_);
    result.checkpoint = checkpoint_ ? checkpoint_->path().string() : "";
    if (outcome.stopped)
      log(checkpoint_ ? "classes: stopped early; --resume continues from " + result.checkpoint
                      : "classes: stopped early; without --out there is no checkpoint");
    return result;
  }

  void log(const std::string& line) const {
    if (job_.log) job_.log(line);
  }

 private:
  void add(ItemFigures&& figures) {
    const std::uint64_t item = figures.delta.later_items.empty() ? 0 : figures.delta.later_items.front().begin;
    if (item_records_) item_records_->append(item, item_digest(figures.delta));
    add_sweep(state_, figures.delta, job_.options.samples_per_index, job_.options.sample_indices);
    if (job_.options.on_clusters && !figures.clusters.records.empty())
      job_.options.on_clusters(item, std::move(figures.clusters));
    if (job_.options.measure_class_sizes) {
      for (auto [sum, more] : {std::pair{&class_sizes_, &figures.class_sizes},
                               std::pair{&solver_class_sizes_, &figures.solver_class_sizes}}) {
        if (sum->size() < more->size()) sum->resize(more->size());
        for (std::size_t k = 0; k < more->size(); ++k) {
          (*sum)[k].classes += (*more)[k].classes;
          (*sum)[k].states += (*more)[k].states;
          (*sum)[k].cpu_seconds += (*more)[k].cpu_seconds;
        }
      }
    }
    largest_class_ = std::max(largest_class_, figures.largest_class);
    if (job_.options.record_item_costs && figures.delta.refused.empty()) {
      if (!figures.class_draws.empty()) {
        item_costs_.push_back(
            cost_of_drawn_classes(item, figures.cpu_seconds - figures.draw_search_seconds, figures.drawn_from,
                                  figures.class_draws));
      } else {
        std::uint64_t configurations = 0;
        for (const VehicleTally& tally : figures.delta.tallies) configurations += tally.domain;
        item_costs_.push_back(cost_of_whole_item(item, figures.cpu_seconds, configurations));
      }
    }
  }

  // The state with its wall time (earlier runs' included), given to on_checkpoint and saved.
  void save() {
    state_.seconds = seconds_before_ + seconds_since(start_);
    if (job_.options.on_checkpoint) job_.options.on_checkpoint(state_);
    // Every item the checkpoint counts as done has its record on disk first.
    if (item_records_) item_records_->flush();
    if (checkpoint_) checkpoint_->save(state_);
  }

  std::string progress_line(const ProgressView& view) const {
    ClassProgress p;
    p.items_done = done_before_ + view.units_done;
    p.items_total = count_of(job_items_);
    p.classes = state_.classes;
    p.states = state_.states;
    p.elapsed = seconds_before_ + view.elapsed;
    if (job_.options.on_progress) job_.options.on_progress(p);
    // A resumed job's rate is this run's: what the checkpoint held is taken off.
    const double states = static_cast<double>(p.states);
    const std::string eta =
        total_states_ ? eta_text(view.elapsed, states - states_before_, *total_states_ - states_before_)
                      : eta_text(view.elapsed, static_cast<double>(view.units_done), static_cast<double>(view.units_total));
    const double percent = total_states_ ? 100.0 * states / *total_states_
                                         : 100.0 * static_cast<double>(p.items_done) / static_cast<double>(std::max<std::uint64_t>(1, p.items_total));
    char text[360];
    std::snprintf(text, sizeof text,
                  "classes: %s%swork items %llu/%llu, %llu classes, %llu configurations (%.1f%%), elapsed %.1f s, ETA %s, RSS %s",
                  view.ranks > 1 ? std::to_string(view.ranks).c_str() : "", view.ranks > 1 ? " ranks, " : "",
                  static_cast<unsigned long long>(p.items_done), static_cast<unsigned long long>(p.items_total),
                  static_cast<unsigned long long>(p.classes), static_cast<unsigned long long>(p.states), percent,
                  p.elapsed, eta.c_str(), mib(current_rss_bytes()).c_str());
    return text;
  }

  const ClassJob& job_;
  std::size_t pairs_ = 0;
  ClassSweepState state_;
  std::optional<ClassCheckpoint> checkpoint_;
  std::optional<ItemRecordLog> item_records_;  // with a run directory
  std::vector<ItemRange> job_items_;
  std::vector<ItemRange> units_;
  std::uint64_t done_before_ = 0;
  double seconds_before_ = 0;
  double states_before_ = 0;
  std::optional<double> total_states_;
  std::vector<ClassSizeBucket> class_sizes_, solver_class_sizes_;
  std::uint64_t largest_class_ = 0;
  std::vector<ItemCost> item_costs_;     // a work sample's, item by item
  Clock::time_point start_ = Clock::now();
};

SchedulerSettings scheduler_settings(const ClassJob& job, Backend backend) {
  return {.backend = backend,
          .workers = std::max(1, job.options.threads),
          .progress_seconds = job.options.progress_seconds,
          .checkpoint_seconds = job.options.checkpoint_seconds,
          .lost_rank_seconds = job.options.lost_rank_seconds,
          .should_stop = [&job] { return (job.should_stop && job.should_stop()) ||
                                         (job.options.should_stop && job.options.should_stop()); },
          .log = job.log || job.options.on_progress ? std::function<void(const std::string&)>(
                                                          [&job](const std::string& line) {
                                                            if (job.log) job.log(line);
                                                          })
                                                    : nullptr};
}

ClassJobResult run_in_process(const ClassJob& job) {
  const ClassItems items(job.rules, job.options);
  ClassSweepJob sweep(job, items);
  const ScheduledJob scheduled = sweep.scheduled(items);
  const double cpu_before = process_cpu_seconds();
  const SchedulerOutcome outcome = run_job(scheduled, scheduler_settings(job, Backend::threads));
  const double scheduling = process_cpu_seconds() - cpu_before;
  ClassJobResult result = sweep.finish(outcome);
  result.scheduling_cpu_seconds = scheduling;
  return result;
}

#ifdef RUSHHOUR_WITH_MPI
ClassJobResult run_over_mpi(const ClassJob& job) {
  ClassJobResult result;
  with_mpi([&](int rank, int ranks) {
    const ClassItems items(job.rules, job.options);
    if (rank != 0) {
      ClassJob quiet = job;
      quiet.log = nullptr;
      if (job_starts(false))
        run_job_rank([&items, &job] { return unit_solver(job, items); }, scheduler_settings(quiet, Backend::mpi), rank);
      result.ranks = ranks;
      return;
    }
    std::optional<ClassSweepJob> made;
    std::exception_ptr refused;
    try {
      made.emplace(job, items);
    } catch (...) {
      refused = std::current_exception();
    }
    if (!job_starts(!refused)) std::rethrow_exception(refused);
    made->log("classes: " + std::to_string(ranks) + " ranks, " + std::to_string(job.options.threads) +
              " threads on rank 0, " + std::to_string(made->to_run()) + " work items to run");
    const ScheduledJob scheduled = made->scheduled(items);
    result = made->finish(run_job(scheduled, scheduler_settings(job, Backend::mpi)));
  });
  return result;
}
#endif

}  // namespace

std::optional<ClassSweepState> class_sweep_to_resume(const ClassJob& job) {
  const RunDirectory directory(job.out);
  std::string why;
  std::optional<ClassSweepState> saved = directory.class_sweep_to_resume(identity_of(job), &why);
  if (!saved && std::filesystem::exists(ClassCheckpoint::file_in(job.out))) throw InputError("cannot resume: " + why);
  if (job.log)
    job.log(saved ? "classes: resuming with " + std::to_string(saved->items_done()) + " of " +
                        std::to_string(saved->items) + " work items finished"
                  : "classes: " + why + ", starting at the first work item");
  return saved;
}

ClassJobResult run_class_job(const ClassJob& job) {
#ifdef RUSHHOUR_WITH_MPI
  if (job.over_mpi) return run_over_mpi(job);
#endif
  return run_in_process(job);
}

ClassCensus classify_by_classes(const Rules& rules, const ClassEngineOptions& options) {
  const ClassJob job{.rules = rules,
                     .options = options,
                     .out = {},
                     .resume = false,
                     .over_mpi = false,
                     .part = {},
                     .only_items = {},
                     .log = nullptr,
                     .should_stop = nullptr,
                     .item_solver = nullptr};
  return std::move(*run_class_job(job).census);
}

std::uint64_t item_digest(const ClassSweepState& figures) {
  Fnv1a64 hash;
  const auto add = [&hash](std::uint64_t word) { hash.add_word(word); };
  for (std::size_t v = 0; v < figures.tallies.size(); ++v) {
    const VehicleTally& t = figures.tallies[v];
    if (t.domain == 0 && t.count.empty()) continue;
    add(v);
    add(t.domain);
    for (const auto* values : {&t.count, &t.nondominated, &t.components}) {
      add(values->size());
      for (const std::uint64_t value : *values) add(value);
    }
  }
  add(figures.refused.size());
  for (const std::uint64_t item : figures.refused) add(item);
  return hash.value();
}

}  // namespace rushhour::run
