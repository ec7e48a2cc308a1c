#include "storage/bdd_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <numeric>
#include <optional>
#include <random>

#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "storage/classification_file.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);
RUSHHOUR_TEST_TIER_OF("BddFileProbe.NeverAnswersWronglyFromADamagedFile", full);

namespace rushhour {
namespace {

using test_support::flip_byte;
using test_support::read_bytes;
using test_support::ScratchDir;
using test_support::write_bytes;

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

// "sum of w_v x_v = 0 mod m" over the first `variables` variables with random weights: about
// min(2^v, m) nodes at level v, so the size is easy to choose.
bdd modular_sum_bdd(std::mt19937& rng, int variables, int modulus) {
  std::vector<bdd> below(modulus, bddfalse);
  below[0] = bddtrue;
  std::vector<bdd> level(modulus);
  for (int v = variables - 1; v >= 0; --v) {
    const int weight = static_cast<int>(rng() % static_cast<unsigned>(modulus));
    const bdd x = bdd_ithvar(v);
    for (int r = 0; r < modulus; ++r) level[r] = bdd_ite(x, below[(r + weight) % modulus], below[r]);
    std::swap(level, below);
  }
  return below[0];
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

// The documented format, written independently of bdd_file.cpp (version 3 by default; the
// development versions 1 and 2 lacked the seconds field, version 1 also the block checksum
// table: they are written only to be refused).
class HandWrittenFile {
 public:
  HandWrittenFile(std::uint32_t variables, std::uint64_t nodes, std::uint64_t root,
                  std::uint32_t version = 3,
                  double seconds = std::numeric_limits<double>::quiet_NaN())
      : version_(version) {
    bytes_ = std::string("\x89RHBDD\r\n", 8);
    integer(version, 4);
    integer(variables, 4);
    integer(nodes, 8);
    integer(root, 8);
    integer(0, 8);
    if (version >= 3) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &seconds, sizeof bits);
      integer(bits, 8);
    }
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
    const std::string payload = bytes_.substr(payload_start_);
    if (version_ == 1) {
      integer(fnv1a(payload), 8);
      return bytes_;
    }
    const std::size_t block_bytes = 12 * kBddFileBlockRecords;
    std::string table;
    for (std::size_t start = 0; start < payload.size(); start += block_bytes) {
      const std::uint64_t sum = fnv1a(payload.substr(start, block_bytes));
      for (int i = 0; i < 8; ++i) table += static_cast<char>(sum >> (8 * i));
    }
    bytes_ += table;
    integer(fnv1a(table), 8);
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
  std::uint32_t version_;
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
    BddFileHeader written = header_for(i);
    if (i % 2 == 1) written.seconds = 0.125 * i;
    save_bdd(file, function, written);
    BddFileHeader header;
    const bdd loaded = load_bdd(file, &header);
    session.check();
    EXPECT_TRUE(loaded == function) << "function " << i;
    EXPECT_EQ(header.parameters, header_for(i).parameters);
    EXPECT_EQ(header.kind, "layer");
    EXPECT_EQ(header.index, i);
    EXPECT_EQ(header.seconds, written.seconds);
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
  BddSession session(kVariables, tiny());
  HandWrittenFile file(kVariables, 2, 3, 3, 12.5);
  file.record(3, 0, 1);  // id 2: x3
  file.record(1, 2, 1);  // id 3: x1 ? true : x3
  write_bytes(dir / "hand.bdd", file.finish());
  BddFileHeader header;
  EXPECT_TRUE(load_bdd(dir / "hand.bdd", &header) == (bdd_ithvar(1) | bdd_ithvar(3)));
  EXPECT_EQ(header.seconds, std::optional<double>(12.5));
  EXPECT_EQ(read_bdd_header(dir / "hand.bdd").seconds, header.seconds);
  BddFileProbe probe(dir / "hand.bdd");
  std::vector<signed char> values(kVariables, 0);
  EXPECT_FALSE(probe.contains(values));
  values[3] = 1;
  EXPECT_TRUE(probe.contains(values));
}

TEST(BddFile, RefusesTheDevelopmentVersions) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  for (std::uint32_t version : {1u, 2u}) {
    HandWrittenFile file(kVariables, 1, 2, version);
    file.record(3, 0, 1);
    const auto path = dir / "old.bdd";
    write_bytes(path, file.finish());
    const std::string expected = path.string() + ": written by format version " +
                                 std::to_string(version) + ", this tool reads version 3";
    EXPECT_EQ(load_error(path), expected);
    try {
      BddFileProbe probe(path);
      ADD_FAILURE() << "a probe opened a version " << version << " file";
    } catch (const InputError& error) {
      EXPECT_EQ(std::string(error.what()), expected);
    }
  }
}

// The writer's bytes, block checksum table included, equal the documented format rebuilt by
// hand from the writer's records, for a BDD of several blocks.
TEST(BddFile, WritesTheDocumentedFormatWithSeveralBlocks) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(41);
  bdd function = bddfalse;
  while (bdd_nodecount(function) <= 2 * static_cast<int>(kBddFileBlockRecords))
    function |= random_bdd(rng, kVariables);
  const auto nodes = static_cast<std::uint64_t>(bdd_nodecount(function));
  save_bdd(dir / "f.bdd", function,
           {.parameters = "", .kind = "layer", .index = 0, .seconds = 3.25});
  const std::string written = read_bytes(dir / "f.bdd");

