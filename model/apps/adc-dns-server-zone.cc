/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what AdcDnsServer answers (RFC 1034 section 4.3.2, RFC 2308, RFC 6604, RFC 6891,
 * RFC 8020): zones, CNAME chains, negative answers with the SOA, EDNS(0). The sockets are in
 * adc-dns-server.cc.
 */

#include "adc-dns-server.h"

#include "ns3/log.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcDnsServerZone");

namespace
{

/// Longest CNAME chain followed: a loop is caught by the names visited, the bound keeps an
/// answer small.
constexpr uint32_t kMaxCnameChain = 16;

/// \param key a lookup key \param apex a zone's apex key \return true when key is at or below
bool
AtOrBelow(const std::string& key, const std::string& apex)
{
    if (apex == ".")
    {
        return true;
    }
    if (key.size() < apex.size() || key.compare(key.size() - apex.size(), apex.size(), apex) != 0)
    {
        return false;
    }
    // Whole labels: "xexample.com" is not below "example.com". An escaped dot ("\.") is
    // never a label boundary, and a backslash before the boundary is an escape.
    if (key.size() == apex.size())
    {
        return true;
    }
    const std::size_t dot = key.size() - apex.size() - 1;
    if (key[dot] != '.')
    {
        return false;
    }
    std::size_t backslashes = 0;
    for (std::size_t i = dot; i > 0 && key[i - 1] == '\\'; --i)
    {
        ++backslashes;
    }
    return backslashes % 2 == 0;
}

} // namespace

std::string
AdcDnsServer::FindZone(const std::string& name) const
{
    const std::string key = Key(name);
    if (key.empty())
    {
        return "";
    }
    std::string best;
    std::size_t bestLength = 0;
    for (const auto& [apex, index] : m_zones)
    {
        const std::size_t length = apex == "." ? 0 : apex.size() + 1;
        if (AtOrBelow(key, apex) && (best.empty() || length > bestLength))
        {
            best = apex;
            bestLength = length;
        }
    }
    return best;
}

std::vector<AdcDnsResourceRecord>
AdcDnsServer::Answer(const AdcDnsQuestion& q, const Address& /* from */)
{
    std::vector<AdcDnsResourceRecord> answers;
    auto [first, last] = m_byName.equal_range(Key(q.name));
    for (auto it = first; it != last; ++it)
    {
        const AdcDnsResourceRecord& rr = m_records[it->second];
        if (q.qtype == AdcDnsMessage::TYPE_ANY || rr.type == q.qtype)
        {
            answers.push_back(rr);
            answers.back().name = q.name; // owner as asked: compresses against the question
        }
    }
    return answers;
}

bool
AdcDnsServer::HasName(const std::string& name) const
{
    return m_byName.count(Key(name)) > 0;
}

bool
AdcDnsServer::HasNameBelow(const std::string& name) const
{
    const std::string key = Key(name);
    if (key.empty())
    {
        return false;
    }
    for (const auto& [owner, index] : m_byName)
    {
        if (owner != key && AtOrBelow(owner, key))
        {
            return true;
        }
    }
    return false;
}

