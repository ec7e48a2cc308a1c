#include "query/run_checks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/search.hpp"
#include "explicit/counting.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/item_parts.hpp"
#include "query/board_cluster.hpp"
#include "query/class_run.hpp"
#include "query/part_by_classes.hpp"
#include "query/saved_parts.hpp"
#include "query/saved_run.hpp"
#include "run/class_sweep.hpp"
#include "run/merge_parts.hpp"
#include "run/run_directory.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/classification_file.hpp"
#include "storage/cluster_database.hpp"
#include "storage/item_records.hpp"
#include "storage/parts_checkpoint.hpp"
#include "storage/run_digest.hpp"
#include "util/clock.hpp"
#include "util/random_choice.hpp"

namespace rushhour {
namespace {

RunCheck passed(std::string name, std::string detail) { return {std::move(name), true, std::move(detail)}; }
RunCheck failed(std::string name, std::string detail) { return {std::move(name), false, std::move(detail)}; }

std::string at_index(std::size_t index) { return "index " + std::to_string(index) + ": "; }

RunCheck exact_counts(const Classification& c) {
  const PlacementCounts exact = count_placements(c.rules);
  if (c.domain_count != exact.domain)
    return failed("exact counts", "domain_count " + to_string(c.domain_count) + ", the exact counter's " +
                                      to_string(exact.domain));
  if (c.winning_count != exact.winning)
    return failed("exact counts", "winning_count " + to_string(c.winning_count) + ", the exact counter's " +
                                      to_string(exact.winning));
  return passed("exact counts", "domain " + to_string(exact.domain) + " and winning " + to_string(exact.winning) +
                                    " equal the exact counter's");
}

// What the reader (storage/classification_file.hpp) does not check already: no empty index
// below the highest, and the components against the non-dominated configurations.
RunCheck indices(const Classification& c) {
  for (std::size_t i = 0; i < c.layers.size(); ++i)
    if (c.layers[i].count == 0) return failed("indices", at_index(i) + "no configuration below the highest index");
  std::size_t with_components = 0;
  for (std::size_t i = 0; i < c.components.size(); ++i) {
    const std::int64_t components = c.components[i];
    if (components < 0) continue;  // not computed at this index
    ++with_components;
    if (Count(static_cast<std::uint64_t>(components)) > c.nondominated[i] || (components == 0) != (c.nondominated[i] == 0))
      return failed("indices", at_index(i) + std::to_string(components) + " components, " +
                                   to_string(c.nondominated[i]) + " non-dominated configurations");
  }
  if (!c.nondominated.empty() && c.nondominated.back() != c.layers.back().count)
    return failed("indices", at_index(c.layers.size() - 1) + "the highest index has dominated configurations");
  return passed("indices", std::to_string(c.layers.size()) + " indices (0 to " + std::to_string(c.max_index()) +
                               "), none empty; " +
                               (c.nondominated.empty() ? std::string("no dominance figures")
                                                       : "components at " + std::to_string(with_components) +
                                                             " of them, each with non-dominated configurations"));
}

// The board's index by the board-level search, or a why-not.
std::string index_by_search(const Rules& rules, const std::string& text, std::optional<int>& index) {
  try {
    const Board board = parse_board(text, rules);
    if (!in_domain(rules, board)) return "not in the run's domain";
    const auto path = shortest_solution(rules, board);
    index = path ? std::optional<int>(static_cast<int>(path->size()) - 1) : std::nullopt;
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

RunCheck samples(const Classification& c) {
  for (const Sample& sample : c.samples) {
    std::optional<int> index;
    if (const std::string why = index_by_search(c.rules, sample.board, index); !why.empty())
      return failed("samples", "sample " + sample.board + ": " + why);
    if (index != static_cast<int>(sample.index))
      return failed("samples", "sample " + sample.board + " is listed at index " + std::to_string(sample.index) +
                                   "; its shortest solution has " + (index ? std::to_string(*index) : "none"));
  }
  return passed("samples", std::to_string(c.samples.size()) + " sample boards have their index by search");
}

RunCheck census(const std::filesystem::path& run_directory, const Classification& c, const ClassCensus& census) {
  if (!(census.rules == c.rules))
    return failed("census", ClassCheckpoint::file_in(run_directory).string() + " is the checkpoint of another job (" +
                                census.rules.describe() + ")");
  const Classification swept = census.classification();
  if (swept.layers.size() != c.layers.size())
    return failed("census", "the census has " + std::to_string(swept.layers.size()) + " indices, classification.h5 " +
                                std::to_string(c.layers.size()));
  for (std::size_t i = 0; i < c.layers.size(); ++i)
    if (swept.layers[i].count != c.layers[i].count || swept.nondominated[i] != c.nondominated[i] ||
        swept.components[i] != c.components[i])
      return failed("census", at_index(i) + "the census's figures differ from classification.h5's");
  return passed("census", "the class sweep's census gives classification.h5's figures at every index");
}

// Positions of `wanted` of `total` units, ascending: evenly spaced (the first and the last
// included), or with a seed a uniform random choice (Floyd's algorithm on the standard's
// 64-bit Mersenne twister, whose output the standard fixes).
std::vector<std::size_t> sample_positions(std::size_t total, std::size_t wanted, std::optional<std::uint64_t> seed) {
  wanted = std::min(wanted, total);
  std::vector<std::size_t> positions;
  if (wanted == total) {
    for (std::size_t k = 0; k < total; ++k) positions.push_back(k);
  } else if (!seed) {
    for (std::size_t k = 0; k < wanted; ++k) positions.push_back(wanted == 1 ? 0 : k * (total - 1) / (wanted - 1));
  } else {
    positions = random_positions(total, wanted, *seed);
  }
  return positions;
}

// Units [0, count) solved by work(k, thread) on `threads` threads, with a progress note now
// and then; rethrows the exception of the least unit that threw.
void solve_units(std::size_t count, const RunCheckOptions& options, const std::string& what,
                 const std::function<void(std::size_t k, int thread)>& work) {
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> errors(count);
  std::mutex progress;
  std::size_t done = 0;
  const auto start = Clock::now();
  double noted = 0;
  const auto loop = [&](int thread) {
    for (std::size_t k = next++; k < count; k = next++) {
      try {
        work(k, thread);
      } catch (...) {
        errors[k] = std::current_exception();
      }
      const std::lock_guard lock(progress);
      ++done;
      const double elapsed = seconds_since(start);
      if (options.on_progress && elapsed - noted >= options.progress_seconds) {
        noted = elapsed;
        char text[160];
        std::snprintf(text, sizeof text, "verify: %s %zu/%zu solved again, %.0f s", what.c_str(), done, count, elapsed);
        options.on_progress(text);
      }
    }
  };
  const auto threads = static_cast<int>(std::min(static_cast<std::size_t>(std::max(1, options.threads)), count));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(loop, t);
  loop(0);
  for (std::thread& thread : pool) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

std::string sample_words(const RunCheckOptions& options, std::size_t chosen, std::size_t recorded) {
  return chosen == recorded ? "all"
         : options.seed     ? "chosen at random with seed " + std::to_string(*options.seed)
                            : "evenly spaced";
}

RunCheck items(const std::filesystem::path& run_directory, const RunCheckOptions& options) {
  const run::RunDirectory directory(run_directory);
  const std::optional<run::RunDirectory::SavedSweep> saved = directory.saved_class_sweep();
  const std::optional<ItemRecordLog::Records> records = ItemRecordLog::read(run_directory);
  if (!saved || !records)
    return passed("items", "no item records (a run made before they were kept, or merged from parts): "
                           "no work item solved again");
  if (records->parameters != saved->identity.text())
    return failed("items", ItemRecordLog::file_in(run_directory).string() + " belongs to a run of other parameters");
  if (records->conflicting > 0)
    return failed("items", std::to_string(records->conflicting) +
                               " work items were solved twice with different figures (after a resume)");
  const std::vector<std::uint64_t>& refused = saved->state.refused;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> recorded;
  for (const auto& [item, digest] : records->digest_of)
    if (std::find(refused.begin(), refused.end(), item) == refused.end()) recorded.emplace_back(item, digest);
  ClassEngineOptions engine;
  engine.mirror = saved->identity.mirror;
  engine.threads = std::max(1, options.threads);
  const ClassItems items(saved->identity.rules, engine);
  const std::vector<std::size_t> chosen =
      sample_positions(recorded.size(), static_cast<std::size_t>(options.units), options.seed);
  std::vector<std::unique_ptr<ItemSolver>> solvers;
  for (int t = 0; t < engine.threads; ++t) solvers.push_back(items.solver());
  enum class Outcome { Equal, Differs, Skipped };
  std::vector<Outcome> outcome(chosen.size());
  solve_units(chosen.size(), options, "work items", [&](std::size_t k, int thread) {
    const ItemFigures figures = solvers[static_cast<std::size_t>(thread)]->solve(recorded[chosen[k]].first);
    // A class above this process's memory bound, or one for the symbolic path, is left out.
    outcome[k] = !figures.delta.refused.empty()                                  ? Outcome::Skipped
                 : run::item_digest(figures.delta) == recorded[chosen[k]].second ? Outcome::Equal
                                                                                 : Outcome::Differs;
  });
  for (std::size_t k = 0; k < chosen.size(); ++k)
    if (outcome[k] == Outcome::Differs)
      return failed("items", "work item " + std::to_string(recorded[chosen[k]].first) +
                                 ": its figures solved again differ from the run's record");
  const auto skipped = static_cast<std::size_t>(std::count(outcome.begin(), outcome.end(), Outcome::Skipped));
  const std::string how = sample_words(options, chosen.size(), recorded.size());
  return passed("items", std::to_string(chosen.size() - skipped) + " of " + std::to_string(recorded.size()) +
                             " recorded work items (" + std::to_string(saved->state.items_done()) + " done; " + how +
                             ") solved again equal their records" +
                             (skipped > 0 ? " (" + std::to_string(skipped) + " left out: a class above the bound)" : ""));
}

// A finished part of a class sweep (classify --items K/N): no classification.h5 until the
// parts are merged, so its census is checked on its own (at every index of every (walls,
// cars, trucks): configurations within the domain, non-dominated ones within them, a
// component wherever there are non-dominated ones and never more) and a sample of its work
// items is solved again. Throws InputError for a part that is not finished
// (run::finished_part_items).
void check_class_part(const std::filesystem::path& run_directory, const run::RunDirectory::SavedSweep& saved,
                      const RunCheckOptions& options, const std::function<void(const RunCheck&)>& report) {
  const ItemPart part = saved.identity.part;
  const std::uint64_t of_part = run::finished_part_items(run_directory, saved);
  report(passed("part", "part " + part.describe() + " of " + saved.identity.rules.describe() + ": its " +
                            std::to_string(of_part) + " work items done (" + std::to_string(saved.state.classes) +
                            " classes, " + std::to_string(saved.state.states) +
                            " configurations); `rushhour merge` adds the parts into one classification.h5"));
  std::string difference;
  for (std::size_t slot = 0; slot < saved.state.tallies.size() && difference.empty(); ++slot) {
    const VehicleTally& tally = saved.state.tallies[slot];
    std::uint64_t solvable = 0;
    for (std::size_t i = 0; i < tally.count.size() && difference.empty(); ++i) {
      solvable += tally.count[i];
      if (tally.nondominated[i] > tally.count[i]) difference = at_index(i) + "more non-dominated configurations than configurations";
      else if ((tally.components[i] > 0) != (tally.nondominated[i] > 0) || tally.components[i] > tally.nondominated[i])
        difference = at_index(i) + "components and non-dominated configurations do not match";
    }
    if (difference.empty() && solvable > tally.domain) difference = "more solvable configurations than the domain holds";
  }
  report(difference.empty() ? passed("census", "the part's figures agree with each other at every index and "
                                               "number of walls, cars and trucks")
                            : failed("census", difference));
  report(items(run_directory, options));
}

// A sample of a partitioned run's parts (number, recorded part_digest) solved again by the
// class engine; `finished`: the parts the run finished.
RunCheck part_classes(const std::string& identity_text, const std::string& where,
                      const std::vector<std::pair<std::uint64_t, std::uint64_t>>& recorded, std::uint64_t finished,
                      const RunCheckOptions& options) {
  const PartitionedRunIdentity identity = parse_partitioned_run_identity(identity_text, where);
  const Rules& rules = identity.layers.rules;
  if (rules.size() > kMaxClassEngineSize)
    return passed("part classes", "no part solved again: the class engine takes sizes up to " +
                                      std::to_string(kMaxClassEngineSize));
  const PartNumbering numbering(parse_partition(identity.partition, rules), rules);
  const std::vector<std::size_t> chosen =
      sample_positions(recorded.size(), static_cast<std::size_t>(options.units), options.seed);
  std::vector<std::optional<bool>> equal(chosen.size());  // nullopt: left out
  solve_units(chosen.size(), options, "parts", [&](std::size_t k, int) {
    const auto [number, digest] = recorded[chosen[k]];
    const std::optional<PartFigures> figures =
        part_by_classes(identity, numbering.part(number), number, std::max(1, options.threads));
    if (figures) equal[k] = part_digest(*figures) == digest;
  });
  for (std::size_t k = 0; k < chosen.size(); ++k)
    if (equal[k] == false)
      return failed("part classes", "part " + std::to_string(recorded[chosen[k]].first) + " (" +
                                        numbering.part(recorded[chosen[k]].first).name(rules.size()) +
                                        "): its figures solved by the class engine differ from the run's");
  const auto skipped = static_cast<std::size_t>(std::count(equal.begin(), equal.end(), std::nullopt));
  const std::string how = sample_words(options, chosen.size(), recorded.size());
  return passed("part classes",
                std::to_string(chosen.size() - skipped) + " of " + std::to_string(recorded.size()) +
                    " recorded parts (" + std::to_string(finished) + " finished; " + how +
                    ") solved by the class engine equal the run's figures" +
                    (skipped > 0 ? " (" + std::to_string(skipped) + " left out: a class above the bound)" : ""));
}

RunCheck layers(const std::filesystem::path& directory, const Classification& c, const RunCheckOptions& options) {
  BddSession session(0, BddSettings{});
  SavedRun run(session, directory);
  if (run.finished_layers() != static_cast<int>(c.layers.size()))
    return failed("layers", std::to_string(run.finished_layers()) + " saved layers, " +
                                std::to_string(c.layers.size()) + " indices in classification.h5");
  bdd seen = bddfalse;
  Count total = 0;
  std::size_t searched = 0;
  for (int i = 0; i < run.finished_layers(); ++i) {
    const auto slot = static_cast<std::size_t>(i);
    const bdd& layer = run.layer(i);
    const Count count = run.encoding().state_set(layer).count();
    if (count != c.layers[slot].count)
      return failed("layers", "layer file " + std::to_string(i) + " holds " + to_string(count) +
                                  " configurations, classification.h5 " + to_string(c.layers[slot].count));
    seen |= layer;
    total += count;
    if (run.encoding().state_set(seen).count() != total)
      return failed("layers", "layer file " + std::to_string(i) + " meets a lower layer");
    std::string wrong;
    int boards = 0;
    run.encoding().for_each_board(layer, [&](const Board& board) {
      const std::string text = to_board_string(c.rules, board);
      std::optional<int> index;
      if (const std::string why = index_by_search(c.rules, text, index); !why.empty()) wrong = text + ": " + why;
      else if (index != i) wrong = text + " has index " + (index ? std::to_string(*index) : "none") + " by search";
      ++searched;
      return wrong.empty() && ++boards < options.boards_per_layer;
    });
    if (!wrong.empty()) return failed("layers", "layer file " + std::to_string(i) + ": " + wrong);
  }
  return passed("layers", std::to_string(run.finished_layers()) + " layer files count classification.h5's figures, " +
                              "are disjoint, and " + std::to_string(searched) + " of their boards have their index by search");
}

// `sums`: the parts' figures added up, from their files (`source` "part files") or from the
// checkpoint of a run that keeps figures only.
RunCheck parts(const Classification& c, const SavedParts::PartSums& sums, const std::string& source) {
  if (sums.finished != sums.parts)
    return failed("parts", std::to_string(sums.finished) + " of " + std::to_string(sums.parts) + " parts finished");
  const std::pair<const char*, std::pair<Count, Count>> totals[] = {
      {"domain", {sums.domain, c.domain_count}},
      {"winning", {sums.winning, c.winning_count}},
      {"solvable", {sums.solvable, c.solvable_count}},
      {"unsolvable", {sums.unsolvable, c.unsolvable_count}}};
  for (const auto& [name, pair] : totals)
    if (pair.first != pair.second)
      return failed("parts", std::string("the parts' ") + name + " counts add up to " + to_string(pair.first) +
                                 ", classification.h5's is " + to_string(pair.second));
  if (sums.per_index.size() != c.layers.size())
    return failed("parts", "the parts reach index " + std::to_string(sums.per_index.size()) + " - 1, classification.h5 " +
                               std::to_string(c.max_index()));
  for (std::size_t i = 0; i < c.layers.size(); ++i)
    if (sums.per_index[i] != c.layers[i].count)
      return failed("parts", at_index(i) + "the parts add up to " + to_string(sums.per_index[i]) +
                                 ", classification.h5 has " + to_string(c.layers[i].count));
  return passed("parts", std::to_string(sums.parts) + " parts (" + source +
                             ") add up to classification.h5's counts at every index");
}

// A partitioned run that keeps its parts' figures only: the checkpoint's sum against
// classification.h5, then a sample of the parts it recorded solved again.
void figures_only_parts(const std::filesystem::path& run_directory, const Classification& c,
                        const RunCheckOptions& options, const std::function<void(const RunCheck&)>& report) {
  const std::optional<std::string> identity = PartsCheckpoint::saved_identity(run_directory);
  if (!identity) throw std::logic_error("figures_only_parts: no parts checkpoint");
  const std::optional<PartsCheckpoint::Saved> saved = PartsCheckpoint(run_directory, *identity).load();
  const PartitionedRunIdentity parsed =
      parse_partitioned_run_identity(*identity, PartsCheckpoint::file_in(run_directory).string());
  SavedParts::PartSums sums;
  sums.parts = count_parts(parse_partition(parsed.partition, parsed.layers.rules), parsed.layers.rules);
  sums.finished = saved->finished.size();
  sums.domain = saved->sum.domain;
  sums.winning = saved->sum.winning;
  sums.solvable = saved->sum.solvable;
  sums.unsolvable = saved->sum.unsolvable;
  for (const LayerFigures& layer : saved->sum.layers) sums.per_index.push_back(layer.count);
  report(parts(c, sums, "the sum in " + PartsCheckpoint::file_in(run_directory).filename().string()));
  const std::optional<ItemRecordLog::Records> records = ItemRecordLog::read(run_directory, RecordedUnits::Parts);
  const std::string log = ItemRecordLog::file_in(run_directory, RecordedUnits::Parts).string();
  if (!records) {
    report(passed("part classes", "no part records (a run made before they were kept): no part solved again"));
    return;
  }
  if (records->parameters != *identity) {
    report(failed("part classes", log + " belongs to a run of other parameters"));
    return;
  }
  if (records->conflicting > 0) {
    report(failed("part classes", std::to_string(records->conflicting) +
                                      " parts were solved twice with different figures (after a resume)"));
    return;
  }
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> recorded(records->digest_of.begin(),
                                                                      records->digest_of.end());
  report(part_classes(*identity, log, recorded, saved->finished.size(), options));
}

// The first way a database row and its cluster searched again differ, or "".
std::string row_difference(const ClusterDatabase& database, const ClusterEntry& entry) {
  const Rules& rules = database.rules();
  const Board board = parse_board(entry.board, rules);
  const ClusterRecord& r = entry.record;
  if (board.cars() != static_cast<int>(r.cars) || board.trucks() != static_cast<int>(r.trucks) ||
      board.wall_count() != static_cast<int>(r.walls))
    return "its pieces are not the board's";
  const std::optional<BoardCluster> cluster = cluster_of_board(rules, board);
  if (!cluster) return "the board is unsolvable";
  if (cluster->size != r.size) return "size " + std::to_string(r.size) + ", searched " + std::to_string(cluster->size);
  if (cluster->highest_index != static_cast<int>(r.highest_index))
    return "highest index " + std::to_string(r.highest_index) + ", searched " + std::to_string(cluster->highest_index);
  if (cluster->board_index != cluster->highest_index) return "the board is not one of the hardest";
  if (!database.minimal() && cluster->hardest != entry.board)
    return "the board is not the canonical hardest " + cluster->hardest;
  if (cluster->hardest_count != r.hardest_count || cluster->winning_count != r.winning)
    return "hardest or winning configurations differ from the search's";
  if (!entry.histogram.empty() && cluster->histogram != entry.histogram) return "the histogram differs from the search's";
  if (database.both_metrics()) {
    const std::optional<BoardCluster> other = cluster_of_board(rules.with_metric(database.other_metric()), board);
    if (!other || other->highest_index != static_cast<int>(r.other_highest_index) ||
        other->hardest_count != r.other_hardest_count || other->hardest != entry.other_board)
      return "the " + to_string(database.other_metric()) + " metric's figures differ from the search's";
  }
  return "";
}

}  // namespace

void check_database(const std::filesystem::path& path, std::uint64_t records,
                    const std::function<void(const RunCheck&)>& report) {
  const ClusterDatabase database(path);
  report(passed("database", path.string() + ": " + std::to_string(database.size()) + " clusters, " +
                                database.rules().describe() + (database.minimal() ? ", minimal puzzles" : "")));
  const std::uint64_t stride = records == 0 ? 0 : std::max<std::uint64_t>(1, database.size() / records);
  std::uint64_t checked = 0;
  std::string difference;
  // Rows the reader finds damaged (a histogram that does not add up to the size, ...) fail
  // the check too.
  try {
    if (stride > 0)
      database.for_each([&](const ClusterEntry& entry) {
        if (entry.row % stride != 0) return true;
        ++checked;
        if (const std::string why = row_difference(database, entry); !why.empty())
          difference = "row " + std::to_string(entry.row) + " (" + entry.board + "): " + why;
        return difference.empty();
      });
  } catch (const InputError& e) {
    difference = e.what();
  }
  const std::string which = stride == 1 ? "every row" : "one row in " + std::to_string(stride);
  report(difference.empty() ? passed("clusters", std::to_string(checked) + " rows (" + which +
                                                     ") equal their clusters searched again")
                            : failed("clusters", difference));
}

std::string check_run(const std::filesystem::path& run_directory, const RunCheckOptions& options,
                      const std::function<void(const RunCheck&)>& report) {
  const run::RunDirectory directory(run_directory);
  if (!std::filesystem::exists(directory.result_file())) {
    if (const std::optional<run::RunDirectory::SavedSweep> saved = directory.saved_class_sweep();
        saved && !saved->identity.part.whole()) {
      check_class_part(run_directory, *saved, options, report);
      return "";  // a run digest is of a whole run's figures
    }
    throw InputError(run_directory.string() + ": no classification.h5: not a finished run");
  }
  // A file that the reader refuses (damaged, or figures that contradict each other: the sums,
  // the winning set against index 0, non-dominated against configurations, samples that are
  // no boards of the domain) is a failed check, not bad input: it is what verify looks for.
  std::optional<Classification> read;
  try {
    read = read_classification(directory.result_file());
  } catch (const InputError& e) {
    report(failed("result", e.what()));
    return "";
  }
  const Classification& c = *read;
  if (!c.complete)
    throw InputError(directory.result_file().string() + " is not complete: finish the run with classify --resume");
  report(passed("result", directory.result_file().string() + ": " + c.rules.describe() + ", engine " + c.engine +
                              "; its figures agree with each other"));
  report(exact_counts(c));
  report(indices(c));
  report(samples(c));
  // The run's other files: one that is damaged or belongs to another run (a layer, a part file,
  // a checkpoint copied from elsewhere) fails the check that reads it, naming the file.
  const auto checked = [&report](const char* name, const std::function<void()>& check) {
    try {
      check();
    } catch (const InputError& e) {
      report(failed(name, e.what()));
    }
  };
  if (directory.has_parts() && !directory.has_part_figures_only()) {
    checked("parts", [&] {
      if (const std::unique_ptr<SavedParts> saved = SavedParts::open(run_directory)) {
        const SavedParts::PartSums sums = saved->sums();
        report(parts(c, sums, "part files"));
        const std::string identity = *PartStore::saved_identity(run_directory);
        const std::string where = directory.parts(identity).directory().string();
        report(part_classes(identity, where, sums.digests, sums.finished, options));
      }
    });
  } else if (directory.has_part_figures_only()) {
    checked("parts", [&] { figures_only_parts(run_directory, c, options, report); });
  } else if (directory.has_layers()) {
    checked("layers", [&] { report(layers(run_directory, c, options)); });
  } else {
    checked("census", [&] {
      if (const std::optional<ClassCensus> swept = open_class_run(run_directory)) {
        report(census(run_directory, c, *swept));
        report(items(run_directory, options));
      }
    });
  }
  return run_digest(c);
}

}  // namespace rushhour
