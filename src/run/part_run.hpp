#pragma once
// One part of the domain (encoding/line_partition.hpp) classified on its own BuDDy session:
// the slot encoding restricted to the part, the retrograde driver, and the samples as least
// explicit-engine keys. What a partitioned run (run/partitioned_run.hpp) does per part and
// what the class engine's symbolic path (run/symbolic_class.hpp) does per class.
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "bdd/session.hpp"
#include "board/board.hpp"
#include "board/classification.hpp"
#include "encoding/line_diagram.hpp"
#include "encoding/line_partition.hpp"
#include "encoding/slot_encoding.hpp"
#include "retrograde/retrograde.hpp"

namespace rushhour::run {

// BuDDy's node table at the start of a part (it doubles as the part needs): a few parts of
// 6x6 need millions of nodes, most far fewer, and a small table stays in the cache.
inline constexpr int kPartInitialNodes = 1 << 14;

// The operation caches of a partitioned run's parts (--bdd-cache-ratio, unless given): a
// cache entry per 8 nodes rather than 4 took 28-31 % off the peak RSS of two 6x6 rows
// samples, with no CPU change beyond the noise; 2 and 1 cost more CPU, and a fixed small
// cache much more (results/partition-study.md).
inline constexpr int kPartCacheRatio = 8;

struct PartRun;

struct PartRunOptions {
  SlotEncodingOptions slot{};
  BddSettings bdd{};  // its node table and cache start at most kPartInitialNodes (a quarter)
  RetrogradeOptions retrograde{};  // its own samples are not taken (see below)
  int samples_per_index = 5;
  int sample_indices = 10;
  bool mirror_samples = false;  // also PartRun::least_by_mirror
  // The first layers of the whole domain (roots C_0, C_1, ...): the part starts from their
  // restriction to it rather than computing them (run/partitioned_run.hpp, --whole-layers).
  std::shared_ptr<const LineDiagram> whole_layers{};
  // Called with the part's session, encoding, layers C_0.. and finished result while the
  // session still runs (e.g. to save the layers), unless the part was interrupted.
  std::function<void(BddSession&, const SlotEncoding&, const std::vector<::bdd>& layers, const PartRun&)>
      on_finished{};
};

// A sample: the explicit engine's key of a board (class_engine.hpp, SampleKey) and the board.
using KeyedBoard = std::pair<Count, Board>;

struct PartRun {
  explicit PartRun(const Rules& rules) : figures(rules) {}
  Classification figures;  // the part's, without samples
  bool interrupted = false;
  // Per index, for the part's sample_indices highest indices (empty below): the
  // samples_per_index boards of the least keys, ascending by key.
  std::vector<std::vector<KeyedBoard>> least;
  // With mirror_samples, the same shape: the boards whose mirror images (top to bottom) have
  // the least keys, ascending by their images' keys; each with its own key.
  std::vector<std::vector<KeyedBoard>> least_by_mirror;
  std::int64_t table_nodes = 0;  // BuDDy's node table at the end
};

// Throws BddFailure if the part does not fit options.bdd's ceilings.
PartRun classify_part(const Rules& rules, const DomainPart& part, const PartRunOptions& options);

// The explicit engine's key of a board: each line's arrangement index, rows then columns,
// the first row most significant.
Count sample_key(const LineTable& table, const Board& board);

}  // namespace rushhour::run
