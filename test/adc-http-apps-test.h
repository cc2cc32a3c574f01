/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fixture the HTTP application suites share (adc-http-apps-test.cc,
 * adc-http-apps-responses-test.cc).
 */

#ifndef ADC_HTTP_APPS_TEST_H
#define ADC_HTTP_APPS_TEST_H

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-request-record.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-module.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace adchttptest
{

/// A server chooser: odd request ids to one remote, even ones to the other.
struct Alternate
{
    Address odd;
    Address even;

    Address Choose(const std::string& /* url */, uint64_t id)
    {
        return id % 2 == 1 ? odd : even;
    }
};

/// \return the length of "GET <url> HTTP/1.1\r\nHost: www.example.com\r\n\r\n", by hand
inline uint64_t
PlainRequestBytes(const std::string& url)
{
    return 4 + url.size() + 11 + 23 + 2;
}

/// Shorthand for the expectations below.
using Expect = AdcAccountingExpectation;

class AdcHttpApps : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset(); // undo SetDefault calls of the test
    }

    /// Install a server on \p node.
    Ptr<AdcHttpServer> Server(Ptr<Node> node,
                              const std::string& name,
                              uint32_t size,
                              Time delay = Seconds(0))
    {
        AdcHttpServerHelper h(80);
        h.SetAttribute("ServerName", StringValue(name));
        h.SetAttribute("ObjectSize", UintegerValue(size));
        h.SetAttribute("ResponseDelay", TimeValue(delay));
        ApplicationContainer a = h.Install(node);
        a.Start(Seconds(0.5));
        return DynamicCast<AdcHttpServer>(a.Get(0));
    }

    /// Install a client on \p node sending \p n requests every \p gap seconds.
    Ptr<AdcHttpClient> Client(Ptr<Node> node, const Address& remote, uint32_t n, double gap)
    {
        AdcHttpClientHelper h(remote);
        h.SetAttribute("MaxRequests", UintegerValue(n));
        std::ostringstream rv;
        rv << "ns3::ConstantRandomVariable[Constant=" << gap << "]";
        h.SetAttribute("InterRequestTime", StringValue(rv.str()));
        ApplicationContainer a = h.Install(node);
        a.Start(Seconds(1));
        return DynamicCast<AdcHttpClient>(a.Get(0));
    }
};

} // namespace adchttptest

using namespace adchttptest;

#endif /* ADC_HTTP_APPS_TEST_H */
