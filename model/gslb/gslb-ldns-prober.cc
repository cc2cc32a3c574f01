/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the LDNS prober (ldns-ping, ldns-dns, ldns-tcp with fallback).
 */

#include "gslb-ldns-prober.h"

#include "gslb-dns-probe.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbLdnsProber");

NS_OBJECT_ENSURE_REGISTERED(GslbLdnsProber);

namespace
{

/// The kinds in their default order (the seed: ping, then UDP DNS, then TCP DNS).
const std::vector<GslbLdnsProber::Kind> kAllKinds = {GslbLdnsProber::PING,
                                                     GslbLdnsProber::DNS,
                                                     GslbLdnsProber::TCP};

/// The words `-ldnsprobeOrder` accepts.
const std::vector<std::string> kKindWords = {"PING", "DNS", "TCP"};

/// The owner and setting named in order errors.
const std::string kOrderSetting = "set gslb parameter: -ldnsprobeOrder";

/// \return the time in seconds with its unit, e.g. "180s"
std::string
FormatTime(Time t)
{
    std::ostringstream os;
    os << t.GetSeconds() << "s";
    return os.str();
}

/// \return \p words joined by blanks
std::string
JoinWords(const std::vector<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
    {
        out += (out.empty() ? "" : " ") + w;
    }
    return out;
}

} // namespace

TypeId
GslbLdnsProber::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbLdnsProber")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<GslbLdnsProber>()
            .AddAttribute("EntryTimeout",
                          "An LDNS not seen (AddLdns) for this long stops being probed "
                          "(NetScaler's ldnsentrytimeout, default 180 s; must be > 0).",
                          TimeValue(Seconds(180)),
                          MakeTimeAccessor(&GslbLdnsProber::m_entryTimeout),
                          MakeTimeChecker())
            .AddAttribute("ProbeOrder",
                          "The probe kinds in order, words separated by blanks, as `set gslb "
                          "parameter -ldnsprobeOrder` takes them: 1 to 3 distinct of PING, "
                          "DNS, TCP.",
                          StringValue("PING DNS TCP"),
                          MakeStringAccessor(&GslbLdnsProber::SetProbeOrderText,
                                             &GslbLdnsProber::GetProbeOrderText),
                          MakeStringChecker())
            .AddTraceSource("Probe",
                            "A probe of an LDNS finished (kind, round trip, reason, whether it "
                            "yields an RTT).",
                            MakeTraceSourceAccessor(&GslbLdnsProber::m_probeTrace),
                            "ns3::GslbLdnsProber::ProbeTracedCallback")
            .AddTraceSource("Fallback",
                            "An LDNS moved from one probe kind to another.",
                            MakeTraceSourceAccessor(&GslbLdnsProber::m_fallbackTrace),
                            "ns3::GslbLdnsProber::FallbackTracedCallback")
            .AddTraceSource("Expire",
                            "An LDNS was not seen for EntryTimeout and is no longer probed.",
                            MakeTraceSourceAccessor(&GslbLdnsProber::m_expireTrace),
                            "ns3::GslbLdnsProber::ExpireTracedCallback");
    return tid;
}

GslbLdnsProber::GslbLdnsProber()
    : m_entryTimeout(Seconds(180)),
      m_order(kAllKinds)
{
    NS_LOG_FUNCTION(this);
    for (Kind k : kAllKinds)
    {
        Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
        m->SetAttribute("Name", StringValue(MonitorName(k)));
        m->SetAttribute("TypeName", StringValue("LDNS-" + KindName(k)));
        m->SetAttribute("Type", StringValue(k == PING ? "PING" : (k == DNS ? "UDP" : "TCP")));
        m->SetAttribute("DestinationPort", UintegerValue(k == PING ? 0 : 53));
        m->SetAttribute("Interval", TimeValue(Seconds(5)));
        m->SetAttribute("ResponseTimeout", TimeValue(Seconds(2)));
        // A failure in monitor terms may still be an RTT: never DOWN, never DownTime spacing.
        m->SetAttribute("Retries", UintegerValue(std::numeric_limits<uint32_t>::max()));
        if (k == DNS)
        {
            m->SetProbe(GslbMakeDnsProbe(GslbDnsProbe::kDefaultQname));
        }
        m->TraceConnectWithoutContext("Probe",
                                      MakeCallback(&GslbLdnsProber::MonitorProbe, this, k));
        m_monitors[k] = m;
    }
}

