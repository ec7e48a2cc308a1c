#include "storage/cluster_database.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>
#include <queue>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "storage/hdf5.hpp"
#include "storage/rules_attributes.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {
namespace {

static_assert(std::endian::native == std::endian::little, "spool blocks are little-endian");

constexpr const char* kSpoolMagic = "rushhour cluster spool 2\n";
constexpr const char* kContent = "rushhour clusters";
constexpr std::int64_t kFormatVersion = 1;
// Per block: item, records, histogram entries; per record 6 words (the key's low and high
// halves, then highest index (16 bits), cars (8), trucks (8), walls (16) and the other metric's
// highest index (16) packed, size,
// hardest, winning), with both metrics 3 more (the other metric's key halves, its hardest);
// the histograms (with both metrics the other metric's after them); an FNV-1a 64 of the block.
constexpr std::size_t kBlockHeaderWords = 3;
constexpr std::size_t kRunMetricWords = 6;
constexpr std::size_t kRecordWords = 9;  // at most
constexpr std::uint64_t kMaxBlockWords = std::uint64_t{1} << 36;
constexpr std::size_t kChunkRecords = 1 << 16;

std::string header_text(const std::string& parameters, bool both_metrics) {
  // The metrics line comes first: neither header is then the start of the other.
  return std::string(kSpoolMagic) + (both_metrics ? "metrics both\n" : "") + "parameters " + parameters + "\n";
}

std::size_t record_words(bool both_metrics) { return both_metrics ? kRecordWords : kRunMetricWords; }

InputError damaged_spool(const std::filesystem::path& path, const std::string& what) {
  return InputError(path.string() + ": " + what + " (not a complete cluster spool)");
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// The words of one item's block, checksum last.
std::vector<std::uint64_t> encode_block(std::uint64_t item, const ClusterRecords& records, bool both_metrics) {
  const std::size_t histograms = records.histogram.size() + (both_metrics ? records.other_histogram.size() : 0);
  std::vector<std::uint64_t> words{item, records.records.size(), histograms};
  words.reserve(kBlockHeaderWords + record_words(both_metrics) * records.records.size() + histograms + 1);
  for (const ClusterRecord& r : records.records) {
    words.push_back(static_cast<std::uint64_t>(r.hardest));
    words.push_back(static_cast<std::uint64_t>(r.hardest >> 64));
    words.push_back(std::uint64_t{r.highest_index} | std::uint64_t{r.cars} << 16 | std::uint64_t{r.trucks} << 24 |
                    std::uint64_t{r.walls} << 32 | std::uint64_t{r.other_highest_index} << 48);
    words.push_back(r.size);
    words.push_back(r.hardest_count);
    words.push_back(r.winning);
    if (!both_metrics) continue;
    words.push_back(static_cast<std::uint64_t>(r.other_hardest));
    words.push_back(static_cast<std::uint64_t>(r.other_hardest >> 64));
    words.push_back(r.other_hardest_count);
  }
  words.insert(words.end(), records.histogram.begin(), records.histogram.end());
  if (both_metrics) words.insert(words.end(), records.other_histogram.begin(), records.other_histogram.end());
  Fnv1a64 sum;
  sum.add(reinterpret_cast<const unsigned char*>(words.data()), words.size() * sizeof(std::uint64_t));
  words.push_back(sum.value());
  return words;
}

// One block read at the file's position: nullopt at the end of the file or where a block is
// cut short or fails its checksum (*torn then says which).
struct Block {
  std::uint64_t item = 0;
  ClusterRecords records;
};
std::optional<Block> read_block(std::FILE* file, bool both_metrics, std::string* torn) {
  const std::size_t per_record = record_words(both_metrics);
  std::uint64_t head[kBlockHeaderWords];
  const std::size_t got = std::fread(head, sizeof(std::uint64_t), kBlockHeaderWords, file);
  if (got == 0 && std::feof(file)) return std::nullopt;
  if (got != kBlockHeaderWords) {
    *torn = "a block cut short";
    return std::nullopt;
  }
  if (head[1] > kMaxBlockWords / kRecordWords || head[2] > kMaxBlockWords) {
    *torn = "a block of impossible length";
    return std::nullopt;
  }
  std::vector<std::uint64_t> words(kBlockHeaderWords + per_record * head[1] + head[2] + 1);
  std::copy(head, head + kBlockHeaderWords, words.begin());
  const std::size_t rest = words.size() - kBlockHeaderWords;
  if (std::fread(words.data() + kBlockHeaderWords, sizeof(std::uint64_t), rest, file) != rest) {
    *torn = "a block cut short";
    return std::nullopt;
  }
  Fnv1a64 sum;
  sum.add(reinterpret_cast<const unsigned char*>(words.data()), (words.size() - 1) * sizeof(std::uint64_t));
  if (sum.value() != words.back()) {
    *torn = "a block failing its checksum";
    return std::nullopt;
  }
  Block block{.item = head[0], .records = {}};
  const std::uint64_t* w = words.data() + kBlockHeaderWords;
  std::uint64_t histogram = 0, other_histogram = 0;
  for (std::uint64_t k = 0; k < head[1]; ++k, w += per_record) {
    ClusterRecord r;
    r.hardest = static_cast<SampleKey>(w[0]) | static_cast<SampleKey>(w[1]) << 64;
    r.highest_index = static_cast<std::uint32_t>(w[2] & 0xFFFF);
    r.cars = static_cast<std::uint32_t>(w[2] >> 16 & 0xFF);
    r.trucks = static_cast<std::uint32_t>(w[2] >> 24 & 0xFF);
    r.walls = static_cast<std::uint32_t>(w[2] >> 32 & 0xFFFF);
    r.other_highest_index = static_cast<std::uint32_t>(w[2] >> 48);
    r.size = w[3];
    r.hardest_count = w[4];
    r.winning = w[5];
    if (both_metrics) {
      r.other_hardest = static_cast<SampleKey>(w[6]) | static_cast<SampleKey>(w[7]) << 64;
      r.other_hardest_count = w[8];
      other_histogram += r.other_highest_index + 1u;
    }
    histogram += r.highest_index + 1u;
    block.records.records.push_back(r);
  }
  if (histogram + other_histogram != head[2]) {
    *torn = "a block whose histograms do not match its records";
    return std::nullopt;
  }
  block.records.histogram.assign(w, w + histogram);
  block.records.other_histogram.assign(w + histogram, w + head[2]);
  return block;
}

// Opens a spool and checks its header; the file is left after it.
FilePtr open_spool(const std::filesystem::path& path, const std::string& parameters, bool both_metrics,
                   const char* mode) {
  FilePtr file(std::fopen(path.c_str(), mode));
  if (!file) throw InputError(path.string() + ": cannot open the cluster spool (" + std::strerror(errno) + ")");
  const std::string expected = header_text(parameters, both_metrics);
  std::string head(expected.size(), '\0');
  if (std::fread(head.data(), 1, head.size(), file.get()) != head.size() || head.rfind(kSpoolMagic, 0) != 0)
    throw damaged_spool(path, "unknown header");
  if (head != expected) throw InputError(path.string() + ": a cluster spool of another sweep");
  return file;
}

}  // namespace

std::filesystem::path ClusterSpool::path_for(const std::filesystem::path& database) {
  return database.string() + ".spool";
}

ClusterSpool::ClusterSpool(const std::filesystem::path& path, const std::string& parameters, bool both_metrics)
    : path_(path), both_metrics_(both_metrics) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) throw_errno("cannot create", path);
  const std::string header = header_text(parameters, both_metrics);
  if (std::fwrite(header.data(), 1, header.size(), file_) != header.size()) throw_errno("cannot write", path);
  sync();
}

