// Random-access latency of main memory: a dependent pointer chase through one random cycle
// over a buffer of the given size. BuDDy's node table and caches are touched at random, so on
// 6x6-sized tables (gigabytes) the engine waits on this latency (perf: ~80% of the time in
// bdd_makenode); bench_6x6.sh prints it so that figures from different machines compare.
// Usage: memory_latency [MiB]   (default 2048)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  const long mib = argc > 1 ? std::atol(argv[1]) : 2048;
  if (mib < 1) {
    std::fprintf(stderr, "memory_latency: size must be a positive number of MiB\n");
    return 2;
  }
  const std::size_t slots = static_cast<std::size_t>(mib) * 1024 * 1024 / sizeof(std::size_t);
  // Sattolo's shuffle: one cycle through every slot, so the chase never settles in a loop
  // that fits a cache.
  std::vector<std::size_t> next(slots);
  std::iota(next.begin(), next.end(), std::size_t{0});
  std::mt19937_64 random(1);
  for (std::size_t i = slots - 1; i > 0; --i)
    std::swap(next[i], next[std::uniform_int_distribution<std::size_t>(0, i - 1)(random)]);
  const std::size_t steps = 20'000'000;
  std::size_t at = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < steps; ++k) at = next[at];
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("memory latency: %.0f ns per dependent random access over %ld MiB (end %zu)\n",
              seconds / static_cast<double>(steps) * 1e9, mib, at);
  return 0;
}