  HandWrittenFile expected(kVariables, nodes, nodes + 1, 3, 3.25);
  const std::size_t payload = 56 + 5 + 8;  // fixed header, "layer", header sum
  const auto field = [&](std::size_t offset) {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
      value |= std::uint32_t{static_cast<unsigned char>(written[offset + i])} << (8 * i);
    return value;
  };
  for (std::uint64_t k = 0; k < nodes; ++k)
    expected.record(field(payload + 12 * k), field(payload + 12 * k + 4),
                    field(payload + 12 * k + 8));
  EXPECT_EQ(written, expected.finish());
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

// A path that opens but is no regular file (a directory) is refused without keeping its
// file descriptor open.
TEST(BddFile, RefusingANonRegularFileLeaksNoDescriptor) {
  ScratchDir dir;
  const auto open_descriptors = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                         std::filesystem::directory_iterator());
  };
  const auto before = open_descriptors();
  for (int i = 0; i < 20; ++i) {
    EXPECT_THROW(read_bdd_header(dir.path()), InputError);
    EXPECT_THROW(BddFileProbe probe(dir.path()), InputError);
  }
  EXPECT_EQ(open_descriptors(), before);
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
  EXPECT_EQ(load_error(file),
            file.string() + ": written by format version 7, this tool reads version 3");
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
  const auto nodes = static_cast<std::size_t>(read_bdd_header(file).node_count);
  const std::size_t blocks = (nodes + kBddFileBlockRecords - 1) / kBddFileBlockRecords;
  const std::size_t payload = size - 12 * nodes - 8 * blocks - 8;
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

// f(values), following the BDD in the session.
bool evaluate(const bdd& function, const std::vector<signed char>& values) {
  bdd node = function;
  while (node != bddtrue && node != bddfalse)
    node = values[bdd_var(node)] != 0 ? bdd_high(node) : bdd_low(node);
  return node == bddtrue;
}

// Evaluates the assignments `bit_patterns` of the first `variables` variables (bit v is the
// value of variable v) with `probe` and with the BDD itself; returns how many answers differ.
// Answers that throw count in *errors.
int probe_disagreements(BddFileProbe& probe, const bdd& function, int variables,
                        const std::vector<unsigned>& bit_patterns, int* errors) {
  int wrong = 0;
  std::vector<signed char> values(kVariables, -1);  // the others stay unfixed
  for (const unsigned bits : bit_patterns) {
    for (int v = 0; v < variables; ++v) values[v] = static_cast<signed char>((bits >> v) & 1);
    try {
      if (probe.contains(values) != evaluate(function, values)) ++wrong;
    } catch (const InputError&) {
      ++*errors;
    }
  }
  return wrong;
}

