#include "query/saved_run.hpp"

#include <sstream>

#include "bdd/bdd_util.hpp"
#include "board/errors.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "board/game.hpp"
#include "storage/bdd_file.hpp"
#include "storage/classification_file.hpp"

namespace rushhour {
namespace {

// "key=value key=value ..." -> map.
std::map<std::string, std::string> parse_parameters(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const auto equals = word.find('=');
    if (equals != std::string::npos) values[word.substr(0, equals)] = word.substr(equals + 1);
  }
  return values;
}

int integer(const std::map<std::string, std::string>& values, const std::string& key,
            const std::string& file) {
  const auto it = values.find(key);
  try {
    if (it != values.end()) return std::stoi(it->second);
  } catch (const std::exception&) {
  }
  throw InputError(file + ": parameter '" + key + "' is missing or not a number");
}

}  // namespace

SavedRun::SavedRun(BddSession& session, const std::filesystem::path& run_directory)
    : session_(session) {
  const auto first = run_directory / "layers" / "layer-0000.bdd";
  if (!std::filesystem::exists(first))
    throw InputError(run_directory.string() + ": no finished layer (" + first.string() + " is missing)");
  const std::string parameters = read_bdd_header(first).parameters;
  const auto values = parse_parameters(parameters);
  const std::string where = first.string();
  const auto value = [&](const char* key) { return values.count(key) ? values.at(key) : std::string(); };
  const std::string kind = value("encoding");
  if ((kind != "slot" && kind != "cell") || values.count("metric") == 0)
    throw InputError(where + ": not a layer of a rushhour run");
  rules_ = std::make_unique<Rules>(
      integer(values, "size", where), integer(values, "exit_row", where),
      parse_metric(values.at("metric")),
      VehicleLimits{integer(values, "max_cars", where), integer(values, "max_trucks", where),
                    integer(values, "max_vehicles", where)});
  if (kind == "slot") {
    SlotEncodingOptions options;
    options.order = value("order");
    options.line_code = value("line_code");
    options.check();
    encoding_ = std::make_unique<SlotEncoding>(session, *rules_, options);
  } else {
    CellEncodingOptions options;
    options.order = value("order");
    options.check();
    encoding_ = std::make_unique<CellEncoding>(session, *rules_, options);
  }
  if (encoding_->layout_description() + " metric=" + to_string(rules_->metric()) != parameters)
    throw InputError(where + ": its variable layout differs from this tool's (" + parameters + ")");
  store_ = std::make_unique<LayerStore>(run_directory, parameters);
  finished_ = store_->finished_layers();

  const auto result_file = run_directory / "classification.h5";
  if (std::filesystem::exists(result_file)) {
    const Classification result = read_classification(result_file);
    if (!(result.rules == *rules_))
      throw InputError(result_file.string() + ": written for other rules than the layers (" +
                       result.rules.describe() + ")");
    complete_ = result.complete && result.max_index() == finished_ - 1;
  }
}

const bdd& SavedRun::layer(int index) {
  if (index < 0 || index >= finished_) throw std::out_of_range("layer index");
  auto it = loaded_.find(index);
  if (it == loaded_.end()) {
    bdd loaded = store_->load_one(index);
    session_.check();
    it = loaded_.emplace(index, std::move(loaded)).first;
  }
  return it->second;
}

bool SavedRun::layer_contains(int index, const Board& board) {
  return layer_contains(index, cube_values(encoding_->encode(board)));
}

bool SavedRun::layer_contains(int index, std::span<const signed char> values) {
  if (index < 0 || index >= finished_) throw std::out_of_range("layer index");
  auto it = probes_.find(index);
  if (it == probes_.end()) {
    BddFileProbe probe(store_->layer_path(index));
    store_->check_header(index, probe.header());
    it = probes_.emplace(index, std::move(probe)).first;
  }
  return it->second.contains(values);
}

std::optional<int> SavedRun::index_of(const Board& board) {
  const std::vector<signed char> values = cube_values(encoding_->encode(board));
  for (int i = 0; i < finished_; ++i)
    if (layer_contains(i, values)) return i;
  return std::nullopt;
}

std::vector<Board> SavedRun::solution(const Board& board, int index) {
  std::vector<Board> path = {board};
  for (int i = index; i > 0; --i) {
    bool found = false;
    for (Board& next : neighbours(rules_->metric(), path.back())) {
      if (layer_contains(i - 1, next)) {
        path.push_back(std::move(next));
        found = true;
        break;
      }
    }
    if (!found) throw std::runtime_error("layer " + std::to_string(i - 1) + " has no successor of a board of index " + std::to_string(i) + ": the saved layers are inconsistent");
  }
  return path;
}

}  // namespace rushhour
