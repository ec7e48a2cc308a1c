#include "run/partitioned_run.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "bdd/domain_variable.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/lines.hpp"
#include "encoding/line_diagram.hpp"
#include "encoding/line_partition.hpp"
#include "encoding/slot_encoding.hpp"
#include "retrograde/retrograde.hpp"
#include "run/part_run.hpp"
#include "run/job_scheduler.hpp"
#include "run/rank_dealing.hpp"
#include "storage/line_diagram_file.hpp"
#include "storage/item_records.hpp"
#include "storage/parts_checkpoint.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour::run {
namespace {

void add_counts(std::vector<Count>& into, const std::vector<Count>& part) {
  if (into.size() < part.size()) into.resize(part.size(), 0);
  for (std::size_t i = 0; i < part.size(); ++i) into[i] += part[i];
}

void add_components(std::vector<std::int64_t>& into, const std::vector<std::int64_t>& part) {
  if (into.size() < part.size()) into.resize(part.size(), 0);
  for (std::size_t i = 0; i < part.size(); ++i)
    into[i] = into[i] < 0 || part[i] < 0 ? -1 : into[i] + part[i];
}

// What every part's classification needs, the same in the parent and in worker processes.
struct PartContext {
  const Rules& rules;
  const PartNumbering& numbering;
  const PartStore* store;  // nullptr: no --out
  PartRunOptions options;
};

// The figures of a classified part, as a part file and a worker's reply hold them.
PartFigures part_figures(std::uint64_t number, const PartRun& run, const PartContext& context) {
  const Classification& got = run.figures;
  PartFigures part;
  part.number = number;
  part.interrupted = run.interrupted;
  part.complete = got.complete && !run.interrupted;
  part.domain = got.domain_count;
  part.winning = got.winning_count;
  part.solvable = got.solvable_count;
  part.unsolvable = got.unsolvable_count;
  part.layers = got.layers;
  if (context.options.retrograde.dominance) {
    part.nondominated = got.nondominated;
    part.components = got.components;
  }
  for (std::size_t i = 0; i < run.least.size(); ++i)
    for (const auto& [key, board] : run.least[i])
      part.samples.push_back({static_cast<std::uint32_t>(i), key, to_board_string(context.rules, board)});
  part.table_nodes = static_cast<std::uint64_t>(run.table_nodes);
  return part;
}

// The part's configurations per index and vehicle totals, for queries filtered by vehicles.
void add_vehicle_counts(const Rules& rules, const SlotEncoding& encoding, const std::vector<bdd>& layers,
                        PartFigures& figures) {
  // Only totals the run's domain can hold: within its vehicle limits and the board's cells.
  const int cells = rules.size() * rules.size();
  const std::map<std::pair<int, int>, bdd> distribution = encoding.vehicle_distribution(
      [&](int cars, int trucks) { return rules.limits().allows(cars, trucks) && kCar * cars + kTruck * trucks <= cells; });
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (const auto& [totals, configurations] : distribution) {
      const bdd states = layers[i] & configurations;
      if (states == bddfalse) continue;
      figures.vehicle_counts.push_back(
          {static_cast<std::uint32_t>(i), totals.first, totals.second, encoding.state_set(states).count()});
    }
  figures.has_vehicle_counts = true;
}

// Classifies part `number` (run/part_run.hpp), saves it if the run has a directory and the
// part was not interrupted, and returns its figures.
PartFigures classify_numbered_part(const PartContext& context, std::uint64_t number) {
  PartFigures figures;
  PartRunOptions options = context.options;
  if (context.store != nullptr)
    options.on_finished = [&](BddSession& session, const SlotEncoding& encoding, const std::vector<bdd>& layers,
                              const PartRun& run) {
      figures = part_figures(number, run, context);
      figures.index_variable = session.variable_count();
      figures.index_bits = std::max(1, bits_for(static_cast<int>(layers.size())));
      session.ensure_variables(figures.index_variable + figures.index_bits);
      add_vehicle_counts(context.rules, encoding, layers, figures);
      context.store->save(figures, layer_identity(encoding, context.rules.metric()), layers);
      session.check();
    };
  const PartRun run = classify_part(context.rules, context.numbering.part(number), options);
  if (context.store == nullptr || run.interrupted) figures = part_figures(number, run, context);
  return figures;
}

// The run's figures, part by part.
class PartSum {
 public:
  PartSum(const RunSettings& settings, bool dominance) : figures_(settings.common.rules), dominance_(dominance) {
    figures_.engine = "bdd";
    figures_.encoding = "slot";
    figures_.variable_order = settings.symbolic.slot.order;
    figures_.complete = true;
  }

