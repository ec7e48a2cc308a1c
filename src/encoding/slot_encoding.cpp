#include "encoding/slot_encoding.hpp"

#include <algorithm>
#include <map>

#include "board/errors.hpp"
#include "encoding/option_choice.hpp"

namespace rushhour {
namespace {

int bits_for(int values) {  // ceil(log2(values)), 0 for a single value
  int bits = 0;
  while ((1 << bits) < values) ++bits;
  return bits;
}


}  // namespace

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

SlotEncoding::SlotEncoding(BddSession& session, const Rules& rules,
                           const SlotEncodingOptions& options)
    : StateEncoding(rules), options_(options), table_(rules.size()) {
  options_.check();
  const int n = rules.size();

  // Codes of the arrangements.
  if (options_.line_code == "slot") {
    const int slots = n / 2;
    const int position_bits = bits_for(n - 1);
    bits_per_line_ = slots * (2 + position_bits);
    for (const LineArrangement& a : table_.arrangements()) {
      std::vector<bool> code;
      for (int s = 0; s < slots; ++s) {
        const bool present = s < static_cast<int>(a.segments.size());
        const int kind = present ? (a.segments[s].length == kCar ? 1 : 2) : 0;
        const int position = present ? a.segments[s].start : 0;
        code.push_back(kind & 2);
        code.push_back(kind & 1);
        for (int b = position_bits - 1; b >= 0; --b) code.push_back(position >> b & 1);
      }
      codes_.push_back(code);
    }
  } else {
    bits_per_line_ = bits_for(table_.size());
    for (int a = 0; a < table_.size(); ++a) {
      std::vector<bool> code;
      for (int b = bits_per_line_ - 1; b >= 0; --b) code.push_back(a >> b & 1);
      codes_.push_back(code);
    }
  }
  arrangement_of_code_.assign(std::size_t{1} << bits_per_line_, -1);
  for (int a = 0; a < table_.size(); ++a) {
    std::size_t value = 0;
    for (bool bit : codes_[a]) value = value << 1 | bit;
    arrangement_of_code_[value] = a;
  }

  // Variable layout.
  std::vector<int> sequence;
  if (options_.order == "interleaved") {
    for (int i = 0; i < n; ++i) sequence.insert(sequence.end(), {i, n + i});
  } else {
    for (int i = 0; i < 2 * n; ++i) sequence.push_back(options_.order == "rows-columns" ? i : (i + n) % (2 * n));
  }
  line_sequence_ = sequence;
  lines_.resize(2 * n);
  int next_var = 0;
  for (int line : sequence) {
    for (int b = 0; b < bits_per_line_; ++b) {
      lines_[line].current.push_back(next_var++);
      lines_[line].next.push_back(next_var++);
    }
  }
  variable_count_ = next_var;
  session.ensure_variables(variable_count_);
  for (int line : sequence)
    all_current_.insert(all_current_.end(), lines_[line].current.begin(), lines_[line].current.end());
  current_set_ = variable_set(all_current_);

  // Coverage of each line's own cells.
  covered_.assign(2 * n, std::vector<bdd>(n, bddfalse));
  for (int line = 0; line < 2 * n; ++line)
    for (int a = 0; a < table_.size(); ++a)
      for (int k = 0; k < n; ++k)
        if (table_[a].occupied >> k & 1) covered_[line][k] |= is_arrangement(line, a, false);

  // Legal set: every line holds a valid code and no cell is covered twice.
  bdd legal = bddtrue;
  for (int line : sequence) {
    bdd valid = bddfalse;
    for (int a = 0; a < table_.size(); ++a) valid |= is_arrangement(line, a, false);
    legal &= valid;
  }
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) legal &= !(covered_[r][c] & covered_[n + c][r]);

  // The domain: the exit row's rightmost horizontal vehicle exists and is a car.
  const int exit = rules.exit_row();
  bdd target_is_car = bddfalse;
  bdd target_home = bddfalse;
  for (int a = 0; a < table_.size(); ++a) {
    const auto& segments = table_[a].segments;
    if (segments.empty() || segments.back().length != kCar) continue;
    target_is_car |= is_arrangement(exit, a, false);
    if (segments.back().start == n - 2) target_home |= is_arrangement(exit, a, false);
  }
  legal_ = legal;
  domain_ = legal & target_is_car;
  unlimited_winning_ = domain_ & target_home;
  if (!rules.limits().unlimited()) {
    vehicle_limits_ = bddfalse;
    for (const auto& [counts, f] : count_distribution([&](int cars, int trucks) {
           return rules.limits().allows(cars, trucks);
         }))
      vehicle_limits_ |= f;
    domain_ &= vehicle_limits_;
  }
  winning_ = domain_ & target_home;

