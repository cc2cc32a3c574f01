/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB wire format: what the BGP-4 message files share (adc-bgp-message.cc, -serialize.cc,
 * -parse.cc): attribute flags, the parse failure, the field reader, prefix and attribute
 * helpers. Internal: not installed, included by those files only.
 */

#ifndef ADC_BGP_WIRE_UTIL_H
#define ADC_BGP_WIRE_UTIL_H

#include "adc-bgp-message.h"
#include "adc-wire-bytes.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

namespace ns3
{
namespace adcbgp
{

constexpr uint8_t kFlagOptional = 0x80;      //!< attribute flag: optional
constexpr uint8_t kFlagTransitive = 0x40;    //!< attribute flag: transitive
constexpr uint8_t kFlagPartial = 0x20;       //!< attribute flag: partial
constexpr uint8_t kFlagExtended = 0x10;      //!< attribute flag: extended length
constexpr uint16_t kAfiIpv6 = 2;             //!< AFI IPv6 (IANA address family numbers)
constexpr uint8_t kSafiUnicast = 1;          //!< SAFI unicast
constexpr std::size_t kMinOpen = 29;         //!< header + version, AS, hold, id, opt len
constexpr std::size_t kMinUpdate = 23;       //!< header + two 2-byte lengths
constexpr std::size_t kMinNotification = 21; //!< header + code, subcode

/// A parse failure: thrown inside this file only, turned into an AdcBgpError by Parse.
struct Failure
{
    AdcBgpError error; //!< the error
};

/// \brief Throw a Failure. \param code \param subcode \param offset \param what
/// \param data NOTIFICATION data
[[noreturn]] inline void
Fail(uint8_t code,
     uint8_t subcode,
     std::size_t offset,
     const std::string& what,
     std::vector<uint8_t> data = {})
{
    Failure f;
    f.error.code = code;
    f.error.subcode = subcode;
    f.error.offset = offset;
    f.error.what = what;
    f.error.data = std::move(data);
    throw f;
}

/// Reads big-endian fields of a region [begin, end) of a message; positions are message
/// offsets.
class Reader
{
  public:
    /// \param data message bytes \param begin first byte \param end one past the last byte
    /// \param code error code when a field runs past the end \param subcode its subcode
    Reader(const uint8_t* data, std::size_t begin, std::size_t end, uint8_t code, uint8_t subcode)
        : m_data(data),
          m_pos(begin),
          m_end(end),
          m_code(code),
          m_subcode(subcode)
    {
    }

    /// \return the read position (message offset)
    std::size_t Pos() const
    {
        return m_pos;
    }

    /// \return the bytes left in the region
    std::size_t Left() const
    {
        return m_end - m_pos;
    }

    /// \param field name \param n bytes needed
    void Need(const std::string& field, std::size_t n) const
    {
        if (n > Left())
        {
            Fail(m_code,
                 m_subcode,
                 m_pos,
                 field + " needs " + std::to_string(n) + " bytes but " + std::to_string(Left()) +
                     " remain");
        }
    }

    /// \param field name \return a byte
    uint8_t U8(const std::string& field)
    {
        Need(field, 1);
        return m_data[m_pos++];
    }

    /// \param field name \return a big-endian uint16
    uint16_t U16(const std::string& field)
    {
        Need(field, 2);
        const uint16_t v = static_cast<uint16_t>((m_data[m_pos] << 8) | m_data[m_pos + 1]);
        m_pos += 2;
        return v;
    }

    /// \param field name \return a big-endian uint32
    uint32_t U32(const std::string& field)
    {
        Need(field, 4);
        const uint32_t v = (uint32_t{m_data[m_pos]} << 24) | (uint32_t{m_data[m_pos + 1]} << 16) |
                           (uint32_t{m_data[m_pos + 2]} << 8) | uint32_t{m_data[m_pos + 3]};
        m_pos += 4;
        return v;
    }

    /// \param field name \param n count \return n bytes
    std::vector<uint8_t> Bytes(const std::string& field, std::size_t n)
    {
        Need(field, n);
        std::vector<uint8_t> b(m_data + m_pos, m_data + m_pos + n);
        m_pos += n;
        return b;
    }

