#pragma once
// The subcommands of the `rushhour` executable. Each takes the arguments after its name and
// returns the process exit status; errors travel as exceptions (InputError -> 2, others -> 1),
// mapped in run().
#include <string>
#include <vector>

namespace rushhour::app {

int run(int argc, const char* const* argv);

int run_classify(const std::vector<std::string>& args);
int run_count(const std::vector<std::string>& args);
int run_explode(const std::vector<std::string>& args);
int run_query(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_verify(const std::vector<std::string>& args);
int run_report(const std::vector<std::string>& args);

// What `rushhour classify --config FILE` makes of an INI text, without running anything: the
// text is parsed against the classify options and validated like a command line; returns the
// effective configuration ("key = value" per line). Throws InputError. (The fuzzing entry
// point for config files, tests/fuzz/config_file.fuzz.cc.)
std::string classify_configuration(const std::string& ini_text);

}  // namespace rushhour::app
