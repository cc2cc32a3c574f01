# bad-input tests (included by test/CMakeLists.txt).
#
# Every experiment program against a matrix of mistakes built from its own option declaration
# (utils/check-bad-input.py, the experiment scaffold's --PrintOptionSpec): each refused with
# exit status 2 and one message naming the option (or FILE:LINE), no crash, within seconds.
# Label bad-input (ctest -L bad-input). Under the sanitizer build a process costs about a
# second: one case per option (--quick) and a longer per-case timeout there.
if(ADC_PROFILE STREQUAL "sanitize")
  set(_bad_input_mode --quick --timeout 30)
  set(_bad_input_timeout 300)
else()
  set(_bad_input_mode --timeout 10)
  set(_bad_input_timeout 240)
endif()
set(_examples ${CMAKE_CURRENT_SOURCE_DIR}/../examples)

# Configurations a program must refuse (or run) that the matrix cannot build from the option
# declarations, written at configure time from the shipped files.
set(_files ${CMAKE_CURRENT_BINARY_DIR}/bad-input-files)
file(MAKE_DIRECTORY ${_files}/gslb-no-newline ${_files}/gslb-other-domain ${_files}/gslb-two-sites)
foreach(_site a b c)
  set(_shipped ${_examples}/gslb-site-${_site}.ns.conf)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_shipped})
  file(READ ${_shipped} _text)
  # The same file without its last newline: gslb-rtt must read it as it is.
  string(STRIP "${_text}" _stripped)
  file(WRITE ${_files}/gslb-no-newline/gslb-site-${_site}.ns.conf "${_stripped}")
  # A domain the clients do not resolve: every visit would fail.
  string(REPLACE "www.gslb.example" "www.other.example" _other "${_text}")
  file(WRITE ${_files}/gslb-other-domain/gslb-site-${_site}.ns.conf "${_other}")
  if(NOT _site STREQUAL "c")
    file(WRITE ${_files}/gslb-two-sites/gslb-site-${_site}.ns.conf "${_text}")
  endif()
endforeach()
# A CS configuration without the policy the rollout changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_examples}/cs-canary.ns.conf)
file(READ ${_examples}/cs-canary.ns.conf _text)
string(REGEX REPLACE "bind cs vserver [^\n]* -policyName [^\n]*\n" "" _text "${_text}")
file(WRITE ${_files}/cs-no-policy.ns.conf "${_text}")

# crd-compare --configDir: the run is the files' variant (named from them); a variant the files
# contradict is refused (the shipped files are the two-tier-ROUNDROBIN topology).
set(_crd_small "--accessNets=1 --clientsPerNet=2 --duration=2 --pcap=0")
set(_extra_crd-compare "--accept=--configDir=${_examples} ${_crd_small}")
foreach(_tiers two one)
  foreach(_method ROUNDROBIN LEASTCONNECTION URLHASH DESTINATIONIPHASH)
    foreach(_failure "" "-failure")
      set(_variant ${_tiers}-tier-${_method}${_failure})
      if(_variant MATCHES "^two-tier-ROUNDROBIN")
        list(APPEND _extra_crd-compare
             "--accept=--configDir=${_examples} --variants=${_variant} ${_crd_small}")
      else()
        list(APPEND _extra_crd-compare
             "--refuse=--variants::--configDir=${_examples} --variants=${_variant}")
      endif()
    endforeach()
  endforeach()
endforeach()
list(APPEND _extra_crd-compare "--refuse=--lower::--configDir=${_examples} --lower=3")
# crd-flows: the shipped files balance the caches round robin with -reuse ON: the seed's hit
# would be a miss and legs would be hidden, so they are refused.
set(_extra_crd-flows "--refuse=--configDir::--configDir=${_examples}")
set(_extra_cs-canary
    "--refuse=binds no policy::--config=${_files}/cs-no-policy.ns.conf --modes=NONE --scenarios=0"
)
set(_gslb_small "--duration=20 --regions=1 --clientsPerRegion=1 --methods=RTT --congestAt=5 \
--failAt=6 --recoverAt=10")
set(_extra_gslb-rtt
    "--refuse=www.gslb.example::--config=${_files}/gslb-other-domain"
    "--refuse=gslb-site-c.ns.conf::--config=${_files}/gslb-two-sites"
    "--accept=--config=${_files}/gslb-no-newline ${_gslb_small}"
    "--refuse=--probeOrder=DNS,PING,PONG: unknown name PONG::--probeOrder=DNS,PING,PONG")

# The emulate-* programs are checked once they declare their options through the scaffold
# (until then the checker skips them, status 77).
foreach(
  _program
  adc-core-baseline
  crd-compare
  crd-flows
  cs-canary
  gslb-rtt
  ilb-topologies
  slb-contoso
  slb-mux-failure
  emulate-bgp
  emulate-dns
  emulate-http
)
  if(TARGET ${_program})
    set(_bad_input_skip)
    if(_program MATCHES "^emulate-")
      set(_bad_input_skip --if-scaffold)
    endif()
    add_test(
      NAME bad-input-${_program}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/../utils/check-bad-input.py
              ${_bad_input_mode} ${_bad_input_skip} ${_extra_${_program}} --work
              ${CMAKE_CURRENT_BINARY_DIR}/bad-input/${_program} $<TARGET_FILE:${_program}>
    )
    set_tests_properties(bad-input-${_program} PROPERTIES LABELS bad-input SKIP_RETURN_CODE 77
                                                          TIMEOUT ${_bad_input_timeout})
  endif()
endforeach()
