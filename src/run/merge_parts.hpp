#pragma once
// `rushhour merge`: the states of finished parts K/N of one class sweep (explicit/item_parts.hpp,
// run/class_sweep.hpp), each run on its own (job arrays, machines by hand), added into one.
#include <filesystem>
#include <string>
#include <vector>

#include "explicit/class_census.hpp"
#include "run/run_directory.hpp"

namespace rushhour::run {

// The number of work items of part `saved` (the checkpoint of a part, not of a whole job, in
// `directory`). Throws InputError naming the reason where the part is not finished: items of
// the part missing or refused by the memory bound, items of other parts.
std::uint64_t finished_part_items(const std::filesystem::path& directory, const RunDirectory::SavedSweep& saved);

// The states of finished parts 1..N of one job (their directories, in any order), added into
// one. Throws InputError naming the reason when a directory holds no part checkpoint, the
// parts belong to other parameters or other N, a part is there twice or missing, or a part is
// not finished.
struct MergedParts {
  std::string parameters;  // the whole job's parameter line
  ClassSweepState state;
};
MergedParts merge_item_parts(const std::vector<std::filesystem::path>& part_directories);

// The parts' item records (storage/item_records.hpp) copied into `out`'s log under the whole
// job's `parameters`, so that verify solves items of the merged run again; a part without
// records (or with records of other parameters) adds none. Returns how many it copied.
std::uint64_t merge_item_records(const std::vector<std::filesystem::path>& part_directories,
                                 const std::filesystem::path& out, const std::string& parameters);

}  // namespace rushhour::run
