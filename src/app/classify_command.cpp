// `rushhour classify`: options -> run settings (run/settings) -> engine (run/engine) ->
// summary on stdout.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "run/merge_parts.hpp"
#include "storage/run_digest.hpp"
#include "run/engine.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kUsage =
    "usage: rushhour classify --size N [options]\n"
    "Classifies every configuration of the N x N board by its index (least number of steps or\n"
    "moves to a winning configuration). Progress goes to stderr, the summary to stdout.\n"
    "Under mpirun (or srun), --engine classes and --engine bdd with --partition run on every\n"
    "rank, rank 0 dealing the work items (or parts) and writing the result (docs/cluster.md);\n"
    "a build without MPI refuses to run under a launcher (`rushhour --version` says whether\n"
    "this one has MPI). An option marked [bdd], [classes] or [bdd and classes] is used by\n"
    "those engines only: set for another engine, it is refused.";

void print_summary(const Classification& c, const std::filesystem::path& out) {
  std::cout << "rushhour classify: " << c.rules.describe() << "\n"
            << "engine " << c.engine << ", encoding " << c.encoding << ", order "
            << c.variable_order << (c.complete ? "" : "  (INCOMPLETE: stopped early)") << "\n"
            << "domain " << to_string(c.domain_count) << ", winning " << to_string(c.winning_count)
            << ", solvable " << to_string(c.solvable_count) << ", "
            << (c.complete ? "unsolvable " : "not yet classified ") << to_string(c.unsolvable_count)
            << ", max index " << c.max_index() << "\n\n";
  std::cout << "index  configurations  non-dominated  components\n";
  for (int i = 0; i <= c.max_index(); ++i) {
    std::cout << std::setw(5) << i << std::setw(16) << to_string(c.layers[i].count);
    if (i < static_cast<int>(c.nondominated.size()))
      std::cout << std::setw(15) << to_string(c.nondominated[i]) << std::setw(12)
                << (c.components[i] < 0 ? std::string("-") : std::to_string(c.components[i]));
    std::cout << "\n";
  }
  for (const Sample& sample : c.samples) {
    if (static_cast<int>(sample.index) != c.max_index()) continue;
    std::cout << "\nhardest configuration (index " << sample.index << "): " << sample.board << "\n"
              << to_grid(c.rules, parse_board(sample.board, c.rules));
    break;
  }
  // A stopped run's figures are partial: no digest to compare.
  if (c.complete) std::cout << "\nrun digest " << run_digest(c) << " (its figures)";
  std::cout << "\n" << c.seconds << " s, peak RSS " << run::mib(c.peak_rss_bytes);
  if (!out.empty()) std::cout << ", wrote " << (out / "classification.h5").string();
  std::cout << "\n";
}

}  // namespace

int run_merge(const std::vector<std::string>& args) {
  po::options_description options("Merge");
  options.add_options()("out", po::value<std::string>(), "the merged run's directory")(
      "parts", po::value<std::vector<std::string>>()->multitoken(), "the parts' directories (also positional)");
  // The parts' directories are positional: everything that is no option or --out's value.
  std::vector<std::string> named;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].rfind("-", 0) == 0) {
      named.push_back(args[k]);
      if (args[k] == "--out" && k + 1 < args.size()) named.push_back(args[++k]);
    } else {
      named.insert(named.end(), {"--parts", args[k]});
    }
  }
  const auto vm = parse_options(
      "usage: rushhour merge --out DIR DIR_1 ... DIR_N\n"
      "Adds the finished parts of a class sweep run with `classify --items K/N --out DIR_K` into one\n"
      "run: DIR/classification.h5 and DIR/classes-checkpoint.txt, as one undivided run writes them.",
      options, named);
  if (!vm) return 0;
  if (!vm->count("out")) throw InputError("merge needs --out DIR");
  if (!vm->count("parts")) throw InputError("merge needs the directories of the parts");
  std::vector<std::filesystem::path> parts;
  for (const std::string& part : (*vm)["parts"].as<std::vector<std::string>>()) parts.emplace_back(part);
  const run::MergedParts merged = run::merge_item_parts(parts);
  const ClassSweepIdentity identity = ClassSweepIdentity::parse(merged.parameters);
  const Rules& rules = identity.rules;
  const ClassCensus census = census_of_sweep(rules, merged.state);
  if (!census.complete) throw InputError("the parts do not hold every work item");
  const run::RunDirectory directory((*vm)["out"].as<std::string>());
  directory.create();
  run::merge_item_records(parts, directory.root(), merged.parameters);
  directory.class_checkpoint(identity).save(merged.state);
  const Classification result = census.classification();
  directory.write_result(result, "merged from " + std::to_string(parts.size()) + " parts: " + merged.parameters);
  print_summary(result, directory.root());
  return 0;
}

int run_classify(const std::vector<std::string>& args) {
  const auto vm = parse_options(kUsage, run::classify_options(), args);
  if (!vm) return 0;
  const run::RunSettings settings = run::settings_from(*vm, run::Environment::of_this_process());
  const run::StopSignals signals;
  run::ProgressLog log(settings.common.quiet, settings.common.log_file);
  log.line("classify " + settings.common.rules.describe() + ", engine " + run::to_string(settings.engine));
  std::optional<run::RunDirectory> directory;
  if (!settings.common.out.empty() && !settings.sweep.estimate) {  // an estimate writes nothing
    directory.emplace(settings.common.out);
    directory->create();
  }
  const run::Engine& engine = run::engine_for(settings.engine);
  const run::RunOutcome outcome = engine.run(settings, directory ? &*directory : nullptr, log);
  const Classification& result = outcome.figures;
  std::cout << outcome.report << std::flush;
  // Under MPI, rank 0 writes and prints the job's result; the other ranks hold none.
  if (!settings.environment.reports()) return signals.received() != 0 ? 128 + signals.received() : 0;
  if (!result.complete && !engine.writes_incomplete_results()) {
    if (signals.received() == 0) return 0;  // a work sample: its figures are the rate only
  } else {
    if (directory) directory->write_result(result, settings.common.configuration);
    print_summary(result, settings.common.out);
  }
  if (signals.received() != 0) {
    // Said even with --quiet: the exit status alone does not tell what was kept.
    std::cerr << "rushhour: stopped by signal " << signals.received() << " at a safe point; "
              << engine.kept_when_stopped() << ", --resume continues" << std::endl;
    return 128 + signals.received();
  }
  return 0;
}

std::string classify_configuration(const std::string& ini_text) {
  po::options_description options = run::classify_options();
  options.add_options()("config", po::value<std::string>(), "")("help,h", "");
  po::variables_map vm;
  std::istringstream text(ini_text);
  store_config(text, options, "config text", vm);
  try {
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return run::settings_from(vm, run::Environment::of_this_process()).common.configuration;
}

}  // namespace rushhour::app
