// `rushhour verify`: a finished run re-checked from what it saved (query/run_checks.hpp), one
// line per check, then the run digest. Exit 0 when every check holds, 1 when one does not.
#include <iostream>
#include <limits>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "board/errors.hpp"
#include "query/run_checks.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kVerifyUsage =
    "usage: rushhour verify --run DIR [--sample K [--seed S] | --all] [--threads N] [--boards K]\n"
    "       rushhour verify --clusters DB [--records K]\n"
    "\n"
    "Re-checks a finished run from what it saved: classification.h5's figures against each\n"
    "other and its domain and winning counts against the exact counter, its sample boards\n"
    "(and a bdd run's saved layers) by the board-level search, a class sweep's census against\n"
    "classification.h5 and a sample of its work items solved again against their records, a\n"
    "partitioned run's parts against classification.h5 and a sample of them solved again by\n"
    "the class engine. A finished part of a class sweep (classify --items K/N, not merged yet):\n"
    "its census against itself and a sample of its work items. One line per check, then the\n"
    "run digest (none for a part); exit 1 if a check fails.\n"
    "With --clusters: rows of a puzzle database against their clusters searched again.";

}  // namespace

int run_verify(const std::vector<std::string>& args) {
  po::options_description options("verify options");
  // clang-format off
  options.add_options()
      ("run", po::value<std::string>(), "the run directory DIR")
      ("boards", po::value<int>()->default_value(3),
       "a bdd run: boards of each saved layer whose index is checked by search")
      ("sample", po::value<int>()->default_value(20),
       "K work units (a class sweep's items, a partitioned run's parts), evenly spaced, "
       "solved again and compared")
      ("seed", po::value<std::uint64_t>(), "the K units chosen at random with seed S instead")
      ("all", po::bool_switch(), "every recorded work unit solved again")
      ("threads", po::value<int>()->default_value(1), "work units solved at once")
      ("clusters", po::value<std::string>(), "a puzzle database DB.h5 (classify --clusters)")
      ("records", po::value<long long>()->default_value(1000),
       "with --clusters: about K rows, evenly spaced, searched again");
  // clang-format on
  const auto vm = parse_options(kVerifyUsage, options, args);
  if (!vm) return 0;
  bool all_passed = true;
  const auto print = [&](const RunCheck& check) {
    all_passed = all_passed && check.passed;
    std::cout << (check.passed ? "ok    " : "FAIL  ") << check.name << ": " << check.detail << std::endl;
  };
  if (vm->count("clusters")) {
    if (vm->count("run")) throw InputError("verify takes --run DIR or --clusters DB, not both");
    if (!(*vm)["boards"].defaulted() || !(*vm)["sample"].defaulted() || (*vm)["all"].as<bool>() ||
        vm->count("seed") || !(*vm)["threads"].defaulted())
      throw InputError("--boards, --sample, --seed, --all and --threads go with --run DIR");
    const long long records = (*vm)["records"].as<long long>();
    if (records < 0) throw InputError("--records must be >= 0");
    check_database((*vm)["clusters"].as<std::string>(), static_cast<std::uint64_t>(records), print);
    return all_passed ? 0 : 1;
  }
  if (!vm->count("run")) throw InputError("verify needs --run DIR (or --clusters DB)");
  if (!(*vm)["records"].defaulted()) throw InputError("--records goes with --clusters DB");
  const int boards = (*vm)["boards"].as<int>(), sample = (*vm)["sample"].as<int>();
  if (boards < 0) throw InputError("--boards must be >= 0");
  if (sample < 0) throw InputError("--sample must be >= 0");
  const bool all = (*vm)["all"].as<bool>();
  if (all && !(*vm)["sample"].defaulted()) throw InputError("--sample K or --all, not both");
  if (all && vm->count("seed")) throw InputError("--seed chooses a --sample, not --all");
  const int threads = (*vm)["threads"].as<int>();
  if (threads < 1) throw InputError("--threads must be >= 1");
  RunCheckOptions check;
  check.boards_per_layer = boards;
  check.units = all ? std::numeric_limits<int>::max() : sample;
  if (vm->count("seed")) check.seed = (*vm)["seed"].as<std::uint64_t>();
  check.threads = threads;
  check.on_progress = [](const std::string& line) { std::cerr << line << std::endl; };
  const std::string digest = check_run((*vm)["run"].as<std::string>(), check, print);
  if (!digest.empty()) std::cout << "run digest " << digest << " (its figures)\n";
  return all_passed ? 0 : 1;
}

}  // namespace rushhour::app
