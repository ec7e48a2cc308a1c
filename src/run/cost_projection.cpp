#include "run/cost_projection.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "util/random_choice.hpp"

namespace rushhour::run {
namespace {
constexpr double kEmptyDraws = 4;  // drawn of the items of size 0
}

std::vector<std::uint64_t> StratifiedSample::drawn() const {
  std::vector<std::uint64_t> all;
  for (const Stratum& s : strata) all.insert(all.end(), s.drawn.begin(), s.drawn.end());
  std::sort(all.begin(), all.end());
  return all;
}

StratifiedSample stratify(const std::vector<std::uint64_t>& items, const std::vector<std::uint64_t>& sizes,
                          std::uint64_t population, int strata, int draws, std::uint64_t seed) {
  if (items.size() != sizes.size()) throw std::logic_error("stratify: an item without its size");
  if (strata < 1 || draws < 1) throw std::logic_error("stratify: no stratum or no draw");
  StratifiedSample sample;
  sample.population = std::max<std::uint64_t>(population, items.size());
  sample.measured = items.size();
  // Positions by ascending size (ties by item): the strata are runs of this order.
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sizes[a] != sizes[b] ? sizes[a] < sizes[b] : items[a] < items[b];
  });
  std::vector<std::vector<std::size_t>> members(1);  // members[0]: size 0
  double total = 0;
  for (const std::uint64_t x : sizes) total += static_cast<double>(x);
  double before = 0;  // the sizes of the strata closed so far
  int closed = 0;
  for (const std::size_t k : order) {
    if (sizes[k] == 0) {
      members[0].push_back(k);
      continue;
    }
    // A stratum closes once the sizes so far reach its share of the total.
    if (members.size() == 1 || (closed + 1 < strata && before >= total * (closed + 1) / strata)) {
      if (members.size() > 1) ++closed;
      members.emplace_back();
    }
    members.back().push_back(k);
    before += static_cast<double>(sizes[k]);
  }
  for (std::size_t h = 0; h < members.size(); ++h) {
    Stratum s;
    for (const std::size_t k : members[h]) {
      const auto x = static_cast<double>(sizes[k]);
      ++s.items;
      s.size_sum += x;
      s.size_squares += x * x;
    }
    sample.strata.push_back(std::move(s));
  }
  // Neyman's allocation at a cost per item that follows its size: n_h ∝ m_h σ_h / √c_h, with
  // σ_h and c_h both about the stratum's mean size X_h / m_h, is n_h ∝ √(X_h m_h). At least 2
  // per stratum (an interval needs two), at most all of it; the items of size 0 get a few.
  double weights = 0;
  for (std::size_t h = 1; h < sample.strata.size(); ++h)
    weights += std::sqrt(sample.strata[h].size_sum * static_cast<double>(sample.strata[h].items));
  for (std::size_t h = 0; h < sample.strata.size(); ++h) {
    Stratum& s = sample.strata[h];
    const double share =
        h == 0 ? kEmptyDraws : draws * std::sqrt(s.size_sum * static_cast<double>(s.items)) / weights;
    const auto wanted = static_cast<std::size_t>(std::max(2.0, std::round(share)));
    for (const std::size_t position : random_positions(members[h].size(), wanted, seed + h)) {
      s.drawn.push_back(items[members[h][position]]);
      s.drawn_sizes.push_back(sizes[members[h][position]]);
    }
  }
  return sample;
}

