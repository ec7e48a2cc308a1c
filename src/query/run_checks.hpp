#pragma once
// `rushhour verify`: a finished run re-checked from what it saved, by means independent of the
// engine that made it, so that a wrong figure (a flipped bit, a bad node, a bug) is noticed
// rather than added in:
//   result         classification.h5 reads, and its figures agree with each other (the
//                  reader's checks: the indices add up to the solvable count and, with the
//                  unsolvable ones, to the domain; index 0 is the winning set; non-dominated
//                  <= configurations; samples are boards of the domain);
//   exact counts   the domain and winning counts equal the exact counter's
//                  (explicit/counting.hpp), which enumerates nothing;
//   indices        no index below the highest is empty; per index, components <=
//                  non-dominated, and none exactly where there are no non-dominated
//                  configurations (a component's highest index holds a non-dominated
//                  configuration, and each such lies in one); at the highest index every
//                  configuration is non-dominated;
//   samples        every sample board is a configuration of the run's domain whose shortest
//                  solution, found by the board-level search (board/search.hpp), has its
//                  recorded index;
//   census         (a class sweep) the census's per-index figures equal classification.h5's;
//   items          (a class sweep that recorded its items, storage/item_records.hpp) a
//                  sample of its work items solved again: each one's figures equal the
//                  digest the run recorded for it;
//   parts          (a partitioned run) every part file is there, and the parts' counts add
//                  up to classification.h5's, index by index; a run that keeps figures only:
//                  its checkpoint's sum of the parts equals classification.h5's figures;
//   part classes   (a partitioned run with part files, or with part records) a sample of
//                  its parts solved again by another engine, the class engine
//                  (query/part_by_classes.hpp): each one's figures equal the part file's,
//                  or the digest the run recorded;
//   layers         (a bdd run) each saved layer counts what classification.h5 says, the
//                  layers are disjoint, and the first boards of each layer have its index by
//                  the board-level search.
// Each check names what it covered, or the first index, board or file that differs.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace rushhour {

struct RunCheck {
  std::string name;
  bool passed = true;
  std::string detail;  // what it covered, or the first difference
};

struct RunCheckOptions {
  int boards_per_layer = 3;  // a bdd run's boards checked by search, per layer
  // Work units solved again: a class sweep's recorded items, a partitioned run's parts (all:
  // INT_MAX). Evenly spaced over the recorded ones, the first and the last included; with a
  // seed, a uniform random choice (the same for the same seed on every machine).
  int units = 20;
  std::optional<std::uint64_t> seed;
  int threads = 1;  // units solved at once
  // Called now and then (at most every progress_seconds) while units are solved.
  std::function<void(const std::string&)> on_progress;
  double progress_seconds = 10;
};

// Runs every check that applies to the run in DIR, calling `report` after each. Returns the
// run digest (storage/run_digest.hpp) of classification.h5's figures, or "" when the file
// cannot be read (a failed check). Throws InputError when DIR holds no classification.h5 or
// an incomplete one; a layer, part file, checkpoint or record log that is damaged or belongs to
// another run fails the check that reads it.
std::string check_run(const std::filesystem::path& run_directory, const RunCheckOptions& options,
                      const std::function<void(const RunCheck&)>& report);

// A puzzle database (classify --clusters): about `records` of its rows, evenly spaced from the
// first, each cluster searched again from its listed board (query/board_cluster.hpp) and
// compared with the row: size, highest index, hardest and winning configurations, histogram,
// pieces, the listed board itself (the canonical hardest one; in a database of minimal
// puzzles a hardest one), and with both metrics the other metric's figures. Throws
// InputError if the file is no database.
void check_database(const std::filesystem::path& database, std::uint64_t records,
                    const std::function<void(const RunCheck&)>& report);

}  // namespace rushhour
