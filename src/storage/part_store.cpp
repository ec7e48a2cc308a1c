#include "storage/part_store.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "storage/bdd_file.hpp"
#include "storage/run_digest.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {
namespace {

constexpr const char* kPartKind = "part";
constexpr std::uint64_t kPartsPerDirectory = 1000;
constexpr const char* kVehicleTotalsFile = "parts-vehicle-totals.txt";  // beside DIR/parts
constexpr const char* kVehicleTotalsFirstLine = "rushhour part vehicle totals 1";

// Seconds as a hexadecimal float: read back bit for bit.
std::string exact_double(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

double parse_double(const std::string& word, const std::string& where) {
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (word.empty() || *end != '\0') throw InputError(where + ": '" + word + "' is not a number");
  return value;
}

std::uint64_t parse_u64(const std::string& word, const std::string& where) {
  const Count value = parse_count(word);
  if (!fits_uint64(value)) throw InputError(where + ": '" + word + "' is too large");
  return static_cast<std::uint64_t>(value);
}

std::int64_t parse_i64(const std::string& word, const std::string& where) {
  char* end = nullptr;
  const long long value = std::strtoll(word.c_str(), &end, 10);
  if (word.empty() || *end != '\0') throw InputError(where + ": '" + word + "' is not an integer");
  return value;
}

// The cube i = index over the index variables, most significant bit first.
bdd index_cube(int index, int first_variable, int bits) {
  bdd cube = bddtrue;
  for (int k = 0; k < bits; ++k)
    cube &= (index >> (bits - 1 - k) & 1) ? bdd_ithvar(first_variable + k) : bdd_nithvar(first_variable + k);
  return cube;
}

// The header's parameter text: identity, part layout, figures.
struct PartHeaderText {
  std::string identity;
  std::string part_layout;
  std::string figures;
};

PartHeaderText split_parameters(const std::string& text) {
  PartHeaderText parts;
  const auto first = text.find('\n');
  if (first == std::string::npos) return {text, "", ""};
  parts.identity = text.substr(0, first);
  const auto second = text.find('\n', first + 1);
  if (second == std::string::npos) return {parts.identity, text.substr(first + 1), ""};
  parts.part_layout = text.substr(first + 1, second - first - 1);
  parts.figures = text.substr(second + 1);
  return parts;
}

}  // namespace

std::uint64_t part_digest(const PartFigures& figures) {
  Fnv1a64 hash;
  const auto line = [&hash](const std::string& text) {
    hash.add(text);
    hash.add("\n");
  };
  line("rushhour part digest 1");
  line(to_string(figures.domain) + " " + to_string(figures.winning));
  add_index_lines(hash, figures.layers, figures.nondominated, figures.components);
  return hash.value();
}

std::string PartFigures::text() const {
  std::ostringstream out;
  out << "number=" << number << " complete=" << complete << " interrupted=" << interrupted
      << " domain=" << to_string(domain) << " winning=" << to_string(winning) << " solvable=" << to_string(solvable)
      << " unsolvable=" << to_string(unsolvable) << " table_nodes=" << table_nodes
      << " index_variable=" << index_variable << " index_bits=" << index_bits
      << (has_vehicle_counts ? " vehicle_counts=1" : "") << "\n";
  for (const LayerFigures& layer : layers)
    out << "layer " << to_string(layer.count) << " " << layer.bdd_nodes << " " << exact_double(layer.seconds) << "\n";
  for (std::size_t i = 0; i < nondominated.size(); ++i)
    out << "dominance " << to_string(nondominated[i]) << " "
        << (i < components.size() ? components[i] : std::int64_t{-1}) << "\n";
  for (const Sample& sample : samples)
    out << "sample " << sample.index << " " << to_string(sample.key) << " " << sample.board << "\n";
  for (const VehicleCount& v : vehicle_counts)
    out << "vehicles " << v.index << " " << v.cars << " " << v.trucks << " " << to_string(v.count) << "\n";
  return out.str();
}

PartFigures PartFigures::parse(const std::string& text, const std::string& where) {
  PartFigures figures;
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line)) throw InputError(where + ": no part figures");
  std::map<std::string, std::string> values;
  {
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      const auto equals = word.find('=');
      if (equals == std::string::npos) throw InputError(where + ": '" + word + "' in the part figures");
      values[word.substr(0, equals)] = word.substr(equals + 1);
    }
  }
  const auto value = [&](const char* key) -> const std::string& {
    const auto it = values.find(key);
    if (it == values.end()) throw InputError(where + ": the part figures lack '" + key + "'");
    return it->second;
  };
  figures.number = parse_u64(value("number"), where);
  figures.complete = value("complete") == "1";
  figures.interrupted = value("interrupted") == "1";
  figures.domain = parse_count(value("domain"));
  figures.winning = parse_count(value("winning"));
  figures.solvable = parse_count(value("solvable"));
  figures.unsolvable = parse_count(value("unsolvable"));
  figures.table_nodes = parse_u64(value("table_nodes"), where);
  figures.index_variable = static_cast<int>(parse_i64(value("index_variable"), where));
  figures.index_bits = static_cast<int>(parse_i64(value("index_bits"), where));
  figures.has_vehicle_counts = values.count("vehicle_counts") != 0 && values.at("vehicle_counts") == "1";
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, a, b, c, d;
    words >> kind >> a >> b;
    if (kind == "vehicles" && (words >> c >> d) && figures.has_vehicle_counts) {
      figures.vehicle_counts.push_back({static_cast<std::uint32_t>(parse_u64(a, where)),
                                        static_cast<int>(parse_i64(b, where)), static_cast<int>(parse_i64(c, where)),
                                        parse_count(d)});
      continue;
    }
    if (kind == "layer" && (words >> c)) {
      figures.layers.push_back({parse_count(a), parse_u64(b, where), parse_double(c, where)});
    } else if (kind == "dominance" && !b.empty()) {
      figures.nondominated.push_back(parse_count(a));
      figures.components.push_back(parse_i64(b, where));
    } else if (kind == "sample" && (words >> c)) {
      figures.samples.push_back({static_cast<std::uint32_t>(parse_u64(a, where)), parse_count(b), c});
    } else {
      throw InputError(where + ": '" + line + "' in the part figures");
    }
  }
  return figures;
}

