#include "query/cluster_listing.hpp"

#include <algorithm>
#include <chrono>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "query/minimal_clusters.hpp"

namespace rushhour {

ClusterListing list_clusters(const ClusterDatabase& database, const ClusterQuestion& q) {
  if (q.samples < 0) throw InputError("--sample must be >= 0");
  ClusterListing listing;
  // Under the database's other metric, each row with the two metrics' figures exchanged.
  const bool exchanged = q.metric != database.rules().metric();
  ClusterEntry exchanged_entry;
  auto under_metric = [&](const ClusterEntry& e) -> const ClusterEntry& {
    if (!exchanged) return e;
    exchanged_entry = e;
    exchange_metrics(exchanged_entry);
    return exchanged_entry;
  };
  // --domain puzzle on a database of all configurations: the clusters of the puzzle domain,
  // which are the database's clusters whose configurations lie in it (the domain is closed
  // under moves, so the canonical hardest configuration decides).
  const Domain domain = q.domain.value_or(database.rules().domain());
  if (domain == Domain::All && database.rules().domain() == Domain::Puzzle)
    throw InputError("--domain all: the database holds the puzzle domain's clusters only");
  const bool by_domain = domain != database.rules().domain();
  const Rules& base = database.rules();
  const Rules domain_rules(base.size(), base.exit_row(), q.metric, base.limits(), domain, base.walls());
  const Rules listed_rules = base.with_metric(q.metric);
  auto in_listed_domain = [&](const ClusterEntry& e) { return in_domain(domain_rules, parse_board(e.board, listed_rules)); };
  auto highest_of = [&](const ClusterRecord& r) { return static_cast<int>(exchanged ? r.other_highest_index : r.highest_index); };
  int index = q.index.value_or(-1);
  // Below the least highest index the sweep kept (--clusters-min-index), the database holds no
  // records: an empty list would say there are no such clusters.
  if (index >= 0 && index < database.min_index() && !exchanged)
    throw InputError("the database keeps the clusters of highest index " + std::to_string(database.min_index()) +
                     " and more (classify --clusters-min-index): those of index " + std::to_string(index) +
                     " are not listed (--count counts them where the sweep counted them)");
  if (q.hardest && by_domain) {
    index = -1;
    database.for_each([&](const ClusterEntry& row) {
      const ClusterEntry& e = under_metric(row);
      if (in_listed_domain(e)) index = std::max(index, static_cast<int>(e.record.highest_index));
      return true;
    }, false);
  } else if (q.hardest) {
    // The records alone: no row is visited, so no board is read.
    index = -1;
    database.for_each([](const ClusterEntry&) { return true; }, false, 1 << 16, [&](const ClusterRecord& r) {
      index = std::max(index, highest_of(r));
      return false;
    });
  }
  listing.index = index;
  listing.per_index = !q.hardest && index < 0;
  auto count = [&](std::uint32_t highest) {
    ++listing.matching;
    if (listing.per_index_counts.size() <= highest) listing.per_index_counts.resize(highest + 1u, 0);
    ++listing.per_index_counts[highest];
  };
  auto take = [&](const ClusterEntry& e) {
    if (static_cast<int>(listing.listed.size()) < q.samples && !listing.per_index) listing.listed.push_back(e);
    count(e.record.highest_index);
  };
  // A database written with --minimal holds the clusters minimal under its rule, each with the
  // board that rule lists: they are taken as they are; another rule cannot be answered from it.
  const MinimalRule rule = q.minimal_rule.value_or(database.minimal() ? database.minimal_rule() : MinimalRule::Any);
  if (q.minimal && database.minimal() && rule != database.minimal_rule())
    throw InputError("the database holds the clusters minimal under --minimal-rule " +
                     to_string(database.minimal_rule()) + " only (query it with that rule, or a database written "
                     "without --minimal)");
  const bool test_minimal = q.minimal && !database.minimal();
  MinimalClusterFilter minimal_filter(listed_rules, rule, std::max(1, q.threads), take);
  const auto started = std::chrono::steady_clock::now();
  auto reported = started;
  // Rows are chosen by their records, before their boards are read; counts alone need no row.
  const bool records_only = listing.per_index && !test_minimal && !by_domain;
  auto wanted = [&](const ClusterRecord& r) {
    const bool match = (index < 0 || highest_of(r) == index) &&
                       q.filter(static_cast<int>(r.cars), static_cast<int>(r.trucks), static_cast<int>(r.walls)) &&
                       (q.min_size < 0 || r.size >= static_cast<std::uint64_t>(q.min_size)) &&
                       (q.max_size < 0 || r.size <= static_cast<std::uint64_t>(q.max_size));
    if (match && records_only) count(static_cast<std::uint32_t>(highest_of(r)));
    return match && !records_only;
  };
  database.for_each([&](const ClusterEntry& row) {
    const ClusterEntry& e = under_metric(row);
    if (by_domain && !in_listed_domain(e)) return true;
    if (!test_minimal) {
      take(e);
      return true;
    }
    minimal_filter.add(e);
    if (const auto now = std::chrono::steady_clock::now(); q.progress && now - reported > std::chrono::minutes(1)) {
      reported = now;
      q.progress("minimal: row " + std::to_string(e.row + 1) + " of " + std::to_string(database.size()) + ", " +
                 std::to_string(minimal_filter.tested()) + " clusters tested, " + std::to_string(listing.matching) +
                 " minimal, elapsed " +
                 std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - started).count()) + " s");
    }
    return true;
  }, !listing.per_index, 1 << 16, wanted);
  minimal_filter.finish();
  // A sweep that counted every minimal cluster answers the counts below its records' least
  // index too, where nothing narrows the question.
  const std::optional<std::vector<std::uint64_t>>& census_counts = database.minimal_counts(rule);
  const bool counted = listing.per_index && (q.minimal || database.minimal()) && census_counts &&
                       !q.filter.active() && q.min_size < 0 && q.max_size < 0 && !by_domain && !exchanged &&
                       database.min_index() > 0;
  if (counted) {
    const std::vector<std::uint64_t>& all = *census_counts;
    for (std::size_t i = static_cast<std::size_t>(database.min_index()); i < all.size(); ++i)
      if ((i < listing.per_index_counts.size() ? listing.per_index_counts[i] : 0) != all[i])
        throw InputError("the database's minimal counts disagree with its records at index " +
                         std::to_string(i) + " (a damaged database)");
    listing.per_index_counts = all;
    listing.matching = 0;
    for (const std::uint64_t c : all) listing.matching += c;
    listing.notes.push_back("the counts below index " + std::to_string(database.min_index()) +
                            " were made by the sweep; its records start there");
  }
  if (q.min_size >= 0) listing.selection += ", size >= " + std::to_string(q.min_size);
  if (q.max_size >= 0) listing.selection += ", size <= " + std::to_string(q.max_size);
  if (by_domain) listing.selection += ", " + to_string(domain) + " domain";
  if (q.minimal) listing.selection += rule == MinimalRule::Any ? ", minimal" : ", minimal (" + to_string(rule) + " rule)";
  if (!database.complete()) listing.notes.push_back("the database holds a part of the clusters (a work sample or a stopped run)");
  // The sweep chose its records under its own metric.
  if (exchanged && (database.min_index() > 0 || database.minimal())) {
    std::string chosen = database.min_index() > 0 ? "of highest index at least " + std::to_string(database.min_index()) : "";
    if (database.minimal()) chosen += (chosen.empty() ? "" : ", ") + std::string("minimal");
    listing.notes.push_back("the database holds only the clusters " + chosen + " under the " +
                            to_string(database.rules().metric()) + " metric");
  }
  if (database.both_metrics()) listing.other_metric = to_string(other_metric(q.metric));
  return listing;
}

}  // namespace rushhour
