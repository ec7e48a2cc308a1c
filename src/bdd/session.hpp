#pragma once
// The one owner of BuDDy's global manager: init/done, node table and cache sizes, growth
// policy, and the GC, resize and error hooks. Exactly one BddSession may exist at a time.
// Declare it before every bdd handle (Session -> Encoding -> layers) so that handles die
// before the manager.
//
// BuDDy reports node-table exhaustion through its error hook and from then on returns
// bddfalse, which would look like an empty layer. The hook only records the failure;
// check() must run after each batch of operations and throws BddFailure if one happened.
#include <bdd.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace rushhour {

struct BddSettings {
  int initial_nodes = 1 << 20;  // node table size at start
  int cache_size = 1 << 18;     // entries per operation cache at start
  int cache_ratio = 4;          // nodes per cache entry as the table grows (0 = fixed cache)
  int max_increase = 0;         // nodes added per table growth at most (0 = doubling)
  int min_free_percent = 30;    // grow the table if a GC frees less than this
  std::int64_t max_nodes = 0;   // node table ceiling (0 = none)
  std::uint64_t max_bytes = 0;  // memory ceiling for the node table + caches (0 = none)

  void check() const;  // throws InputError on inconsistent values
  // Largest node table that fits max_bytes with the configured cache ratio (0 = unbounded).
  std::int64_t node_ceiling() const;
};

class BddFailure : public std::runtime_error {
 public:
  explicit BddFailure(const std::string& what) : std::runtime_error(what) {}
};

class BddSession {
 public:
  // Starts BuDDy with `variable_count` variables. `log` receives GC and resize notes
  // (nullptr = silent); it must outlive the session.
  BddSession(int variable_count, const BddSettings& settings,
             std::function<void(const std::string&)> log = nullptr);
  ~BddSession();
  BddSession(const BddSession&) = delete;
  BddSession& operator=(const BddSession&) = delete;
  BddSession(BddSession&&) = delete;
  BddSession& operator=(BddSession&&) = delete;

  // Throws BddFailure if BuDDy reported an error (e.g. node limit reached) since start.
  void check() const;
  bool failed() const { return failure_code_ != 0; }

  int variable_count() const { return variable_count_; }
  // Declares more variables if fewer than `count` exist (BuDDy can only add variables).
  void ensure_variables(int count);
  std::int64_t table_nodes() const;  // allocated node table size
  std::int64_t live_nodes() const;   // nodes in use after the last GC
  std::int64_t gc_count() const { return gc_count_; }
  const BddSettings& settings() const { return settings_; }
  static std::string buddy_version();

 private:
  static void on_error(int code);
  static void on_gc(int pre, bddGbcStat* stat);
  static void on_resize(int old_size, int new_size);

  BddSettings settings_;
  int variable_count_;
  std::function<void(const std::string&)> log_;
  int failure_code_ = 0;
  std::int64_t gc_count_ = 0;
};

}  // namespace rushhour
