#pragma once
// One record per finished work unit, its number and a digest of its figures, appended as
// units finish, so that `verify` can solve a sample of them again and compare each with what
// the run had (query/run_checks.hpp):
//   DIR/class-items.bin    a class sweep's work items (run/class_sweep.hpp item_digest);
//   DIR/part-records.bin   the parts of a partitioned run that keeps their figures only
//                          (--part-files figures; storage/part_store.hpp part_digest).
//
// Format: a first line "rushhour class item records 1 " (or "rushhour part records 1 ")
// followed by the run's parameter line (ClassSweepIdentity::text, or the partitioned run's
// identity) and "\n"; then records of three little-endian 64-bit words: unit, digest, and
// FNV-1a of the first two (a torn or damaged record ends the reading: the records after it are
// not trusted). flush() makes the records so far durable; the run calls it before each
// checkpoint, so every unit a checkpoint counts as done has its record. A unit solved twice
// (after a resume) has two records, equal unless something failed; a resumed run first cuts
// off a record torn by the kill.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace rushhour {

enum class RecordedUnits { ClassItems, Parts };

class ItemRecordLog {
 public:
  // Opens DIR's log for appending. `fresh`, or a log of other parameters, starts it empty.
  // Throws std::runtime_error if the file cannot be written.
  ItemRecordLog(const std::filesystem::path& run_directory, const std::string& parameters, bool fresh,
                RecordedUnits units = RecordedUnits::ClassItems);
  ~ItemRecordLog();
  ItemRecordLog(const ItemRecordLog&) = delete;
  ItemRecordLog& operator=(const ItemRecordLog&) = delete;

  void append(std::uint64_t item, std::uint64_t digest);
  void flush();  // to the disk (fsync)

  struct Records {
    std::string parameters;
    std::map<std::uint64_t, std::uint64_t> digest_of;  // item -> its digest (the last record)
    std::uint64_t conflicting = 0;  // items with two records that differ
  };
  // DIR's records, or nullopt if it has no log. Throws InputError if its first line is not a
  // log's.
  static std::optional<Records> read(const std::filesystem::path& run_directory,
                                     RecordedUnits units = RecordedUnits::ClassItems);
  static std::filesystem::path file_in(const std::filesystem::path& run_directory,
                                       RecordedUnits units = RecordedUnits::ClassItems);

 private:
  std::string header_;
  std::filesystem::path file_;
  std::FILE* out_ = nullptr;
};

}  // namespace rushhour
