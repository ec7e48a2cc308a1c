#include "run/partitioned_run.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "board/board_string.hpp"
#include "encoding/line_partition.hpp"
#include "run/part_run.hpp"
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

}  // namespace

Classification classify_partitioned(const RunSettings& settings, const RunDirectory* directory,
                                    ProgressLog& log) {
  const CommonSettings& common = settings.common;
  const SymbolicSettings& s = settings.symbolic;
  const Rules& rules = common.rules;
  const auto start = Clock::now();
  const Partition partition = parse_partition(s.partition, rules);
  const std::uint64_t part_count = count_parts(partition, rules);
  const auto stride = static_cast<std::uint64_t>(s.part_stride);
  const std::uint64_t to_classify = (part_count + stride - 1) / stride;
  log.line("partition " + partition.name + ": " + std::to_string(part_count) + " parts" +
           (stride > 1 ? ", every " + std::to_string(stride) + "th classified (" +
                             std::to_string(to_classify) + ")"
                       : std::string()));
  if (directory != nullptr) {
    // A partitioned run saves no layers yet: what an earlier run left would not be its own.
    if (const int removed = directory->layers("").clear(); removed > 0)
      log.line("fresh run: removed " + std::to_string(removed) + " old layer files");
    directory->dominance_checkpoint("").clear();
  }

  Classification figures(rules);
  figures.engine = "bdd";
  figures.encoding = "slot";
  figures.variable_order = s.slot.order;
  figures.complete = true;
  PartRunOptions options{.slot = s.slot,
                         .bdd = s.bdd,
                         .retrograde = s.retrograde(common),
                         .samples_per_index = common.samples_per_index,
                         .sample_indices = common.sample_indices};
  options.retrograde.closure_note_seconds = -1;
  options.retrograde.should_stop = [] { return StopSignals::stop_requested(); };
  const bool dominance = options.retrograde.dominance;
  // Samples are kept here, by key, over every part.
  std::map<int, std::vector<std::pair<Count, std::string>>> samples;  // index -> (key, board)

  std::uint64_t seen = 0;
  std::uint64_t done = 0;
  std::uint64_t largest_table = 0;
  auto last_note = Clock::now();
  for_each_part(partition, rules, [&](const DomainPart& part) {
    if (seen++ % stride != 0) return true;
    if (StopSignals::stop_requested()) {
      figures.complete = false;
      return false;
    }
    const PartRun run = classify_part(rules, part, options);
    const Classification& got = run.figures;
    figures.complete = figures.complete && got.complete && !run.interrupted;
    figures.domain_count += got.domain_count;
    figures.winning_count += got.winning_count;
    figures.solvable_count += got.solvable_count;
    figures.unsolvable_count += got.unsolvable_count;
    if (figures.layers.size() < got.layers.size()) figures.layers.resize(got.layers.size());
    for (std::size_t i = 0; i < got.layers.size(); ++i) {
      figures.layers[i].count += got.layers[i].count;
      figures.layers[i].bdd_nodes += got.layers[i].bdd_nodes;
      figures.layers[i].seconds += got.layers[i].seconds;
    }
    if (dominance) {
      add_counts(figures.nondominated, got.nondominated);
      add_components(figures.components, got.components);
    }
    // A part's T highest indices hold every index of the run's T highest it has.
    for (std::size_t i = 0; i < run.least.size(); ++i) {
      if (run.least[i].empty()) continue;
      auto& kept = samples[static_cast<int>(i)];
      for (const auto& [key, board] : run.least[i]) kept.emplace_back(key, to_board_string(rules, board));
      std::sort(kept.begin(), kept.end());
      if (static_cast<int>(kept.size()) > common.samples_per_index)
        kept.resize(static_cast<std::size_t>(common.samples_per_index));
    }
    largest_table = std::max<std::uint64_t>(largest_table, static_cast<std::uint64_t>(run.table_nodes));
    ++done;
    if (seconds_since(last_note) >= 10 || done == to_classify) {
      last_note = Clock::now();
      char text[200];
      std::snprintf(text, sizeof text, "parts %llu/%llu, %d layers so far, largest node table %llu, %.2f s",
                    static_cast<unsigned long long>(done), static_cast<unsigned long long>(to_classify),
                    static_cast<int>(figures.layers.size()),
                    static_cast<unsigned long long>(largest_table), seconds_since(start));
      log.line(text);
    }
    return true;
  });
  // The layers, summed over the parts (their nodes: the parts' BDDs, summed; their seconds:
  // the parts' time on them, summed).
  std::uint64_t nodes = 0;
  for (int i = 0; i <= figures.max_index(); ++i) {
    const LayerFigures& layer = figures.layers[static_cast<std::size_t>(i)];
    nodes += layer.bdd_nodes;
    log.line(layer_line(i, layer.count, layer.bdd_nodes, layer.seconds, seconds_since(start)));
  }
  log.line("parts' layers: " + std::to_string(nodes) + " nodes in all");
  // Every part leaves its empty first layer out, so the run's layers end at its maximum index.
  const int max_index = figures.max_index();
  for (auto it = samples.rbegin(); it != samples.rend(); ++it)
    if (max_index - it->first < common.sample_indices)
      for (const auto& [key, board] : it->second)
        figures.samples.push_back({board, static_cast<std::uint32_t>(it->first)});
  if (!figures.complete || (dominance && figures.nondominated.size() != figures.layers.size())) {
    figures.nondominated.clear();
    figures.components.clear();
  }
  figures.seconds = seconds_since(start);
  figures.peak_rss_bytes = peak_rss_bytes();
  return figures;
}

}  // namespace rushhour::run
