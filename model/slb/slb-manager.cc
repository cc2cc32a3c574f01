/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-manager.h"

#include "slb-host-agent.h"
#include "slb-mux.h"

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-config-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlbManager");
NS_OBJECT_ENSURE_REGISTERED(SlbManager);

namespace
{

/// \param a an address \return its host-route length (32 or 128)
uint8_t
HostLength(const AdcIpAddress& a)
{
    return a.IsV6() ? 128 : 32;
}

/// \param vip a VIP \param dip a DIP address \return the key of m_dipHost
std::string
DipKey(const std::string& vip, const AdcIpAddress& dip)
{
    return vip + "|" + dip.ToString();
}

} // namespace

TypeId
SlbManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlbManager")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<SlbManager>()
            .AddAttribute("PolicyDelay",
                          "Time from a northbound change to its arrival at a MUX or host agent.",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&SlbManager::m_policyDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReportDelay",
                          "Time from a host agent's health report to the manager acting on it.",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&SlbManager::m_reportDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HostTimeout",
                          "A host whose agent sent no heartbeat for this long is down: its "
                          "DIPs get no new flows (0: hosts are never timed out).",
                          TimeValue(Seconds(3)),
                          MakeTimeAccessor(&SlbManager::m_hostTimeout),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("PolicyPush",
                            "Policy pushed to a MUX or a host agent (as it arrives).",
                            MakeTraceSourceAccessor(&SlbManager::m_pushTrace),
                            "ns3::SlbManager::PolicyPushTracedCallback")
            .AddTraceSource("HealthChange",
                            "A DIP's aggregated health changed.",
                            MakeTraceSourceAccessor(&SlbManager::m_healthTrace),
                            "ns3::SlbManager::HealthChangeTracedCallback");
    return tid;
}

SlbManager::SlbManager() = default;

SlbManager::~SlbManager() = default;

void
SlbManager::DoDispose()
{
    for (auto& [host, timer] : m_hostTimers)
    {
        timer.Cancel();
    }
    m_muxes.clear();
    m_hosts.clear();
    Object::DoDispose();
}

void
SlbManager::DeployMux(const std::string& name, Ptr<SlbMux> mux, Ptr<AdcBgpSpeaker> speaker)
{
    if (name.empty() || m_muxes.count(name))
    {
        throw AdcConfigError("SLB MUX name '" + name +
                             "': must be a non-empty name not used by another MUX");
    }
    if (!mux)
    {
        throw AdcConfigError("SLB MUX '" + name + "': no MUX datapath given");
    }
    m_muxes[name] = Mux{mux, speaker, false, {}};
}

void
SlbManager::AddMux(const std::string& name)
{
    auto it = m_muxes.find(name);
    if (it == m_muxes.end())
    {
        throw AdcConfigError("SLB MUX '" + name + "': no such MUX is deployed");
    }
    if (it->second.inService)
    {
        throw AdcConfigError("SLB MUX '" + name + "': already in service");
    }
    if (m_muxOrder.size() >= kMaxMuxes)
    {
        throw AdcConfigError("SLB MUX '" + name + "': the SLB manager already has " +
                             std::to_string(m_muxOrder.size()) +
                             " MUXes; one SLB manager "
                             "supports at most " +
                             std::to_string(kMaxMuxes));
    }
    it->second.inService = true;
    m_muxOrder.push_back(name);
    if (m_committed)
    {
        PushAllTo(name);
    }
}

