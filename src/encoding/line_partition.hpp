#pragma once
// Parts of the domain by line kind sequences.
//
// The kind sequence of a line is the sequence of its vehicles' kinds (car, truck) in order
// along it. No step or move changes the kind sequence of any row (its horizontal vehicles) or
// column (its vertical vehicles): vehicles never pass each other and never turn. Fixing the
// kind sequences of some lines therefore cuts the domain into parts that are unions of whole
// components, closed under moves. Every index, every count per index and every dominance
// figure of the domain is the sum of the parts' (a shortest path and a component stay inside
// one part), so each part can be classified on its own, with its own, smaller BDDs.
//
// A Partition names the lines whose kind sequences it fixes; its parts are every choice of
// one kind sequence per fixed line, except those that hold no configuration of the domain by
// the fixed lines alone (an exit row whose last vehicle is not a car; fixed lines holding
// more vehicles than the limits allow).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/lines.hpp"
#include "board/rules.hpp"

namespace rushhour {

// Vehicle lengths along a line (kCar, kTruck), in order.
using KindSequence = std::vector<int>;

KindSequence kind_sequence(const LineArrangement& arrangement);
// The kind sequences of a line's arrangements, each once, in order of their first
// arrangement in `table` (the empty sequence first).
std::vector<KindSequence> kind_sequences(const LineTable& table);

// A part: the kind sequence of each fixed line; every other line is free.
struct DomainPart {
  std::vector<int> lines;               // ascending; 0..n-1 rows, n..2n-1 columns
  std::vector<KindSequence> sequences;  // one per line of `lines`

  bool whole() const { return lines.empty(); }
  // The sequence fixed for `line`, or nullptr if the line is free.
  const KindSequence* fixed(int line) const;
  bool admits(int line, const LineArrangement& arrangement) const;
  bool contains(const Board& board) const;
  // "whole", or the fixed lines as e.g. "R0=ct,R2=c,C1=-" (c car, t truck, - empty line).
  std::string name(int size) const;
  friend bool operator==(const DomainPart&, const DomainPart&) = default;
};

struct Partition {
  std::string name;        // as parsed
  std::vector<int> lines;  // the lines it fixes, ascending

  bool whole() const { return lines.empty(); }
};

// The partition names: "none" (the whole domain), "exit-row", "rows", "rows+K" (the rows and
// the first K columns, 1 <= K <= n), "lines:R2,R1,C0" (the lines named: R rows, C columns,
// numbered from 0; the name is rewritten with the lines in ascending order). Throws
// InputError naming the choices.
Partition parse_partition(const std::string& name, const Rules& rules);

// Calls visit(part) for the parts of `partition` in a fixed order, until visit returns false:
// lexicographic over the fixed lines in ascending order, each line's sequences in
// kind_sequences order. Holds one part at a time (6x6 rows+2 has 8.4 million).
void for_each_part(const Partition& partition, const Rules& rules,
                   const std::function<bool(const DomainPart&)>& visit);
// The same parts, as a list; and how many there are.
std::vector<DomainPart> parts_of(const Partition& partition, const Rules& rules);
std::uint64_t count_parts(const Partition& partition, const Rules& rules);

// The part of `partition` that `board` lies in.
DomainPart part_of(const Partition& partition, const Board& board);

// A part's number: the choices of its fixed lines (each line's index among the kind sequences
// it may hold) as the digits of a mixed-radix number, the first fixed line most significant.
// It follows from the part alone (so from a board, by part_of), unlike its position in
// for_each_part, which skips the parts the vehicle limits exclude. Numbers are below slots().
class PartNumbering {
 public:
  PartNumbering(const Partition& partition, const Rules& rules);
  std::uint64_t number(const DomainPart& part) const;
  // The part of a number (below slots()), whether or not the limits exclude it.
  DomainPart part(std::uint64_t number) const;
  std::uint64_t slots() const { return slots_; }

 private:
  std::vector<int> lines_;
  std::vector<std::vector<KindSequence>> choices_;
  std::uint64_t slots_ = 1;
};

}  // namespace rushhour
