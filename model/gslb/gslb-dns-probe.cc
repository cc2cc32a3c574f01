/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the DNS-over-UDP probe kind of the ldns-dns monitor.
 */

#include "gslb-dns-probe.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/log.h"
#include "ns3/packet.h"

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
    Release(index); // an earlier probe's ID is forgotten before this one's is recorded
    const uint16_t id = m_nextId++;
    m_ids[index] = id;
    const std::vector<uint8_t> bytes =
        AdcDnsMessage::MakeQuery(id, m_qname, AdcDnsMessage::TYPE_A, false).Serialize();
    NS_LOG_LOGIC("query id " << id << " for " << m_qname << " to " << target.name);
    SendDatagram(index, target, Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())));
}

void
GslbDnsProbe::OnRelease(uint32_t index, Ptr<Socket> socket)
{
    m_ids.erase(index);
    AdcUdpSocketProbe::OnRelease(index, socket);
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

Ptr<AdcHealthProbe>
GslbMakeDnsProbe(const std::string& qname)
{
    return Create<GslbDnsProbe>(qname);
}

} // namespace ns3
