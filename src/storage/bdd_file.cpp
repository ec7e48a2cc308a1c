#include "storage/bdd_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <system_error>
#include <vector>

#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {
namespace {

constexpr std::array<unsigned char, 8> kMagic = {0x89, 'R', 'H', 'B', 'D', 'D', 0x0D, 0x0A};
constexpr std::size_t kFixedHeaderSize = 56;  // magic .. params_size
constexpr std::size_t kChecksumSize = 8;
constexpr std::size_t kRecordSize = 12;
constexpr std::uint32_t kMaxStringSize = 1 << 24;
// BuDDy addresses nodes with int, so no BDD has more records than this.
constexpr std::uint64_t kMaxNodes = std::numeric_limits<std::int32_t>::max() - 2;
constexpr std::size_t kBufferSize = 1 << 20;
constexpr std::uint32_t kFalseId = 0;
constexpr std::uint32_t kTrueId = 1;
constexpr std::uint32_t kFirstNodeId = 2;

void store_le(unsigned char* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

std::uint64_t load_le(const unsigned char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= std::uint64_t{in[i]} << (8 * i);
  return value;
}

// Buffered output to a new file.
class Writer {
 public:
  explicit Writer(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail("cannot create");
    buffer_.reserve(kBufferSize);
  }
  ~Writer() {
    if (fd_ >= 0) ::close(fd_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Leaves the first `size` bytes for write_at(); only before anything else is written.
  void skip(std::size_t size) {
    if (::lseek(fd_, static_cast<off_t>(size), SEEK_SET) < 0) fail("cannot seek in");
  }
  void bytes(const void* data, std::size_t size) {
    const auto* in = static_cast<const unsigned char*>(data);
    while (size > 0) {
      if (buffer_.size() == kBufferSize) flush();
      const std::size_t part = std::min(size, kBufferSize - buffer_.size());
      buffer_.insert(buffer_.end(), in, in + part);
      in += part;
      size -= part;
    }
  }
  void u64(std::uint64_t value) { integer(value, 8); }
  // Writes bytes at an absolute offset, bypassing the buffer.
  void write_at(std::uint64_t offset, const std::vector<unsigned char>& data) {
    flush();
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t written =
          ::pwrite(fd_, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) fail("cannot write");
      done += static_cast<std::size_t>(written);
    }
  }
  void close() {
    flush();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close");
  }

 private:
  void integer(std::uint64_t value, int size) {
    unsigned char out[8];
    store_le(out, value, size);
    bytes(out, static_cast<std::size_t>(size));
  }
  void flush() {
    std::size_t done = 0;
    while (done < buffer_.size()) {
      const ssize_t written = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) fail("cannot write");
      done += static_cast<std::size_t>(written);
    }
    buffer_.clear();
  }
  [[noreturn]] void fail(const std::string& action) const {
    throw std::system_error(errno, std::generic_category(), action + " " + path_.string());
  }

  std::filesystem::path path_;
  int fd_ = -1;
  std::vector<unsigned char> buffer_;
};

// The header bytes, header_sum included.
std::vector<unsigned char> encode_header(const BddFileHeader& header, std::uint32_t variables,
                                         std::uint64_t nodes, std::uint64_t root) {
  std::vector<unsigned char> out(kMagic.begin(), kMagic.end());
  const auto integer = [&](std::uint64_t value, int size) {
    out.resize(out.size() + static_cast<std::size_t>(size));
    store_le(out.data() + out.size() - size, value, size);
  };
  integer(kBddFileFormatVersion, 4);
  integer(variables, 4);
  integer(nodes, 8);
  integer(root, 8);
  integer(static_cast<std::uint64_t>(header.index), 8);
  integer(std::bit_cast<std::uint64_t>(
              header.seconds.value_or(std::numeric_limits<double>::quiet_NaN())),
          8);
  integer(header.kind.size(), 4);
  integer(header.parameters.size(), 4);
  out.insert(out.end(), header.kind.begin(), header.kind.end());
  out.insert(out.end(), header.parameters.begin(), header.parameters.end());
  Fnv1a64 sum;
  sum.add(out.data(), out.size());
  integer(sum.value(), 8);
  return out;
}

// Why a file cannot be used; becomes "<file>: <reason>" as an InputError.
class Damaged : public std::runtime_error {
 public:
  explicit Damaged(const std::string& reason) : std::runtime_error(reason) {}
};

// Buffered input with a running checksum of the bytes consumed.
class Reader {
 public:
  // `buffer_size` bounds view(); a probe, which reads little, uses a small one.
  explicit Reader(const std::filesystem::path& path, std::size_t buffer_size = kBufferSize) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      if (errno == ENOENT) throw Damaged("no such file");
      throw Damaged(std::string("cannot open (") + std::strerror(errno) + ")");
    }
    // The destructor does not run for a constructor that throws: close the file here.
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
      const std::string reason = std::string("cannot stat (") + std::strerror(errno) + ")";
      ::close(fd_);
      throw Damaged(reason);
    }
    if (!S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw Damaged("not a regular file");
    }
    size_ = static_cast<std::uint64_t>(info.st_size);
    buffer_.resize(buffer_size);
  }
  ~Reader() { ::close(fd_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  std::uint64_t size() const { return size_; }

  // Reads `size` bytes at `offset`, apart from the buffered stream and its checksum.
  void read_at(std::uint64_t offset, unsigned char* data, std::size_t size) const {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t got = ::pread(fd_, data + done, size - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw Damaged(std::string("cannot read (") + std::strerror(errno) + ")");
      if (got == 0) throw Damaged("truncated while reading");
      done += static_cast<std::size_t>(got);
    }
  }

  void bytes(void* data, std::size_t size) {
    auto* out = static_cast<unsigned char*>(data);
    while (size > 0) {
      if (begin_ == end_) refill();
      const std::size_t part = std::min(size, end_ - begin_);
      std::memcpy(out, buffer_.data() + begin_, part);
      checksum_.add(buffer_.data() + begin_, part);
      begin_ += part;
      out += part;
      size -= part;
    }
  }
  // A view of the next `size` (<= the buffer size) bytes, valid until the next read.
  const unsigned char* view(std::size_t size) {
    if (end_ - begin_ < size) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
      while (end_ < size) fill_from(end_);
    }
    const unsigned char* data = buffer_.data() + begin_;
    checksum_.add(data, size);
    begin_ += size;
    return data;
  }
  std::uint32_t u32() { return static_cast<std::uint32_t>(integer(4)); }
  std::uint64_t u64() { return integer(8); }
  std::string text(std::size_t size) {
    std::string value(size, '\0');
    bytes(value.data(), size);
    return value;
  }
  // The checksum of the bytes consumed since the last call (or since the start).
  std::uint64_t take_checksum() {
    const std::uint64_t value = checksum_.value();
    checksum_ = Fnv1a64();
    return value;
  }

 private:
  std::uint64_t integer(int size) {
    unsigned char in[8];
    bytes(in, static_cast<std::size_t>(size));
    return load_le(in, size);
  }
  void refill() {
    begin_ = end_ = 0;
    fill_from(0);
  }
  void fill_from(std::size_t offset) {
    ssize_t got = 0;
    do got = ::read(fd_, buffer_.data() + offset, buffer_.size() - offset);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw Damaged(std::string("cannot read (") + std::strerror(errno) + ")");
    // Sizes are checked against the file length up front, so this means it shrank meanwhile.
    if (got == 0) throw Damaged("truncated while reading");
    end_ = offset + static_cast<std::size_t>(got);
  }

  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::vector<unsigned char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  Fnv1a64 checksum_;
};