ClusterSpool ClusterSpool::resume(const std::filesystem::path& path, const std::string& parameters,
                                  bool both_metrics, const std::function<bool(std::uint64_t)>& kept) {
  if (!std::filesystem::exists(path))
    throw InputError("cannot resume the cluster records: " + path.string() + " is missing");
  long cut = 0;
  {
    FilePtr file = open_spool(path, parameters, both_metrics, "rb");
    cut = std::ftell(file.get());
    bool dropping = false;
    std::string torn;
    while (const std::optional<Block> block = read_block(file.get(), both_metrics, &torn)) {
      if (!kept(block->item)) {
        dropping = true;
      } else if (dropping) {
        throw damaged_spool(path, "work item " + std::to_string(block->item) +
                                      " of the checkpoint follows an item finished after it");
      } else {
        cut = std::ftell(file.get());
      }
    }
  }
  std::error_code error;
  std::filesystem::resize_file(path, static_cast<std::uintmax_t>(cut), error);
  if (error) throw std::system_error(error, "cannot cut " + path.string());
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (file == nullptr) throw_errno("cannot open", path);
  return ClusterSpool(path, file, both_metrics);
}

ClusterSpool::~ClusterSpool() {
  if (file_ != nullptr) std::fclose(file_);
}

ClusterSpool::ClusterSpool(ClusterSpool&& other) noexcept
    : path_(std::move(other.path_)), file_(std::exchange(other.file_, nullptr)), both_metrics_(other.both_metrics_) {}

