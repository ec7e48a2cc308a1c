// `rushhour query`: answers from the saved layers of a finished or partial run (SPEC §6).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/search.hpp"
#include "storage/cluster_database.hpp"
#include "query/board_cluster.hpp"
#include "query/minimal_clusters.hpp"
#include "query/class_run.hpp"
#include "query/saved_parts.hpp"
#include "query/saved_run.hpp"
#include "run/environment.hpp"
#include "run/run_directory.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kUsage =
    "usage: rushhour query --run DIR (--board B [--solve] | --index I [--count] [--sample K]\n"
    "                      [--cars C] [--trucks T] [--vehicles V] | --hardest [--sample K]) [--json]\n"
    "       rushhour query --clusters FILE.h5 [--metric step|move] (--board B [--solve] | (--index I |\n"
    "                      --hardest | --count) [--cars C] [--trucks T] [--vehicles V] [--min-size S]\n"
    "                      [--max-size S] [--domain puzzle] [--minimal [--threads N]] [--sample K]) [--json]\n"
    "Answers from the layers saved by `rushhour classify --out DIR`, also while it runs; for a\n"
    "run of the classes engine (no layers), from its census, boards by searching their component.\n"
    "A board's answer includes its cluster (size, highest index, canonical hardest configuration),\n"
    "searched from the board. With --clusters, lists the clusters of a database (classify --clusters),\n"
    "by its run's metric or, with --metric, by either metric of a database written with\n"
    "--clusters-metrics both; --count alone counts them per highest index; --minimal keeps the\n"
    "minimal puzzles, tested as they are read.";

std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string json_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t k = 0; k < items.size(); ++k) text += (k ? ", " : "") + json_string(items[k]);
  return text + "]";
}

// "B right 2": the vehicle that moved from `before` to `after`, with its letter in `before`.
std::string describe_move(const Rules& rules, const Board& before, const Board& after) {
  const std::string letters = to_board_string(rules, before);
  for (const Vehicle& v : before.vehicles()) {
    if (std::find(after.vehicles().begin(), after.vehicles().end(), v) != after.vehicles().end())
      continue;
    for (const Vehicle& w : after.vehicles()) {
      if (w.orientation != v.orientation || w.length != v.length) continue;
      const int delta = v.horizontal() ? w.col - v.col : w.row - v.row;
      if ((v.horizontal() ? w.row != v.row : w.col != v.col) || delta == 0) continue;
      if (std::find(before.vehicles().begin(), before.vehicles().end(), w) != before.vehicles().end())
        continue;
      const char letter = letters[static_cast<std::size_t>(v.row * rules.size() + v.col)];
      const char* direction = v.horizontal() ? (delta > 0 ? "right" : "left") : (delta > 0 ? "down" : "up");
      return std::string(1, letter) + " " + direction + " " + std::to_string(std::abs(delta));
    }
  }
  throw std::logic_error("describe_move: boards do not differ by one vehicle");
}

// The boards of `states`, the first `limit` in the encoding's order.
std::vector<std::string> sample_boards(const SavedRun& run, const bdd& states, int limit) {
  std::vector<std::string> boards;
  if (limit <= 0) return boards;
  run.encoding().for_each_board(states, [&](const Board& board) {
    boards.push_back(to_board_string(run.rules(), board));
    return static_cast<int>(boards.size()) < limit;
  });
  return boards;
}

Board parse_run_board(const Rules& rules, const std::string& text) {
  try {
    return parse_board(text, rules);
  } catch (const InputError& e) {
    throw InputError(std::string("board is not in this run's domain (") + rules.describe() + "): " + e.what());
  }
}

// What a run knows of a board: its index, or nullopt when it lies in no finished layer
// (unsolvable if `complete`, else unknown above `finished_layers` - 1), and with --solve an
// optimal solution.
struct BoardAnswer {
  std::optional<int> index;
  bool complete = true;
  int finished_layers = 0;
  std::vector<Board> path;
  std::optional<BoardCluster> cluster;  // nullopt: unsolvable
  // A database with both metrics: the cluster under the other metric too.
  std::optional<BoardCluster> other_cluster;
  std::string unknown_part;  // a partitioned run: the board's part, when it is not finished
};

