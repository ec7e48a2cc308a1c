#include "storage/bdd_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <random>

#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "storage/classification_file.hpp"
#include "storage_test_support.hpp"

namespace rushhour {
namespace {

using testing::flip_byte;
using testing::read_bytes;
using testing::ScratchDir;
using testing::write_bytes;

constexpr int kVariables = 24;

// A deliberately tiny node table and cache, so that GC and table growth run all the time.
BddSettings tiny() {
  BddSettings settings;
  settings.initial_nodes = 1000;
  settings.cache_size = 100;
  return settings;
}

// A random function of the first `variables` variables, a few hundred to a few thousand nodes.
bdd random_bdd(std::mt19937& rng, int variables) {
  std::uniform_int_distribution<int> variable(0, variables - 1);
  const auto literal = [&] {
    const int v = variable(rng);
    return rng() % 2 == 0 ? bdd_ithvar(v) : bdd_nithvar(v);
  };
  bdd function = literal();
  for (int step = 0; step < 40; ++step) {
    const bdd term = literal() & literal() & literal();
    switch (rng() % 4) {
      case 0:
        function &= !term;
        break;
      case 1:
        function |= term;
        break;
      case 2:
        function ^= term;
        break;
      default:
        function = bdd_ite(bdd_ithvar(variable(rng)), function, term);
        break;
    }
  }
  return function;
}

BddFileHeader header_for(int index) {
  return {
      .parameters = "size=4\nmetric=step\norder=interleaved\n", .kind = "layer", .index = index};
}

std::string load_error(const std::filesystem::path& file) {
  try {
    load_bdd(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// The documented format, written independently of bdd_file.cpp.
class HandWrittenFile {
 public:
  HandWrittenFile(std::uint32_t variables, std::uint64_t nodes, std::uint64_t root) {
    bytes_ = std::string("\x89RHBDD\r\n", 8);
    integer(1, 4);
    integer(variables, 4);
    integer(nodes, 8);
    integer(root, 8);
    integer(0, 8);
    integer(5, 4);
    integer(0, 4);
    bytes_ += "layer";
    integer(fnv1a(bytes_), 8);
    payload_start_ = bytes_.size();
  }
  void record(std::uint32_t variable, std::uint32_t low, std::uint32_t high) {
    integer(variable, 4);
    integer(low, 4);
    integer(high, 4);
  }
  std::string finish() {
    integer(fnv1a(bytes_.substr(payload_start_)), 8);
    return bytes_;
  }

 private:
  static std::uint64_t fnv1a(const std::string& bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
  }
  void integer(std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) bytes_ += static_cast<char>(value >> (8 * i));
  }
  std::string bytes_;
  std::size_t payload_start_ = 0;
};

TEST(BddFile, RoundTripsRandomFunctionsToTheSameNode) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) {
    const bdd function = random_bdd(rng, kVariables);
    const auto file = dir / ("layer-" + std::to_string(i) + ".bdd");
    save_bdd(file, function, header_for(i));
    BddFileHeader header;
    const bdd loaded = load_bdd(file, &header);
    session.check();
    EXPECT_TRUE(loaded == function) << "function " << i;
    EXPECT_EQ(header.parameters, header_for(i).parameters);
    EXPECT_EQ(header.kind, "layer");
    EXPECT_EQ(header.index, i);
    EXPECT_EQ(header.variable_count, kVariables);
    EXPECT_EQ(header.node_count, bdd_nodecount(function));
    EXPECT_EQ(read_bdd_header(file), header);
  }
  EXPECT_GT(session.gc_count(), 0);
  EXPECT_GT(session.table_nodes(), 1000);
}

TEST(BddFile, RoundTripsTheConstants) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  for (const bdd& constant : {bddfalse, bddtrue}) {
    save_bdd(dir / "constant.bdd", constant, {.parameters = "", .kind = "visited", .index = -3});
    BddFileHeader header;
    EXPECT_TRUE(load_bdd(dir / "constant.bdd", &header) == constant);
    EXPECT_EQ(header.node_count, 0);
    EXPECT_EQ(header.index, -3);
    EXPECT_EQ(header.kind, "visited");
  }
}

TEST(BddFile, LoadingLeavesNoLiveNodesBehind) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(11);
  save_bdd(dir / "f.bdd", random_bdd(rng, kVariables), header_for(0));
  bdd_gbc();
  const std::int64_t baseline = session.live_nodes();
  for (int i = 0; i < 5; ++i) load_bdd(dir / "f.bdd");
  bdd_gbc();
  EXPECT_EQ(session.live_nodes(), baseline);
}

