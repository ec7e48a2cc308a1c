// The class engine's two paths on the classes of one work item: explicit, or the BDD engine
// restricted to each class of more than THRESHOLD states (run/symbolic_class.hpp), or sets of
// states as bits (explicit/class_bit_search.hpp) for each class of at least THRESHOLD states,
// or with THRESHOLD auto for the classes --bit-search-above auto takes. Prints the
// classes solved by size on each path with their CPU seconds, the process's CPU and peak RSS.
//   build/class_path_bench SIZE METRIC ROWS PATH THRESHOLD [MAX_CARS MAX_TRUCKS]
// ROWS: the kind sequence of every row, top first, comma-separated: "-" empty, else c (car)
// and t (truck) in order, e.g. "c,-,c,ct,c,-,c". PATH: explicit | symbolic |
// symbolic-explicit-components (its components counted explicitly, not by closures). The
// limits select the item's classes (columns adding at most so many vehicles). Run each path in its
// own process: the peak RSS is the process's. Bad arguments: a one-line reason, exit status 2.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

#include "board/errors.hpp"
#include "board/lines.hpp"
#include "encoding/line_partition.hpp"
#include "explicit/class_engine.hpp"
#include "run/class_sweep.hpp"
#include "run/settings.hpp"
#include "run/symbolic_class.hpp"
#include "util/process.hpp"

namespace {

using namespace rushhour;
using run::classify_by_classes;

// The work item of these row kind sequences: base-G digits in kind_sequences order, row 0
// most significant (class_engine.cpp, Worker::run_item).
std::uint64_t item_of(int n, const std::string& rows) {
  const std::vector<KindSequence> groups = kind_sequences(LineTable(n));
  std::uint64_t item = 0;
  std::stringstream in(rows);
  std::string row;
  int count = 0;
  while (std::getline(in, row, ',')) {
    KindSequence sequence;
    if (row != "-")
      for (char c : row) {
        if (c != 'c' && c != 't') throw InputError("ROWS: '" + row + "' is not -, or c and t in order");
        sequence.push_back(c == 't' ? kTruck : kCar);
      }
    std::size_t g = 0;
    while (g < groups.size() && groups[g] != sequence) ++g;
    if (g == groups.size()) throw InputError("no kind sequence '" + row + "' on this board");
    item = item * groups.size() + g;
    ++count;
  }
  if (count != n) throw InputError("ROWS names " + std::to_string(count) + " rows");
  return item;
}

void print_sizes(const char* path, const std::vector<ClassSizeBucket>& sizes) {
  for (std::size_t k = 0; k < sizes.size(); ++k)
    if (sizes[k].classes > 0)
      std::printf("%-8s 2^%-2zu %8llu classes %12llu states %9.3f CPU s %8.1f ns/state\n", path, k,
                  static_cast<unsigned long long>(sizes[k].classes), static_cast<unsigned long long>(sizes[k].states),
                  sizes[k].cpu_seconds, 1e9 * sizes[k].cpu_seconds / static_cast<double>(sizes[k].states));
}

}  // namespace

// A whole number argument, or InputError naming it.
long long number_argument(const char* text, const char* name) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || value < 0)
    throw InputError(std::string(name) + " '" + text + "' is not a whole number");
  return value;
}

int run_bench(int argc, char** argv) {
  if (argc != 6 && argc != 8) {
    std::fprintf(stderr, "usage: %s SIZE METRIC ROWS explicit|symbolic|symbolic-explicit-components|bits THRESHOLD [MAX_CARS MAX_TRUCKS]\n",
                 argv[0]);
    return 2;
  }
  const auto n = static_cast<int>(number_argument(argv[1], "SIZE"));
  const VehicleLimits limits =
      argc == 8 ? VehicleLimits{static_cast<int>(number_argument(argv[6], "MAX_CARS")),
                                static_cast<int>(number_argument(argv[7], "MAX_TRUCKS")), -1}
                : VehicleLimits{};
  const std::string threshold_text = argv[5];
  const std::string path = argv[4];
  const auto threshold = path == "bits" ? std::uint64_t{0} : static_cast<std::uint64_t>(number_argument(argv[5], "THRESHOLD"));
  const Rules rules(n, -1, parse_metric(argv[2]), limits);
  const std::uint64_t item = item_of(n, argv[3]);

  ClassEngineOptions options;
  options.threads = 1;
  options.max_memory = std::uint64_t{8} << 30;
  options.measure_class_sizes = true;
  if (path == "symbolic" || path == "symbolic-explicit-components") {
    options.class_solver = run::symbolic_class_solver(
        rules, options.samples_per_index, options.sample_indices,
        path == "symbolic" ? run::ComponentCount::ByClosures : run::ComponentCount::Explicit);
    options.solver_above = threshold;
  } else if (path == "bits") {
    const run::BitSearchRule rule =
        run::parse_bit_search_above(threshold_text).value_or(run::automatic_bit_search(rules.metric()));
    options.bit_search_above = rule.states;
    options.bit_search_per_combination = rule.per_combination;
  } else if (path != "explicit") {
    throw InputError("PATH '" + path + "' is not explicit, symbolic, symbolic-explicit-components or bits");
  }
  // Only this item: the sweep resumes a state that holds every other one.
  ClassSweepState others;
  others.items = class_work_items(rules);
  others.next_item = item;
  if (item + 1 < others.items) others.later_items.push_back({item + 1, others.items});
  others.tallies.resize(static_cast<std::size_t>((n * n / kCar + 1) * (n * n / kTruck + 1)));
  options.resume = &others;
  const ClassCensus census = classify_by_classes(rules, options);
  std::uint64_t states = 0;
  for (const VehicleTally& tally : census.tallies) states += tally.domain;
  std::printf("item %llu (%s) of %s, %s path above %s: %llu classes, %llu configurations (mirror images "
              "included), largest class %llu\n",
              static_cast<unsigned long long>(item), argv[3], rules.describe().c_str(), path.c_str(), argv[5],
              static_cast<unsigned long long>(census.classes), static_cast<unsigned long long>(states),
              static_cast<unsigned long long>(census.largest_class));
  // The item's figures, to compare the paths: per index, configurations, non-dominated and
  // components, and the samples' keys.
  const Classification figures = census.classification();
  for (std::size_t i = 0; i < figures.layers.size(); ++i)
    std::printf("figures index %zu: %s %llu %lld\n", i, to_string(figures.layers[i].count).c_str(),
                static_cast<unsigned long long>(figures.nondominated[i]), static_cast<long long>(figures.components[i]));
  for (const Sample& sample : figures.samples) std::printf("figures sample %u %s\n", sample.index, sample.board.c_str());
  print_sizes("explicit", census.class_sizes);
  print_sizes("symbolic", census.solver_class_sizes);
  std::printf("process: %.2f CPU s, peak RSS %.1f MiB, refused items %zu\n", process_cpu_seconds(),
              static_cast<double>(peak_rss_bytes()) / (1 << 20), census.refused.size());
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run_bench(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "class_path_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "class_path_bench: %s\n", e.what());
    return 1;
  }
}
