#include "storage/classification_file.hpp"

#include <algorithm>
#include <stdexcept>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "storage/hdf5.hpp"
#include "storage/rules_attributes.hpp"

namespace rushhour {
namespace {

// The first broken invariant of `result` (see the header), or "" if there is none.
std::string find_inconsistency(const Classification& result) {
  const std::size_t layers = result.layers.size();
  Count solvable = 0;
  for (const LayerFigures& layer : result.layers)
    if (__builtin_add_overflow(solvable, layer.count, &solvable))
      return "layer counts overflow 128 bits";
  if (solvable != result.solvable_count)
    return "layer counts add up to " + to_string(solvable) + ", but solvable_count is " +
           to_string(result.solvable_count);
  Count domain = 0;
  if (__builtin_add_overflow(result.solvable_count, result.unsolvable_count, &domain) ||
      domain != result.domain_count)
    return "solvable_count + unsolvable_count differs from domain_count " +
           to_string(result.domain_count);
  if (layers > 0 && result.winning_count != result.layers[0].count)
    return "winning_count " + to_string(result.winning_count) + " differs from the count " +
           to_string(result.layers[0].count) + " of layer 0";

  const std::size_t dominance = result.nondominated.size();
  if ((dominance != 0 && dominance != layers) || result.components.size() != dominance)
    return "dominance has " + std::to_string(dominance) + " nondominated and " +
           std::to_string(result.components.size()) + " components entries for " +
           std::to_string(layers) + " layers";
  for (std::size_t i = 0; i < dominance; ++i) {
    if (result.nondominated[i] > result.layers[i].count)
      return "index " + std::to_string(i) +
             " has more nondominated configurations than configurations";
    if (result.components[i] < -1)
      return "index " + std::to_string(i) + " has a negative component count";
  }

  for (const Sample& sample : result.samples) {
    if (static_cast<std::int64_t>(sample.index) > result.max_index())
      return "sample of index " + std::to_string(sample.index) + " beyond max_index " +
             std::to_string(result.max_index());
    // parse_board also accepts multi-line input; stored boards must be the one-line form.
    if (sample.board.size() != static_cast<std::size_t>(result.rules.cells()))
      return "sample '" + sample.board + "' is not a one-line board string";
    try {
      parse_board(sample.board, result.rules);
    } catch (const InputError& error) {
      return "sample '" + sample.board + "' is not a board of the domain: " + error.what();
    }
  }
  return "";
}

template <typename T, typename Field>
std::vector<T> column(const std::vector<LayerFigures>& layers, Field field) {
  std::vector<T> values;
  values.reserve(layers.size());
  for (const LayerFigures& layer : layers) values.push_back(layer.*field);
  return values;
}

// Whether every count of `result` fits a uint64: then the file is format version 1, exactly as
// before counts could exceed 64 bits.
bool counts_fit_uint64(const Classification& result) {
  const auto fits = [](Count value) { return fits_uint64(value); };
  return fits(result.domain_count) && fits(result.winning_count) && fits(result.solvable_count) &&
         fits(result.unsolvable_count) &&
         std::all_of(result.layers.begin(), result.layers.end(),
                     [&](const LayerFigures& layer) { return fits(layer.count); }) &&
         std::all_of(result.nondominated.begin(), result.nondominated.end(), fits);
}

// Writes the counts in the file's form: uint64 (format version 1) or decimal strings
// (format version 2).
class CountWriter {
 public:
  explicit CountWriter(bool decimal) : decimal_(decimal) {}
  void attribute(const h5::Location& at, const std::string& name, Count value) const {
    if (decimal_)
      at.write_attribute<std::string>(name, to_string(value));
    else
      at.write_attribute<std::uint64_t>(name, to_uint64(value));
  }
  void dataset(const h5::Location& at, const std::string& name,
               const std::vector<Count>& values) const {
    if (decimal_) {
      std::vector<std::string> texts;
      texts.reserve(values.size());
      for (const Count value : values) texts.push_back(to_string(value));
      at.write_dataset(name, texts);
    } else {
      std::vector<std::uint64_t> numbers;
      numbers.reserve(values.size());
      for (const Count value : values) numbers.push_back(to_uint64(value));
      at.write_dataset(name, numbers);
    }
  }

