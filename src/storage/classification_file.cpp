#include "storage/classification_file.hpp"

#include <stdexcept>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "storage/hdf5.hpp"

namespace rushhour {
namespace {

// The first broken invariant of `result` (see the header), or "" if there is none.
std::string find_inconsistency(const Classification& result) {
  const std::size_t layers = result.layers.size();
  std::uint64_t solvable = 0;
  for (const LayerFigures& layer : result.layers)
    if (__builtin_add_overflow(solvable, layer.count, &solvable))
      return "layer counts overflow 64 bits";
  if (solvable != result.solvable_count)
    return "layer counts add up to " + std::to_string(solvable) + ", but solvable_count is " +
           std::to_string(result.solvable_count);
  std::uint64_t domain = 0;
  if (__builtin_add_overflow(result.solvable_count, result.unsolvable_count, &domain) ||
      domain != result.domain_count)
    return "solvable_count + unsolvable_count differs from domain_count " +
           std::to_string(result.domain_count);
  if (layers > 0 && result.winning_count != result.layers[0].count)
    return "winning_count " + std::to_string(result.winning_count) + " differs from the count " +
           std::to_string(result.layers[0].count) + " of layer 0";

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

void write_file(const std::filesystem::path& path, const Classification& result,
                const RunMetadata& metadata) {
  h5::File file = h5::File::create(path);
  const VehicleLimits& limits = result.rules.limits();
  file.write_attribute<std::string>("content", kClassificationContent);
  file.write_attribute<std::int64_t>("format_version", kClassificationFormatVersion);
  file.write_attribute<std::string>("tool_version", metadata.tool_version);
  file.write_attribute<std::string>("buddy_version", metadata.buddy_version);
  file.write_attribute<std::string>("configuration", metadata.configuration);
  file.write_attribute<std::int64_t>("size", result.rules.size());
  file.write_attribute<std::int64_t>("exit_row", result.rules.exit_row());
  file.write_attribute<std::string>("metric", to_string(result.rules.metric()));
  file.write_attribute<std::int64_t>("max_cars", limits.max_cars);
  file.write_attribute<std::int64_t>("max_trucks", limits.max_trucks);
  file.write_attribute<std::int64_t>("max_vehicles", limits.max_vehicles);
  file.write_attribute<std::string>("engine", result.engine);
  file.write_attribute<std::string>("encoding", result.encoding);
  file.write_attribute<std::string>("variable_order", result.variable_order);
  file.write_attribute<std::int64_t>("complete", result.complete ? 1 : 0);
  file.write_attribute<double>("seconds", result.seconds);
  file.write_attribute<std::uint64_t>("peak_rss_bytes", result.peak_rss_bytes);
  file.write_attribute<std::uint64_t>("domain_count", result.domain_count);
  file.write_attribute<std::uint64_t>("winning_count", result.winning_count);
  file.write_attribute<std::uint64_t>("solvable_count", result.solvable_count);
  file.write_attribute<std::uint64_t>("unsolvable_count", result.unsolvable_count);
  file.write_attribute<std::int64_t>("max_index", result.max_index());
  {
    const h5::Group layers = file.create_group("layers");
    layers.write_dataset("count", column<std::uint64_t>(result.layers, &LayerFigures::count));
    layers.write_dataset("bdd_nodes",
                         column<std::uint64_t>(result.layers, &LayerFigures::bdd_nodes));
    layers.write_dataset("seconds", column<double>(result.layers, &LayerFigures::seconds));
  }
  {
    const h5::Group dominance = file.create_group("dominance");
    dominance.write_dataset("nondominated", result.nondominated);
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

int as_int(std::int64_t value, const char* name) {
  if (value < -1 || value > 1'000'000)
    throw h5::Error("attribute '" + std::string(name) + "' is out of range (" +
                    std::to_string(value) + ")");
  return static_cast<int>(value);
}

Classification read_file(const std::filesystem::path& path, RunMetadata* metadata) {
  const h5::File file = h5::File::open_read_only(path);
  if (!file.has_attribute("content"))
    throw h5::Error("not a rushhour classification file (no attribute 'content')");
  if (const auto content = file.read_attribute<std::string>("content");
      content != kClassificationContent)
    throw h5::Error("not a rushhour classification file (content '" + content + "')");
  const auto version = file.read_attribute<std::int64_t>("format_version");
  if (version != kClassificationFormatVersion)
    throw h5::Error("written by format version " + std::to_string(version) + ", this tool reads " +
                    std::to_string(kClassificationFormatVersion));

  RunMetadata stored{file.read_attribute<std::string>("tool_version"),
                     file.read_attribute<std::string>("buddy_version"),
                     file.read_attribute<std::string>("configuration")};
  const auto integer = [&](const char* name) {
    return as_int(file.read_attribute<std::int64_t>(name), name);
  };
  const auto count = [&](const char* name) { return file.read_attribute<std::uint64_t>(name); };

  Classification result = [&] {
    const int size = integer("size");
    const int exit_row = integer("exit_row");
    const std::string metric = file.read_attribute<std::string>("metric");
    const VehicleLimits limits{integer("max_cars"), integer("max_trucks"), integer("max_vehicles")};
    try {
      return Classification(Rules(size, exit_row, parse_metric(metric), limits));
    } catch (const InputError& error) {
      throw h5::Error(std::string("invalid game parameters: ") + error.what());
    }
  }();
  result.engine = file.read_attribute<std::string>("engine");
  result.encoding = file.read_attribute<std::string>("encoding");
  result.variable_order = file.read_attribute<std::string>("variable_order");
  const std::int64_t complete = file.read_attribute<std::int64_t>("complete");
  if (complete != 0 && complete != 1)
    throw h5::Error("attribute 'complete' is " + std::to_string(complete) + ", expected 0 or 1");
  result.complete = complete == 1;
  result.seconds = file.read_attribute<double>("seconds");
  result.peak_rss_bytes = count("peak_rss_bytes");
  result.domain_count = count("domain_count");
  result.winning_count = count("winning_count");
  result.solvable_count = count("solvable_count");
  result.unsolvable_count = count("unsolvable_count");
  const std::int64_t max_index = file.read_attribute<std::int64_t>("max_index");

  const auto same_length = [](std::size_t length, std::size_t expected, const char* what) {
    if (length != expected)
      throw h5::Error(std::string(what) + " has " + std::to_string(length) + " entries, expected " +
                      std::to_string(expected));
  };
  {
    const h5::Group layers = file.open_group("layers");
    const auto counts = layers.read_dataset<std::uint64_t>("count");
    const auto nodes = layers.read_dataset<std::uint64_t>("bdd_nodes");
    const auto seconds = layers.read_dataset<double>("seconds");
    if (max_index != static_cast<std::int64_t>(counts.size()) - 1)
      throw h5::Error("max_index is " + std::to_string(max_index) + " but /layers/count has " +
                      std::to_string(counts.size()) + " entries");
    same_length(nodes.size(), counts.size(), "/layers/bdd_nodes");
    same_length(seconds.size(), counts.size(), "/layers/seconds");
    for (std::size_t i = 0; i < counts.size(); ++i)
      result.layers.push_back({counts[i], nodes[i], seconds[i]});
  }
  {
    const h5::Group dominance = file.open_group("dominance");
    result.nondominated = dominance.read_dataset<std::uint64_t>("nondominated");
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
  AtomicReplacement replacement(file);
  try {
    write_file(replacement.temp_path(), result, metadata);
  } catch (const h5::Error& error) {
    throw std::runtime_error(file.string() + ": " + error.what());
  }
  replacement.commit();
}

Classification read_classification(const std::filesystem::path& file, RunMetadata* metadata) {
  try {
    return read_file(file, metadata);
  } catch (const h5::Error& error) {
    throw InputError(file.string() + ": " + error.what());
  }
}

}  // namespace rushhour
