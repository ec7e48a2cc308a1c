#pragma once
// DIR/layers/: every retrograde layer C_i in its own file layer-NNNN.bdd (storage/bdd_file.hpp),
// written atomically as soon as the layer is finished. Each file carries the run's parameter
// text (variable layout, metric, limits); a store refuses files written with other
// parameters, so --resume and query never mix runs.
#include <bdd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rushhour {

struct BddFileHeader;

class LayerStore {
 public:
  // `parameters`: canonical text of everything the layers depend on.
  LayerStore(std::filesystem::path run_directory, std::string parameters);

  const std::filesystem::path& directory() const { return directory_; }
  std::filesystem::path layer_path(int index) const;
  const std::string& parameters() const { return parameters_; }

  // Indices 0..k-1 of the consecutive layer files present (their headers checked against
  // the parameters). Throws InputError on a file of another run or a damaged header.
  int finished_layers() const;
  // `seconds`: what computing the layer took, given back by load() so that a resumed run
  // still reports it.
  void save(int index, const bdd& layer, std::optional<double> seconds = std::nullopt) const;
  struct Loaded {
    std::vector<bdd> layers;
    std::vector<std::optional<double>> seconds;  // none where the file does not say
  };
  // Loads layers 0..count-1 in the running BddSession. Throws InputError if one is damaged.
  Loaded load(int count) const;
  // Loads layer `index` alone, with the same checks.
  bdd load_one(int index) const;
  // Throws InputError unless `header` is that of layer `index` of this run.
  void check_header(int index, const BddFileHeader& header) const;
  // Removes every layer file (a fresh run in an old directory). Returns how many.
  int clear() const;

 private:
  std::filesystem::path directory_;
  std::string parameters_;
};

}  // namespace rushhour
