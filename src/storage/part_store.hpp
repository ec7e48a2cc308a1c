#pragma once
// DIR/parts/: the finished parts of a partitioned run (run/partitioned_run.hpp), one file per
// part, written atomically when the part is finished:
//   DIR/parts/NNNN/part-NNNNNNNN.bdd   the part of number N (encoding/line_partition.hpp
//                                      PartNumbering) in directory N / 1000
// Each is a BDD file (storage/bdd_file.hpp, kind "part", index = the part number) whose
// parameter text holds three things, one per line and then more lines:
//   the run's identity (the same in every part file of a run; compared by the store),
//   the part encoding's layer identity (run/run_directory.hpp layer_identity),
//   the part's figures (PartFigures::text), so that --resume sums them without loading BDDs;
// and whose BDD holds every layer of the part at once: L(x, i) = "x lies in layer i", the
// layer index i in binary on `index_bits` variables after the part encoding's (from
// `index_variable` on, most significant first). One file per part rather than per layer keeps
// the file count at the number of parts, and a board's layers are found in its part's file.
#include <bdd.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "board/classification.hpp"

namespace rushhour {

// What classifying one part gave.
struct PartFigures {
  std::uint64_t number = 0;  // PartNumbering::number
  bool complete = false;     // every layer up to the first empty one (no --max-layers cut)
  bool interrupted = false;  // a stop request ended it early (such a part is not saved)
  Count domain = 0, winning = 0, solvable = 0, unsolvable = 0;
  std::vector<LayerFigures> layers;      // the part's: count, BDD nodes, seconds
  std::vector<Count> nondominated;       // the part's symbolic dominance pass, if any
  std::vector<std::int64_t> components;
  struct Sample {
    std::uint32_t index = 0;
    Count key = 0;  // the explicit engine's key (SampleKey)
    std::string board;
    friend bool operator==(const Sample&, const Sample&) = default;
  };
  std::vector<Sample> samples;  // the least keys of the part's highest indices
  // The part's configurations per index and vehicle totals (the non-zero ones), for queries
  // filtered by vehicles; a part file written before they were kept has none.
  struct VehicleCount {
    std::uint32_t index = 0;
    int cars = 0, trucks = 0;
    Count count = 0;
    friend bool operator==(const VehicleCount&, const VehicleCount&) = default;
  };
  bool has_vehicle_counts = false;
  std::vector<VehicleCount> vehicle_counts;
  std::uint64_t table_nodes = 0;  // the part's BuDDy node table at its end
  int index_variable = 0;  // the saved BDD's first layer-index variable
  int index_bits = 0;

  // Lines of "key=value" and per-index records; parse(text()) gives the same figures.
  std::string text() const;
  // Throws InputError (naming `where`) if `text` is not such figures.
  static PartFigures parse(const std::string& text, const std::string& where);
  friend bool operator==(const PartFigures&, const PartFigures&);
};

// A digest of the figures of a part that another engine can recompute: its domain and
// winning counts, its configurations per index, and its non-dominated configurations and
// components per index where the run computed them (-1 where it did not). BDD nodes, seconds
// and samples are left out. Recorded per part by a run that keeps figures only
// (storage/item_records.hpp), compared by `verify`.
std::uint64_t part_digest(const PartFigures& figures);

class PartStore {
 public:
  // `identity`: the run's identity, one line.
  PartStore(std::filesystem::path run_directory, std::string identity);

  const std::filesystem::path& directory() const { return directory_; }  // DIR/parts
  std::filesystem::path part_path(std::uint64_t number) const;
  const std::string& identity() const { return identity_; }

  // The figures of part `number` if its file exists (the header alone is read), nullopt
  // otherwise. Throws InputError if the file belongs to another run or is damaged.
  std::optional<PartFigures> figures(std::uint64_t number) const;
  // Saves a finished part: its figures, its encoding's layer identity and its layers (in the
  // running BddSession, over the part encoding's variables), as L with the figures' index
  // variables, which the session must have declared.
  void save(const PartFigures& figures, const std::string& part_layout, const std::vector<bdd>& layers) const;
  // The file of part `number`, loaded in the running BddSession, which must have declared
  // the part encoding's variables and the index variables its figures name. Throws
  // InputError if the file is missing, damaged, of another run or of another part layout.
  struct Loaded {
    PartFigures figures;
    bdd layers;  // L(x, i), see above
  };
  Loaded load(std::uint64_t number, const std::string& part_layout) const;
  // Layer `index` of a loaded part: L restricted to i = index.
  static bdd layer(const Loaded& part, int index);
  // Removes every part file (a fresh run in an old directory) and the vehicle totals. Returns
  // how many part files.
  int clear() const;

  // DIR/parts-vehicle-totals.txt: per index and vehicle totals, the configurations of every
  // part summed, so that counts filtered by vehicles read one file rather than every part.
  // Written when a run completes with every part's vehicle counts; removed when a run starts
  // (and by clear()).
  using VehicleTotals = std::map<std::tuple<int, int, int>, Count>;  // (index, cars, trucks)
  void save_vehicle_totals(const VehicleTotals& totals) const;
  // nullopt if there is no such file. Throws InputError if it is damaged or of another run.
  std::optional<VehicleTotals> vehicle_totals() const;
  void remove_vehicle_totals() const;
  std::filesystem::path vehicle_totals_path() const;

  // The run identity in the part files of DIR (the first found), nullopt if it has none.
  static std::optional<std::string> saved_identity(const std::filesystem::path& run_directory);

 private:
  std::filesystem::path directory_;
  std::string identity_;
};

}  // namespace rushhour
