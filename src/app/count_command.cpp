// `rushhour count`: the exact numbers of all placements, domain and winning configurations
// (SPEC §2) for a board size, exit row, vehicle limits and walls, from the counting polynomial
// (explicit/counting.hpp): no enumeration, so it answers at once for every size up to 8.
#include <iostream>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "board/count.hpp"
#include "board/errors.hpp"
#include "explicit/counting.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kCountUsage =
    "usage: rushhour count --size N [--exit-row E] [--max-cars K] [--max-trucks K]\n"
    "                      [--max-vehicles K] [--walls K | --walls A-B] [--domain all|puzzle]\n"
    "\n"
    "Prints the exact numbers of vehicle placements, domain and winning configurations\n"
    "(decimal integers, exact at every size); with walls, also per number of walls.";

}  // namespace

int run_count(const std::vector<std::string>& args) {
  po::options_description options("count options");
  // clang-format off
  options.add_options()
      ("size", po::value<int>(), "board size N")
      ("exit-row", po::value<int>()->default_value(-1), "exit row (default (N-1)/2)")
      ("max-cars", po::value<int>()->default_value(-1), "at most K cars (-1 = no limit)")
      ("max-trucks", po::value<int>()->default_value(-1), "at most K trucks (-1 = no limit)")
      ("max-vehicles", po::value<int>()->default_value(-1), "at most K vehicles (-1 = no limit)")
      ("walls", po::value<std::string>()->default_value("0"), "K (0 to K walls) or A-B walls")
      ("domain", po::value<std::string>()->default_value("all"),
       "all | puzzle (the domain and winning counts of the puzzle domain; placements are all)");
  // clang-format on
  const auto vm = parse_options(kCountUsage, options, args);
  if (!vm) return 0;
  if (!vm->count("size")) throw InputError("count needs --size N");
  const Rules rules((*vm)["size"].as<int>(), (*vm)["exit-row"].as<int>(), Metric::Step,
                    VehicleLimits{(*vm)["max-cars"].as<int>(), (*vm)["max-trucks"].as<int>(),
                                  (*vm)["max-vehicles"].as<int>()},
                    parse_domain((*vm)["domain"].as<std::string>()),
                    parse_wall_range((*vm)["walls"].as<std::string>()));
  std::vector<PlacementCounts> by_walls;
  const PlacementCounts counts = count_placements(rules, &by_walls);
  // The metric plays no role in the counts: the description leaves it out.
  std::string board = rules.describe();
  board.erase(board.find(", step metric"), std::string(", step metric").size());
  std::cout << board << "\n"
            << "placements " << to_string(counts.placements) << "\n"
            << "domain     " << to_string(counts.domain) << "\n"
            << "winning    " << to_string(counts.winning) << "\n";
  // Any wall range is a sum of these rows.
  if (!rules.walls().none())
    for (int walls = rules.walls().min; walls <= rules.walls().max; ++walls) {
      const PlacementCounts& part = by_walls[static_cast<std::size_t>(walls)];
      std::cout << walls << (walls == 1 ? " wall:  " : " walls: ") << "placements " << to_string(part.placements)
                << ", domain " << to_string(part.domain) << ", winning " << to_string(part.winning) << "\n";
    }
  return 0;
}

}  // namespace rushhour::app