void
SlbManager::RemoveMux(const std::string& name)
{
    auto it = m_muxes.find(name);
    if (it == m_muxes.end() || !it->second.inService)
    {
        throw AdcConfigError("SLB MUX '" + name + "': not in service");
    }
    Mux& m = it->second;
    m.inService = false;
    m_muxOrder.erase(std::find(m_muxOrder.begin(), m_muxOrder.end(), name));
    // The MUX first stops attracting traffic (its speaker withdraws the routes), then loses the
    // policy: flows already on it are carried until the routers have moved them.
    std::set<AdcIpAddress> announced;
    std::swap(announced, m.announced);
    Ptr<AdcBgpSpeaker> speaker = m.speaker;
    Push("mux:" + name, "withdraw-all", [speaker, announced]() {
        if (speaker)
        {
            for (const auto& a : announced)
            {
                speaker->Withdraw(a, HostLength(a));
            }
        }
    });
}

void
SlbManager::AddHost(const std::string& name, Ptr<SlbHostAgent> agent)
{
    if (name.empty() || m_hosts.count(name) || !agent)
    {
        throw AdcConfigError("SLB host '" + name +
                             "': needs a non-empty name not used by another host, and an agent");
    }
    m_hosts[name] = agent;
    agent->SetManager(this, name);
}

void
SlbManager::AddVip(const std::string& name, const SlbVipKey& key, SlbVipKind kind)
{
    if (name.empty() || m_vips.count(name))
    {
        throw AdcConfigError("SLB VIP name '" + name +
                             "': must be a non-empty name not used by another VIP");
    }
    if (!key.vip.IsV4() && !key.vip.IsV6())
    {
        throw AdcConfigError("SLB VIP '" + name + "': no address given");
    }
    if (key.protocol != AdcFlowKey::PROTO_TCP && key.protocol != AdcFlowKey::PROTO_UDP)
    {
        throw AdcConfigError("SLB VIP '" + name + "' protocol " + std::to_string(key.protocol) +
                             ": allowed are TCP (6) and UDP (17)");
    }
    for (const auto& [other, v] : m_vips)
    {
        if (v.key == key)
        {
            throw AdcConfigError("SLB VIP '" + name + "' " + key.ToString() +
                                 ": already served by VIP '" + other + "'");
        }
    }
    SlbVip vip;
    vip.name = name;
    vip.key = key;
    vip.kind = kind;
    m_vips[name] = vip;
}

void
SlbManager::RemoveVip(const std::string& name)
{
    SlbVip vip = FindVip(name);
    m_vips.erase(name);
    for (const auto& dip : vip.dips)
    {
        const std::string key = DipKey(name, dip.address);
        Ptr<SlbHostAgent> agent = FindHost(m_dipHost[key]);
        m_dipHost.erase(key);
        if (m_committed)
        {
            Push("host:" + agent->GetHostName(),
                 "remove-nat " + vip.key.ToString() + " -> " + dip.ToString(),
                 [agent, k = vip.key, a = dip.address]() { agent->RemoveNatRule(k, a); });
        }
    }
    if (!m_committed)
    {
        return;
    }
    for (const auto& m : m_muxOrder)
    {
        Ptr<SlbMux> mux = m_muxes[m].mux;
        Push("mux:" + m, "remove-vip " + vip.key.ToString(), [mux, k = vip.key]() {
            mux->RemoveVip(k);
        });
    }
    SyncRoutes();
}

void
SlbManager::AddDip(const std::string& vipName, SlbDip dip, const std::string& host)
{
    SlbVip& vip = FindVip(vipName);
    Ptr<SlbHostAgent> agent = FindHost(host);
    for (const auto& d : vip.dips)
    {
        if (d.address == dip.address)
        {
            throw AdcConfigError("SLB VIP '" + vipName + "' DIP " + dip.address.ToString() +
                                 ": already a DIP of this VIP");
        }
    }
    dip.hostPa = agent->GetProviderAddress();
    dip.healthy = true;
    agent->ValidateDip(dip); // the host must carry the DIP's VM and its VNI
    vip.dips.push_back(dip);
    m_dipHost[DipKey(vipName, dip.address)] = host;
    if (m_committed)
    {
        PushDipToHost(vip, dip);
        PushVip(vip);
        SyncRoutes();
    }
}

