#pragma once
// The bdd engine with --partition (encoding/line_partition.hpp): the domain cut into parts by
// the kind sequences of chosen lines, each part classified by the retrograde driver on its own
// BuDDy session (node table and caches started small and grown to the part), the parts dealt
// by the job scheduler (run/job_scheduler.hpp) one at a time to --part-workers forked worker
// processes (or classified on one thread of this process with one worker), or under an MPI
// launcher to the ranks (each rank one part at a time). With a run directory, each finished
// part is saved as one file (storage/part_store.hpp) by the process that classified it, with
// its configurations per index and vehicle totals; --resume sums the figures of the saved parts
// and classifies the others, and a complete run writes the vehicle totals summed (for
// filtered counts). The figures of the parts add up to the run's:
//   layers:      per index, count, BDD nodes and seconds are sums over the parts;
//   domain, winning, solvable, unsolvable: sums;
//   dominance:   per index, sums of the parts' symbolic passes (or a class sweep afterwards);
//   samples:     per index the K least explicit-engine keys over every part (SlotEncoding::
//                least_boards), for the T highest indices of the run: the explicit engine's
//                samples, whatever the partition.
// The run is complete when every part is.
#include "board/classification.hpp"
#include "run/progress.hpp"
#include "run/run_directory.hpp"
#include "run/settings.hpp"

namespace rushhour::run {

Classification classify_partitioned(const RunSettings& settings, const RunDirectory* directory,
                                    ProgressLog& log);

}  // namespace rushhour::run