std::string json_numbers(const std::vector<std::uint64_t>& numbers) {
  std::string text = "[";
  for (std::size_t k = 0; k < numbers.size(); ++k) text += (k ? ", " : "") + std::to_string(numbers[k]);
  return text + "]";
}

// With `other` (the cluster under the other metric, `other_metric`) also its figures under
// that metric, in "other_metric" (size and winning configurations hold for both).
std::string cluster_json(const BoardCluster& c, const BoardCluster* other, Metric other_metric) {
  std::string text = "{\"size\": " + std::to_string(c.size) + ", \"highest_index\": " + std::to_string(c.highest_index) +
                     ", \"hardest\": " + json_string(c.hardest) + ", \"hardest_count\": " + std::to_string(c.hardest_count) +
                     ", \"winning_count\": " + std::to_string(c.winning_count) + ", \"histogram\": " +
                     json_numbers(c.histogram) + ", \"harder\": " + std::to_string(c.harder);
  if (other)
    text += ", \"other_metric\": {\"metric\": " + json_string(to_string(other_metric)) +
            ", \"index\": " + std::to_string(other->board_index) + ", \"highest_index\": " +
            std::to_string(other->highest_index) + ", \"hardest\": " + json_string(other->hardest) +
            ", \"hardest_count\": " + std::to_string(other->hardest_count) + ", \"histogram\": " +
            json_numbers(other->histogram) + ", \"harder\": " + std::to_string(other->harder) + "}";
  return text + "}";
}

// The lines of a cluster that tell where `board` stands in it, and its histogram.
void print_cluster_lines(const BoardCluster& c, const std::string& board) {
  std::cout << "  hardest " << c.hardest << (c.hardest == board ? " (this board)" : "") << "\n"
            << "  this board: index " << c.board_index << ", " << c.harder
            << " configurations of the cluster are harder\n  configurations per index:";
  for (const std::uint64_t count : c.histogram) std::cout << " " << count;
  std::cout << "\n";
}

int print_board_answer(const Rules& rules, const Board& board, const BoardAnswer& answer, bool solve, bool json) {
  const std::string line = to_board_string(rules, board);
  const auto& index = answer.index;
  const std::string status = index ? "solved" : answer.complete ? "unsolvable" : "unknown";
  std::vector<std::string> boards, moves;
  if (index && solve) {
    const std::vector<Board>& path = answer.path;
    for (std::size_t k = 0; k < path.size(); ++k) {
      boards.push_back(to_board_string(rules, path[k]));
      if (k > 0) moves.push_back(describe_move(rules, path[k - 1], path[k]));
    }
  }
  if (json) {
    std::cout << "{\"board\": " << json_string(line) << ", \"index\": "
              << (index ? std::to_string(*index) : "null") << ", \"status\": " << json_string(status);
    if (index && solve)
      std::cout << ", \"solution\": " << json_list(boards) << ", \"moves\": " << json_list(moves);
    const BoardCluster* other = answer.other_cluster ? &*answer.other_cluster : nullptr;
    std::cout << ", \"cluster\": "
              << (answer.cluster ? cluster_json(*answer.cluster, other, other_metric(rules.metric())) : "null") << "}\n";
    return 0;
  }
  std::cout << "board " << line << "\n" << to_grid(rules, board);
  if (index) {
    std::cout << "index " << *index << " (" << to_string(rules.metric()) << " metric)\n";
  } else if (answer.complete) {
    std::cout << "unsolvable\n";
  } else if (!answer.unknown_part.empty()) {
    std::cout << "unknown: its part " << answer.unknown_part << " is not finished (the run is not complete)\n";
  } else {
    std::cout << "unknown: in none of the " << answer.finished_layers
              << " finished layers, so its index is above " << answer.finished_layers - 1
              << " or it is unsolvable (the run is not complete)\n";
  }
  if (const auto& c = answer.cluster) {
    std::cout << "cluster: " << c->size << " configurations, " << c->winning_count << " winning, highest index "
              << c->highest_index << " (hardest configurations: " << c->hardest_count << ")\n";
    print_cluster_lines(*c, line);
  }
  if (const auto& c = answer.other_cluster) {
    std::cout << "under the " << to_string(other_metric(rules.metric())) << " metric: highest index " << c->highest_index
              << " (hardest configurations: " << c->hardest_count << ")\n";
    print_cluster_lines(*c, line);
  }
  if (index && solve) {
    std::cout << "solution (" << moves.size() << " " << to_string(rules.metric()) << "s):\n";
    for (std::size_t k = 0; k < boards.size(); ++k)
      std::cout << "  " << (k == 0 ? std::string("start") : std::to_string(k) + ". " + moves[k - 1])
                << "  " << boards[k] << "\n";
  }
  return 0;
}

