# interop-dns tests (included by test/CMakeLists.txt): real dig, kdig and nsd against the
# module's DNS models through a tap, each test in a network namespace of its own
# (test/interop/dns-*.sh; emulate-dns is the simulated side). They skip (exit 77) where they
# cannot run: not root, no /dev/net/tun, a DNS program not installed.
# Not in the sanitizer profile: real peers judge the wire against real-time timers (hold
# timers, retries), which ASan's slowdown distorts; the models these programs run are covered
# there by the GoogleTest suites and the bad-input test.
if(TARGET emulate-dns AND NOT ADC_PROFILE STREQUAL "sanitize")
  set(_adc_dns ${CMAKE_CURRENT_SOURCE_DIR}/interop)
  add_test(NAME interop-dns-adns-dig
           COMMAND bash ${_adc_dns}/dns-adns.sh $<TARGET_FILE:emulate-dns> dig)
  add_test(NAME interop-dns-adns-kdig
           COMMAND bash ${_adc_dns}/dns-adns.sh $<TARGET_FILE:emulate-dns> kdig)
  add_test(NAME interop-dns-truncation
           COMMAND bash ${_adc_dns}/dns-truncation.sh $<TARGET_FILE:emulate-dns>)
  add_test(NAME interop-dns-ldns-nsd
           COMMAND bash ${_adc_dns}/dns-ldns-nsd.sh $<TARGET_FILE:emulate-dns>)
  add_test(NAME interop-dns-zone-dig COMMAND bash ${_adc_dns}/dns-zone.sh $<TARGET_FILE:emulate-dns> dig)
  add_test(NAME interop-dns-zone-kdig
           COMMAND bash ${_adc_dns}/dns-zone.sh $<TARGET_FILE:emulate-dns> kdig)
  set_tests_properties(interop-dns-adns-dig interop-dns-adns-kdig interop-dns-truncation
                       interop-dns-ldns-nsd interop-dns-zone-dig interop-dns-zone-kdig
                       PROPERTIES LABELS interop SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