AdcDnsMessage
AdcDnsServer::Decide(const AdcDnsMessage& query, const Address& from, std::size_t& udpLimit)
{
    udpLimit = AdcDnsMessage::kMaxUdpBytes;
    for (const auto& q : query.questions)
    {
        m_queryTrace(from, q);
    }
    // EDNS(0): at most one OPT, in the additional section (RFC 6891 section 6.1.1); a bad one
    // is answered FORMERR without an OPT (section 7).
    std::optional<AdcDnsEdns> edns;
    std::size_t opts = 0;
    for (const auto* section : {&query.answers, &query.authority})
    {
        for (const auto& rr : *section)
        {
            if (rr.type == AdcDnsMessage::TYPE_OPT)
            {
                return Formerr(query, from, "an OPT record outside the additional section (RFC "
                                            "6891 section 6.1.1)");
            }
        }
    }
    for (const auto& rr : query.additional)
    {
        if (rr.type != AdcDnsMessage::TYPE_OPT)
        {
            continue;
        }
        if (++opts > 1)
        {
            return Formerr(query, from, "more than one OPT record (RFC 6891 section 6.1.1)");
        }
        std::string why;
        edns = AdcDnsEdns::FromRecord(rr, &why);
        if (!edns)
        {
            return Formerr(query, from, why);
        }
    }
    const auto withOpt = [&](AdcDnsMessage r) {
        if (edns)
        {
            AdcDnsEdns mine;
            mine.udpPayload = static_cast<uint16_t>(m_maxUdpPayload);
            mine.dnssecOk = edns->dnssecOk; // RFC 3225 section 3: DO copied
            mine.extendedRcode = static_cast<uint8_t>(r.rcode >> 4);
            r.rcode &= 0x0F;
            r.additional.push_back(mine.ToRecord());
        }
        return r;
    };
    if (edns)
    {
        if (edns->version > 0)
        {
            // RFC 6891 section 6.1.3: BADVERS, with the highest version the responder has.
            AdcDnsMessage r = AdcDnsMessage::MakeResponse(query, 0, false);
            r.rcode = static_cast<uint8_t>(AdcDnsMessage::BADVERS); // split by withOpt
            return withOpt(r);
        }
        // Section 6.2.5: sizes below 512 count as 512; the server's maximum caps the rest.
        udpLimit = std::min<std::size_t>(
            std::max<std::size_t>(edns->udpPayload, AdcDnsMessage::kMaxUdpBytes),
            m_maxUdpPayload);
    }
    if (query.opcode != AdcDnsMessage::QUERY)
    {
        return withOpt(AdcDnsMessage::MakeResponse(query, AdcDnsMessage::NOTIMP, false));
    }
    if (query.questions.size() != 1)
    {
        return withOpt(Formerr(query,
                               from,
                               "QDCOUNT " + std::to_string(query.questions.size()) +
                                   " is not 1"));
    }
    const AdcDnsQuestion& q = query.questions.front();
    if (q.qclass != AdcDnsMessage::CLASS_IN && q.qclass != AdcDnsMessage::TYPE_ANY)
    {
        return withOpt(AdcDnsMessage::MakeResponse(query, AdcDnsMessage::REFUSED, false));
    }
    return withOpt(Lookup(query, from));
}

AdcDnsMessage
AdcDnsServer::Lookup(const AdcDnsMessage& query, const Address& from)
{
    const AdcDnsQuestion& q = query.questions.front();
    const std::string zone = FindZone(q.name);
    if (!m_zones.empty() && zone.empty())
    {
        // Not authoritative for the name, and no recursion: REFUSED, AA clear (RFC 1034
        // 4.3.2 step 2 finds no zone; as BIND and NSD answer such queries).
        return AdcDnsMessage::MakeResponse(query, AdcDnsMessage::REFUSED, false);
    }
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(query, AdcDnsMessage::NOERROR, true);
    AdcDnsQuestion current = q;
    std::set<std::string> visited;
    for (uint32_t hop = 0;; ++hop)
    {
        const std::string key = Key(current.name);
        visited.insert(key);
        // A CNAME at the name answers any other type (RFC 1034 section 3.6.2).
        std::optional<std::string> target;
        if (q.qtype != AdcDnsMessage::TYPE_CNAME && q.qtype != AdcDnsMessage::TYPE_ANY)
        {
            auto [first, last] = m_byName.equal_range(key);
            for (auto it = first; it != last && !target; ++it)
            {
                const AdcDnsResourceRecord& rr = m_records[it->second];
                if (rr.type == AdcDnsMessage::TYPE_CNAME)
                {
                    target = rr.GetTargetName();
                    r.answers.push_back(rr);
                    r.answers.back().name = current.name;
                }
            }
        }
        if (!target)
        {
            std::vector<AdcDnsResourceRecord> found = Answer(current, from);
            if (found.empty() && !HasName(current.name) && !HasNameBelow(current.name))
            {
                r.rcode = AdcDnsMessage::NXDOMAIN; // of the last name (RFC 6604 section 2)
            }
            r.answers.insert(r.answers.end(), found.begin(), found.end());
            if (!found.empty() || zone.empty())
            {
                return r;
            }
            break; // a negative answer: the SOA goes in the authority section
        }
        // Follow the chain within the zone only; outside it the requester goes on.
        if (hop + 1 >= kMaxCnameChain || visited.count(Key(*target)) > 0 ||
            (!zone.empty() && FindZone(*target) != zone) || (zone.empty() && !HasName(*target)))
        {
            return r;
        }
        current.name = *target;
    }
    // RFC 2308 section 3: the SOA's TTL in a negative answer is min(SOA TTL, SOA MINIMUM).
    AdcDnsResourceRecord soa = m_records[m_zones.at(zone)];
    soa.ttl = std::min(soa.ttl, AdcDnsSoa::FromRecord(soa)->minimum);
    r.authority.push_back(soa);
    return r;
}

} // namespace ns3