GslbLdnsProber::~GslbLdnsProber()
{
    NS_LOG_FUNCTION(this);
}

std::string
GslbLdnsProber::KindName(Kind k)
{
    switch (k)
    {
    case PING:
        return "PING";
    case DNS:
        return "DNS";
    case TCP:
        return "TCP";
    }
    return "INVALID";
}

std::string
GslbLdnsProber::MonitorName(Kind k)
{
    switch (k)
    {
    case PING:
        return "ldns-ping";
    case DNS:
        return "ldns-dns";
    case TCP:
        return "ldns-tcp";
    }
    return "INVALID";
}

std::vector<GslbLdnsProber::Kind>
GslbLdnsProber::ParseProbeOrder(const std::vector<std::string>& words)
{
    const std::string allowed = " (1 to 3 distinct kinds of " + JoinWords(kKindWords) + ")";
    if (words.empty())
    {
        throw AdcConfigError(kOrderSetting + " '' gives no kind" + allowed);
    }
    std::vector<Kind> order;
    for (const std::string& word : words)
    {
        std::string upper = word;
        std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) {
            return static_cast<char>(std::toupper(c));
        });
        auto it = std::find(kKindWords.begin(), kKindWords.end(), upper);
        if (it == kKindWords.end())
        {
            throw AdcConfigError(kOrderSetting + " '" + JoinWords(words) + "': '" + word +
                                 "' is not one of " + JoinWords(kKindWords) + allowed);
        }
        const Kind k = kAllKinds[it - kKindWords.begin()];
        if (std::find(order.begin(), order.end(), k) != order.end())
        {
            throw AdcConfigError(kOrderSetting + " '" + JoinWords(words) + "': '" + word +
                                 "' is given twice" + allowed);
        }
        order.push_back(k);
    }
    return order;
}

std::string
GslbLdnsProber::FormatProbeOrder(const std::vector<Kind>& order)
{
    std::vector<std::string> words;
    for (Kind k : order)
    {
        words.push_back(KindName(k));
    }
    return JoinWords(words);
}

bool
GslbLdnsProber::YieldsRtt(Kind k, const std::string& reason)
{
    switch (k)
    {
    case PING:
        return reason == "echo-reply";
    case DNS:
        return reason.rfind("dns-rcode-", 0) == 0 || reason == "icmp-port-unreachable";
    case TCP:
        return reason == "connected" || reason == "connection-refused";
    }
    return false;
}

void
GslbLdnsProber::SetProbeOrder(const std::vector<Kind>& order)
{
    std::vector<std::string> words;
    for (Kind k : order)
    {
        if (k > TCP)
        {
            throw AdcConfigError(kOrderSetting + ": kind " + std::to_string(k) + " is not one of " +
                                 JoinWords(kKindWords));
        }
        words.push_back(KindName(k));
    }
    m_order = ParseProbeOrder(words); // the same checks as the configuration's words
    NS_LOG_INFO("probe order " << FormatProbeOrder(m_order));
}

std::vector<GslbLdnsProber::Kind>
GslbLdnsProber::GetProbeOrder() const
{
    return m_order;
}

void
GslbLdnsProber::SetProbeOrderText(std::string text)
{
    std::istringstream is(text);
    std::vector<std::string> words;
    std::string w;
    while (is >> w)
    {
        words.push_back(w);
    }
    m_order = ParseProbeOrder(words);
}

std::string
GslbLdnsProber::GetProbeOrderText() const
{
    return FormatProbeOrder(m_order);
}

Ptr<AdcHealthMonitor>
GslbLdnsProber::GetMonitor(Kind k) const
{
    return k <= TCP ? m_monitors[k] : nullptr;
}

Ptr<AdcHealthMonitor>
GslbLdnsProber::GetMonitor(const std::string& name) const
{
    for (Kind k : kAllKinds)
    {
        if (name == MonitorName(k))
        {
            return m_monitors[k];
        }
    }
    return nullptr;
}

