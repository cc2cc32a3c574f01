/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a web user (resolve through the LDNS, then fetch).
 */

#include "adc-web-user.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcWebUser");

NS_OBJECT_ENSURE_REGISTERED(AdcWebUser);

namespace
{

/// \return \p reason of an AdcHttpClient failure as a visit outcome
std::string
HttpOutcome(const std::string& reason)
{
    if (reason == "connect-failed")
    {
        return "connection-failed";
    }
    if (reason.rfind("http-", 0) == 0)
    {
        return reason; // "http-status-<code>"
    }
    return "http-" + (reason.empty() ? std::string("failed") : reason);
}

/// \return \p rcode as a DNS failure outcome ("dns-servfail", "dns-timeout", ...)
std::string
DnsOutcome(uint8_t rcode)
{
    if (rcode == AdcDnsResolver::kNoAnswer)
    {
        return "dns-timeout";
    }
    if (rcode == AdcDnsMessage::NOERROR)
    {
        return "dns-nodata";
    }
    std::string name = AdcDnsMessage::RcodeName(rcode);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return "dns-" + name;
}

} // namespace

TypeId
AdcWebUser::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcWebUser")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcWebUser>()
            .AddAttribute("Ldns",
                          "The user's local DNS server: an InetSocketAddress or "
                          "Inet6SocketAddress, or an Ipv4Address or Ipv6Address (port 53).",
                          AddressValue(),
                          MakeAddressAccessor(&AdcWebUser::m_ldns),
                          MakeAddressChecker())
            .AddAttribute("HostName",
                          "The name visited (the GSLB domain); also the Host header.",
                          StringValue("www.example.com"),
                          MakeStringAccessor(&AdcWebUser::m_hostName),
                          MakeStringChecker())
            .AddAttribute("Path",
                          "The request target fetched on each visit.",
                          StringValue("/"),
                          MakeStringAccessor(&AdcWebUser::m_path),
                          MakeStringChecker())
            .AddAttribute("Port",
                          "The web server's TCP port.",
                          UintegerValue(80),
                          MakeUintegerAccessor(&AdcWebUser::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("InterVisitTime",
                          "Seconds between the end of a visit and the start of the next (the "
                          "user's think time).",
                          StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                          MakePointerAccessor(&AdcWebUser::m_interVisit),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("MaxVisits",
                          "Visits to make; 0 = unlimited.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcWebUser::m_maxVisits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("StopVisitsAt",
                          "No visit starts after this simulation time (0 = never); the visit in "
                          "progress still ends.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcWebUser::m_stopVisitsAt),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Ipv6",
                          "Ask AAAA records instead of A (and fetch over IPv6).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcWebUser::m_ipv6),
                          MakeBooleanChecker())
            .AddAttribute("DnsTimeout",
                          "The resolver's Timeout per try (5 s, glibc's RES_TIMEOUT).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcWebUser::m_dnsTimeout),
                          MakeTimeChecker())
            .AddAttribute("DnsRetries",
                          "The resolver's Retries (2, glibc's RES_DFLRETRY).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&AdcWebUser::m_dnsRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HttpTimeout",
                          "The HTTP client's RequestTimeout: a fetch without its full response "
                          "this long after it was issued ends as \"http-timeout\".",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&AdcWebUser::m_httpTimeout),
                          MakeTimeChecker())
            .AddTraceSource("Visit",
                            "A visit ended: id, start, DNS time, fetch time, total, server, "
                            "outcome.",
                            MakeTraceSourceAccessor(&AdcWebUser::m_visitTrace),
                            "ns3::AdcWebUser::VisitTracedCallback");
    return tid;
}

AdcWebUser::AdcWebUser() = default;

AdcWebUser::~AdcWebUser() = default;

int64_t
AdcWebUser::AssignStreams(int64_t stream)
{
    m_interVisit->SetStream(stream);
    m_stream = stream + 1;
    if (m_resolver)
    {
        m_resolver->AssignStreams(m_stream);
    }
    if (m_client)
    {
        m_client->AssignStreams(m_stream + 1);
    }
    return 4;
}

uint64_t
AdcWebUser::GetVisits() const
{
    return m_visits;
}

uint64_t
AdcWebUser::GetCompleted() const
{
    return m_completed;
}

const std::map<std::string, uint64_t>&
AdcWebUser::GetFailed() const
{
    return m_failed;
}

uint64_t
AdcWebUser::GetFailedTotal() const
{
    return m_failedTotal;
}

uint64_t
AdcWebUser::GetOpen() const
{
    // Visits counted open at the stop, and the one in progress (a run that ended with
    // Simulator::Stop, without stopping the application, leaves it open too).
    return m_open + (m_phase != Phase::IDLE ? 1 : 0);
}

const std::vector<AdcWebVisit>&
AdcWebUser::GetVisitLog() const
{
    return m_log;
}

Ptr<AdcDnsResolver>
AdcWebUser::GetResolver() const
{
    return m_resolver;
}

Ptr<AdcHttpClient>
AdcWebUser::GetHttpClient() const
{
    return m_client;
}

void
AdcWebUser::WriteCsvHeader(std::ostream& os)
{
    os << "visit,start_s,dns_s,fetch_s,total_s,server,status,outcome\n";
}

void
AdcWebUser::WriteCsvRow(std::ostream& os, const AdcWebVisit& v)
{
    os << v.id << ',' << v.start.GetSeconds() << ',' << v.dnsTime.GetSeconds() << ','
       << v.fetchTime.GetSeconds() << ',' << v.total.GetSeconds() << ','
       << (v.server.IsNone() ? std::string() : v.server.ToString()) << ',' << v.status << ','
       << v.outcome << '\n';
}

void
AdcWebUser::DoDispose()
{
    m_next.Cancel();
    m_resolver = nullptr;
    m_client = nullptr;
    m_interVisit = nullptr;
    Application::DoDispose();
}

void
AdcWebUser::StartApplication()
{
    AdcDnsName::ToLabels(m_hostName); // throws AdcConfigError naming a bad HostName
    if (m_ldns.IsInvalid())
    {
        throw AdcConfigError("AdcWebUser: Ldns is not set; set it to the LDNS's address (an "
                             "Ipv4Address, Ipv6Address, InetSocketAddress or Inet6SocketAddress)");
    }
    if (m_path.empty() || m_path[0] != '/')
    {
        throw AdcConfigError("AdcWebUser: Path '" + m_path +
                             "' is not allowed; use an origin-form target starting with '/'");
    }
    if (!m_dnsTimeout.IsStrictlyPositive() || !m_httpTimeout.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcWebUser: DnsTimeout " + std::to_string(m_dnsTimeout.GetSeconds()) +
                             " s / HttpTimeout " + std::to_string(m_httpTimeout.GetSeconds()) +
                             " s is not allowed; use positive times");
    }
    // Children stop when the user stops (their stop times are relative to now).
    const Time childStop = m_stopTime.IsStrictlyPositive() && m_stopTime > Simulator::Now()
                               ? m_stopTime - Simulator::Now()
                               : Time(0);

    m_resolver = CreateObject<AdcDnsResolver>();
    m_resolver->SetAttribute("Server", AddressValue(m_ldns)); // checked by the resolver
    m_resolver->SetAttribute("Timeout", TimeValue(m_dnsTimeout));
    m_resolver->SetAttribute("Retries", UintegerValue(m_dnsRetries));
    m_resolver->SetStopTime(childStop);
    GetNode()->AddApplication(m_resolver);

    m_client = CreateObject<AdcHttpClient>();
    m_client->SetAttribute("Persistent", BooleanValue(false));
    m_client->SetAttribute("Host", StringValue(m_hostName));
    m_client->SetAttribute("RequestTimeout", TimeValue(m_httpTimeout));
    // No generated requests: the first would come after a 1 s gap, past a 1 ns stop time.
    m_client->SetAttribute("InterRequestTime",
                           StringValue("ns3::ConstantRandomVariable[Constant=1.0]"));
    m_client->SetAttribute("RequestStopTime", TimeValue(NanoSeconds(1)));
    m_client->SetServerChooser(MakeCallback(&AdcWebUser::ChooseServer, this));
    m_client->TraceConnectWithoutContext("RequestDone",
                                         MakeCallback(&AdcWebUser::RequestDone, this));
    m_client->SetStopTime(childStop);
    GetNode()->AddApplication(m_client);
    if (m_stream >= 0)
    {
        m_resolver->AssignStreams(m_stream);
        m_client->AssignStreams(m_stream + 1);
    }
    m_running = true;
    StartVisit(); // the resolver queues the query until it starts, later at this time
}