void
SlbManager::RemoveDip(const std::string& vipName, const AdcIpAddress& address)
{
    SlbVip& vip = FindVip(vipName);
    auto it = std::find_if(vip.dips.begin(), vip.dips.end(), [&address](const SlbDip& d) {
        return d.address == address;
    });
    if (it == vip.dips.end())
    {
        throw AdcConfigError("SLB VIP '" + vipName + "' DIP " + address.ToString() +
                             ": not a DIP of this VIP");
    }
    if (m_committed && vip.dips.size() == 1)
    {
        throw AdcConfigError("SLB VIP '" + vipName + "' DIP " + address.ToString() +
                             ": the VIP's last DIP (a VIP needs at least one DIP; remove the "
                             "VIP instead)");
    }
    const SlbDip dip = *it;
    vip.dips.erase(it);
    const std::string key = DipKey(vipName, address);
    Ptr<SlbHostAgent> agent = FindHost(m_dipHost[key]);
    m_dipHost.erase(key);
    if (m_committed)
    {
        PushVip(vip);
        Push("host:" + agent->GetHostName(),
             "remove-nat " + vip.key.ToString() + " -> " + dip.ToString(),
             [agent, k = vip.key, address]() { agent->RemoveNatRule(k, address); });
    }
}

void
SlbManager::Commit()
{
    if (m_committed)
    {
        return;
    }
    for (const auto& [name, vip] : m_vips)
    {
        if (vip.dips.empty())
        {
            throw AdcConfigError("SLB VIP '" + name + "' " + vip.key.ToString() +
                                 ": has no DIP (a VIP needs at least one DIP)");
        }
    }
    if (m_muxOrder.empty() && !m_vips.empty())
    {
        throw AdcConfigError("SLB manager: no MUX in service (AddMux) to announce the VIPs");
    }
    m_committed = true;
    for (const auto& [name, vip] : m_vips)
    {
        for (const auto& dip : vip.dips)
        {
            PushDipToHost(vip, dip);
        }
    }
    for (const auto& name : m_muxOrder)
    {
        PushAllTo(name);
    }
}

void
SlbManager::ReportDipHealth(const std::string& host, const AdcIpAddress& dip, bool healthy)
{
    Simulator::Schedule(m_reportDelay, &SlbManager::ApplyHealth, this, host, dip, healthy);
}

void
SlbManager::Heartbeat(const std::string& host)
{
    Simulator::Schedule(m_reportDelay, &SlbManager::HeartbeatArrived, this, host);
}

bool
SlbManager::IsHostUp(const std::string& host) const
{
    return m_hostsDown.count(host) == 0;
}

void
SlbManager::HeartbeatArrived(const std::string& host)
{
    if (m_hostTimeout.IsZero())
    {
        return;
    }
    m_hostTimers[host].Cancel();
    m_hostTimers[host] = Simulator::Schedule(m_hostTimeout, &SlbManager::HostTimedOut, this, host);
    if (m_hostsDown.erase(host))
    {
        // Back: its DIPs count healthy again until their probes say otherwise.
        SetHostDips(host, true);
    }
}

void
SlbManager::HostTimedOut(const std::string& host)
{
    m_hostsDown.insert(host);
    SetHostDips(host, false);
}

void
SlbManager::SetHostDips(const std::string& host, bool healthy)
{
    for (const auto& [name, vip] : m_vips)
    {
        for (const auto& dip : vip.dips)
        {
            if (m_dipHost[DipKey(name, dip.address)] == host)
            {
                ApplyHealth(host, dip.address, healthy);
            }
        }
    }
}