TEST(BddFileProbe, AgreesWithTheFunctionOnEveryAssignment) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(13);
  constexpr int kUsed = 17;
  std::vector<bdd> functions = {bddfalse, bddtrue, bdd_ithvar(5)};
  for (int i = 0; i < 8; ++i) functions.push_back(random_bdd(rng, kUsed));
  functions.push_back(modular_sum_bdd(rng, kUsed, 512));
  ASSERT_GT(bdd_nodecount(functions.back()), static_cast<int>(kBddFileBlockRecords));
  std::vector<unsigned> every_assignment(1u << kUsed);
  std::iota(every_assignment.begin(), every_assignment.end(), 0u);
  for (std::size_t i = 0; i < functions.size(); ++i) {
    save_bdd(dir / "f.bdd", functions[i], header_for(static_cast<int>(i)));
    BddFileProbe probe(dir / "f.bdd");
    EXPECT_EQ(probe.header(), read_bdd_header(dir / "f.bdd"));
    int errors = 0;
    EXPECT_EQ(probe_disagreements(probe, functions[i], kUsed, every_assignment, &errors), 0)
        << "function " << i;
    EXPECT_EQ(errors, 0);
  }
}

TEST(BddFileProbe, RefusesAPathThroughAVariableTheQueryLeavesOpen) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  save_bdd(dir / "f.bdd", bdd_ithvar(2) & bdd_ithvar(7), header_for(0));
  BddFileProbe probe(dir / "f.bdd");
  std::vector<signed char> values(kVariables, -1);
  values[2] = 0;
  EXPECT_FALSE(probe.contains(values));  // x2 = 0 decides before x7 is read
  values[2] = 1;
  try {
    probe.contains(values);
    ADD_FAILURE() << "an open variable was read";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              (dir / "f.bdd").string() + ": node 0 tests variable 7, which is not a variable of the query");
  }
  EXPECT_THROW(probe.contains(std::vector<signed char>(5, 1)), InputError);
}

// A damaged file never yields a wrong answer: either opening it fails, or every path through a
// damaged block fails, and the damage is found by some assignment. Every byte outside the
// payload is flipped, and a random sample of payload bytes; a random sample of assignments
// (paths) is tried on each.
TEST(BddFileProbe, NeverAnswersWronglyFromADamagedFile) {
  ScratchDir dir;
  BddSession session(kVariables, tiny());
  std::mt19937 rng(17);
  constexpr int kUsed = 17;
  const bdd function = modular_sum_bdd(rng, kUsed, 512);
  const auto nodes = static_cast<std::size_t>(bdd_nodecount(function));
  ASSERT_GT(nodes, kBddFileBlockRecords);  // two blocks
  const auto file = dir / "f.bdd";
  save_bdd(file, function, header_for(1));
  const std::size_t size = std::filesystem::file_size(file);
  const std::size_t payload_end = size - 8 * 2 - 8;
  const std::size_t payload_begin = payload_end - 12 * nodes;
  std::vector<std::size_t> offsets;
  for (std::size_t offset = 0; offset < size; ++offset)
    if (offset < payload_begin || offset >= payload_end) offsets.push_back(offset);
  std::uniform_int_distribution<std::size_t> in_payload(payload_begin, payload_end - 1);
  for (int i = 0; i < 60; ++i) offsets.push_back(in_payload(rng));
  std::vector<unsigned> sample(1000);
  for (unsigned& bits : sample) bits = static_cast<unsigned>(rng() % (1u << kUsed));
  for (const std::size_t offset : offsets) {
    flip_byte(file, offset);
    try {
      BddFileProbe probe(file);
      int errors = 0;
      EXPECT_EQ(probe_disagreements(probe, function, kUsed, sample, &errors), 0)
          << "flip at " << offset;
      EXPECT_GT(errors, 0) << "flipped byte at " << offset << " went unnoticed";
    } catch (const InputError&) {
    }
    flip_byte(file, offset);
  }
  const std::string bytes = read_bytes(file);
  for (std::size_t length = 0; length < bytes.size(); length += 7) {
    write_bytes(file, bytes.substr(0, length));
    EXPECT_THROW(BddFileProbe{file}, InputError) << "cut at " << length;
  }
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

}  // namespace
}  // namespace rushhour