void ClusterSpool::append(std::uint64_t item, const ClusterRecords& records) {
  const std::vector<std::uint64_t> words = encode_block(item, records, both_metrics_);
  if (std::fwrite(words.data(), sizeof(std::uint64_t), words.size(), file_) != words.size())
    throw_errno("cannot write", path_);
}

void ClusterSpool::sync() {
  if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0) throw_errno("cannot write", path_);
}

void ClusterSpool::close() {
  sync();
  const int status = std::fclose(std::exchange(file_, nullptr));
  if (status != 0) throw_errno("cannot close", path_);
}

void read_cluster_spool(const std::filesystem::path& path, const std::string& parameters, bool both_metrics,
                        const std::function<void(std::uint64_t, ClusterRecords&&)>& visit) {
  FilePtr file = open_spool(path, parameters, both_metrics, "rb");
  const std::size_t per_record = record_words(both_metrics);
  // The blocks lie in the order the items finished: an index of them, sorted by item.
  std::vector<std::pair<std::uint64_t, long>> blocks;
  for (;;) {
    const long at = std::ftell(file.get());
    std::uint64_t head[kBlockHeaderWords];
    const std::size_t got = std::fread(head, sizeof(std::uint64_t), kBlockHeaderWords, file.get());
    if (got == 0 && std::feof(file.get())) break;
    if (got != kBlockHeaderWords || head[1] > kMaxBlockWords / kRecordWords || head[2] > kMaxBlockWords)
      throw damaged_spool(path, "a block cut short");
    const auto skip = static_cast<long>((per_record * head[1] + head[2] + 1) * sizeof(std::uint64_t));
    if (std::fseek(file.get(), skip, SEEK_CUR) != 0) throw damaged_spool(path, "a block cut short");
    blocks.emplace_back(head[0], at);
  }
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    if (k > 0 && blocks[k].first == blocks[k - 1].first)
      throw damaged_spool(path, "work item " + std::to_string(blocks[k].first) + " twice");
    std::fseek(file.get(), blocks[k].second, SEEK_SET);
    std::string torn;
    std::optional<Block> block = read_block(file.get(), both_metrics, &torn);
    if (!block) throw damaged_spool(path, torn.empty() ? "a block cut short" : torn);
    visit(block->item, std::move(block->records));
  }
}

namespace {

// The per-metric columns of the database (the run's metric at the root, the other metric's
// in its group), appended in batches.
class MetricColumns {
 public:
  MetricColumns(const h5::Location& at, std::size_t board_width)
      : board_(at.create_appended<std::string>("board", kChunkRecords, board_width)),
        highest_(at.create_appended<std::uint32_t>("highest_index", kChunkRecords)),
        hardest_(at.create_appended<std::uint64_t>("hardest_count", kChunkRecords)),
        start_(at.create_appended<std::uint64_t>("histogram_start", kChunkRecords)),
        histogram_(at.create_appended<std::uint64_t>("histogram", kChunkRecords)) {}

  void add(std::string board, std::uint32_t highest, std::uint64_t hardest) {
    boards_.push_back(std::move(board));
    highests_.push_back(highest);
    hardests_.push_back(hardest);
    starts_.push_back(histogram_length_);
    histogram_length_ += highest + 1u;
    max_index_ = std::max(max_index_, static_cast<int>(highest));
  }
  void add_histograms(const std::vector<std::uint64_t>& counts) { counts_.insert(counts_.end(), counts.begin(), counts.end()); }
  void flush() {
    board_.append(boards_);
    highest_.append(highests_);
    hardest_.append(hardests_);
    start_.append(starts_);
    histogram_.append(counts_);
    boards_.clear();
    highests_.clear();
    hardests_.clear();
    starts_.clear();
    counts_.clear();
  }
  int max_index() const { return max_index_; }