struct ParsedHeader {
  BddFileHeader header;
  std::uint64_t root = 0;
  std::uint64_t payload_offset = 0;
};

std::uint64_t block_count(std::uint64_t nodes) {
  return (nodes + kBddFileBlockRecords - 1) / kBddFileBlockRecords;
}

// Reads and checks the header; afterwards the reader stands at the first record and the file
// length is known to match node_count exactly.
ParsedHeader read_header(Reader& in) {
  const std::uint64_t size = in.size();
  if (size == 0) throw Damaged("empty file");
  std::array<unsigned char, 8> magic{};
  in.bytes(magic.data(), std::min<std::uint64_t>(size, magic.size()));
  if (std::memcmp(magic.data(), kMagic.data(), std::min<std::uint64_t>(size, magic.size())) != 0)
    throw Damaged("not a rushhour BDD file");
  if (size < kFixedHeaderSize + kChecksumSize)
    throw Damaged("truncated (" + std::to_string(size) + " bytes)");

  ParsedHeader parsed;
  BddFileHeader& header = parsed.header;
  const std::uint32_t version = in.u32();
  if (version != kBddFileFormatVersion)
    throw Damaged("written by format version " + std::to_string(version) +
                  ", this tool reads version " + std::to_string(kBddFileFormatVersion));
  const std::uint32_t variables = in.u32();
  const std::uint64_t nodes = in.u64();
  parsed.root = in.u64();
  header.index = static_cast<std::int64_t>(in.u64());
  const double seconds = std::bit_cast<double>(in.u64());
  if (!std::isnan(seconds)) header.seconds = seconds;
  const std::uint32_t kind_size = in.u32();
  const std::uint32_t parameters_size = in.u32();
  const std::uint64_t header_size =
      kFixedHeaderSize + std::uint64_t{kind_size} + parameters_size + kChecksumSize;
  if (kind_size > kMaxStringSize || parameters_size > kMaxStringSize || header_size > size)
    throw Damaged("truncated or damaged header (" + std::to_string(size) +
                  " bytes, the header declares " + std::to_string(header_size) + ")");
  header.kind = in.text(kind_size);
  header.parameters = in.text(parameters_size);
  const std::uint64_t computed = in.take_checksum();
  if (in.u64() != computed) throw Damaged("header checksum mismatch (damaged file)");
  in.take_checksum();

  if (nodes > kMaxNodes || variables > static_cast<std::uint32_t>(std::numeric_limits<int>::max()))
    throw Damaged("impossible sizes (" + std::to_string(nodes) + " nodes, " +
                  std::to_string(variables) + " variables)");
  const std::uint64_t sums = block_count(nodes) + 1;
  const std::uint64_t expected = header_size + nodes * kRecordSize + sums * kChecksumSize;
  if (size < expected)
    throw Damaged("truncated (" + std::to_string(size) + " bytes, expected " +
                  std::to_string(expected) + ")");
  if (size > expected)
    throw Damaged(std::to_string(size - expected) + " bytes after the end of the BDD");
  const bool root_ok = nodes == 0 ? parsed.root <= kTrueId : parsed.root == nodes + 1;
  if (!root_ok) throw Damaged("root id " + std::to_string(parsed.root) + " is not the last node");
  header.variable_count = static_cast<int>(variables);
  header.node_count = static_cast<std::int64_t>(nodes);
  parsed.payload_offset = header_size;
  return parsed;
}

