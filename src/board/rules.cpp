#include "board/rules.hpp"

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

Rules::Rules(int size, int exit_row, Metric metric, VehicleLimits limits, Domain domain)
    : size_(size), exit_row_(exit_row < 0 ? (size - 1) / 2 : exit_row), metric_(metric),
      limits_(limits), domain_(domain) {
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
}

std::string Rules::describe() const {
  std::string text = std::to_string(size_) + "x" + std::to_string(size_) + ", exit row " +
                     std::to_string(exit_row_) + ", " + to_string(metric_) + " metric";
  if (domain_ == Domain::Puzzle) text += ", puzzle domain";
  if (limits_.unlimited()) return text + ", no vehicle limits";
  if (limits_.max_cars >= 0) text += ", <= " + std::to_string(limits_.max_cars) + " cars";
  if (limits_.max_trucks >= 0) text += ", <= " + std::to_string(limits_.max_trucks) + " trucks";
  if (limits_.max_vehicles >= 0)
    text += ", <= " + std::to_string(limits_.max_vehicles) + " vehicles";
  return text;
}

}  // namespace rushhour
