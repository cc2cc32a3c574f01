/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB wire format: BGP-4 messages, serialization of OPEN and UPDATE bodies (RFC
 * 4271 4.2, 4.3; RFC 4760).
 */

#include "adc-bgp-wire-util.h"

namespace ns3
{
namespace adcbgp
{

/// \param o an OPEN \return its body
std::vector<uint8_t>
SerializeOpen(const AdcBgpOpen& o)
{
    if (o.version != AdcBgpOpen::kVersion)
    {
        Bad("OPEN version", std::to_string(o.version), "only 4 (BGP-4)");
    }
    if (o.myAs == 0)
    {
        Bad("OPEN my AS", "0", "1..65535 (AS_TRANS 23456 for a 4-octet AS, RFC 6793)");
    }
    if (o.holdTime == 1 || o.holdTime == 2)
    {
        Bad("OPEN hold time", std::to_string(o.holdTime), "0 or at least 3 seconds");
    }
    if (o.bgpIdentifier.Get() == 0)
    {
        Bad("OPEN BGP identifier", "0.0.0.0", "a non-zero IPv4 address");
    }
    // Capabilities, packed into type-2 parameters of at most 255 bytes each.
    std::vector<uint8_t> params;
    std::vector<uint8_t> current;
    auto flush = [&]() {
        if (!current.empty())
        {
            params.push_back(AdcBgpOpen::kCapabilitiesParameter);
            params.push_back(static_cast<uint8_t>(current.size()));
            params.insert(params.end(), current.begin(), current.end());
            current.clear();
        }
    };
    for (const auto& c : o.capabilities)
    {
        if (c.value.size() > AdcBgpCapability::kMaxValue)
        {
            Bad("OPEN capability " + std::to_string(c.code) + " value length",
                std::to_string(c.value.size()),
                "at most 253 bytes");
        }
        if ((c.code == AdcBgpCapability::kMultiprotocol ||
             c.code == AdcBgpCapability::kFourOctetAs) &&
            c.value.size() != 4)
        {
            Bad("OPEN capability " + AdcBgpCapability::Name(c.code) + " value length",
                std::to_string(c.value.size()),
                "4 bytes");
        }
        if (current.size() + 2 + c.value.size() > 255)
        {
            flush();
        }
        current.push_back(c.code);
        current.push_back(static_cast<uint8_t>(c.value.size()));
        current.insert(current.end(), c.value.begin(), c.value.end());
    }
    flush();
    if (params.size() > 255)
    {
        Bad("OPEN optional parameters length",
            std::to_string(params.size()),
            "at most 255 bytes (fewer capabilities)");
    }
    std::vector<uint8_t> out;
    out.push_back(o.version);
    AdcPutU16(out, o.myAs);
    AdcPutU16(out, o.holdTime);
    uint8_t id[4];
    o.bgpIdentifier.Serialize(id);
    out.insert(out.end(), id, id + 4);
    out.push_back(static_cast<uint8_t>(params.size()));
    out.insert(out.end(), params.begin(), params.end());
    return out;
}

/// \param u an UPDATE \param fourOctetAs AS size \return its body
std::vector<uint8_t>
SerializeUpdate(const AdcBgpUpdate& u, bool fourOctetAs)
{
    std::vector<uint8_t> withdrawn;
    for (const auto& p : u.withdrawn)
    {
        PutPrefix4(withdrawn, p, "withdrawn route");
    }
    std::vector<uint8_t> attrs;
    if (u.origin)
    {
        if (*u.origin > AdcBgpUpdate::INCOMPLETE)
        {
            Bad("ORIGIN", std::to_string(*u.origin), "0 (IGP), 1 (EGP), 2 (INCOMPLETE)");
        }
        PutAttribute(attrs, kFlagTransitive, AdcBgpUpdate::ORIGIN, {*u.origin});
    }
    if (u.asPath)
    {
        std::vector<uint8_t> v;
        for (const auto& s : *u.asPath)
        {
            if (s.type != AdcBgpAsPathSegment::kAsSet && s.type != AdcBgpAsPathSegment::kAsSequence)
            {
                Bad("AS_PATH segment type", std::to_string(s.type), "1 (AS_SET), 2 (AS_SEQUENCE)");
            }
            if (s.ases.empty() || s.ases.size() > 255)
            {
                Bad("AS_PATH segment AS count", std::to_string(s.ases.size()), "1..255");
            }
            v.push_back(s.type);
            v.push_back(static_cast<uint8_t>(s.ases.size()));
            for (uint32_t as : s.ases)
            {
                if (fourOctetAs)
                {
                    AdcPutU32(v, as);
                }
                else if (as > 0xffff)
                {
                    Bad("AS_PATH AS",
                        std::to_string(as),
                        "at most 65535 on a session without 4-octet ASes (RFC 6793)");
                }
                else
                {
                    AdcPutU16(v, static_cast<uint16_t>(as));
                }
            }
        }
        PutAttribute(attrs, kFlagTransitive, AdcBgpUpdate::AS_PATH, v);
    }
    if (u.nextHop)
    {
        if (u.nextHop->Get() == 0 || u.nextHop->IsMulticast() || u.nextHop->IsBroadcast())
        {
            std::ostringstream os;
            os << *u.nextHop;
            Bad("NEXT_HOP", os.str(), "a unicast IPv4 address");
        }
        std::vector<uint8_t> v(4);
        u.nextHop->Serialize(v.data());
        PutAttribute(attrs, kFlagTransitive, AdcBgpUpdate::NEXT_HOP, v);
    }
    if (u.med)
    {
        std::vector<uint8_t> v;
        AdcPutU32(v, *u.med);
        PutAttribute(attrs, kFlagOptional, AdcBgpUpdate::MULTI_EXIT_DISC, v);
    }
    if (u.localPref)
    {
        std::vector<uint8_t> v;
        AdcPutU32(v, *u.localPref);
        PutAttribute(attrs, kFlagTransitive, AdcBgpUpdate::LOCAL_PREF, v);
    }
    if (u.atomicAggregate)
    {
        PutAttribute(attrs, kFlagTransitive, AdcBgpUpdate::ATOMIC_AGGREGATE, {});
    }
    if (u.mpReach)
    {
        std::vector<uint8_t> v;
        AdcPutU16(v, kAfiIpv6);
        v.push_back(kSafiUnicast);
        v.push_back(u.mpReach->linkLocal ? 32 : 16);
        const auto g = V6Bytes(u.mpReach->nextHop);
        v.insert(v.end(), g.begin(), g.end());
        if (u.mpReach->linkLocal)
        {
            const auto l = V6Bytes(*u.mpReach->linkLocal);
            v.insert(v.end(), l.begin(), l.end());
        }
        v.push_back(0); // reserved (RFC 4760 section 3)
        for (const auto& p : u.mpReach->nlri)
        {
            PutPrefix6(v, p, "MP_REACH_NLRI");
        }
        PutAttribute(attrs, kFlagOptional, AdcBgpUpdate::MP_REACH_NLRI, v);
    }
    if (u.mpUnreach)
    {
        std::vector<uint8_t> v;
        AdcPutU16(v, kAfiIpv6);
        v.push_back(kSafiUnicast);
        for (const auto& p : *u.mpUnreach)
        {
            PutPrefix6(v, p, "MP_UNREACH_NLRI");
        }
        PutAttribute(attrs, kFlagOptional, AdcBgpUpdate::MP_UNREACH_NLRI, v);
    }
    std::set<uint8_t> seen;
    for (const auto& a : u.otherAttributes)
    {
        const std::string name = "raw path attribute " + std::to_string(a.type);
        if ((a.flags & kFlagOptional) == 0)
        {
            Bad(name + " flags",
                Hex2(a.flags),
                "the optional bit (0x80): an unrecognized attribute is optional");
        }
        if ((a.flags & 0x1f) != 0)
        {
            Bad(name + " flags",
                Hex2(a.flags),
                "only 0x80, 0x40 and 0x20 (extended length is set by the length)");
        }
        if (a.type >= AdcBgpUpdate::ORIGIN && a.type <= AdcBgpUpdate::ATOMIC_AGGREGATE)
        {
            Bad(name, AdcBgpUpdate::AttributeName(a.type), "a type not typed in AdcBgpUpdate");
        }
        if ((a.type == AdcBgpUpdate::MP_REACH_NLRI || a.type == AdcBgpUpdate::MP_UNREACH_NLRI) &&
            (a.flags != kFlagOptional || a.value.size() < 3 ||
             (a.value[0] == 0 && a.value[1] == kAfiIpv6 && a.value[2] == kSafiUnicast)))
        {
            Bad(name,
                "with flags " + Hex2(a.flags) + " and " + std::to_string(a.value.size()) + " bytes",
                "flags 0x80, an AFI and SAFI other than 2/1 (typed in mpReach / mpUnreach)");
        }
        if ((a.type == AdcBgpUpdate::MP_REACH_NLRI && u.mpReach) ||
            (a.type == AdcBgpUpdate::MP_UNREACH_NLRI && u.mpUnreach) || !seen.insert(a.type).second)
        {
            Bad(name, "twice", "one attribute of each type (RFC 4271 section 5)");
        }
        PutAttribute(attrs, a.flags, a.type, a.value);
    }
    std::vector<uint8_t> nlri;
    for (const auto& p : u.nlri)
    {
        PutPrefix4(nlri, p, "NLRI");
    }
    std::vector<uint8_t> out;
    if (withdrawn.size() > 0xffff || attrs.size() > 0xffff)
    {
        Bad("UPDATE", "of " + std::to_string(withdrawn.size() + attrs.size()) + " bytes", "4096");
    }
    AdcPutU16(out, static_cast<uint16_t>(withdrawn.size()));
    out.insert(out.end(), withdrawn.begin(), withdrawn.end());
    AdcPutU16(out, static_cast<uint16_t>(attrs.size()));
    out.insert(out.end(), attrs.begin(), attrs.end());
    out.insert(out.end(), nlri.begin(), nlri.end());
    return out;
}

} // namespace adcbgp
} // namespace ns3
