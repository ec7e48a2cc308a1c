#include "run/run_directory.hpp"

#include "board/errors.hpp"
#include "storage/bdd_file.hpp"
#include "storage/classification_file.hpp"
#include "storage/item_records.hpp"
#include "storage/parts_checkpoint.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour::run {

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
  const bool records = std::filesystem::remove(ItemRecordLog::file_in(root_, RecordedUnits::Parts));
  return parts("").clear() + (checkpoint ? 1 : 0) + (records ? 1 : 0);
}

int RunDirectory::remove_other_runs(RunKind kind) const {
  int removed = 0;
  std::error_code ignored;
  if (kind != RunKind::Parts) {
    removed += clear_parts();
    if (std::filesystem::remove(whole_layers_file(), ignored)) ++removed;
  }
  if (kind != RunKind::Layers) {
    removed += layers("").clear();
    dominance_checkpoint("").clear();
    // An empty layers directory would still mark the directory as a bdd run's.
    std::filesystem::remove(root_ / "layers", ignored);
  }
  return removed;
}

std::string RunDirectory::other_runs(RunKind kind) {
  switch (kind) {
    case RunKind::Layers: return "part files of a partitioned run";
    case RunKind::Parts: return "layer files of an unpartitioned run";
    case RunKind::ClassSweep: return "layer and part files of a bdd run";
  }
  return "files of another run";
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
