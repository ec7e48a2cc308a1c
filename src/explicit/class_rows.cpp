#include "explicit/class_rows.hpp"

#include <bit>

#include "board/lines.hpp"

namespace rushhour::class_engine {

std::optional<std::uint64_t> ItemRows::take(std::uint64_t item) {
  const int n = t_.n;
  const auto groups = static_cast<std::uint64_t>(t_.groups);
  std::array<int, kMaxN>& row_group = row_group_;
  const std::uint64_t placement = item / t_.row_items;
  std::uint64_t rest = item % t_.row_items;
  for (int i = n - 1; i >= 0; --i) {
    row_group[static_cast<std::size_t>(i)] = static_cast<int>(rest % groups);
    rest /= groups;
  }
  if (!t_.exit_ok[static_cast<std::size_t>(row_group[static_cast<std::size_t>(t_.exit_row)])]) return std::nullopt;
  for (int i = 0; i < n; ++i) {
    const int fixed = fixed_group_[static_cast<std::size_t>(i)];
    if (fixed >= 0 && fixed != row_group[static_cast<std::size_t>(i)]) return std::nullopt;
  }
  for (int i = 0; i < n; ++i)
    if (i != t_.exit_row && !t_.line_ok[static_cast<std::size_t>(row_group[static_cast<std::size_t>(i)])])
      return std::nullopt;
  walls_ = t_.placements[static_cast<std::size_t>(placement)];
  wall_count_ = std::popcount(walls_);
  placement_key_ = static_cast<SampleKey>(placement) << (2 * n * t_.key_bits);
  if (!admit_rows()) return std::nullopt;
  // The mirror item's classes are this item's classes reflected: the lesser item solves
  // both; an item that is its own mirror pairs its classes up inside (search_columns).
  std::uint64_t mirrored = 0;  // the item of the rows in reverse order
  for (int i = n - 1; i >= 0 && mirror_; --i)
    mirrored = mirrored * groups + static_cast<std::uint64_t>(row_group[static_cast<std::size_t>(i)]);
  if (mirror_ && mirrored < item) return std::nullopt;  // never with walls: placement 0
  own_mirror_ = !mirror_ || mirrored == item;
  row_cars_ = row_trucks_ = 0;
  active_rows_.clear();
  for (int i = 0; i < n; ++i)
    if (!t_.empty_group(row_group[static_cast<std::size_t>(i)])) active_rows_.push_back(i);
  std::uint64_t combos = 1;  // at most 15^8 on 8x8: no overflow
  for (int i = n - 1; i >= 0; --i) {
    const int g = row_group[static_cast<std::size_t>(i)];
    combos *= t_.members[static_cast<std::size_t>(g)].size();
    row_cars_ += t_.group_cars[static_cast<std::size_t>(g)];
    row_trucks_ += t_.group_trucks[static_cast<std::size_t>(g)];
  }
  if (!rules_.limits().allows(row_cars_, row_trucks_)) return std::nullopt;  // counts only grow
  return combos;
}

std::uint64_t ItemRows::build_combos(std::uint64_t combos) {
  const int n = t_.n;
  std::uint32_t stride = 1;
  for (int i = n - 1; i >= 0; --i) {
    row_stride_[static_cast<std::size_t>(i)] = stride;
    const int g = row_group_[static_cast<std::size_t>(i)];
    stride *= static_cast<std::uint32_t>(t_.members[static_cast<std::size_t>(g)].size());
  }
  combos_.clear();
  admitted_.clear();
  std::uint64_t item_states = 0;
  for (std::uint32_t id = 0; id < combos; ++id) {
    Combo c;
    c.id = id;
    // Combinations with a row the walls do not admit keep their id (a row slide shifts the
    // id by the group positions) but hold no state: no slide leads into them.
    bool admitted = true;
    std::uint64_t horizontal = 0;
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const auto& m = t_.members[static_cast<std::size_t>(row_group_[ui])];
      const std::size_t position = id / row_stride_[ui] % m.size();
      admitted = admitted && (row_admitted_[ui] >> position & 1);
      c.row[ui] = static_cast<std::uint8_t>(m[position]);
      horizontal |= t_.row_mask(i, m[position]);
    }
    combos_.push_back(c);
    if (!admitted) continue;
    std::uint64_t columns = 1;
    Combo& kept = combos_.back();
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i)
        if ((horizontal | walls_) >> (i * n + j) & 1)
          kept.column_mask[static_cast<std::size_t>(j)] |= static_cast<std::uint8_t>(1u << i);
      columns *= t_.free_arrangements[kept.column_mask[static_cast<std::size_t>(j)]];
    }
    item_states += columns;
    const LineArrangement& exit = t_.lines[kept.row[static_cast<std::size_t>(t_.exit_row)]];
    kept.winning = exit.segments.back().start == n - 2;
    admitted_.push_back(id);
  }
  return item_states;
}

std::uint64_t ItemRows::states_without_listing() const {
  const int n = t_.n;
  // Per row, the columns' masks its admitted arrangements cover: byte j, bit i (with the walls').
  std::array<std::vector<std::uint64_t>, kMaxN> covers;
  std::uint64_t wall_cover = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (walls_ >> (i * n + j) & 1) wall_cover |= std::uint64_t{1} << (8 * j + i);
  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const auto& members = t_.members[static_cast<std::size_t>(row_group_[ui])];
    for (std::size_t position = 0; position < members.size(); ++position) {
      if (!(row_admitted_[ui] >> position & 1)) continue;
      const std::uint64_t cells = t_.row_mask(i, members[position]);
      std::uint64_t cover = 0;
      for (int j = 0; j < n; ++j)
        if (cells >> (i * n + j) & 1) cover |= std::uint64_t{1} << (8 * j + i);
      covers[ui].push_back(cover);
    }
  }
  return states_below(covers, 0, wall_cover);
}

bool ItemRows::admit_rows() {
  const int n = t_.n;
  const bool puzzle = rules_.domain() == Domain::Puzzle;
  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    row_walls_[ui] = static_cast<std::uint32_t>(walls_ >> (i * n)) & static_cast<std::uint32_t>(t_.masks - 1);
    row_admitted_[ui] = 0;
    const auto& members = t_.members[static_cast<std::size_t>(row_group_[ui])];
    for (std::size_t position = 0; position < members.size(); ++position) {
      const LineArrangement& a = t_.lines[members[position]];
      if ((a.occupied & row_walls_[ui]) == 0 && (!puzzle || puzzle_line(a, n, i == t_.exit_row, row_walls_[ui])))
        row_admitted_[ui] |= std::uint32_t{1} << position;
    }
    if (row_admitted_[ui] == 0) return false;
  }
  return true;
}

std::uint64_t ItemRows::states_below(const std::array<std::vector<std::uint64_t>, kMaxN>& covers, int i,
                                     std::uint64_t cover) const {
  const int n = t_.n;
  if (i == n) {
    std::uint64_t product = 1;
    for (int j = 0; j < n; ++j) product *= t_.free_arrangements[cover >> (8 * j) & 0xFF];
    return product;
  }
  std::uint64_t sum = 0;
  for (const std::uint64_t more : covers[static_cast<std::size_t>(i)])
    sum += states_below(covers, i + 1, cover | more);
  return sum;
}

}  // namespace rushhour::class_engine