int answer_board(SavedRun& run, const std::string& text, bool solve, bool json) {
  const Board board = parse_run_board(run.rules(), text);
  BoardAnswer answer;
  answer.index = run.index_of(board);
  answer.complete = run.complete();
  answer.finished_layers = run.finished_layers();
  if (answer.index && solve) answer.path = run.solution(board, *answer.index);
  answer.cluster = cluster_of_board(run.rules(), board);
  return print_board_answer(run.rules(), board, answer, solve, json);
}

// A class run has no layers: the board's component is searched (exact whether or not the
// sweep has finished).
int answer_board(const ClassCensus& census, const std::string& text, bool solve, bool json) {
  const Board board = parse_run_board(census.rules, text);
  BoardAnswer answer;
  if (auto path = shortest_solution(census.rules, board)) {
    answer.index = static_cast<int>(path->size()) - 1;
    answer.path = std::move(*path);
  }
  answer.cluster = cluster_of_board(census.rules, board);
  return print_board_answer(census.rules, board, answer, solve, json);
}

// A board asked of a cluster database: its cluster is searched (no run needed), under
// `metric`, and with both metrics in the database under the other metric too.
int answer_board(const ClusterDatabase& database, Metric metric, const std::string& text, bool solve, bool json) {
  const Rules rules = database.rules().with_metric(metric);
  const Board board = parse_run_board(rules, text);
  BoardAnswer answer;
  answer.cluster = cluster_of_board(rules, board);
  if (answer.cluster) answer.index = answer.cluster->board_index;
  if (answer.cluster && database.both_metrics())
    answer.other_cluster = cluster_of_board(rules.with_metric(other_metric(metric)), board);
  if (answer.index && solve) answer.path = *shortest_solution(rules, board);
  return print_board_answer(rules, board, answer, solve, json);
}

// A partitioned run: the board's part knows it (the run need not be finished).
int answer_board(SavedParts& run, const std::string& text, bool solve, bool json) {
  const Board board = parse_run_board(run.rules(), text);
  const SavedParts::BoardIndex found = run.index_of(board);
  BoardAnswer answer;
  answer.index = found.index;
  answer.complete = found.part_complete;
  answer.finished_layers = found.part_layers;
  if (!found.part_finished) answer.unknown_part = found.part;
  if (answer.index && solve) answer.path = run.solution(board, *answer.index);
  answer.cluster = cluster_of_board(run.rules(), board);
  return print_board_answer(run.rules(), board, answer, solve, json);
}

// The vehicle filter of --cars, --trucks, --vehicles (-1: any), and its description.
struct VehicleFilter {
  int cars = -1, trucks = -1, vehicles = -1;
  bool active() const { return cars >= 0 || trucks >= 0 || vehicles >= 0; }
  bool operator()(int c, int t) const {
    return (cars < 0 || c == cars) && (trucks < 0 || t == trucks) && (vehicles < 0 || c + t == vehicles);
  }
  std::string describe() const {
    std::string text;
    if (cars >= 0) text += ", " + std::to_string(cars) + " cars";
    if (trucks >= 0) text += ", " + std::to_string(trucks) + " trucks";
    if (vehicles >= 0) text += ", " + std::to_string(vehicles) + " vehicles";
    return text;
  }
};

VehicleFilter filter_of(const po::variables_map& vm) {
  return {vm["cars"].as<int>(), vm["trucks"].as<int>(), vm["vehicles"].as<int>()};
}