bool operator==(const PartFigures& a, const PartFigures& b) {
  const auto same_layers = [](const std::vector<LayerFigures>& x, const std::vector<LayerFigures>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i].count != y[i].count || x[i].bdd_nodes != y[i].bdd_nodes || x[i].seconds != y[i].seconds) return false;
    return true;
  };
  return a.number == b.number && a.complete == b.complete && a.interrupted == b.interrupted &&
         a.domain == b.domain && a.winning == b.winning && a.solvable == b.solvable &&
         a.unsolvable == b.unsolvable && same_layers(a.layers, b.layers) && a.nondominated == b.nondominated &&
         a.components == b.components && a.samples == b.samples && a.table_nodes == b.table_nodes &&
         a.index_variable == b.index_variable && a.index_bits == b.index_bits &&
         a.has_vehicle_counts == b.has_vehicle_counts && a.vehicle_counts == b.vehicle_counts;
}

PartStore::PartStore(std::filesystem::path run_directory, std::string identity)
    : directory_(std::move(run_directory) / "parts"), identity_(std::move(identity)) {
  if (identity_.find('\n') != std::string::npos) throw std::logic_error("a run identity of several lines");
}

std::filesystem::path PartStore::part_path(std::uint64_t number) const {
  char folder[32], name[40];
  std::snprintf(folder, sizeof folder, "%04llu", static_cast<unsigned long long>(number / kPartsPerDirectory));
  std::snprintf(name, sizeof name, "part-%08llu.bdd", static_cast<unsigned long long>(number));
  return directory_ / folder / name;
}

std::optional<PartFigures> PartStore::figures(std::uint64_t number) const {
  const auto path = part_path(number);
  if (!std::filesystem::exists(path)) return std::nullopt;
  const BddFileHeader header = read_bdd_header(path);
  const PartHeaderText text = split_parameters(header.parameters);
  if (header.kind != kPartKind || header.index != static_cast<std::int64_t>(number))
    throw InputError(path.string() + ": not the file of part " + std::to_string(number));
  if (text.identity != identity_)
    throw InputError(path.string() + ": a part of a run with other parameters (" + text.identity +
                     "; this run: " + identity_ + ")");
  PartFigures figures = PartFigures::parse(text.figures, path.string());
  if (figures.number != number) throw InputError(path.string() + ": the figures of another part");
  return figures;
}

