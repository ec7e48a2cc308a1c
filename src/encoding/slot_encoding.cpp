#include "encoding/slot_encoding.hpp"

#include <algorithm>
#include <map>

#include "board/errors.hpp"
#include "board/rules_codec.hpp"
#include "encoding/option_choice.hpp"

namespace rushhour {

const std::vector<std::string>& SlotEncodingOptions::orders() {
  static const std::vector<std::string> names = {"interleaved", "rows-columns", "columns-rows"};
  return names;
}
const std::vector<std::string>& SlotEncodingOptions::line_codes() {
  static const std::vector<std::string> names = {"slot", "index"};
  return names;
}

void SlotEncodingOptions::check() const {
  require_choice("variable order", order, orders(), " for the slot encoding");
  require_choice("line code", line_code, line_codes());
}

namespace {

// The slot line code of an arrangement (see the header), most significant bit first.
DomainCode::Cube slot_code(const LineArrangement& a, int n) {
  const int slots = n / 2;
  const int position_bits = bits_for(n - 1);
  DomainCode::Cube cube;
  for (int s = 0; s < slots; ++s) {
    const bool present = s < static_cast<int>(a.segments.size());
    const int kind = present ? (a.segments[s].length == kCar ? 1 : 2) : 0;
    const int position = present ? a.segments[s].start : 0;
    cube.push_back(static_cast<signed char>(kind >> 1 & 1));
    cube.push_back(static_cast<signed char>(kind & 1));
    for (int b = position_bits - 1; b >= 0; --b) cube.push_back(static_cast<signed char>(position >> b & 1));
  }
  return cube;
}

}  // namespace

std::vector<int> line_sequence(const std::string& order, int n) {
  std::vector<int> sequence;
  if (order == "interleaved") {
    for (int i = 0; i < n; ++i) sequence.insert(sequence.end(), {i, n + i});
  } else {
    for (int i = 0; i < 2 * n; ++i) sequence.push_back(order == "rows-columns" ? i : (i + n) % (2 * n));
  }
  return sequence;
}

EnumerationOrder::EnumerationOrder(int size, const SlotEncodingOptions& options)
    : table_(size), lines_(line_sequence(options.order, size)) {
  options.check();
  for (int a = 0; a < table_.size(); ++a) {
    if (options.line_code != "slot") {
      code_.push_back(a);
      continue;
    }
    int value = 0;
    for (signed char bit : slot_code(table_[a], size)) value = value << 1 | bit;
    code_.push_back(value);
  }
}

std::vector<int> EnumerationOrder::key(const Board& board) const {
  const std::vector<std::vector<Segment>> segments = line_segments(board);
  std::vector<int> key;
  for (int line : lines_) {
    const int a = table_.find(segments[static_cast<std::size_t>(line)]);
    if (a < 0) throw std::logic_error("EnumerationOrder: a line of the board has no arrangement");
    key.push_back(code_[static_cast<std::size_t>(a)]);
  }
  return key;
}

SlotEncoding::SlotEncoding(BddSession& session, const Rules& rules,
                           const SlotEncodingOptions& options, DomainPart part)
    : StateEncoding(rules), options_(options), part_(std::move(part)), table_(rules.size()) {
  options_.check();
  const int n = rules.size();
  for (int line : part_.lines)
    if (line < 0 || line >= 2 * n) throw std::logic_error("a part fixes a line the board lacks");

  // The arrangements each line's variable codes: all of them, or those of the part; in the
  // puzzle domain only those puzzle_line allows (the domain is then restricted like a part).
  const bool puzzle = rules.domain() == Domain::Puzzle;
  allowed_.resize(static_cast<std::size_t>(2 * n));
  value_of_.assign(static_cast<std::size_t>(2 * n), std::vector<int>(static_cast<std::size_t>(table_.size()), -1));
  for (int line = 0; line < 2 * n; ++line) {
    auto& allowed = allowed_[static_cast<std::size_t>(line)];
    for (int a = 0; a < table_.size(); ++a)
      if (part_.admits(line, table_[a]) && (!puzzle || puzzle_line(table_[a], n, line == rules.exit_row()))) {
        value_of_[static_cast<std::size_t>(line)][static_cast<std::size_t>(a)] = static_cast<int>(allowed.size());
        allowed.push_back(a);
      }
    if (allowed.empty()) throw std::logic_error("a part fixes a kind sequence no arrangement has");
  }

  // Codes of the arrangements, one per line (lines with the same arrangements share one).
  std::map<std::vector<int>, std::shared_ptr<const DomainCode>> code_of;
  const auto make_code = [&](const std::vector<int>& arrangements) -> std::shared_ptr<const DomainCode> {
    if (options_.line_code != "slot") return DomainCode::binary(static_cast<int>(arrangements.size()));
    std::vector<std::vector<DomainCode::Cube>> cubes;
    for (int index : arrangements) cubes.push_back({slot_code(table_[index], n)});
    return DomainCode::from_cubes(std::move(cubes));
  };
  std::vector<std::shared_ptr<const DomainCode>> codes;
  for (const std::vector<int>& allowed : allowed_) {
    auto& code = code_of[allowed];
    if (!code) code = make_code(allowed);
    codes.push_back(code);
  }

  // Variable layout: with walls, one bit per cell after the lines, row r's n bits placed
  // just before row r (a row's relation reads them all, a column's one of them).
  line_sequence_ = line_sequence(options_.order, n);
  const bool with_walls = !rules.walls().none();
  for (int line : line_sequence_) {
    if (with_walls && line < n)
      for (int c = 0; c < n; ++c) item_sequence_.push_back(2 * n + line * n + c);
    item_sequence_.push_back(line);
  }
  if (with_walls) codes.resize(static_cast<std::size_t>(2 * n + n * n), DomainCode::binary(2));
  lines_ = lay_out(session, codes, item_sequence_);
  for (std::size_t cell = 0; with_walls && cell < static_cast<std::size_t>(n * n); ++cell)
    wall_at_.push_back(lines_[2 * static_cast<std::size_t>(n) + cell].encode(1));
  lines_.erase(lines_.begin() + 2 * n, lines_.end());

  // Coverage of each line's own cells.
  covered_.assign(2 * n, std::vector<bdd>(n, bddfalse));
  for (int line = 0; line < 2 * n; ++line)
    for (int a = 0; a < table_.size(); ++a)
      for (int k = 0; k < n; ++k)
        if (table_[a].occupied >> k & 1) covered_[line][k] |= is_arrangement(line, a);

  // Legal set: every line holds a valid code and no cell is covered twice.
  bdd legal = bddtrue;
  for (int line : line_sequence_) legal &= lines_[static_cast<std::size_t>(line)].range();
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      legal &= !(covered_[r][c] & covered_[n + c][r]);
      if (walled()) legal &= !(wall_at_[static_cast<std::size_t>(r * n + c)] & (covered_[r][c] | covered_[n + c][r]));
    }
  if (walled()) {
    legal &= wall_count_between(rules.walls().min, rules.walls().max);
    // The puzzle domain's rule for a row depends on its walls (lines.hpp: puzzle_line):
    // allowed_ kept the arrangements that fit beside no wall, the loosest case.
    for (int r = 0; puzzle && r < n; ++r) {
      bdd fits = bddfalse;
      for (int a : allowed_[static_cast<std::size_t>(r)])
        for (std::uint32_t walls = 0; walls < (1u << n); ++walls)
          if (!(walls & table_[a].occupied) && puzzle_line(table_[a], n, r == rules.exit_row(), walls))
            fits |= is_arrangement(r, a) & row_walls_are(r, walls);
      legal &= fits;
    }
  }

