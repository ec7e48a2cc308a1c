#pragma once
// Settings for symbolic tests.
#include "bdd/session.hpp"

namespace rushhour::test_support {

// A deliberately tiny node table and cache: garbage collection and table growth run all the
// time, so a handle that is not protected or a count taken over a stale node shows up.
inline BddSettings tiny_table() {
  BddSettings settings;
  settings.initial_nodes = 1000;
  settings.cache_size = 100;
  return settings;
}

}  // namespace rushhour::test_support