 private:
  h5::AppendedDataset<std::string> board_;
  h5::AppendedDataset<std::uint32_t> highest_;
  h5::AppendedDataset<std::uint64_t> hardest_, start_, histogram_;
  std::vector<std::string> boards_;
  std::vector<std::uint32_t> highests_;
  std::vector<std::uint64_t> hardests_, starts_, counts_;
  std::uint64_t histogram_length_ = 0;
  int max_index_ = -1;
};

}  // namespace

std::uint64_t write_cluster_database(const std::filesystem::path& spool, const std::filesystem::path& database,
                                     const ClusterSweepInfo& info, const RunMetadata& metadata) {
  std::uint64_t rows = 0;
  h5::write_atomically(database, [&](const std::filesystem::path& path) {
    const SampleKeys keys(info.rules);
    const int n = info.rules.size();
    h5::File file = h5::File::create(path);
    file.write_attribute<std::string>("content", kContent);
    file.write_attribute<std::int64_t>("format_version", kFormatVersion);
    file.write_attribute<std::string>("tool_version", metadata.tool_version);
    file.write_attribute<std::string>("configuration", metadata.configuration);
    file.write_attribute<std::string>("parameters", info.parameters);
    write_rules_attributes(file, info.rules);
    file.write_attribute<std::string>("engine", "classes");
    const bool public_choice = info.minimal && info.minimal_rule == MinimalRule::Public;
    file.write_attribute<std::string>(
        "hardest_choice", public_choice ? "least (horizontal mask, vertical mask)"
                          : info.minimal && info.minimal_rule == MinimalRule::Any
                              ? "least explicit-engine key among the minimal ones"
                              : "least explicit-engine key");
    file.write_attribute<std::int64_t>("cluster_min_index", info.min_index);
    file.write_attribute<std::int64_t>("minimal", info.minimal ? 1 : 0);
    if (info.minimal) file.write_attribute<std::string>("minimal_rule", to_string(info.minimal_rule));
    std::vector<MinimalRule> counted;
    for (std::size_t r = 0; r < kMinimalRules; ++r) {
      if (!info.minimal_counts[r]) continue;
      counted.push_back(static_cast<MinimalRule>(r));
      file.write_dataset("minimal_count_" + to_string(counted.back()), *info.minimal_counts[r]);
    }
    if (!counted.empty()) file.write_attribute<std::string>("minimal_counts", to_string(counted));
    file.write_attribute<std::int64_t>("work_sample", info.item_stride);
    file.write_attribute<std::int64_t>("complete", info.complete ? 1 : 0);
    file.write_attribute<std::string>("cluster_metrics", info.both_metrics ? "both" : "run");
    {
      const auto width = static_cast<std::size_t>(n * n);
      std::optional<h5::Group> other_group;
      if (info.both_metrics) other_group = file.create_group(to_string(other_metric(info.rules.metric())));
      MetricColumns run(file, width);
      std::optional<MetricColumns> other;
      if (other_group) other.emplace(*other_group, width);
      auto size = file.create_appended<std::uint64_t>("size", kChunkRecords);
      auto winning = file.create_appended<std::uint64_t>("winning_count", kChunkRecords);
      auto cars = file.create_appended<std::uint32_t>("cars", kChunkRecords);
      auto trucks = file.create_appended<std::uint32_t>("trucks", kChunkRecords);
      // Walls per cluster, only where the rules have walls (a database without keeps its form).
      std::optional<h5::AppendedDataset<std::uint32_t>> walls;
      if (!info.rules.walls().none()) walls.emplace(file.create_appended<std::uint32_t>("walls", kChunkRecords));
      auto item = file.create_appended<std::uint64_t>("item", kChunkRecords);
      std::vector<std::uint32_t> car_counts, truck_counts, wall_counts;
      std::vector<std::uint64_t> sizes, winnings, items;
      std::size_t pending = 0;
      auto flush = [&] {
        run.flush();
        if (other) other->flush();
        size.append(sizes);
        winning.append(winnings);
        cars.append(car_counts);
        trucks.append(truck_counts);
        if (walls) walls->append(wall_counts);
        item.append(items);
        for (auto* v : {&sizes, &winnings, &items}) v->clear();
        for (auto* v : {&car_counts, &truck_counts, &wall_counts}) v->clear();
        pending = 0;
      };
      read_cluster_spool(spool, info.parameters, info.both_metrics, [&](std::uint64_t from, ClusterRecords&& records) {
        for (const ClusterRecord& r : records.records) {
          run.add(keys.board(r.hardest), r.highest_index, r.hardest_count);
          if (other) other->add(keys.board(r.other_hardest), r.other_highest_index, r.other_hardest_count);
          sizes.push_back(r.size);
          winnings.push_back(r.winning);
          car_counts.push_back(r.cars);
          truck_counts.push_back(r.trucks);
          wall_counts.push_back(r.walls);
          items.push_back(from);
          ++pending;
          ++rows;
        }
        run.add_histograms(records.histogram);
        if (other) other->add_histograms(records.other_histogram);
        if (pending >= kChunkRecords) flush();
      });
      flush();
      file.write_attribute<std::uint64_t>("clusters", rows);
      file.write_attribute<std::int64_t>("max_index", run.max_index());
      if (other_group) other_group->write_attribute<std::int64_t>("max_index", other->max_index());
    }
    file.close();
  });
  return rows;
}

