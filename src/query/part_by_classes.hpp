#pragma once
// A part of a partitioned symbolic run solved again by the class engine, for `verify`: the
// part fixes the kind sequences of some lines, so it is the union of the classes with those
// kind sequences (explicit/class_engine.hpp ClassEngineOptions::fixed_lines), each solved
// explicitly, their figures summed in the shape the run records a part's figures (its
// dominance figures, components from its components_from, layers up to its max_layers).
#include <cstdint>
#include <optional>

#include "encoding/line_partition.hpp"
#include "storage/part_store.hpp"
#include "storage/run_identity.hpp"

namespace rushhour {

// Part `number` of a run of `identity`, or nullopt if one of its classes is above the class
// engine's memory bound (`threads`: this process's solvers at once, which share the bound).
std::optional<PartFigures> part_by_classes(const PartitionedRunIdentity& identity, const DomainPart& part,
                                           std::uint64_t number, int threads);

}  // namespace rushhour