 private:
  bool decimal_;
};

// Reads counts in either form; a malformed decimal string is a damaged file.
class CountReader {
 public:
  explicit CountReader(bool decimal) : decimal_(decimal) {}
  Count attribute(const h5::Location& at, const std::string& name) const {
    if (!decimal_) return at.read_attribute<std::uint64_t>(name);
    return parsed(at.read_attribute<std::string>(name), "attribute '" + name + "'");
  }
  std::vector<Count> dataset(const h5::Location& at, const std::string& name,
                             const std::string& path) const {
    std::vector<Count> values;
    if (!decimal_) {
      for (const std::uint64_t value : at.read_dataset<std::uint64_t>(name))
        values.push_back(value);
      return values;
    }
    for (const std::string& text : at.read_dataset<std::string>(name))
      values.push_back(parsed(text, path));
    return values;
  }

 private:
  static Count parsed(const std::string& text, const std::string& where) {
    try {
      return parse_count(text);
    } catch (const InputError& error) {
      throw h5::Error(where + ": " + error.what());
    }
  }
  bool decimal_;
};

void write_file(const std::filesystem::path& path, const Classification& result,
                const RunMetadata& metadata) {
  h5::File file = h5::File::create(path);
  const bool decimal = !counts_fit_uint64(result);
  const CountWriter counts(decimal);
  file.write_attribute<std::string>("content", kClassificationContent);
  file.write_attribute<std::int64_t>(
      "format_version", decimal ? kClassificationDecimalFormatVersion : kClassificationFormatVersion);
  if (decimal) file.write_attribute<std::string>("count_encoding", kDecimalCountEncoding);
  file.write_attribute<std::string>("tool_version", metadata.tool_version);
  file.write_attribute<std::string>("buddy_version", metadata.buddy_version);
  file.write_attribute<std::string>("configuration", metadata.configuration);
  write_rules_attributes(file, result.rules);
  file.write_attribute<std::string>("engine", result.engine);
  file.write_attribute<std::string>("encoding", result.encoding);
  file.write_attribute<std::string>("variable_order", result.variable_order);
  file.write_attribute<std::int64_t>("complete", result.complete ? 1 : 0);
  file.write_attribute<double>("seconds", result.seconds);
  file.write_attribute<std::uint64_t>("peak_rss_bytes", result.peak_rss_bytes);
  counts.attribute(file, "domain_count", result.domain_count);
  counts.attribute(file, "winning_count", result.winning_count);
  counts.attribute(file, "solvable_count", result.solvable_count);
  counts.attribute(file, "unsolvable_count", result.unsolvable_count);
  file.write_attribute<std::int64_t>("max_index", result.max_index());
  {
    const h5::Group layers = file.create_group("layers");
    counts.dataset(layers, "count", column<Count>(result.layers, &LayerFigures::count));
    layers.write_dataset("bdd_nodes",
                         column<std::uint64_t>(result.layers, &LayerFigures::bdd_nodes));
    layers.write_dataset("seconds", column<double>(result.layers, &LayerFigures::seconds));
  }
  {
    const h5::Group dominance = file.create_group("dominance");
    counts.dataset(dominance, "nondominated", result.nondominated);
    dominance.write_dataset("components", result.components);
  }
  {
    const h5::Group samples = file.create_group("samples");
    std::vector<std::string> boards;
    std::vector<std::uint32_t> indices;
    for (const Sample& sample : result.samples) {
      boards.push_back(sample.board);
      indices.push_back(sample.index);
    }
    samples.write_dataset("board", boards);
    samples.write_dataset("index", indices);
  }
  file.close();
}

Classification read_file(const std::filesystem::path& path, RunMetadata* metadata) {
  const h5::File file = h5::File::open_read_only(path);
  if (!file.has_attribute("content"))
    throw h5::Error("not a rushhour classification file (no attribute 'content')");
  if (const auto content = file.read_attribute<std::string>("content");
      content != kClassificationContent)
    throw h5::Error("not a rushhour classification file (content '" + content + "')");
  const auto version = file.read_attribute<std::int64_t>("format_version");
  if (version != kClassificationFormatVersion && version != kClassificationDecimalFormatVersion)
    throw h5::Error("written by format version " + std::to_string(version) + ", this tool reads " +
                    std::to_string(kClassificationFormatVersion) + " and " +
                    std::to_string(kClassificationDecimalFormatVersion));
  const bool decimal = version == kClassificationDecimalFormatVersion;
  if (decimal) {
    if (!file.has_attribute("count_encoding"))
      throw h5::Error("format version 2 without attribute 'count_encoding'");
    if (const auto form = file.read_attribute<std::string>("count_encoding");
        form != kDecimalCountEncoding)
      throw h5::Error("unknown count_encoding '" + form + "' (this tool reads '" +
                      std::string(kDecimalCountEncoding) + "')");
  }
  const CountReader counts(decimal);

  RunMetadata stored{file.read_attribute<std::string>("tool_version"),
                     file.read_attribute<std::string>("buddy_version"),
                     file.read_attribute<std::string>("configuration")};
  Classification result(read_rules_attributes(file));
  result.engine = file.read_attribute<std::string>("engine");
  result.encoding = file.read_attribute<std::string>("encoding");
  result.variable_order = file.read_attribute<std::string>("variable_order");
  const std::int64_t complete = file.read_attribute<std::int64_t>("complete");
  if (complete != 0 && complete != 1)
    throw h5::Error("attribute 'complete' is " + std::to_string(complete) + ", expected 0 or 1");
  result.complete = complete == 1;
  result.seconds = file.read_attribute<double>("seconds");
  result.peak_rss_bytes = file.read_attribute<std::uint64_t>("peak_rss_bytes");
  result.domain_count = counts.attribute(file, "domain_count");
  result.winning_count = counts.attribute(file, "winning_count");
  result.solvable_count = counts.attribute(file, "solvable_count");
  result.unsolvable_count = counts.attribute(file, "unsolvable_count");
  const std::int64_t max_index = file.read_attribute<std::int64_t>("max_index");

  const auto same_length = [](std::size_t length, std::size_t expected, const char* what) {
    if (length != expected)
      throw h5::Error(std::string(what) + " has " + std::to_string(length) + " entries, expected " +
                      std::to_string(expected));
  };
  {
    const h5::Group layers = file.open_group("layers");
    const std::vector<Count> layer_counts = counts.dataset(layers, "count", "/layers/count");
    const auto nodes = layers.read_dataset<std::uint64_t>("bdd_nodes");
    const auto seconds = layers.read_dataset<double>("seconds");
    if (max_index != static_cast<std::int64_t>(layer_counts.size()) - 1)
      throw h5::Error("max_index is " + std::to_string(max_index) + " but /layers/count has " +
                      std::to_string(layer_counts.size()) + " entries");
    same_length(nodes.size(), layer_counts.size(), "/layers/bdd_nodes");
    same_length(seconds.size(), layer_counts.size(), "/layers/seconds");
    for (std::size_t i = 0; i < layer_counts.size(); ++i)
      result.layers.push_back({layer_counts[i], nodes[i], seconds[i]});
  }
  {
    const h5::Group dominance = file.open_group("dominance");
    result.nondominated = counts.dataset(dominance, "nondominated", "/dominance/nondominated");
    result.components = dominance.read_dataset<std::int64_t>("components");
  }
  {
    const h5::Group samples = file.open_group("samples");
    const auto boards = samples.read_dataset<std::string>("board");
    const auto indices = samples.read_dataset<std::uint32_t>("index");
    same_length(indices.size(), boards.size(), "/samples/index");
    for (std::size_t i = 0; i < boards.size(); ++i)
      result.samples.push_back({boards[i], indices[i]});
  }
  if (const std::string problem = find_inconsistency(result); !problem.empty())
    throw h5::Error("inconsistent content: " + problem);
  if (metadata != nullptr) *metadata = std::move(stored);
  return result;
}

}  // namespace

void write_classification(const std::filesystem::path& file, const Classification& result,
                          const RunMetadata& metadata) {
  if (const std::string problem = find_inconsistency(result); !problem.empty())
    throw std::logic_error("refusing to write an inconsistent classification to " + file.string() +
                           ": " + problem);
  h5::write_atomically(file, [&](const std::filesystem::path& temp) { write_file(temp, result, metadata); });
}

Classification read_classification(const std::filesystem::path& file, RunMetadata* metadata) {
  try {
    return read_file(file, metadata);
  } catch (const h5::Error& error) {
    throw InputError(file.string() + ": " + error.what());
  }
}

}  // namespace rushhour