// BuDDy node number -> record id of the nodes written so far: open addressing over flat
// arrays, doubled when two thirds full, so the walk allocates only O(log nodes) times.
class NodeIds {
 public:
  NodeIds() { rehash(1 << 12); }
  // The record id of `node`, or kFalseId (never a record's id) if not written yet.
  std::uint32_t find(int node) const {
    for (std::size_t slot = home(node);; slot = (slot + 1) & mask_) {
      if (keys_[slot] == node) return values_[slot];
      if (keys_[slot] == kEmpty) return kFalseId;
    }
  }
  void insert(int node, std::uint32_t id) {
    if (3 * (size_ + 1) > 2 * keys_.size()) rehash(2 * keys_.size());
    place(node, id);
    ++size_;
  }

 private:
  static constexpr int kEmpty = -1;
  std::size_t home(int node) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(node) * 0x9E3779B97F4A7C15ULL) >>
                                    32) &
           mask_;
  }
  void place(int node, std::uint32_t id) {
    std::size_t slot = home(node);
    while (keys_[slot] != kEmpty) slot = (slot + 1) & mask_;
    keys_[slot] = node;
    values_[slot] = id;
  }
  void rehash(std::size_t capacity) {
    std::vector<int> keys(capacity, kEmpty);
    std::vector<std::uint32_t> values(capacity);
    keys.swap(keys_);
    values.swap(values_);
    mask_ = capacity - 1;
    for (std::size_t slot = 0; slot < keys.size(); ++slot)
      if (keys[slot] != kEmpty) place(keys[slot], values[slot]);
  }
  std::vector<int> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

