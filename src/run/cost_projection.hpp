#pragma once
// What a class sweep would cost, projected from a sample of its work items (--estimate).
//
// The items of a job differ in size by orders of magnitude (on 7x7 the average item of a
// uniform sample holds 17 times fewer configurations than the average configuration's item),
// and an item's cost follows its size. So the sample is taken in two phases, as survey
// sampling's double sampling for stratification (Cochran, Sampling Techniques, §12.2):
//   1. the size x_i of m items (every k-th of the job's N items, k prime, or all of them) is
//      found without solving them (ClassItems::item_sizes); the items of size 0 form one
//      stratum, the others are cut, by ascending size, into strata of equal total size;
//   2. a few items of each stratum, drawn at random, are solved and timed (t_i): in all about
//      `draws` items, allocated as Neyman's rule does when an item's cost and its cost's
//      spread both follow its size, n_h ∝ √(X_h m_h) (at least 2 in each stratum).
// The projection, with E = N / m, X_h the sizes' sum of stratum h's m_h items, and in each
// stratum the ratio R_h = Σt / Σx of its n_h solved items (the mean of t for sizes 0):
//   T = E Σ_h X_h R_h
//   V = E² Σ_h m_h² (1 − n_h/m_h) s²(d)_h / n_h        d_i = t_i − R_h x_i, within the strata
//     + E² Σ_h (X_h / Σ_{drawn} x)² Σ_{drawn} v_i       items estimated from drawn classes
//     + N² (1 − m/N) S² / m                             the first phase's draw of items,
// S² being the first phase's variance of item costs (the predictions R_h x_i spread about
// their mean, plus each stratum's residual s²(d)_h). The interval is T ± 1.96 √V.
#include <array>
#include <cstdint>
#include <vector>

#include "explicit/class_engine.hpp"

namespace rushhour::run {

// What an item's CPU is spent on: a whole item; an item solved by drawn classes, its own work
// (the column search) and its classes by path (ClassPath's order).
enum class CostPart : std::uint8_t { WholeItems, ItemSearch, ExplicitClasses, PartsClasses, BitsClasses, SymbolicClasses };
constexpr int kCostParts = 2 + kClassPaths;
using CostParts = std::array<double, kCostParts>;

// One solved item of the sample: its number, its configurations and the CPU of solving it;
// or, for an item of which only some classes were drawn and solved, that CPU estimated from
// them, with the variance of that estimate. `parts` splits cpu_seconds (they add up to it).
struct ItemCost {
  std::uint64_t item = 0;
  std::uint64_t configurations = 0;
  double cpu_seconds = 0;
  double within_variance = 0;
  std::uint64_t classes_drawn = 0;  // 0: the whole item solved
  CostParts parts{};
};

// The cost of an item solved whole.
ItemCost cost_of_whole_item(std::uint64_t item, double cpu_seconds, std::uint64_t configurations);

// The cost of an item of which only some classes were drawn and solved (Hansen-Hurwitz: k
// draws with replacement, class c drawn with probability x_c / x, x the item's
// configurations): the item's own CPU apart from its drawn classes (item_cpu less theirs),
// plus x times the mean of t_c / x_c over the draws, with that term's variance x² s²/k.
ItemCost cost_of_drawn_classes(std::uint64_t item, double item_cpu, std::uint64_t configurations,
                               const std::vector<ClassDraw>& draws);

struct Stratum {
  std::uint64_t items = 0;  // m_h: the first phase's items in it
  double size_sum = 0;      // X_h
  double size_squares = 0;  // Σ x_i² over them
  std::vector<std::uint64_t> drawn;  // the items solved, ascending
  std::vector<std::uint64_t> drawn_sizes;
};

struct StratifiedSample {
  std::uint64_t population = 0;  // N
  std::uint64_t measured = 0;    // m
  std::vector<Stratum> strata;   // strata[0]: the items of size 0 (perhaps none)
  // The items to solve, ascending.
  std::vector<std::uint64_t> drawn() const;
};

// The strata of the first phase's items (with their sizes) and each one's draw: `strata`
// strata of sizes above 0 (fewer where fewer items) and the items of size 0, about `draws`
// items drawn in all, by a generator seeded with `seed`.
StratifiedSample stratify(const std::vector<std::uint64_t>& items, const std::vector<std::uint64_t>& sizes,
                          std::uint64_t population, int strata, int draws, std::uint64_t seed);

// Where a projection's spread comes from: its variance's three parts (seconds²).
struct CpuVariance {
  double items = 0;        // the draws of items within the strata
  double classes = 0;      // the draws of classes within the items estimated from them
  double first_phase = 0;  // the items sized
  double total() const { return items + classes + first_phase; }
};

// One stratum's share of a projection.
struct StratumProjection {
  std::uint64_t items = 0;  // the first phase's
  double configurations = 0;
  std::uint64_t drawn = 0;
  double cpu = 0;              // seconds
  CpuVariance variance;        // its items' and classes' parts
  CostParts parts{};           // cpu split as the items' costs are (seconds)
};

struct CpuProjection {
  double cpu = 0;       // seconds
  double interval = 0;  // the 95 % interval's half-width, seconds
  CpuVariance variance;
  CostParts parts{};    // cpu split as the items' costs are (seconds)
  std::vector<StratumProjection> strata;  // each one's share, scaled to the job
  double low() const { return cpu > interval ? cpu - interval : 0; }
  double high() const { return cpu + interval; }
};

// T and its interval from the solved items' costs (every drawn item's; throws
// std::logic_error for a drawn item without its cost).
CpuProjection project_cpu(const StratifiedSample& sample, const std::vector<ItemCost>& costs);

// The least prime >= k (k >= 2): a stride that lines up with no digit of the items' numbering.
std::uint64_t prime_at_least(std::uint64_t k);

}  // namespace rushhour::run