  // The domain: the exit row's rightmost horizontal vehicle exists and is a car.
  const int exit = rules.exit_row();
  bdd target_is_car = bddfalse;
  bdd target_home = bddfalse;
  for (int a = 0; a < table_.size(); ++a) {
    const auto& segments = table_[a].segments;
    if (segments.empty() || segments.back().length != kCar) continue;
    target_is_car |= is_arrangement(exit, a);
    if (segments.back().start == n - 2) target_home |= is_arrangement(exit, a);
  }
  bdd domain = legal & target_is_car;
  unlimited_winning_ = state_set(domain & target_home);
  if (!rules.limits().unlimited()) {
    vehicle_limits_ = bddfalse;
    for (const auto& [counts, f] : count_distribution([&](int cars, int trucks) {
           return rules.limits().allows(cars, trucks);
         }))
      vehicle_limits_ |= f;
    domain &= vehicle_limits_;
  }
  legal_ = state_set(legal);
  domain_ = state_set(domain);
  winning_ = state_set(domain & target_home);

  step_parts_ = make_parts(Metric::Step);
  move_parts_ = make_parts(Metric::Move);
  session.check();
}

bdd SlotEncoding::crossing_covered(int line, int k) const {
  const int n = rules_.size();
  const bdd crossing = line < n ? covered_[n + k][line] : covered_[k][line - n];
  if (!walled()) return crossing;
  return crossing | wall_at_[static_cast<std::size_t>(line < n ? line * n + k : k * n + line - n)];
}