// A later process: a new session, in which the function is rebuilt from scratch for comparison,
// once with the writer's variable order and once with the reverse order.
TEST(BddFile, ANewSessionRebuildsTheSameFunctionInAnyVariableOrder) {
  ScratchDir dir;
  std::vector<int> nodes;
  {
    BddSession session(kVariables, tiny());
    std::mt19937 rng(23);
    for (int i = 0; i < 10; ++i) {
      const bdd function = random_bdd(rng, kVariables);
      nodes.push_back(bdd_nodecount(function));
      save_bdd(dir / ("f" + std::to_string(i) + ".bdd"), function, header_for(i));
    }
  }
  for (bool reversed : {false, true}) {
    BddSession session(kVariables, tiny());
    if (reversed) {
      std::vector<int> order(kVariables);
      std::iota(order.rbegin(), order.rend(), 0);
      bdd_setvarorder(order.data());
    }
    std::mt19937 rng(23);
    for (int i = 0; i < 10; ++i) {
      const bdd loaded = load_bdd(dir / ("f" + std::to_string(i) + ".bdd"));
      session.check();
      const bdd rebuilt = random_bdd(rng, kVariables);
      EXPECT_TRUE(loaded == rebuilt) << "function " << i << (reversed ? " (reversed order)" : "");
      if (!reversed) {
        EXPECT_EQ(bdd_nodecount(loaded), nodes[i]);
      }
    }
  }
}

TEST(BddFile, ReadsTheDocumentedFormat) {
  ScratchDir dir;
  HandWrittenFile file(kVariables, 2, 3);
  file.record(3, 0, 1);  // id 2: x3
  file.record(1, 2, 1);  // id 3: x1 ? true : x3
  write_bytes(dir / "hand.bdd", file.finish());
  BddSession session(kVariables, tiny());
  EXPECT_TRUE(load_bdd(dir / "hand.bdd") == (bdd_ithvar(1) | bdd_ithvar(3)));
}

TEST(BddFile, RejectsStructurallyWrongPayloads) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  const auto file = dir / "bad.bdd";
  {
    HandWrittenFile bad(kVariables, 1, 2);
    bad.record(3, 0, 2);  // refers to itself
    write_bytes(file, bad.finish());
    EXPECT_EQ(load_error(file),
              file.string() + ": node 0 has children 0, 2 (not earlier, distinct nodes)");
  }
  {
    HandWrittenFile bad(kVariables, 1, 2);
    bad.record(3, 1, 1);  // not reduced
    write_bytes(file, bad.finish());
    EXPECT_EQ(load_error(file),
              file.string() + ": node 0 has children 1, 1 (not earlier, distinct nodes)");
  }
  {
    HandWrittenFile bad(kVariables, 1, 2);
    bad.record(kVariables, 0, 1);
    write_bytes(file, bad.finish());
    EXPECT_EQ(load_error(file),
              file.string() + ": node 0 uses variable 24, but the session has 24");
  }
  {
    HandWrittenFile bad(kVariables, 2, 2);  // the root must be the last record
    bad.record(3, 0, 1);
    bad.record(4, 0, 1);
    write_bytes(file, bad.finish());
    EXPECT_EQ(load_error(file), file.string() + ": root id 2 is not the last node");
  }
}

