#pragma once
// The explicit-state engine: enumerates the whole domain of a Rules value (n <= 6) and
// classifies every configuration by breadth-first search from the winning set. It depends
// on board/ only, so that it stays an independent check of the symbolic engine.
//
// State space. A configuration is one arrangement per line (LineTable): rows 0..n-1 (their
// horizontal vehicles), then columns 0..n-1 (their vertical ones). Its key packs these 2n
// arrangement indices into fixed-width bit fields, row 0 most significant (b bits per line,
// 2^b >= LineTable(n).size(): 3, 4, 5 bits for n = 4, 5, 6, so 2nb <= 60). Key order is the
// lexicographic order of the arrangement indices. With walls (n <= 5), the position of the
// board's wall mask in the ascending list of the rules' wall placements sits above these
// fields: walls never move, so a step changes the line fields only, and each wall is a cell
// that the crossing lines' vehicles may neither cover nor sweep. The domain is kept as the sorted array of
// its keys, so a state is its position in that array and the array is a perfect index; each
// state owns one more byte, its index. There is no node per state. A table over the leading
// key bits narrows each lookup to a few keys.
//
// Layers. index(s) = 0 for winning s; index(s) = k + 1 for s not yet classified with a
// neighbour of index k. Steps and moves are reversible, so neighbours are predecessors and
// C_{k+1} = Pre(C_k) \ (C_0 ∪ … ∪ C_k) as in SPEC §4. States never reached are unsolvable.
//
// Dominance (SPEC §2). A state of index i is non-dominated when no state of its connected
// component (under all steps, also through winning states; moves connect the same
// components) has a higher index. For every index i the summary reports the non-dominated
// states of index i and the components whose highest index is i; unsolvable components are
// not counted.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "board/board.hpp"
#include "board/classification.hpp"
#include "board/lines.hpp"
#include "board/rules.hpp"

namespace rushhour {

inline constexpr int kMaxExplicitSize = 6;
// With walls the key needs bits for the wall placement: 2nb + placement bits <= 64 up to 5x5.
inline constexpr int kMaxExplicitWallSize = 5;
// Throws InputError if the rules have walls on a board above kMaxExplicitWallSize.
void check_explicit_walls(const Rules& rules);
// States are numbered with 32 bits (component labelling); at 9 bytes per state that is
// also about the most a large workstation holds.
inline constexpr std::uint64_t kMaxExplicitStates = 0xFFFF'FFFF;

struct ExplicitOptions {
  int samples_per_index = 5;  // K: boards reported per sampled index
  int sample_indices = 10;    // T: the T highest indices are sampled
};

// Called once per finished layer (index 0 = the winning set), e.g. for progress lines.
using LayerCallback = std::function<void(int index, const LayerFigures&)>;

class ExplicitSolution {
 public:
  // Enumerates and classifies the domain under the rules' metric. Throws InputError for
  // sizes above kMaxExplicitSize or domains above kMaxExplicitStates, std::runtime_error if
  // an index would exceed 254.
  static ExplicitSolution solve(const Rules& rules, const LayerCallback& on_layer = {});

  const Rules& rules() const { return rules_; }
  std::size_t domain_size() const { return keys_.size(); }
  Board board(std::size_t state) const;
  // The state of `board`, or nullopt if the board is not in the domain of the rules.
  std::optional<std::size_t> find(const Board& board) const;
  // The least number of steps/moves (rules' metric) to a winning state; nullopt = unsolvable.
  std::optional<int> index(std::size_t state) const;
  // States one step or move away, in the order the engine generates them.
  std::vector<std::size_t> neighbours(std::size_t state, Metric metric) const;
  // Per-index counts, index 0 .. max index (count and seconds; bdd_nodes = 0).
  const std::vector<LayerFigures>& layers() const { return layers_; }
  std::uint64_t unsolvable_count() const { return unsolvable_; }

  // The classification: counts, dominance figures (one extra pass over the components) and
  // samples, i.e. the first `samples_per_index` states in key order of each of the
  // `sample_indices` highest indices, highest index first.
  Classification summarize(const ExplicitOptions& options) const;

 private:
  explicit ExplicitSolution(const Rules& rules);

  struct Lines;  // a decoded key: arrangement and crossing occupancy per line
  int shift(int line) const { return (2 * n_ - 1 - line) * bits_; }
  int line_bits() const { return 2 * n_ * bits_; }
  int key_bits() const { return line_bits() + placement_bits_; }
  std::uint64_t walls_of(std::uint64_t key) const { return placements_[key >> line_bits()]; }
  Lines decode(std::uint64_t key) const;
  std::uint64_t key_of(const Board& board) const;
  std::optional<std::size_t> locate(std::uint64_t key) const;
  template <class Visit>
  void for_each_neighbour(std::uint64_t key, Metric metric, Visit&& visit) const;
  void enumerate_domain();
  void build_buckets();
  void classify(const LayerCallback& on_layer);
  // Per state, the least state of its component under steps.
  std::vector<std::uint32_t> component_roots() const;

  Rules rules_;
  LineTable lines_;
  int n_;
  int bits_;                                 // bits per line in a key
  std::vector<std::uint64_t> placements_;    // the wall masks of the rules, ascending
  int placement_bits_ = 0;                   // bits of the placement field above the lines
  std::vector<std::uint64_t> keys_;          // the domain, ascending
  std::vector<std::uint8_t> index_;          // per state; kUnreached = unsolvable
  int bucket_shift_ = 0;                     // key >> shift = bucket (the leading key bits)
  std::vector<std::uint32_t> bucket_start_;  // first state of each bucket, plus the end
  std::vector<LayerFigures> layers_;
  std::uint64_t unsolvable_ = 0;
  double seconds_ = 0;  // enumeration and layers
};

// solve() then summarize(): the complete result of engine "explicit".
Classification classify_explicit(const Rules& rules, const ExplicitOptions& options = {},
                                 const LayerCallback& on_layer = {});

}  // namespace rushhour
