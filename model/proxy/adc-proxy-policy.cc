/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: proxy policy decisions.
 */

#include "adc-proxy-policy.h"

namespace ns3
{

AdcProxyDecision
AdcProxyDecision::Answer(uint16_t status,
                         const std::string& reason,
                         const std::string& drop,
                         bool close)
{
    AdcProxyDecision d;
    d.action = ANSWER;
    d.status = status;
    d.reason = reason;
    d.drop = drop;
    d.close = close;
    return d;
}

AdcProxyDecision
AdcProxyDecision::Forward(const std::string& target,
                          Ipv4Address serverIp,
                          uint16_t serverPort,
                          Ptr<AdcSourceAddressPolicy> source,
                          Ipv4Address client)
{
    AdcProxyDecision d;
    d.action = FORWARD;
    d.target = target;
    d.serverIp = serverIp;
    d.serverPort = serverPort;
    d.source = source;
    d.client = client;
    return d;
}

AdcProxyPolicy::~AdcProxyPolicy() = default;

void
AdcProxyPolicy::Accepted(AdcProxyFront& /* front */)
{
}

void
AdcProxyPolicy::Released(const AdcProxyDecision& /* decision */)
{
}

} // namespace ns3
