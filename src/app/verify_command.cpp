// `rushhour verify`: a finished run re-checked from what it saved (query/run_checks.hpp), one
// line per check, then the run digest. Exit 0 when every check holds, 1 when one does not.
#include <iostream>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "board/errors.hpp"
#include "query/run_checks.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kVerifyUsage =
    "usage: rushhour verify --run DIR [--boards K]\n"
    "\n"
    "Re-checks a finished run from what it saved: classification.h5's figures against each\n"
    "other and its domain and winning counts against the exact counter, its sample boards\n"
    "(and a bdd run's saved layers) by the board-level search, a class sweep's census against\n"
    "classification.h5. One line per check, then the run digest; exit 1 if a check fails.";

}  // namespace

int run_verify(const std::vector<std::string>& args) {
  po::options_description options("verify options");
  // clang-format off
  options.add_options()
      ("run", po::value<std::string>(), "the run directory DIR")
      ("boards", po::value<int>()->default_value(3),
       "a bdd run: boards of each saved layer whose index is checked by search");
  // clang-format on
  const auto vm = parse_options(kVerifyUsage, options, args);
  if (!vm) return 0;
  if (!vm->count("run")) throw InputError("verify needs --run DIR");
  const int boards = (*vm)["boards"].as<int>();
  if (boards < 0) throw InputError("--boards must be >= 0");
  bool all_passed = true;
  const std::string digest =
      check_run((*vm)["run"].as<std::string>(), {.boards_per_layer = boards}, [&](const RunCheck& check) {
        all_passed = all_passed && check.passed;
        std::cout << (check.passed ? "ok    " : "FAIL  ") << check.name << ": " << check.detail << std::endl;
      });
  if (!digest.empty()) std::cout << "run digest " << digest << " (its figures)\n";
  return all_passed ? 0 : 1;
}

}  // namespace rushhour::app
