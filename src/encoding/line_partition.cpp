#include "encoding/line_partition.hpp"

#include <algorithm>
#include <cctype>

#include "board/errors.hpp"

namespace rushhour {
namespace {

int cars_in(const KindSequence& sequence) {
  return static_cast<int>(std::count(sequence.begin(), sequence.end(), kCar));
}
int trucks_in(const KindSequence& sequence) {
  return static_cast<int>(std::count(sequence.begin(), sequence.end(), kTruck));
}

KindSequence kinds_of(const std::vector<Segment>& segments) {
  KindSequence kinds;
  for (const Segment& s : segments) kinds.push_back(s.length);
  return kinds;
}

}  // namespace

KindSequence kind_sequence(const LineArrangement& arrangement) {
  return kinds_of(arrangement.segments);
}

std::vector<KindSequence> kind_sequences(const LineTable& table) {
  std::vector<KindSequence> sequences;
  for (const LineArrangement& a : table.arrangements()) {
    KindSequence kinds = kind_sequence(a);
    if (std::find(sequences.begin(), sequences.end(), kinds) == sequences.end())
      sequences.push_back(std::move(kinds));
  }
  return sequences;
}

const KindSequence* DomainPart::fixed(int line) const {
  const auto it = std::lower_bound(lines.begin(), lines.end(), line);
  if (it == lines.end() || *it != line) return nullptr;
  return &sequences[static_cast<std::size_t>(it - lines.begin())];
}

bool DomainPart::admits(int line, const LineArrangement& arrangement) const {
  const KindSequence* wanted = fixed(line);
  return wanted == nullptr || *wanted == kind_sequence(arrangement);
}

bool DomainPart::contains(const Board& board) const {
  const std::vector<std::vector<Segment>> segments = line_segments(board);
  for (std::size_t k = 0; k < lines.size(); ++k)
    if (kinds_of(segments[static_cast<std::size_t>(lines[k])]) != sequences[k]) return false;
  return true;
}

std::string DomainPart::name(int size) const {
  if (whole()) return "whole";
  std::string text;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int line = lines[k];
    text += (k == 0 ? "" : ",") + std::string(line < size ? "R" : "C") +
            std::to_string(line < size ? line : line - size) + "=";
    if (sequences[k].empty()) text += "-";
    for (int kind : sequences[k]) text += kind == kCar ? 'c' : 't';
  }
  return text;
}

