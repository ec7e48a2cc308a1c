#include "storage/explosion_file.hpp"

#include <stdexcept>

#include "storage/hdf5.hpp"

namespace rushhour {
namespace {

template <typename T, typename Field>
std::vector<T> column(const std::vector<ExplosionRow>& rows, Field field) {
  std::vector<T> values;
  values.reserve(rows.size());
  for (const ExplosionRow& row : rows) values.push_back(static_cast<T>(row.*field));
  return values;
}

void write_file(const std::filesystem::path& path, const std::vector<ExplosionRow>& rows,
                const RunMetadata& metadata) {
  h5::File file = h5::File::create(path);
  file.write_attribute<std::string>("content", kExplosionContent);
  file.write_attribute<std::int64_t>("format_version", kExplosionFormatVersion);
  file.write_attribute<std::string>("tool_version", metadata.tool_version);
  file.write_attribute<std::string>("buddy_version", metadata.buddy_version);
  file.write_attribute<std::string>("configuration", metadata.configuration);
  file.write_dataset("size", column<std::int64_t>(rows, &ExplosionRow::size));
  file.write_dataset("cars", column<std::int64_t>(rows, &ExplosionRow::cars));
  file.write_dataset("nodes", column<std::int64_t>(rows, &ExplosionRow::nodes));
  file.write_dataset("buddy_nodes", column<std::int64_t>(rows, &ExplosionRow::buddy_nodes));
  file.write_dataset("lower_bound", column<std::int64_t>(rows, &ExplosionRow::lower_bound));
  file.write_dataset("seconds", column<double>(rows, &ExplosionRow::seconds));
  file.write_dataset("labeled_placements",
                     column<std::int64_t>(rows, &ExplosionRow::labeled_placements));
  file.write_dataset("peak_nodes", column<std::int64_t>(rows, &ExplosionRow::peak_nodes));
  file.write_dataset("published", column<std::int64_t>(rows, &ExplosionRow::published));
  file.write_dataset("dual_legal_nodes",
                     column<std::int64_t>(rows, &ExplosionRow::dual_legal_nodes));
  file.close();
}

}  // namespace

void write_explosion_table(const std::filesystem::path& path, const std::vector<ExplosionRow>& rows,
                           const RunMetadata& metadata) {
  h5::write_atomically(path, [&](const std::filesystem::path& temp) { write_file(temp, rows, metadata); });
}

}  // namespace rushhour
