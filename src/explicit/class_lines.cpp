#include "explicit/class_lines.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "board/errors.hpp"

namespace rushhour::class_engine {

LineTables::LineTables(const Rules& rules, std::size_t admitted_slots_in)
  : n(rules.size()), exit_row(rules.exit_row()), lines(n), admitted_slots(admitted_slots_in) {
  key_bits = sample_key_bits(lines);
  masks = 1 << n;
  placements = wall_placements(n, rules.walls());
  const int count = lines.size();
  group_of.resize(static_cast<std::size_t>(count));
  group_pos.resize(static_cast<std::size_t>(count));
  std::vector<std::vector<int>> sequences;  // the kind sequence (lengths) of each group
  for (int a = 0; a < count; ++a) {
    std::vector<int> sequence;
    for (const Segment& s : lines[a].segments) sequence.push_back(s.length);
    auto it = std::find(sequences.begin(), sequences.end(), sequence);
    if (it == sequences.end()) {
      sequences.push_back(sequence);
      members.emplace_back();
      group_cars.push_back(lines[a].cars);
      group_trucks.push_back(lines[a].trucks);
      exit_ok.push_back(!sequence.empty() && sequence.back() == kCar &&
                        (rules.domain() == Domain::All || puzzle_line(lines[a], n, true)));
      // The puzzle domain: the arrangements of a kind sequence fill the line all or none.
      line_ok.push_back(rules.domain() == Domain::All || puzzle_line(lines[a], n, false));
      it = sequences.end() - 1;
    }
    const auto g = static_cast<std::size_t>(it - sequences.begin());
    group_of[static_cast<std::size_t>(a)] = static_cast<int>(g);
    group_pos[static_cast<std::size_t>(a)] = static_cast<int>(members[g].size());
    members[g].push_back(a);
  }
  groups = static_cast<int>(members.size());
  for (int i = 0; i < n; ++i) row_items *= static_cast<std::uint64_t>(groups);

  compat.assign(static_cast<std::size_t>(groups * masks), {});
  admitted_flat.assign(static_cast<std::size_t>(groups * masks) * admitted_slots, 0);
  compat_pos.assign(static_cast<std::size_t>(count * masks), -1);
  admitted_cover.assign(static_cast<std::size_t>(groups * masks), 0);
  for (int g = 0; g < groups; ++g)
    for (int m = 0; m < masks; ++m)
      for (int a : members[static_cast<std::size_t>(g)])
        if ((lines[a].occupied & static_cast<std::uint32_t>(m)) == 0) {
          auto& list = compat[static_cast<std::size_t>(g * masks + m)];
          compat_pos[static_cast<std::size_t>(a * masks + m)] = static_cast<std::int8_t>(list.size());
          if (list.size() >= admitted_slots) throw std::logic_error("class engine: a line admits too many arrangements");
          admitted_flat[static_cast<std::size_t>(g * masks + m) * admitted_slots + list.size()] =
              static_cast<std::uint8_t>(a);
          list.push_back(static_cast<std::uint8_t>(a));
          admitted_cover[static_cast<std::size_t>(g * masks + m)] |= lines[a].occupied;
        }

  toggled.assign(static_cast<std::size_t>(count * masks), 0);
  for (int a = 0; a < count; ++a)
    for (int m = 0; m < masks; ++m)
      for (int i = 0; i < n; ++i)
        toggled[static_cast<std::size_t>(a * masks + m)] |=
            static_cast<std::uint64_t>(std::max(0, position(a, m ^ (1 << i)))) << (8 * i);

  free_arrangements.assign(static_cast<std::size_t>(masks), 0);
  for (int m = 0; m < masks; ++m)
    for (int a = 0; a < count; ++a)
      if ((lines[a].occupied & static_cast<std::uint32_t>(m)) == 0 &&
          line_ok[static_cast<std::size_t>(group_of[static_cast<std::size_t>(a)])])
        ++free_arrangements[static_cast<std::size_t>(m)];

  if (groups > kMaxGroups) throw std::logic_error("class engine: more kind sequences than kMaxGroups");
  column_groups.assign(static_cast<std::size_t>(masks), 0);
  for (int m = 0; m < masks; ++m)
    for (int g = 0; g < groups; ++g)
      if (line_ok[static_cast<std::size_t>(g)] && !admitted(g, m).empty())
        column_groups[static_cast<std::size_t>(m)] |= std::uint32_t{1} << g;

  // The mirror: a line read backwards (a column of the board reflected top to bottom).
  reflected.resize(static_cast<std::size_t>(count));
  for (int a = 0; a < count; ++a) reflected[static_cast<std::size_t>(a)] = lines.reversed(a);
  for (int g = 0; g < groups; ++g)
    mirror_group.push_back(group_of[static_cast<std::size_t>(reflected[static_cast<std::size_t>(members[static_cast<std::size_t>(g)][0])])]);

  row_cells.assign(static_cast<std::size_t>(n * count), 0);
  col_cells.assign(static_cast<std::size_t>(n * count), 0);
  for (int kind = 0; kind < 4; ++kind) {
    const Metric metric = kind & 1 ? Metric::Move : Metric::Step;
    const bool forward_only = kind & 2;
    SlideTable& table = slide_table(metric, forward_only);
    for (int a = 0; a < count; ++a)
      for (int crossing = 0; crossing < masks; ++crossing) {
        table.begin.push_back(static_cast<std::uint32_t>(table.slides.size()));
        const int from = compat_pos[static_cast<std::size_t>(a * masks + crossing)];
        for (const LineMove& m : lines.moves(a)) {
          if (m.distance > longest_slide(metric, n) || (m.swept & static_cast<std::uint32_t>(crossing))) continue;
          if (forward_only && m.to < a) continue;
          const int to = compat_pos[static_cast<std::size_t>(m.to * masks + crossing)];
          std::uint64_t changed_digits = 0;
          for (int k = 0; k < n; ++k)
            if ((lines[a].occupied ^ lines[m.to].occupied) >> k & 1) changed_digits |= std::uint64_t{0xFF} << (8 * k);
          table.slides.push_back({static_cast<std::uint8_t>(m.to), static_cast<std::uint8_t>(std::max(to, 0)),
                                  static_cast<std::int8_t>(to - from),
                                  static_cast<std::int8_t>(group_pos[m.to] - group_pos[a]), changed_digits});
        }
      }
    table.begin.push_back(static_cast<std::uint32_t>(table.slides.size()));
  }
  for (int a = 0; a < count; ++a) {
    for (int line = 0; line < n; ++line)
      for (int k = 0; k < n; ++k)
        if (lines[a].occupied >> k & 1) {
          row_cells[static_cast<std::size_t>(line * count + a)] |= std::uint64_t{1} << (line * n + k);
          col_cells[static_cast<std::size_t>(line * count + a)] |= std::uint64_t{1} << (k * n + line);
        }
  }
}

Board board_of_key(const LineTables& t, SampleKey key) {
  return board_of_sample_key(t.lines, t.key_bits, t.placements, key);
}

std::vector<int> kind_lengths(const LineTables& t, int group) {
  std::vector<int> lengths;
  for (const Segment& s : t.lines[t.members[static_cast<std::size_t>(group)][0]].segments) lengths.push_back(s.length);
  return lengths;
}

std::array<int, 2 * kMaxN> fixed_groups(const LineTables& t,
                                        const std::vector<std::optional<std::vector<int>>>& fixed) {
  std::array<int, 2 * kMaxN> group;
  group.fill(-1);
  if (fixed.size() > static_cast<std::size_t>(2 * t.n))
    throw InputError("kind sequences for " + std::to_string(fixed.size()) + " lines of a board with " +
                     std::to_string(2 * t.n));
  for (std::size_t line = 0; line < fixed.size(); ++line) {
    if (!fixed[line]) continue;
    for (int g = 0; g < t.groups && group[line] < 0; ++g)
      if (kind_lengths(t, g) == *fixed[line]) group[line] = g;
    if (group[line] < 0)
      throw InputError("no line of " + std::to_string(t.n) + " cells holds the kind sequence of line " +
                       std::to_string(line) + " asked for");
  }
  return group;
}

std::vector<std::uint64_t> items_within_limits(const LineTables& t, const Rules& rules, std::uint64_t items) {
  std::vector<std::uint64_t> listed;
  if (rules.limits().unlimited()) return listed;
  const std::uint64_t most = items / 4;
  bool too_many = false;
  const auto groups = static_cast<std::uint64_t>(t.groups);
  auto extend = [&](auto& self, int row, std::uint64_t item, int cars, int trucks) -> void {
    if (too_many) return;
    if (row == t.n) {
      if (listed.size() == most) too_many = true;
      else listed.push_back(item);
      return;
    }
    for (int g = 0; g < t.groups; ++g) {
      const auto ug = static_cast<std::size_t>(g);
      if (row == t.exit_row ? !t.exit_ok[ug] : !t.line_ok[ug]) continue;
      if (!rules.limits().allows(cars + t.group_cars[ug], trucks + t.group_trucks[ug])) continue;
      self(self, row + 1, item * groups + static_cast<std::uint64_t>(g), cars + t.group_cars[ug], trucks + t.group_trucks[ug]);
    }
  };
  extend(extend, 0, 0, 0, 0);
  if (too_many || listed.size() * t.placements.size() > most) return {};
  // Vehicle limits do not count walls: every placement has the same rows within them.
  const std::size_t per_placement = listed.size();
  for (std::uint64_t placement = 1; placement < t.placements.size(); ++placement)
    for (std::size_t k = 0; k < per_placement; ++k) listed.push_back(placement * t.row_items + listed[k]);
  return listed;
}

LineTables tables_of(const Rules& rules, bool wide) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("the class engine supports sizes up to " + std::to_string(kMaxClassEngineSize) +
                     " (got " + std::to_string(rules.size()) + ")");
  return LineTables(rules, wide ? kWideAdmittedSlots : kNarrowAdmittedSlots);
}

std::uint64_t work_items(const LineTables& tables) { return tables.placements.size() * tables.row_items; }

}  // namespace rushhour::class_engine
