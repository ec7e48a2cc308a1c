#include "run/run_directory.hpp"

#include <map>
#include <sstream>

#include "board/errors.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "storage/bdd_file.hpp"
#include "storage/classification_file.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour::run {
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
            const std::string& where) {
  const auto it = values.find(key);
  try {
    if (it != values.end()) return std::stoi(it->second);
  } catch (const std::exception&) {
  }
  throw InputError(where + ": parameter '" + key + "' is missing or not a number");
}

}  // namespace

std::unique_ptr<StateEncoding> make_encoding(BddSession& session, const Rules& rules,
                                             EncodingKind kind, const SlotEncodingOptions& slot,
                                             const CellEncodingOptions& cell) {
  if (kind == EncodingKind::Cell) return std::make_unique<CellEncoding>(session, rules, cell);
  return std::make_unique<SlotEncoding>(session, rules, slot);
}

std::string layer_identity(const StateEncoding& encoding, Metric metric) {
  return encoding.layout_description() + " metric=" + to_string(metric);
}

LayerIdentity parse_layer_identity(const std::string& text, const std::string& where) {
  const auto values = parse_parameters(text);
  const auto value = [&](const char* key) { return values.count(key) ? values.at(key) : std::string(); };
  const std::string kind = value("encoding");
  if ((kind != "slot" && kind != "cell") || values.count("metric") == 0)
    throw InputError(where + ": not a layer of a rushhour run");
  LayerIdentity identity{
      .rules = Rules(integer(values, "size", where), integer(values, "exit_row", where),
                     parse_metric(values.at("metric")),
                     VehicleLimits{integer(values, "max_cars", where),
                                   integer(values, "max_trucks", where),
                                   integer(values, "max_vehicles", where)}),
      .encoding = parse_encoding(kind)};
  if (identity.encoding == EncodingKind::Slot) {
    identity.slot.order = value("order");
    identity.slot.line_code = value("line_code");
    identity.slot.check();
  } else {
    identity.cell.order = value("order");
    identity.cell.check();
  }
  return identity;
}

std::string dominance_identity(const std::string& layer_identity, int dominance_indices,
                               std::int64_t dominance_components) {
  return layer_identity + " dominance_indices=" + std::to_string(dominance_indices) +
         " dominance_components=" + std::to_string(dominance_components);
}

std::string class_sweep_identity(const Rules& rules, int samples_per_index, int sample_indices, bool mirror) {
  return class_sweep_parameters(rules, samples_per_index, sample_indices, mirror);
}

Rules rules_of_class_sweep_identity(const std::string& identity) {
  return rules_of_class_sweep(identity);
}

void RunDirectory::create() const { std::filesystem::create_directories(root_); }

bool RunDirectory::has_layers() const { return std::filesystem::exists(root_ / "layers"); }

LayerStore RunDirectory::layers(const std::string& layer_identity) const {
  return LayerStore(root_, layer_identity);
}

DominanceCheckpoint RunDirectory::dominance_checkpoint(const std::string& dominance_identity) const {
  return DominanceCheckpoint(root_, dominance_identity);
}

ClassCheckpoint RunDirectory::class_checkpoint(const std::string& class_sweep_identity) const {
  return ClassCheckpoint(root_, class_sweep_identity);
}

std::optional<SavedClassSweep> RunDirectory::saved_class_sweep() const {
  return ClassCheckpoint::read(root_);
}

RunDirectory::OpenedLayers RunDirectory::open_layers(BddSession& session) const {
  const auto first = root_ / "layers" / "layer-0000.bdd";
  if (!std::filesystem::exists(first))
    throw InputError(root_.string() + ": no finished layer (" + first.string() + " is missing)");
  const std::string identity = read_bdd_header(first).parameters;
  const std::string where = first.string();
  LayerIdentity parsed = parse_layer_identity(identity, where);
  OpenedLayers opened;
  opened.rules = std::make_unique<Rules>(parsed.rules);
  opened.encoding = make_encoding(session, *opened.rules, parsed.encoding, parsed.slot, parsed.cell);
  if (layer_identity(*opened.encoding, opened.rules->metric()) != identity)
    throw InputError(where + ": its variable layout differs from this tool's (" + identity + ")");
  opened.store = std::make_unique<LayerStore>(root_, identity);
  return opened;
}

void RunDirectory::write_result(const Classification& result, const std::string& configuration) const {
  write_classification(result_file(), result, RunMetadata::current(configuration));
}

}  // namespace rushhour::run
