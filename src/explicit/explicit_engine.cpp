#include "explicit/explicit_engine.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "explicit/counting.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour {
namespace {

constexpr std::uint8_t kUnreached = 0xFF;  // index byte of a state no layer has reached
constexpr int kMaxStoredIndex = kUnreached - 1;

// The lookup table is indexed by the leading bits of a key: about one bucket per two states,
// at most 2^22 buckets (16 MiB).
constexpr int kMaxBucketBits = 22;

// Runs work(begin, end) over [0, total) in chunks on every hardware thread and returns the
// sum of what the calls return. The first exception thrown by a call is rethrown here.
template <class Work>
std::uint64_t parallel_sum(std::size_t total, const Work& work) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> sum{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run = [&] {
    try {
      std::uint64_t mine = 0;
      for (std::size_t begin; (begin = next.fetch_add(kChunk)) < total;)
        mine += work(begin, std::min(begin + kChunk, total));
      sum += mine;
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = total;  // let the other threads stop early
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
  return sum;
}

}  // namespace

struct ExplicitSolution::Lines {
  std::array<int, 2 * kMaxExplicitSize> arrangement{};
  // For row i: the columns whose vertical vehicles cover row i; for column j: the rows whose
  // horizontal vehicles cover column j. A vehicle may only slide over cells not in it.
  std::array<std::uint32_t, 2 * kMaxExplicitSize> crossing{};
};

ExplicitSolution::ExplicitSolution(const Rules& rules)
    : rules_(rules), lines_(rules.size()), n_(rules.size()), bits_(1),
      placements_(wall_placements(rules.size(), rules.walls())) {
  while ((1 << bits_) < lines_.size()) ++bits_;
  while ((std::size_t{1} << placement_bits_) < placements_.size()) ++placement_bits_;
}

void check_explicit_walls(const Rules& rules) {
  if (!rules.walls().none() && rules.size() > kMaxExplicitWallSize)
    throw InputError("the explicit engine supports walls up to " + std::to_string(kMaxExplicitWallSize) + "x" +
                     std::to_string(kMaxExplicitWallSize) + " (got " + std::to_string(rules.size()) + "x" +
                     std::to_string(rules.size()) + ")");
}

ExplicitSolution ExplicitSolution::solve(const Rules& rules, const LayerCallback& on_layer) {
  if (rules.size() > kMaxExplicitSize)
    throw InputError("the explicit engine supports sizes up to " +
                     std::to_string(kMaxExplicitSize) + " (got " + std::to_string(rules.size()) +
                     ")");
  check_explicit_walls(rules);
  const auto start = std::chrono::steady_clock::now();
  ExplicitSolution solution(rules);
  solution.enumerate_domain();
  solution.build_buckets();
  solution.classify(on_layer);
  solution.seconds_ = seconds_since(start);
  return solution;
}

ExplicitSolution::Lines ExplicitSolution::decode(std::uint64_t key) const {
  Lines lines;
  const std::uint64_t field = (std::uint64_t{1} << bits_) - 1;
  for (int line = 0; line < 2 * n_; ++line)
    lines.arrangement[static_cast<std::size_t>(line)] =
        static_cast<int>(key >> shift(line) & field);
  for (int i = 0; i < n_; ++i) {
    const std::uint32_t row = lines_[lines.arrangement[static_cast<std::size_t>(i)]].occupied;
    for (int j = 0; j < n_; ++j) {
      const std::uint32_t column =
          lines_[lines.arrangement[static_cast<std::size_t>(n_ + j)]].occupied;
      lines.crossing[static_cast<std::size_t>(i)] |= (column >> i & 1u) << j;
      lines.crossing[static_cast<std::size_t>(n_ + j)] |= (row >> j & 1u) << i;
    }
  }
  // A wall crosses both of its lines.
  for (std::uint64_t walls = walls_of(key); walls != 0; walls &= walls - 1) {
    const int cell = std::countr_zero(walls);
    lines.crossing[static_cast<std::size_t>(cell / n_)] |= 1u << (cell % n_);
    lines.crossing[static_cast<std::size_t>(n_ + cell % n_)] |= 1u << (cell / n_);
  }
  return lines;
}

template <class Visit>
void ExplicitSolution::for_each_neighbour(std::uint64_t key, Metric metric, Visit&& visit) const {
  const Lines lines = decode(key);
  for (int line = 0; line < 2 * n_; ++line) {
    const int from = lines.arrangement[static_cast<std::size_t>(line)];
    for (const LineMove& move : lines_.moves(from)) {
      if (move.distance > longest_slide(metric, n_)) continue;
      if (move.swept & lines.crossing[static_cast<std::size_t>(line)]) continue;
      // Unsigned wrap-around makes a negative difference come out right.
      visit(key + (static_cast<std::uint64_t>(move.to - from) << shift(line)));
    }
  }
}

void ExplicitSolution::enumerate_domain() {
  const int exit_row = rules_.exit_row();
  const VehicleLimits& limits = rules_.limits();
  const std::uint32_t full_line = (std::uint32_t{1} << n_) - 1;
  // Vertical arrangements by the set of rows already covered (by vehicles or walls) in their
  // column, ascending, so that keys come out in increasing order.
  // The puzzle domain keeps the lines puzzle_line allows.
  const bool puzzle = rules_.domain() == Domain::Puzzle;
  std::vector<std::vector<int>> compatible(std::size_t{1} << n_);
  for (std::uint32_t covered = 0; covered < compatible.size(); ++covered)
    for (int a = 0; a < lines_.size(); ++a)
      if (!(lines_[a].occupied & covered) && (!puzzle || puzzle_line(lines_[a], n_, false)))
        compatible[covered].push_back(a);
  // The arrangements a row may hold beside its walls: not on them, in the puzzle domain those
  // puzzle_line allows beside them; the exit row's must end in a car (the target).
  const auto row_choices = [&](std::uint32_t walls, bool in_exit_row) {
    std::vector<int> choices;
    for (int a = 0; a < lines_.size(); ++a) {
      const LineArrangement& arrangement = lines_[a];
      if ((arrangement.occupied & walls) || (puzzle && !puzzle_line(arrangement, n_, in_exit_row, walls))) continue;
      if (in_exit_row && (arrangement.segments.empty() || arrangement.segments.back().length != kCar)) continue;
      choices.push_back(a);
    }
    return choices;
  };

  // The count comes first so that a domain too large for this engine fails at once (for the
  // puzzle domain it is the count of the whole domain, a bound).
  const Count domain = count_placements(rules_).domain;
  if (domain > kMaxExplicitStates)
    throw InputError("the explicit engine handles at most " + std::to_string(kMaxExplicitStates) +
                     " configurations; " + rules_.describe() + " has " + to_string(domain) +
                     " (set vehicle limits, or use the bdd engine)");
  keys_.clear();
  keys_.reserve(static_cast<std::size_t>(domain));
  using Covered = std::array<std::uint32_t, kMaxExplicitSize>;  // per column: rows covered
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(n_));
  for (std::size_t placement = 0; placement < placements_.size(); ++placement) {
    const std::uint64_t walls = placements_[placement];
    Covered wall_cover{};
    for (int i = 0; i < n_; ++i) {
      const auto row_walls = static_cast<std::uint32_t>(walls >> (i * n_)) & full_line;
      rows[static_cast<std::size_t>(i)] = row_choices(row_walls, i == exit_row);
      for (int j = 0; j < n_; ++j) wall_cover[static_cast<std::size_t>(j)] |= (row_walls >> j & 1u) << i;
    }
    auto extend = [&](auto& self, int line, std::uint64_t key, int cars, int trucks,
                      const Covered& covered) -> void {
      if (line == 2 * n_) {
        keys_.push_back(key);
        return;
      }
      const std::vector<int>& choices = line >= n_ ? compatible[covered[static_cast<std::size_t>(line - n_)]]
                                                   : rows[static_cast<std::size_t>(line)];
      for (int a : choices) {
        const LineArrangement& arrangement = lines_[a];
        // Counts only grow deeper down, so a violated limit prunes the whole subtree.
        if (!limits.allows(cars + arrangement.cars, trucks + arrangement.trucks)) continue;
        Covered next = covered;
        if (line < n_)
          for (int j = 0; j < n_; ++j)
            next[static_cast<std::size_t>(j)] |= (arrangement.occupied >> j & 1u) << line;
        self(self, line + 1, key << bits_ | static_cast<std::uint64_t>(a), cars + arrangement.cars,
             trucks + arrangement.trucks, next);
      }
    };
    extend(extend, 0, static_cast<std::uint64_t>(placement), 0, 0, wall_cover);
  }
}

void ExplicitSolution::build_buckets() {
  int bucket_bits = 1;
  while (bucket_bits < kMaxBucketBits && (std::uint64_t{2} << bucket_bits) < keys_.size())
    ++bucket_bits;
  bucket_shift_ = std::max(0, key_bits() - bucket_bits);
  const std::uint64_t buckets = (std::uint64_t{1} << (key_bits() - bucket_shift_));
  bucket_start_.assign(buckets + 1, static_cast<std::uint32_t>(keys_.size()));
  std::size_t state = 0;
  for (std::uint64_t b = 0; b < buckets; ++b) {
    bucket_start_[b] = static_cast<std::uint32_t>(state);
    while (state < keys_.size() && keys_[state] >> bucket_shift_ == b) ++state;
  }
}

std::optional<std::size_t> ExplicitSolution::locate(std::uint64_t key) const {
  const std::uint64_t bucket = key >> bucket_shift_;
  if (bucket + 1 >= bucket_start_.size()) return std::nullopt;
  const auto first = keys_.begin() + static_cast<std::ptrdiff_t>(bucket_start_[bucket]);
  const auto last = keys_.begin() + static_cast<std::ptrdiff_t>(bucket_start_[bucket + 1]);
  const auto it = std::lower_bound(first, last, key);
  if (it == last || *it != key) return std::nullopt;
  return static_cast<std::size_t>(it - keys_.begin());
}

void ExplicitSolution::classify(const LayerCallback& on_layer) {
  const Metric metric = rules_.metric();
  const std::size_t states = keys_.size();
  index_.assign(states, kUnreached);

  auto finish_layer = [&](std::uint64_t count, std::chrono::steady_clock::time_point start) {
    layers_.push_back({count, 0, seconds_since(start)});
    if (on_layer) on_layer(static_cast<int>(layers_.size()) - 1, layers_.back());
  };

  auto start = std::chrono::steady_clock::now();
  const int exit_shift = shift(rules_.exit_row());
  const std::uint64_t field = (std::uint64_t{1} << bits_) - 1;
  std::uint64_t winning = 0;
  for (std::size_t s = 0; s < states; ++s) {
    const Segment target = lines_[static_cast<int>(keys_[s] >> exit_shift & field)].segments.back();
    if (target.start == n_ - kCar) {
      index_[s] = 0;
      ++winning;
    }
  }
  finish_layer(winning, start);

  std::uint64_t classified = winning;
  for (int k = 0;; ++k) {
    start = std::chrono::steady_clock::now();
    const auto current = static_cast<std::uint8_t>(k);
    // After index 254 the layer is only counted: writing kUnreached over kUnreached changes
    // nothing, and a non-zero count means some index does not fit.
    const auto reached = static_cast<std::uint8_t>(k + 1);
    // Threads only ever turn kUnreached into k + 1; the compare-exchange decides which thread
    // counts a state reached from two sides.
    const std::uint64_t count = parallel_sum(states, [&](std::size_t begin, std::size_t end) {
      std::uint64_t found = 0;
      for (std::size_t s = begin; s < end; ++s) {
        if (std::atomic_ref(index_[s]).load(std::memory_order_relaxed) != current) continue;
        for_each_neighbour(keys_[s], metric, [&](std::uint64_t key) {
          const std::optional<std::size_t> t = locate(key);
          if (!t) throw std::logic_error("a move left the enumerated domain");
          std::atomic_ref byte(index_[*t]);
          std::uint8_t expected = kUnreached;
          if (byte.load(std::memory_order_relaxed) == kUnreached &&
              byte.compare_exchange_strong(expected, reached, std::memory_order_relaxed))
            ++found;
        });
      }
      return found;
    });
    if (count == 0) break;
    if (reached == kUnreached)
      throw std::runtime_error("an index exceeds " + std::to_string(kMaxStoredIndex) +
                               ", more than the explicit engine's one byte per state holds");
    classified += count;
    finish_layer(count, start);
  }
  unsolvable_ = states - classified;
}

Board ExplicitSolution::board(std::size_t state) const {
  const Lines lines = decode(keys_.at(state));
  std::vector<Vehicle> vehicles;
  for (int line = 0; line < 2 * n_; ++line)
    append_line_vehicles(lines_[lines.arrangement[static_cast<std::size_t>(line)]], line, n_, vehicles);
  return Board(n_, std::move(vehicles), walls_of(keys_[state]));
}

std::uint64_t ExplicitSolution::key_of(const Board& board) const {
  // find() asked in_domain first, so the board's walls are one of the placements.
  const auto placement = std::lower_bound(placements_.begin(), placements_.end(), board.walls());
  std::uint64_t key = static_cast<std::uint64_t>(placement - placements_.begin());
  for (const std::vector<Segment>& line : line_segments(board))
    key = key << bits_ | static_cast<std::uint64_t>(lines_.find(line));
  return key;
}

std::optional<std::size_t> ExplicitSolution::find(const Board& board) const {
  if (!in_domain(rules_, board)) return std::nullopt;
  return locate(key_of(board));
}

std::optional<int> ExplicitSolution::index(std::size_t state) const {
  const std::uint8_t value = index_.at(state);
  if (value == kUnreached) return std::nullopt;
  return value;
}

std::vector<std::size_t> ExplicitSolution::neighbours(std::size_t state, Metric metric) const {
  std::vector<std::size_t> result;
  for_each_neighbour(keys_.at(state), metric,
                     [&](std::uint64_t key) { result.push_back(locate(key).value()); });
  return result;
}

std::vector<std::uint32_t> ExplicitSolution::component_roots() const {
  // Concurrent union-find (link the larger root under the smaller with a compare-exchange,
  // halve paths on the way): each step edge {s, t} is united once, from s < t. Roots only
  // ever point to smaller states, so no cycle can form.
  std::vector<std::uint32_t> parent(keys_.size());
  for (std::size_t s = 0; s < parent.size(); ++s) parent[s] = static_cast<std::uint32_t>(s);
  auto find = [&](std::uint32_t x) {
    for (;;) {
      std::uint32_t p = std::atomic_ref(parent[x]).load(std::memory_order_relaxed);
      if (p == x) return x;
      const std::uint32_t grandparent = std::atomic_ref(parent[p]).load(std::memory_order_relaxed);
      if (grandparent != p)
        std::atomic_ref(parent[x]).compare_exchange_weak(p, grandparent, std::memory_order_relaxed);
      x = grandparent;
    }
  };
  parallel_sum(keys_.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s)
      for_each_neighbour(keys_[s], Metric::Step, [&](std::uint64_t key) {
        const std::size_t t = locate(key).value();
        if (t < s) return;
        std::uint32_t a = static_cast<std::uint32_t>(s), b = static_cast<std::uint32_t>(t);
        for (;;) {
          a = find(a);
          b = find(b);
          if (a == b) return;
          if (a < b) std::swap(a, b);
          std::uint32_t expected = a;
          if (std::atomic_ref(parent[a]).compare_exchange_strong(expected, b,
                                                                 std::memory_order_relaxed))
            return;
        }
      });
    return std::uint64_t{0};
  });
  parallel_sum(parent.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s)
      std::atomic_ref(parent[s]).store(find(static_cast<std::uint32_t>(s)),
                                       std::memory_order_relaxed);
    return std::uint64_t{0};
  });
  return parent;
}

