#pragma once
// The clusters of a cluster database (classify --clusters) that a question selects: of one
// highest index (or the highest in the database) or counted per highest index, under either
// metric of a database written with both, by vehicles, size, domain and the minimal test,
// in the database's order. app/ prints the listing.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "board/rules.hpp"
#include "query/saved_answers.hpp"
#include "storage/cluster_database.hpp"

namespace rushhour {

struct ClusterQuestion {
  Metric metric = Metric::Step;     // a metric the database holds
  std::optional<int> index;         // clusters of this highest index ...
  bool hardest = false;             // ... or of the highest in the database; neither: per index
  PieceFilter filter;
  std::int64_t min_size = -1, max_size = -1;  // -1: no bound
  std::optional<Domain> domain;     // puzzle: the puzzle domain's clusters of a database of all
  bool minimal = false;             // only the minimal ones, tested as they are read
  // Their rule; nullopt: the database's own if it was written with --minimal, else any.
  std::optional<MinimalRule> minimal_rule;
  int threads = 1;                  // testing them
  int samples = 5;                  // rows listed (not per index)
  // A long minimal test reports how far it is (about once a minute).
  std::function<void(const std::string&)> progress;
};

struct ClusterListing {
  bool per_index = false;
  int index = -1;                        // the highest index asked (-1: none, per index)
  std::uint64_t matching = 0;            // clusters selected
  std::vector<std::uint64_t> per_index_counts;  // selected clusters per highest index
  std::vector<ClusterEntry> listed;      // the first `samples`, under the metric asked
  std::string selection;                 // ", size >= 10, puzzle domain, minimal"
  std::vector<std::string> notes;        // what the database leaves out
  std::string other_metric;              // a database with both metrics: the other's name
};

// Throws InputError for a question the database cannot answer (--domain all of a puzzle
// database, a negative --sample, a minimal rule other than the one a minimal database was
// written with).
ClusterListing list_clusters(const ClusterDatabase& database, const ClusterQuestion& question);

}  // namespace rushhour
