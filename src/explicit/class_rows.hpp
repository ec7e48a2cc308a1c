#pragma once
// The rows of one class-engine work item: its wall placement, each row's kind sequence, the
// arrangements the walls (and the puzzle domain's row rule) admit in each row, and the row
// combinations they make, each with the rows its horizontal vehicles and walls cover in every
// column. The column search starts from these; the class solver's numbering is built on them.
// Internal to src/explicit/class_*.cpp.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_lines.hpp"

namespace rushhour::class_engine {

// One row combination of a work item: an arrangement per row.
struct Combo {
  std::array<std::uint8_t, kMaxN> row{};
  std::array<std::uint8_t, kMaxN> column_mask{};  // per column: rows covered by horizontals and walls
  std::uint32_t id = 0;                            // mixed radix over the rows' group positions
  bool winning = false;                            // the target car covers the exit
};

class ItemRows {
 public:
  // `fixed_group`: per line, the only group it may hold, or -1 (fixed_groups).
  ItemRows(const LineTables& t, const Rules& rules, bool mirror, const std::array<int, 2 * kMaxN>& fixed_group)
      : t_(t), rules_(rules), mirror_(mirror), fixed_group_(fixed_group) {}

  // Takes work item `item`: a wall placement (item / row_items) and the rows' kind sequences,
  // the base-`groups` digits of the rest, row 0 most significant. Returns its number of row
  // combinations, or nullopt if it holds no class to solve here: outside the domain or the
  // fixed lines, no admitted arrangement in a row, solved as its mirror item's image, or
  // beyond the vehicle limits.
  std::optional<std::uint64_t> take(std::uint64_t item);

  // Lists the taken item's `combos` row combinations (combos(), by id; the admitted ones in
  // admitted()) and returns the states of all its classes, vehicle limits or not.
  std::uint64_t build_combos(std::uint64_t combos);

  // The states of the taken item's classes, vehicle limits or not, without listing its row
  // combinations: Σ over the admitted ones of Π over the columns of the arrangements free there.
  std::uint64_t states_without_listing() const;

  int group(int row) const { return row_group_[static_cast<std::size_t>(row)]; }
  int wall_count() const { return wall_count_; }
  SampleKey placement_key() const { return placement_key_; }  // the placement's field of a key
  std::uint32_t walls_of_row(int row) const { return row_walls_[static_cast<std::size_t>(row)]; }  // its walls' columns
  std::uint32_t stride(int row) const { return row_stride_[static_cast<std::size_t>(row)]; }       // in a combination's id
  int cars() const { return row_cars_; }
  int trucks() const { return row_trucks_; }
  // The item is its own mirror (or the mirror is not used): it pairs its classes up inside.
  bool own_mirror() const { return own_mirror_; }
  const std::vector<int>& active_rows() const { return active_rows_; }  // the rows holding vehicles
  const std::vector<Combo>& combos() const { return combos_; }
  // Gives the combinations' memory back (after a heavy item).
  void release() { std::vector<Combo>().swap(combos_); }
  const std::vector<std::uint32_t>& admitted() const { return admitted_; }  // ascending

 private:
  // row_admitted_[i]: the positions in row i's group of the arrangements the walls admit (not
  // on a wall; in the puzzle domain, the row's rule with its walls). False if a row admits none.
  bool admit_rows();

  // Σ over the row combinations of rows i.. of Π_j free_arrangements[column j's mask].
  std::uint64_t states_below(const std::array<std::vector<std::uint64_t>, kMaxN>& covers, int i,
                             std::uint64_t cover) const;

  const LineTables& t_;
  const Rules& rules_;
  const bool mirror_;
  const std::array<int, 2 * kMaxN> fixed_group_;

  std::uint64_t walls_ = 0;  // the item's wall mask
  int wall_count_ = 0;
  SampleKey placement_key_ = 0;
  std::array<std::uint32_t, kMaxN> row_walls_{};
  std::array<std::uint32_t, kMaxN> row_admitted_{};
  std::array<std::uint32_t, kMaxN> row_stride_{};
  int row_cars_ = 0, row_trucks_ = 0;
  std::array<int, kMaxN> row_group_{};  // the rows' kind sequences (groups)
  bool own_mirror_ = true;
  std::vector<int> active_rows_;
  std::vector<Combo> combos_;
  std::vector<std::uint32_t> admitted_;
};

}  // namespace rushhour::class_engine