namespace {

// "R2,R1,C0" (rows R0.., columns C0..), each line once, in any order.
std::vector<int> parse_line_list(const std::string& list, const std::string& name, int n) {
  std::vector<int> lines;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    const bool digits = item.size() == 2 &&
                        std::isdigit(static_cast<unsigned char>(item[1])) != 0;
    if (!digits || (item[0] != 'R' && item[0] != 'C') || item[1] - '0' >= n)
      throw InputError("partition '" + name + "': '" + item + "' is not a line (R0..R" + std::to_string(n - 1) +
                       " for rows, C0..C" + std::to_string(n - 1) + " for columns)");
    const int line = (item[0] == 'R' ? 0 : n) + (item[1] - '0');
    if (std::find(lines.begin(), lines.end(), line) != lines.end())
      throw InputError("partition '" + name + "': line " + item + " is named twice");
    lines.push_back(line);
    start = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

Partition parse_partition(const std::string& name, const Rules& rules) {
  const int n = rules.size();
  Partition partition{name, {}};
  if (name == "none") return partition;
  if (name == "exit-row") {
    partition.lines = {rules.exit_row()};
    return partition;
  }
  if (name.rfind("lines:", 0) == 0) {
    partition.lines = parse_line_list(name.substr(6), name, n);
    // One name per partition, whatever the order given: it is part of a run's identity.
    partition.name = "lines:";
    for (std::size_t k = 0; k < partition.lines.size(); ++k) {
      const int line = partition.lines[k];
      partition.name += (k == 0 ? "" : ",") + std::string(line < n ? "R" : "C") + std::to_string(line % n);
    }
    return partition;
  }
  int columns = -1;
  if (name == "rows") {
    columns = 0;
  } else if (name.rfind("rows+", 0) == 0 && name.size() > 5 && name.size() <= 6 &&
             name[5] >= '1' && name[5] <= '9') {
    columns = name[5] - '0';
  }
  if (columns < 0 || columns > n)
    throw InputError("unknown partition '" + name + "' (expected none, exit-row, rows, rows+K with 1 <= K <= " +
                     std::to_string(n) + ", or lines:L,L,... with L one of R0..R" + std::to_string(n - 1) +
                     ", C0..C" + std::to_string(n - 1) + ")");
  for (int line = 0; line < n + columns; ++line) partition.lines.push_back(line);
  return partition;
}

namespace {

// The kind sequences each fixed line may hold, in kind_sequences order: the exit row's last
// vehicle is a car.
std::vector<std::vector<KindSequence>> line_choices(const Partition& partition, const Rules& rules) {
  const std::vector<KindSequence> all = kind_sequences(LineTable(rules.size()));
  std::vector<std::vector<KindSequence>> choices;
  for (int line : partition.lines) {
    std::vector<KindSequence> allowed;
    for (const KindSequence& kinds : all)
      if (line != rules.exit_row() || (!kinds.empty() && kinds.back() == kCar))
        allowed.push_back(kinds);
    choices.push_back(std::move(allowed));
  }
  return choices;
}

}  // namespace

void for_each_part(const Partition& partition, const Rules& rules,
                   const std::function<bool(const DomainPart&)>& visit) {
  const std::vector<std::vector<KindSequence>> choices = line_choices(partition, rules);
  DomainPart part{partition.lines, std::vector<KindSequence>(partition.lines.size())};
  // Depth-first over the fixed lines, pruned by the vehicles of the lines fixed so far: the
  // limits bound the totals, and the free lines may hold no vehicle at all. Returns false
  // once visit has asked to stop.
  const auto descend = [&](const auto& self, std::size_t k, int cars, int trucks) -> bool {
    if (!rules.limits().allows(cars, trucks)) return true;
    if (k == choices.size()) return visit(part);
    for (const KindSequence& kinds : choices[k]) {
      part.sequences[k] = kinds;
      if (!self(self, k + 1, cars + cars_in(kinds), trucks + trucks_in(kinds))) return false;
    }
    return true;
  };
  descend(descend, 0, 0, 0);
}

std::vector<DomainPart> parts_of(const Partition& partition, const Rules& rules) {
  std::vector<DomainPart> parts;
  for_each_part(partition, rules, [&](const DomainPart& part) {
    parts.push_back(part);
    return true;
  });
  return parts;
}

std::uint64_t count_parts(const Partition& partition, const Rules& rules) {
  std::uint64_t count = 0;
  for_each_part(partition, rules, [&](const DomainPart&) {
    ++count;
    return true;
  });
  return count;
}

DomainPart part_of(const Partition& partition, const Board& board) {
  const std::vector<std::vector<Segment>> segments = line_segments(board);
  DomainPart part{partition.lines, {}};
  for (int line : partition.lines) part.sequences.push_back(kinds_of(segments[static_cast<std::size_t>(line)]));
  return part;
}

PartNumbering::PartNumbering(const Partition& partition, const Rules& rules)
    : lines_(partition.lines), choices_(line_choices(partition, rules)) {
  for (const auto& line : choices_) slots_ *= line.size();
}

std::uint64_t PartNumbering::number(const DomainPart& part) const {
  if (part.sequences.size() != choices_.size()) throw std::logic_error("a part of another partition");
  std::uint64_t number = 0;
  for (std::size_t k = 0; k < choices_.size(); ++k) {
    const auto& line = choices_[k];
    const auto it = std::find(line.begin(), line.end(), part.sequences[k]);
    if (it == line.end()) throw std::logic_error("a part fixes a kind sequence its line cannot hold");
    number = number * line.size() + static_cast<std::uint64_t>(it - line.begin());
  }
  return number;
}

DomainPart PartNumbering::part(std::uint64_t number) const {
  if (number >= slots_) throw std::logic_error("a part number beyond the partition's");
  DomainPart part{lines_, std::vector<KindSequence>(choices_.size())};
  for (std::size_t k = choices_.size(); k-- > 0;) {
    const auto& line = choices_[k];
    part.sequences[k] = line[number % line.size()];
    number /= line.size();
  }
  return part;
}

}  // namespace rushhour
