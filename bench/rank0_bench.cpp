// Rank 0 at scale: how many work items a second one coordinator takes in, from the MPI
// transport to add_sweep, the item records and the checkpoints, when the items themselves
// cost nothing. Two steps:
//   rank0_bench record FILE SIZE STRIDE
//       one process, two threads: solves every STRIDE-th work item of the SIZE board (every
//       configuration, step metric) with the class engine and writes each item's figures, the
//       words a rank sends (run/class_sweep.hpp encode_item), to FILE;
//   mpirun -np R rank0_bench replay FILE SIZE PARTS DIR
//       part 1/PARTS of the class sweep of the SIZE board (explicit/item_parts.hpp: runs of 64
//       consecutive items, as a whole job's done set looks while it runs) over R ranks of one
//       thread each, with DIR as its run directory, whose items are not solved but replayed:
//       item u gets the recorded figures of item u mod P (P recorded items), renumbered. Rank
//       0's own worker waits a second per item, so that nearly every item reaches rank 0
//       through MPI. Rank 0 prints the items, the wall seconds, its main thread's CPU seconds
//       (the thread that deals, receives, adds, records and checkpoints) and both per item;
//       its last progress line counts the messages it received.
// With ranks feeding it faster than it takes items in, rank 0's main thread is the bottleneck
// and its CPU per item is what one item costs the coordinator.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/item_parts.hpp"
#include "run/class_sweep.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace {

using namespace rushhour;

Rules rules_of(const char* size) {
  const int n = std::atoi(size);
  return Rules(n, (n - 1) / 2, Metric::Step);
}

// FILE: per item, its number of words then the words (64-bit, this machine's byte order).
int record(const std::string& file, const Rules& rules, int stride) {
  ClassEngineOptions options;
  options.threads = 2;
  options.item_stride = stride;
  std::ofstream out(file, std::ios::binary);
  std::uint64_t items = 0, words = 0;
  run::ClassJob job{.rules = rules,
                    .options = options,
                    .out = {},
                    .resume = false,
                    .over_mpi = false,
                    .part = {},
                    .only_items = {},
                    .log = nullptr,
                    .should_stop = nullptr,
                    .item_solver = nullptr};
  // Each item's figures as the sweep receives them: the solvers are wrapped to keep a copy.
  const ClassItems engine(rules, job.options);
  struct Recording final : ItemSolver {
    Recording(std::unique_ptr<ItemSolver> inner, std::ofstream& to, std::uint64_t& n, std::uint64_t& w)
        : solver(std::move(inner)), out(to), items(n), words(w) {}
    ItemFigures solve(std::uint64_t item) override {
      ItemFigures figures = solver->solve(item);
      if (!figures.delta.refused.empty()) return figures;
      const std::vector<std::uint64_t> encoded = run::encode_item(figures);
      const std::uint64_t length = encoded.size();
      static std::mutex writing;
      const std::lock_guard lock(writing);
      out.write(reinterpret_cast<const char*>(&length), sizeof length);
      out.write(reinterpret_cast<const char*>(encoded.data()), static_cast<std::streamsize>(length * sizeof length));
      ++items;
      words += length;
      return figures;
    }
    std::unique_ptr<ItemSolver> solver;
    std::ofstream& out;
    std::uint64_t& items;
    std::uint64_t& words;
  };
  job.item_solver = [&] { return std::make_unique<Recording>(engine.solver(), out, items, words); };
  const auto start = Clock::now();
  run::run_class_job(job);
  std::printf("recorded %llu items of %s, %llu words (%.1f a item), in %.1f s\n", static_cast<unsigned long long>(items),
              rules.describe().c_str(), static_cast<unsigned long long>(words),
              items > 0 ? static_cast<double>(words) / static_cast<double>(items) : 0.0, seconds_since(start));
  return items > 0 ? 0 : 1;
}

std::vector<ItemFigures> read_recorded(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<ItemFigures> recorded;
  std::uint64_t length = 0;
  while (in.read(reinterpret_cast<char*>(&length), sizeof length)) {
    std::vector<std::uint64_t> words(length);
    if (!in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(length * sizeof length)))
      break;  // a recording cut short: its last item is torn
    recorded.push_back(run::decode_item(words));
  }
  return recorded;
}

// Item u: the figures of recorded item u mod P, as item u's.
class Replay final : public ItemSolver {
 public:
  Replay(const std::vector<ItemFigures>& recorded, std::uint64_t items, bool held_back)
      : recorded_(recorded), items_(items), held_back_(held_back) {}
  ItemFigures solve(std::uint64_t item) override {
    if (held_back_) std::this_thread::sleep_for(std::chrono::seconds(1));
    ItemFigures figures = recorded_[item % recorded_.size()];
    ClassSweepState& delta = figures.delta;
    delta.items = items_;
    delta.next_item = item == 0 ? 1 : 0;
    delta.later_items.clear();
    if (item != 0) delta.later_items.push_back({item, item + 1});
    return figures;
  }

 private:
  const std::vector<ItemFigures>& recorded_;
  std::uint64_t items_;
  bool held_back_;
};

int replay(const std::string& file, const Rules& rules, int parts, const std::string& out) {
  const std::vector<ItemFigures> recorded = read_recorded(file);
  if (recorded.empty()) {
    std::fprintf(stderr, "rank0_bench: %s holds no recorded item\n", file.c_str());
    return 2;
  }
  const std::uint64_t items = class_work_items(rules);
  std::filesystem::create_directories(out);
  ClassEngineOptions options;
  options.threads = 1;
  options.progress_seconds = 3600;
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  const bool rank0 = rank == nullptr || std::string(rank) == "0";
  run::ClassJob job{.rules = rules,
                    .options = options,
                    .out = out,
                    .resume = false,
                    .over_mpi = rank != nullptr,
                    .part = {.part = 1, .parts = parts},
                    .only_items = {},
                    .log = [rank0](const std::string& line) {
                      if (rank0) std::fprintf(stderr, "%s\n", line.c_str());
                    },
                    .should_stop = nullptr,
                    .item_solver = [&] { return std::make_unique<Replay>(recorded, items, rank0); }};
  const auto start = Clock::now();
  const double cpu_before = thread_cpu_seconds();
  const run::ClassJobResult result = run::run_class_job(job);
  const double wall = seconds_since(start), cpu = thread_cpu_seconds() - cpu_before;
  if (!rank0) return 0;
  const std::uint64_t dealt = count_of(part_items(items, job.part));
  std::printf("replayed %llu items (%zu recorded) on %d ranks: wall %.2f s, rank 0 main thread CPU %.2f s; "
              "per item %.2f us wall, %.2f us rank 0 CPU; %.0f items/s\n",
              static_cast<unsigned long long>(dealt), recorded.size(), result.ranks, wall, cpu,
              1e6 * wall / static_cast<double>(dealt), 1e6 * cpu / static_cast<double>(dealt),
              static_cast<double>(dealt) / wall);
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "record" && argc == 5) return record(argv[2], rules_of(argv[3]), std::atoi(argv[4]));
  if (mode == "replay" && argc == 6) return replay(argv[2], rules_of(argv[3]), std::atoi(argv[4]), argv[5]);
  std::fprintf(stderr,
               "usage: rank0_bench record FILE SIZE STRIDE\n"
               "       mpirun -np R rank0_bench replay FILE SIZE PARTS DIR\n");
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "rank0_bench: %s\n", e.what());
  return 1;
}
