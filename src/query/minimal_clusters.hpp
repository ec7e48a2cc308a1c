#pragma once
// The minimal test (board/search.hpp minimal_choice) over the rows of a cluster database, after
// the sweep that wrote it: a database made without --minimal answers for minimal puzzles too,
// under any rule. A row's board is its cluster's canonical hardest configuration; where the
// rule needs the cluster's other hardest configurations, the cluster is searched from it.
// The tests of a batch of rows run on several threads; the rows come out in the database's
// order, so a listing is the same on any number of threads.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "board/rules.hpp"
#include "board/search.hpp"
#include "storage/cluster_database.hpp"

namespace rushhour {

class MinimalClusterFilter {
 public:
  // `rules` carry the metric the rows' figures (board, highest index) are under; `minimal`
  // gets the rows of the clusters minimal under `rule`, each with the board the rule lists.
  MinimalClusterFilter(Rules rules, MinimalRule rule, int threads, std::function<void(const ClusterEntry&)> minimal,
                       std::size_t batch = std::size_t{1} << 14);
  // The row is tested once the batch is full, or at finish().
  void add(const ClusterEntry& entry);
  void finish();
  std::uint64_t tested() const { return tested_; }

 private:
  void test_batch();

  // The board the rule lists for the row's cluster, or nullopt if it is not minimal.
  std::optional<std::string> listed_board(const ClusterEntry& entry, MinimalTest& test) const;

  Rules rules_;
  MinimalRule rule_;
  int threads_;
  std::function<void(const ClusterEntry&)> minimal_;
  std::size_t batch_size_;
  std::vector<ClusterEntry> batch_;
  std::uint64_t tested_ = 0;
};

}  // namespace rushhour
