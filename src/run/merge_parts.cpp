#include "run/merge_parts.hpp"

#include <map>

#include "board/errors.hpp"
#include "explicit/item_parts.hpp"
#include "run/run_directory.hpp"
#include "storage/item_records.hpp"

namespace rushhour::run {

std::uint64_t finished_part_items(const std::filesystem::path& directory, const RunDirectory::SavedSweep& saved) {
  const ItemPart part = saved.identity.part;
  const std::vector<ItemRange> items = part_items(saved.state.items, part);
  const std::uint64_t missing = count_of(missing_of(items, saved.state));
  if (missing > 0)
    throw InputError(directory.string() + ": part " + part.describe() + " is not finished (" + std::to_string(missing) +
                     " of its work items missing; --resume it)");
  if (!saved.state.refused.empty())
    throw InputError(directory.string() + ": part " + part.describe() + " has " +
                     std::to_string(saved.state.refused.size()) +
                     " work items refused by the memory bound (--resume it with more memory)");
  if (saved.state.items_done() != count_of(items))
    throw InputError(directory.string() + ": part " + part.describe() + " holds items of other parts");
  return count_of(items);
}

MergedParts merge_item_parts(const std::vector<std::filesystem::path>& part_directories) {
  if (part_directories.empty()) throw InputError("merge needs the directories of the parts");
  MergedParts merged;
  std::map<int, std::filesystem::path> seen;
  int parts = 0;
  int samples = 0, sample_indices = 0;
  for (const std::filesystem::path& directory : part_directories) {
    const std::optional<RunDirectory::SavedSweep> saved = RunDirectory(directory).saved_class_sweep();
    if (!saved) throw InputError(directory.string() + ": no class sweep checkpoint (not a part of a job)");
    const ItemPart part = saved->identity.part;
    if (part.whole())
      throw InputError(directory.string() + ": not a part (a run of every work item: " + saved->identity.text() + ")");
    const std::string parameters = saved->identity.whole().text();
    if (merged.parameters.empty()) {
      merged.parameters = parameters;
      parts = part.parts;
      samples = saved->identity.samples_per_index;
      sample_indices = saved->identity.sample_indices;
    } else if (parameters != merged.parameters) {
      throw InputError(directory.string() + ": a part of other parameters (" + parameters + ", not " +
                       merged.parameters + ")");
    } else if (part.parts != parts) {
      throw InputError(directory.string() + ": part " + part.describe() + " of a split into " +
                       std::to_string(part.parts) + ", the others into " + std::to_string(parts));
    }
    if (const auto [it, fresh] = seen.emplace(part.part, directory); !fresh)
      throw InputError("part " + part.describe() + " is given twice: " + it->second.string() + " and " + directory.string());
    finished_part_items(directory, *saved);
    try {
      add_sweep(merged.state, saved->state, samples, sample_indices);
    } catch (const InputError& e) {
      throw InputError(directory.string() + ": " + e.what());
    }
  }
  std::string missing;
  for (int p = 1; p <= parts; ++p)
    if (!seen.count(p)) missing += (missing.empty() ? "" : ", ") + std::to_string(p);
  if (!missing.empty())
    throw InputError("parts missing: " + missing + " of " + std::to_string(parts));
  return merged;
}

std::uint64_t merge_item_records(const std::vector<std::filesystem::path>& part_directories,
                                 const std::filesystem::path& out, const std::string& parameters) {
  ItemRecordLog merged(out, parameters, true);
  std::uint64_t copied = 0;
  for (const std::filesystem::path& directory : part_directories) {
    const std::optional<RunDirectory::SavedSweep> saved = RunDirectory(directory).saved_class_sweep();
    const std::optional<ItemRecordLog::Records> records = ItemRecordLog::read(directory);
    if (!saved || !records || records->parameters != saved->identity.text()) continue;
    for (const auto& [item, digest] : records->digest_of) merged.append(item, digest);
    copied += records->digest_of.size();
  }
  merged.flush();
  return copied;
}

}  // namespace rushhour::run