// Writes the records of a BDD's nodes in post-order (children first). It walks BuDDy's node
// numbers (bdd::id()) rather than handles: the caller's handle keeps the whole graph alive and
// nothing here creates nodes, so no garbage collection can run during the walk, and skipping
// the reference counting of a temporary handle per edge saves a third of the time. Recursion
// depth is bounded by the number of variables, since every step down reaches a later level.
class NodeWriter {
 public:
  explicit NodeWriter(Writer& out) : out_(out) {}

  std::uint32_t write(int node) {
    if (node == false_node_) return kFalseId;
    if (node == true_node_) return kTrueId;
    if (const std::uint32_t known = ids_.find(node); known != kFalseId) return known;
    const std::uint32_t low = write(bdd_low(node));
    const std::uint32_t high = write(bdd_high(node));
    const std::uint32_t id = next_++;
    ids_.insert(node, id);
    unsigned char record[kRecordSize];
    store_le(record, static_cast<std::uint32_t>(bdd_var(node)), 4);
    store_le(record + 4, low, 4);
    store_le(record + 8, high, 4);
    out_.bytes(record, kRecordSize);
    block_.add(record, kRecordSize);
    if (written() % kBddFileBlockRecords == 0) end_block();
    return id;
  }
  std::uint64_t written() const { return next_ - kFirstNodeId; }
  // The block checksum table, little-endian; call once, after the last write().
  std::vector<unsigned char> block_table() {
    if (written() % kBddFileBlockRecords != 0) end_block();
    std::vector<unsigned char> table(block_sums_.size() * kChecksumSize);
    for (std::size_t b = 0; b < block_sums_.size(); ++b)
      store_le(table.data() + b * kChecksumSize, block_sums_[b], kChecksumSize);
    return table;
  }

 private:
  void end_block() {
    block_sums_.push_back(block_.value());
    block_ = Fnv1a64();
  }

  Writer& out_;
  NodeIds ids_;
  Fnv1a64 block_;
  std::vector<std::uint64_t> block_sums_;
  std::uint32_t next_ = kFirstNodeId;
  int false_node_ = bddfalse.id();
  int true_node_ = bddtrue.id();
};

// The block checksum table, checked against its own sum.
std::vector<std::uint64_t> read_block_sums(const Reader& in, const ParsedHeader& parsed) {
  const auto nodes = static_cast<std::uint64_t>(parsed.header.node_count);
  const std::uint64_t blocks = block_count(nodes);
  std::vector<unsigned char> table((blocks + 1) * kChecksumSize);
  in.read_at(parsed.payload_offset + nodes * kRecordSize, table.data(), table.size());
  Fnv1a64 table_sum;
  table_sum.add(table.data(), blocks * kChecksumSize);
  if (load_le(table.data() + blocks * kChecksumSize, 8) != table_sum.value())
    throw Damaged("checksum mismatch (damaged file)");
  std::vector<std::uint64_t> sums(blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) sums[b] = load_le(table.data() + b * kChecksumSize, 8);
  return sums;
}

