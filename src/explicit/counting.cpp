#include "explicit/counting.hpp"

#include <algorithm>
#include <vector>

#include "board/board.hpp"
#include "board/lines.hpp"

namespace rushhour {
namespace {

// Generating polynomials in (cars, trucks, walls), stored densely. A vehicle dimension no
// limit depends on is not tracked (all its degrees fold into 0); a tracked one is truncated at
// its cap, which only drops monomials that the limits reject anyway, since counts never
// decrease. Walls are tracked up to the rules' most walls (none: only degree 0 exists).
class PolynomialShape {
 public:
  explicit PolynomialShape(const Rules& rules) : wall_cap_(rules.walls().max) {
    const VehicleLimits& limits = rules.limits();
    const int n = rules.size();
    car_cap_ = cap(limits.max_cars, limits.max_vehicles, n * n / kCar);
    truck_cap_ = cap(limits.max_trucks, limits.max_vehicles, n * n / kTruck);
  }

  std::size_t terms() const { return static_cast<std::size_t>((car_cap_ + 1) * (truck_cap_ + 1) * (wall_cap_ + 1)); }
  int car_cap() const { return car_cap_; }
  int truck_cap() const { return truck_cap_; }
  int wall_cap() const { return wall_cap_; }
  // Whether the monomial cars^c trucks^t walls^w survives the truncation.
  bool kept(int cars, int trucks, int walls) const {
    return (car_cap_ == 0 || cars <= car_cap_) && (truck_cap_ == 0 || trucks <= truck_cap_) && walls <= wall_cap_;
  }
  // Flat position of a kept monomial.
  std::size_t position(int cars, int trucks, int walls) const {
    const int c = car_cap_ == 0 ? 0 : cars;
    const int t = truck_cap_ == 0 ? 0 : trucks;
    return static_cast<std::size_t>((c * (truck_cap_ + 1) + t) * (wall_cap_ + 1) + walls);
  }

 private:
  // 0 = untracked; otherwise the largest degree any limit still allows.
  static int cap(int own_limit, int vehicle_limit, int geometric_bound) {
    if (own_limit < 0 && vehicle_limit < 0) return 0;
    int bound = geometric_bound;
    if (own_limit >= 0) bound = std::min(bound, own_limit);
    if (vehicle_limit >= 0) bound = std::min(bound, vehicle_limit);
    return std::max(bound, 1);  // a tracked dimension keeps degree 1 apart from degree 0
  }

  int car_cap_ = 0;
  int truck_cap_ = 0;
  int wall_cap_ = 0;
};

// A vertical arrangement's contribution: `multiplicity` arrangements with these counts.
struct Term {
  int cars;
  int trucks;
  Count multiplicity;
};

// The puzzle domain (SPEC §2) adds to the state one bit per row: whether some cell of the row
// so far is neither a horizontal vehicle's nor a wall (a row filled by them is outside the
// domain); its columns admit no arrangement that fills them, and its exit row holds the target
// car alone, with walls only to its left.
class ProfileCounter {
 public:
  explicit ProfileCounter(const Rules& rules)
      : n_(rules.size()), exit_row_(rules.exit_row()), puzzle_(rules.domain() == Domain::Puzzle), shape_(rules),
        lines_(rules.size()) {
    states_ = 1;
    for (int r = 1; r < n_; ++r) states_ *= 3;
    open_rows_ = puzzle_ ? std::size_t{1} << n_ : 1;
    // Column arrangements grouped by (cars, trucks), for every set of rows already covered.
    vertical_.resize(std::size_t{1} << n_);
    for (std::uint32_t covered = 0; covered < vertical_.size(); ++covered) {
      for (const LineArrangement& a : lines_.arrangements()) {
        if (a.occupied & covered) continue;
        if (puzzle_ && a.occupied == (std::uint32_t{1} << n_) - 1) continue;
        auto& terms = vertical_[covered];
        auto it = std::find_if(terms.begin(), terms.end(), [&](const Term& t) {
          return t.cars == a.cars && t.trucks == a.trucks;
        });
        if (it == terms.end())
          terms.push_back({a.cars, a.trucks, 1});
        else
          ++it->multiplicity;
      }
    }
  }

  const LineTable& lines() const { return lines_; }