// The answer to --index I / --hardest, printed the same for both kinds of run.
// Counts are printed with every digit, in JSON too (a JSON number beyond 2^53 stays exact in
// the text; docs/file-formats-counts.md).
void print_index_answer(int index, bool hardest, const VehicleFilter& filter, Count count,
                        const std::vector<std::string>& boards, bool incomplete, const std::string& note, bool json) {
  const std::string status = hardest && incomplete ? "incomplete" : "ok";
  if (json) {
    std::cout << "{\"index\": " << index << ", \"count\": " << to_string(count) << ", \"samples\": " << json_list(boards)
              << ", \"status\": " << json_string(status) << "}\n";
    return;
  }
  std::cout << (hardest ? "hardest: " : "") << "index " << index << filter.describe() << ": " << to_string(count) << " configurations";
  if (hardest && incomplete) std::cout << " (the run is not complete: this is its highest finished layer)";
  std::cout << "\n";
  for (const std::string& b : boards) std::cout << "  " << b << "\n";
  if (!note.empty()) std::cout << note << "\n";
}

void print_index_beyond(int index, bool complete, const std::string& why, bool json) {
  if (json)
    std::cout << "{\"index\": " << index << ", \"count\": " << (complete ? "0" : "null")
              << ", \"status\": " << json_string(complete ? "empty" : "unknown") << "}\n";
  else
    std::cout << "index " << index << ": " << why << "\n";
}

// The index that --index I or --hardest asks of a run whose counts exist only once it is
// finished (a class sweep, a partitioned run), or nullopt when it is beyond the highest and
// that answer is printed. Throws InputError while the run is unfinished.
std::optional<int> index_of_finished_run(bool complete, const std::string& run, int highest, int index,
                                         bool hardest, bool json) {
  if (!complete)
    throw InputError(run + " is not finished, so its counts are partial: finish it with "
                     "classify --resume (--board answers already)");
  if (hardest) index = highest;
  if (index < 0) throw InputError("--index must be >= 0");
  if (index > highest) {
    print_index_beyond(index, true, "empty: the highest index is " + std::to_string(highest), json);
    return std::nullopt;
  }
  return index;
}

int answer_index(const ClassCensus& census, int index, bool hardest, const po::variables_map& vm, bool json) {
  const int samples = vm["sample"].as<int>();
  if (samples < 0) throw InputError("--sample must be >= 0");
  const int highest = static_cast<int>(census.classification(census.rules.limits()).layers.size()) - 1;
  const std::optional<int> asked =
      index_of_finished_run(census.complete, "the class sweep of this run", highest, index, hardest, json);
  if (!asked) return 0;
  index = *asked;
  const VehicleFilter filter = filter_of(vm);
  const Count count = census_count(census, index, filter);
  std::vector<std::string> boards;
  const auto slot = static_cast<std::size_t>(index);
  const bool sampled = slot < census.samples.size() && !census.samples[slot].empty();
  if (sampled)
    for (const auto& [key, text] : census.samples[slot]) {
      if (static_cast<int>(boards.size()) >= samples) break;
      const Board board = parse_board(text, census.rules);
      if (filter(board.cars(), board.trucks())) boards.push_back(text);
    }
  // A class sweep keeps the least boards of its highest indices only (classify --samples,
  // --sample-indices); a bdd run of the same board gives samples of every index.
  const std::string note = samples > 0 && !sampled && count > 0
                               ? "(no sample boards of index " + std::to_string(index) +
                                     ": a class run keeps those of its highest indices only)"
                               : "";
  print_index_answer(index, hardest, filter, count, boards, false, note, json);
  return 0;
}

int answer_index(SavedRun& run, int index, bool hardest, const po::variables_map& vm, bool json) {
  const int samples = vm["sample"].as<int>();
  if (samples < 0) throw InputError("--sample must be >= 0");
  if (hardest) index = run.finished_layers() - 1;
  if (index < 0) throw InputError("--index must be >= 0");
  if (index >= run.finished_layers()) {
    const std::string why = run.complete() ? "empty: the highest index is " + std::to_string(run.finished_layers() - 1)
                                           : "unknown: the run has " + std::to_string(run.finished_layers()) + " finished layers";
    print_index_beyond(index, run.complete(), why, json);
    return 0;
  }
  bdd states = run.layer(index);
  const VehicleFilter filter = filter_of(vm);
  if (filter.active()) states &= run.encoding().vehicle_counts_where(filter);
  const Count count = run.encoding().state_set(states).count();
  print_index_answer(index, hardest, filter, count, sample_boards(run, states, samples), !run.complete(), "", json);
  return 0;
}