bdd load_payload(Reader& in, const ParsedHeader& parsed) {
  const auto nodes = static_cast<std::uint64_t>(parsed.header.node_count);
  const int session_variables = bdd_varnum();
  const std::vector<std::uint64_t> block_sums = read_block_sums(in, parsed);
  const bdd zero = bddfalse;
  const bdd one = bddtrue;
  std::vector<bdd> built;
  built.reserve(nodes);
  const auto node = [&](std::uint32_t id) -> const bdd& {
    return id == kFalseId ? zero : id == kTrueId ? one : built[id - kFirstNodeId];
  };

  // A structural problem is only reported once the checksums have been seen to match: in a
  // damaged file the checksum is the reason, in a foreign or buggy one the structure is.
  std::string problem;
  for (std::uint64_t first = 0; first < nodes; first += kBddFileBlockRecords) {
    const std::uint64_t batch = std::min(nodes - first, kBddFileBlockRecords);
    const unsigned char* records = in.view(batch * kRecordSize);
    Fnv1a64 sum;
    sum.add(records, batch * kRecordSize);
    if (sum.value() != block_sums[first / kBddFileBlockRecords])
      throw Damaged("checksum mismatch (damaged file)");
    for (std::uint64_t r = 0; r < batch && problem.empty(); ++r) {
      const unsigned char* record = records + r * kRecordSize;
      const auto variable = static_cast<std::uint32_t>(load_le(record, 4));
      const auto low = static_cast<std::uint32_t>(load_le(record + 4, 4));
      const auto high = static_cast<std::uint32_t>(load_le(record + 8, 4));
      const std::uint64_t k = first + r;
      if (variable >= static_cast<std::uint32_t>(session_variables)) {
        problem = "node " + std::to_string(k) + " uses variable " + std::to_string(variable) +
                  ", but the session has " + std::to_string(session_variables);
      } else if (low >= k + kFirstNodeId || high >= k + kFirstNodeId || low == high) {
        problem = "node " + std::to_string(k) + " has children " + std::to_string(low) + ", " +
                  std::to_string(high) + " (not earlier, distinct nodes)";
      } else {
        bdd rebuilt = bdd_ite(bdd_ithvar(static_cast<int>(variable)), node(high), node(low));
        // ite(v, high, low) with high != low is never false; false is BuDDy's error result.
        if (rebuilt == bddfalse)
          throw BddFailure("BDD node table exhausted while loading node " + std::to_string(k));
        built.push_back(std::move(rebuilt));
      }
    }
  }
  if (!problem.empty()) throw Damaged(problem);
  return nodes == 0 ? bdd(node(static_cast<std::uint32_t>(parsed.root))) : built.back();
}

[[noreturn]] void reject(const std::filesystem::path& file, const Damaged& damage) {
  throw InputError(file.string() + ": " + damage.what());
}

}  // namespace

void save_bdd(const std::filesystem::path& file, const bdd& function, const BddFileHeader& header) {
  if (!bdd_isrunning()) throw std::logic_error("save_bdd needs a running BddSession");
  if (header.kind.size() > kMaxStringSize || header.parameters.size() > kMaxStringSize)
    throw std::logic_error("BDD file header strings are limited to 16 MiB");

  AtomicReplacement replacement(file);
  {
    // The header holds the node count, known only after the walk (bdd_nodecount would cost a
    // walk of its own): records first, then the header into the space left for it.
    Writer out(replacement.temp_path());
    out.skip(encode_header(header, 0, 0, 0).size());
    NodeWriter writer(out);
    const std::uint32_t root = writer.write(function.id());
    const std::vector<unsigned char> table = writer.block_table();
    out.bytes(table.data(), table.size());
    Fnv1a64 table_sum;
    table_sum.add(table.data(), table.size());
    out.u64(table_sum.value());
    out.write_at(
        0, encode_header(header, static_cast<std::uint32_t>(bdd_varnum()), writer.written(), root));
    out.close();
  }
  replacement.commit();
}