ClusterDatabase::ClusterDatabase(const std::filesystem::path& path) : path_(path), rules_(4) {
  try {
    const h5::File file = h5::File::open_read_only(path);
    if (!file.has_attribute("content") || file.read_attribute<std::string>("content") != kContent)
      throw h5::Error("not a rushhour cluster database");
    if (const auto version = file.read_attribute<std::int64_t>("format_version"); version != kFormatVersion)
      throw h5::Error("written by format version " + std::to_string(version) + ", this tool reads " +
                      std::to_string(kFormatVersion));
    rules_ = read_rules_attributes(file);
    min_index_ = static_cast<int>(file.read_attribute<std::int64_t>("cluster_min_index"));
    complete_ = file.read_attribute<std::int64_t>("complete") == 1;
    minimal_ = file.has_attribute("minimal") && file.read_attribute<std::int64_t>("minimal") == 1;
    // A minimal database without the attribute was written by a sweep that tested each
    // cluster's canonical hardest configuration alone.
    if (minimal_)
      minimal_rule_ = file.has_attribute("minimal_rule")
                          ? parse_minimal_rule(file.read_attribute<std::string>("minimal_rule"))
                          : MinimalRule::Canonical;
    rows_ = file.read_attribute<std::uint64_t>("clusters");
    if (file.has_attribute("minimal_counts"))
      for (const MinimalRule rule : parse_minimal_rules(file.read_attribute<std::string>("minimal_counts")))
        minimal_counts_[static_cast<std::size_t>(rule)] =
            file.read_dataset<std::uint64_t>("minimal_count_" + to_string(rule));
    // Databases written before the attribute existed hold the run's metric only.
    if (file.has_attribute("cluster_metrics")) {
      const auto metrics = file.read_attribute<std::string>("cluster_metrics");
      if (metrics != "run" && metrics != "both") throw h5::Error("unknown cluster_metrics '" + metrics + "'");
      both_metrics_ = metrics == "both";
    }
    for (const char* name : {"board", "highest_index", "size", "hardest_count", "winning_count", "cars", "trucks",
                             "item", "histogram_start"})
      if (file.dataset_length(name) != rows_)
        throw h5::Error("dataset '/" + std::string(name) + "' does not hold one entry per cluster");
    if (!rules_.walls().none() && file.dataset_length("walls") != rows_)
      throw h5::Error("dataset '/walls' does not hold one entry per cluster");
    if (both_metrics_) {
      const std::string group = to_string(other_metric());
      for (const char* name : {"board", "highest_index", "hardest_count", "histogram_start"})
        if (file.dataset_length(group + "/" + name) != rows_)
          throw h5::Error("dataset '/" + group + "/" + name + "' does not hold one entry per cluster");
    }
  } catch (const h5::Error& e) {
    throw InputError(path.string() + ": " + e.what());
  } catch (const InputError& e) {
    throw InputError(path.string() + ": " + e.what());
  }
}

Metric ClusterDatabase::other_metric() const { return rushhour::other_metric(rules_.metric()); }

void exchange_metrics(ClusterEntry& entry) {
  std::swap(entry.board, entry.other_board);
  std::swap(entry.histogram, entry.other_histogram);
  ClusterRecord& r = entry.record;
  std::swap(r.hardest, r.other_hardest);
  std::swap(r.highest_index, r.other_highest_index);
  std::swap(r.hardest_count, r.other_hardest_count);
}