TEST(BddFile, RejectsAFileUsingVariablesTheSessionLacks) {
  ScratchDir dir;
  {
    BddSession session(kVariables, tiny());
    save_bdd(dir / "wide.bdd", bdd_ithvar(20) & bdd_ithvar(2), header_for(0));
  }
  BddSession session(10, tiny());
  EXPECT_EQ(load_error(dir / "wide.bdd"),
            (dir / "wide.bdd").string() + ": node 0 uses variable 20, but the session has 10");
}

TEST(BddFile, ReportsMissingEmptyAndForeignFiles) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  EXPECT_EQ(load_error(dir / "none.bdd"), (dir / "none.bdd").string() + ": no such file");
  write_bytes(dir / "empty.bdd", "");
  EXPECT_EQ(load_error(dir / "empty.bdd"), (dir / "empty.bdd").string() + ": empty file");
  write_bytes(dir / "text.bdd", "digraph { a -> b }\n");
  EXPECT_EQ(load_error(dir / "text.bdd"),
            (dir / "text.bdd").string() + ": not a rushhour BDD file");
  write_classification(dir / "c.h5", Classification(Rules(4)), {});
  EXPECT_EQ(load_error(dir / "c.h5"), (dir / "c.h5").string() + ": not a rushhour BDD file");
  EXPECT_EQ(load_error(dir.path()), dir.path().string() + ": not a regular file");
}

TEST(BddFile, ReportsTheFormatVersionAndTrailingBytes) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  const auto file = dir / "f.bdd";
  save_bdd(file, bdd_ithvar(4) ^ bdd_ithvar(9), header_for(2));
  const std::string bytes = read_bytes(file);
  std::string future = bytes;
  future[8] = 7;
  write_bytes(file, future);
  EXPECT_EQ(load_error(file), file.string() + ": written by format version 7, this tool reads 1");
  write_bytes(file, bytes + "x");
  EXPECT_EQ(load_error(file), file.string() + ": 1 bytes after the end of the BDD");
}

TEST(BddFile, ReportsTruncationAtEveryLength) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(3);
  save_bdd(dir / "f.bdd", random_bdd(rng, 10), header_for(1));
  const std::string bytes = read_bytes(dir / "f.bdd");
  ASSERT_GT(bytes.size(), 200u);
  write_bytes(dir / "cut.bdd", bytes);
  for (std::size_t length = bytes.size() - 1; length > 0; --length) {
    std::filesystem::resize_file(dir / "cut.bdd", length);
    const std::string error = load_error(dir / "cut.bdd");
    EXPECT_NE(error.find(": truncated"), std::string::npos) << "cut at " << length << ": " << error;
    EXPECT_THROW(read_bdd_header(dir / "cut.bdd"), InputError) << "cut at " << length;
  }
}

// Every byte is covered by a checksum, so every single flipped bit is reported.
TEST(BddFile, ReportsEveryFlippedByte) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(5);
  const auto file = dir / "f.bdd";
  save_bdd(file, random_bdd(rng, 10), header_for(1));
  const std::size_t size = std::filesystem::file_size(file);
  const std::size_t payload =
      size - 8 - 12 * static_cast<std::size_t>(read_bdd_header(file).node_count);
  for (std::size_t offset = 0; offset < size; ++offset) {
    flip_byte(file, offset);
    const std::string error = load_error(file);
    EXPECT_FALSE(error.empty()) << "flipped byte at " << offset << " was trusted";
    if (offset >= payload) {
      EXPECT_EQ(error, file.string() + ": checksum mismatch (damaged file)") << offset;
    }
    flip_byte(file, offset);
  }
  EXPECT_EQ(load_error(file), "");
}

TEST(BddFile, ALeftoverTemporaryIsIgnoredAndTheTargetReplacedWhole) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(9);
  const bdd big = random_bdd(rng, kVariables);
  const auto file = dir / "f.bdd";
  save_bdd(file, big, header_for(0));
  write_bytes(dir / "f.bdd.tmp", read_bytes(file).substr(0, 100));
  EXPECT_TRUE(load_bdd(file) == big);
  save_bdd(file, bdd_ithvar(0), header_for(1));
  EXPECT_FALSE(std::filesystem::exists(dir / "f.bdd.tmp"));
  save_bdd(dir / "fresh.bdd", bdd_ithvar(0), header_for(1));
  EXPECT_EQ(read_bytes(file), read_bytes(dir / "fresh.bdd"));
}