void
SlbManager::ApplyHealth(const std::string& host, AdcIpAddress address, bool healthy)
{
    for (auto& [name, vip] : m_vips)
    {
        for (auto& dip : vip.dips)
        {
            if (dip.address == address && m_dipHost[DipKey(name, address)] == host &&
                dip.healthy != healthy)
            {
                dip.healthy = healthy;
                m_healthTrace(name, address, healthy);
                if (!m_committed)
                {
                    continue;
                }
                for (const auto& m : m_muxOrder)
                {
                    Ptr<SlbMux> mux = m_muxes[m].mux;
                    Push("mux:" + m,
                         std::string(healthy ? "dip-up " : "dip-down ") + vip.key.ToString() + " " +
                             address.ToString(),
                         [mux, k = vip.key, address, healthy]() {
                             mux->SetDipHealth(k, address, healthy);
                         });
                }
            }
        }
    }
}

std::vector<std::string>
SlbManager::GetMuxes() const
{
    return m_muxOrder;
}

const SlbVip&
SlbManager::GetVip(const std::string& vip) const
{
    auto it = m_vips.find(vip);
    if (it == m_vips.end())
    {
        throw AdcConfigError("SLB VIP '" + vip + "': no such VIP");
    }
    return it->second;
}

std::vector<std::string>
SlbManager::GetVipNames() const
{
    std::vector<std::string> names;
    for (const auto& [name, vip] : m_vips)
    {
        names.push_back(name);
    }
    return names;
}

bool
SlbManager::IsDipHealthy(const std::string& vip, const AdcIpAddress& dip) const
{
    for (const auto& d : GetVip(vip).dips)
    {
        if (d.address == dip)
        {
            return d.healthy;
        }
    }
    throw AdcConfigError("SLB VIP '" + vip + "' DIP " + dip.ToString() + ": not a DIP of it");
}

std::string
SlbManager::GetDipHost(const std::string& vip, const AdcIpAddress& dip) const
{
    auto it = m_dipHost.find(DipKey(vip, dip));
    if (it == m_dipHost.end())
    {
        throw AdcConfigError("SLB VIP '" + vip + "' DIP " + dip.ToString() + ": not a DIP of it");
    }
    return it->second;
}

uint64_t
SlbManager::GetPushCount() const
{
    return m_pushes;
}

void
SlbManager::PrintHealth(std::ostream& os) const
{
    os << "MUXes (" << m_muxOrder.size() << " of at most " << kMaxMuxes << "):\n";
    for (const auto& [name, m] : m_muxes)
    {
        os << "  " << name << "  " << (m.inService ? "in-service" : "deployed")
           << "  vip-routes=" << m.announced.size() << '\n';
    }
    os << "hosts (" << m_hosts.size() << "):\n";
    for (const auto& [name, agent] : m_hosts)
    {
        os << "  " << name << "  pa=" << agent->GetProviderAddress() << '\n';
    }
    os << "VIPs (" << m_vips.size() << "):\n";
    for (const auto& [name, vip] : m_vips)
    {
        std::size_t up = std::count_if(vip.dips.begin(), vip.dips.end(), [](const SlbDip& d) {
            return d.healthy;
        });
        os << "  " << name << "  " << vip.key.ToString() << "  " << SlbVipKindName(vip.kind)
           << "  dips-up=" << up << '/' << vip.dips.size() << '\n';
        for (const auto& dip : vip.dips)
        {
            auto h = m_dipHost.find(DipKey(name, dip.address));
            os << "    " << dip.ToString() << "  host=" << (h == m_dipHost.end() ? "?" : h->second)
               << "  " << (dip.healthy ? "UP" : "DOWN") << '\n';
        }
    }
}

SlbVip&
SlbManager::FindVip(const std::string& name)
{
    auto it = m_vips.find(name);
    if (it == m_vips.end())
    {
        throw AdcConfigError("SLB VIP '" + name + "': no such VIP");
    }
    return it->second;
}

Ptr<SlbHostAgent>
SlbManager::FindHost(const std::string& name) const
{
    auto it = m_hosts.find(name);
    if (it == m_hosts.end())
    {
        throw AdcConfigError("SLB host '" + name + "': no such host (known: " +
                             std::to_string(m_hosts.size()) + " hosts)");
    }
    return it->second;
}