void
GslbLdnsProber::AddLdns(const AdcIpAddress& ldns)
{
    if (ldns.IsNone())
    {
        throw AdcConfigError("GslbLdnsProber: AddLdns needs an IPv4 or IPv6 address (none given)");
    }
    auto it = m_byAddress.find(ldns);
    if (it == m_byAddress.end())
    {
        LdnsEntry e;
        e.address = ldns;
        e.index = m_monitors[PING]->GetNTargets();
        for (Kind k : kAllKinds)
        {
            const uint32_t index = m_monitors[k]->AddTarget(ldns, 53, ldns.ToString());
            NS_ASSERT_MSG(index == e.index, "the LDNS monitors' targets are out of step");
            m_monitors[k]->SetTargetEnabled(index, false);
        }
        it = m_byAddress.emplace(ldns, e.index).first;
        m_entries.push_back(e);
    }
    LdnsEntry& e = m_entries[it->second];
    e.lastSeen = Simulator::Now();
    if (e.active)
    {
        return; // the pending EntryTimeout check sees the new lastSeen
    }
    NS_LOG_INFO("probing LDNS " << ldns << " with " << KindName(m_order.front()));
    e.active = true;
    e.kind = m_order.front();
    if (m_running)
    {
        ScheduleExpiry(e);
        Enable(e, Seconds(0));
    }
}

bool
GslbLdnsProber::HasLdns(const AdcIpAddress& ldns) const
{
    auto it = m_byAddress.find(ldns);
    return it != m_byAddress.end() && m_entries[it->second].active;
}

uint32_t
GslbLdnsProber::GetNLdns() const
{
    return static_cast<uint32_t>(std::count_if(m_entries.begin(),
                                               m_entries.end(),
                                               [](const LdnsEntry& e) { return e.active; }));
}

GslbLdnsProber::Kind
GslbLdnsProber::GetCurrentKind(const AdcIpAddress& ldns) const
{
    auto it = m_byAddress.find(ldns);
    if (it == m_byAddress.end())
    {
        throw AdcConfigError("GslbLdnsProber: LDNS " + ldns.ToString() +
                             " is not known (AddLdns adds it)");
    }
    return m_entries[it->second].kind;
}

void
GslbLdnsProber::SetRttCallback(RttCallback cb)
{
    m_rttCallback = cb;
}

void
GslbLdnsProber::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (LdnsEntry& e : m_entries)
    {
        e.expireEvent.Cancel();
    }
    for (Kind k : kAllKinds)
    {
        if (m_monitors[k])
        {
            m_monitors[k]->TraceDisconnectWithoutContext(
                "Probe",
                MakeCallback(&GslbLdnsProber::MonitorProbe, this, k));
            if (!m_monitors[k]->GetNode())
            {
                m_monitors[k]->Dispose(); // never started; otherwise its node disposes it
            }
        }
        m_monitors[k] = nullptr;
    }
    m_entries.clear();
    m_byAddress.clear();
    m_rttCallback = RttCallback();
    Application::DoDispose();
}

void
GslbLdnsProber::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_entryTimeout.IsStrictlyPositive())
    {
        throw AdcConfigError("GslbLdnsProber: EntryTimeout " + FormatTime(m_entryTimeout) +
                             " must be greater than 0 (NetScaler's ldnsentrytimeout)");
    }
    for (Kind k : kAllKinds)
    {
        m_monitors[k]->Validate();
        if (!m_monitors[k]->GetNode())
        {
            GetNode()->AddApplication(m_monitors[k]); // starts it now
        }
    }
    m_running = true;
    for (LdnsEntry& e : m_entries)
    {
        if (e.active)
        {
            ScheduleExpiry(e);
            Enable(e, Seconds(0));
        }
    }
}

void
GslbLdnsProber::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    for (LdnsEntry& e : m_entries)
    {
        e.expireEvent.Cancel();
        DisableAll(e);
    }
}

