#include "run/class_sweep_engine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "board/errors.hpp"
#include "explicit/counting.hpp"
#include "run/class_sweep.hpp"
#include "run/symbolic_class.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/cluster_database.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour::run {

namespace {

// Items with a class above the memory bound are not in the figures: the run ends with exit 1
// and names where the rest is kept and how to retry them.
[[noreturn]] void throw_refused_items(const ClassCensus& census, const std::string& checkpoint,
                                      const std::string& retry) {
  throw std::runtime_error(
      std::to_string(census.refused.size()) + " work items hold a class above the memory bound (--max-memory, " +
      "shared by --threads), e.g. item " + std::to_string(census.refused.front()) +
      (checkpoint.empty() ? "; without --out nothing is kept"
                          : "; every other item is in " + checkpoint + ", and " + retry));
}

// The engine's options with the symbolic path for large classes, except with --clusters (the
// records come from the classes solved here) and with walls (the symbolic engine has none): a
// class above the memory bound then refuses its item.
ClassEngineOptions sweep_options(const RunSettings& s) {
  ClassEngineOptions options = s.sweep.engine_options(s.common);
  if (s.sweep.clusters.empty() && s.common.rules.walls().none())
    options.class_solver =
        symbolic_class_solver(s.common.rules, options.samples_per_index, options.sample_indices);
  return options;
}

// The parameters of a sweep's cluster records: the sweep's identity and the least highest
// index recorded.
std::string cluster_parameters(const RunSettings& s, const ClassEngineOptions& options) {
  const ClassSweepIdentity identity{.rules = s.common.rules,
                                    .samples_per_index = options.samples_per_index,
                                    .sample_indices = options.sample_indices,
                                    .mirror = options.mirror};
  return identity.text() + " cluster_min_index=" + std::to_string(s.sweep.cluster_min_index) +
         (s.sweep.cluster_minimal ? " minimal=1 minimal_rule=" + to_string(s.sweep.minimal_rule)
                                  : "") +
         (s.sweep.minimal_counts.empty() ? "" : " minimal_counts=" + to_string(s.sweep.minimal_counts)) +
         (s.sweep.cluster_both_metrics ? " metrics=both" : "") +
         " work_sample=" + std::to_string(s.sweep.item_stride);
}

// The spool of --clusters: a new one, or the one a resumed sweep continues (the records of
// exactly the items its checkpoint holds).
std::optional<ClusterSpool> open_cluster_spool(const RunSettings& s, const ClassEngineOptions& options,
                                               const ClassSweepState* resumed) {
  if (s.sweep.clusters.empty()) return std::nullopt;
  const std::filesystem::path path = ClusterSpool::path_for(s.sweep.clusters);
  const std::string parameters = cluster_parameters(s, options);
  const bool both = s.sweep.cluster_both_metrics;
  if (resumed == nullptr) return ClusterSpool(path, parameters, both);
  return ClusterSpool::resume(path, parameters, both, [resumed](std::uint64_t item) {
    return resumed->holds(item) && !std::binary_search(resumed->refused.begin(), resumed->refused.end(), item);
  });
}

// Per rule counted and highest index, the minimal clusters the census counted over every
// (walls, cars, trucks).
MinimalCounts minimal_counts(const ClassCensus& census, const std::vector<MinimalRule>& rules) {
  MinimalCounts all;
  for (const MinimalRule rule : rules) {
    const auto r = static_cast<std::size_t>(rule);
    std::vector<std::uint64_t> counts;
    for (const VehicleTally& t : census.tallies) {
      if (counts.size() < t.minimal[r].size()) counts.resize(t.minimal[r].size(), 0);
      for (std::size_t i = 0; i < t.minimal[r].size(); ++i) add_exact(counts[i], t.minimal[r][i]);
    }
    while (!counts.empty() && counts.back() == 0) counts.pop_back();
    all[r] = std::move(counts);
  }
  return all;
}

// A finished sweep (or work sample) writes the database and the text list from the spool and
// removes it; a stopped one keeps the spool for --resume (without --out it cannot resume).
void finish_cluster_database(const RunSettings& s, const ClassCensus& census, ClusterSpool& spool,
                             bool resumable, ProgressLog& log) {
  spool.close();
  const bool sample = s.sweep.item_stride > 1 && !StopSignals::stop_requested();
  if (!census.complete && !sample) {
    if (!resumable) std::filesystem::remove(spool.path());
    else log.line("clusters: the records of the finished items are in " + spool.path().string());
    return;
  }
  const ClusterSweepInfo info{.rules = s.common.rules,
                              .parameters = cluster_parameters(s, s.sweep.engine_options(s.common)),
                              .min_index = s.sweep.cluster_min_index,
                              .minimal = s.sweep.cluster_minimal,
                              .minimal_rule = s.sweep.minimal_rule,
                              .item_stride = s.sweep.item_stride,
                              .complete = census.complete,
                              .both_metrics = s.sweep.cluster_both_metrics,
                              .minimal_counts = minimal_counts(census, s.sweep.minimal_counts)};
  auto start = std::chrono::steady_clock::now();
  const std::uint64_t rows =
      write_cluster_database(spool.path(), s.sweep.clusters, info, RunMetadata::current(s.common.configuration));
  log.line("clusters: " + std::to_string(rows) + " cluster records in " + s.sweep.clusters.string() + " (" +
           std::to_string(seconds_since(start)) + " s)");
  if (!s.sweep.clusters_text.empty()) {
    start = std::chrono::steady_clock::now();
    write_cluster_text(s.sweep.clusters, s.sweep.clusters_text);
    log.line("clusters: the list, hardest first, in " + s.sweep.clusters_text.string() + " (" +
             std::to_string(seconds_since(start)) + " s)");
  }
  std::filesystem::remove(spool.path());
}

}  // namespace