void PartStore::save(const PartFigures& figures, const std::string& part_layout,
                     const std::vector<bdd>& layers) const {
  bdd all = bddfalse;
  for (std::size_t i = 0; i < layers.size(); ++i)
    all |= layers[i] & index_cube(static_cast<int>(i), figures.index_variable, figures.index_bits);
  const auto path = part_path(figures.number);
  std::filesystem::create_directories(path.parent_path());
  save_bdd(path, all,
           BddFileHeader{.parameters = identity_ + "\n" + part_layout + "\n" + figures.text(),
                         .kind = kPartKind,
                         .index = static_cast<std::int64_t>(figures.number)});
}

PartStore::Loaded PartStore::load(std::uint64_t number, const std::string& part_layout) const {
  std::optional<PartFigures> figures = this->figures(number);
  const auto path = part_path(number);
  if (!figures) throw InputError(path.string() + ": missing (the part is not finished)");
  BddFileHeader header;
  Loaded loaded{std::move(*figures), load_bdd(path, &header)};
  if (split_parameters(header.parameters).part_layout != part_layout)
    throw InputError(path.string() + ": its variable layout differs from this tool's (" +
                     split_parameters(header.parameters).part_layout + ")");
  return loaded;
}

bdd PartStore::layer(const Loaded& part, int index) {
  if (index < 0 || index >= static_cast<int>(part.figures.layers.size())) return bddfalse;
  return bdd_restrict(part.layers, index_cube(index, part.figures.index_variable, part.figures.index_bits));
}

int PartStore::clear() const {
  int removed = 0;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(directory_, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file()) ++removed;
  std::filesystem::remove_all(directory_);
  remove_vehicle_totals();
  return removed;
}

std::filesystem::path PartStore::vehicle_totals_path() const { return directory_.parent_path() / kVehicleTotalsFile; }

void PartStore::save_vehicle_totals(const VehicleTotals& totals) const {
  AtomicReplacement file(vehicle_totals_path());
  {
    std::ofstream out(file.temp_path());
    out << kVehicleTotalsFirstLine << "\n" << identity_ << "\n";
    for (const auto& [key, count] : totals)
      out << std::get<0>(key) << " " << std::get<1>(key) << " " << std::get<2>(key) << " " << to_string(count) << "\n";
    out << "end " << totals.size() << "\n";
    if (!out) throw std::runtime_error("cannot write " + vehicle_totals_path().string());
  }
  file.commit();
}

std::optional<PartStore::VehicleTotals> PartStore::vehicle_totals() const {
  const std::filesystem::path path = vehicle_totals_path();
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const std::string where = path.string();
  std::string line;
  if (!std::getline(in, line) || line != kVehicleTotalsFirstLine) throw InputError(where + ": not a vehicle totals file");
  if (!std::getline(in, line) || line != identity_) throw InputError(where + ": written by another run than the parts");
  VehicleTotals totals;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string a, b, c, d;
    words >> a >> b;
    if (a == "end") {
      if (parse_u64(b, where) != totals.size()) break;
      return totals;
    }
    if (!(words >> c >> d)) break;
    totals[{static_cast<int>(parse_i64(a, where)), static_cast<int>(parse_i64(b, where)),
            static_cast<int>(parse_i64(c, where))}] = parse_count(d);
  }
  throw InputError(where + ": truncated or damaged");
}

void PartStore::remove_vehicle_totals() const { std::filesystem::remove(vehicle_totals_path()); }

std::optional<std::string> PartStore::saved_identity(const std::filesystem::path& run_directory) {
  const auto directory = run_directory / "parts";
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file() && it->path().extension() == ".bdd")
      return split_parameters(read_bdd_header(it->path()).parameters).identity;
  return std::nullopt;
}

}  // namespace rushhour