  private:
    const uint8_t* m_data; //!< message bytes
    std::size_t m_pos;     //!< read position
    std::size_t m_end;     //!< region end
    uint8_t m_code;        //!< error code for a short region
    uint8_t m_subcode;     //!< its subcode
};

/// \brief Throw the AdcConfigError of a value that must not be sent.
/// \param field the field \param value its value \param allowed what is allowed
[[noreturn]] inline void
Bad(const std::string& field, const std::string& value, const std::string& allowed)
{
    throw AdcConfigError("AdcBgpMessage: " + field + " " + value + " is not allowed: " + allowed);
}

/// \param bits prefix length \return bytes it takes on the wire
inline std::size_t
PrefixBytes(uint8_t bits)
{
    return (bits + 7u) / 8u;
}

/// \param bytes address bytes (network order) \param n their number \param bits prefix length
/// \return true when a bit past \p bits is set
inline bool
HostBitsSet(const uint8_t* bytes, std::size_t n, uint8_t bits)
{
    for (std::size_t i = 0; i < n; ++i)
    {
        const std::size_t first = i * 8;
        uint8_t keep = 0;
        if (bits >= first + 8)
        {
            keep = 0xff;
        }
        else if (bits > first)
        {
            keep = static_cast<uint8_t>(0xff << (8 - (bits - first)));
        }
        if ((bytes[i] & static_cast<uint8_t>(~keep)) != 0)
        {
            return true;
        }
    }
    return false;
}

/// \param bytes address bytes to clear past \p bits \param n their number \param bits length
inline void
ClearHostBits(uint8_t* bytes, std::size_t n, uint8_t bits)
{
    for (std::size_t i = 0; i < n; ++i)
    {
        const std::size_t first = i * 8;
        if (bits >= first + 8)
        {
            continue;
        }
        bytes[i] =
            bits > first ? static_cast<uint8_t>(bytes[i] & (0xff << (8 - (bits - first)))) : 0;
    }
}

/// \param out bytes \param p a prefix \param field name
inline void
PutPrefix4(std::vector<uint8_t>& out, const AdcBgpIpv4Prefix& p, const std::string& field)
{
    uint8_t a[4];
    p.address.Serialize(a);
    if (p.length > 32)
    {
        Bad(field + " prefix length", std::to_string(p.length), "0..32");
    }
    if (HostBitsSet(a, 4, p.length))
    {
        Bad(field + " prefix", p.ToString(), "host bits past the length must be zero");
    }
    out.push_back(p.length);
    out.insert(out.end(), a, a + PrefixBytes(p.length));
}

/// \param out bytes \param p a prefix \param field name
inline void
PutPrefix6(std::vector<uint8_t>& out, const AdcBgpIpv6Prefix& p, const std::string& field)
{
    uint8_t a[16];
    p.address.Serialize(a);
    if (p.length > 128)
    {
        Bad(field + " prefix length", std::to_string(p.length), "0..128");
    }
    if (HostBitsSet(a, 16, p.length))
    {
        Bad(field + " prefix", p.ToString(), "host bits past the length must be zero");
    }
    out.push_back(p.length);
    out.insert(out.end(), a, a + PrefixBytes(p.length));
}

/**
 * \brief Read prefixes filling [r.Pos(), end of r).
 * \param r reader \param maxBits 32 or 128 \param field name \param code \param subcode
 * error for a bad prefix \return the prefixes' (length, bytes), bytes zero-padded to 16
 */
inline std::vector<std::pair<uint8_t, std::array<uint8_t, 16>>>
ReadPrefixes(Reader& r, uint8_t maxBits, const std::string& field, uint8_t code, uint8_t subcode)
{
    std::vector<std::pair<uint8_t, std::array<uint8_t, 16>>> out;
    while (r.Left() > 0)
    {
        const std::size_t at = r.Pos();
        const uint8_t bits = r.U8(field + " prefix length");
        if (bits > maxBits)
        {
            Fail(code,
                 subcode,
                 at,
                 field + " prefix length " + std::to_string(bits) + " exceeds " +
                     std::to_string(maxBits) + " bits");
        }
        const std::size_t n = PrefixBytes(bits);
        if (n > r.Left())
        {
            Fail(code,
                 subcode,
                 at,
                 field + " prefix /" + std::to_string(bits) + " needs " + std::to_string(n) +
                     " bytes but " + std::to_string(r.Left()) + " remain");
        }
        std::array<uint8_t, 16> a{};
        const auto b = r.Bytes(field, n);
        std::copy(b.begin(), b.end(), a.begin());
        ClearHostBits(a.data(), n, bits);
        out.emplace_back(bits, a);
    }
    return out;
}

/// \param p prefixes as read \return IPv4 prefixes
inline std::vector<AdcBgpIpv4Prefix>
ToV4(const std::vector<std::pair<uint8_t, std::array<uint8_t, 16>>>& p)
{
    std::vector<AdcBgpIpv4Prefix> out;
    for (const auto& [bits, a] : p)
    {
        AdcBgpIpv4Prefix x;
        x.address = Ipv4Address::Deserialize(a.data());
        x.length = bits;
        out.push_back(x);
    }
    return out;
}

/// \param p prefixes as read \return IPv6 prefixes
inline std::vector<AdcBgpIpv6Prefix>
ToV6(const std::vector<std::pair<uint8_t, std::array<uint8_t, 16>>>& p)
{
    std::vector<AdcBgpIpv6Prefix> out;
    for (const auto& [bits, a] : p)
    {
        AdcBgpIpv6Prefix x;
        x.address = Ipv6Address::Deserialize(a.data());
        x.length = bits;
        out.push_back(x);
    }
    return out;
}

/// \param v 16-byte address \return its bytes
inline std::array<uint8_t, 16>
V6Bytes(const Ipv6Address& v)
{
    std::array<uint8_t, 16> a{};
    v.Serialize(a.data());
    return a;
}

/// \param out bytes \param flags attribute flags (without extended length) \param type
/// \param value the value (extended length is set when it exceeds 255 bytes)
inline void
PutAttribute(std::vector<uint8_t>& out,
             uint8_t flags,
             uint8_t type,
             const std::vector<uint8_t>& value)
{
    if (value.size() > 0xffff)
    {
        Bad("path attribute " + AdcBgpUpdate::AttributeName(type) + " (" + std::to_string(type) +
                ") value length",
            std::to_string(value.size()),
            "at most 65535 bytes");
    }
    const bool extended = value.size() > 255;
    out.push_back(static_cast<uint8_t>(flags | (extended ? kFlagExtended : 0)));
    out.push_back(type);
    if (extended)
    {
        AdcPutU16(out, static_cast<uint16_t>(value.size()));
    }
    else
    {
        out.push_back(static_cast<uint8_t>(value.size()));
    }
    out.insert(out.end(), value.begin(), value.end());
}

/// \param type a known attribute type \return the optional and transitive flags RFC 4271 /
/// RFC 4760 give it
inline uint8_t
KnownFlags(uint8_t type)
{
    switch (type)
    {
    case AdcBgpUpdate::MULTI_EXIT_DISC:
    case AdcBgpUpdate::MP_REACH_NLRI:
    case AdcBgpUpdate::MP_UNREACH_NLRI:
        return kFlagOptional;
    default:
        return kFlagTransitive;
    }
}

/// \param type an attribute type \return true when this model interprets it
inline bool
IsKnownAttribute(uint8_t type)
{
    return (type >= AdcBgpUpdate::ORIGIN && type <= AdcBgpUpdate::ATOMIC_AGGREGATE) ||
           type == AdcBgpUpdate::MP_REACH_NLRI || type == AdcBgpUpdate::MP_UNREACH_NLRI;
}

/// \param v a value \return "0x" and two hex digits
inline std::string
Hex2(unsigned v)
{
    std::ostringstream os;
    os << "0x" << std::hex;
    os.width(2);
    os.fill('0');
    os << v;
    return os.str();
}

/// \param o an OPEN \return its body (adc-bgp-serialize.cc)
std::vector<uint8_t> SerializeOpen(const AdcBgpOpen& o);
/// \param u an UPDATE \param fourOctetAs AS size \return its body (adc-bgp-serialize.cc)
std::vector<uint8_t> SerializeUpdate(const AdcBgpUpdate& u, bool fourOctetAs);
/// \param data message \param size its length \return the OPEN body (adc-bgp-parse.cc)
AdcBgpOpen ParseOpen(const uint8_t* data, std::size_t size);
/// \param data message \param size its length \param four AS size \return the UPDATE body
/// (adc-bgp-parse.cc)
AdcBgpUpdate ParseUpdate(const uint8_t* data, std::size_t size, bool four);

} // namespace adcbgp
} // namespace ns3

#endif /* ADC_BGP_WIRE_UTIL_H */