namespace {

// The sweep of the settings, checkpointed in `directory` (when given) and resumed from it with
// --resume, over MPI ranks when `over_mpi`; with --clusters, the cluster database written at
// its end. A failure to write the database goes to *database_failure when given (so that the
// caller keeps the classification first), else it is thrown. Items refused by the memory bound
// end the run (exit 1) unless it was stopped.
ClassJobResult sweep_job(const RunSettings& s, const RunDirectory* directory, ProgressLog& log, bool over_mpi,
                         std::exception_ptr* database_failure = nullptr, std::vector<std::uint64_t> only_items = {}) {
  ClassJob job{.rules = s.common.rules,
               .options = sweep_options(s),
               .out = directory != nullptr ? directory->root() : std::filesystem::path(),
               .resume = s.common.resume && directory != nullptr,
               .over_mpi = over_mpi,
               .part = s.sweep.part,
               .only_items = std::move(only_items),
               .log = [&log](const std::string& text) { log.line(text); },
               .should_stop = [] { return StopSignals::stop_requested(); },
               .item_solver = nullptr};
  // The cluster spool continues exactly the items of the state resumed, so this process reads
  // it first (--clusters runs in one process).
  std::optional<ClassSweepState> resumed;
  if (job.resume && !over_mpi) {
    resumed = class_sweep_to_resume(job);
    job.resume = false;
    if (resumed) job.options.resume = &*resumed;
  }
  // --estimate notes and tests the records as the job would, and keeps none.
  const bool estimate_clusters = s.sweep.estimate && !s.sweep.clusters.empty();
  if (estimate_clusters) job.options.on_clusters = [](std::uint64_t, ClusterRecords&&) {};
  std::optional<ClusterSpool> spool =
      estimate_clusters ? std::nullopt : open_cluster_spool(s, job.options, resumed ? &*resumed : nullptr);
  if (spool) {
    job.options.on_clusters = [&spool](std::uint64_t item, ClusterRecords&& records) { spool->append(item, records); };
    // Before each checkpoint: every item the checkpoint names has its records on disk.
    job.options.on_checkpoint = [&spool](const ClassSweepState&) { spool->sync(); };
  }
  ClassJobResult run = run_class_job(job);
  if (!run.census) return run;  // a rank other than 0
  if (spool) {
    try {
      finish_cluster_database(s, *run.census, *spool, directory != nullptr, log);
    } catch (...) {
      if (database_failure == nullptr) throw;
      *database_failure = std::current_exception();
    }
  }
  // A stop while a class was solved symbolically refuses its item too: --resume retries it.
  if (!run.census->refused.empty() && !run.stopped)
    throw_refused_items(*run.census, run.checkpoint, "--resume with more memory retries them");
  if (run.census->complete || (s.sweep.item_stride > 1 && !run.stopped))
    log.line("classes: " + std::to_string(run.census->classes) + " classes in " + std::to_string(run.census->seconds) +
             " s on " + std::to_string(job.options.threads) + " threads" +
             (run.ranks > 1 ? " per rank, " + std::to_string(run.ranks) + " ranks" : "") +
             (run.census->complete ? "" : ", a work sample (every " + std::to_string(s.sweep.item_stride) + "th item)"));
  return run;
}

}  // namespace

