/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB wire format: BGP-4 messages (RFC 4271, RFC 4760, RFC 5492, RFC 6793).
 */

#include "adc-bgp-message.h"

#include "adc-bgp-wire-util.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

namespace ns3
{

using namespace adcbgp;

// ---------------------------------------------------------------------------- values

std::string
AdcBgpIpv4Prefix::ToString() const
{
    std::ostringstream os;
    os << address << "/" << unsigned{length};
    return os.str();
}

bool
AdcBgpIpv4Prefix::operator==(const AdcBgpIpv4Prefix& other) const
{
    return address == other.address && length == other.length;
}

std::string
AdcBgpIpv6Prefix::ToString() const
{
    std::ostringstream os;
    os << address << "/" << unsigned{length};
    return os.str();
}

bool
AdcBgpIpv6Prefix::operator==(const AdcBgpIpv6Prefix& other) const
{
    return address == other.address && length == other.length;
}

AdcBgpCapability
AdcBgpCapability::Multiprotocol(uint16_t afi, uint8_t safi)
{
    AdcBgpCapability c;
    c.code = kMultiprotocol;
    AdcPutU16(c.value, afi);
    c.value.push_back(0);
    c.value.push_back(safi);
    return c;
}

AdcBgpCapability
AdcBgpCapability::FourOctetAs(uint32_t as)
{
    AdcBgpCapability c;
    c.code = kFourOctetAs;
    AdcPutU32(c.value, as);
    return c;
}

std::string
AdcBgpCapability::Name(uint8_t code)
{
    switch (code)
    {
    case kMultiprotocol:
        return "Multiprotocol Extensions";
    case 2:
        return "Route Refresh";
    case kFourOctetAs:
        return "4-octet AS";
    default:
        return "Unknown";
    }
}

bool
AdcBgpCapability::operator==(const AdcBgpCapability& other) const
{
    return code == other.code && value == other.value;
}

AdcBgpOpen
AdcBgpOpen::Make(uint32_t as, uint16_t holdTime, Ipv4Address bgpIdentifier, bool ipv4, bool ipv6)
{
    if (as == 0)
    {
        Bad("OPEN AS", "0", "1..4294967295");
    }
    if (holdTime == 1 || holdTime == 2)
    {
        Bad("OPEN hold time", std::to_string(holdTime), "0 or at least 3 seconds");
    }
    AdcBgpOpen o;
    o.myAs = as > 0xffff ? kAsTrans : static_cast<uint16_t>(as);
    o.holdTime = holdTime;
    o.bgpIdentifier = bgpIdentifier;
    if (ipv4)
    {
        o.capabilities.push_back(AdcBgpCapability::Multiprotocol(1, kSafiUnicast));
    }
    if (ipv6)
    {
        o.capabilities.push_back(AdcBgpCapability::Multiprotocol(kAfiIpv6, kSafiUnicast));
    }
    o.capabilities.push_back(AdcBgpCapability::FourOctetAs(as));
    return o;
}

std::optional<uint32_t>
AdcBgpOpen::GetFourOctetAs() const
{
    for (const auto& c : capabilities)
    {
        if (c.code == AdcBgpCapability::kFourOctetAs && c.value.size() == 4)
        {
            return (uint32_t{c.value[0]} << 24) | (uint32_t{c.value[1]} << 16) |
                   (uint32_t{c.value[2]} << 8) | uint32_t{c.value[3]};
        }
    }
    return std::nullopt;
}

uint32_t
AdcBgpOpen::GetPeerAs() const
{
    return GetFourOctetAs().value_or(myAs);
}

bool
AdcBgpOpen::HasMultiprotocol(uint16_t afi, uint8_t safi) const
{
    const AdcBgpCapability want = AdcBgpCapability::Multiprotocol(afi, safi);
    return std::any_of(capabilities.begin(), capabilities.end(), [&](const AdcBgpCapability& c) {
        return c.code == want.code && c.value.size() == 4 && c.value[0] == want.value[0] &&
               c.value[1] == want.value[1] && c.value[3] == want.value[3];
    });
}

bool
AdcBgpOpen::operator==(const AdcBgpOpen& other) const
{
    return version == other.version && myAs == other.myAs && holdTime == other.holdTime &&
           bgpIdentifier == other.bgpIdentifier && capabilities == other.capabilities;
}

bool
AdcBgpAsPathSegment::operator==(const AdcBgpAsPathSegment& other) const
{
    return type == other.type && ases == other.ases;
}

bool
AdcBgpRawAttribute::operator==(const AdcBgpRawAttribute& other) const
{
    return flags == other.flags && type == other.type && value == other.value;
}

bool
AdcBgpMpReach::operator==(const AdcBgpMpReach& other) const
{
    return nextHop == other.nextHop && linkLocal == other.linkLocal && nlri == other.nlri;
}

AdcBgpUpdate
AdcBgpUpdate::Announce(const std::vector<AdcBgpIpv4Prefix>& prefixes,
                       const std::vector<uint32_t>& path,
                       Ipv4Address nextHop)
{
    AdcBgpUpdate u;
    u.origin = IGP;
    u.asPath = std::vector<AdcBgpAsPathSegment>{};
    if (!path.empty())
    {
        u.asPath->push_back({AdcBgpAsPathSegment::kAsSequence, path});
    }
    u.nextHop = nextHop;
    u.nlri = prefixes;
    return u;
}

AdcBgpUpdate
AdcBgpUpdate::Announce6(const std::vector<AdcBgpIpv6Prefix>& prefixes,
                        const std::vector<uint32_t>& path,
                        Ipv6Address nextHop)
{
    AdcBgpUpdate u;
    u.origin = IGP;
    u.asPath = std::vector<AdcBgpAsPathSegment>{};
    if (!path.empty())
    {
        u.asPath->push_back({AdcBgpAsPathSegment::kAsSequence, path});
    }
    AdcBgpMpReach mp;
    mp.nextHop = nextHop;
    mp.nlri = prefixes;
    u.mpReach = mp;
    return u;
}

AdcBgpUpdate
AdcBgpUpdate::Withdraw(const std::vector<AdcBgpIpv4Prefix>& prefixes)
{
    AdcBgpUpdate u;
    u.withdrawn = prefixes;
    return u;
}

AdcBgpUpdate
AdcBgpUpdate::Withdraw6(const std::vector<AdcBgpIpv6Prefix>& prefixes)
{
    AdcBgpUpdate u;
    u.mpUnreach = prefixes;
    return u;
}

std::string
AdcBgpUpdate::AttributeName(uint8_t type)
{
    switch (type)
    {
    case ORIGIN:
        return "ORIGIN";
    case AS_PATH:
        return "AS_PATH";
    case NEXT_HOP:
        return "NEXT_HOP";
    case MULTI_EXIT_DISC:
        return "MULTI_EXIT_DISC";
    case LOCAL_PREF:
        return "LOCAL_PREF";
    case ATOMIC_AGGREGATE:
        return "ATOMIC_AGGREGATE";
    case 7:
        return "AGGREGATOR";
    case 8:
        return "COMMUNITIES";
    case MP_REACH_NLRI:
        return "MP_REACH_NLRI";
    case MP_UNREACH_NLRI:
        return "MP_UNREACH_NLRI";
    default:
        return "Unknown";
    }
}

bool
AdcBgpUpdate::operator==(const AdcBgpUpdate& other) const
{
    return withdrawn == other.withdrawn && origin == other.origin && asPath == other.asPath &&
           nextHop == other.nextHop && med == other.med && localPref == other.localPref &&
           atomicAggregate == other.atomicAggregate && mpReach == other.mpReach &&
           mpUnreach == other.mpUnreach && otherAttributes == other.otherAttributes &&
           nlri == other.nlri;
}

std::string
AdcBgpNotification::CodeName(uint8_t code)
{
    switch (code)
    {
    case MESSAGE_HEADER_ERROR:
        return "Message Header Error";
    case OPEN_MESSAGE_ERROR:
        return "OPEN Message Error";
    case UPDATE_MESSAGE_ERROR:
        return "UPDATE Message Error";
    case HOLD_TIMER_EXPIRED:
        return "Hold Timer Expired";
    case FSM_ERROR:
        return "Finite State Machine Error";
    case CEASE:
        return "Cease";
    default:
        return "Unknown";
    }
}

std::string
AdcBgpNotification::SubcodeName(uint8_t code, uint8_t subcode)
{
    if (subcode == 0)
    {
        return "Unspecific";
    }
    static const std::vector<std::string> header = {"Connection Not Synchronized",
                                                    "Bad Message Length",
                                                    "Bad Message Type"};
    static const std::vector<std::string> open = {"Unsupported Version Number",
                                                  "Bad Peer AS",
                                                  "Bad BGP Identifier",
                                                  "Unsupported Optional Parameter",
                                                  "[Deprecated]",
                                                  "Unacceptable Hold Time",
                                                  "Unsupported Capability"};
    static const std::vector<std::string> update = {"Malformed Attribute List",
                                                    "Unrecognized Well-known Attribute",
                                                    "Missing Well-known Attribute",
                                                    "Attribute Flags Error",
                                                    "Attribute Length Error",
                                                    "Invalid ORIGIN Attribute",
                                                    "[Deprecated]",
                                                    "Invalid NEXT_HOP Attribute",
                                                    "Optional Attribute Error",
                                                    "Invalid Network Field",
                                                    "Malformed AS_PATH"};
    static const std::vector<std::string> cease = {"Maximum Number of Prefixes Reached",
                                                   "Administrative Shutdown",
                                                   "Peer De-configured",
                                                   "Administrative Reset",
                                                   "Connection Rejected",
                                                   "Other Configuration Change",
                                                   "Connection Collision Resolution",
                                                   "Out of Resources"};
    const std::vector<std::string>* names = nullptr;
    switch (code)
    {
    case MESSAGE_HEADER_ERROR:
        names = &header;
        break;
    case OPEN_MESSAGE_ERROR:
        names = &open;
        break;
    case UPDATE_MESSAGE_ERROR:
        names = &update;
        break;
    case CEASE:
        names = &cease; // RFC 4486
        break;
    default:
        return "Unknown";
    }
    return subcode <= names->size() ? (*names)[subcode - 1] : "Unknown";
}

bool
AdcBgpNotification::operator==(const AdcBgpNotification& other) const
{
    return code == other.code && subcode == other.subcode && data == other.data;
}

AdcBgpNotification
AdcBgpError::ToNotification() const
{
    AdcBgpNotification n;
    n.code = code;
    n.subcode = subcode;
    n.data = data;
    return n;
}

std::string
AdcBgpError::ToString() const
{
    return "BGP error " + std::to_string(code) + "/" + std::to_string(subcode) + " (" +
           AdcBgpNotification::CodeName(code) + " / " +
           AdcBgpNotification::SubcodeName(code, subcode) + ") at byte " + std::to_string(offset) +
           ": " + what;
}

// ---------------------------------------------------------------------------- messages

AdcBgpMessage
AdcBgpMessage::Keepalive()
{
    return AdcBgpMessage();
}

AdcBgpMessage
AdcBgpMessage::Open(const AdcBgpOpen& o)
{
    AdcBgpMessage m;
    m.type = OPEN;
    m.open = o;
    return m;
}

AdcBgpMessage
AdcBgpMessage::Update(const AdcBgpUpdate& u)
{
    AdcBgpMessage m;
    m.type = UPDATE;
    m.update = u;
    return m;
}

AdcBgpMessage
AdcBgpMessage::Notification(const AdcBgpNotification& n)
{
    AdcBgpMessage m;
    m.type = NOTIFICATION;
    m.notification = n;
    return m;
}

std::vector<uint8_t>
AdcBgpMessage::Serialize(bool fourOctetAs) const
{
    std::vector<uint8_t> body;
    switch (type)
    {
    case OPEN:
        body = SerializeOpen(open);
        break;
    case UPDATE:
        body = SerializeUpdate(update, fourOctetAs);
        break;
    case NOTIFICATION:
        body.push_back(notification.code);
        body.push_back(notification.subcode);
        body.insert(body.end(), notification.data.begin(), notification.data.end());
        break;
    case KEEPALIVE:
        break;
    default:
        Bad("type", std::to_string(type), "1 (OPEN), 2 (UPDATE), 3 (NOTIFICATION), 4 (KEEPALIVE)");
    }
    const std::size_t total = kHeaderBytes + body.size();
    if (total > kMaxMessage)
    {
        Bad(TypeName(type) + " length",
            std::to_string(total) + " bytes",
            "at most 4096 bytes (RFC 4271 section 4.1): split the routes over several UPDATEs");
    }
    std::vector<uint8_t> out(kMarkerBytes, 0xff);
    AdcPutU16(out, static_cast<uint16_t>(total));
    out.push_back(type);
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

std::optional<AdcBgpError>
AdcBgpMessage::CheckHeader(const uint8_t* header)
{
    AdcBgpError e;
    for (std::size_t i = 0; i < kMarkerBytes; ++i)
    {
        if (header[i] != 0xff)
        {
            e.code = 1;
            e.subcode = 1;
            e.offset = i;
            e.what = "marker byte " + Hex2(header[i]) + " is not 0xff (all ones)";
            return e;
        }
    }
    const uint16_t length = static_cast<uint16_t>((header[16] << 8) | header[17]);
    const uint8_t type = header[18];
    e.offset = 16;
    e.code = 1;
    e.subcode = 2;
    e.data = {header[16], header[17]}; // the erroneous length field (RFC 4271 section 6.1)
    if (length < kHeaderBytes || length > kMaxMessage)
    {
        e.what = "length " + std::to_string(length) + " is not in 19..4096";
        return e;
    }
    std::size_t min = kHeaderBytes;
    switch (type)
    {
    case OPEN:
        min = kMinOpen;
        break;
    case UPDATE:
        min = kMinUpdate;
        break;
    case NOTIFICATION:
        min = kMinNotification;
        break;
    case KEEPALIVE:
        if (length != kHeaderBytes)
        {
            e.what = "KEEPALIVE length " + std::to_string(length) + " is not 19";
            return e;
        }
        break;
    default:
        e.subcode = 3;
        e.offset = 18;
        e.data = {type};
        e.what = "type " + std::to_string(type) +
                 " is not 1 (OPEN), 2 (UPDATE), 3 (NOTIFICATION) or 4 (KEEPALIVE)";
        return e;
    }
    if (length < min)
    {
        e.what = TypeName(type) + " length " + std::to_string(length) + " is below its minimum " +
                 std::to_string(min);
        return e;
    }
    return std::nullopt;
}

AdcBgpParseResult
AdcBgpMessage::Parse(const uint8_t* data, std::size_t size, bool fourOctetAs)
{
    AdcBgpParseResult result;
    if (size < kHeaderBytes)
    {
        AdcBgpError e;
        e.code = 1;
        e.subcode = 2;
        e.offset = size;
        e.what = std::to_string(size) + " bytes are fewer than the 19 of a header";
        result.error = e;
        return result;
    }
    if (auto e = CheckHeader(data))
    {
        result.error = *e;
        return result;
    }
    const std::size_t length = (std::size_t{data[16]} << 8) | data[17];
    if (length != size)
    {
        AdcBgpError e;
        e.code = 1;
        e.subcode = 2;
        e.offset = 16;
        e.data = {data[16], data[17]};
        e.what = "length " + std::to_string(length) + " does not match the " +
                 std::to_string(size) + " bytes given";
        result.error = e;
        return result;
    }
    AdcBgpMessage m;
    m.type = data[18];
    try
    {
        switch (m.type)
        {
        case OPEN:
            m.open = ParseOpen(data, size);
            break;
        case UPDATE:
            m.update = ParseUpdate(data, size, fourOctetAs);
            break;
        case NOTIFICATION:
            m.notification.code = data[19];
            m.notification.subcode = data[20];
            m.notification.data.assign(data + 21, data + size);
            break;
        default:
            break;
        }
    }
    catch (const Failure& f)
    {
        result.error = f.error;
        return result;
    }
    result.message = std::move(m);
    return result;
}

AdcBgpParseResult
AdcBgpMessage::Parse(const std::vector<uint8_t>& bytes, bool fourOctetAs)
{
    return Parse(bytes.data(), bytes.size(), fourOctetAs);
}

std::string
AdcBgpMessage::TypeName(uint8_t type)
{
    switch (type)
    {
    case OPEN:
        return "OPEN";
    case UPDATE:
        return "UPDATE";
    case NOTIFICATION:
        return "NOTIFICATION";
    case KEEPALIVE:
        return "KEEPALIVE";
    default:
        return "Unknown";
    }
}

std::string
AdcBgpMessage::ToString() const
{
    std::ostringstream os;
    os << TypeName(type);
    switch (type)
    {
    case OPEN:
        os << " version=" << unsigned{open.version} << " as=" << open.GetPeerAs()
           << " hold=" << open.holdTime << " id=" << open.bgpIdentifier;
        for (const auto& c : open.capabilities)
        {
            os << " cap=" << AdcBgpCapability::Name(c.code) << "(" << unsigned{c.code} << ")";
        }
        break;
    case UPDATE:
        for (const auto& p : update.withdrawn)
        {
            os << " withdrawn=" << p.ToString();
        }
        if (update.origin)
        {
            os << " origin=" << unsigned{*update.origin};
        }
        if (update.asPath)
        {
            os << " as_path=[";
            const char* sep = "";
            for (const auto& s : *update.asPath)
            {
                os << sep << (s.type == AdcBgpAsPathSegment::kAsSet ? "{" : "");
                const char* sep2 = "";
                for (uint32_t as : s.ases)
                {
                    os << sep2 << as;
                    sep2 = " ";
                }
                os << (s.type == AdcBgpAsPathSegment::kAsSet ? "}" : "");
                sep = " ";
            }
            os << "]";
        }
        if (update.nextHop)
        {
            os << " next_hop=" << *update.nextHop;
        }
        if (update.med)
        {
            os << " med=" << *update.med;
        }
        if (update.localPref)
        {
            os << " local_pref=" << *update.localPref;
        }
        if (update.mpReach)
        {
            os << " mp_next_hop=" << update.mpReach->nextHop;
            for (const auto& p : update.mpReach->nlri)
            {
                os << " nlri=" << p.ToString();
            }
        }
        if (update.mpUnreach)
        {
            for (const auto& p : *update.mpUnreach)
            {
                os << " withdrawn=" << p.ToString();
            }
        }
        for (const auto& p : update.nlri)
        {
            os << " nlri=" << p.ToString();
        }
        break;
    case NOTIFICATION:
        os << " " << unsigned{notification.code} << "/" << unsigned{notification.subcode} << " ("
           << AdcBgpNotification::CodeName(notification.code) << " / "
           << AdcBgpNotification::SubcodeName(notification.code, notification.subcode) << ")";
        break;
    default:
        break;
    }
    return os.str();
}

bool
AdcBgpMessage::operator==(const AdcBgpMessage& other) const
{
    if (type != other.type)
    {
        return false;
    }
    switch (type)
    {
    case OPEN:
        return open == other.open;
    case UPDATE:
        return update == other.update;
    case NOTIFICATION:
        return notification == other.notification;
    default:
        return true;
    }
}

// ------------------------------------------------------------------------------ framer

AdcBgpFramer::AdcBgpFramer(bool fourOctetAs)
    : m_fourOctetAs(fourOctetAs)
{
}

void
AdcBgpFramer::SetFourOctetAs(bool fourOctetAs)
{
    m_fourOctetAs = fourOctetAs;
}

std::vector<AdcBgpMessage>
AdcBgpFramer::Feed(const uint8_t* data, std::size_t size)
{
    std::vector<AdcBgpMessage> out;
    if (m_error)
    {
        return out;
    }
    m_buffer.insert(m_buffer.end(), data, data + size);
    std::size_t at = 0;
    while (m_buffer.size() - at >= AdcBgpMessage::kHeaderBytes)
    {
        const uint8_t* msg = m_buffer.data() + at;
        if (auto e = AdcBgpMessage::CheckHeader(msg))
        {
            e->offset += m_consumed + at;
            m_error = e;
            break;
        }
        const std::size_t length = (std::size_t{msg[16]} << 8) | msg[17];
        if (m_buffer.size() - at < length)
        {
            break;
        }
        AdcBgpParseResult r = AdcBgpMessage::Parse(msg, length, m_fourOctetAs);
        if (!r.Ok())
        {
            r.error->offset += m_consumed + at;
            m_error = r.error;
            break;
        }
        out.push_back(std::move(*r.message));
        at += length;
    }
    m_buffer.erase(m_buffer.begin(), m_buffer.begin() + static_cast<std::ptrdiff_t>(at));
    m_consumed += at;
    if (m_error)
    {
        m_buffer.clear();
    }
    return out;
}

std::vector<AdcBgpMessage>
AdcBgpFramer::Feed(const std::vector<uint8_t>& bytes)
{
    return Feed(bytes.data(), bytes.size());
}

const std::optional<AdcBgpError>&
AdcBgpFramer::GetError() const
{
    return m_error;
}

uint64_t
AdcBgpFramer::GetMessageBytes() const
{
    return m_consumed;
}

std::size_t
AdcBgpFramer::GetBuffered() const
{
    return m_buffer.size();
}

} // namespace ns3
