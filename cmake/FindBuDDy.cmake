# FindBuDDy: locate BuDDy (Debian's libbdd-dev ships only bdd.h and libbdd.a,
# no CMake or pkg-config file).
#
# Provides the imported target BuDDy::BuDDy and sets BuDDy_FOUND,
# BuDDy_INCLUDE_DIR, BuDDy_LIBRARY.
find_path(BuDDy_INCLUDE_DIR NAMES bdd.h)
find_library(BuDDy_LIBRARY NAMES bdd)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(BuDDy
  REQUIRED_VARS BuDDy_LIBRARY BuDDy_INCLUDE_DIR)

if(BuDDy_FOUND AND NOT TARGET BuDDy::BuDDy)
  add_library(BuDDy::BuDDy UNKNOWN IMPORTED)
  set_target_properties(BuDDy::BuDDy PROPERTIES
    IMPORTED_LOCATION "${BuDDy_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${BuDDy_INCLUDE_DIR}")
endif()
mark_as_advanced(BuDDy_INCLUDE_DIR BuDDy_LIBRARY)
