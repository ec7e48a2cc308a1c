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
#include "query/cluster_listing.hpp"
#include "query/saved_answers.hpp"
#include "run/environment.hpp"
#include "storage/cluster_database.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kQueryUsage =
    "usage: rushhour query --run DIR (--board B [--solve] | --index I [--count] [--sample K]\n"
    "                      [--cars C] [--trucks T] [--vehicles V] [--walls W] | --hardest [--sample K]) [--json]\n"
    "       rushhour query --clusters FILE.h5 [--metric step|move] (--board B [--solve] | (--index I |\n"
    "                      --hardest | --count) [--cars C] [--trucks T] [--vehicles V] [--walls W] [--min-size S]\n"
    "                      [--max-size S] [--domain puzzle] [--minimal [--minimal-rule R] [--threads N]]\n"
    "                      [--sample K]) [--json]\n"
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

void print_board_answer(const BoardAnswer& answer, bool solve, bool json) {
  const Rules& rules = answer.rules;
  const std::string line = to_board_string(rules, answer.board);
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
    return;
  }
  std::cout << "board " << line << "\n" << to_grid(rules, answer.board);
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
}

// The answer to --index I / --hardest, printed the same for every kind of run. Counts are
// printed with every digit, in JSON too (a JSON number beyond 2^53 stays exact in the text;
// docs/file-formats-counts.md).
void print_index_answer(const IndexAnswer& a, const PieceFilter& filter, bool json) {
  if (a.status != IndexAnswer::Status::Ok) {
    const bool empty = a.status == IndexAnswer::Status::Empty;
    if (json)
      std::cout << "{\"index\": " << a.index << ", \"count\": " << (empty ? "0" : "null")
                << ", \"status\": " << json_string(empty ? "empty" : "unknown") << "}\n";
    else
      std::cout << "index " << a.index << ": " << a.why << "\n";
    return;
  }
  const bool incomplete = a.hardest && a.incomplete;
  if (json) {
    std::cout << "{\"index\": " << a.index << ", \"count\": " << to_string(a.count) << ", \"samples\": "
              << json_list(a.boards) << ", \"status\": " << json_string(incomplete ? "incomplete" : "ok") << "}\n";
    return;
  }
  std::cout << (a.hardest ? "hardest: " : "") << "index " << a.index << filter.describe() << ": " << to_string(a.count)
            << " configurations";
  if (incomplete) std::cout << " (the run is not complete: this is its highest finished layer)";
  std::cout << "\n";
  for (const std::string& b : a.boards) std::cout << "  " << b << "\n";
  if (!a.note.empty()) std::cout << a.note << "\n";
}