  // Generating polynomial of all placements whose exit row holds `exit_arrangement`
  // (its own vehicles included), walls included when the rules allow them; in the puzzle
  // domain, of its configurations (the arrangement must then be the target car alone).
  std::vector<Count> with_exit_row(const LineArrangement& exit_arrangement) const {
    const std::size_t terms = shape_.terms();
    const std::size_t states = states_ * open_rows_;
    std::vector<Count> current(states * terms, 0), next(states * terms, 0);
    if (!shape_.kept(exit_arrangement.cars, exit_arrangement.trucks, 0))
      return std::vector<Count>(terms, 0);
    current[shape_.position(exit_arrangement.cars, exit_arrangement.trucks, 0)] =
        1;  // state 0: no row is mid-vehicle (and none has an open cell yet)
    const int target_start = exit_arrangement.segments.empty() ? n_ : exit_arrangement.segments.back().start;
    for (int col = 0; col < n_; ++col) {
      std::fill(next.begin(), next.end(), 0);
      const bool exit_vehicle = (exit_arrangement.occupied >> col & 1) != 0;
      const std::uint32_t exit_bit = std::uint32_t{1} << exit_row_;
      for (std::size_t state = 0; state < states; ++state) {
        const Count* poly = &current[state * terms];
        if (std::all_of(poly, poly + terms, [](Count x) { return x == 0; })) continue;
        const std::size_t profile = state % states_;
        const auto open = static_cast<std::uint32_t>(state / states_);
        extend(col, profile, poly, 0, 0, 1, exit_vehicle ? exit_bit : 0,
               open | (exit_vehicle || !puzzle_ ? 0 : exit_bit), {}, next);
        // A wall on the exit row's free cell (in the puzzle domain, left of the target only).
        if (!exit_vehicle && shape_.wall_cap() > 0 && (!puzzle_ || col < target_start))
          extend(col, profile, poly, 0, 0, 1, exit_bit, open, {0, 0, 1}, next);
      }
      std::swap(current, next);
    }
    // Every row done; in the puzzle domain every row open.
    const std::size_t done = states_ * (open_rows_ - 1);
    return std::vector<Count>(current.begin() + static_cast<std::ptrdiff_t>(done * terms),
                              current.begin() + static_cast<std::ptrdiff_t>((done + 1) * terms));
  }

 private:
  // What a column adds: vehicles started in it and walls.
  struct Added {
    int cars = 0, trucks = 0, walls = 0;
  };

  // Chooses, row by row (state digit `digit` onward), what covers column `col`, building the
  // successor state `target` (digit weight `weight`), the covered rows, the open rows (the
  // puzzle domain's) and what is added.
  void extend(int col, std::size_t state, const Count* poly, int digit, std::size_t target,
              std::size_t weight, std::uint32_t covered, std::uint32_t open, Added added,
              std::vector<Count>& next) const {
    if (digit == n_ - 1) {
      accumulate(poly, target + states_ * open, covered, added, next);
      return;
    }
    const int row = digit < exit_row_ ? digit : digit + 1;
    const std::uint32_t row_bit = std::uint32_t{1} << row;
    const int remaining = static_cast<int>(state % 3);
    const std::size_t rest = state / 3;
    if (remaining > 0) {
      extend(col, rest, poly, digit + 1, target + weight * static_cast<std::size_t>(remaining - 1),
             weight * 3, covered | row_bit, open, added, next);
      return;
    }
    extend(col, rest, poly, digit + 1, target, weight * 3, covered, puzzle_ ? open | row_bit : open, added, next);
    if (col + kCar <= n_)
      extend(col, rest, poly, digit + 1, target + weight * (kCar - 1), weight * 3,
             covered | row_bit, open, {added.cars + 1, added.trucks, added.walls}, next);
    if (col + kTruck <= n_)
      extend(col, rest, poly, digit + 1, target + weight * (kTruck - 1), weight * 3,
             covered | row_bit, open, {added.cars, added.trucks + 1, added.walls}, next);
    // A wall covers the cell like a vehicle of the row, and ends in it.
    if (added.walls < shape_.wall_cap())
      extend(col, rest, poly, digit + 1, target, weight * 3, covered | row_bit, open,
             {added.cars, added.trucks, added.walls + 1}, next);
  }