CpuProjection project_cpu(const StratifiedSample& sample, const std::vector<ItemCost>& costs) {
  std::map<std::uint64_t, const ItemCost*> cost_of;
  for (const ItemCost& c : costs) cost_of[c.item] = &c;
  const auto m = static_cast<double>(sample.measured);
  const auto big_n = static_cast<double>(sample.population);
  if (m == 0) throw std::logic_error("project_cpu: no item");
  const double expansion = big_n / m;
  double total = 0;
  CpuProjection projection;
  // Per stratum: its ratio (or mean), its predicted total and its residuals' s².
  struct Fit {
    double ratio = 0, predicted = 0, residual_s2 = 0;
  };
  std::vector<Fit> fits;
  for (std::size_t h = 0; h < sample.strata.size(); ++h) {
    const Stratum& s = sample.strata[h];
    Fit fit;
    if (s.items == 0) {
      fits.push_back(fit);
      continue;
    }
    StratumProjection share;
    share.items = s.items;
    share.configurations = expansion * s.size_sum;
    share.drawn = s.drawn.size();
    const bool by_size = h > 0;
    double sum_t = 0, sum_x = 0, within = 0;
    CostParts sum_parts{};
    std::vector<double> t;
    for (std::size_t k = 0; k < s.drawn.size(); ++k) {
      const auto found = cost_of.find(s.drawn[k]);
      if (found == cost_of.end()) throw std::logic_error("project_cpu: a drawn item was not solved");
      t.push_back(found->second->cpu_seconds);
      within += found->second->within_variance;
      sum_t += found->second->cpu_seconds;
      for (int p = 0; p < kCostParts; ++p) sum_parts[static_cast<std::size_t>(p)] += found->second->parts[static_cast<std::size_t>(p)];
      sum_x += static_cast<double>(s.drawn_sizes[k]);
    }
    const auto n = static_cast<double>(t.size());
    const auto items = static_cast<double>(s.items);
    fit.ratio = by_size ? (sum_x > 0 ? sum_t / sum_x : 0) : sum_t / n;
    fit.predicted = by_size ? s.size_sum * fit.ratio : items * fit.ratio;
    double squares = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double d = t[k] - (by_size ? fit.ratio * static_cast<double>(s.drawn_sizes[k]) : fit.ratio);
      squares += d * d;
    }
    fit.residual_s2 = n > 1 ? squares / (n - 1) : 0;
    total += fit.predicted;
    const double scale = by_size ? (sum_x > 0 ? s.size_sum / sum_x : 0) : items / n;
    share.cpu = expansion * fit.predicted;
    // The stratum's projection is its drawn items' CPU scaled up, each part alike.
    for (int p = 0; p < kCostParts; ++p) {
      const auto up = static_cast<std::size_t>(p);
      share.parts[up] = expansion * scale * sum_parts[up];
      projection.parts[up] += share.parts[up];
    }
    share.variance.items = expansion * expansion * items * items * (1 - n / items) * fit.residual_s2 / n;
    share.variance.classes = expansion * expansion * scale * scale * within;
    projection.variance.items += share.variance.items;
    projection.variance.classes += share.variance.classes;
    projection.strata.push_back(share);
    fits.push_back(fit);
  }
  // The first phase: the spread of the predicted item costs about their mean, and the
  // residuals within the strata.
  if (m < big_n && m > 1) {
    const double mean = total / m;
    double squares = 0;
    for (std::size_t h = 0; h < sample.strata.size(); ++h) {
      const Stratum& s = sample.strata[h];
      const Fit& fit = fits[h];
      const auto items = static_cast<double>(s.items);
      if (h == 0) squares += items * (fit.ratio - mean) * (fit.ratio - mean);
      else
        squares += fit.ratio * fit.ratio * s.size_squares - 2 * fit.ratio * mean * s.size_sum + items * mean * mean;
      if (items > 1) squares += (items - 1) * fit.residual_s2;
    }
    projection.variance.first_phase = std::max(0.0, big_n * big_n * (1 - m / big_n) * (squares / (m - 1)) / m);
  }
  projection.cpu = expansion * total;
  projection.interval = 1.96 * std::sqrt(projection.variance.total());
  return projection;
}

ItemCost cost_of_drawn_classes(std::uint64_t item, double item_cpu, std::uint64_t configurations,
                               const std::vector<ClassDraw>& draws) {
  double drawn_cpu = 0, times = 0, sum = 0, squares = 0;
  std::array<double, kClassPaths> sum_by_path{};  // sum, split by the draws' paths
  for (const ClassDraw& d : draws) {
    drawn_cpu += d.cpu_seconds;
    const double per_configuration = d.cpu_seconds / static_cast<double>(d.configurations);
    times += static_cast<double>(d.times);
    sum += static_cast<double>(d.times) * per_configuration;
    sum_by_path[static_cast<std::size_t>(d.path)] += static_cast<double>(d.times) * per_configuration;
    squares += static_cast<double>(d.times) * per_configuration * per_configuration;
  }
  if (times == 0) throw std::logic_error("cost_of_drawn_classes: no draw");
  const auto x = static_cast<double>(configurations);
  const double mean = sum / times;
  const double s2 = times > 1 ? std::max(0.0, squares - times * mean * mean) / (times - 1) : 0;
  ItemCost cost{.item = item,
                .configurations = configurations,
                .cpu_seconds = std::max(0.0, item_cpu - drawn_cpu) + x * mean,
                .within_variance = x * x * s2 / times,
                .classes_drawn = static_cast<std::uint64_t>(times)};
  cost.parts[static_cast<std::size_t>(CostPart::ItemSearch)] = std::max(0.0, item_cpu - drawn_cpu);
  for (std::size_t p = 0; p < sum_by_path.size(); ++p)
    cost.parts[static_cast<std::size_t>(CostPart::ExplicitClasses) + p] = x * sum_by_path[p] / times;
  return cost;
}

ItemCost cost_of_whole_item(std::uint64_t item, double cpu_seconds, std::uint64_t configurations) {
  ItemCost cost{.item = item, .configurations = configurations, .cpu_seconds = cpu_seconds};
  cost.parts[static_cast<std::size_t>(CostPart::WholeItems)] = cpu_seconds;
  return cost;
}

std::uint64_t prime_at_least(std::uint64_t k) {
  const auto prime = [](std::uint64_t p) {
    if (p < 2) return false;
    for (std::uint64_t d = 2; d * d <= p; ++d)
      if (p % d == 0) return false;
    return true;
  };
  while (!prime(k)) ++k;
  return k;
}

}  // namespace rushhour::run
