#include "storage/rules_attributes.hpp"

#include "board/errors.hpp"

namespace rushhour {

void write_rules_attributes(const h5::Location& at, const Rules& rules) {
  const VehicleLimits& limits = rules.limits();
  at.write_attribute<std::int64_t>("size", rules.size());
  at.write_attribute<std::int64_t>("exit_row", rules.exit_row());
  at.write_attribute<std::string>("metric", to_string(rules.metric()));
  at.write_attribute<std::int64_t>("max_cars", limits.max_cars);
  at.write_attribute<std::int64_t>("max_trucks", limits.max_trucks);
  at.write_attribute<std::int64_t>("max_vehicles", limits.max_vehicles);
  at.write_attribute<std::string>("domain", to_string(rules.domain()));
  at.write_attribute<std::int64_t>("min_walls", rules.walls().min);
  at.write_attribute<std::int64_t>("max_walls", rules.walls().max);
}

Rules read_rules_attributes(const h5::Location& at) {
  const auto integer = [&](const char* name) {
    const std::int64_t value = at.read_attribute<std::int64_t>(name);
    if (value < -1 || value > 1'000'000)
      throw h5::Error("attribute '" + std::string(name) + "' is out of range (" + std::to_string(value) + ")");
    return static_cast<int>(value);
  };
  const int size = integer("size");
  const int exit_row = integer("exit_row");
  const std::string metric = at.read_attribute<std::string>("metric");
  const VehicleLimits limits{integer("max_cars"), integer("max_trucks"), integer("max_vehicles")};
  const std::string domain = at.has_attribute("domain") ? at.read_attribute<std::string>("domain") : "all";
  const WallRange walls{at.has_attribute("min_walls") ? integer("min_walls") : 0,
                        at.has_attribute("max_walls") ? integer("max_walls") : 0};
  try {
    return Rules(size, exit_row, parse_metric(metric), limits, parse_domain(domain), walls);
  } catch (const InputError& error) {
    throw h5::Error(std::string("invalid game parameters: ") + error.what());
  }
}

}  // namespace rushhour