Classification ExplicitSolution::summarize(const ExplicitOptions& options) const {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t states = keys_.size();
  const std::size_t indices = layers_.size();

  Classification result(rules_);
  result.engine = "explicit";
  result.encoding = "none";
  result.variable_order = "none";
  result.complete = true;
  result.layers = layers_;
  result.domain_count = states;
  result.winning_count = layers_.front().count;
  result.unsolvable_count = unsolvable_;
  result.solvable_count = states - unsolvable_;

  result.nondominated.assign(indices, 0);
  result.components.assign(indices, 0);
  const std::vector<std::uint32_t> root = component_roots();
  // top[r]: the highest index in the component of root r (kUnreached if it is unsolvable: a
  // component is solvable as a whole or not at all).
  std::vector<std::uint8_t> top(states, 0);
  for (std::size_t s = 0; s < states; ++s) top[root[s]] = std::max(top[root[s]], index_[s]);
  for (std::size_t s = 0; s < states; ++s) {
    const std::uint8_t highest = top[root[s]];
    if (highest == kUnreached) continue;
    if (index_[s] == highest) ++result.nondominated[highest];
    if (root[s] == s) ++result.components[highest];
  }

  const int max_index = static_cast<int>(indices) - 1;
  const int lowest_sampled = std::max(0, max_index - options.sample_indices + 1);
  std::vector<std::vector<Sample>> by_index(indices);
  for (std::size_t s = 0; s < states; ++s) {
    const std::uint8_t i = index_[s];
    if (i == kUnreached || i < lowest_sampled) continue;
    if (static_cast<int>(by_index[i].size()) >= options.samples_per_index) continue;
    by_index[i].push_back({to_board_string(rules_, board(s)), i});
  }
  for (int i = max_index; i >= lowest_sampled; --i)
    result.samples.insert(result.samples.end(), by_index[static_cast<std::size_t>(i)].begin(),
                          by_index[static_cast<std::size_t>(i)].end());

  result.seconds = seconds_ + seconds_since(start);
  result.peak_rss_bytes = peak_rss_bytes();
  return result;
}

Classification classify_explicit(const Rules& rules, const ExplicitOptions& options,
                                 const LayerCallback& on_layer) {
  return ExplicitSolution::solve(rules, on_layer).summarize(options);
}

}  // namespace rushhour
