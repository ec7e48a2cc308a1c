#pragma once
// The state encodings by name (--encoding slot|cell) and the one place that builds them: the
// run layer, saved layers and queries ask here for the encoding a run names.
#include <memory>
#include <string>

#include "bdd/session.hpp"
#include "board/rules.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "encoding/state_encoding.hpp"

namespace rushhour {

enum class EncodingKind { Slot, Cell };

std::string to_string(EncodingKind encoding);  // "slot", "cell"
// Throws InputError naming the choices.
EncodingKind parse_encoding(const std::string& text);

// The encoding of `kind` for the rules on `session`, with its own options (the other kind's
// are not read).
std::unique_ptr<StateEncoding> make_encoding(BddSession& session, const Rules& rules, EncodingKind kind,
                                             const SlotEncodingOptions& slot, const CellEncodingOptions& cell);

}  // namespace rushhour
