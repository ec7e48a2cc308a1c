#pragma once
// The identities of a run's saved files, written into each file and compared on --resume and
// query: what the saved figures or layers depend on, as text. The rules part of every identity
// is board/rules_codec.hpp's; each kind of file adds what else it depends on.
#include <cstdint>
#include <optional>
#include <string>

#include "board/rules.hpp"
#include "board/search.hpp"
#include "encoding/encoding_factory.hpp"
#include "encoding/state_encoding.hpp"
#include "explicit/item_parts.hpp"

namespace rushhour {

// What a layer identity names: enough to rebuild the very same encoding.
struct LayerIdentity {
  Rules rules;
  EncodingKind encoding = EncodingKind::Slot;
  SlotEncodingOptions slot{};
  CellEncodingOptions cell{};
};

// The identity of the layers of `encoding` under `metric`.
std::string layer_identity(const StateEncoding& encoding, Metric metric);
// The rules and encoding of a layer identity. Throws InputError (naming `where`) if the text
// is not one.
LayerIdentity parse_layer_identity(const std::string& text, const std::string& where);
// The identity of a symbolic dominance pass over those layers: the component figures depend
// on the budget options (components_from appears when it is not 0).
std::string dominance_identity(const std::string& layer_identity, int dominance_indices,
                               std::int64_t dominance_components, int components_from);
// The identity of a partitioned run (run/partitioned_run.hpp): the rules, the slot encoding's
// options, the metric, the partition and every option its parts' figures depend on, e.g.
// "encoding=slot line_code=index order=interleaved size=5 exit_row=2 max_cars=-1
// max_trucks=-1 max_vehicles=-1 metric=step partition=rows max_layers=-1 dominance=1
// samples=5 sample_indices=10", with " components_from=I" after dominance=1 when the
// components are counted from index I > 0. Every part file of the run carries it.
std::string partitioned_run_identity(const Rules& rules, const SlotEncodingOptions& slot,
                                     const std::string& partition, int max_layers, bool part_dominance,
                                     int components_from, int samples_per_index, int sample_indices);
// The rules, encoding and partition of such an identity. Throws InputError (naming `where`)
// if the text is not one.
struct PartitionedRunIdentity {
  LayerIdentity layers;
  std::string partition;
  int max_layers = -1;      // -1: every layer
  bool dominance = false;   // each part's dominance figures
  int components_from = 0;  // components counted from this index on (-1 below it)
};
PartitionedRunIdentity parse_partitioned_run_identity(const std::string& text, const std::string& where);

// The identity of a class sweep: everything its figures and checkpoints depend on. Its text is
// the parameter line of DIR/classes-checkpoint.txt, e.g. "size=6 exit_row=2 metric=move
// max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10", then " mirror=1"
// where the sweep solves one class of each mirror pair (its checkpoints count the mirror items
// of the items before next_item), then " items=K/N" for part K of a job split into N parts.
// Two sweeps are the same sweep exactly when their texts are equal.
struct ClassSweepIdentity {
  Rules rules;
  int samples_per_index = 5;
  int sample_indices = 10;
  bool mirror = true;  // asked for; it applies only on odd boards with the middle exit row
  ItemPart part{};
  // The sweep counts its minimal clusters under these rules (ClassEngineOptions::minimal_counts):
  // its checkpoint's figures hold them, so a sweep without them cannot continue it.
  std::vector<MinimalRule> minimal_counts{};

  std::string text() const;
  // The identity of such a text. Throws InputError if it is not one.
  static ClassSweepIdentity parse(const std::string& text);
  // The whole sweep this identity is a part of.
  ClassSweepIdentity whole() const;
};

}  // namespace rushhour
