#pragma once
// One BDD (a retrograde layer, the visited set, ...) in a file of its own, so that a later
// process with a new BddSession can rebuild exactly the same function.
//
// Why our own binary format and not a node table inside HDF5: a layer can have ~10^7 nodes,
// and the file is only ever read back by this module; a flat little-endian record stream is
// written and read in one buffered pass with O(1) work per node, no HDF5 chunking or type
// conversion in between, and checksums cover every byte. h5py users get the figures from
// classification.h5; the layers are an internal checkpoint.
//
// Format version 3, all integers little-endian:
//   offset  0  magic        8 bytes  89 'R' 'H' 'B' 'D' 'D' 0D 0A
//           8  version      u32      3
//          12  variables    u32      BuDDy variables declared when saved (bdd_varnum())
//          16  node_count   u64      internal nodes in the payload
//          24  root         u64      node id of the BDD (see ids below)
//          32  index        i64      caller's index (e.g. the layer's)
//          40  seconds      f64      what computing the BDD took (IEEE 754 bits), NaN if unsaid
//          48  kind_size    u32
//          52  params_size  u32
//          56  kind         kind_size bytes      (e.g. "layer", "visited")
//              parameters   params_size bytes    (canonical text of the run's parameters and
//                                                  variable layout; compared by the caller)
//              header_sum   u64      FNV-1a 64 over every byte before it
//   payload    node_count records of {u32 variable, u32 low, u32 high}
//   block_sums   u64 × B      FNV-1a 64 of each block of kBddFileBlockRecords records (the last
//                             one may be shorter); B = ceil(node_count / kBddFileBlockRecords)
//   table_sum    u64          FNV-1a 64 over block_sums
// The checksums together cover every byte of the file; the block sums let BddFileProbe check
// just the few blocks that one path through a large BDD touches.
// Node ids: 0 = false, 1 = true, k + 2 = the k-th payload record. Records are in topological
// order (children before parents): low and high of record k are ids < k + 2, and the root is
// the last record (root = node_count + 1), or 0/1 for a constant with no records.
// The payload is the BDD's node graph in the variable order of the writer, but loading does
// not depend on it: record k is rebuilt as bdd_ite(bdd_ithvar(variable), high, low), which is
// one node creation when the loader's order equals the writer's and correct for any order.
//
// Files are written atomically (storage/atomic_file.hpp). Loading verifies magic, version,
// sizes against the file length, both checksums, that each variable is < the session's
// bdd_varnum() and each id refers to an earlier record; any failure is an InputError naming
// the file and the problem, and nothing of a damaged file is returned.
#include <bdd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace rushhour {

inline constexpr std::uint32_t kBddFileFormatVersion = 3;
inline constexpr std::uint64_t kBddFileBlockRecords = 512;

struct BddFileHeader {
  std::string parameters;       // the run's parameters and variable layout, canonical text
  std::string kind;             // what the BDD is: "layer", "visited", ...
  std::int64_t index = 0;       // e.g. the layer index
  // What computing the BDD took, kept so that a resumed run still reports it; none if unsaid.
  std::optional<double> seconds = std::nullopt;
  int variable_count = 0;       // bdd_varnum() when saved; set by save_bdd, ignored on input
  std::int64_t node_count = 0;  // internal nodes; set by save_bdd, ignored on input

  friend bool operator==(const BddFileHeader&, const BddFileHeader&) = default;
};

// Writes `function` with `header` (its variable_count and node_count are taken from the
// session and the BDD). Needs a running BddSession. Throws std::system_error on I/O failure.
void save_bdd(const std::filesystem::path& file, const bdd& function, const BddFileHeader& header);

// Rebuilds the BDD of `file` in the running BddSession; fills *header when given. Throws
// InputError if the file is missing, truncated, damaged or foreign, or uses a variable the
// session lacks; BddFailure if the node table runs out. As after any batch of operations,
// call BddSession::check() afterwards.
bdd load_bdd(const std::filesystem::path& file, BddFileHeader* header = nullptr);

// Reads and checks only the header (magic, version, header checksum, file length), e.g. to
// compare parameters before loading. Needs no BddSession. Throws InputError.
BddFileHeader read_bdd_header(const std::filesystem::path& file);

// Membership of single assignments in a saved BDD without rebuilding it: follows the one path
// an assignment selects through the file's records, reading and checking only the blocks that
// path touches (a path visits at most one node per variable). A board lookup in 94 layers of
// millions of nodes thus reads a few MiB instead of rebuilding ~10^8 nodes. Needs no
// BddSession.
class BddFileProbe {
 public:
  // Reads and checks the header, the file length and the block checksum table. Throws
  // InputError if the file is missing, truncated, damaged or foreign.
  explicit BddFileProbe(const std::filesystem::path& file);
  ~BddFileProbe();
  BddFileProbe(BddFileProbe&&) noexcept;
  BddFileProbe& operator=(BddFileProbe&&) noexcept;

  const BddFileHeader& header() const;
  // f(values), where values[v] is 1 or 0 for variable v, or -1 for a variable the caller does
  // not fix. Throws InputError if a block on the path is damaged, the structure is wrong, or
  // the path tests a variable whose value is -1 or beyond values.
  bool contains(std::span<const signed char> values);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rushhour
