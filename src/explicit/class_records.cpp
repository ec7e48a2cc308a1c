#include "explicit/class_records.hpp"

#include <array>
#include <optional>
#include <stdexcept>

#include "board/search.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour::class_engine {

namespace {

// The records `keep` accepts, with their histograms: keep(k, record) may change the copy of
// record k that is kept.
template <typename Keep>
ClusterRecords select_records(const ClusterRecords& records, Keep keep) {
  ClusterRecords kept;
  std::size_t at = 0;
  std::size_t other_at = 0;
  for (std::size_t k = 0; k < records.records.size(); ++k) {
    ClusterRecord r = records.records[k];
    const auto from = records.histogram.begin() + static_cast<std::ptrdiff_t>(at);
    at += r.highest_index + 1u;
    const auto other_from = records.other_histogram.begin() + static_cast<std::ptrdiff_t>(other_at);
    if (!records.other_histogram.empty()) other_at += r.other_highest_index + 1u;
    if (!keep(k, r)) continue;
    kept.records.push_back(r);
    kept.histogram.insert(kept.histogram.end(), from, from + static_cast<std::ptrdiff_t>(r.highest_index) + 1);
    if (!records.other_histogram.empty())
      kept.other_histogram.insert(kept.other_histogram.end(), other_from,
                                  other_from + static_cast<std::ptrdiff_t>(r.other_highest_index) + 1);
  }
  return kept;
}

}  // namespace

ClusterRecords tested_records(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options,
                              ClusterRecords&& records,
                              const std::function<void(const ClusterRecord&, MinimalRule)>& count_minimal) {
  const bool tested = options.minimal_clusters || !options.minimal_counts.empty();
  if (tested && records.hardest_keys.size() != records.records.size())
    throw std::logic_error("class engine: cluster records without their hardest configurations");
  std::vector<BoardKey> hardest;
  MinimalTest test(rules);
  return select_records(records, [&](std::size_t k, ClusterRecord& r) {
    const int index = static_cast<int>(r.highest_index);
    if (!tested) return index >= options.cluster_min_index;
    const std::vector<SampleKey>& keys = records.hardest_keys[k];
    hardest.clear();
    for (const SampleKey key : keys)
      hardest.push_back(board_key_of_sample_key(tables.lines, tables.key_bits, tables.placements, key));
    // Per rule, once asked: the position of the hardest configuration it lists, or nullopt.
    std::array<std::optional<std::optional<std::size_t>>, kMinimalRules> choice;
    const auto choose = [&](MinimalRule rule) {
      auto& chosen = choice[static_cast<std::size_t>(rule)];
      const auto& any = choice[static_cast<std::size_t>(MinimalRule::Any)];
      // Minimal under the public or the canonical rule: its configuration is, so under any too.
      if (!chosen) chosen = any && !*any ? std::optional<std::size_t>() : test.choose(hardest, index, rule);
      return *chosen;
    };
    for (const MinimalRule rule : options.minimal_counts)
      if (choose(rule)) count_minimal(r, rule);
    if (index < options.cluster_min_index) return false;
    if (!options.minimal_clusters) return true;
    const std::optional<std::size_t> listed = choose(options.minimal_rule);
    // Of index 0 only one configuration was kept for the test: the record's is the least.
    if (listed && index > 0) r.hardest = keys[*listed];
    return listed.has_value();
  });
}

}  // namespace rushhour::class_engine
