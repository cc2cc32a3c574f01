# docs tests (included by test/CMakeLists.txt).
# The README and doc/*.rst say what the repository has (utils/check-docs.py): every doc page
# linked from the README and doc/adc.rst's toctree; the package lists equal the adc script's
# PACKAGES and INTEROP_PACKAGES; the fuzz target list equals fuzz/targets.txt; every repository
# path the docs name exists; the status table names the five subjects and the experiments table
# every experiment with its run time; doc/adc.rst's Examples names every example; the layer
# drawing names every model/ folder; one figure for the MPI set-up time; sections named in
# cross-references exist.
add_test(
  NAME adc-docs-match-repository
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/../utils/check-docs.py --root
          ${CMAKE_CURRENT_SOURCE_DIR}/..
)
set_tests_properties(adc-docs-match-repository PROPERTIES LABELS docs)

# Every option the docs give a program (crd-compare --failLower=2, ./adc run gslb-rtt --
# --methods=RTT, an option table under a program's command) is in that program's --PrintHelp;
# an option named without its program is some program's, script's or tool's. The programs are
# every examples/*.cc and bench/*.cc this build has.
file(GLOB _adc_doc_sources ${CMAKE_CURRENT_SOURCE_DIR}/../examples/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/../bench/*.cc
)
set(_adc_doc_programs)
foreach(_src ${_adc_doc_sources})
  get_filename_component(_prog ${_src} NAME_WE)
  if(TARGET ${_prog})
    list(APPEND _adc_doc_programs --program ${_prog}=$<TARGET_FILE:${_prog}>)
  endif()
endforeach()
if(_adc_doc_programs)
  add_test(
    NAME adc-docs-options-exist
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/../utils/check-docs.py --root
            ${CMAKE_CURRENT_SOURCE_DIR}/.. --options ${_adc_doc_programs}
  )
  set_tests_properties(adc-docs-options-exist PROPERTIES LABELS docs TIMEOUT 300)
endif()
