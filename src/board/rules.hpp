#pragma once
// The game's parameters (SPEC §2): board size, exit row, metric, vehicle limits, domain and walls.
// A Rules value is validated on construction and immutable afterwards.
#include <cstdint>
#include <string>
#include <vector>

namespace rushhour {

inline constexpr int kMinSize = 2;
inline constexpr int kMaxSize = 8;  // 64 cells: occupancy fits one uint64_t

enum class Metric : std::uint8_t { Step, Move };

std::string to_string(Metric metric);
Metric parse_metric(const std::string& text);  // throws InputError
// What a metric is to every engine: one move slides one vehicle along its line over free cells,
// by 1 up to longest_slide(metric, size) cells (a car on an empty line can slide size - 2).
// Engines ask this instead of testing the metric.
inline int longest_slide(Metric metric, int size) { return metric == Metric::Step ? 1 : size - 2; }

// The metric that is not `metric` (a move is a run of steps, a step is a move).
inline Metric other_metric(Metric metric) { return metric == Metric::Step ? Metric::Move : Metric::Step; }

// The configurations classified (SPEC §2): the whole domain, or the puzzle database's, where
// the exit row holds no horizontal vehicle but the target and no row (column) is completely
// filled by its own horizontal (vertical) vehicles. Moves keep both properties, so the puzzle
// domain is a union of components (and of classes: a row's kind sequence says both).
enum class Domain : std::uint8_t { All, Puzzle };

std::string to_string(Domain domain);          // "all", "puzzle"
Domain parse_domain(const std::string& text);  // throws InputError

// Limits on vehicle totals; -1 means no limit. They restrict the domain itself.
struct VehicleLimits {
  int max_cars = -1;
  int max_trucks = -1;
  int max_vehicles = -1;

  bool allows(int cars, int trucks) const {
    return (max_cars < 0 || cars <= max_cars) && (max_trucks < 0 || trucks <= max_trucks) &&
           (max_vehicles < 0 || cars + trucks <= max_vehicles);
  }
  bool unlimited() const { return max_cars < 0 && max_trucks < 0 && max_vehicles < 0; }
  friend bool operator==(const VehicleLimits&, const VehicleLimits&) = default;
};

// How many walls a configuration holds (SPEC §2): from `min` to `max`, on cells the vehicles
// leave free. Walls never move, so every wall placement is a closed part of the domain.
struct WallRange {
  int min = 0;
  int max = 0;

  bool none() const { return max == 0; }
  bool allows(int walls) const { return walls >= min && walls <= max; }
  friend bool operator==(const WallRange&, const WallRange&) = default;
};

std::string to_string(const WallRange& walls);            // "0", "2", "1-2"
WallRange parse_wall_range(const std::string& text);      // "K" = 0..K, "A-B"; throws InputError

// Every wall mask (bit row * n + column) of an n x n board with walls.min to walls.max walls,
// ascending: the engines' keys and work items number a configuration's walls by their position
// in this list ({0} without walls).
std::vector<std::uint64_t> wall_placements(int n, const WallRange& walls);

class Rules {
 public:
  // exit_row < 0 selects the default (size-1)/2. Throws InputError on bad values.
  explicit Rules(int size, int exit_row = -1, Metric metric = Metric::Step,
                 VehicleLimits limits = {}, Domain domain = Domain::All, WallRange walls = {});

  int size() const { return size_; }
  int exit_row() const { return exit_row_; }
  Metric metric() const { return metric_; }
  const VehicleLimits& limits() const { return limits_; }
  Domain domain() const { return domain_; }
  const WallRange& walls() const { return walls_; }
  int cells() const { return size_ * size_; }

  Rules with_metric(Metric metric) const { return Rules(size_, exit_row_, metric, limits_, domain_, walls_); }
  std::string describe() const;  // e.g. "6x6, exit row 2, step metric, no limits"

  friend bool operator==(const Rules&, const Rules&) = default;

 private:
  int size_;
  int exit_row_;
  Metric metric_;
  VehicleLimits limits_;
  Domain domain_;
  WallRange walls_;
};

}  // namespace rushhour
