# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# ns3-adc for waf-era ns-3 trees (<= 3.35): drop this folder into contrib/adc.
# The file lists are those of adc-files.cmake, which CMakeLists.txt reads too.

def adc_files(node):
    """The file lists of ../adc-files.cmake (the one list both builds read) as a dict
    {'ADC_SOURCES': [...], ...}; node: this module's folder (ctx.path)."""
    import re
    text = node.find_node('adc-files.cmake').read()
    lists = {}
    for m in re.finditer(r'set\(\s*(ADC_[A-Z_]+)\s+(.*?)\)', text, re.S):
        lists[m.group(1)] = [w for w in m.group(2).split() if not w.startswith('#')]
    return lists


ADC_NS3_MODULES = ['core', 'network', 'internet', 'point-to-point', 'csma', 'applications',
                   'fd-net-device']


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
    lists = adc_files(bld.path)
    module = bld.create_ns3_module('adc', ADC_NS3_MODULES)
    module.source = lists['ADC_SOURCES']
    module.use.append('FMT')
    module.use.append('BOOST')
    module.defines = ['ADC_EMULATION']

    headers = bld(features='ns3header')
    headers.module = 'adc'
    headers.source = lists['ADC_HEADERS']

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
        bld.recurse('bench')

    # The suites are GoogleTest programs, one per subject as in CMakeLists.txt (the test files'
    # prefixes: adc- is core): run build/contrib/adc/adc-test-SUBJECT after building.
    if bld.env.ENABLE_TESTS and bld.env['ADC_GTEST']:
        tests = lists['ADC_TEST_SOURCES']
        fixtures = [t for t in tests if t.endswith('/adc-test-fixtures.cc')]
        subjects = {}
        for t in tests:
            if t not in fixtures:
                prefix = t.split('/')[-1].split('-')[0]
                subjects.setdefault('core' if prefix == 'adc' else prefix, []).append(t)
        for subject, files in subjects.items():
            program = bld.create_ns3_program('adc-test-' + subject, ['adc'])
            program.source = files + fixtures
            program.use.append('GTEST')
