#pragma once
// The puzzle database of a class sweep (`classify --clusters FILE.h5`): one record per cluster
// (ClusterRecord: its canonical hardest configuration, highest index, size, hardest and winning
// configurations, cars, trucks, distance histogram; with both metrics the other metric's
// hardest configuration, highest index, hardest configurations and histogram too).
// docs/file-formats.md has the layouts.
//
// The sweep never holds its records: each finished work item's records are appended to a
// spool beside the database (FILE.h5.spool), one checksummed block per item, and the spool
// is synced before every checkpoint of the sweep. So every item a checkpoint holds has its
// block in the spool, in front of the blocks of items finished after it; a resume keeps the
// blocks of the checkpoint's items and cuts off the rest (ClusterSpool::resume). When the
// sweep ends the database is written from the spool in work item order (HDF5 written in
// chunks, atomically), and the plain text list from the database, sorted hardest first in
// bounded memory (sorted runs in temporary files, then merged).
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "board/rules.hpp"
#include "board/search.hpp"
#include "explicit/cluster_records.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour {

class ClusterSpool {
 public:
  static std::filesystem::path path_for(const std::filesystem::path& database);

  // A new spool at `path` (replacing any), for a sweep of `parameters` (one line naming
  // everything the records depend on), its records with the other metric's figures if
  // `both_metrics`. Throws std::runtime_error if it cannot be written.
  ClusterSpool(const std::filesystem::path& path, const std::string& parameters, bool both_metrics = false);
  // The spool at `path` continued: the blocks of the leading items `kept` accepts stay, the
  // first other block and everything after it (blocks of items finished after the last
  // checkpoint, a block cut short by a kill) are cut off. Throws InputError if there is no
  // spool, it belongs to other parameters, or a block after the cut would be kept.
  static ClusterSpool resume(const std::filesystem::path& path, const std::string& parameters, bool both_metrics,
                             const std::function<bool(std::uint64_t item)>& kept);
  ~ClusterSpool();
  ClusterSpool(ClusterSpool&& other) noexcept;
  ClusterSpool& operator=(ClusterSpool&&) = delete;
  ClusterSpool(const ClusterSpool&) = delete;

  const std::filesystem::path& path() const { return path_; }
  void append(std::uint64_t item, const ClusterRecords& records);
  // Everything appended is on disk.
  void sync();
  // sync, then closes.
  void close();

 private:
  ClusterSpool(std::filesystem::path path, std::FILE* file, bool both_metrics)
      : path_(std::move(path)), file_(file), both_metrics_(both_metrics) {}
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  bool both_metrics_ = false;
};

// Calls visit(item, records) for every block of the spool, ascending by work item. Throws
// InputError if it is damaged or of other parameters.
void read_cluster_spool(const std::filesystem::path& path, const std::string& parameters, bool both_metrics,
                        const std::function<void(std::uint64_t item, ClusterRecords&& records)>& visit);

// Per minimal rule (by its MinimalRule value), the minimal clusters per highest index where
// they were counted.
using MinimalCounts = std::array<std::optional<std::vector<std::uint64_t>>, kMinimalRules>;

// What the database's root attributes say about the sweep.
struct ClusterSweepInfo {
  Rules rules;
  std::string parameters;  // the spool's
  int min_index = 0;       // records of the clusters whose highest index is at least this
  bool minimal = false;    // only the minimal clusters ...
  MinimalRule minimal_rule = MinimalRule::Any;  // ... under this rule, each with the board it lists
  int item_stride = 1;     // a work sample: every item_stride-th work item
  bool complete = false;   // every work item swept
  bool both_metrics = false;  // the records carry the other metric's figures too
  // With --minimal-counts: per rule counted, per highest index, every cluster minimal under
  // it, records kept or not (the sweep's census).
  MinimalCounts minimal_counts{};
};

// Writes the database `database` atomically from the spool; returns its number of records.
std::uint64_t write_cluster_database(const std::filesystem::path& spool, const std::filesystem::path& database,
                                     const ClusterSweepInfo& info, const RunMetadata& metadata);

// The record of a database row, with its work item and histogram.
struct ClusterEntry {
  std::uint64_t row = 0;
  std::string board;  // the canonical hardest configuration
  ClusterRecord record;  // record.hardest and record.other_hardest are not stored (0)
  std::uint64_t item = 0;
  std::vector<std::uint64_t> histogram;
  // A database with both metrics: the other metric's canonical hardest configuration and
  // histogram (else empty).
  std::string other_board;
  std::vector<std::uint64_t> other_histogram;
};

// A row of a database with both metrics as a database of the other run metric holds it: the
// canonical hardest configurations, highest indices, hardest counts and histograms of the
// two metrics exchanged (size, winning, cars, trucks, item and row hold for both).
void exchange_metrics(ClusterEntry& entry);

// A database opened for reading. Throws InputError (naming the file) if it is missing,
// damaged or no cluster database.
class ClusterDatabase {
 public:
  explicit ClusterDatabase(const std::filesystem::path& path);
  const Rules& rules() const { return rules_; }
  std::uint64_t size() const { return rows_; }
  int min_index() const { return min_index_; }
  // Only the minimal clusters (classify --minimal), under minimal_rule().
  bool minimal() const { return minimal_; }
  MinimalRule minimal_rule() const { return minimal_rule_; }
  bool complete() const { return complete_; }
  // Per highest index, every cluster minimal under `rule` that the sweep met, records kept or
  // not (classify --minimal-counts); nullopt if the sweep did not count them.
  const std::optional<std::vector<std::uint64_t>>& minimal_counts(MinimalRule rule) const {
    return minimal_counts_[static_cast<std::size_t>(rule)];
  }
  // The records carry the other metric's figures too (ClusterEntry::other_board, ...): the
  // metric other than rules().metric().
  bool both_metrics() const { return both_metrics_; }
  Metric other_metric() const;
  // The records carry `metric`'s figures: the run's metric, or either with both metrics.
  bool holds(Metric metric) const { return metric == rules_.metric() || both_metrics_; }
  // Calls visit(entry) for every row in order, read `batch` rows at a time, until it returns
  // false. With histograms = false, entry.histogram stays empty. With `wanted`, only for the
  // rows whose record (with both metrics' figures, not its boards) it accepts: a batch with
  // none is never read beyond the records' columns.
  void for_each(const std::function<bool(const ClusterEntry&)>& visit, bool histograms = true,
                std::uint64_t batch = 1 << 16, const std::function<bool(const ClusterRecord&)>& wanted = nullptr) const;

 private:
  std::filesystem::path path_;
  Rules rules_;
  std::uint64_t rows_ = 0;
  int min_index_ = 0;
  bool minimal_ = false;
  MinimalRule minimal_rule_ = MinimalRule::Any;
  bool complete_ = false;
  bool both_metrics_ = false;
  MinimalCounts minimal_counts_;
};

// The plain text list of the database, `<index> <board> <cluster size>` one cluster a line,
// highest index first, then larger clusters first, then boards in byte order; written
// atomically, sorted in runs of at most `run_records` records kept in temporary files beside
// `text`.
void write_cluster_text(const std::filesystem::path& database, const std::filesystem::path& text,
                        std::size_t run_records = std::size_t{1} << 19);

}  // namespace rushhour
