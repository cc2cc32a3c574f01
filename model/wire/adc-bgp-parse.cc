/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB wire format: BGP-4 messages, parsing of OPEN and UPDATE bodies, with RFC 4271 section
 * 6 error codes.
 */

#include "adc-bgp-wire-util.h"

namespace ns3
{
namespace adcbgp
{

/// \param data message \param size its length \return the OPEN body
AdcBgpOpen
ParseOpen(const uint8_t* data, std::size_t size)
{
    AdcBgpOpen o;
    Reader r(data, AdcBgpMessage::kHeaderBytes, size, AdcBgpNotification::OPEN_MESSAGE_ERROR, 0);
    o.version = r.U8("version");
    if (o.version != AdcBgpOpen::kVersion)
    {
        // Data: the largest version supported, 2 bytes (RFC 4271 section 6.2).
        Fail(2, 1, 19, "version " + std::to_string(o.version) + " is not 4", {0, 4});
    }
    o.myAs = r.U16("my AS");
    if (o.myAs == 0)
    {
        Fail(2, 2, 20, "my AS 0 is not a valid AS (RFC 7607)");
    }
    o.holdTime = r.U16("hold time");
    if (o.holdTime == 1 || o.holdTime == 2)
    {
        Fail(2,
             6,
             22,
             "hold time " + std::to_string(o.holdTime) + " is neither 0 nor at least 3 seconds");
    }
    o.bgpIdentifier = Ipv4Address(r.U32("BGP identifier"));
    if (o.bgpIdentifier.Get() == 0)
    {
        Fail(2, 3, 24, "BGP identifier 0.0.0.0 is not a valid identifier");
    }
    const std::size_t optLen = r.U8("optional parameters length");
    if (optLen != r.Left())
    {
        Fail(2,
             0,
             28,
             "optional parameters length " + std::to_string(optLen) + " does not match the " +
                 std::to_string(r.Left()) + " bytes after it");
    }
    while (r.Left() > 0)
    {
        const std::size_t at = r.Pos();
        const uint8_t ptype = r.U8("optional parameter type");
        const uint8_t plen = r.U8("optional parameter length");
        if (plen > r.Left())
        {
            Fail(2,
                 0,
                 at + 1,
                 "optional parameter length " + std::to_string(plen) + " runs past the " +
                     std::to_string(r.Left()) + " bytes left");
        }
        if (ptype != AdcBgpOpen::kCapabilitiesParameter)
        {
            Fail(2,
                 4,
                 at,
                 "optional parameter type " + std::to_string(ptype) +
                     " is not 2 (capabilities, RFC 5492)");
        }
        Reader c(data, r.Pos(), r.Pos() + plen, 2, 0);
        r.Bytes("optional parameter", plen);
        while (c.Left() > 0)
        {
            const std::size_t cat = c.Pos();
            AdcBgpCapability cap;
            cap.code = c.U8("capability code");
            const uint8_t clen = c.U8("capability length");
            if (clen > c.Left())
            {
                Fail(2,
                     0,
                     cat + 1,
                     "capability length " + std::to_string(clen) + " runs past the " +
                         std::to_string(c.Left()) + " bytes left in its parameter");
            }
            cap.value = c.Bytes("capability value", clen);
            if ((cap.code == AdcBgpCapability::kMultiprotocol ||
                 cap.code == AdcBgpCapability::kFourOctetAs) &&
                clen != 4)
            {
                Fail(2,
                     0,
                     cat + 1,
                     AdcBgpCapability::Name(cap.code) + " capability length " +
                         std::to_string(clen) + " is not 4");
            }
            o.capabilities.push_back(std::move(cap));
        }
    }
    return o;
}

namespace
{

/// \param data message \param begin attribute value start \param end its end \param four AS
/// size \return the segments
std::vector<AdcBgpAsPathSegment>
ParseAsPath(const uint8_t* data, std::size_t begin, std::size_t end, bool four)
{
    std::vector<AdcBgpAsPathSegment> path;
    Reader r(data, begin, end, 3, 11);
    const std::size_t asBytes = four ? 4 : 2;
    while (r.Left() > 0)
    {
        const std::size_t at = r.Pos();
        AdcBgpAsPathSegment s;
        s.type = r.U8("AS_PATH segment type");
        if (s.type != AdcBgpAsPathSegment::kAsSet && s.type != AdcBgpAsPathSegment::kAsSequence)
        {
            Fail(3,
                 11,
                 at,
                 "AS_PATH segment type " + std::to_string(s.type) +
                     " is not 1 (AS_SET) or 2 (AS_SEQUENCE)");
        }
        const uint8_t n = r.U8("AS_PATH segment length");
        if (n == 0)
        {
            Fail(3, 11, at + 1, "AS_PATH segment holds 0 ASes (1..255 expected)");
        }
        if (n * asBytes > r.Left())
        {
            Fail(3,
                 11,
                 at + 1,
                 "AS_PATH segment of " + std::to_string(n) + " " + std::to_string(asBytes) +
                     "-byte ASes needs " + std::to_string(n * asBytes) + " bytes but " +
                     std::to_string(r.Left()) + " remain" +
                     (four ? "" : " (does the session use 4-octet ASes?)"));
        }
        for (uint8_t i = 0; i < n; ++i)
        {
            s.ases.push_back(four ? r.U32("AS") : r.U16("AS"));
        }
        path.push_back(std::move(s));
    }
    return path;
}

} // namespace

/// \param data message \param size its length \param four AS size \return the UPDATE body
AdcBgpUpdate
ParseUpdate(const uint8_t* data, std::size_t size, bool four)
{
    AdcBgpUpdate u;
    Reader r(data, AdcBgpMessage::kHeaderBytes, size, 3, 1);
    const uint16_t wlen = r.U16("withdrawn routes length");
    if (wlen + 2u > r.Left())
    {
        Fail(3,
             1,
             19,
             "withdrawn routes length " + std::to_string(wlen) +
                 " leaves no room for the total path attribute length in " + std::to_string(size) +
                 " bytes");
    }
    {
        Reader w(data, r.Pos(), r.Pos() + wlen, 3, 10);
        u.withdrawn = ToV4(ReadPrefixes(w, 32, "withdrawn route", 3, 10));
    }
    r.Bytes("withdrawn routes", wlen);
    const std::size_t alenAt = r.Pos();
    const uint16_t alen = r.U16("total path attribute length");
    if (alen > r.Left())
    {
        Fail(3,
             1,
             alenAt,
             "total path attribute length " + std::to_string(alen) + " exceeds the " +
                 std::to_string(r.Left()) + " bytes left");
    }
    const std::size_t attrEnd = r.Pos() + alen;
    std::set<uint8_t> seen;
    while (r.Pos() < attrEnd)
    {
        Reader a(data, r.Pos(), attrEnd, 3, 1);
        const std::size_t at = a.Pos();
        const uint8_t flags = a.U8("attribute flags");
        const uint8_t type = a.U8("attribute type");
        const std::size_t len =
            (flags & kFlagExtended) ? a.U16("attribute length") : a.U8("attribute length");
        if (len > a.Left())
        {
            Fail(3,
                 1,
                 at,
                 "attribute " + AdcBgpUpdate::AttributeName(type) + " (" + std::to_string(type) +
                     ") length " + std::to_string(len) + " runs past the " +
                     std::to_string(a.Left()) + " bytes of the attribute list");
        }
        const std::size_t vbegin = a.Pos();
        const std::size_t vend = vbegin + len;
        const std::vector<uint8_t> whole(data + at, data + vend); // the error data
        r.Bytes("attribute", vend - at);
        const std::string name =
            AdcBgpUpdate::AttributeName(type) + " (" + std::to_string(type) + ")";
        if (!seen.insert(type).second)
        {
            Fail(3, 1, at, "attribute " + name + " appears twice");
        }
        if (!IsKnownAttribute(type))
        {
            if ((flags & kFlagOptional) == 0)
            {
                Fail(3, 2, at, "unrecognized well-known attribute " + name, whole);
            }
            AdcBgpRawAttribute raw;
            raw.flags = static_cast<uint8_t>(flags & 0xe0);
            raw.type = type;
            raw.value.assign(data + vbegin, data + vend);
            u.otherAttributes.push_back(std::move(raw));
            continue;
        }
        const uint8_t want = KnownFlags(type);
        if ((flags & (kFlagOptional | kFlagTransitive)) != want || (flags & kFlagPartial) != 0)
        {
            Fail(3,
                 4,
                 at,
                 "attribute " + name + " flags " + Hex2(flags) + " are not " + Hex2(want) + " (" +
                     (want == kFlagOptional ? "optional non-transitive" : "well-known") +
                     ", not partial; extended length may be set)",
                 whole);
        }
        auto needLen = [&](std::size_t n) {
            if (len != n)
            {
                Fail(3,
                     5,
                     at,
                     "attribute " + name + " length " + std::to_string(len) + " is not " +
                         std::to_string(n),
                     whole);
            }
        };
        Reader v(data, vbegin, vend, 3, 9);
        switch (type)
        {
        case AdcBgpUpdate::ORIGIN:
            needLen(1);
            u.origin = v.U8("ORIGIN");
            if (*u.origin > AdcBgpUpdate::INCOMPLETE)
            {
                Fail(3,
                     6,
                     vbegin,
                     "ORIGIN " + std::to_string(*u.origin) +
                         " is not 0 (IGP), 1 (EGP) or 2 "
                         "(INCOMPLETE)",
                     whole);
            }
            break;
        case AdcBgpUpdate::AS_PATH:
            u.asPath = ParseAsPath(data, vbegin, vend, four);
            break;
        case AdcBgpUpdate::NEXT_HOP: {
            needLen(4);
            const Ipv4Address nh(v.U32("NEXT_HOP"));
            if (nh.Get() == 0 || nh.IsMulticast() || nh.IsBroadcast())
            {
                Fail(
                    3,
                    8,
                    vbegin,
                    "NEXT_HOP " +
                        [&] {
                            std::ostringstream os;
                            os << nh;
                            return os.str();
                        }() +
                        " is not a unicast address",
                    whole);
            }
            u.nextHop = nh;
            break;
        }
        case AdcBgpUpdate::MULTI_EXIT_DISC:
            needLen(4);
            u.med = v.U32("MULTI_EXIT_DISC");
            break;
        case AdcBgpUpdate::LOCAL_PREF:
            needLen(4);
            u.localPref = v.U32("LOCAL_PREF");
            break;
        case AdcBgpUpdate::ATOMIC_AGGREGATE:
            needLen(0);
            u.atomicAggregate = true;
            break;
        case AdcBgpUpdate::MP_REACH_NLRI:
        case AdcBgpUpdate::MP_UNREACH_NLRI: {
            const uint16_t afi = v.U16(name + " AFI");
            const uint8_t safi = v.U8(name + " SAFI");
            if (afi != kAfiIpv6 || safi != kSafiUnicast)
            {
                AdcBgpRawAttribute raw; // another family: kept as is
                raw.flags = kFlagOptional;
                raw.type = type;
                raw.value.assign(data + vbegin, data + vend);
                u.otherAttributes.push_back(std::move(raw));
                break;
            }
            if (type == AdcBgpUpdate::MP_UNREACH_NLRI)
            {
                u.mpUnreach = ToV6(ReadPrefixes(v, 128, "MP_UNREACH_NLRI", 3, 9));
                break;
            }
            AdcBgpMpReach mp;
            const std::size_t nhAt = v.Pos();
            const uint8_t nhLen = v.U8("MP_REACH_NLRI next hop length");
            if (nhLen != 16 && nhLen != 32)
            {
                Fail(3,
                     9,
                     nhAt,
                     "MP_REACH_NLRI next hop length " + std::to_string(nhLen) +
                         " is not 16 or 32 (IPv6 global, or global and link-local)",
                     whole);
            }
            const auto g = v.Bytes("MP_REACH_NLRI next hop", 16);
            mp.nextHop = Ipv6Address::Deserialize(g.data());
            if (nhLen == 32)
            {
                const auto l = v.Bytes("MP_REACH_NLRI link-local next hop", 16);
                mp.linkLocal = Ipv6Address::Deserialize(l.data());
            }
            v.U8("MP_REACH_NLRI reserved byte");
            mp.nlri = ToV6(ReadPrefixes(v, 128, "MP_REACH_NLRI", 3, 9));
            u.mpReach = std::move(mp);
            break;
        }
        default:
            break;
        }
    }
    {
        Reader n(data, attrEnd, size, 3, 10);
        u.nlri = ToV4(ReadPrefixes(n, 32, "NLRI", 3, 10));
    }
    // Well-known mandatory attributes (RFC 4271 section 6.3; RFC 4760 section 3: NEXT_HOP
    // only with IPv4 NLRI). Data: the missing attribute's type code.
    if (!u.nlri.empty() || u.mpReach)
    {
        if (!u.origin)
        {
            Fail(3, 3, alenAt, "ORIGIN (1) is missing from an UPDATE announcing routes", {1});
        }
        if (!u.asPath)
        {
            Fail(3, 3, alenAt, "AS_PATH (2) is missing from an UPDATE announcing routes", {2});
        }
        if (!u.nlri.empty() && !u.nextHop)
        {
            Fail(3, 3, alenAt, "NEXT_HOP (3) is missing from an UPDATE with IPv4 NLRI", {3});
        }
    }
    return u;
}

} // namespace adcbgp
} // namespace ns3