namespace {

// A work sample's result: its configurations and rate, and, where measured, the classes
// solved by size.
std::string work_sample_report(int stride, const ClassCensus& census) {
  std::ostringstream out;
  std::uint64_t states = 0;
  for (const VehicleTally& tally : census.tallies) states += tally.domain;
  char text[200];
  std::snprintf(text, sizeof text, "work sample 1/%d: %llu classes, %llu configurations in %.2f s, %.2f M configurations/s",
                stride, static_cast<unsigned long long>(census.classes), static_cast<unsigned long long>(states),
                census.seconds, static_cast<double>(states) / census.seconds / 1e6);
  out << text << "\n";
  if (census.class_sizes.empty() && census.solver_class_sizes.empty()) return out.str();
  // Where the states and the time lie: classes solved by size (a mirror pair once), and those
  // solved on the symbolic path.
  out << "solved classes by size (states), largest " << census.largest_class
            << "\nstates from         classes          states   CPU s  symbolic: classes          states   CPU s\n";
  const std::size_t buckets = std::max(census.class_sizes.size(), census.solver_class_sizes.size());
  const ClassSizeBucket none;
  for (std::size_t k = 0; k < buckets; ++k) {
    const ClassSizeBucket& b = k < census.class_sizes.size() ? census.class_sizes[k] : none;
    const ClassSizeBucket& sb = k < census.solver_class_sizes.size() ? census.solver_class_sizes[k] : none;
    if (b.classes == 0 && sb.classes == 0) continue;
    std::snprintf(text, sizeof text, "2^%-2zu %12llu %15llu %15llu %7.2f %17llu %15llu %7.2f", k, 1ull << k,
                  static_cast<unsigned long long>(b.classes), static_cast<unsigned long long>(b.states), b.cpu_seconds,
                  static_cast<unsigned long long>(sb.classes), static_cast<unsigned long long>(sb.states),
                  sb.cpu_seconds);
    out << text << "\n";
  }
  return out.str();
}

// --estimate's first phase: every stride-th of the job's items within the limits (all of
// them for a job of at most this many).
constexpr std::uint64_t kMeasuredItems = 1 << 20;
// Its strata of sizes above 0 (run/cost_projection.hpp).
constexpr int kStrata = 16;

// --estimate: the job's items sized (the first phase, on the job's threads), stratified, the
// drawn items solved as a job of their own, and the projection.
struct Estimate {
  StratifiedSample sample;
  std::uint64_t stride = 1;
  double sizing_cpu_seconds = 0;
  std::uint64_t largest_sized_class = 0;  // the most states of a class the sizing listed
  ClassJobResult run;
  double run_cpu_seconds = 0;  // the process's while the drawn items ran
};

std::optional<Estimate> estimate_job(const RunSettings& s) {
  Estimate e;
  const double cpu_before = process_cpu_seconds();
  const ClassEngineOptions options = s.sweep.engine_options(s.common);
  const ClassItems items(s.common.rules, options);
  std::uint64_t population = 0;
  const std::vector<ItemRange> within = items.within_limits();
  for (const ItemRange& r : within) population += r.end - r.begin;
  e.stride = population <= kMeasuredItems ? 1 : prime_at_least((population + kMeasuredItems - 1) / kMeasuredItems);
  std::vector<std::uint64_t> measured;
  for (const ItemRange& r : every_kth(within, e.stride)) measured.push_back(r.begin);
  // Item k of the list to thread k mod threads: neighbouring items are alike in size.
  const auto threads = static_cast<std::size_t>(std::max(1, s.sweep.threads));
  std::vector<std::vector<std::uint64_t>> shares(threads), sizes_of_share(threads);
  std::vector<std::uint64_t> largest_of_share(threads, 0);
  for (std::size_t k = 0; k < measured.size(); ++k) shares[k % threads].push_back(measured[k]);
  {
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < threads; ++w)
      workers.emplace_back([&, w] { sizes_of_share[w] = items.item_sizes(shares[w], &largest_of_share[w]); });
  }
  e.largest_sized_class = *std::max_element(largest_of_share.begin(), largest_of_share.end());
  std::vector<std::uint64_t> sizes(measured.size());
  for (std::size_t k = 0; k < measured.size(); ++k) sizes[k] = sizes_of_share[k % threads][k / threads];
  e.sizing_cpu_seconds = process_cpu_seconds() - cpu_before;
  e.sample = stratify(measured, sizes, population, kStrata, s.sweep.estimate_items, s.sweep.estimate_seed);
  ProgressLog silent(true, "");
  const double run_before = process_cpu_seconds();
  e.run = sweep_job(s, nullptr, silent, false, nullptr, e.sample.drawn());
  e.run_cpu_seconds = process_cpu_seconds() - run_before;
  if (!e.run.census || e.run.stopped) return std::nullopt;
  return e;
}