void
AdcWebUser::StopApplication()
{
    m_running = false;
    m_next.Cancel();
    if (m_phase != Phase::IDLE)
    {
        // Not a failure: the run ended before the visit did.
        m_current.total = Simulator::Now() - m_current.start;
        if (m_phase == Phase::DNS)
        {
            m_current.dnsTime = m_current.total;
        }
        else
        {
            m_current.fetchTime = Simulator::Now() - m_fetchStart;
        }
        m_phase = Phase::IDLE;
        m_current.outcome = "open-at-stop";
        ++m_open;
        m_log.push_back(m_current);
        m_visitTrace(m_current);
    }
}

void
AdcWebUser::StartVisit()
{
    if (!m_running)
    {
        return;
    }
    m_current = AdcWebVisit();
    m_current.id = ++m_visits;
    m_current.start = Simulator::Now();
    m_phase = Phase::DNS;
    NS_LOG_INFO("visit " << m_current.id << ": resolving " << m_hostName);
    m_resolver->Resolve(m_hostName,
                        m_ipv6 ? AdcDnsMessage::TYPE_AAAA : AdcDnsMessage::TYPE_A,
                        MakeCallback(&AdcWebUser::Resolved, this));
}

void
AdcWebUser::Resolved(const std::string& /* name */,
                     std::vector<AdcIpAddress> addresses,
                     uint8_t rcode)
{
    if (!m_running || m_phase != Phase::DNS)
    {
        return;
    }
    m_current.dnsTime = Simulator::Now() - m_current.start;
    if (rcode != AdcDnsMessage::NOERROR || addresses.empty())
    {
        EndVisit(DnsOutcome(rcode));
        return;
    }
    m_current.server = addresses.front();
    m_phase = Phase::FETCH;
    m_fetchStart = Simulator::Now();
    NS_LOG_INFO("visit " << m_current.id << ": fetching from " << m_current.server);
    const uint64_t rid = m_client->IssueRequest(m_path);
    if (rid == 0 && m_phase == Phase::FETCH)
    {
        EndVisit("http-not-running");
    }
}

