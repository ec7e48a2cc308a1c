#include "encoding/encoding_factory.hpp"

#include "board/errors.hpp"

namespace rushhour {

std::string to_string(EncodingKind encoding) { return encoding == EncodingKind::Cell ? "cell" : "slot"; }

EncodingKind parse_encoding(const std::string& text) {
  if (text == "slot") return EncodingKind::Slot;
  if (text == "cell") return EncodingKind::Cell;
  throw InputError("unknown encoding '" + text + "' (expected slot or cell)");
}

std::unique_ptr<StateEncoding> make_encoding(BddSession& session, const Rules& rules, EncodingKind kind,
                                             const SlotEncodingOptions& slot, const CellEncodingOptions& cell) {
  if (kind == EncodingKind::Cell) return std::make_unique<CellEncoding>(session, rules, cell);
  return std::make_unique<SlotEncoding>(session, rules, slot);
}

}  // namespace rushhour