// --estimate's report: the projection of run/cost_projection.hpp, the wall time on the job's
// threads from its interval's ends, and the memory: the sample's peak plus, on each further
// thread, a class as large as the largest the sample met (a larger one elsewhere needs more).
std::string estimate_report(const RunSettings& s, const Estimate& e) {
  const Rules& rules = s.common.rules;
  std::uint64_t solved = 0;
  for (const VehicleTally& tally : e.run.census->tallies) solved += tally.domain;
  std::ostringstream out;
  out << "estimate: " << rules.describe() << ", engine classes";
  if (!s.sweep.clusters.empty())
    out << ", with the cluster records of --clusters" << (s.sweep.cluster_minimal ? ", --minimal" : "")
        << (s.sweep.minimal_counts.empty() ? "" : ", --minimal-counts " + to_string(s.sweep.minimal_counts))
        << (s.sweep.cluster_both_metrics ? ", both metrics" : "");
  out << "\n"
      << "configurations: " << rushhour::to_string(s.sweep.estimate_configurations) << " (exact count)\n";
  std::uint64_t drawn = 0, with_states = 0;
  for (std::size_t h = 0; h < e.sample.strata.size(); ++h) {
    drawn += e.sample.strata[h].drawn.size();
    if (h > 0 && e.sample.strata[h].items > 0) ++with_states;
  }
  if (with_states == 0) {
    out << "work sample: the job's items hold no configuration: nothing to project\n";
    return out.str();
  }
  CpuProjection projection = project_cpu(e.sample, e.run.item_costs);
  // The set-up before the items, paid once by a whole job too, is added. The rest of the
  // sample's CPU, the bookkeeping of its scattered items, a whole job does not pay.
  projection.cpu += std::max(0.0, e.run_cpu_seconds - e.run.scheduling_cpu_seconds);
  const double solving = e.run_cpu_seconds;
  std::uint64_t by_classes = 0;
  for (const ItemCost& c : e.run.item_costs) by_classes += c.classes_drawn > 0;
  const ClassEngineOptions options = s.sweep.engine_options(s.common);
  const std::string drawn_classes =
      by_classes == 0 ? ""
                      : "; " + std::to_string(by_classes) + " of them, above 2^" +
                            std::to_string(std::bit_width(options.draw_classes_above) - 1) + " configurations, by " +
                            std::to_string(options.classes_drawn) + " of their classes drawn by size";
  // The sample's peak holds its largest solved class on one thread. Under vehicle limits the
  // sizing lists every sized item's classes, and the job's largest may lie outside the sample:
  // that one in its place, and on each further thread.
  const int threads = s.sweep.threads;
  const std::uint64_t solved_largest = e.run.census->largest_class;
  const std::uint64_t largest = std::max(solved_largest, e.largest_sized_class);
  const std::uint64_t memory =
      peak_rss_bytes() + ((largest - solved_largest) + static_cast<std::uint64_t>(threads - 1) * largest) * class_bytes_per_state();
  const std::string largest_text =
      largest > solved_largest ? "the largest class the sized items hold, " + std::to_string(largest) +
                                     " states, in place of the sample's largest (" + std::to_string(solved_largest) +
                                     ") and on each further thread"
                               : "plus a class of " + std::to_string(largest) + " states, its largest, on each further thread";
  const std::string measured = std::to_string(e.sample.measured);
  const std::string which = e.stride == 1 ? "all " + measured + " work items"
                                          : measured + " of " + std::to_string(e.sample.population) +
                                                " work items (one in " + std::to_string(e.stride) + ")";
  char text[1200];
  std::snprintf(text, sizeof text,
                "work sample: the sizes of %s in %.2f CPU s; %llu of them solved, drawn from %llu strata of "
                "equal configurations and the items without any: %llu configurations, %.2f CPU s solving%s\n"
                "projected CPU: %.1f s +- %.1f (95%% interval: %.3f to %.3f CPU hours)\n"
                "projected wall on %d thread%s: %.3f to %.3f h; memory per process about %s (the sample's peak, "
                "%s)\n",
                which.c_str(), e.sizing_cpu_seconds, static_cast<unsigned long long>(drawn),
                static_cast<unsigned long long>(with_states), static_cast<unsigned long long>(solved), solving,
                drawn_classes.c_str(),
                projection.cpu, projection.interval, projection.low() / 3600, projection.high() / 3600, threads,
                threads == 1 ? "" : "s", projection.low() / threads / 3600, projection.high() / threads / 3600,
                mib(memory).c_str(), largest_text.c_str());
  out << text;
  if (!s.sweep.minimal_counts.empty()) {
    out << "minimal clusters in the items solved:";
    for (const MinimalRule rule : s.sweep.minimal_counts) {
      std::uint64_t minimal = 0;
      for (const VehicleTally& tally : e.run.census->tallies)
        for (const std::uint64_t count : tally.minimal[static_cast<std::size_t>(rule)]) minimal += count;
      out << (rule == s.sweep.minimal_counts.front() ? " " : ", ") << to_string(rule) << " " << minimal;
    }
    out << "\n";
  }
  // What the items' projected CPU is spent on, by the drawn items' own split.
  double items_cpu = 0;
  for (const double part : projection.parts) items_cpu += part;
  if (items_cpu > 0) {
    static constexpr std::array<const char*, kCostParts> kPartNames = {
        "items solved whole", "column searches of the items solved by drawn classes", "classes state by state",
        "classes in parts", "classes on bit sets", "symbolic classes"};
    out << "projected CPU of the items by part:";
    for (int p = 0; p < kCostParts; ++p) {
      std::snprintf(text, sizeof text, "%s %s %.1f%%", p == 0 ? "" : ",", kPartNames[static_cast<std::size_t>(p)],
                    100 * projection.parts[static_cast<std::size_t>(p)] / items_cpu);
      out << text;
    }
    out << "\n";
  }
  // Where the projection and its spread come from.
  const auto half_width = [](double variance) { return 1.96 * std::sqrt(std::max(0.0, variance)); };
  std::snprintf(text, sizeof text,
                "its 95%% interval from the items drawn +-%.1f s, the classes drawn +-%.1f s, the items sized "
                "+-%.1f s\n%-8s %12s %22s %6s %8s %14s %12s %12s\n",
                half_width(projection.variance.items), half_width(projection.variance.classes),
                half_width(projection.variance.first_phase), "stratum", "items", "configurations", "drawn",
                "ns each", "CPU s", "+- items", "+- classes");
  out << text;
  for (std::size_t h = 0; h < projection.strata.size(); ++h) {
    const StratumProjection& p = projection.strata[h];
    const std::string name = h == 0 && p.configurations == 0 ? "empty" : std::to_string(h);
    std::snprintf(text, sizeof text, "%-8s %12llu %22.0f %6llu %8.1f %14.1f %12.1f %12.1f\n", name.c_str(),
                  static_cast<unsigned long long>(p.items), p.configurations, static_cast<unsigned long long>(p.drawn),
                  p.configurations > 0 ? p.cpu / p.configurations * 1e9 : 0.0, p.cpu, half_width(p.variance.items),
                  half_width(p.variance.classes));
    out << text;
  }
  return out.str();
}

