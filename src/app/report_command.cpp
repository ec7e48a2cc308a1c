// `rushhour report`: one self-contained HTML page of a run or a puzzle database. The binary
// checks its input (a damaged or foreign file is exit 2 here, with the readers' one-line
// reason) and computes the run digest; the page is drawn by scripts/report.py (jinja2
// templates, matplotlib plots), which asks this binary's `query --json` for each board it
// shows and its optimal solution.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "board/errors.hpp"
#include "run/run_directory.hpp"
#include "storage/classification_file.hpp"
#include "storage/cluster_database.hpp"
#include "storage/run_digest.hpp"

namespace rushhour::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kReportUsage =
    "usage: rushhour report --run DIR [--out FILE.html] [--samples K] [--indices T]\n"
    "       rushhour report --clusters DB.h5 [--out FILE.html] [--top N] [--minimal]\n"
    "\n"
    "Writes one self-contained HTML page (no network request when it is viewed): for a run, its\n"
    "identity, cost and digest, the per-index figures as tables and plots, sample boards of the\n"
    "highest indices each with a player through an optimal solution, and a class run's census\n"
    "per cars and trucks; for a puzzle database, its clusters per highest index and the first N\n"
    "puzzles of each index under each metric it holds, playable, with filters and pages. Drawn\n"
    "by scripts/report.py with Debian's /usr/bin/python3 (python3-jinja2, python3-matplotlib).";

constexpr const char* kPython = "/usr/bin/python3";

// Where report.py is: $RUSHHOUR_SCRIPTS_DIR, else the source tree the binary was built from.
fs::path report_script() {
  const char* from_environment = std::getenv("RUSHHOUR_SCRIPTS_DIR");
  const fs::path directory = from_environment && *from_environment ? fs::path(from_environment)
                                                                    : fs::path(RUSHHOUR_SCRIPTS_DIR);
  return directory / "report.py";
}

[[noreturn]] void exec_python(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  ::execv(kPython, argv.data());
  throw std::runtime_error(std::string("cannot start ") + kPython + " for the report");
}

}  // namespace

int run_report(const std::vector<std::string>& args) {
  po::options_description options("report options");
  // clang-format off
  options.add_options()
      ("run", po::value<std::string>(), "a run directory written by classify --out")
      ("clusters", po::value<std::string>(), "instead of --run: a puzzle database (classify --clusters)")
      ("out", po::value<std::string>(),
       "the page to write (default: DIR/report.html, or the database's name with .html)")
      ("samples", po::value<int>()->default_value(3), "with --run: boards shown of each index")
      ("indices", po::value<int>()->default_value(10), "with --run: the T highest indices with boards")
      ("top", po::value<int>()->default_value(5),
       "with --clusters: puzzles shown of each highest index and metric")
      ("minimal", po::bool_switch(),
       "with --clusters: also test the listed indices' clusters for minimal puzzles (query --minimal), "
       "so that the page can filter them");
  // clang-format on
  const auto vm = parse_options(kReportUsage, options, args);
  if (!vm) return 0;
  const bool of_run = vm->count("run") > 0, of_database = vm->count("clusters") > 0;
  if (of_run && of_database) throw InputError("report takes --run DIR or --clusters DB, not both");
  if (!of_run && !of_database) throw InputError("report needs --run DIR or --clusters DB");
  const auto given = [&](const char* name) { return !(*vm)[name].defaulted() && vm->count(name); };
  for (const char* name : {"samples", "indices"})
    if (of_database && given(name)) throw InputError(std::string("--") + name + " goes with --run DIR");
  if (of_run && given("top")) throw InputError("--top goes with --clusters DB");
  if (of_run && (*vm)["minimal"].as<bool>()) throw InputError("--minimal goes with --clusters DB");
  for (const char* name : {"samples", "indices", "top"})
    if ((*vm)[name].as<int>() < 1) throw InputError(std::string("--") + name + " must be at least 1");

  const fs::path script = report_script();
  if (!fs::exists(script))
    throw std::runtime_error(script.string() + " is missing (set RUSHHOUR_SCRIPTS_DIR to rushhour's scripts/)");
  std::vector<std::string> command{kPython, script.string(), "--rushhour", fs::read_symlink("/proc/self/exe").string()};
  if (of_run) {
    const fs::path directory = (*vm)["run"].as<std::string>();
    const run::RunDirectory run_directory(directory);
    if (!fs::exists(run_directory.result_file()))
      throw InputError(directory.string() + ": no classification.h5: not a run directory written by classify --out");
    const Classification figures = read_classification(run_directory.result_file());
    const std::string out = vm->count("out") ? (*vm)["out"].as<std::string>() : (directory / "report.html").string();
    command.insert(command.end(), {"--run", directory.string(), "--out", out, "--samples",
                                   std::to_string((*vm)["samples"].as<int>()), "--indices",
                                   std::to_string((*vm)["indices"].as<int>())});
    if (figures.complete) command.insert(command.end(), {"--digest", run_digest(figures)});
  } else {
    const fs::path database = (*vm)["clusters"].as<std::string>();
    const ClusterDatabase opened(database);  // throws InputError on a missing, damaged or foreign file
    const std::string out =
        vm->count("out") ? (*vm)["out"].as<std::string>() : fs::path(database).replace_extension(".html").string();
    command.insert(command.end(), {"--clusters", database.string(), "--out", out, "--top",
                                   std::to_string((*vm)["top"].as<int>())});
    if ((*vm)["minimal"].as<bool>()) command.push_back("--minimal");
  }
  exec_python(command);
}

}  // namespace rushhour::app
