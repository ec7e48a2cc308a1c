#include "storage/layer_store.hpp"

#include <cstdio>

#include "board/errors.hpp"
#include "storage/bdd_file.hpp"

namespace rushhour {

LayerStore::LayerStore(std::filesystem::path run_directory, std::string parameters)
    : directory_(std::move(run_directory) / "layers"), parameters_(std::move(parameters)) {}

std::filesystem::path LayerStore::layer_path(int index) const {
  char name[32];
  std::snprintf(name, sizeof name, "layer-%04d.bdd", index);
  return directory_ / name;
}

int LayerStore::finished_layers() const {
  int count = 0;
  while (std::filesystem::exists(layer_path(count))) {
    const BddFileHeader header = read_bdd_header(layer_path(count));
    if (header.parameters != parameters_)
      throw InputError(layer_path(count).string() +
                       ": written by a run with other parameters (" + header.parameters + ")");
    if (header.kind != "layer" || header.index != count)
      throw InputError(layer_path(count).string() + ": not layer " + std::to_string(count));
    ++count;
  }
  return count;
}

void LayerStore::save(int index, const bdd& layer, std::optional<double> seconds) const {
  std::filesystem::create_directories(directory_);
  save_bdd(layer_path(index), layer,
           {.parameters = parameters_, .kind = "layer", .index = index, .seconds = seconds});
}

LayerStore::Loaded LayerStore::load(int count) const {
  Loaded loaded;
  for (int i = 0; i < count; ++i) {
    BddFileHeader header;
    loaded.layers.push_back(load_bdd(layer_path(i), &header));
    check_header(i, header);
    loaded.seconds.push_back(header.seconds);
  }
  return loaded;
}

bdd LayerStore::load_one(int index) const {
  BddFileHeader header;
  bdd layer = load_bdd(layer_path(index), &header);
  check_header(index, header);
  return layer;
}

void LayerStore::check_header(int index, const BddFileHeader& header) const {
  if (header.parameters != parameters_ || header.kind != "layer" || header.index != index)
    throw InputError(layer_path(index).string() + ": not layer " + std::to_string(index) +
                     " of this run");
}

int LayerStore::clear() const {
  int removed = 0;
  if (!std::filesystem::is_directory(directory_)) return 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("layer-", 0) == 0 && entry.path().extension() == ".bdd")
      removed += std::filesystem::remove(entry.path()) ? 1 : 0;
  }
  return removed;
}

}  // namespace rushhour