  void add(const PartFigures& part, int samples_per_index) {
    Classification& figures = figures_;
    figures.complete = figures.complete && part.complete;
    parts_complete_ = parts_complete_ && part.complete;
    figures.domain_count += part.domain;
    figures.winning_count += part.winning;
    figures.solvable_count += part.solvable;
    figures.unsolvable_count += part.unsolvable;
    if (figures.layers.size() < part.layers.size()) figures.layers.resize(part.layers.size());
    for (std::size_t i = 0; i < part.layers.size(); ++i) {
      figures.layers[i].count += part.layers[i].count;
      figures.layers[i].bdd_nodes += part.layers[i].bdd_nodes;
      figures.layers[i].seconds += part.layers[i].seconds;
    }
    if (dominance_) {
      add_counts(figures.nondominated, part.nondominated);
      add_components(figures.components, part.components);
    }
    std::set<int> touched;
    for (const PartFigures::Sample& sample : part.samples) {
      samples_[static_cast<int>(sample.index)].emplace_back(sample.key, sample.board);
      touched.insert(static_cast<int>(sample.index));
    }
    for (int index : touched) {
      auto& kept = samples_[index];
      std::sort(kept.begin(), kept.end());
      if (static_cast<int>(kept.size()) > samples_per_index) kept.resize(static_cast<std::size_t>(samples_per_index));
    }
    largest_table_ = std::max(largest_table_, part.table_nodes);
    if (!part.has_vehicle_counts) every_vehicle_count_ = false;
    for (const PartFigures::VehicleCount& v : part.vehicle_counts)
      vehicle_totals_[{static_cast<int>(v.index), v.cars, v.trucks}] += v.count;
  }
  // Every part's vehicle counts summed, nullopt if a part has none (a part file written
  // before they were kept).
  std::optional<PartStore::VehicleTotals> vehicle_totals() const {
    if (!every_vehicle_count_) return std::nullopt;
    return vehicle_totals_;
  }
  void stopped() { figures_.complete = false; }

  // The sum as the figures of one part (number 0) that holds every part added: add() of it
  // to an empty sum gives this sum, with the least samples of every index. No vehicle counts.
  PartFigures as_part() const {
    PartFigures part;
    part.complete = parts_complete_;
    part.domain = figures_.domain_count;
    part.winning = figures_.winning_count;
    part.solvable = figures_.solvable_count;
    part.unsolvable = figures_.unsolvable_count;
    part.layers = figures_.layers;
    part.nondominated = figures_.nondominated;
    part.components = figures_.components;
    for (const auto& [index, kept] : samples_)
      for (const auto& [key, board] : kept) part.samples.push_back({static_cast<std::uint32_t>(index), key, board});
    part.table_nodes = largest_table_;
    return part;
  }

  std::uint64_t largest_table() const { return largest_table_; }
  const Classification& figures() const { return figures_; }

  // The summed figures, with the samples of the run's highest indices.
  Classification result(const CommonSettings& common) {
    Classification figures = figures_;
    // Every part leaves its empty first layer out, so the run's layers end at its maximum index.
    const int max_index = figures.max_index();
    for (auto it = samples_.rbegin(); it != samples_.rend(); ++it)
      if (max_index - it->first < common.sample_indices)
        for (const auto& [key, board] : it->second)
          figures.samples.push_back({board, static_cast<std::uint32_t>(it->first)});
    if (!figures.complete || (dominance_ && figures.nondominated.size() != figures.layers.size())) {
      figures.nondominated.clear();
      figures.components.clear();
    }
    return figures;
  }

