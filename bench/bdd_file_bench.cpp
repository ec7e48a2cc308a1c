// Save, header read and load times of storage/bdd_file for a BDD of several million nodes:
//   build/bdd_file_bench [MODULUS] [DIR]
// The function "sum of w_i x_i = 0 mod m" over 100 variables with random weights has about
// (100 - 2 log2 m) * m nodes; MODULUS sets m (default 150000: ~9.8 M nodes). Wall and CPU
// seconds are both printed: the machine may be shared, and CPU time is steadier.
#include <bdd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "bdd/session.hpp"
#include "storage/bdd_file.hpp"

namespace {

bdd modular_sum_bdd(std::mt19937& rng, int variables, int modulus) {
  std::vector<bdd> below(static_cast<std::size_t>(modulus), bddfalse);
  below[0] = bddtrue;
  std::vector<bdd> level(static_cast<std::size_t>(modulus));
  for (int v = variables - 1; v >= 0; --v) {
    const int weight = static_cast<int>(rng() % static_cast<unsigned>(modulus));
    const bdd x = bdd_ithvar(v);
    for (int r = 0; r < modulus; ++r)
      level[static_cast<std::size_t>(r)] =
          bdd_ite(x, below[static_cast<std::size_t>((r + weight) % modulus)],
                  below[static_cast<std::size_t>(r)]);
    std::swap(level, below);
  }
  return below[0];
}

struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  std::string elapsed() const {
    char text[64];
    std::snprintf(text, sizeof text, "%.2f s wall, %.2f s CPU",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(),
                  static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC);
    return text;
  }
};

}  // namespace

int main(int argc, char** argv) {
  using namespace rushhour;
  constexpr int kVariables = 100;
  const int modulus = argc > 1 ? std::atoi(argv[1]) : 150000;
  const std::filesystem::path dir = argc > 2 ? argv[2] : std::filesystem::temp_directory_path();
  const auto file = dir / "bdd_file_bench.bdd";
  const auto build = [&] {
    std::mt19937 rng(1);
    return modular_sum_bdd(rng, kVariables, modulus);
  };
  BddSettings settings;
  settings.initial_nodes = 1 << 24;
  settings.cache_size = 1 << 20;
  const BddFileHeader header{.parameters = "bench", .kind = "layer", .index = 0};
  int nodes = 0;
  {
    BddSession session(kVariables, settings);
    Stopwatch start;
    const bdd function = build();
    session.check();
    std::printf("build: %s\n", start.elapsed().c_str());
    start = Stopwatch();
    nodes = bdd_nodecount(function);
    std::printf("bdd_nodecount: %d nodes in %s\n", nodes, start.elapsed().c_str());
    start = Stopwatch();
    save_bdd(file, function, header);
    const auto bytes = static_cast<double>(std::filesystem::file_size(file));
    std::printf("save: %s, %.1f MB (%.1f bytes/node)\n", start.elapsed().c_str(), bytes / 1e6,
                bytes / nodes);
  }
  BddSession session(kVariables, settings);
  Stopwatch start;
  const bdd loaded = load_bdd(file);
  session.check();
  std::printf("load into a fresh session: %s\n", start.elapsed().c_str());
  start = Stopwatch();
  const bool header_ok = read_bdd_header(file).node_count == nodes;
  std::printf("read header: %s\n", start.elapsed().c_str());
  start = Stopwatch();
  const bdd rebuilt = build();
  std::printf("rebuild for comparison: %s\n", start.elapsed().c_str());
  std::filesystem::remove(file);
  const bool same = header_ok && loaded == rebuilt && bdd_nodecount(loaded) == nodes;
  std::printf("%s\n", same ? "loaded == rebuilt" : "MISMATCH: the loaded BDD differs");
  return same ? 0 : 1;
}
