#pragma once
// The cluster records of a work item as a sweep keeps them: tested for minimality, counted,
// selected. Internal to src/explicit/class_*.cpp.
#include <functional>

#include "board/rules.hpp"
#include "explicit/class_lines.hpp"
#include "explicit/class_options.hpp"
#include "explicit/cluster_records.hpp"

namespace rushhour::class_engine {

// An item's records (with records.hardest_keys, every hardest configuration of each, where
// options ask for a minimal test) as options ask: each tested under options.minimal_counts'
// rules and counted by count_minimal(record, rule) where minimal; those from
// options.cluster_min_index on kept, only the minimal ones under options.minimal_rule with
// options.minimal_clusters (each then with the hardest configuration that rule lists), with
// their histograms.
ClusterRecords tested_records(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options,
                              ClusterRecords&& records,
                              const std::function<void(const ClusterRecord&, MinimalRule)>& count_minimal);

}  // namespace rushhour::class_engine