// The clusters of a database with the highest index I under `metric` (--index, --hardest:
// the highest in the database), the vehicles and the sizes asked, in the database's order:
// their number and the first K.
int answer_clusters(const ClusterDatabase& database, Metric metric, int index, bool hardest, const po::variables_map& vm,
                    bool json) {
  const int samples = vm["sample"].as<int>();
  if (samples < 0) throw InputError("--sample must be >= 0");
  const VehicleFilter filter = filter_of(vm);
  const std::int64_t min_size = vm["min-size"].as<std::int64_t>(), max_size = vm["max-size"].as<std::int64_t>();
  // Under the database's other metric, each row with the two metrics' figures exchanged.
  const bool exchanged = metric != database.rules().metric();
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
  const Domain domain = vm["domain"].defaulted() ? database.rules().domain() : parse_domain(vm["domain"].as<std::string>());
  if (domain == Domain::All && database.rules().domain() == Domain::Puzzle)
    throw InputError("--domain all: the database holds the puzzle domain's clusters only");
  const bool by_domain = domain != database.rules().domain();
  const Rules& base = database.rules();
  const Rules domain_rules(base.size(), base.exit_row(), metric, base.limits(), domain);
  const Rules listed_rules = base.with_metric(metric);
  auto in_listed_domain = [&](const ClusterEntry& e) { return in_domain(domain_rules, parse_board(e.board, listed_rules)); };
  auto highest_of = [&](const ClusterRecord& r) { return static_cast<int>(exchanged ? r.other_highest_index : r.highest_index); };
  if (hardest && by_domain) {
    index = -1;
    database.for_each([&](const ClusterEntry& row) {
      const ClusterEntry& e = under_metric(row);
      if (in_listed_domain(e)) index = std::max(index, static_cast<int>(e.record.highest_index));
      return true;
    }, false);
  } else if (hardest) {
    // The records alone: no row is visited, so no board is read.
    index = -1;
    database.for_each([](const ClusterEntry&) { return true; }, false, 1 << 16, [&](const ClusterRecord& r) {
      index = std::max(index, highest_of(r));
      return false;
    });
  }
  // --count without --index: the clusters per highest index.
  const bool per_index = !hardest && index < 0;
  std::uint64_t matching = 0;
  std::vector<std::uint64_t> counts;
  std::vector<ClusterEntry> listed;
  auto count = [&](std::uint32_t highest) {
    ++matching;
    if (counts.size() <= highest) counts.resize(highest + 1u, 0);
    ++counts[highest];
  };
  auto take = [&](const ClusterEntry& e) {
    if (static_cast<int>(listed.size()) < samples && !per_index) listed.push_back(e);
    count(e.record.highest_index);
  };
  const bool minimal = vm["minimal"].as<bool>();
  const int threads = vm["threads"].as<int>();
  if (threads < 0 || threads > 256) throw InputError("--threads must be 0 (all) to 256");
  MinimalClusterFilter minimal_filter(listed_rules,
                                      run::Environment::of_this_process().threads_for(threads),
                                      take);
  // A long minimal test reports how far it is, once a minute.
  const auto started = std::chrono::steady_clock::now();
  auto reported = started;
  // Rows are chosen by their records, before their boards are read; counts alone need no row.
  const bool records_only = per_index && !minimal && !by_domain;
  auto wanted = [&](const ClusterRecord& r) {
    const bool match = (index < 0 || highest_of(r) == index) && filter(static_cast<int>(r.cars), static_cast<int>(r.trucks)) &&
                       (min_size < 0 || r.size >= static_cast<std::uint64_t>(min_size)) &&
                       (max_size < 0 || r.size <= static_cast<std::uint64_t>(max_size));
    if (match && records_only) count(static_cast<std::uint32_t>(highest_of(r)));
    return match && !records_only;
  };
  database.for_each([&](const ClusterEntry& row) {
    const ClusterEntry& e = under_metric(row);
    if (by_domain && !in_listed_domain(e)) return true;
    if (!minimal) {
      take(e);
      return true;
    }
    minimal_filter.add(e);
    if (const auto now = std::chrono::steady_clock::now(); now - reported > std::chrono::minutes(1)) {
      reported = now;
      std::cerr << "minimal: row " << e.row + 1 << " of " << database.size() << ", " << minimal_filter.tested()
                << " clusters tested, " << matching << " minimal, elapsed "
                << std::chrono::duration_cast<std::chrono::seconds>(now - started).count() << " s" << std::endl;
    }
    return true;
  }, !per_index, 1 << 16, wanted);
  minimal_filter.finish();
  std::string sizes;
  if (min_size >= 0) sizes += ", size >= " + std::to_string(min_size);
  if (max_size >= 0) sizes += ", size <= " + std::to_string(max_size);
  if (by_domain) sizes += ", " + to_string(domain) + " domain";
  if (minimal) sizes += ", minimal";
  std::vector<std::string> notes;
  if (!database.complete()) notes.push_back("the database holds a part of the clusters (a work sample or a stopped run)");
  // The sweep chose its records under its own metric.
  if (exchanged && (database.min_index() > 0 || database.minimal())) {
    std::string chosen = database.min_index() > 0 ? "of highest index at least " + std::to_string(database.min_index()) : "";
    if (database.minimal()) chosen += (chosen.empty() ? "" : ", ") + std::string("minimal");
    notes.push_back("the database holds only the clusters " + chosen + " under the " +
                    to_string(database.rules().metric()) + " metric");
  }
  // A database with both metrics: each record's figures under the other metric too, under
  // its name.
  const std::string other = database.both_metrics() ? to_string(other_metric(metric)) : "";
  if (per_index) {
    if (json) {
      std::cout << "{\"clusters\": " << matching << ", \"complete\": " << (database.complete() ? "true" : "false")
                << ", \"metric\": " << json_string(to_string(metric)) << ", \"minimal\": " << (minimal ? "true" : "false")
                << ", \"per_index\": " << json_numbers(counts) << "}\n";
      return 0;
    }
    std::cout << "clusters" << filter.describe() << sizes << " (" << to_string(metric) << " metric): " << matching << "\n";
    if (matching > 0) std::cout << "highest-index clusters\n";
    for (std::size_t k = 0; k < counts.size(); ++k)
      if (counts[k] > 0) std::cout << "  " << k << " " << counts[k] << "\n";
    for (const std::string& note : notes) std::cout << "(" << note << ")\n";
    return 0;
  }
  if (json) {
    std::cout << "{\"clusters\": " << matching << ", \"highest_index\": " << (index >= 0 ? std::to_string(index) : "null")
              << ", \"complete\": " << (database.complete() ? "true" : "false") << ", \"metric\": "
              << json_string(to_string(metric)) << ", \"list\": [";
    for (std::size_t k = 0; k < listed.size(); ++k) {
      const ClusterRecord& r = listed[k].record;
      std::cout << (k ? ", " : "") << "{\"board\": " << json_string(listed[k].board) << ", \"highest_index\": "
                << r.highest_index << ", \"size\": " << r.size << ", \"hardest_count\": " << r.hardest_count
                << ", \"winning_count\": " << r.winning << ", \"cars\": " << r.cars << ", \"trucks\": " << r.trucks
                << ", \"histogram\": " << json_numbers(listed[k].histogram);
      if (!other.empty())
        std::cout << ", " << json_string(other) << ": {\"board\": " << json_string(listed[k].other_board)
                  << ", \"highest_index\": " << r.other_highest_index << ", \"hardest_count\": " << r.other_hardest_count
                  << ", \"histogram\": " << json_numbers(listed[k].other_histogram) << "}";
      std::cout << "}";
    }
    std::cout << "]}\n";
    return 0;
  }
  std::cout << (hardest ? "hardest: " : "") << "clusters"
            << (index >= 0 ? " of highest index " + std::to_string(index) : std::string()) << filter.describe() << sizes
            << ": " << matching << "\n";
  if (!listed.empty())
    std::cout << "index board size hardest winning cars trucks"
              << (other.empty() ? "" : " " + other + "-index " + other + "-board " + other + "-hardest (index, board, hardest: " +
                                           to_string(metric) + " metric)") << "\n";
  for (const ClusterEntry& e : listed) {
    std::cout << "  " << e.record.highest_index << " " << e.board << " " << e.record.size << " " << e.record.hardest_count
              << " " << e.record.winning << " " << e.record.cars << " " << e.record.trucks;
    if (!other.empty())
      std::cout << " " << e.record.other_highest_index << " " << e.other_board << " " << e.record.other_hardest_count;
    std::cout << "\n";
  }
  for (const std::string& note : notes) std::cout << "(" << note << ")\n";
  return 0;
}

