/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-redirect-message.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-wire-bytes.h"

#include <array>
#include <sstream>

namespace ns3
{

namespace
{

constexpr uint8_t kFlowV6 = 0x01;       //!< families bit: flow
constexpr uint8_t kDipV6 = 0x02;        //!< families bit: DIP
constexpr uint8_t kDipHostV6 = 0x04;    //!< families bit: DIP host PA
constexpr uint8_t kClientHostV6 = 0x08; //!< families bit: client host PA
constexpr uint8_t kFamilyBits = 0x0f;   //!< every families bit
constexpr uint32_t kMaxVni = 0xffffff;  //!< 24 bits

/// \param v6 IPv6 \return address bytes
std::size_t
AddressBytes(bool v6)
{
    return v6 ? 16 : 4;
}

/// \param families the families byte \return the message's size
std::size_t
MessageBytes(uint8_t families)
{
    return SlbRedirectMessage::kFixedBytes + 2 * AddressBytes(families & kFlowV6) +
           AddressBytes(families & kDipV6) + AddressBytes(families & kDipHostV6) +
           AddressBytes(families & kClientHostV6);
}

/// \param out bytes \param a an address: its 4 or 16 bytes appended
void
PutAddress(std::vector<uint8_t>& out, const AdcIpAddress& a)
{
    out.insert(out.end(), a.GetBytes().begin(), a.GetBytes().begin() + a.GetLength());
}

/// \param d bytes \param o offset (advanced) \param v6 IPv6 \return the address at o
AdcIpAddress
GetAddress(const uint8_t* d, std::size_t& o, bool v6)
{
    AdcIpAddress a;
    if (v6)
    {
        std::array<uint8_t, 16> b{};
        std::copy(d + o, d + o + 16, b.begin());
        a = Ipv6Address(b.data());
    }
    else
    {
        a = Ipv4Address::Deserialize(d + o);
    }
    o += AddressBytes(v6);
    return a;
}

/// \param what the field \param a its address \throws AdcConfigError when unset
void
RequireAddress(const std::string& what, const AdcIpAddress& a)
{
    if (a.IsNone())
    {
        throw AdcConfigError("SlbRedirectMessage: " + what + " is unset; an IPv4 or IPv6 " +
                             "address is required");
    }
}

} // namespace

std::vector<uint8_t>
SlbRedirectMessage::Serialize() const
{
    RequireAddress("flow source", flow.src);
    RequireAddress("flow destination (VIP)", flow.dst);
    RequireAddress("DIP", dip);
    RequireAddress("DIP host PA", dipHostPa);
    RequireAddress("client host PA", clientHostPa);
    if (flow.src.GetFamily() != flow.dst.GetFamily())
    {
        throw AdcConfigError("SlbRedirectMessage: flow " + flow.ToString() +
                             " mixes IPv4 and IPv6; source and VIP must be one family");
    }
    if (flow.protocol != AdcFlowKey::PROTO_TCP && flow.protocol != AdcFlowKey::PROTO_UDP)
    {
        throw AdcConfigError("SlbRedirectMessage: protocol " + std::to_string(flow.protocol) +
                             " is not one of 6 (TCP), 17 (UDP)");
    }
    if (vni > kMaxVni)
    {
        throw AdcConfigError("SlbRedirectMessage: VNI " + std::to_string(vni) +
                             " is above 16777215 (24 bits)");
    }
    const uint8_t families = (flow.dst.IsV6() ? kFlowV6 : 0) | (dip.IsV6() ? kDipV6 : 0) |
                             (dipHostPa.IsV6() ? kDipHostV6 : 0) |
                             (clientHostPa.IsV6() ? kClientHostV6 : 0);
    std::vector<uint8_t> out;
    out.reserve(MessageBytes(families));
    out.push_back(kVersion);
    out.push_back(kTypeRedirect);
    AdcPutU16(out, static_cast<uint16_t>(MessageBytes(families)));
    out.push_back(families);
    out.push_back(flow.protocol);
    AdcPutU16(out, flow.srcPort);
    AdcPutU16(out, flow.dstPort);
    AdcPutU16(out, dipPort);
    AdcPutU16(out, static_cast<uint16_t>(vni >> 16));
    AdcPutU16(out, static_cast<uint16_t>(vni));
    for (const AdcIpAddress* a : {&flow.src, &flow.dst, &dip, &dipHostPa, &clientHostPa})
    {
        PutAddress(out, *a);
    }
    return out;
}

std::optional<SlbRedirectMessage>
SlbRedirectMessage::Parse(const uint8_t* data, std::size_t size, std::string* error)
{
    auto fail = [error](std::size_t at, const std::string& what) {
        if (error != nullptr)
        {
            *error = "slb-redirect: byte " + std::to_string(at) + ": " + what;
        }
        return std::nullopt;
    };
    if (size < kFixedBytes)
    {
        return fail(size, "truncated: " + std::to_string(size) + " bytes, at least 16 needed");
    }
    if (data[0] != kVersion)
    {
        return fail(0, "version " + std::to_string(data[0]) + ", not 1");
    }
    if (data[1] != kTypeRedirect)
    {
        return fail(1, "type " + std::to_string(data[1]) + ", not 1 (redirect)");
    }
    const uint8_t families = data[4];
    if ((families & ~kFamilyBits) != 0)
    {
        return fail(4, "reserved family bits set");
    }
    const std::size_t expected = MessageBytes(families);
    if (AdcGetU16(data + 2) != expected)
    {
        return fail(2,
                    "length " + std::to_string(AdcGetU16(data + 2)) + ", the families give " +
                        std::to_string(expected));
    }
    if (size != expected)
    {
        return fail(std::min(size, expected),
                    std::to_string(size) + " bytes, the length says " + std::to_string(expected));
    }
    SlbRedirectMessage m;
    m.flow.protocol = data[5];
    if (m.flow.protocol != AdcFlowKey::PROTO_TCP && m.flow.protocol != AdcFlowKey::PROTO_UDP)
    {
        return fail(5, "protocol " + std::to_string(data[5]) + ", not 6 or 17");
    }
    if (data[12] != 0)
    {
        return fail(12, "VNI above 24 bits");
    }
    m.flow.srcPort = AdcGetU16(data + 6);
    m.flow.dstPort = AdcGetU16(data + 8);
    m.dipPort = AdcGetU16(data + 10);
    m.vni = (static_cast<uint32_t>(data[13]) << 16) | AdcGetU16(data + 14);
    std::size_t o = kFixedBytes;
    m.flow.src = GetAddress(data, o, families & kFlowV6);
    m.flow.dst = GetAddress(data, o, families & kFlowV6);
    m.dip = GetAddress(data, o, families & kDipV6);
    m.dipHostPa = GetAddress(data, o, families & kDipHostV6);
    m.clientHostPa = GetAddress(data, o, families & kClientHostV6);
    return m;
}

std::optional<SlbRedirectMessage>
SlbRedirectMessage::Parse(const std::vector<uint8_t>& bytes, std::string* error)
{
    return Parse(bytes.data(), bytes.size(), error);
}

std::string
SlbRedirectMessage::ToString() const
{
    std::ostringstream os;
    os << flow.ToString() << " => " << dip << ':' << dipPort << '@' << dipHostPa << "/vni" << vni
       << " (client host " << clientHostPa << ')';
    return os.str();
}

bool
SlbRedirectMessage::operator==(const SlbRedirectMessage& o) const
{
    return flow == o.flow && dip == o.dip && dipPort == o.dipPort && dipHostPa == o.dipHostPa &&
           clientHostPa == o.clientHostPa && vni == o.vni;
}

} // namespace ns3