 private:
  Classification figures_;
  bool parts_complete_ = true;  // every part added complete (figures_.complete is also false after a stop)
  bool dominance_;
  std::map<int, std::vector<std::pair<Count, std::string>>> samples_;  // index -> (key, board)
  std::uint64_t largest_table_ = 0;
  PartStore::VehicleTotals vehicle_totals_;
  bool every_vehicle_count_ = true;
};

// A partitioned run: its parts, options, saved parts and summed figures, whoever classifies
// the parts (this process, its worker processes or MPI ranks).
class PartitionedRun {
 public:
  // `prepares` (this process, or MPI's rank 0): clears what an earlier run left in the
  // directory; other ranks only save their parts there.
  PartitionedRun(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log, bool prepares)
      : settings_(settings),
        log_(log),
        partition_(parse_partition(settings.symbolic.partition, settings.common.rules)),
        numbering_(partition_, settings.common.rules),
        part_count_(count_parts(partition_, settings.common.rules)),
        stride_(static_cast<std::uint64_t>(settings.symbolic.part_stride)),
        sum_(settings, settings.symbolic.retrograde(settings.common).dominance),
        finished_sum_(settings, settings.symbolic.retrograde(settings.common).dominance),
        prepares_(prepares) {
    const CommonSettings& common = settings.common;
    const SymbolicSettings& s = settings.symbolic;
    options_ = PartRunOptions{.slot = s.slot,
                              .bdd = s.bdd,
                              .retrograde = s.retrograde(common),
                              .samples_per_index = common.samples_per_index,
                              .sample_indices = common.sample_indices};
    options_.retrograde.closure_note_seconds = -1;
    options_.retrograde.should_stop = [] { return StopSignals::stop_requested(); };
    if (directory == nullptr) return;
    root_ = directory->root();
    identity_ = partitioned_run_identity(common.rules, s.slot, partition_.name, s.max_layers,
                                         options_.retrograde.dominance, s.components_from, common.samples_per_index,
                                         common.sample_indices);
    if (s.part_layers) store_ = std::make_unique<PartStore>(directory->parts(identity_));
    else checkpoint_ = std::make_unique<PartsCheckpoint>(*root_, identity_);
    if (!prepares) return;
    constexpr auto kind = RunDirectory::RunKind::Parts;
    if (const int removed = directory->remove_other_runs(kind); removed > 0)
      log.line("removed " + std::to_string(removed) + " " + RunDirectory::other_runs(kind));
    directory->parts(identity_).remove_vehicle_totals();  // written again once the run is complete
    if (!common.resume) {
      if (const int removed = directory->clear_parts(); removed > 0)
        log.line("fresh run: removed " + std::to_string(removed) + " old part files");
      std::error_code ignored;  // a fresh run never reads it, and saves its own over it
      std::filesystem::remove(directory->whole_layers_file(), ignored);
    } else if (store_ && directory->has_part_figures_only()) {
      throw InputError(PartsCheckpoint::file_in(*root_).string() +
                       ": this run keeps its finished parts as figures only; resume it with --part-files figures");
    }
    // Without part files, each part's digest is what `verify` can compare a part solved again with.
    if (checkpoint_) part_records_.emplace(*root_, identity_, !common.resume, RecordedUnits::Parts);
  }

  // Layers 0..K-1 of the whole domain (--whole-layers K), which every part then reads: the
  // first layers' BDDs are small whole and cost far more split into parts
  // (results/partition-study.md). Saved in the run directory, and read from there when the
  // run resumes. False if a stop signal ended them.
  bool compute_whole_layers() {
    const int wanted = settings_.symbolic.whole_layers;
    if (wanted == 0) return true;
    RetrogradeOptions options = settings_.symbolic.retrograde(settings_.common);
    options.max_layers = options.max_layers < 0 ? wanted : std::min(wanted, options.max_layers);
    const std::string identity = identity_ + " whole-layers=" + std::to_string(options.max_layers);
    const auto start = Clock::now();
    if (root_ && settings_.common.resume) {
      const int size = settings_.common.rules.size();
      if (std::optional<LineDiagram> saved = load_line_diagram(
              whole_layers_path(), identity, line_sequence(settings_.symbolic.slot.order, size), LineTable(size).size())) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.2f s", seconds_since(start));
        log_.line("whole domain: layers 0.." + std::to_string(static_cast<int>(saved->roots.size()) - 1) +
                  " read from " + whole_layers_path().string() + ", a diagram of " +
                  std::to_string(saved->nodes.size()) + " nodes, in " + seconds);
        options_.whole_layers = std::make_shared<const LineDiagram>(std::move(*saved));
        return true;
      }
    }
    const double start_cpu = process_cpu_seconds();
    BddSession session(0, settings_.symbolic.bdd);
    const SlotEncoding encoding(session, settings_.common.rules, settings_.symbolic.slot);
    options.dominance = false;
    options.samples_per_index = 0;
    options.should_stop = [] { return StopSignals::stop_requested(); };
    const SymbolicRun run = classify_symbolic(encoding, session, options);
    if (run.interrupted) return false;
    const double layer_seconds = seconds_since(start);
    std::uint64_t largest = 0;
    for (const LayerFigures& layer : run.figures.layers) largest = std::max(largest, layer.bdd_nodes);
    auto diagram = std::make_shared<const LineDiagram>(to_line_diagram(encoding, run.layers));
    char text[240];
    std::snprintf(text, sizeof text,
                  "whole domain: layers 0..%d in %.2f s (largest %llu BDD nodes), as a diagram of %zu nodes in "
                  "%.2f s; CPU %.2f s",
                  static_cast<int>(run.layers.size()) - 1, layer_seconds, static_cast<unsigned long long>(largest),
                  diagram->nodes.size(), seconds_since(start) - layer_seconds, process_cpu_seconds() - start_cpu);
    log_.line(text);
    if (root_ && prepares_) {
      // A file that cannot be written costs a resume these layers, not the run.
      try {
        save_line_diagram(whole_layers_path(), *diagram, identity);
      } catch (const std::exception& error) {
        log_.line(std::string("whole domain: not saved (") + error.what() + "); a resume computes the layers again");
      }
    }
    options_.whole_layers = std::move(diagram);
    return true;
  }

