#pragma once
// DIR/classification.h5 (SPEC §7): the figures of one run, readable with h5py or h5dump.
//
// Format version 1 (types as stored; strings fixed-length UTF-8, see storage/hdf5.hpp):
//   root attributes
//     content ("rushhour classification": what the file is), format_version int64 (1),
//     tool_version, buddy_version, configuration (strings: the
//     RunMetadata), size, exit_row (int64), metric ("step"/"move"), max_cars, max_trucks,
//     max_vehicles (int64, -1 = no limit), engine, encoding, variable_order (strings),
//     complete (int64 0/1), seconds (float64), peak_rss_bytes, domain_count, winning_count,
//     solvable_count, unsolvable_count (uint64), max_index (int64, -1 when no layer exists)
//   /layers/count, /layers/bdd_nodes (uint64), /layers/seconds (float64): one per index 0..max
//   /dominance/nondominated (uint64), /dominance/components (int64, -1 = not computed): one
//     per index, or both empty when dominance was not computed at all
//   /samples/board (strings, one-line board strings), /samples/index (uint32): same length
//
// Format version 2 is version 1 with exact counts beyond 64 bits (8x8): it is written only
// when some count does not fit a uint64, and then every count (domain_count, winning_count,
// solvable_count, unsolvable_count, /layers/count, /dominance/nondominated) is a decimal
// string (digits only) instead of a uint64, and the root attribute count_encoding = "decimal"
// says so. docs/file-formats-counts.md shows how h5py users read both.
//
// Invariants, checked on writing (std::logic_error: a bug in the caller) and on reading
// (InputError: a damaged or foreign file):
//   sum of layer counts = solvable_count; solvable_count + unsolvable_count = domain_count;
//   winning_count = count of layer 0 (when it exists); nondominated[i] <= count[i];
//   components[i] >= -1; every sample is a board of the domain with index <= max_index.
// For an unfinished run, unsolvable_count holds the configurations not classified yet.
#include <cstdint>
#include <filesystem>

#include "board/classification.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour {

inline constexpr std::int64_t kClassificationFormatVersion = 1;
inline constexpr std::int64_t kClassificationDecimalFormatVersion = 2;
inline constexpr const char* kDecimalCountEncoding = "decimal";
inline constexpr const char* kClassificationContent = "rushhour classification";

// Writes `file` atomically (temporary file, fsync, rename, fsync of the directory).
// Throws std::runtime_error if the file system fails.
void write_classification(const std::filesystem::path& file, const Classification& result,
                          const RunMetadata& metadata);

// Reads and validates `file`; fills *metadata when given. Throws InputError with a one-line
// reason naming the file ("<file>: truncated (...)", "<file>: missing attribute 'size'",
// "<file>: written by format version 7, this tool reads 1 and 2", ...).
Classification read_classification(const std::filesystem::path& file,
                                   RunMetadata* metadata = nullptr);

}  // namespace rushhour
