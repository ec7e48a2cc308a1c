#pragma once
// The class engine's symbolic path: one class of line kind sequences (every line's sequence
// fixed, so that only the vehicles' positions are left) classified by the BDD engine
// restricted to it (run/part_run.hpp with a DomainPart fixing all 2n lines), its figures in
// the class engine's terms (ClassFigures). Large classes with few vehicles are where BDDs
// compress.
//
// BuDDy has one global manager, so the solver takes one class at a time: a worker that meets
// a class for it waits while another class is solved, the other workers go on with their
// explicit classes. The class's node table and caches are bounded by ClassLines::max_bytes (a
// thread's share of --max-memory), and with components counted by closures that is all it
// holds; a class that does not fit, or a stop requested while it is solved, gives nullopt (the
// class engine then refuses its work item).
#include "explicit/class_engine.hpp"
#include "encoding/line_partition.hpp"

namespace rushhour::run {

// The DomainPart of a class: every line fixed to its kind sequence.
DomainPart class_part(const ClassLines& lines);

// How the solver counts a class's components (RetrogradeOptions::symbolic_components): by one
// closure each, which holds nothing per configuration and was faster on every 7x7 class
// measured (results/7x7/symbolic-classes.md), or explicitly (comparisons).
enum class ComponentCount { ByClosures, Explicit };

// A solver for the classes of `rules`' board (its metric and exit row; a class fixes its
// vehicles, so the rules' limits play no part), with the sweep's sample options.
ClassSolver symbolic_class_solver(const Rules& rules, int samples_per_index, int sample_indices,
                                  ComponentCount components = ComponentCount::ByClosures);

}  // namespace rushhour::run
