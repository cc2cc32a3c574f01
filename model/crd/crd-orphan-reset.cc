/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-orphan-reset.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/trace-source-accessor.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdOrphanReset");

NS_OBJECT_ENSURE_REGISTERED(CrdOrphanReset);

TypeId
CrdOrphanReset::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrdOrphanReset")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<CrdOrphanReset>()
            .AddAttribute("Enabled",
                          "Answer segments of unknown connections with a reset (false: drop them "
                          "silently, as ns-3's listening sockets do).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdOrphanReset::m_enabled),
                          MakeBooleanChecker())
            .AddTraceSource("Reset",
                            "A reset answered a segment of no connection (flow, reason).",
                            MakeTraceSourceAccessor(&CrdOrphanReset::m_resetTrace),
                            "ns3::CrdOrphanReset::ResetTracedCallback");
    return tid;
}

CrdOrphanReset::CrdOrphanReset() = default;

void
CrdOrphanReset::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
    Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_IF(!ipv4 || !node->GetObject<TcpL4Protocol>(),
                    "CrdOrphanReset: the node needs an IPv4 stack with TCP");
    ipv4->TraceConnectWithoutContext("LocalDeliver",
                                     MakeCallback(&CrdOrphanReset::LocalDeliver, this));
}

uint64_t
CrdOrphanReset::GetResetCount() const
{
    return m_resets;
}

void
CrdOrphanReset::DoDispose()
{
    m_node = nullptr;
    Object::DoDispose();
}

void
CrdOrphanReset::LocalDeliver(const Ipv4Header& header, Ptr<const Packet> packet, uint32_t)
{
    // Local delivery comes after reassembly: the packet is a whole segment.
    if (!m_enabled || !m_node || header.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    TcpHeader in;
    if (packet->PeekHeader(in) == 0)
    {
        return;
    }
    const uint8_t flags = in.GetFlags();
    if (flags & (TcpHeader::SYN | TcpHeader::RST))
    {
        return; // a SYN opens a connection (or is the listener's); a reset is never answered
    }
    Ptr<TcpL4Protocol> tcp = m_node->GetObject<TcpL4Protocol>();
    // The trace fires before TCP sees the segment: an endpoint of this exact four-tuple is a
    // connection that will take it. Allocate fails for an existing four-tuple.
    Ipv4EndPoint* probe = tcp->Allocate(nullptr,
                                        header.GetDestination(),
                                        in.GetDestinationPort(),
                                        header.GetSource(),
                                        in.GetSourcePort());
    if (!probe)
    {
        return;
    }
    tcp->DeAllocate(probe);
    TcpHeader rst;
    rst.SetSourcePort(in.GetDestinationPort());
    rst.SetDestinationPort(in.GetSourcePort());
    if (flags & TcpHeader::ACK)
    {
        rst.SetSequenceNumber(in.GetAckNumber());
        rst.SetFlags(TcpHeader::RST);
    }
    else
    {
        const uint32_t len = packet->GetSize() - in.GetSerializedSize() + (flags & TcpHeader::FIN);
        rst.SetSequenceNumber(SequenceNumber32(0));
        rst.SetAckNumber(in.GetSequenceNumber() + SequenceNumber32(len));
        rst.SetFlags(TcpHeader::RST | TcpHeader::ACK);
    }
    rst.SetWindowSize(0);
    ++m_resets;
    std::ostringstream flow;
    flow << header.GetSource() << ':' << in.GetSourcePort() << " > " << header.GetDestination()
         << ':' << in.GetDestinationPort();
    NS_LOG_LOGIC("reset " << flow.str());
    m_resetTrace(flow.str(), "no-connection");
    // From the segment's destination (the origin's address, or a client's for a USIP flow): the
    // node's policy routing keeps a foreign source as it is.
    tcp->SendPacket(Create<Packet>(), rst, header.GetDestination(), header.GetSource());
}

} // namespace ns3
