#pragma once
// DIR/class-items.bin: one record per finished work item of a class sweep, its number and a
// digest of its figures, appended as items finish, so that `verify` can solve a sample of
// them again and compare each with what the run had (query/run_checks.hpp).
//
// Format: a first line "rushhour class item records 1 " followed by the sweep's parameter
// line (ClassSweepIdentity::text) and "\n"; then records of three little-endian 64-bit
// words: item, digest, and FNV-1a of the first two (a torn or damaged record ends the
// reading: the records after it are not trusted). flush() makes the records so far durable;
// the sweep calls it before each checkpoint, so every item a checkpoint counts as done has its
// record. An item solved twice (after a resume) has two records, equal unless something failed;
// a resumed run first cuts off a record torn by the kill.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace rushhour {

class ItemRecordLog {
 public:
  // Opens DIR's log for appending. `fresh`, or a log of other parameters, starts it empty.
  // Throws std::runtime_error if the file cannot be written.
  ItemRecordLog(const std::filesystem::path& run_directory, const std::string& parameters, bool fresh);
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
  static std::optional<Records> read(const std::filesystem::path& run_directory);
  static std::filesystem::path file_in(const std::filesystem::path& run_directory);

 private:
  std::filesystem::path file_;
  std::FILE* out_ = nullptr;
};

}  // namespace rushhour
