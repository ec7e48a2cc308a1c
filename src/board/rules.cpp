#include "board/rules.hpp"

#include <algorithm>

#include "board/errors.hpp"

namespace rushhour {

std::string to_string(Metric metric) { return metric == Metric::Step ? "step" : "move"; }

Metric parse_metric(const std::string& text) {
  if (text == "step") return Metric::Step;
  if (text == "move") return Metric::Move;
  throw InputError("unknown metric '" + text + "' (expected step or move)");
}

std::string to_string(Domain domain) { return domain == Domain::All ? "all" : "puzzle"; }

Domain parse_domain(const std::string& text) {
  if (text == "all") return Domain::All;
  if (text == "puzzle") return Domain::Puzzle;
  throw InputError("unknown domain '" + text + "' (expected all or puzzle)");
}

std::string to_string(const WallRange& walls) {
  if (walls.min == 0) return std::to_string(walls.max);
  return std::to_string(walls.min) + "-" + std::to_string(walls.max);
}

std::vector<std::uint64_t> wall_placements(int n, const WallRange& walls) {
  std::vector<std::uint64_t> placements;
  const int cells = n * n;
  auto place = [&](auto& self, int from, int left, std::uint64_t mask) -> void {
    if (left == 0) {
      placements.push_back(mask);
      return;
    }
    for (int cell = from; cell <= cells - left; ++cell) self(self, cell + 1, left - 1, mask | std::uint64_t{1} << cell);
  };
  for (int count = walls.min; count <= std::min(walls.max, cells); ++count) place(place, 0, count, 0);
  std::sort(placements.begin(), placements.end());
  return placements;
}

WallRange parse_wall_range(const std::string& text) {
  const auto number = [&](const std::string& part) {
    if (part.empty() || part.size() > 4 || part.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("wall range '" + text + "' is not K or A-B (numbers of walls)");
    return std::stoi(part);
  };
  const auto dash = text.find('-');
  const WallRange walls = dash == std::string::npos ? WallRange{0, number(text)}
                                                    : WallRange{number(text.substr(0, dash)), number(text.substr(dash + 1))};
  if (walls.min > walls.max)
    throw InputError("wall range '" + text + "' is empty (" + std::to_string(walls.min) + " > " +
                     std::to_string(walls.max) + ")");
  return walls;
}

Rules::Rules(int size, int exit_row, Metric metric, VehicleLimits limits, Domain domain, WallRange walls)
    : size_(size), exit_row_(exit_row < 0 ? (size - 1) / 2 : exit_row), metric_(metric),
      limits_(limits), domain_(domain), walls_(walls) {
  if (size < kMinSize || size > kMaxSize)
    throw InputError("board size " + std::to_string(size) + " is outside " +
                     std::to_string(kMinSize) + ".." + std::to_string(kMaxSize));
  // -1 asks for the default; any other negative row is a mistake, not a request for it.
  if (exit_row_ >= size || exit_row < -1)
    throw InputError("exit row " + std::to_string(exit_row) + " is outside the board (rows 0.." +
                     std::to_string(size - 1) + ")");
  for (int limit : {limits.max_cars, limits.max_trucks, limits.max_vehicles})
    if (limit < -1) throw InputError("a vehicle limit must be >= 0 (or -1 for none)");
  if (limits.max_cars == 0 || limits.max_vehicles == 0)
    throw InputError("the vehicle limits leave no room for the target car");
  if (walls.min < 0 || walls.min > walls.max)
    throw InputError("wall range " + std::to_string(walls.min) + "-" + std::to_string(walls.max) + " is empty");
  // The target car covers two cells, so at most cells - 2 walls fit.
  if (walls.max > size * size - 2)
    throw InputError(std::to_string(walls.max) + " walls do not fit on a " + std::to_string(size) + "x" +
                     std::to_string(size) + " board beside the target car (at most " +
                     std::to_string(size * size - 2) + ")");
}

std::string Rules::describe() const {
  std::string text = std::to_string(size_) + "x" + std::to_string(size_) + ", exit row " +
                     std::to_string(exit_row_) + ", " + to_string(metric_) + " metric";
  if (domain_ == Domain::Puzzle) text += ", puzzle domain";
  if (!walls_.none())
    text += (walls_.min == 0 ? ", up to " + std::to_string(walls_.max) : ", " + to_string(walls_)) +
            (walls_.max == 1 ? " wall" : " walls");
  if (limits_.unlimited()) return text + ", no vehicle limits";
  if (limits_.max_cars >= 0) text += ", <= " + std::to_string(limits_.max_cars) + " cars";
  if (limits_.max_trucks >= 0) text += ", <= " + std::to_string(limits_.max_trucks) + " trucks";
  if (limits_.max_vehicles >= 0)
    text += ", <= " + std::to_string(limits_.max_vehicles) + " vehicles";
  return text;
}

}  // namespace rushhour
