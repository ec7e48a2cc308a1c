#pragma once
// The text form of the rules, the one codec between a Rules value and the identity every
// saved file carries (run directories, layer and part files, checkpoints, class sweeps):
//
//   size=6 exit_row=2 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 [domain=puzzle] [walls=A-B]
//
// words "key=value" separated by single spaces, in this order; a field at its default value
// where older files lack it (domain=all, walls=0) is left out, so that every file written before the
// field existed keeps its identity. Without the metric (rules_text_without_metric) the same
// words name what a state encoding depends on. The HDF5 form of the same fields is
// storage/rules_attributes.hpp.
#include <map>
#include <string>

#include "board/rules.hpp"

namespace rushhour {

using TextFields = std::map<std::string, std::string>;

std::string rules_text(const Rules& rules);
std::string rules_text_without_metric(const Rules& rules);

// "key=value key=value ..." -> fields (a word without '=' is skipped; a repeated key keeps
// its last value).
TextFields parse_text_fields(const std::string& text);

// The rules named by `fields` (from rules_text, possibly among other fields), with `metric`
// when the fields carry none. Throws InputError naming `where` and the field at fault.
Rules rules_from_fields(const TextFields& fields, const std::string& where);
Rules rules_from_fields(const TextFields& fields, Metric metric, const std::string& where);

// An integer field of `fields`; throws InputError naming `where` if it is missing or not a number.
int integer_field(const TextFields& fields, const std::string& key, const std::string& where);

}  // namespace rushhour
