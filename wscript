# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# ns3-adc for waf-era ns-3 trees (<= 3.35): drop this folder into contrib/adc.
# The lists here repeat CMakeLists.txt; the test "adc-build-lists" fails when they disagree.

ADC_SOURCES = [
    'helper/adc-csv-writer.cc',
    'helper/adc-http-helper.cc',
    'helper/adc-isp-topology-helper-addressing.cc',
    'helper/adc-isp-topology-helper.cc',
    'helper/adc-isp-topology.cc',
    'helper/adc-path-tracer.cc',
    'helper/adc-request-log.cc',
    'helper/adc-stack-helper.cc',
    'helper/adc-throughput-sampler.cc',
    'helper/crd-route-plan.cc',
    'helper/crd-topology-helper.cc',
    'helper/crd-topology.cc',
    'helper/ilb-address-plan.cc',
    'helper/ilb-helper.cc',
    'helper/ilb-topology.cc',
    'model/apps/adc-http-client-connections.cc',
    'model/apps/adc-http-client.cc',
    'model/apps/adc-http-server-engine.cc',
    'model/apps/adc-http-server.cc',
    'model/apps/adc-zipf-url-generator.cc',
    'model/config/adc-config-reader.cc',
    'model/config/adc-config-store.cc',
    'model/config/adc-ilbadm-commands.cc',
    'model/config/adc-netscaler-commands.cc',
    'model/config/adc-netscaler-monitor-commands.cc',
    'model/core/adc-config-error.cc',
    'model/core/adc-connection-table.cc',
    'model/core/adc-flow-key.cc',
    'model/core/adc-persistence-table.cc',
    'model/core/adc-port-range.cc',
    'model/core/adc-request-record.cc',
    'model/core/adc-text.cc',
    'model/crd/crd-cache-server.cc',
    'model/crd/crd-cache-store.cc',
    'model/crd/crd-lower-tier.cc',
    'model/datapath/adc-datapath-hook.cc',
    'model/datapath/adc-datapath.cc',
    'model/datapath/adc-ip-mask.cc',
    'model/datapath/adc-packet-rewrite.cc',
    'model/datapath/adc-policy-routing.cc',
    'model/datapath/adc-policy-rule.cc',
    'model/ilb/ilb-appliance-servers.cc',
    'model/ilb/ilb-appliance.cc',
    'model/ilb/ilb-connection-store.cc',
    'model/ilb/ilb-nat-table.cc',
    'model/ilb/ilb-rule.cc',
    'model/lb/adc-lb-method-registry.cc',
    'model/lb/adc-lb-method.cc',
    'model/lb/adc-maglev-table.cc',
    'model/proxy/adc-http-cutter.cc',
    'model/proxy/adc-proxy-engine-server.cc',
    'model/proxy/adc-proxy-engine.cc',
    'model/proxy/adc-proxy-policy.cc',
    'model/proxy/adc-proxy-server-pool.cc',
    'model/proxy/adc-socket-util.cc',
    'model/proxy/adc-source-address-policy.cc',
    'model/proxy/adc-tcp-relay.cc',
    'model/service/adc-health-monitor.cc',
    'model/service/adc-health-probe-icmp-udp.cc',
    'model/service/adc-health-probe-tcp-http.cc',
    'model/service/adc-health-probe.cc',
    'model/service/adc-service-group.cc',
    'model/service/adc-service.cc',
    'model/service/adc-virtual-server.cc',
    'model/wire/adc-client-ip-header.cc',
    'model/wire/adc-http-message.cc',
    'model/wire/adc-http-stream-parser-chunked.cc',
    'model/wire/adc-http-stream-parser.cc',
]

