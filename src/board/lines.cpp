#include "board/lines.hpp"

#include <algorithm>

namespace rushhour {
namespace {

void enumerate(int length, int from, LineArrangement& partial, std::vector<LineArrangement>& out) {
  if (from >= length) {
    out.push_back(partial);
    return;
  }
  enumerate(length, from + 1, partial, out);  // cell `from` stays empty
  for (int len : {2, 3}) {
    if (from + len > length) continue;
    partial.segments.push_back({from, len});
    const std::uint32_t bits = ((1u << len) - 1) << from;
    partial.occupied |= bits;
    (len == 2 ? partial.cars : partial.trucks) += 1;
    enumerate(length, from + len, partial, out);
    (len == 2 ? partial.cars : partial.trucks) -= 1;
    partial.occupied &= ~bits;
    partial.segments.pop_back();
  }
}

}  // namespace

LineTable::LineTable(int length) : length_(length) {
  LineArrangement empty;
  enumerate(length, 0, empty, arrangements_);
  moves_.resize(arrangements_.size());
  for (std::size_t a = 0; a < arrangements_.size(); ++a) {
    const LineArrangement& from = arrangements_[a];
    for (std::size_t s = 0; s < from.segments.size(); ++s) {
      const Segment seg = from.segments[s];
      const std::uint32_t others = from.occupied & ~(((1u << seg.length) - 1) << seg.start);
      for (int direction : {-1, +1}) {
        std::uint32_t swept = 0;
        for (int d = 1;; ++d) {
          const int entered = direction > 0 ? seg.start + seg.length - 1 + d : seg.start - d;
          if (entered < 0 || entered >= length || (others >> entered & 1)) break;
          swept |= 1u << entered;
          std::vector<Segment> segments = from.segments;
          segments[s].start += direction * d;
          moves_[a].push_back({find(segments), swept, d});
        }
      }
    }
  }
}

int LineTable::find(const std::vector<Segment>& segments) const {
  const auto it = std::find_if(arrangements_.begin(), arrangements_.end(),
                               [&](const LineArrangement& a) { return a.segments == segments; });
  return it == arrangements_.end() ? -1 : static_cast<int>(it - arrangements_.begin());
}

int LineTable::reversed(int index) const {
  std::vector<Segment> back;
  const std::vector<Segment>& segments = arrangements_[static_cast<std::size_t>(index)].segments;
  for (auto s = segments.rbegin(); s != segments.rend(); ++s) back.push_back({length_ - s->start - s->length, s->length});
  return find(back);
}

std::vector<std::vector<Segment>> line_segments(const Board& board) {
  const int n = board.size();
  std::vector<std::vector<Segment>> segments(static_cast<std::size_t>(2 * n));
  // Board keeps its vehicles sorted by first cell: each line's come in order along it.
  for (const Vehicle& v : board.vehicles())
    (v.horizontal() ? segments[static_cast<std::size_t>(v.row)]
                    : segments[static_cast<std::size_t>(n + v.col)])
        .push_back({v.horizontal() ? v.col : v.row, v.length});
  return segments;
}

LineArrangement arrangement_of(std::vector<Segment> segments) {
  LineArrangement arrangement{.segments = std::move(segments)};
  for (const Segment& s : arrangement.segments) {
    arrangement.occupied |= ((1u << s.length) - 1) << s.start;
    (s.length == kCar ? arrangement.cars : arrangement.trucks) += 1;
  }
  return arrangement;
}

PuzzleLine puzzle_line_fit(const LineArrangement& arrangement, int length, bool exit_row, std::uint32_t walls) {
  if (exit_row) {
    if (arrangement.segments.size() != 1 || arrangement.segments.front().length != kCar) return PuzzleLine::ExitRowShared;
    if ((walls >> arrangement.segments.front().start) != 0) return PuzzleLine::WallRightOfTarget;
  }
  if ((arrangement.occupied | walls) == (std::uint32_t{1} << length) - 1) return PuzzleLine::Filled;
  return PuzzleLine::Fits;
}

void append_line_vehicles(const LineArrangement& arrangement, int line, int size,
                          std::vector<Vehicle>& vehicles) {
  for (const Segment& s : arrangement.segments)
    vehicles.push_back(line < size ? Vehicle{line, s.start, Orientation::Horizontal, s.length}
                                   : Vehicle{s.start, line - size, Orientation::Vertical, s.length});
}

}  // namespace rushhour
