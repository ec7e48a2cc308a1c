#pragma once
// The minimal test (board/search.hpp is_minimal) over the rows of a cluster database, after
// the sweep that wrote it: a database made without --minimal answers for minimal puzzles too.
// The tests of a batch of rows run on several threads; the rows come out in the database's
// order, so a listing is the same on any number of threads.
#include <cstddef>
#include <functional>
#include <vector>

#include "board/rules.hpp"
#include "storage/cluster_database.hpp"

namespace rushhour {

class MinimalClusterFilter {
 public:
  // `rules` carry the metric the rows' figures (board, highest index) are under; `minimal`
  // gets the rows whose canonical hardest configuration is minimal.
  MinimalClusterFilter(Rules rules, int threads, std::function<void(const ClusterEntry&)> minimal,
                       std::size_t batch = std::size_t{1} << 14);
  // The row is tested once the batch is full, or at finish().
  void add(const ClusterEntry& entry);
  void finish();
  std::uint64_t tested() const { return tested_; }

 private:
  void test_batch();

  Rules rules_;
  int threads_;
  std::function<void(const ClusterEntry&)> minimal_;
  std::size_t batch_size_;
  std::vector<ClusterEntry> batch_;
  std::uint64_t tested_ = 0;
};

}  // namespace rushhour
