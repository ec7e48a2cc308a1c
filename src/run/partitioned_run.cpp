#include "run/partitioned_run.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "bdd/domain_variable.hpp"
#include "board/board_string.hpp"
#include "encoding/line_partition.hpp"
#include "run/part_run.hpp"
#include "util/clock.hpp"
#include "util/forked_workers.hpp"
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
  }
  void stopped() { figures_.complete = false; }

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
  bool dominance_;
  std::map<int, std::vector<std::pair<Count, std::string>>> samples_;  // index -> (key, board)
  std::uint64_t largest_table_ = 0;
};

}  // namespace

Classification classify_partitioned(const RunSettings& settings, const RunDirectory* directory,
                                    ProgressLog& log) {
  const CommonSettings& common = settings.common;
  const SymbolicSettings& s = settings.symbolic;
  const Rules& rules = common.rules;
  const auto start = Clock::now();
  const Partition partition = parse_partition(s.partition, rules);
  const PartNumbering numbering(partition, rules);
  const std::uint64_t part_count = count_parts(partition, rules);
  const auto stride = static_cast<std::uint64_t>(s.part_stride);
  const std::uint64_t to_classify = (part_count + stride - 1) / stride;
  const int workers = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(1, s.part_workers)), to_classify));
  log.line("partition " + partition.name + ": " + std::to_string(part_count) + " parts" +
           (stride > 1 ? ", every " + std::to_string(stride) + "th classified (" +
                             std::to_string(to_classify) + ")"
                       : std::string()) +
           (workers > 1 ? ", " + std::to_string(workers) + " worker processes" : std::string()));

  PartRunOptions options{.slot = s.slot,
                         .bdd = s.bdd,
                         .retrograde = s.retrograde(common),
                         .samples_per_index = common.samples_per_index,
                         .sample_indices = common.sample_indices};
  options.retrograde.closure_note_seconds = -1;
  options.retrograde.should_stop = [] { return StopSignals::stop_requested(); };
  std::unique_ptr<PartStore> store;
  if (directory != nullptr) {
    store = std::make_unique<PartStore>(directory->parts(partitioned_run_identity(
        rules, s.slot, partition.name, s.max_layers, options.retrograde.dominance, common.samples_per_index,
        common.sample_indices)));
    // Whole-domain layers an earlier run left would not be this run's.
    if (const int removed = directory->layers("").clear(); removed > 0)
      log.line("removed " + std::to_string(removed) + " layer files of an unpartitioned run");
    directory->dominance_checkpoint("").clear();
    if (!common.resume)
      if (const int removed = store->clear(); removed > 0)
        log.line("fresh run: removed " + std::to_string(removed) + " old part files");
  }
  const PartContext context{rules, numbering, store.get(), options};

  PartSum sum(settings, options.retrograde.dominance);
  std::uint64_t done = 0;
  std::uint64_t resumed = 0;
  auto last_note = Clock::now();
  const auto add = [&](const PartFigures& part) {
    sum.add(part, common.samples_per_index);
    ++done;
    if (seconds_since(last_note) >= 10 || done == to_classify) {
      last_note = Clock::now();
      char text[200];
      std::snprintf(text, sizeof text, "parts %llu/%llu, %d layers so far, largest node table %llu, %.2f s",
                    static_cast<unsigned long long>(done), static_cast<unsigned long long>(to_classify),
                    static_cast<int>(sum.figures().layers.size()),
                    static_cast<unsigned long long>(sum.largest_table()), seconds_since(start));
      log.line(text);
    }
  };
  // Worker processes classify the parts when there are several; each sends back its part's
  // figures as text (PartFigures::text), the same text a part file holds.
  std::unique_ptr<ForkedWorkers> pool;
  if (workers > 1)
    pool = std::make_unique<ForkedWorkers>(
        workers,
        [&context](const std::string& job) {
          return classify_numbered_part(context, static_cast<std::uint64_t>(std::stoull(job))).text();
        },
        [&add](const std::string& result) { add(PartFigures::parse(result, "a worker's part figures")); },
        [] { return StopSignals::stop_requested(); });

  std::uint64_t seen = 0;
  for_each_part(partition, rules, [&](const DomainPart& part) {
    if (seen++ % stride != 0) return true;
    if (StopSignals::stop_requested()) {
      sum.stopped();
      return false;
    }
    const std::uint64_t number = numbering.number(part);
    if (common.resume && store) {
      if (std::optional<PartFigures> saved = store->figures(number)) {
        add(*saved);
        ++resumed;
        return true;
      }
    }
    if (pool) pool->submit(std::to_string(number));
    else add(classify_numbered_part(context, number));
    return true;
  });
  if (pool) pool->finish();
  if (resumed > 0) log.line("resumed " + std::to_string(resumed) + " finished parts from " + store->directory().string());

  Classification figures = sum.result(common);
  // The layers, summed over the parts (their nodes: the parts' BDDs, summed; their seconds:
  // the parts' time on them, summed).
  std::uint64_t nodes = 0;
  for (int i = 0; i <= figures.max_index(); ++i) {
    const LayerFigures& layer = figures.layers[static_cast<std::size_t>(i)];
    nodes += layer.bdd_nodes;
    log.line(layer_line(i, layer.count, layer.bdd_nodes, layer.seconds, seconds_since(start)));
  }
  log.line("parts' layers: " + std::to_string(nodes) + " nodes in all");
  figures.seconds = seconds_since(start);
  // With worker processes, the largest of them (each holds one part's BDDs at a time).
  figures.peak_rss_bytes = std::max(peak_rss_bytes(), peak_child_rss_bytes());
  return figures;
}

}  // namespace rushhour::run
