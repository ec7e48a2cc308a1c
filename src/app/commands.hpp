#pragma once
// The subcommands of the `rushhour` executable. Each takes the arguments after its name and
// returns the process exit status; errors travel as exceptions (InputError -> 2, others -> 1),
// mapped in run().
#include <string>
#include <vector>

namespace rushhour::app {

int run(int argc, const char* const* argv);

int run_classify(const std::vector<std::string>& args);
int run_explode(const std::vector<std::string>& args);
int run_query(const std::vector<std::string>& args);

}  // namespace rushhour::app