// A whole job of more configurations than this (the 6x6 board and beyond) logs its
// --estimate before its sweep starts (a few seconds of a job of half an hour or more).
constexpr Count kEstimateFirstAbove = 10'000'000'000;
// Its items solved: about 2 % of the 6x6 job's CPU, a projection within about ±6 % (at least
// two items of each stratum; the heavy ones take seconds each).
constexpr int kEstimateFirstItems = 48;

void log_estimate_first(const RunSettings& s, ProgressLog& log) {
  if (s.sweep.estimate || s.sweep.item_stride > 1 || s.common.resume || !s.sweep.part.whole() ||
      s.environment.mpi_launcher)
    return;
  const Count configurations = count_placements(s.common.rules).domain;
  if (configurations <= kEstimateFirstAbove) return;
  RunSettings sample = s;
  sample.sweep.estimate = true;
  sample.sweep.estimate_configurations = configurations;
  sample.sweep.estimate_items = kEstimateFirstItems;
  const std::optional<Estimate> estimate = estimate_job(sample);
  if (!estimate) return;
  // Its lines up to the interval's parts; not the table of strata.
  std::istringstream lines(estimate_report(sample, *estimate));
  for (std::string line; std::getline(lines, line);) {
    log.line(line);
    if (line.starts_with("its 95% interval")) break;
  }
}

