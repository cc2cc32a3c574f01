# interop-bgp tests (included by test/CMakeLists.txt): the simulated SLB MUX's BGP speaker
# (examples/emulate-bgp, on a tap) against real BIRD 2 and FRR 8 daemons, each script in a
# network namespace of its own. They skip (exit 77, "SKIPPED: reason") without root,
# /dev/net/tun or the daemon. REQ: SLB-04, SLB-10, SLB-12.
# Not in the sanitizer profile: real peers judge the wire against real-time timers (hold
# timers, retries), which ASan's slowdown distorts; the models these programs run are covered
# there by the GoogleTest suites and the bad-input test.
if(TARGET emulate-bgp AND NOT ADC_PROFILE STREQUAL "sanitize")
  foreach(_t bird frr bird-as2 bird-as4 frr-as4)
    add_test(
      NAME interop-bgp-${_t}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/bgp-${_t}.sh $<TARGET_FILE:emulate-bgp>
    )
    # Real time: about 35 s for the whole-life tests, 15 s for the others, when idle; the
    # timeout leaves room for a loaded machine (CTest -j2 with other real-time tests).
    set_tests_properties(
      interop-bgp-${_t} PROPERTIES LABELS interop SKIP_RETURN_CODE 77 TIMEOUT 180
    )
  endforeach()
endif()