// A partitioned run: the parts' counts summed, the first boards over every part.
int answer_index(SavedParts& run, int index, bool hardest, const po::variables_map& vm, bool json) {
  const int samples = vm["sample"].as<int>();
  if (samples < 0) throw InputError("--sample must be >= 0");
  const std::optional<int> asked =
      index_of_finished_run(run.complete(), "the partitioned run", run.highest_index(), index, hardest, json);
  if (!asked) return 0;
  index = *asked;
  const VehicleFilter filter = filter_of(vm);
  const SavedParts::VehicleFilter wanted = filter.active() ? SavedParts::VehicleFilter(filter) : nullptr;
  const Count count = run.count(index, wanted);
  std::vector<std::string> boards;
  for (const Board& board : run.first_boards(index, wanted, samples)) boards.push_back(to_board_string(run.rules(), board));
  print_index_answer(index, hardest, filter, count, boards, false, "", json);
  return 0;
}

}  // namespace

int run_query(const std::vector<std::string>& args) {
  po::options_description options("query options");
  options.add_options()
      ("run", po::value<std::string>(), "run directory written by classify --out")
      ("clusters", po::value<std::string>(),
       "instead of --run: a cluster database written by classify --clusters; --index I lists its "
       "clusters of highest index I")
      ("metric", po::value<std::string>(),
       "with --clusters: step or move, the metric clusters are listed and boards answered by (default: the "
       "database's; the other needs a database written with --clusters-metrics both)")
      ("min-size", po::value<std::int64_t>()->default_value(-1), "with --clusters: clusters of at least S configurations")
      ("max-size", po::value<std::int64_t>()->default_value(-1), "with --clusters: clusters of at most S configurations")
      ("board", po::value<std::string>(), "a board string: its index")
      ("solve", po::bool_switch(), "with --board: an optimal solution")
      ("index", po::value<int>(), "configurations of index I")
      ("count", po::bool_switch(),
       "with --index: the count (always printed); with --clusters alone: the clusters per highest index")
      ("sample", po::value<int>()->default_value(5), "with --index/--hardest: K sample boards")
      ("cars", po::value<int>()->default_value(-1), "filter: exactly C cars")
      ("trucks", po::value<int>()->default_value(-1), "filter: exactly T trucks")
      ("vehicles", po::value<int>()->default_value(-1), "filter: exactly V vehicles")
      ("hardest", po::bool_switch(), "the configurations of the highest index")
      ("minimal", po::bool_switch(),
       "with --clusters: only the clusters whose canonical hardest configuration (under --metric) is "
       "minimal, each tested as it is read (classify --minimal's test)")
      ("threads", po::value<int>()->default_value(0), "with --clusters --minimal: threads testing (0 = all cores)")
      ("domain", po::value<std::string>()->default_value("all"),
       "with --clusters: puzzle lists only the clusters of the puzzle domain (a database of all configurations "
       "holds them)")
      ("json", po::bool_switch(), "one JSON object on stdout");
  const auto vm = parse_options(kUsage, options, args);
  if (!vm) return 0;
  if (vm->count("run") + vm->count("clusters") != 1) throw InputError("query needs --run DIR or --clusters FILE.h5");
  if (!vm->count("clusters") && ((*vm)["min-size"].as<std::int64_t>() >= 0 || (*vm)["max-size"].as<std::int64_t>() >= 0))
    throw InputError("--min-size and --max-size go with --clusters");
  if (!vm->count("clusters") && vm->count("metric"))
    throw InputError("--metric goes with --clusters (a run answers under the metric it was classified by)");
  if (!vm->count("clusters") && ((*vm)["minimal"].as<bool>() || !(*vm)["threads"].defaulted() || !(*vm)["domain"].defaulted()))
    throw InputError("--minimal, --threads and --domain go with --clusters");
  if (vm->count("board") && !(*vm)["domain"].defaulted()) throw InputError("--domain goes with --index, --hardest or --count");
  if (vm->count("clusters") && !(*vm)["minimal"].as<bool>() && !(*vm)["threads"].defaulted())
    throw InputError("--threads goes with --minimal (the threads that test clusters)");
  // With --clusters, --count alone asks for the clusters per highest index.
  if ((*vm)["count"].as<bool>() && (vm->count("board") || (*vm)["hardest"].as<bool>()))
    throw InputError(vm->count("clusters") ? "--count goes with --index or alone" : "--count goes with --index");
  const bool per_index = vm->count("clusters") && (*vm)["count"].as<bool>() && !vm->count("index");
  const int questions = static_cast<int>(vm->count("board")) + static_cast<int>(vm->count("index")) +
                        ((*vm)["hardest"].as<bool>() ? 1 : 0) + (per_index ? 1 : 0);
  if (questions != 1)
    throw InputError(vm->count("clusters") ? "query needs exactly one of --board, --index, --hardest, --count"
                                           : "query needs exactly one of --board, --index, --hardest");
  if (vm->count("board") && (*vm)["minimal"].as<bool>()) throw InputError("--minimal goes with --index, --hardest or --count");
  if ((*vm)["solve"].as<bool>() && !vm->count("board")) throw InputError("--solve goes with --board");

  const bool json = (*vm)["json"].as<bool>();
  const int index = vm->count("index") ? (*vm)["index"].as<int>() : -1;
  if (vm->count("index") && index < 0) throw InputError("--index must be >= 0");
  if (vm->count("clusters")) {
    const std::string path = (*vm)["clusters"].as<std::string>();
    const ClusterDatabase database(path);
    const Metric metric = vm->count("metric") ? parse_metric((*vm)["metric"].as<std::string>()) : database.rules().metric();
    if (!database.holds(metric))
      throw InputError(path + " holds the " + to_string(database.rules().metric()) +
                       " metric only (written without --clusters-metrics both): no --metric " + to_string(metric));
    if (vm->count("board"))
      return answer_board(database, metric, (*vm)["board"].as<std::string>(), (*vm)["solve"].as<bool>(), json);
    return answer_clusters(database, metric, index, (*vm)["hardest"].as<bool>(), *vm, json);
  }
  const std::filesystem::path directory = (*vm)["run"].as<std::string>();
  if (run::RunDirectory(directory).has_part_figures_only())
    throw InputError(directory.string() + ": a partitioned run that keeps its parts' figures only (--part-files "
                     "figures), no layers to answer from; its figures are in classification.h5");
  if (const std::unique_ptr<SavedParts> parts = SavedParts::open(directory)) {
    if (vm->count("board")) return answer_board(*parts, (*vm)["board"].as<std::string>(), (*vm)["solve"].as<bool>(), json);
    return answer_index(*parts, index, (*vm)["hardest"].as<bool>(), *vm, json);
  }
  if (const std::optional<ClassCensus> census = open_class_run(directory)) {
    if (vm->count("board")) return answer_board(*census, (*vm)["board"].as<std::string>(), (*vm)["solve"].as<bool>(), json);
    return answer_index(*census, index, (*vm)["hardest"].as<bool>(), *vm, json);
  }
  BddSession session(0, BddSettings{});
  SavedRun run(session, directory);
  if (vm->count("board")) return answer_board(run, (*vm)["board"].as<std::string>(), (*vm)["solve"].as<bool>(), json);
  return answer_index(run, index, (*vm)["hardest"].as<bool>(), *vm, json);
}

}  // namespace rushhour::app
