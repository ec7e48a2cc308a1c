#pragma once
// A run directory (classify --out DIR): where a run's files are found, each checked against
// the run's identity (storage/run_identity.hpp).
//
//   DIR/classification.h5        the result (storage/classification_file.hpp)
//   DIR/layers/layer-NNNN.bdd    the symbolic engine's layers; each header holds the layer
//                                identity: the encoding's layout description + " metric=..."
//   DIR/parts/                   a partitioned run's finished parts, a file each with all its
//                                layers and figures; identity: partitioned_run_identity
//   DIR/dominance/               the symbolic dominance pass's checkpoint; identity: the
//                                layer identity + the component budget options
//   DIR/classes-checkpoint.txt   a class sweep's checkpoint; identity: the rules, the sample
//                                options, the mirror and the part (ClassSweepIdentity)
//   DIR/class-items.bin          a digest of each finished work item's figures, for verify
//                                (storage/item_records.hpp); identity: ClassSweepIdentity
//
// Resume policy: a fresh run clears what an earlier run left; --resume continues from the
// files whose identity equals this run's and refuses a directory made with other parameters
// (InputError). Queries open runs through the same identities (query/).
// Runs split into parts and merged (several processes, several machines) keep their parts'
// files here too: the merge of parts belongs to this class.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "bdd/session.hpp"
#include "board/classification.hpp"
#include "board/rules.hpp"
#include "encoding/state_encoding.hpp"
#include "run/settings.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/dominance_checkpoint.hpp"
#include "storage/layer_store.hpp"
#include "storage/part_store.hpp"
#include "storage/run_identity.hpp"

namespace rushhour::run {

class RunDirectory {
 public:
  explicit RunDirectory(std::filesystem::path root) : root_(std::move(root)) {}
  // Creates the directory if it does not exist (a run about to write to it).
  void create() const;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path result_file() const { return root_ / "classification.h5"; }
  bool has_layers() const;

  LayerStore layers(const std::string& layer_identity) const;
  // The finished parts of a partitioned run (storage/part_store.hpp).
  PartStore parts(const std::string& partitioned_run_identity) const;
  bool has_parts() const;
  // Whether DIR holds a partitioned run that keeps its parts' figures only
  // (storage/parts_checkpoint.hpp): no layers to answer a query from.
  bool has_part_figures_only() const;
  // Removes the part files and the parts checkpoint of a partitioned run; returns how many files.
  int clear_parts() const;

  // Which files a run owns. A directory holds one kind of run: query would take another
  // kind's files for this run's, so a run removes them (remove_other_runs).
  //   Layers       bdd engine: layers/, dominance/ (and classes-checkpoint.txt with
  //                --dominance-by classes)
  //   Parts        bdd engine with --partition: parts/, parts-checkpoint.txt, whole-layers.h5
  //                (and classes-checkpoint.txt)
  //   ClassSweep   classes engine: classes-checkpoint.txt
  enum class RunKind { Layers, Parts, ClassSweep };
  // Removes the files of the other kinds of run; returns how many files.
  int remove_other_runs(RunKind kind) const;
  // What they are, for the line that reports them ("part files of a partitioned run").
  static std::string other_runs(RunKind kind);
  std::filesystem::path whole_layers_file() const { return root_ / "whole-layers.h5"; }
  DominanceCheckpoint dominance_checkpoint(const std::string& dominance_identity) const;
  ClassCheckpoint class_checkpoint(const ClassSweepIdentity& identity) const;
  // The state a class sweep of `identity` resumes from: nullopt with the reason in *why when
  // DIR holds no checkpoint or one of another identity. Throws InputError if it is damaged.
  std::optional<ClassSweepState> class_sweep_to_resume(const ClassSweepIdentity& identity,
                                                       std::string* why) const;
  // The class sweep checkpoint with its identity, read without knowing it (queries, merges);
  // nullopt if there is none. Throws InputError if it is damaged.
  struct SavedSweep {
    ClassSweepIdentity identity;
    ClassSweepState state;
  };
  std::optional<SavedSweep> saved_class_sweep() const;

  // The layers of the run opened for reading: the rules and encoding rebuilt from the first
  // layer's identity and checked to give the very same layout. Throws InputError if DIR
  // holds no layers, or damaged, foreign or mixed files.
  struct OpenedLayers {
    std::unique_ptr<Rules> rules;
    std::unique_ptr<StateEncoding> encoding;
    std::unique_ptr<LayerStore> store;
  };
  OpenedLayers open_layers(BddSession& session) const;

  // Writes the result file atomically, with the run's effective configuration.
  void write_result(const Classification& result, const std::string& configuration) const;

 private:
  std::filesystem::path root_;
};

}  // namespace rushhour::run
