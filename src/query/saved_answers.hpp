#pragma once
// One interface over every kind of saved run for `query --run DIR`: the layers of a bdd run
// (saved_run.hpp), the parts of a partitioned run (saved_parts.hpp), the census of a class
// sweep (class_run.hpp) or the result file of an explicit run. Each answers a board (its index, an optimal solution, its cluster)
// and an index (its count under a vehicle filter, sample boards) as data; app/ prints them.
// A cluster database answers boards too (board_of_database) and lists its clusters
// (cluster_listing.hpp).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "board/board.hpp"
#include "board/count.hpp"
#include "board/rules.hpp"
#include "query/board_cluster.hpp"
#include "storage/cluster_database.hpp"

namespace rushhour {

// Configurations with exactly these numbers of vehicles (-1: any).
struct PieceFilter {
  int cars = -1, trucks = -1, vehicles = -1, walls = -1;
  bool active() const { return cars >= 0 || trucks >= 0 || vehicles >= 0 || walls >= 0; }
  // A run without walls asks with w = 0.
  bool operator()(int c, int t, int w = 0) const {
    return (cars < 0 || c == cars) && (trucks < 0 || t == trucks) && (vehicles < 0 || c + t == vehicles) &&
           (walls < 0 || w == walls);
  }
  std::string describe() const;  // ", 3 cars, 1 trucks, 1 walls" (empty: no filter)
  // Throws InputError if `walls` is outside the rules' wall range.
  void check_walls(const Rules& rules) const;
};

// What a saved run knows of a board: its index, or nullopt when it lies in no finished layer
// (unsolvable if `complete`, else unknown above `finished_layers` - 1), and with `solve` an
// optimal solution.
struct BoardAnswer {
  BoardAnswer(Rules rules_in, Board board_in) : rules(std::move(rules_in)), board(std::move(board_in)) {}
  Rules rules;  // under which the index and the solution hold (a database: the metric asked)
  Board board;
  std::optional<int> index;
  bool complete = true;
  int finished_layers = 0;
  std::vector<Board> path;  // with `solve`: the boards from `board` to a winning one
  std::optional<BoardCluster> cluster;  // nullopt: unsolvable
  // A database with both metrics: the cluster under the other metric too.
  std::optional<BoardCluster> other_cluster;
  std::string unknown_part;  // a partitioned run: the board's part, when it is not finished
};

// What a saved run knows of an index.
struct IndexAnswer {
  enum class Status { Ok, Empty, Unknown };  // counted; beyond the highest; beyond what is known
  Status status = Status::Ok;
  int index = 0;
  bool hardest = false;  // asked as the highest index
  Count count = 0;
  std::vector<std::string> boards;  // sample boards
  bool incomplete = false;  // the highest of an unfinished run: its highest finished layer
  std::string note;         // said below the samples (why there are none)
  std::string why;          // Empty, Unknown: the reason
};

class SavedAnswers {
 public:
  virtual ~SavedAnswers() = default;
  virtual const Rules& rules() const = 0;
  // Throws InputError if the board is not in the run's domain.
  virtual BoardAnswer board(const std::string& text, bool solve) = 0;
  // `index` nullopt: the highest. Throws InputError for a negative index or samples, or a
  // run whose counts exist only once it is finished (a class sweep, a partitioned run).
  virtual IndexAnswer index(std::optional<int> index, const PieceFilter& filter, int samples) = 0;
};

// The saved run in DIR. Throws InputError if it holds none, damaged or foreign files, or a
// partitioned run that keeps its parts' figures only (no layers to answer from).
std::unique_ptr<SavedAnswers> open_saved_answers(const std::filesystem::path& run_directory);

// A board asked of a cluster database: its cluster searched (no run needed) under `metric`,
// with both metrics in the database under the other metric too.
BoardAnswer board_of_database(const ClusterDatabase& database, Metric metric, const std::string& text, bool solve);

}  // namespace rushhour
