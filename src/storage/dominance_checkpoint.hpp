#pragma once
// DIR/dominance/: the state of a dominance pass, saved after every index so that --resume
// continues the pass where it stopped instead of starting again at the top index (on 6×6 the
// pass takes hours).
//
// After index i the checkpoint writes, in this order, each file atomically:
//   above-NNNN.bdd   A_i as a BDD file (storage/bdd_file.hpp, kind "dominance-above", index i)
//   progress.txt     the figures of indices >= i, the closure budget left, and the parameter
//                    text (layers and dominance options) they belong to
// and then removes the previous above-*.bdd. A kill between two steps leaves a progress.txt
// whose BDD file still exists. A checkpoint at index 0 records a finished pass.
#include <filesystem>
#include <optional>
#include <string>

#include "retrograde/retrograde.hpp"

namespace rushhour {

class DominanceCheckpoint {
 public:
  // `parameters`: canonical text of everything the figures depend on (the layers' parameter
  // text and the dominance options).
  // The files live in run_directory/name.
  DominanceCheckpoint(const std::filesystem::path& run_directory, std::string parameters,
                      const std::string& name = "dominance");

  void save(const DominanceProgress& progress) const;
  // The saved progress of a run with `layer_count` layers and the same parameters. nullopt,
  // with the reason in *why, if there is none or it belongs to other parameters. Throws
  // InputError if a file is damaged. Needs a running BddSession.
  std::optional<DominanceProgress> load(int layer_count, std::string* why) const;
  // Removes every checkpoint file (a fresh run in an old directory).
  void clear() const;

 private:
  std::filesystem::path above_path(int index) const;

  std::filesystem::path directory_;
  std::string parameters_;
};

}  // namespace rushhour
