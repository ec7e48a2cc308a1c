#pragma once
// A finished or partial run directory opened for queries (SPEC §1.3): the layer files are
// self-describing (their header holds the run's parameter text, from which the rules and the
// encoding are rebuilt and then checked to give the very same layout), layers are loaded on
// first use, and DIR/classification.h5, when present, says whether the run is complete.
#include <bdd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "bdd/session.hpp"
#include "board/board.hpp"
#include "board/rules.hpp"
#include "encoding/state_encoding.hpp"
#include "storage/bdd_file.hpp"
#include "storage/layer_store.hpp"

namespace rushhour {

class SavedRun {
 public:
  // Throws InputError if DIR holds no layers, or damaged, foreign or mixed files.
  SavedRun(BddSession& session, const std::filesystem::path& run_directory);

  const Rules& rules() const { return *rules_; }
  const StateEncoding& encoding() const { return *encoding_; }
  int finished_layers() const { return finished_; }
  // True when classification.h5 records a complete run ending at the last finished layer:
  // only then is a board found in no layer unsolvable rather than unknown.
  bool complete() const { return complete_; }

  const bdd& layer(int index);  // 0 <= index < finished_layers(); loaded on first use
  // Whether `board` lies in layer `index`, read from the layer file without rebuilding the
  // layer (storage/bdd_file.hpp BddFileProbe): board lookups stay fast on large runs.
  bool layer_contains(int index, const Board& board);
  // The board's index, or nullopt if it lies in no finished layer.
  std::optional<int> index_of(const Board& board);
  // An optimal solution: the boards from `board` (of index `index`) to a winning one, each
  // one step or move (the run's metric) from the previous.
  std::vector<Board> solution(const Board& board, int index);

 private:
  BddSession& session_;
  std::unique_ptr<Rules> rules_;
  std::unique_ptr<StateEncoding> encoding_;
  std::unique_ptr<LayerStore> store_;
  int finished_ = 0;
  bool complete_ = false;
  std::map<int, bdd> loaded_;
  std::map<int, BddFileProbe> probes_;

  // Whether the configuration with these variable values (cube_values of its minterm) lies
  // in layer `index`.
  bool layer_contains(int index, std::span<const signed char> values);
};

}  // namespace rushhour
