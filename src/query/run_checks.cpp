#include "query/run_checks.hpp"

#include <algorithm>
#include <optional>

#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/search.hpp"
#include "explicit/counting.hpp"
#include "explicit/class_engine.hpp"
#include "query/board_cluster.hpp"
#include "query/class_run.hpp"
#include "query/saved_parts.hpp"
#include "query/saved_run.hpp"
#include "run/class_sweep.hpp"
#include "run/run_directory.hpp"
#include "storage/classification_file.hpp"
#include "storage/cluster_database.hpp"
#include "storage/item_records.hpp"
#include "storage/run_digest.hpp"

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

RunCheck census(const Classification& c, const ClassCensus& census) {
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
  const ClassItems items(saved->identity.rules, engine);
  const std::unique_ptr<ItemSolver> solver = items.solver();
  const std::size_t wanted = std::min<std::size_t>(recorded.size(), static_cast<std::size_t>(options.items));
  std::size_t solved = 0, skipped = 0;
  for (std::size_t k = 0; k < wanted; ++k) {
    // Evenly spaced over the recorded items, the first and the last included.
    const std::size_t at = wanted == 1 ? 0 : k * (recorded.size() - 1) / (wanted - 1);
    const auto [item, digest] = recorded[at];
    const ItemFigures figures = solver->solve(item);
    if (!figures.delta.refused.empty()) {
      ++skipped;  // a class above this process's memory bound, or one for the symbolic path
      continue;
    }
    ++solved;
    if (run::item_digest(figures.delta) != digest)
      return failed("items", "work item " + std::to_string(item) + ": its figures solved again differ from the run's record");
  }
  return passed("items", std::to_string(solved) + " of " + std::to_string(recorded.size()) + " recorded work items (" +
                             std::to_string(saved->state.items_done()) + " done) solved again equal their records" +
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

RunCheck parts(const Classification& c, const SavedParts& saved) {
  const SavedParts::PartSums sums = saved.sums();
  if (sums.finished != sums.parts)
    return failed("parts", std::to_string(sums.finished) + " of " + std::to_string(sums.parts) + " part files");
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
  return passed("parts", std::to_string(sums.parts) + " part files add up to classification.h5's counts at every index");
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
  if (!std::filesystem::exists(directory.result_file()))
    throw InputError(run_directory.string() + ": no classification.h5: not a finished run");
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
  if (directory.has_parts() && !directory.has_part_figures_only()) {
    if (const std::unique_ptr<SavedParts> saved = SavedParts::open(run_directory)) report(parts(c, *saved));
  } else if (directory.has_layers()) {
    report(layers(run_directory, c, options));
  } else if (const std::optional<ClassCensus> swept = open_class_run(run_directory)) {
    report(census(c, *swept));
    report(items(run_directory, options));
  }
  return run_digest(c);
}

}  // namespace rushhour
