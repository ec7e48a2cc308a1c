#include "board/rules_codec.hpp"

#include <sstream>

#include "board/errors.hpp"

namespace rushhour {
namespace {

std::string limits_and_domain(const Rules& rules) {
  const VehicleLimits& limits = rules.limits();
  return " max_cars=" + std::to_string(limits.max_cars) + " max_trucks=" + std::to_string(limits.max_trucks) +
         " max_vehicles=" + std::to_string(limits.max_vehicles) +
         (rules.domain() == Domain::All ? std::string() : " domain=" + to_string(rules.domain())) +
         (rules.walls().none() ? std::string() : " walls=" + to_string(rules.walls()));
}

// make()'s rules, its InputError prefixed with `where` (unless it names it already).
template <class Make>
Rules named_at(const std::string& where, const Make& make) {
  try {
    return make();
  } catch (const InputError& error) {
    const std::string reason = error.what();
    if (reason.rfind(where, 0) == 0) throw;
    throw InputError(where + ": " + reason);
  }
}

std::string size_and_exit(const Rules& rules) {
  return "size=" + std::to_string(rules.size()) + " exit_row=" + std::to_string(rules.exit_row());
}

}  // namespace

std::string rules_text(const Rules& rules) {
  return size_and_exit(rules) + " metric=" + to_string(rules.metric()) + limits_and_domain(rules);
}

std::string rules_text_without_metric(const Rules& rules) { return size_and_exit(rules) + limits_and_domain(rules); }

TextFields parse_text_fields(const std::string& text) {
  TextFields fields;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const auto equals = word.find('=');
    if (equals != std::string::npos) fields[word.substr(0, equals)] = word.substr(equals + 1);
  }
  return fields;
}

int integer_field(const TextFields& fields, const std::string& key, const std::string& where) {
  const auto it = fields.find(key);
  try {
    std::size_t used = 0;
    if (it != fields.end()) {
      const int value = std::stoi(it->second, &used);
      if (used == it->second.size()) return value;
    }
  } catch (const std::exception&) {
  }
  throw InputError(where + ": parameter '" + key + "' is missing or not a number");
}

Rules rules_from_fields(const TextFields& fields, Metric metric, const std::string& where) {
  return named_at(where, [&] {
    const auto domain = fields.find("domain");
    const auto walls = fields.find("walls");
    return Rules(integer_field(fields, "size", where), integer_field(fields, "exit_row", where), metric,
                 VehicleLimits{integer_field(fields, "max_cars", where), integer_field(fields, "max_trucks", where),
                               integer_field(fields, "max_vehicles", where)},
                 domain == fields.end() ? Domain::All : parse_domain(domain->second),
                 walls == fields.end() ? WallRange{} : parse_wall_range(walls->second));
  });
}

Rules rules_from_fields(const TextFields& fields, const std::string& where) {
  const auto metric = fields.find("metric");
  if (metric == fields.end()) throw InputError(where + ": parameter 'metric' is missing");
  return named_at(where, [&] { return rules_from_fields(fields, parse_metric(metric->second), where); });
}

}  // namespace rushhour