bdd SlotEncoding::row_walls_are(int row, std::uint32_t walls) const {
  const int n = rules_.size();
  bdd cube = bddtrue;
  for (int c = 0; c < n; ++c) {
    const bdd& wall = wall_at_[static_cast<std::size_t>(row * n + c)];
    cube &= (walls >> c & 1) ? wall : !wall;
  }
  return cube;
}

std::map<std::pair<int, int>, bdd> SlotEncoding::count_distribution(
    const std::function<bool(int, int)>& keep) const {
  std::map<std::pair<int, int>, bdd> so_far = {{{0, 0}, bddtrue}};
  for (int line : line_sequence_) {
    std::map<std::pair<int, int>, bdd> by_counts;
    for (int a = 0; a < table_.size(); ++a) {
      bdd& group = by_counts.try_emplace({table_[a].cars, table_[a].trucks}, bddfalse).first->second;
      group |= is_arrangement(line, a);
    }
    std::map<std::pair<int, int>, bdd> next;
    for (const auto& [counts, f] : so_far)
      for (const auto& [added, g] : by_counts) {
        const std::pair<int, int> total{counts.first + added.first, counts.second + added.second};
        if (!keep(total.first, total.second)) continue;
        bdd& slot = next.try_emplace(total, bddfalse).first->second;
        slot |= f & g;
      }
    so_far = std::move(next);
  }
  return so_far;
}

bdd SlotEncoding::vehicle_counts_where(const std::function<bool(int, int)>& wanted) const {
  bdd result = bddfalse;
  for (const auto& [counts, f] : count_distribution([](int, int) { return true; }))
    if (wanted(counts.first, counts.second)) result |= f;
  return result;
}

bdd SlotEncoding::vehicle_count_is(int cars, int trucks) const {
  auto distribution = count_distribution([&](int c, int t) { return c <= cars && t <= trucks; });
  const auto it = distribution.find({cars, trucks});
  return it == distribution.end() ? bddfalse : it->second;
}

bdd SlotEncoding::line_relation(int line, Metric metric) const {
  std::vector<bdd> terms;
  for (int a = 0; a < table_.size(); ++a) {
    for (const LineMove& move : table_.moves(a)) {
      if (move.distance > longest_slide(metric, rules_.size())) continue;
      bdd free = bddtrue;
      const std::uint32_t must_be_free = table_[a].occupied | move.swept;
      for (int k = 0; k < rules_.size(); ++k)
        if (must_be_free >> k & 1) free &= !crossing_covered(line, k);
      terms.push_back(is_arrangement(line, a) & is_arrangement(line, move.to, Copy::Next) & free);
    }
  }
  return disjunction(std::move(terms));
}

std::vector<TransitionPart> SlotEncoding::make_parts(Metric metric) const {
  std::vector<TransitionPart> parts;
  for (int line = 0; line < line_count(); ++line) {
    bdd relation = line_relation(line, metric);
    // A line fixed to an arrangement that cannot move (e.g. an empty line) changes nothing.
    if (relation == bddfalse) continue;
    const DomainVariable* changed[] = {&lines_[static_cast<std::size_t>(line)]};
    parts.push_back(make_transition_part(std::move(relation), changed));
  }
  return parts;
}