  std::filesystem::path whole_layers_path() const { return RunDirectory(*root_).whole_layers_file(); }

  std::uint64_t to_classify() const { return (part_count_ + stride_ - 1) / stride_; }
  std::string describe() const {
    return "partition " + partition_.name + ": " + std::to_string(part_count_) + " parts" +
           (stride_ > 1 ? ", every " + std::to_string(stride_) + "th classified (" + std::to_string(to_classify()) + ")"
                        : std::string());
  }
  // The part numbers to classify, in for_each_part order; with --resume, the finished parts'
  // figures are added instead: from their part files, or from the checkpoint of a run that
  // keeps figures only, which also takes in (and then removes) any part files it finds.
  std::vector<ItemRange> parts_to_classify() {
    std::vector<ItemRange> parts;
    std::uint64_t seen = 0, resumed = 0, converted = 0;
    std::vector<std::uint64_t> checkpointed;
    if (checkpoint_ && settings_.common.resume)
      if (std::optional<PartsCheckpoint::Saved> saved = checkpoint_->load()) {
        checkpointed = std::move(saved->finished);
        add_finished(saved->sum, checkpointed);
        log_.line("resumed " + std::to_string(checkpointed.size()) + " finished parts from " +
                  checkpoint_->path().string());
      }
    const std::optional<PartStore> part_files =
        root_ && settings_.common.resume ? std::optional<PartStore>(PartStore(*root_, identity_)) : std::nullopt;
    for_each_part(partition_, settings_.common.rules, [&](const DomainPart& part) {
      if (seen++ % stride_ != 0) return true;
      const std::uint64_t number = numbering_.number(part);
      if (std::binary_search(checkpointed.begin(), checkpointed.end(), number)) return true;
      if (part_files) {
        if (std::optional<PartFigures> saved = part_files->figures(number)) {
          add_finished(*saved, {number});
          ++(store_ ? resumed : converted);
          return true;
        }
      }
      if (!parts.empty() && parts.back().end == number) ++parts.back().end;
      else parts.push_back({number, number + 1});
      return true;
    });
    if (resumed > 0)
      log_.line("resumed " + std::to_string(resumed) + " finished parts from " + part_files->directory().string());
    if (converted > 0) {
      save_checkpoint();
      part_files->clear();
      log_.line("took the figures of " + std::to_string(converted) + " part files into " +
                checkpoint_->path().string() + " and removed the part files");
    }
    return parts;
  }
  // Classifies part `number` (saved if the run has a directory and it was not interrupted).
  PartFigures classify(std::uint64_t number, std::function<bool()> should_stop = nullptr) const {
    PartContext context{settings_.common.rules, numbering_, store_.get(), options_};
    if (should_stop) context.options.retrograde.should_stop = std::move(should_stop);
    return classify_numbered_part(context, number);
  }
  // Adds a part's figures (the scheduler's coordinator thread).
  void add(const PartFigures& part) {
    sum_.add(part, settings_.common.samples_per_index);
    ++done_;
    if (checkpoint_ && !part.interrupted) {
      finished_sum_.add(part, settings_.common.samples_per_index);
      finished_.push_back(part.number);
      if (part_records_) part_records_->append(part.number, part_digest(part));
    }
  }
  void stopped() { sum_.stopped(); }
  // A run that keeps figures only saves the finished parts' sum (its only record of them).
  void checkpoint() {
    if (checkpoint_ && prepares_) save_checkpoint();
  }
  std::string progress_line() const {
    char text[200];
    std::snprintf(text, sizeof text, "parts %llu/%llu, %d layers so far, largest node table %llu, %.2f s",
                  static_cast<unsigned long long>(done_), static_cast<unsigned long long>(to_classify()),
                  static_cast<int>(sum_.figures().layers.size()), static_cast<unsigned long long>(sum_.largest_table()),
                  seconds_since(start_));
    return text;
  }
  // The run's figures, with one progress line per layer.
  Classification result() {
    checkpoint();
    Classification figures = sum_.result(settings_.common);
    // The layers, summed over the parts (their nodes: the parts' BDDs, summed; their seconds:
    // the parts' time on them, summed).
    std::uint64_t nodes = 0;
    for (int i = 0; i <= figures.max_index(); ++i) {
      const LayerFigures& layer = figures.layers[static_cast<std::size_t>(i)];
      nodes += layer.bdd_nodes;
      log_.line(layer_line(i, layer.count, layer.bdd_nodes, layer.seconds, seconds_since(start_)));
    }
    log_.line("parts' layers: " + std::to_string(nodes) + " nodes in all");
    if (store_ && figures.complete && stride_ == 1)
      if (const std::optional<PartStore::VehicleTotals> totals = sum_.vehicle_totals()) store_->save_vehicle_totals(*totals);
    figures.seconds = seconds_since(start_);
    // With worker processes, the largest of them (each holds one part's BDDs at a time).
    figures.peak_rss_bytes = std::max(peak_rss_bytes(), peak_child_rss_bytes());
    return figures;
  }