  step_parts_ = make_parts(Metric::Step);
  move_parts_ = make_parts(Metric::Move);
  session.check();
}

bdd SlotEncoding::is_arrangement(int line, int arrangement, bool next) const {
  return assignment(next ? lines_[line].next : lines_[line].current, codes_[arrangement]);
}

bdd SlotEncoding::crossing_covered(int line, int k) const {
  const int n = rules_.size();
  return line < n ? covered_[n + k][line] : covered_[k][line - n];
}

std::map<std::pair<int, int>, bdd> SlotEncoding::count_distribution(
    const std::function<bool(int, int)>& keep) const {
  std::map<std::pair<int, int>, bdd> so_far = {{{0, 0}, bddtrue}};
  for (int line : line_sequence_) {
    std::map<std::pair<int, int>, bdd> by_counts;
    for (int a = 0; a < table_.size(); ++a) {
      bdd& group = by_counts.try_emplace({table_[a].cars, table_[a].trucks}, bddfalse).first->second;
      group |= is_arrangement(line, a, false);
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
      if (metric == Metric::Step && move.distance != 1) continue;
      bdd free = bddtrue;
      const std::uint32_t must_be_free = table_[a].occupied | move.swept;
      for (int k = 0; k < rules_.size(); ++k)
        if (must_be_free >> k & 1) free &= !crossing_covered(line, k);
      terms.push_back(is_arrangement(line, a, false) & is_arrangement(line, move.to, true) & free);
    }
  }
  return disjunction(std::move(terms));
}

std::vector<TransitionPart> SlotEncoding::make_parts(Metric metric) const {
  std::vector<TransitionPart> parts;
  for (int line = 0; line < line_count(); ++line) {
    const Line& l = lines_[line];
    parts.push_back({line_relation(line, metric), variable_set(l.next),
                     std::make_shared<VarRenaming>(l.current, l.next)});
  }
  return parts;
}

std::string SlotEncoding::layout_description() const {
  return "encoding=slot line_code=" + options_.line_code + " order=" + options_.order +
         " size=" + std::to_string(rules_.size()) + " exit_row=" + std::to_string(rules_.exit_row()) +
         " max_cars=" + std::to_string(rules_.limits().max_cars) +
         " max_trucks=" + std::to_string(rules_.limits().max_trucks) +
         " max_vehicles=" + std::to_string(rules_.limits().max_vehicles) +
         " variables=" + std::to_string(variable_count_);
}

bdd SlotEncoding::encode(const Board& board) const {
  const int n = rules_.size();
  if (board.size() != n) throw InputError("board size does not match the encoding");
  std::vector<std::vector<Segment>> segments(2 * n);
  for (const Vehicle& v : board.vehicles()) {
    if (v.horizontal())
      segments[v.row].push_back({v.col, v.length});
    else
      segments[n + v.col].push_back({v.row, v.length});
  }
  bdd minterm = bddtrue;
  for (int line = 0; line < 2 * n; ++line) {
    std::sort(segments[line].begin(), segments[line].end(),
              [](const Segment& a, const Segment& b) { return a.start < b.start; });
    const int a = table_.find(segments[line]);
    if (a < 0) throw std::logic_error("encode: a line of the board has no arrangement");
    minterm &= is_arrangement(line, a, false);
  }
  return minterm;
}

Board SlotEncoding::decode_one(const bdd& states) const {
  return board_of(one_assignment(states, all_current_));
}

void SlotEncoding::for_each_board(const bdd& states,
                                  const std::function<bool(const Board&)>& visit) const {
  for_each_assignment(states, all_current_,
                      [&](const std::vector<bool>& values) { return visit(board_of(values)); });
}

Board SlotEncoding::board_of(const std::vector<bool>& values) const {
  const int n = rules_.size();
  std::vector<Vehicle> vehicles;
  std::size_t bit = 0;  // all_current_ holds each line's bits together, lines in layout order
  std::vector<int> arrangement(2 * n, -1);
  for (int line : line_sequence_) {
    std::size_t code = 0;
    for (int b = 0; b < bits_per_line_; ++b) code = code << 1 | values[bit++];
    arrangement[line] = arrangement_of_code_[code];
    if (arrangement[line] < 0) throw std::logic_error("decode: a state set holds an invalid line code");
  }
  for (int line = 0; line < 2 * n; ++line) {
    for (const Segment& s : table_[arrangement[line]].segments) {
      if (line < n)
        vehicles.push_back({line, s.start, Orientation::Horizontal, s.length});
      else
        vehicles.push_back({s.start, line - n, Orientation::Vertical, s.length});
    }
  }
  return Board(n, std::move(vehicles));
}

}  // namespace rushhour
