#include <iostream>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "run/merge_parts.hpp"
#include "run/environment.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kCliUsage =
    "usage: rushhour <command> [options]\n"
    "\n"
    "commands:\n"
    "  classify   classify every configuration of a board by its index\n"
    "  count      the exact numbers of placements, domain and winning configurations\n"
    "  explode    the BDD size table of the naive coordinate encoding\n"
    "  query      ask a finished or partial run about boards, indices and counts\n"
    "  merge      add the finished parts of a class sweep (classify --items K/N) into one run\n"
    "  verify     re-check a finished run from what it saved, and print its digest\n"
    "  report     one self-contained HTML page of a run or a puzzle database\n"
    "\n"
    "`rushhour <command> --help` lists a command's options; `rushhour --version`.";

}  // namespace

int run(int argc, const char* const* argv) {
  const std::vector<std::string> all(argv + 1, argv + argc);
  try {
    if (all.empty()) {
      std::cerr << kCliUsage << "\n";
      return 2;
    }
    const std::string& command = all[0];
    const std::vector<std::string> args(all.begin() + 1, all.end());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kCliUsage << "\n";
      return 0;
    }
    if (command == "--version") {
      std::cout << "rushhour " << RUSHHOUR_VERSION << " (" << BddSession::buddy_version() << ", "
                << (run::mpi_built_in() ? "with MPI" : "without MPI") << ")\n";
      return 0;
    }
    if (command == "classify") return run_classify(args);
    if (command == "count") return run_count(args);
    if (command == "explode") return run_explode(args);
    if (command == "query") return run_query(args);
    if (command == "merge") return run_merge(args);
    if (command == "verify") return run_verify(args);
    if (command == "report") return run_report(args);
    throw InputError("unknown command '" + command + "' (expected classify, count, explode, query, merge, verify or report)");
  } catch (const InputError& e) {
    std::cerr << "rushhour: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "rushhour: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace rushhour::app