RunOutcome run_sweep(const RunSettings& s, const RunDirectory* directory, ProgressLog& log) {
  std::exception_ptr database_failure;
  if (s.sweep.estimate) {
    const std::optional<Estimate> estimate = estimate_job(s);
    return {Classification(s.common.rules), estimate ? estimate_report(s, *estimate) : ""};
  }
  log_estimate_first(s, log);
  const ClassJobResult run = sweep_job(s, directory, log, s.environment.mpi_launcher, &database_failure);
  // A rank other than 0, a stopped job: partial sums are no classification.
  if (!run.census || run.stopped) return {Classification(s.common.rules)};
  const ClassCensus& census = *run.census;
  if (s.sweep.item_stride > 1) return {Classification(s.common.rules), work_sample_report(s.sweep.item_stride, census)};
  if (!s.sweep.part.whole()) {
    std::ostringstream line;
    line << "part " << s.sweep.part.describe() << " of " << s.common.rules.describe() << " finished: "
         << census.classes << " classes in " << census.seconds
         << " s; `rushhour merge --out DIR` adds it to the other parts\n";
    return {Classification(s.common.rules), line.str()};
  }
  if (database_failure && !census.complete) std::rethrow_exception(database_failure);
  if (!census.complete) return {Classification(s.common.rules)};
  Classification result = census.classification();
  result.peak_rss_bytes = peak_rss_bytes();
  if (!s.common.dominance) {
    result.nondominated.clear();
    result.components.clear();
  }
  if (database_failure) {
    // The classification is kept before the failure is reported; the spool stays for --resume.
    if (directory != nullptr) directory->write_result(result, s.common.configuration);
    try {
      std::rethrow_exception(database_failure);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the cluster database was not written: ") + e.what() +
                               (directory != nullptr ? "; the classification is in " + directory->result_file().string() +
                                                           " and --resume writes the database from the spool"
                                                     : ""));
    }
  }
  return {std::move(result)};
}

void remove_bdd_run(const RunDirectory& directory, ProgressLog& log) {
  constexpr auto kind = RunDirectory::RunKind::ClassSweep;
  if (const int removed = directory.remove_other_runs(kind); removed > 0)
    log.line("removed " + std::to_string(removed) + " " + RunDirectory::other_runs(kind));
}

}  // namespace

RunOutcome ClassSweepEngine::run(const RunSettings& s, const RunDirectory* directory, ProgressLog& log) const {
  // A class run's directory holds no bdd run's files, or query would take them for this run's:
  // a fresh run removes them first, a resumed one once the sweep has accepted its checkpoint (a
  // refused --resume removes nothing). Under MPI rank 0 alone, which owns the directory.
  const bool owns_directory = directory != nullptr && s.environment.reports();
  if (owns_directory && !s.common.resume) remove_bdd_run(*directory, log);
  RunOutcome outcome = run_sweep(s, directory, log);
  if (owns_directory && s.common.resume) remove_bdd_run(*directory, log);
  return outcome;
}

void add_class_dominance(const RunSettings& s, const RunDirectory* directory, ProgressLog& log,
                         Classification& result) {
  const ClassJobResult run = sweep_job(s, directory, log, false);
  if (!run.census->complete) return;  // stopped: the layers are written without dominance figures
  const Classification figures = run.census->classification();
  if (figures.layers.size() != result.layers.size())
    throw std::runtime_error("the class sweep found " + std::to_string(figures.layers.size()) +
                             " indices, the layers " + std::to_string(result.layers.size()));
  for (std::size_t i = 0; i < figures.layers.size(); ++i)
    if (figures.layers[i].count != result.layers[i].count)
      throw std::runtime_error("the class sweep counts " + rushhour::to_string(figures.layers[i].count) +
                               " configurations of index " + std::to_string(i) + ", the layer " +
                               rushhour::to_string(result.layers[i].count));
  log.line("classes: every index's count equals its layer's; dominance figures from the class sweep");
  result.nondominated = figures.nondominated;
  result.components = figures.components;
}

}  // namespace rushhour::run
