#include "storage/dominance_checkpoint.hpp"

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "storage/bdd_file.hpp"

namespace rushhour {
namespace {

constexpr const char* kDominanceMagicLine = "rushhour dominance checkpoint 1";
constexpr const char* kAboveKind = "dominance-above";

}  // namespace

DominanceCheckpoint::DominanceCheckpoint(const std::filesystem::path& run_directory,
                                         std::string parameters, const std::string& name)
    : directory_(run_directory / name), parameters_(std::move(parameters)) {
  if (parameters_.find('\n') != std::string::npos)
    throw std::logic_error("dominance checkpoint parameters must be one line");
}

std::filesystem::path DominanceCheckpoint::above_path(int index) const {
  char name[32];
  std::snprintf(name, sizeof name, "above-%04d.bdd", index);
  return directory_ / name;
}

void DominanceCheckpoint::save(const DominanceProgress& progress) const {
  std::filesystem::create_directories(directory_);
  save_bdd(above_path(progress.lowest), progress.above,
           {.parameters = parameters_, .kind = kAboveKind, .index = progress.lowest});
  const auto file = directory_ / "progress.txt";
  {
    AtomicReplacement replacement(file);
    {
      std::ofstream out(replacement.temp_path());
      out << kDominanceMagicLine << "\nparameters " << parameters_ << "\nlowest " << progress.lowest
          << "\nclosures_left " << progress.closures_left << "\nlayers "
          << progress.nondominated.size() << "\n";
      for (std::size_t i = progress.nondominated.size(); i-- > static_cast<std::size_t>(progress.lowest);)
        out << i << ' ' << to_string(progress.nondominated[i]) << ' ' << progress.components[i]
            << '\n';
      out << "end\n";
      out.close();
      if (!out) throw std::system_error(errno, std::generic_category(), "cannot write " + file.string());
    }
    replacement.commit();
  }
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("above-", 0) == 0 && entry.path().extension() == ".bdd" &&
        entry.path() != above_path(progress.lowest))
      std::filesystem::remove(entry.path());
  }
}

std::optional<DominanceProgress> DominanceCheckpoint::load(int layer_count, std::string* why) const {
  const auto file = directory_ / "progress.txt";
  if (!std::filesystem::exists(file)) {
    *why = "no dominance checkpoint";
    return std::nullopt;
  }
  std::ifstream in(file);
  const auto damaged = [&](const std::string& what) {
    return InputError(file.string() + ": " + what + " (not a complete dominance checkpoint)");
  };
  std::string line;
  if (!std::getline(in, line) || line != kDominanceMagicLine) throw damaged("unknown first line");
  if (!std::getline(in, line) || line.rfind("parameters ", 0) != 0) throw damaged("no parameters");
  if (line.substr(11) != parameters_) {
    *why = "the dominance checkpoint belongs to other parameters (" + line.substr(11) + ")";
    return std::nullopt;
  }
  DominanceProgress progress;
  std::string key;
  std::size_t layers = 0;
  if (!(in >> key >> progress.lowest) || key != "lowest") throw damaged("no lowest index");
  if (!(in >> key >> progress.closures_left) || key != "closures_left")
    throw damaged("no closure budget");
  if (!(in >> key >> layers) || key != "layers") throw damaged("no layer count");
  if (layers != static_cast<std::size_t>(layer_count)) {
    *why = "the dominance checkpoint is for " + std::to_string(layers) + " layers, the run has " +
           std::to_string(layer_count);
    return std::nullopt;
  }
  if (progress.lowest < 0 || progress.lowest >= layer_count) throw damaged("lowest index out of range");
  progress.nondominated.assign(layers, 0);
  progress.components.assign(layers, -1);
  for (int i = layer_count - 1; i >= progress.lowest; --i) {
    int index = 0;
    if (!(in >> index) || !read_count(in, progress.nondominated[static_cast<std::size_t>(i)]) ||
        !(in >> progress.components[static_cast<std::size_t>(i)]) || index != i)
      throw damaged("figures of index " + std::to_string(i) + " missing");
  }
  if (!(in >> key) || key != "end") throw damaged("no end line");

  BddFileHeader header;
  progress.above = load_bdd(above_path(progress.lowest), &header);
  if (header.kind != kAboveKind || header.index != progress.lowest || header.parameters != parameters_)
    throw InputError(above_path(progress.lowest).string() + ": not the dominance set of index " +
                     std::to_string(progress.lowest) + " of this run");
  return progress;
}

void DominanceCheckpoint::clear() const {
  if (!std::filesystem::is_directory(directory_)) return;
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (name == "progress.txt" || (name.rfind("above-", 0) == 0 && entry.path().extension() == ".bdd"))
      std::filesystem::remove(entry.path());
  }
}

}  // namespace rushhour
