#pragma once
// Shared option handling for the subcommands: Boost.Program_options on the command line plus
// an optional INI config file (--config FILE); the command line wins over the file.
#include <boost/program_options.hpp>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace rushhour::app {

namespace po = boost::program_options;

// Parses `args` against `options` (to which --help and --config are added). Returns nullopt
// after printing help to stdout when --help was given. Throws InputError on unknown options,
// malformed values, or an unreadable or malformed config file.
std::optional<po::variables_map> parse_options(const std::string& usage,
                                               po::options_description options,
                                               const std::vector<std::string>& args);

// Stores the settings of an INI text (config file syntax) read from `text` into `vm`, checked
// against `options`; values already in `vm` are kept (the command line wins). `source` names
// the text in error messages. Throws InputError on unknown options or malformed lines/values.
void store_config(std::istream& text, const po::options_description& options,
                  const std::string& source, po::variables_map& vm);

// Parses "4,5,6" into {4,5,6} and "2-9" into {2,...,9} (also "2-4,7"). Every number must lie
// in lowest..highest, checked before a range is expanded; `describe` names a value in the
// message ("--cars: 12 cars is outside 1..9"). Throws InputError.
std::vector<int> parse_int_list(const std::string& text, const std::string& option_name,
                                int lowest, int highest,
                                const std::function<std::string(int)>& describe);

}  // namespace rushhour::app