int32_t
GslbLdnsProber::PositionOf(Kind k) const
{
    auto it = std::find(m_order.begin(), m_order.end(), k);
    return it == m_order.end() ? -1 : static_cast<int32_t>(it - m_order.begin());
}

Time
GslbLdnsProber::IntervalOf(Kind k) const
{
    TimeValue v;
    m_monitors[k]->GetAttribute("Interval", v);
    return v.Get();
}

void
GslbLdnsProber::Enable(LdnsEntry& e, Time delay)
{
    m_monitors[e.kind]->SetTargetEnabled(e.index, true, delay);
}

void
GslbLdnsProber::DisableAll(LdnsEntry& e)
{
    for (Kind k : kAllKinds)
    {
        m_monitors[k]->SetTargetEnabled(e.index, false);
    }
}

void
GslbLdnsProber::Move(LdnsEntry& e, Kind to, Time delay, const std::string& reason)
{
    const Kind from = e.kind;
    NS_LOG_INFO("LDNS " << e.address << ": " << KindName(from) << " -> " << KindName(to) << " ("
                        << reason << "), next probe in " << delay.GetSeconds() << "s");
    // Disabling first also lets a kind hand the LDNS back to itself with a new delay.
    m_monitors[from]->SetTargetEnabled(e.index, false);
    e.kind = to;
    Enable(e, delay);
    m_fallbackTrace(e.address, KindName(from), KindName(to), reason);
}

void
GslbLdnsProber::ScheduleExpiry(LdnsEntry& e)
{
    e.expireEvent.Cancel();
    const Time wait = e.lastSeen + m_entryTimeout - Simulator::Now();
    e.expireEvent = Simulator::Schedule(wait.IsStrictlyPositive() ? wait : Seconds(0),
                                        &GslbLdnsProber::CheckExpiry,
                                        this,
                                        e.index);
}

void
GslbLdnsProber::CheckExpiry(uint32_t index)
{
    LdnsEntry& e = m_entries[index];
    if (!e.active)
    {
        return;
    }
    if (Simulator::Now() - e.lastSeen < m_entryTimeout)
    {
        ScheduleExpiry(e); // seen again since: check again EntryTimeout after that
        return;
    }
    NS_LOG_INFO("LDNS " << e.address << " expired (last seen " << e.lastSeen.GetSeconds() << "s)");
    e.active = false;
    DisableAll(e);
    m_expireTrace(e.address);
}

void
GslbLdnsProber::MonitorProbe(Kind kind,
                             uint32_t index,
                             const std::string& /* name */,
                             bool /* success */,
                             Time rtt,
                             const std::string& reason)
{
    if (index >= m_entries.size())
    {
        return;
    }
    LdnsEntry& e = m_entries[index];
    if (!e.active || e.kind != kind)
    {
        return; // defensive: only the current kind's monitor has the LDNS enabled
    }
    const AdcIpAddress ldns = e.address; // copies: callbacks below may add LDNS
    const bool yields = YieldsRtt(kind, reason);
    NS_LOG_LOGIC("LDNS " << ldns << " " << KindName(kind) << ": " << reason << " rtt "
                         << rtt.GetSeconds() << "s" << (yields ? "" : " (no RTT)"));
    m_probeTrace(ldns, KindName(kind), rtt, reason, yields);
    if (yields && !m_rttCallback.IsNull())
    {
        m_rttCallback(ldns, rtt);
    }
    LdnsEntry& entry = m_entries[index];
    if (!entry.active || !m_running || entry.kind != kind)
    {
        return; // a callback expired, stopped or moved it
    }
    const int32_t pos = PositionOf(kind);
    const Kind first = m_order.front();
    if (yields)
    {
        if (pos < 0)
        {
            Move(entry, first, IntervalOf(first), "probe-order-changed");
        }
        return; // a kind that answers keeps the LDNS
    }
    if (pos < 0)
    {
        Move(entry, first, Seconds(0), reason);
    }
    else if (pos + 1 < static_cast<int32_t>(m_order.size()))
    {
        Move(entry, m_order[pos + 1], Seconds(0), reason);
    }
    else
    {
        Move(entry, first, IntervalOf(first), reason);
    }
}

} // namespace ns3