std::string SlotEncoding::layout_description() const {
  return "encoding=slot line_code=" + options_.line_code + " order=" + options_.order + " " +
         rules_text_without_metric(rules_) + " variables=" + std::to_string(variable_count_) +
         (part_.whole() ? std::string() : " part=" + part_.name(rules_.size()));
}

bdd SlotEncoding::encode(const Board& board) const {
  const int n = rules_.size();
  if (board.size() != n) throw InputError("board size does not match the encoding");
  const std::vector<std::vector<Segment>> segments = line_segments(board);
  bdd minterm = bddtrue;
  for (int line = 0; line < 2 * n; ++line) {
    const int a = table_.find(segments[static_cast<std::size_t>(line)]);
    if (a < 0) throw std::logic_error("encode: a line of the board has no arrangement");
    minterm &= is_arrangement(line, a);
  }
  if (board.walls() != 0 && !walled()) throw InputError("a board with walls in an encoding without walls");
  return minterm & walls_are(board.walls());
}

Board SlotEncoding::board_of(const std::vector<bool>& values) const {
  const int n = rules_.size();
  std::vector<Vehicle> vehicles;
  std::size_t bit = 0;  // all_current_ holds each line's bits together, lines in layout order
  std::vector<int> arrangement(2 * n, -1);
  std::uint64_t walls = 0;
  for (int item : item_sequence_) {
    if (item >= 2 * n) {  // a cell's wall bit
      if (values[bit++]) walls |= std::uint64_t{1} << (item - 2 * n);
      continue;
    }
    const DomainVariable& variable = lines_[static_cast<std::size_t>(item)];
    const int value = variable.decode(values, bit);
    bit += static_cast<std::size_t>(variable.bits());
    if (value < 0) throw std::logic_error("decode: a state set holds an invalid line code");
    arrangement[item] = allowed_[static_cast<std::size_t>(item)][static_cast<std::size_t>(value)];
  }
  for (int line = 0; line < 2 * n; ++line)
    append_line_vehicles(table_[arrangement[line]], line, n, vehicles);
  return Board(n, std::move(vehicles), walls);
}

std::vector<Board> SlotEncoding::least_boards(bdd states, int count, KeyOrder order) const {
  const int n = rules_.size();
  const bool mirrored = order == KeyOrder::Mirrored;
  // The lines in key order and each line's arrangements in the order of their key fields: the
  // mirror image's row i is row n-1-i, its columns are the columns reversed.
  std::vector<int> lines;
  for (int i = 0; i < n; ++i) lines.push_back(mirrored ? n - 1 - i : i);
  for (int j = n; j < 2 * n; ++j) lines.push_back(j);
  std::vector<std::vector<int>> choices = allowed_;
  if (mirrored)
    for (int j = n; j < 2 * n; ++j)
      std::sort(choices[static_cast<std::size_t>(j)].begin(), choices[static_cast<std::size_t>(j)].end(),
                [&](int a, int b) { return table_.reversed(a) < table_.reversed(b); });
  // Its user, a partitioned run, has no walls.
  if (walled()) throw std::logic_error("least_boards: an encoding with walls");
  std::vector<Board> boards;
  // The least key of a set: line by line in key order (rows, then columns), the least
  // arrangement that leaves a configuration of the set.
  while (static_cast<int>(boards.size()) < count && states != bddfalse) {
    bdd rest = states;
    std::vector<Vehicle> vehicles;
    for (const int line : lines) {
      for (int a : choices[static_cast<std::size_t>(line)]) {
        const bdd with = rest & is_arrangement(line, a);
        if (with == bddfalse) continue;
        rest = with;
        append_line_vehicles(table_[a], line, n, vehicles);
        break;
      }
    }
    boards.emplace_back(n, std::move(vehicles));
    states = minus(states, rest);
  }
  return boards;
}

}  // namespace rushhour
