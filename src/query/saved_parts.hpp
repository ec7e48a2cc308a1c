#pragma once
// A partitioned run directory (DIR/parts, run/partitioned_run.hpp) opened for queries. A
// board's part follows from its kind sequences (part_of), so a board query opens that part's
// file alone: its encoding rebuilt on a BuDDy session of its own, checked against the file's
// layout, and all its layers loaded at once (a part is small). Counts per index come from the
// part files' headers; with a vehicle filter from the run's vehicle totals (one file, written
// when the run completed), else from every part holding the index, opened in turn. Sample
// boards open every part holding the index (with a filter: holding boards it accepts, by the
// vehicle counts in the parts' headers). The sample boards are the first in the whole-domain encoding's order
// (EnumerationOrder), as an unpartitioned run's are.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "board/board.hpp"
#include "board/classification.hpp"
#include "board/rules.hpp"
#include "encoding/line_partition.hpp"
#include "encoding/slot_encoding.hpp"
#include "storage/part_store.hpp"

namespace rushhour {

class SavedParts {
 public:
  // nullptr if DIR holds no part files. Throws InputError if they are damaged or foreign.
  static std::unique_ptr<SavedParts> open(const std::filesystem::path& run_directory);
  ~SavedParts();

  const Rules& rules() const { return rules_; }
  // True when classification.h5 records a complete run: every part is finished.
  bool complete() const { return complete_; }
  // The run's highest index (classification.h5); -1 if it has none.
  int highest_index() const { return highest_; }

  // What the board's part knows of it.
  struct BoardIndex {
    std::string part;  // its name, e.g. "R0=ct,R1=-,..."
    bool part_finished = false;  // the part's file exists
    std::optional<int> index;  // nullopt: in no layer of its part
    bool part_complete = false;  // every layer of the part is known (else: its part is not
                                 // finished, or stopped by --max-layers)
    int part_layers = 0;
  };
  BoardIndex index_of(const Board& board);
  // An optimal solution from `board` of index `index`, as SavedRun::solution.
  std::vector<Board> solution(const Board& board, int index);

  using VehicleFilter = std::function<bool(int cars, int trucks)>;
  // The configurations of index `index` (with the vehicle totals `filter` accepts, if
  // given), summed over the parts.
  Count count(int index, const VehicleFilter& filter);
  // The first `limit` of them in the whole-domain encoding's order.
  std::vector<Board> first_boards(int index, const VehicleFilter& filter, int limit);

  // The finished parts' figures added up: how many parts, their domain, winning, solvable
  // and unsolvable counts, and their configurations per index.
  struct PartSums {
    std::uint64_t parts = 0, finished = 0;
    Count domain = 0, winning = 0, solvable = 0, unsolvable = 0;
    std::vector<Count> per_index;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> digests;  // per finished part: number, part_digest
  };
  PartSums sums() const;

 private:
  struct OpenPart;
  SavedParts(const std::filesystem::path& run_directory, const std::string& identity);
  // The part of `number` (opened, replacing the one open before), nullptr if it has no file.
  OpenPart* open_part(std::uint64_t number);
  bdd layer(OpenPart& part, int index);
  // Calls visit on every part file's figures, in part number order.
  void for_each_finished_part(const std::function<void(const PartFigures&)>& visit) const;

  Rules rules_;
  SlotEncodingOptions slot_;
  Partition partition_;
  std::unique_ptr<PartNumbering> numbering_;
  std::unique_ptr<PartStore> store_;
  bool complete_ = false;
  int highest_ = -1;
  std::unique_ptr<OpenPart> open_;
};

}  // namespace rushhour
