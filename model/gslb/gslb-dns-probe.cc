/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the DNS-over-UDP probe kind of the ldns-dns monitor.
 */

#include "gslb-dns-probe.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/callback.h"
#include "ns3/icmpv4.h"
#include "ns3/icmpv6-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbDnsProbe");

namespace
{

/// \return \p qname in canonical text; throws AdcConfigError naming the qname when invalid
std::string
CheckQname(const std::string& qname)
{
    try
    {
        return AdcDnsName::Canonical(qname);
    }
    catch (const AdcConfigError& e)
    {
        throw AdcConfigError("GslbDnsProbe: qname '" + qname +
                             "' is not a valid domain name (labels of 1..63 bytes, at most 255 "
                             "bytes on the wire; \".\" is the root): " +
                             e.what());
    }
}

} // namespace

const std::string GslbDnsProbe::kDefaultQname = ".";

GslbDnsProbe::GslbDnsProbe(const std::string& qname)
    : m_qname(CheckQname(qname))
{
}

const std::string&
GslbDnsProbe::GetQname() const
{
    return m_qname;
}

uint16_t
GslbDnsProbe::GetNextId() const
{
    return m_nextId;
}

void
GslbDnsProbe::DoStart()
{
    // Deterministic and different between monitors on one node and from probe to probe.
    m_nextId = GetInstanceId();
}

void
GslbDnsProbe::Send(uint32_t index, const Target& target)
{
    const uint64_t serial = Open(index, target, UdpSocketFactory::GetTypeId());
    Ptr<Socket> s = Find(index, serial)->socket;
    s->SetRecvCallback(MakeCallback(&GslbDnsProbe::Received, this, index, serial));
    if (target.address.IsV6())
    {
        s->SetAttribute("IcmpCallback6",
                        CallbackValue(MakeCallback(&GslbDnsProbe::Icmp6, this, index, serial)));
    }
    else
    {
        s->SetAttribute("IcmpCallback",
                        CallbackValue(MakeCallback(&GslbDnsProbe::Icmp4, this, index, serial)));
    }
    const uint16_t id = m_nextId++;
    m_ids[index] = id;
    const std::vector<uint8_t> bytes =
        AdcDnsMessage::MakeQuery(id, m_qname, AdcDnsMessage::TYPE_A, false).Serialize();
    Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    NS_LOG_LOGIC("query id " << id << " for " << m_qname << " to " << target.name);
    if (s->Connect(SocketAddressOf(target.address, target.port)) < 0 || s->Send(p) < 0)
    {
        Finish(index, false, "send-error");
    }
}

void
GslbDnsProbe::OnRelease(uint32_t index, Ptr<Socket> socket)
{
    m_ids.erase(index);
    socket->SetAttribute(
        "IcmpCallback",
        CallbackValue(MakeNullCallback<void, Ipv4Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
    socket->SetAttribute(
        "IcmpCallback6",
        CallbackValue(MakeNullCallback<void, Ipv6Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
}

void
GslbDnsProbe::Received(uint32_t index, uint64_t serial, Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        if (!Find(index, serial))
        {
            continue; // finished or abandoned: drain quietly
        }
        if (Judge(index, p))
        {
            return; // the socket is released; nothing more is read from it
        }
    }
}

bool
GslbDnsProbe::Judge(uint32_t index, Ptr<Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    std::string error;
    const std::optional<AdcDnsMessage> m = AdcDnsMessage::Parse(bytes, &error);
    if (!m)
    {
        NS_LOG_LOGIC("malformed DNS datagram: " << error);
        Drop(packet, "dns-malformed");
        return false;
    }
    if (!m->qr)
    {
        Drop(packet, "dns-not-response");
        return false;
    }
    auto it = m_ids.find(index);
    if (it == m_ids.end() || it->second != m->id)
    {
        Drop(packet, "dns-wrong-id");
        return false;
    }
    Finish(index, true, "dns-rcode-" + AdcDnsMessage::RcodeName(m->rcode));
    return true;
}

void
GslbDnsProbe::Icmp4(uint32_t index,
                    uint64_t serial,
                    Ipv4Address /* from */,
                    uint8_t /* ttl */,
                    uint8_t type,
                    uint8_t code,
                    uint32_t /* info */)
{
    if (Find(index, serial))
    {
        Finish(index, false, AdcIcmpv4ErrorReason(type, code));
    }
}

void
GslbDnsProbe::Icmp6(uint32_t index,
                    uint64_t serial,
                    Ipv6Address /* from */,
                    uint8_t /* ttl */,
                    uint8_t type,
                    uint8_t code,
                    uint32_t /* info */)
{
    if (Find(index, serial))
    {
        Finish(index, false, AdcIcmpv6ErrorReason(type, code));
    }
}

Ptr<AdcHealthProbe>
GslbMakeDnsProbe(const std::string& qname)
{
    return Create<GslbDnsProbe>(qname);
}

} // namespace ns3