namespace {

// One metric's columns of a batch of rows (at the root or in the other metric's group).
struct MetricSlice {
  std::vector<std::string> boards;
  std::vector<std::uint32_t> highest;
  std::vector<std::uint64_t> hardest, starts, counts;
  std::uint64_t last_end = 0;

  MetricSlice(const h5::Location& at, std::uint64_t from, std::uint64_t count, std::uint64_t histogram_length,
              const std::string& prefix)
      : highest(at.read_dataset_slice<std::uint32_t>(prefix + "highest_index", from, count)),
        hardest(at.read_dataset_slice<std::uint64_t>(prefix + "hardest_count", from, count)),
        starts(at.read_dataset_slice<std::uint64_t>(prefix + "histogram_start", from, count)) {
    last_end = starts.back() + highest.back() + 1;
    if (starts.front() > last_end || last_end > histogram_length)
      throw h5::Error("'/" + prefix + "histogram_start' points past '/" + prefix + "histogram'");
  }

  // The boards and (histograms) the histogram counts: read only for a batch with a row to visit.
  void read_rows(const h5::Location& at, std::uint64_t from, bool histograms, const std::string& prefix) {
    boards = at.read_dataset_slice<std::string>(prefix + "board", from, highest.size());
    if (histograms) counts = at.read_dataset_slice<std::uint64_t>(prefix + "histogram", starts.front(), last_end - starts.front());
  }

  // Row k's histogram (empty without histograms), checked against its counts.
  std::vector<std::uint64_t> histogram(std::size_t k, std::uint64_t row, std::uint64_t size, std::uint64_t winning,
                                       const std::string& prefix) const {
    const std::uint64_t end = k + 1 < starts.size() ? starts[k + 1] : last_end;
    if (starts[k] + highest[k] + 1 != end)
      throw h5::Error("'/" + prefix + "histogram_start' does not match '/" + prefix + "highest_index'");
    if (counts.empty()) return {};
    const auto first = counts.begin() + static_cast<std::ptrdiff_t>(starts[k] - starts.front());
    std::vector<std::uint64_t> histogram(first, first + highest[k] + 1);
    std::uint64_t total = 0;
    for (const std::uint64_t c : histogram) total += c;
    if (total != size || histogram.front() != winning || histogram.back() != hardest[k])
      throw h5::Error("cluster " + std::to_string(row) + "'s " + (prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1) + " ") +
                      "histogram does not match its counts");
    return histogram;
  }
};

}  // namespace

void ClusterDatabase::for_each(const std::function<bool(const ClusterEntry&)>& visit, bool histograms,
                               std::uint64_t batch, const std::function<bool(const ClusterRecord&)>& wanted) const {
  try {
    const h5::File file = h5::File::open_read_only(path_);
    const std::string other_prefix = both_metrics_ ? to_string(other_metric()) + "/" : "";
    const std::uint64_t histogram_length = file.dataset_length("histogram");
    const std::uint64_t other_length = both_metrics_ ? file.dataset_length(other_prefix + "histogram") : 0;
    std::vector<ClusterRecord> records;
    std::vector<char> chosen;
    for (std::uint64_t from = 0; from < rows_; from += batch) {
      const std::uint64_t count = std::min(batch, rows_ - from);
      MetricSlice run(file, from, count, histogram_length, "");
      std::optional<MetricSlice> other;
      if (both_metrics_) other.emplace(file, from, count, other_length, other_prefix);
      const auto size = file.read_dataset_slice<std::uint64_t>("size", from, count);
      const auto winning = file.read_dataset_slice<std::uint64_t>("winning_count", from, count);
      const auto cars = file.read_dataset_slice<std::uint32_t>("cars", from, count);
      const auto trucks = file.read_dataset_slice<std::uint32_t>("trucks", from, count);
      const auto walls = rules_.walls().none() ? std::vector<std::uint32_t>(count, 0)
                                               : file.read_dataset_slice<std::uint32_t>("walls", from, count);
      records.assign(count, ClusterRecord{});
      chosen.assign(count, 1);
      bool any = false;
      for (std::uint64_t k = 0; k < count; ++k) {
        ClusterRecord& r = records[k];
        r = {.hardest = 0, .highest_index = run.highest[k], .cars = cars[k], .trucks = trucks[k], .walls = walls[k],
             .size = size[k], .hardest_count = run.hardest[k], .winning = winning[k]};
        if (other) {
          r.other_highest_index = other->highest[k];
          r.other_hardest_count = other->hardest[k];
        }
        if (wanted && !wanted(r)) chosen[k] = 0;
        any = any || chosen[k];
      }
      if (!any) continue;
      run.read_rows(file, from, histograms, "");
      if (other) other->read_rows(file, from, histograms, other_prefix);
      const auto items = file.read_dataset_slice<std::uint64_t>("item", from, count);
      for (std::uint64_t k = 0; k < count; ++k) {
        if (!chosen[k]) continue;
        ClusterEntry entry;
        entry.row = from + k;
        entry.board = run.boards[k];
        entry.record = records[k];
        entry.item = items[k];
        entry.histogram = run.histogram(k, entry.row, size[k], winning[k], "");
        if (other) {
          entry.other_board = other->boards[k];
          entry.other_histogram = other->histogram(k, entry.row, size[k], winning[k], other_prefix);
        }
        if (!visit(entry)) return;
      }
    }
  } catch (const h5::Error& e) {
    throw InputError(path_.string() + ": " + e.what());
  }
}