  void accumulate(const Count* poly, std::size_t target, std::uint32_t covered, Added added,
                  std::vector<Count>& next) const {
    Count* out = &next[target * shape_.terms()];
    for (const Term& v : vertical_[covered]) {
      const int add_cars = added.cars + v.cars;
      const int add_trucks = added.trucks + v.trucks;
      if (shape_.wall_cap() == 0) {
        // Without walls the loops over (cars, trucks) alone, as tight as they can be: the
        // counter's inner loop, at every size up to 8x8.
        const int trucks = shape_.truck_cap() + 1;
        const int car_step = shape_.car_cap() == 0 ? 0 : add_cars;
        const int truck_step = shape_.truck_cap() == 0 ? 0 : add_trucks;
        for (int c = 0; c + car_step <= shape_.car_cap(); ++c)
          for (int t = 0; t + truck_step <= shape_.truck_cap(); ++t) {
            const Count x = poly[c * trucks + t];
            if (x == 0) continue;
            Count& sum = out[(c + car_step) * trucks + t + truck_step];
            sum = checked_add(sum, checked_mul(x, v.multiplicity));
          }
        continue;
      }
      for (int c = 0; c <= shape_.car_cap(); ++c)
        for (int t = 0; t <= shape_.truck_cap(); ++t)
          for (int w = 0; w + added.walls <= shape_.wall_cap(); ++w) {
            const Count x = poly[shape_.position(c, t, w)];
            if (x == 0) continue;
            if (!shape_.kept(c + add_cars, t + add_trucks, w + added.walls)) continue;
            Count& sum = out[shape_.position(c + add_cars, t + add_trucks, w + added.walls)];
            sum = checked_add(sum, checked_mul(x, v.multiplicity));
          }
    }
  }

  int n_;
  int exit_row_;
  bool puzzle_;
  PolynomialShape shape_;
  LineTable lines_;
  std::size_t states_;        // the profiles: a digit 0..2 per row but the exit row
  std::size_t open_rows_ = 1;  // the puzzle domain: 2^n sets of open rows, else one
  std::vector<std::vector<Term>> vertical_;  // indexed by the rows covered horizontally
};

// Per number of walls w (0 .. the rules' most walls): the configurations with exactly w.
std::vector<PlacementCounts> counts_by_walls(const Rules& rules) {
  const ProfileCounter counter(rules);
  const PolynomialShape shape(rules);
  const int n = rules.size();
  std::vector<PlacementCounts> by_walls(static_cast<std::size_t>(shape.wall_cap()) + 1);
  for (const LineArrangement& exit : counter.lines().arrangements()) {
    const std::vector<Count> poly = counter.with_exit_row(exit);
    for (int w = 0; w <= shape.wall_cap(); ++w) {
      Count total = 0;
      for (int c = 0; c <= shape.car_cap(); ++c)
        for (int t = 0; t <= shape.truck_cap(); ++t)
          if (rules.limits().allows(c, t)) total = checked_add(total, poly[shape.position(c, t, w)]);
      PlacementCounts& counts = by_walls[static_cast<std::size_t>(w)];
      counts.placements = checked_add(counts.placements, total);
      if (exit.segments.empty() || exit.segments.back().length != kCar) continue;
      if (rules.domain() == Domain::Puzzle && exit.segments.size() != 1) continue;
      counts.domain += total;
      if (exit.segments.back().start == n - kCar) counts.winning += total;
    }
  }
  return by_walls;
}

}  // namespace

PlacementCounts count_placements(const Rules& rules, std::vector<PlacementCounts>* by_walls) {
  std::vector<PlacementCounts> per_walls = counts_by_walls(rules);
  if (rules.domain() == Domain::Puzzle) {
    // The puzzle domain restricts the domain and winning sets; placements are all of them.
    const std::vector<PlacementCounts> all =
        counts_by_walls(Rules(rules.size(), rules.exit_row(), rules.metric(), rules.limits(), Domain::All, rules.walls()));
    for (std::size_t w = 0; w < per_walls.size(); ++w) per_walls[w].placements = all[w].placements;
  }
  PlacementCounts sum;
  for (int w = rules.walls().min; w <= rules.walls().max; ++w) {
    const PlacementCounts& counts = per_walls[static_cast<std::size_t>(w)];
    sum.placements = checked_add(sum.placements, counts.placements);
    sum.domain = checked_add(sum.domain, counts.domain);
    sum.winning = checked_add(sum.winning, counts.winning);
  }
  if (by_walls != nullptr) *by_walls = std::move(per_walls);
  return sum;
}

}  // namespace rushhour
