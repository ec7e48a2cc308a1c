#include "storage/run_identity.hpp"

#include "board/errors.hpp"
#include "board/rules_codec.hpp"
#include "explicit/class_options.hpp"

namespace rushhour {

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
  identity.max_layers = integer_field(values, "max_layers", where);
  identity.dominance = integer_field(values, "dominance", where) != 0;
  if (values.count("components_from") != 0) identity.components_from = integer_field(values, "components_from", where);
  return identity;
}

std::string ClassSweepIdentity::text() const {
  return rules_text(rules) + " samples=" + std::to_string(samples_per_index) +
         " sample_indices=" + std::to_string(sample_indices) +
         (mirror_applies(rules, mirror) ? " mirror=1" : "") +
         (part.whole() ? "" : " items=" + part.describe()) +
         (minimal_counts.empty() ? "" : " minimal_counts=" + to_string(minimal_counts));
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
  if (values.count("minimal_counts") != 0)
    identity.minimal_counts = parse_minimal_rules(values.at("minimal_counts"));
  // Nothing unknown, repeated or spelled otherwise: the text is the one this identity writes.
  if (identity.text() != text) throw InputError(where + ": not the parameters of a class sweep");
  return identity;
}

ClassSweepIdentity ClassSweepIdentity::whole() const {
  ClassSweepIdentity whole = *this;
  whole.part = ItemPart{};
  return whole;
}

}  // namespace rushhour
