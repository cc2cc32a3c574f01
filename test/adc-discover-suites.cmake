# One CTest test per GoogleTest suite of an adc-test-SUBJECT program: run after each build of
# it (like gtest_discover_tests, which registers one CTest test per TEST). Used with
# -DADC_CTEST_PER_SUITE=ON, where starting a process per TEST costs more than the tests do
# (about a second each under ASan, for some 900 tests). Each suite runs as
# adc-test-SUBJECT --gtest_filter=<suite>.*; a failure prints the failing TEST's name and
# output. Each test carries the label LABEL (the program's name: ctest -L adc-test-ilb).
#
# Variables: TEST_EXECUTABLE, WORKING_DIRECTORY, TIMEOUT, LABEL, OUTPUT (the CTest file to write).
foreach(v TEST_EXECUTABLE WORKING_DIRECTORY TIMEOUT LABEL OUTPUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "adc-discover-suites.cmake: ${v} is not set")
  endif()
endforeach()
execute_process(
  COMMAND ${TEST_EXECUTABLE} --gtest_list_tests
  WORKING_DIRECTORY ${WORKING_DIRECTORY}
  OUTPUT_VARIABLE _list
  ERROR_VARIABLE _errors
  RESULT_VARIABLE _status
  TIMEOUT 300
)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "listing the tests of ${TEST_EXECUTABLE} failed (${_status}):\n${_list}\n${_errors}")
endif()
# --gtest_list_tests prints "Suite." (possibly "  # TypeParam = ...") then "  Test" lines.
string(REPLACE "\n" ";" _lines "${_list}")
set(_content "")
set(_count 0)
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^([^ #][^ ]*)\\.")
    set(_suite "${CMAKE_MATCH_1}")
    string(APPEND _content
      "add_test([==[${_suite}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${_suite}.*]==])\n"
      "set_tests_properties([==[${_suite}]==] PROPERTIES WORKING_DIRECTORY "
      "[==[${WORKING_DIRECTORY}]==] TIMEOUT ${TIMEOUT} LABELS [==[${LABEL}]==])\n")
    math(EXPR _count "${_count} + 1")
  endif()
endforeach()
if(_count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests listed no suite:\n${_list}")
endif()
file(WRITE ${OUTPUT} "${_content}")