Address
AdcWebUser::ChooseServer(const std::string& /* url */, uint64_t /* requestId */)
{
    if (m_current.server.IsV6())
    {
        return Inet6SocketAddress(m_current.server.GetIpv6(), m_port);
    }
    return InetSocketAddress(m_current.server.GetIpv4(), m_port);
}

void
AdcWebUser::RequestDone(const AdcRequestRecord& record)
{
    // Visits do not overlap: the one request open is the current visit's.
    if (!m_running || m_phase != Phase::FETCH)
    {
        return;
    }
    m_current.status = record.status;
    if (record.outcome == AdcRequestOutcome::COMPLETED)
    {
        EndVisit("completed");
    }
    else if (record.outcome == AdcRequestOutcome::FAILED)
    {
        EndVisit(HttpOutcome(record.reason));
    }
    // OPEN_AT_STOP: the client stops with the user, whose StopApplication counted the visit.
}

void
AdcWebUser::EndVisit(const std::string& outcome)
{
    const Time now = Simulator::Now();
    if (m_phase == Phase::FETCH)
    {
        m_current.fetchTime = now - m_fetchStart;
    }
    m_current.total = now - m_current.start;
    m_current.outcome = outcome;
    m_phase = Phase::IDLE;
    if (outcome == "completed")
    {
        ++m_completed;
    }
    else
    {
        ++m_failed[outcome];
        ++m_failedTotal;
    }
    NS_LOG_INFO("visit " << m_current.id << " " << outcome);
    m_log.push_back(m_current);
    m_visitTrace(m_current);
    ScheduleNext();
}

void
AdcWebUser::ScheduleNext()
{
    if (!m_running || (m_maxVisits > 0 && m_visits >= m_maxVisits))
    {
        return;
    }
    const Time gap = Seconds(std::max(0.0, m_interVisit->GetValue()));
    if (m_stopVisitsAt.IsStrictlyPositive() && Simulator::Now() + gap > m_stopVisitsAt)
    {
        return;
    }
    m_next = Simulator::Schedule(gap, &AdcWebUser::StartVisit, this);
}

} // namespace ns3