BddFileHeader read_bdd_header(const std::filesystem::path& file) {
  try {
    Reader in(file);
    return read_header(in).header;
  } catch (const Damaged& damage) {
    reject(file, damage);
  }
}

bdd load_bdd(const std::filesystem::path& file, BddFileHeader* header) {
  if (!bdd_isrunning()) throw std::logic_error("load_bdd needs a running BddSession");
  try {
    Reader in(file);
    const ParsedHeader parsed = read_header(in);
    bdd function = load_payload(in, parsed);
    if (header != nullptr) *header = parsed.header;
    return function;
  } catch (const Damaged& damage) {
    reject(file, damage);
  }
}

struct BddFileProbe::State {
  // A probe reads the header and a few blocks: a page-sized buffer, not a megabyte per layer.
  explicit State(const std::filesystem::path& file) : path(file), in(file, kProbeBufferSize) {}
  static constexpr std::size_t kProbeBufferSize = 4096;

  const unsigned char* record(std::uint64_t k) {
    const std::uint64_t block = k / kBddFileBlockRecords;
    auto it = blocks.find(block);
    if (it == blocks.end()) {
      const std::uint64_t first = block * kBddFileBlockRecords;
      const std::uint64_t records = std::min<std::uint64_t>(
          kBddFileBlockRecords, static_cast<std::uint64_t>(parsed.header.node_count) - first);
      std::vector<unsigned char> bytes(records * kRecordSize);
      in.read_at(parsed.payload_offset + first * kRecordSize, bytes.data(), bytes.size());
      Fnv1a64 sum;
      sum.add(bytes.data(), bytes.size());
      if (sum.value() != block_sums[block]) throw Damaged("checksum mismatch (damaged file)");
      it = blocks.emplace(block, std::move(bytes)).first;
    }
    return it->second.data() + (k % kBddFileBlockRecords) * kRecordSize;
  }

  std::filesystem::path path;
  Reader in;
  ParsedHeader parsed;
  std::vector<std::uint64_t> block_sums;
  std::unordered_map<std::uint64_t, std::vector<unsigned char>> blocks;
};

BddFileProbe::BddFileProbe(const std::filesystem::path& file) {
  try {
    state_ = std::make_unique<State>(file);
    State& state = *state_;
    state.parsed = read_header(state.in);
    state.block_sums = read_block_sums(state.in, state.parsed);
  } catch (const Damaged& damage) {
    reject(file, damage);
  }
}

BddFileProbe::~BddFileProbe() = default;
BddFileProbe::BddFileProbe(BddFileProbe&&) noexcept = default;
BddFileProbe& BddFileProbe::operator=(BddFileProbe&&) noexcept = default;

const BddFileHeader& BddFileProbe::header() const { return state_->parsed.header; }

bool BddFileProbe::contains(std::span<const signed char> values) {
  State& state = *state_;
  try {
    std::uint64_t id = state.parsed.root;
    while (id >= kFirstNodeId) {
      const std::uint64_t k = id - kFirstNodeId;
      const unsigned char* record = state.record(k);
      const auto variable = static_cast<std::uint32_t>(load_le(record, 4));
      const auto low = static_cast<std::uint32_t>(load_le(record + 4, 4));
      const auto high = static_cast<std::uint32_t>(load_le(record + 8, 4));
      if (low >= id || high >= id || low == high)
        throw Damaged("node " + std::to_string(k) + " has children " + std::to_string(low) + ", " +
                      std::to_string(high) + " (not earlier, distinct nodes)");
      const signed char value = variable < values.size() ? values[variable] : -1;
      if (value < 0)
        throw Damaged("node " + std::to_string(k) + " tests variable " + std::to_string(variable) +
                      ", which is not a variable of the query");
      id = value != 0 ? high : low;
    }
    return id == kTrueId;
  } catch (const Damaged& damage) {
    reject(state.path, damage);
  }
}

}  // namespace rushhour
