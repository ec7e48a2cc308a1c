#include "run/run_directory.hpp"

#include <map>
#include <sstream>

#include "board/errors.hpp"
#include "board/rules_codec.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "storage/bdd_file.hpp"
#include "storage/classification_file.hpp"
#include "storage/parts_checkpoint.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour::run {

std::string layer_identity(const StateEncoding& encoding, Metric metric) {
  return encoding.layout_description() + " metric=" + to_string(metric);
}

LayerIdentity parse_layer_identity(const std::string& text, const std::string& where) {
  const TextFields values = parse_text_fields(text);
  const auto value = [&](const char* key) { return values.count(key) ? values.at(key) : std::string(); };
  const std::string kind = value("encoding");
  if ((kind != "slot" && kind != "cell") || values.count("metric") == 0)
    throw InputError(where + ": not a layer of a rushhour run");
  LayerIdentity identity{.rules = rules_from_fields(values, where), .encoding = parse_encoding(kind)};
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
                               std::int64_t dominance_components, int components_from) {
  return layer_identity + " dominance_indices=" + std::to_string(dominance_indices) +
         " dominance_components=" + std::to_string(dominance_components) +
         (components_from == 0 ? "" : " components_from=" + std::to_string(components_from));
}

std::string partitioned_run_identity(const Rules& rules, const SlotEncodingOptions& slot,
                                     const std::string& partition, int max_layers, bool part_dominance,
                                     int components_from, int samples_per_index, int sample_indices) {
  return "encoding=slot line_code=" + slot.line_code + " order=" + slot.order + " " + rules_text_without_metric(rules) +
         " metric=" + to_string(rules.metric()) + " partition=" + partition + " max_layers=" + std::to_string(max_layers) +
         " dominance=" + (part_dominance ? "1" : "0") +
         (part_dominance && components_from != 0 ? " components_from=" + std::to_string(components_from) : "") +
         " samples=" + std::to_string(samples_per_index) +
         " sample_indices=" + std::to_string(sample_indices);
}

PartitionedRunIdentity parse_partitioned_run_identity(const std::string& text, const std::string& where) {
  const TextFields values = parse_text_fields(text);
  const auto partition = values.find("partition");
  if (partition == values.end()) throw InputError(where + ": not a part of a partitioned rushhour run");
  PartitionedRunIdentity identity{parse_layer_identity(text, where), partition->second};
  if (identity.layers.encoding != EncodingKind::Slot)
    throw InputError(where + ": a partitioned run of another encoding than slot");
  return identity;
}

std::string ClassSweepIdentity::text() const {
  return rules_text(rules) + " samples=" + std::to_string(samples_per_index) + " sample_indices=" + std::to_string(sample_indices) +
         (mirror_applies(rules, mirror) ? " mirror=1" : "") + (part.whole() ? "" : " items=" + part.describe());
}

ClassSweepIdentity ClassSweepIdentity::parse(const std::string& text) {
  const std::string where = "class sweep parameters '" + text + "'";
  const TextFields values = parse_text_fields(text);
  ClassSweepIdentity identity{
      .rules = rules_from_fields(values, where),
      .samples_per_index = integer_field(values, "samples", where),
      .sample_indices = integer_field(values, "sample_indices", where),
      .mirror = values.count("mirror") != 0};
  if (values.count("items") != 0) identity.part = parse_item_part(values.at("items"));
  // Nothing unknown, repeated or spelled otherwise: the text is the one this identity writes.
  if (identity.text() != text) throw InputError(where + ": not the parameters of a class sweep");
  return identity;
}

ClassSweepIdentity ClassSweepIdentity::whole() const {
  ClassSweepIdentity whole = *this;
  whole.part = ItemPart{};
  return whole;
}

void RunDirectory::create() const { std::filesystem::create_directories(root_); }

bool RunDirectory::has_layers() const { return std::filesystem::exists(root_ / "layers"); }

LayerStore RunDirectory::layers(const std::string& layer_identity) const {
  return LayerStore(root_, layer_identity);
}

PartStore RunDirectory::parts(const std::string& partitioned_run_identity) const {
  return PartStore(root_, partitioned_run_identity);
}

bool RunDirectory::has_parts() const { return std::filesystem::exists(root_ / "parts"); }

bool RunDirectory::has_part_figures_only() const { return std::filesystem::exists(PartsCheckpoint::file_in(root_)); }

int RunDirectory::clear_parts() const {
  const bool checkpoint = std::filesystem::remove(PartsCheckpoint::file_in(root_));
  return parts("").clear() + (checkpoint ? 1 : 0);
}

int RunDirectory::remove_bdd_run() const {
  const int removed = layers("").clear() + clear_parts();
  dominance_checkpoint("").clear();
  // An empty layers directory would still mark the directory as a bdd run's.
  std::error_code not_empty;
  std::filesystem::remove(root_ / "layers", not_empty);
  return removed;
}

DominanceCheckpoint RunDirectory::dominance_checkpoint(const std::string& dominance_identity) const {
  return DominanceCheckpoint(root_, dominance_identity);
}

ClassCheckpoint RunDirectory::class_checkpoint(const ClassSweepIdentity& identity) const {
  return ClassCheckpoint(root_, identity.text());
}

std::optional<ClassSweepState> RunDirectory::class_sweep_to_resume(const ClassSweepIdentity& identity,
                                                                   std::string* why) const {
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(root_);
  if (!saved) {
    *why = "no class sweep checkpoint";
    return std::nullopt;
  }
  if (saved->parameters != identity.text()) {
    *why = "the class sweep checkpoint belongs to other parameters (" + saved->parameters + ")";
    return std::nullopt;
  }
  return saved->state;
}

std::optional<RunDirectory::SavedSweep> RunDirectory::saved_class_sweep() const {
  std::optional<SavedClassSweep> saved = ClassCheckpoint::read(root_);
  if (!saved) return std::nullopt;
  try {
    return SavedSweep{ClassSweepIdentity::parse(saved->parameters), std::move(saved->state)};
  } catch (const InputError& e) {
    throw InputError(ClassCheckpoint::file_in(root_).string() + ": " + e.what());
  }
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