namespace {

// One line of the text list, as the sort compares it.
struct TextLine {
  std::uint32_t index = 0;
  std::uint64_t size = 0;
  char board[65] = {};
  friend bool operator<(const TextLine& a, const TextLine& b) {  // hardest first
    if (a.index != b.index) return a.index > b.index;
    if (a.size != b.size) return a.size > b.size;
    return std::strcmp(a.board, b.board) < 0;
  }
};

void write_line(std::FILE* out, const TextLine& line, const std::filesystem::path& path) {
  if (std::fprintf(out, "%u %s %llu\n", line.index, line.board, static_cast<unsigned long long>(line.size)) < 0)
    throw_errno("cannot write", path);
}

// Sorted runs in temporary files, removed however the merge ends.
struct Runs {
  std::vector<std::filesystem::path> paths;
  ~Runs() {
    std::error_code ignored;
    for (const auto& path : paths) std::filesystem::remove(path, ignored);
  }
};

}  // namespace

void write_cluster_text(const std::filesystem::path& database, const std::filesystem::path& text,
                        std::size_t run_records) {
  const ClusterDatabase clusters(database);
  Runs runs;
  std::vector<TextLine> run;
  run.reserve(std::max<std::size_t>(run_records, 1));
  auto spill = [&] {
    std::sort(run.begin(), run.end());
    runs.paths.push_back(text.string() + ".run" + std::to_string(runs.paths.size()) + ".tmp");
    FilePtr file(std::fopen(runs.paths.back().c_str(), "wb"));
    if (!file || std::fwrite(run.data(), sizeof(TextLine), run.size(), file.get()) != run.size() ||
        std::fflush(file.get()) != 0)
      throw_errno("cannot write", runs.paths.back());
    run.clear();
  };
  clusters.for_each(
      [&](const ClusterEntry& entry) {
        TextLine line{.index = entry.record.highest_index, .size = entry.record.size};
        std::strncpy(line.board, entry.board.c_str(), sizeof line.board - 1);
        run.push_back(line);
        if (run.size() >= std::max<std::size_t>(run_records, 1)) spill();
        return true;
      },
      false);
  AtomicReplacement replacement(text);
  {
    FilePtr out(std::fopen(replacement.temp_path().c_str(), "w"));
    if (!out) throw_errno("cannot create", replacement.temp_path());
    if (runs.paths.empty()) {
      std::sort(run.begin(), run.end());
      for (const TextLine& line : run) write_line(out.get(), line, text);
    } else {
      if (!run.empty()) spill();
      std::vector<FilePtr> inputs;
      using Head = std::pair<TextLine, std::size_t>;
      auto later = [](const Head& a, const Head& b) { return b.first < a.first; };
      std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
      auto next = [&](std::size_t k) {
        TextLine line;
        if (std::fread(&line, sizeof line, 1, inputs[k].get()) == 1) heads.emplace(line, k);
      };
      for (const auto& path : runs.paths) {
        inputs.emplace_back(std::fopen(path.c_str(), "rb"));
        if (!inputs.back()) throw_errno("cannot open", path);
        next(inputs.size() - 1);
      }
      while (!heads.empty()) {
        const auto [line, k] = heads.top();
        heads.pop();
        write_line(out.get(), line, text);
        next(k);
      }
    }
    if (std::fflush(out.get()) != 0) throw_errno("cannot write", text);
  }
  replacement.commit();
}

}  // namespace rushhour
