/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what the TCP and UDP relays share (lifecycle, "Closed", end observer, counters).
 */

#include "adc-relay-base.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcRelayBase");

NS_OBJECT_ENSURE_REGISTERED(AdcRelayBase);

TypeId
AdcRelayBase::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcRelayBase").SetParent<Application>().SetGroupName("Adc");
    return tid;
}

AdcRelayBase::AdcRelayBase(uint16_t port)
    : m_port(port),
      m_nextId(1),
      m_disposing(false),
      m_bytesToServer(0),
      m_bytesToClient(0)
{
    NS_LOG_FUNCTION(this << port);
}

AdcRelayBase::~AdcRelayBase()
{
    NS_LOG_FUNCTION(this);
}

void
AdcRelayBase::SetEndObserver(EndObserver observer)
{
    m_endObserver = std::move(observer);
}

uint64_t
AdcRelayBase::GetBytesToServer() const
{
    return m_bytesToServer;
}

uint64_t
AdcRelayBase::GetBytesToClient() const
{
    return m_bytesToClient;
}

int64_t
AdcRelayBase::AssignStreams(int64_t /* stream */)
{
    return 0;
}

bool
AdcRelayBase::IsOwnAddress(Ipv4Address a) const
{
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    return ipv4 && ipv4->GetInterfaceForAddress(a) >= 0;
}

void
AdcRelayBase::ReportEnd(uint64_t id,
                        const Address& client,
                        const Address& destination,
                        uint64_t toServer,
                        uint64_t toClient,
                        const std::string& outcome)
{
    if (m_disposing)
    {
        return;
    }
    m_closedTrace(client, destination, toServer, toClient, outcome);
    if (m_endObserver)
    {
        m_endObserver(id, outcome);
    }
}

// ---- lifecycle -----------------------------------------------------------------------------

void
AdcRelayBase::StartApplication()
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    if (m_listen)
    {
        return;
    }
    m_listen = Listen();
}

void
AdcRelayBase::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_listen)
    {
        CloseListener(m_listen);
        m_listen = nullptr;
    }
    for (uint64_t key : OpenKeys()) // ascending keys: deterministic
    {
        End(key, "stopped");
    }
}

void
AdcRelayBase::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The node's stack and the trace listeners may be gone: close without sending or tracing.
    m_disposing = true;
    StopApplication();
    m_endObserver = nullptr;
    Application::DoDispose();
}

} // namespace ns3
