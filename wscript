# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# ns3-adc for waf-era ns-3 trees (<= 3.35): drop this folder into contrib/adc.
# The lists here repeat CMakeLists.txt; the test "adc-build-lists" fails when they disagree.

ADC_SOURCES = [
    'model/adc-client-ip-header.cc',
    'model/adc-config-error.cc',
    'model/adc-connection-table.cc',
    'model/adc-flow-key.cc',
    'model/adc-health-monitor.cc',
    'model/adc-http-client.cc',
    'model/adc-http-message.cc',
    'model/adc-http-server.cc',
    'model/adc-lb-method.cc',
    'model/adc-maglev-table.cc',
    'model/adc-persistence-table.cc',
    'model/adc-policy-routing.cc',
    'model/adc-port-range.cc',
    'model/adc-request-record.cc',
    'model/adc-socket-util.cc',
    'model/adc-tcp-relay.cc',
    'model/crd-cache-server.cc',
    'model/crd-cache-store.cc',
    'model/crd-lower-tier.cc',
    'model/ilb-appliance.cc',
    'model/ilb-nat-table.cc',
    'helper/adc-http-helper.cc',
    'helper/adc-path-tracer.cc',
    'helper/adc-topology-helper.cc',
    'helper/adc-trace-helper.cc',
    'helper/crd-topology-helper.cc',
    'helper/ilb-helper.cc',
]

ADC_HEADERS = [
    'model/adc-client-ip-header.h',
    'model/adc-config-error.h',
    'model/adc-connection-table.h',
    'model/adc-flow-key.h',
    'model/adc-health-monitor.h',
    'model/adc-http-client.h',
    'model/adc-http-message.h',
    'model/adc-http-server.h',
    'model/adc-lb-method.h',
    'model/adc-maglev-table.h',
    'model/adc-persistence-table.h',
    'model/adc-policy-routing.h',
    'model/adc-port-range.h',
    'model/adc-request-record.h',
    'model/adc-socket-util.h',
    'model/adc-tcp-relay.h',
    'model/crd-cache-server.h',
    'model/crd-cache-store.h',
    'model/crd-lower-tier.h',
    'model/ilb-appliance.h',
    'model/ilb-nat-table.h',
    'helper/adc-http-helper.h',
    'helper/adc-path-tracer.h',
    'helper/adc-topology-helper.h',
    'helper/adc-trace-helper.h',
    'helper/crd-topology-helper.h',
    'helper/ilb-helper.h',
]

ADC_TEST_SOURCES = [
    'test/adc-client-ip-header-test.cc',
    'test/adc-connection-table-test.cc',
    'test/adc-flow-key-test.cc',
    'test/adc-health-monitor-test.cc',
    'test/adc-http-apps-test.cc',
    'test/adc-http-message-test.cc',
    'test/adc-lb-method-test.cc',
    'test/adc-maglev-table-test.cc',
    'test/adc-path-tracer-test.cc',
    'test/adc-persistence-table-test.cc',
    'test/adc-policy-routing-test.cc',
    'test/adc-port-range-test.cc',
    'test/adc-socket-util-test.cc',
    'test/adc-tcp-relay-test.cc',
    'test/adc-topology-helper-test.cc',
    'test/adc-trace-helper-test.cc',
    'test/adc-trace-sources-test.cc',
    'test/crd-cache-server-test.cc',
    'test/crd-cache-store-test.cc',
    'test/crd-flows-test.cc',
    'test/crd-lower-tier-test.cc',
    'test/crd-scale-test.cc',
    'test/ilb-appliance-test.cc',
    'test/ilb-helper-test.cc',
    'test/ilb-nat-table-test.cc',
]

ADC_NS3_MODULES = ['core', 'network', 'internet', 'point-to-point', 'csma', 'applications']


def configure(conf):
    conf.env.append_value('CXXFLAGS', '-std=c++17')
    conf.check_cxx(lib='fmt', uselib_store='FMT', mandatory=True,
                   msg='Checking for fmt (apt-get install libfmt-dev)')
    conf.check_cxx(header_name='boost/version.hpp', uselib_store='BOOST', mandatory=True,
                   msg='Checking for Boost headers (apt-get install libboost-dev)')
    conf.env['ADC_GTEST'] = conf.check_cxx(
        lib=['gtest', 'gtest_main', 'pthread'], uselib_store='GTEST', mandatory=False,
        msg='Checking for GoogleTest (apt-get install libgtest-dev)')


def build(bld):
    module = bld.create_ns3_module('adc', ADC_NS3_MODULES)
    module.source = ADC_SOURCES
    module.use.append('FMT')
    module.use.append('BOOST')

    headers = bld(features='ns3header')
    headers.module = 'adc'
    headers.source = ADC_HEADERS

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
        bld.recurse('bench')

    # The suites are GoogleTest programs: run build/contrib/adc/adc-test after building.
    if bld.env.ENABLE_TESTS and bld.env['ADC_GTEST']:
        tests = bld.create_ns3_program('adc-test', ['adc'])
        tests.source = ADC_TEST_SOURCES
        tests.use.append('GTEST')
