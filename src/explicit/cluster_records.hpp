#pragma once
// The puzzle database's records as the class sweep finds them: one per cluster, with its
// distance histogram (ClassEngineOptions::on_clusters).
#include <cstdint>
#include <vector>

#include "explicit/sample_keys.hpp"

namespace rushhour {

// One cluster of the sweep: a connected component of the domain (all steps or moves, also
// through winning configurations) that holds a winning configuration. Its canonical hardest
// configuration is the one with the least SampleKey among its configurations of the highest
// index (the least explicit-engine key, as for the samples), so records do not depend on the
// order of the search.
struct ClusterRecord {
  SampleKey hardest = 0;
  std::uint32_t highest_index = 0;
  std::uint32_t cars = 0;
  std::uint32_t trucks = 0;
  std::uint32_t walls = 0;          // walls never move: every configuration of a cluster has them
  std::uint64_t size = 0;           // configurations in the cluster
  std::uint64_t hardest_count = 0;  // of them, those of the highest index
  std::uint64_t winning = 0;        // of them, those of index 0
  // With ClassEngineOptions::cluster_both_metrics, the same figures under the other metric
  // (move for a step sweep, step for a move sweep): the cluster is the same component under
  // both (a move is a run of steps, a step is a move), with the same size and winning
  // configurations; only the indices differ. Else 0.
  SampleKey other_hardest = 0;
  std::uint32_t other_highest_index = 0;
  std::uint64_t other_hardest_count = 0;
  friend bool operator==(const ClusterRecord&, const ClusterRecord&) = default;
};

// Cluster records with their distance histograms (configurations per index inside the
// cluster), concatenated: record k's highest_index + 1 counts follow those of records 0..k-1;
// with both metrics also under the other metric (other_highest_index + 1 counts per record,
// else empty).
struct ClusterRecords {
  std::vector<ClusterRecord> records;
  std::vector<std::uint64_t> histogram;
  std::vector<std::uint64_t> other_histogram;
  // With ClassEngineOptions::minimal_clusters, until the minimal test has chosen: per record,
  // the keys of every configuration of its highest index, ascending.
  std::vector<std::vector<SampleKey>> hardest_keys;
  friend bool operator==(const ClusterRecords&, const ClusterRecords&) = default;
};

}  // namespace rushhour