ADC_HEADERS = [
    'helper/adc-csv-writer.h',
    'helper/adc-http-helper.h',
    'helper/adc-isp-topology-helper.h',
    'helper/adc-isp-topology-util.h',
    'helper/adc-isp-topology.h',
    'helper/adc-path-tracer.h',
    'helper/adc-request-log.h',
    'helper/adc-stack-helper.h',
    'helper/adc-throughput-sampler.h',
    'helper/crd-route-plan.h',
    'helper/crd-topology-helper.h',
    'helper/crd-topology.h',
    'helper/ilb-address-plan.h',
    'helper/ilb-helper.h',
    'helper/ilb-topology.h',
    'model/apps/adc-http-client.h',
    'model/apps/adc-http-server-engine.h',
    'model/apps/adc-http-server.h',
    'model/apps/adc-zipf-url-generator.h',
    'model/config/adc-config-reader.h',
    'model/config/adc-config-store.h',
    'model/config/adc-ilbadm-commands.h',
    'model/config/adc-netscaler-commands.h',
    'model/core/adc-config-error.h',
    'model/core/adc-connection-table.h',
    'model/core/adc-flow-key.h',
    'model/core/adc-persistence-table.h',
    'model/core/adc-port-range.h',
    'model/core/adc-request-record.h',
    'model/core/adc-text.h',
    'model/core/adc-timeout-class.h',
    'model/crd/crd-cache-server.h',
    'model/crd/crd-cache-store.h',
    'model/crd/crd-lower-tier.h',
    'model/datapath/adc-datapath-hook.h',
    'model/datapath/adc-datapath.h',
    'model/datapath/adc-ip-mask.h',
    'model/datapath/adc-packet-rewrite.h',
    'model/datapath/adc-policy-routing.h',
    'model/datapath/adc-policy-rule.h',
    'model/ilb/ilb-appliance.h',
    'model/ilb/ilb-connection-store.h',
    'model/ilb/ilb-nat-table.h',
    'model/ilb/ilb-rule.h',
    'model/lb/adc-lb-method-registry.h',
    'model/lb/adc-lb-method.h',
    'model/lb/adc-maglev-table.h',
    'model/proxy/adc-http-cutter.h',
    'model/proxy/adc-proxy-engine.h',
    'model/proxy/adc-proxy-policy.h',
    'model/proxy/adc-proxy-server-pool.h',
    'model/proxy/adc-socket-util.h',
    'model/proxy/adc-source-address-policy.h',
    'model/proxy/adc-tcp-relay.h',
    'model/service/adc-health-monitor.h',
    'model/service/adc-health-probe-socket.h',
    'model/service/adc-health-probe.h',
    'model/service/adc-service-group.h',
    'model/service/adc-service.h',
    'model/service/adc-virtual-server.h',
    'model/wire/adc-client-ip-header.h',
    'model/wire/adc-http-message.h',
    'model/wire/adc-http-stream-parser.h',
]

ADC_TEST_SOURCES = [
    'test/adc-client-ip-header-test.cc',
    'test/adc-config-ilbadm-test.cc',
    'test/adc-config-netscaler-test.cc',
    'test/adc-connection-table-test.cc',
    'test/adc-datapath-test.cc',
    'test/adc-flow-key-test.cc',
    'test/adc-health-monitor-test.cc',
    'test/adc-http-apps-responses-test.cc',
    'test/adc-http-apps-test.cc',
    'test/adc-http-framing-test.cc',
    'test/adc-http-message-test.cc',
    'test/adc-isp-topology-helper-test.cc',
    'test/adc-lb-method-registry-test.cc',
    'test/adc-lb-method-test.cc',
    'test/adc-maglev-table-test.cc',
    'test/adc-path-tracer-test.cc',
    'test/adc-persistence-table-test.cc',
    'test/adc-policy-routing-hook-test.cc',
    'test/adc-policy-routing-local-test.cc',
    'test/adc-policy-routing-test.cc',
    'test/adc-port-range-test.cc',
    'test/adc-proxy-engine-test.cc',
    'test/adc-socket-util-test.cc',
    'test/adc-tcp-relay-test.cc',
    'test/adc-test-fixtures.cc',
    'test/adc-trace-helper-test.cc',
    'test/adc-trace-sources-test.cc',
    'test/adc-virtual-server-test.cc',
    'test/adc-zipf-url-generator-test.cc',
    'test/crd-cache-server-test.cc',
    'test/crd-cache-services-test.cc',
    'test/crd-cache-store-test.cc',
    'test/crd-flows-test.cc',
    'test/crd-lower-tier-test.cc',
    'test/crd-scale-test.cc',
    'test/ilb-appliance-nat-test.cc',
    'test/ilb-appliance-service-test.cc',
    'test/ilb-appliance-test.cc',
    'test/ilb-datapath-test.cc',
    'test/ilb-helper-test.cc',
    'test/ilb-helper-traffic-test.cc',
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