void print_clusters(const ClusterDatabase& database, const ClusterQuestion& q, const ClusterListing& l, bool json) {
  const std::string& other = l.other_metric;
  if (l.per_index) {
    if (json) {
      std::cout << "{\"clusters\": " << l.matching << ", \"complete\": " << (database.complete() ? "true" : "false")
                << ", \"metric\": " << json_string(to_string(q.metric)) << ", \"minimal\": " << (q.minimal ? "true" : "false")
                << ", \"per_index\": " << json_numbers(l.per_index_counts) << "}\n";
      return;
    }
    std::cout << "clusters" << q.filter.describe() << l.selection << " (" << to_string(q.metric) << " metric): " << l.matching
              << "\n";
    if (l.matching > 0) std::cout << "highest-index clusters\n";
    for (std::size_t k = 0; k < l.per_index_counts.size(); ++k)
      if (l.per_index_counts[k] > 0) std::cout << "  " << k << " " << l.per_index_counts[k] << "\n";
    for (const std::string& note : l.notes) std::cout << "(" << note << ")\n";
    return;
  }
  if (json) {
    std::cout << "{\"clusters\": " << l.matching << ", \"highest_index\": " << (l.index >= 0 ? std::to_string(l.index) : "null")
              << ", \"complete\": " << (database.complete() ? "true" : "false") << ", \"metric\": "
              << json_string(to_string(q.metric)) << ", \"list\": [";
    for (std::size_t k = 0; k < l.listed.size(); ++k) {
      const ClusterRecord& r = l.listed[k].record;
      std::cout << (k ? ", " : "") << "{\"board\": " << json_string(l.listed[k].board) << ", \"highest_index\": "
                << r.highest_index << ", \"size\": " << r.size << ", \"hardest_count\": " << r.hardest_count
                << ", \"winning_count\": " << r.winning << ", \"cars\": " << r.cars << ", \"trucks\": " << r.trucks
                << ", \"histogram\": " << json_numbers(l.listed[k].histogram);
      if (!other.empty())
        std::cout << ", " << json_string(other) << ": {\"board\": " << json_string(l.listed[k].other_board)
                  << ", \"highest_index\": " << r.other_highest_index << ", \"hardest_count\": " << r.other_hardest_count
                  << ", \"histogram\": " << json_numbers(l.listed[k].other_histogram) << "}";
      std::cout << "}";
    }
    std::cout << "]}\n";
    return;
  }
  std::cout << (q.hardest ? "hardest: " : "") << "clusters"
            << (l.index >= 0 ? " of highest index " + std::to_string(l.index) : std::string()) << q.filter.describe()
            << l.selection << ": " << l.matching << "\n";
  if (!l.listed.empty())
    std::cout << "index board size hardest winning cars trucks"
              << (other.empty() ? "" : " " + other + "-index " + other + "-board " + other + "-hardest (index, board, hardest: " +
                                           to_string(q.metric) + " metric)") << "\n";
  for (const ClusterEntry& e : l.listed) {
    std::cout << "  " << e.record.highest_index << " " << e.board << " " << e.record.size << " " << e.record.hardest_count
              << " " << e.record.winning << " " << e.record.cars << " " << e.record.trucks;
    if (!other.empty())
      std::cout << " " << e.record.other_highest_index << " " << e.other_board << " " << e.record.other_hardest_count;
    std::cout << "\n";
  }
  for (const std::string& note : l.notes) std::cout << "(" << note << ")\n";
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
      ("walls", po::value<int>()->default_value(-1), "filter: exactly W walls (a run or database with walls)")
      ("hardest", po::bool_switch(), "the configurations of the highest index")
      ("minimal", po::bool_switch(),
       "with --clusters: only the minimal clusters (under --metric), each tested as it is read "
       "(classify --minimal's test); a database written with --minimal holds them already")
      ("minimal-rule", po::value<std::string>(),
       "with --minimal: any, canonical or public (classify --minimal-rule; default: the database's "
       "own if it was written with --minimal, else any)")
      ("threads", po::value<int>()->default_value(0), "with --clusters --minimal: threads testing (0 = all cores)")
      ("domain", po::value<std::string>()->default_value("all"),
       "with --clusters: puzzle lists only the clusters of the puzzle domain (a database of all configurations "
       "holds them)")
      ("json", po::bool_switch(), "one JSON object on stdout");
  const auto vm = parse_options(kQueryUsage, options, args);
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
  if (vm->count("minimal-rule") && !(*vm)["minimal"].as<bool>()) throw InputError("--minimal-rule goes with --minimal");
  if ((*vm)["solve"].as<bool>() && !vm->count("board")) throw InputError("--solve goes with --board");

  const bool json = (*vm)["json"].as<bool>();
  const bool solve = (*vm)["solve"].as<bool>();
  const bool hardest = (*vm)["hardest"].as<bool>();
  const std::optional<int> index = vm->count("index") ? std::optional<int>((*vm)["index"].as<int>()) : std::nullopt;
  if (index && *index < 0) throw InputError("--index must be >= 0");
  const PieceFilter filter{(*vm)["cars"].as<int>(), (*vm)["trucks"].as<int>(), (*vm)["vehicles"].as<int>(),
                           (*vm)["walls"].as<int>()};
  const int samples = (*vm)["sample"].as<int>();
  if (vm->count("clusters")) {
    const std::string path = (*vm)["clusters"].as<std::string>();
    const ClusterDatabase database(path);
    filter.check_walls(database.rules());
    const Metric metric = vm->count("metric") ? parse_metric((*vm)["metric"].as<std::string>()) : database.rules().metric();
    if (!database.holds(metric))
      throw InputError(path + " holds the " + to_string(database.rules().metric()) +
                       " metric only (written without --clusters-metrics both): no --metric " + to_string(metric));
    if (vm->count("board")) {
      print_board_answer(board_of_database(database, metric, (*vm)["board"].as<std::string>(), solve), solve, json);
      return 0;
    }
    const int threads = (*vm)["threads"].as<int>();
    if (threads < 0 || threads > 256) throw InputError("--threads must be 0 (all) to 256");
    const ClusterQuestion question{
        .metric = metric,
        .index = index,
        .hardest = hardest,
        .filter = filter,
        .min_size = (*vm)["min-size"].as<std::int64_t>(),
        .max_size = (*vm)["max-size"].as<std::int64_t>(),
        .domain = (*vm)["domain"].defaulted() ? std::nullopt
                                              : std::optional<Domain>(parse_domain((*vm)["domain"].as<std::string>())),
        .minimal = (*vm)["minimal"].as<bool>(),
        .minimal_rule = vm->count("minimal-rule")
                            ? std::optional<MinimalRule>(parse_minimal_rule((*vm)["minimal-rule"].as<std::string>()))
                            : std::nullopt,
        .threads = run::Environment::of_this_process().threads_for(threads),
        .samples = samples,
        .progress = [](const std::string& line) { std::cerr << line << std::endl; }};
    print_clusters(database, question, list_clusters(database, question), json);
    return 0;
  }
  const std::unique_ptr<SavedAnswers> run = open_saved_answers((*vm)["run"].as<std::string>());
  filter.check_walls(run->rules());
  if (vm->count("board")) print_board_answer(run->board((*vm)["board"].as<std::string>(), solve), solve, json);
  else print_index_answer(run->index(hardest ? std::nullopt : index, filter, samples), filter, json);
  return 0;
}

}  // namespace rushhour::app