 private:
  // Parts finished before this process started (from part files or a checkpoint): their
  // figures, counted as done; `numbers` ascending.
  void add_finished(const PartFigures& figures, const std::vector<std::uint64_t>& numbers) {
    sum_.add(figures, settings_.common.samples_per_index);
    done_ += numbers.size();
    if (!checkpoint_) return;
    finished_sum_.add(figures, settings_.common.samples_per_index);
    finished_.insert(finished_.end(), numbers.begin(), numbers.end());
  }
  void save_checkpoint() {
    // Every part the checkpoint counts as finished has its record on disk first.
    if (part_records_) part_records_->flush();
    std::sort(finished_.begin(), finished_.end());
    checkpoint_->save({finished_, finished_sum_.as_part()});
  }

  const RunSettings& settings_;
  ProgressLog& log_;
  const Partition partition_;
  const PartNumbering numbering_;
  const std::uint64_t part_count_;
  const std::uint64_t stride_;
  PartRunOptions options_;
  std::optional<std::filesystem::path> root_;  // the run directory, if any
  std::string identity_;                       // the run's identity, with a run directory
  std::unique_ptr<PartStore> store_;           // --part-files layers: every finished part's file
  std::unique_ptr<PartsCheckpoint> checkpoint_;  // --part-files figures: the finished parts' summed figures
  std::optional<ItemRecordLog> part_records_;    // ... and each one's digest (the process that prepares)
  PartSum sum_;
  PartSum finished_sum_;                 // with checkpoint_: the parts finished and not interrupted ...
  std::vector<std::uint64_t> finished_;  // ... and their numbers
  const bool prepares_;
  std::uint64_t done_ = 0;
  Clock::time_point start_ = Clock::now();
};

// Classifies parts for the scheduler: each part's figures as text (PartFigures::text, what a
// part file holds), in words.
class PartSolver final : public UnitSolver {
 public:
  explicit PartSolver(const PartitionedRun& run) : run_(run) {}
  Words solve(std::uint64_t unit, const std::function<bool()>& stop) override {
    Words words;
    append_text(words, run_.classify(unit, stop).text());
    return words;
  }

 private:
  const PartitionedRun& run_;
};

