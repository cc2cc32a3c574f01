# Interoperability with a real HTTP client (curl) through a tap, in a network namespace the
# test creates (test/interop/http-curl.sh; label interop; exit 77 = SKIPPED with the reason).
# Not in the sanitizer profile: real peers judge the wire against real-time timers (hold
# timers, retries), which ASan's slowdown distorts; the models these programs run are covered
# there by the GoogleTest suites and the bad-input test.
if(TARGET emulate-http AND NOT ADC_PROFILE STREQUAL "sanitize")
  add_test(NAME interop-http-curl
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/http-curl.sh $<TARGET_FILE:emulate-http>
  )
  set_tests_properties(interop-http-curl PROPERTIES LABELS interop SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