void
SlbManager::PushVip(const SlbVip& vip)
{
    for (const auto& m : m_muxOrder)
    {
        PushVipTo(m, vip);
    }
}

void
SlbManager::PushAllTo(const std::string& name)
{
    for (const auto& [vipName, vip] : m_vips)
    {
        PushVipTo(name, vip);
    }
    SyncRoutes();
}

void
SlbManager::PushVipTo(const std::string& name, const SlbVip& vip)
{
    Ptr<SlbMux> mux = m_muxes[name].mux;
    std::ostringstream what;
    what << "set-vip " << vip.key.ToString() << " dips=" << vip.dips.size();
    Push("mux:" + name, what.str(), [mux, vip]() {
        for (const auto& dip : vip.dips)
        {
            mux->SetVmHost(dip.address, dip.hostPa);
        }
        mux->SetVip(vip);
    });
}

void
SlbManager::PushDipToHost(const SlbVip& vip, const SlbDip& dip)
{
    Ptr<SlbHostAgent> agent = FindHost(m_dipHost[DipKey(vip.name, dip.address)]);
    Push("host:" + agent->GetHostName(),
         "set-nat " + vip.key.ToString() + " -> " + dip.ToString(),
         [agent, k = vip.key, dip]() { agent->ApplyNatRule(k, dip); });
}

void
SlbManager::SyncRoutes()
{
    // The addresses every MUX in service must announce: those of the VIPs with a DIP.
    std::set<AdcIpAddress> wanted;
    for (const auto& [vipName, vip] : m_vips)
    {
        if (!vip.dips.empty())
        {
            wanted.insert(vip.key.vip);
        }
    }
    for (const auto& name : m_muxOrder)
    {
        Mux& m = m_muxes[name];
        Ptr<AdcBgpSpeaker> speaker = m.speaker;
        for (const auto& a : wanted)
        {
            if (m.announced.insert(a).second)
            {
                Push("mux:" + name, "announce " + a.ToString(), [speaker, a]() {
                    if (speaker)
                    {
                        speaker->Announce(a, HostLength(a));
                    }
                });
            }
        }
        for (auto it = m.announced.begin(); it != m.announced.end();)
        {
            if (wanted.count(*it))
            {
                ++it;
                continue;
            }
            const AdcIpAddress a = *it;
            it = m.announced.erase(it);
            Push("mux:" + name, "withdraw " + a.ToString(), [speaker, a]() {
                if (speaker)
                {
                    speaker->Withdraw(a, HostLength(a));
                }
            });
        }
    }
}

Ptr<Node>
SlbManager::TargetNode(const std::string& target) const
{
    const std::size_t colon = target.find(':');
    const std::string kind = target.substr(0, colon);
    const std::string name = colon == std::string::npos ? "" : target.substr(colon + 1);
    if (kind == "mux")
    {
        auto it = m_muxes.find(name);
        return it == m_muxes.end() || !it->second.mux ? nullptr : it->second.mux->GetObject<Node>();
    }
    if (kind == "host")
    {
        auto it = m_hosts.find(name);
        return it == m_hosts.end() ? nullptr : it->second->GetNode();
    }
    return nullptr;
}

void
SlbManager::Push(const std::string& target, const std::string& action, std::function<void()> fn)
{
    // Under ns-3's distributed engine every rank runs the manager; a MUX or host simulated by
    // another rank gets its policy there (acting here would send its packets from this rank).
    if (Ptr<Node> node = TargetNode(target);
        node && node->GetSystemId() != Simulator::GetSystemId())
    {
        return;
    }
    Simulator::Schedule(m_policyDelay, [this, target, action, fn]() {
        ++m_pushes;
        m_pushTrace(target, action);
        fn();
    });
}

} // namespace ns3
