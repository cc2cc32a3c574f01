/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Doxygen groups of the adc module (read by Doxygen only; nothing includes this file).
 */

/**
 * \defgroup adc Application delivery controllers and software load balancers
 *
 * The adc module (library ns3-adc) models application delivery controllers and software load
 * balancers over one shared core: CRD (N-tier cache redirection), ILB (the illumos integrated
 * load balancer: DSR, Half-NAT, Full-NAT), CS (content switching with persistence), SLB (an SDN
 * software load balancer) and GSLB (DNS global server load balancing by RTT). doc/adc.rst is the
 * overview, each subject has its page (doc/crd.rst, doc/ilb.rst, doc/cs.rst, doc/slb.rst,
 * doc/gslb.rst), and doc/design.rst draws the layers; model/ is laid out by layer (core, lb,
 * service, datapath, routing, proxy, wire, apps, config) and by subject (crd, ilb, cs, slb, gslb),
 * and every header installs flat as ns3/<name>.h.
 */

/**
 * \ingroup adc
 * \defgroup adc-tests adc module tests
 * GoogleTest suites run by CTest (test/), the fuzz targets' replays (fuzz/) and the checks of
 * utils/ (build lists, determinism, pcap decoding).
 */