// One BuDDy session per process at a time: worker processes classify parts side by side, this
// process or a rank one part at a time.
SchedulerSettings part_scheduling(const RunSettings& settings, Backend backend) {
  return {.backend = backend,
          .workers = backend == Backend::processes ? std::max(1, settings.symbolic.part_workers) : 1,
          .progress_seconds = 10,
          .checkpoint_seconds = settings.symbolic.checkpoint_seconds,
          .lost_rank_seconds = settings.common.lost_rank_seconds,
          .should_stop = [] { return StopSignals::stop_requested(); },
          .log = nullptr};
}

// The parts through the scheduler: dealt to worker processes (several --part-workers), to MPI
// ranks, or classified on one thread; every part's figures added on this thread.
Classification classify_parts(PartitionedRun& run, const std::vector<ItemRange>& parts, SchedulerSettings scheduling,
                              ProgressLog& log) {
  scheduling.log = [&log](const std::string& line) { log.line(line); };
  ScheduledJob job;
  job.name = "parts";
  job.unit_name = "parts";
  job.units = parts;
  job.make_solver = [&run] { return std::make_unique<PartSolver>(run); };
  job.add = [&run](FinishedUnit&& unit) {
    std::size_t at = 0;
    run.add(PartFigures::parse(read_text(unit.result, at), "a worker's part figures"));
  };
  job.checkpoint = [&run] { run.checkpoint(); };
  job.progress = [&run](const ProgressView&) { return run.progress_line(); };
  const SchedulerOutcome outcome = run_job(job, scheduling);
  if (outcome.stopped) run.stopped();
  return run.result();
}

Classification classify_in_process(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) {
  PartitionedRun run(settings, directory, log, true);
  const int workers = static_cast<int>(
      std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(1, settings.symbolic.part_workers)), run.to_classify()));
  log.line(run.describe() + (workers > 1 ? ", " + std::to_string(workers) + " worker processes" : std::string()));
  const std::vector<ItemRange> parts = run.parts_to_classify();
  // Before the workers are forked: they inherit the whole layers.
  if (!parts.empty() && !run.compute_whole_layers()) {
    run.stopped();
    return run.result();
  }
  return classify_parts(run, parts, part_scheduling(settings, workers > 1 ? Backend::processes : Backend::threads), log);
}

#ifdef RUSHHOUR_WITH_MPI
// Rank 0 deals the part numbers and classifies parts on a thread of its own; every rank runs
// one BuDDy session at a time, one part at a time.
Classification classify_on_rank0(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log,
                                  int ranks) {
  std::optional<PartitionedRun> made;
  std::vector<ItemRange> parts;
  std::exception_ptr refused;
  try {
    made.emplace(settings, directory, log, true);
    log.line(made->describe() + ", " + std::to_string(ranks) + " MPI ranks");
    parts = made->parts_to_classify();
  } catch (...) {
    refused = std::current_exception();
  }
  if (!job_starts(!refused)) std::rethrow_exception(refused);
  PartitionedRun& run = *made;
  // Every rank reads the whole layers of its own computation (a rank is one process).
  if (!parts.empty() && !run.compute_whole_layers()) {
    run.stopped();
    parts.clear();  // the ranks still take part in the dealing, which hands out nothing
  }
  return classify_parts(run, parts, part_scheduling(settings, Backend::mpi), log);
}

// Another rank: classifies the parts rank 0 deals it.
void classify_on_rank(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log, int rank) {
  if (!job_starts(false)) return;
  PartitionedRun run(settings, directory, log, false);
  // A stop that ends the whole layers ends this rank's parts too, through the same signal;
  // the rank still answers rank 0, which waits for every rank.
  run.compute_whole_layers();
  run_job_rank([&run] { return std::make_unique<PartSolver>(run); }, part_scheduling(settings, Backend::mpi), rank);
}
#endif

}  // namespace

Classification classify_partitioned(const RunSettings& settings, const RunDirectory* directory,
                                    ProgressLog& log) {
#ifdef RUSHHOUR_WITH_MPI
  if (settings.environment.mpi_launcher) {
    // Ranks other than 0 return no figures (complete = false); rank 0 reports the run's.
    Classification result(settings.common.rules);
    with_mpi([&](int rank, int ranks) {
      if (rank == 0) result = classify_on_rank0(settings, directory, log, ranks);
      else classify_on_rank(settings, directory, log, rank);
    });
    return result;
  }
#endif
  return classify_in_process(settings, directory, log);
}

}  // namespace rushhour::run
