#pragma once
// Classes of the class engine set up by hand for tests: a work item (one kind sequence per
// row) is taken, then any class of it (one kind sequence per column) numbered, every admitted
// row combination whose columns admit their sequences kept, as the column search keeps them.
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_lines.hpp"
#include "explicit/class_numbering.hpp"
#include "explicit/class_rows.hpp"

namespace rushhour::class_engine::test_support {

class NumberedClasses {
 public:
  explicit NumberedClasses(Rules rules)
      : rules_(std::move(rules)),
        tables_(tables_of(rules_, false)),
        rows_(tables_, rules_, false, fixed_groups(tables_, {})),
        numbering_(tables_, rows_) {}

  // Takes work item `item`; false where the engine solves no class of it.
  bool take_item(std::uint64_t item) {
    const std::optional<std::uint64_t> combos = rows_.take(item);
    if (!combos) return false;
    rows_.build_combos(*combos);
    numbering_.start_item(*combos);
    return true;
  }

  // Numbers the taken item's class whose columns hold `column_group`; returns its states (0:
  // no row combination admits them).
  std::uint64_t number(const std::array<int, kMaxN>& column_group) {
    struct Kept {
      std::uint32_t combo;
    };
    std::vector<Kept> kept;
    for (const std::uint32_t id : rows_.admitted()) {
      const Combo& c = rows_.combos()[id];
      bool admitted = true;
      for (int j = 0; j < tables_.n; ++j)
        if (tables_.admitted(column_group[static_cast<std::size_t>(j)], c.column_mask[static_cast<std::size_t>(j)]).empty())
          admitted = false;
      if (admitted) kept.push_back({id});
    }
    if (kept.empty()) return 0;
    return numbering_.number(kept, column_group, ~std::uint64_t{0});
  }

  // The group of the kind sequence of these vehicle lengths (-1: none).
  int group_of_lengths(const std::vector<int>& lengths) const {
    for (int g = 0; g < tables_.groups; ++g)
      if (kind_lengths(tables_, g) == lengths) return g;
    return -1;
  }

  const Rules& rules() const { return rules_; }
  const LineTables& tables() const { return tables_; }
  ClassNumbering<NarrowNumbering>& numbering() { return numbering_; }

 private:
  Rules rules_;
  LineTables tables_;
  ItemRows rows_;
  ClassNumbering<NarrowNumbering> numbering_;
};

}  // namespace rushhour::class_engine::test_support
