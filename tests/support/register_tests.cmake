# Registers every test of the test binary with ctest under its tier's label. Run after each
# build of the binary:
#   cmake -DTEST_BINARY=... -DWORKING_DIRECTORY=... -DCTEST_FILE=... -P register_tests.cmake
# The binary lists "<full test name> <tier>" (tests/support/test_tier.hpp); a test whose file
# declares no tier fails the build here.
execute_process(
  COMMAND "${TEST_BINARY}" --rushhour_list_tiers
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE errors
  RESULT_VARIABLE status
  TIMEOUT 120)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "listing the tests' tiers failed (${status}):\n${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^([^ ]+) (quick|full|long)$")
    message(FATAL_ERROR "unexpected line in the tiers listing: ${line}")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(tier "${CMAKE_MATCH_2}")
  string(APPEND script
    "add_test([=[${name}]=] [=[${TEST_BINARY}]=] [=[--gtest_filter=${name}]=] --gtest_also_run_disabled_tests)\n"
    "set_tests_properties([=[${name}]=] PROPERTIES LABELS ${tier} WORKING_DIRECTORY [=[${WORKING_DIRECTORY}]=]"
    " SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==])\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE "${CTEST_FILE}.new" "${script}")
file(RENAME "${CTEST_FILE}.new" "${CTEST_FILE}")
message(STATUS "registered ${count} tests")