TEST(BddFile, NeedsARunningSession) {
  ScratchDir dir;
  {
    BddSession session(kVariables, tiny());
    save_bdd(dir / "f.bdd", bdd_ithvar(1), header_for(0));
  }
  EXPECT_THROW(load_bdd(dir / "f.bdd"), std::logic_error);
  EXPECT_EQ(read_bdd_header(dir / "f.bdd").kind, "layer");
}

// Performance figures for a BDD of several million nodes (not run by default):
//   build-h3/rushhour_tests --gtest_also_run_disabled_tests --gtest_filter='*LargeBdd*'
// The function "sum of w_i x_i = 0 mod m" over 100 variables with random weights has about
// (100 - 2 log2 m) * m nodes. RUSHHOUR_BDD_MODULUS sets m (default 150000: ~9.8 M nodes).
TEST(BddFile, DISABLED_LargeBddTimings) {
  ScratchDir dir;
  constexpr int kLargeVariables = 100;
  const char* modulus_text = std::getenv("RUSHHOUR_BDD_MODULUS");
  const int modulus = modulus_text != nullptr ? std::atoi(modulus_text) : 150000;
  std::mt19937 rng(1);
  std::vector<int> weights(kLargeVariables);
  for (int& weight : weights) weight = static_cast<int>(rng() % static_cast<unsigned>(modulus));
  const auto build = [&] {
    std::vector<bdd> below(modulus, bddfalse);
    below[0] = bddtrue;
    std::vector<bdd> level(modulus);
    for (int v = kLargeVariables - 1; v >= 0; --v) {
      const bdd x = bdd_ithvar(v);
      for (int r = 0; r < modulus; ++r)
        level[r] = bdd_ite(x, below[(r + weights[v]) % modulus], below[r]);
      std::swap(level, below);
    }
    return below[0];
  };
  // Wall-clock and CPU seconds since `since` (the machine may be shared: CPU time is steadier).
  struct Stopwatch {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();
  };
  const auto elapsed = [](const Stopwatch& since) {
    char text[64];
    std::snprintf(
        text, sizeof text, "%.2f s wall, %.2f s CPU",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - since.wall).count(),
        static_cast<double>(std::clock() - since.cpu) / CLOCKS_PER_SEC);
    return std::string(text);
  };
  BddSettings settings;
  settings.initial_nodes = 1 << 24;
  settings.cache_size = 1 << 20;
  const auto file = dir / "large.bdd";
  int nodes = 0;
  {
    BddSession session(kLargeVariables, settings);
    Stopwatch start;
    const bdd function = build();
    session.check();
    std::printf("build: %s\n", elapsed(start).c_str());
    start = Stopwatch();
    nodes = bdd_nodecount(function);
    std::printf("bdd_nodecount: %d nodes in %s\n", nodes, elapsed(start).c_str());
    start = Stopwatch();
    save_bdd(file, function, header_for(0));
    std::printf("save: %s, %.1f MB (%.1f bytes/node)\n", elapsed(start).c_str(),
                static_cast<double>(std::filesystem::file_size(file)) / 1e6,
                static_cast<double>(std::filesystem::file_size(file)) / nodes);
  }
  BddSession session(kLargeVariables, settings);
  Stopwatch start;
  const bdd loaded = load_bdd(file);
  session.check();
  std::printf("load into a fresh session: %s\n", elapsed(start).c_str());
  start = Stopwatch();
  EXPECT_EQ(read_bdd_header(file).node_count, nodes);
  std::printf("read header: %s\n", elapsed(start).c_str());
  start = Stopwatch();
  const bdd rebuilt = build();
  std::printf("rebuild for comparison: %s\n", elapsed(start).c_str());
  EXPECT_TRUE(loaded == rebuilt);
  EXPECT_EQ(bdd_nodecount(loaded), nodes);
}

}  // namespace
}  // namespace rushhour
