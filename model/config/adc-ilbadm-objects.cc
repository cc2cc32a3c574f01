/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The objects ilbadm's subcommands read into (adc-ilbadm-commands.h): server groups, health
 * checks and rules; the subcommands themselves are in adc-ilbadm-commands.cc.
 */

#include "adc-ilbadm-commands.h"

#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcIlbadmServerGroup);
NS_OBJECT_ENSURE_REGISTERED(AdcIlbadmHealthCheck);
NS_OBJECT_ENSURE_REGISTERED(AdcIlbadmRule);

// ---------------------------------------------------------------------------------------------
// The configured objects

TypeId
AdcIlbadmServerGroup::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcIlbadmServerGroup")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcIlbadmServerGroup>();
    return tid;
}

bool
AdcIlbadmServerGroup::IsEnabled(const std::string& id) const
{
    return disabled.count(id) == 0;
}

TypeId
AdcIlbadmHealthCheck::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcIlbadmHealthCheck")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcIlbadmHealthCheck>();
    return tid;
}

Ptr<AdcHealthMonitor>
AdcIlbadmHealthCheck::CreateMonitor() const
{
    const int kind = AdcText::Find(test, {"PING", "TCP", "UDP"}, AdcText::INSENSITIVE);
    if (kind < 0)
    {
        throw AdcConfigError("AdcIlbadmHealthCheck '" + name + "': hc-test '" + test +
                             "' is an external method, which the model cannot run; allowed "
                             "PING, TCP, UDP");
    }
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Name", StringValue(name));
    m->SetAttribute("Type", StringValue(AdcText::ToUpper(test)));
    m->SetAttribute("Interval", TimeValue(Seconds(interval)));
    m->SetAttribute("DownTime", TimeValue(Seconds(interval)));
    m->SetAttribute("ResponseTimeout", TimeValue(Seconds(timeout)));
    m->SetAttribute("Retries", UintegerValue(count));
    return m;
}

TypeId
AdcIlbadmRule::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcIlbadmRule")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcIlbadmRule>();
    return tid;
}

IlbRule
AdcIlbadmRule::GetRule() const
{
    IlbRule r = rule;
    r.servers = group ? group->servers : std::vector<IlbServer>{};
    return r;
}

void
AdcIlbadmRule::DoDispose()
{
    group = nullptr;
    Object::DoDispose();
}

} // namespace ns3
