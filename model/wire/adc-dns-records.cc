/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: SOA RDATA (RFC 1035 section 3.3.13), the EDNS(0) OPT
 * pseudo-record (RFC 6891) and truncation to a UDP payload limit (RFC 1035 section 4.2.1,
 * RFC 2181 section 9, RFC 6891 section 7).
 */

#include "adc-dns-message.h"

#include "adc-wire-bytes.h"

#include "ns3/adc-config-error.h"

namespace ns3
{

namespace
{

/// \param d bytes \param at offset \return the big-endian uint32 there (4 bytes readable)
uint32_t
U32At(const std::vector<uint8_t>& d, std::size_t at)
{
    return (uint32_t{d[at]} << 24) | (uint32_t{d[at + 1]} << 16) | (uint32_t{d[at + 2]} << 8) |
           d[at + 3];
}

/**
 * \brief Read one uncompressed wire name from \p d at \p at.
 * \param d bytes \param at offset (advanced past the name) \param out its text form
 * \return false when it runs past the end or has a pointer or reserved label type
 */
bool
ReadName(const std::vector<uint8_t>& d, std::size_t& at, std::string& out)
{
    std::vector<std::string> labels;
    while (at < d.size())
    {
        const uint8_t len = d[at];
        if (len == 0)
        {
            ++at;
            out = AdcDnsName::FromLabels(labels);
            return true;
        }
        if (len > AdcDnsName::kMaxLabel || at + 1 + len > d.size())
        {
            return false;
        }
        labels.emplace_back(reinterpret_cast<const char*>(d.data() + at + 1), len);
        at += 1 + std::size_t{len};
    }
    return false;
}

} // namespace

// ---------------------------------------------------------------------------------- SOA

AdcDnsResourceRecord
AdcDnsSoa::ToRecord(const std::string& owner, uint32_t ttl) const
{
    AdcDnsResourceRecord rr;
    rr.name = AdcDnsName::Canonical(owner);
    rr.type = AdcDnsMessage::TYPE_SOA;
    rr.rrclass = AdcDnsMessage::CLASS_IN;
    rr.ttl = ttl;
    rr.rdata = AdcDnsName::ToWire(mname);
    const std::vector<uint8_t> r = AdcDnsName::ToWire(rname);
    rr.rdata.insert(rr.rdata.end(), r.begin(), r.end());
    for (uint32_t v : {serial, refresh, retry, expire, minimum})
    {
        AdcPutU16(rr.rdata, static_cast<uint16_t>(v >> 16));
        AdcPutU16(rr.rdata, static_cast<uint16_t>(v));
    }
    return rr;
}

std::optional<AdcDnsSoa>
AdcDnsSoa::FromRecord(const AdcDnsResourceRecord& rr)
{
    if (rr.type != AdcDnsMessage::TYPE_SOA)
    {
        return std::nullopt;
    }
    AdcDnsSoa soa;
    std::size_t at = 0;
    if (!ReadName(rr.rdata, at, soa.mname) || !ReadName(rr.rdata, at, soa.rname) ||
        rr.rdata.size() - at != 20)
    {
        return std::nullopt;
    }
    soa.serial = U32At(rr.rdata, at);
    soa.refresh = U32At(rr.rdata, at + 4);
    soa.retry = U32At(rr.rdata, at + 8);
    soa.expire = U32At(rr.rdata, at + 12);
    soa.minimum = U32At(rr.rdata, at + 16);
    return soa;
}

// ---------------------------------------------------------------------------------- OPT

AdcDnsResourceRecord
AdcDnsEdns::ToRecord() const
{
    AdcDnsResourceRecord rr;
    rr.name = ".";
    rr.type = AdcDnsMessage::TYPE_OPT;
    rr.rrclass = udpPayload;
    rr.ttl = (uint32_t{extendedRcode} << 24) | (uint32_t{version} << 16) |
             (dnssecOk ? 0x8000U : 0U) | (z & 0x7fffU);
    rr.rdata = options;
    return rr;
}

std::optional<AdcDnsEdns>
AdcDnsEdns::FromRecord(const AdcDnsResourceRecord& rr, std::string* error)
{
    const auto fail = [error](const std::string& why) -> std::optional<AdcDnsEdns> {
        if (error)
        {
            *error = "OPT record: " + why;
        }
        return std::nullopt;
    };
    if (rr.type != AdcDnsMessage::TYPE_OPT)
    {
        return fail("type " + std::to_string(rr.type) + " is not 41 (OPT)");
    }
    if (rr.name != ".")
    {
        return fail("owner '" + rr.name + "' is not the root (RFC 6891 section 6.1.2)");
    }
    std::size_t at = 0;
    while (at < rr.rdata.size())
    {
        if (rr.rdata.size() - at < 4)
        {
            return fail("option at RDATA byte " + std::to_string(at) +
                        " has no room for its code and length (RFC 6891 section 6.1.2)");
        }
        const std::size_t len = (std::size_t{rr.rdata[at + 2]} << 8) | rr.rdata[at + 3];
        if (rr.rdata.size() - at - 4 < len)
        {
            return fail("option at RDATA byte " + std::to_string(at) + " has length " +
                        std::to_string(len) + " beyond RDATA's end");
        }
        at += 4 + len;
    }
    AdcDnsEdns e;
    e.udpPayload = rr.rrclass;
    e.extendedRcode = static_cast<uint8_t>(rr.ttl >> 24);
    e.version = static_cast<uint8_t>(rr.ttl >> 16);
    e.dnssecOk = (rr.ttl & 0x8000U) != 0;
    e.z = static_cast<uint16_t>(rr.ttl & 0x7fffU);
    e.options = rr.rdata;
    return e;
}

// ----------------------------------------------------------------------------- truncation

std::vector<uint8_t>
AdcDnsMessage::SerializeTruncated(std::size_t maxBytes) const
{
    std::vector<uint8_t> bytes;
    bool fits = false;
    try
    {
        bytes = Serialize();
        fits = bytes.size() <= maxBytes;
    }
    catch (const AdcConfigError& e)
    {
        // Only a whole message above 65535 bytes is cut below; a bad name is an error.
        if (std::string(e.what()).find("exceeds the limit of 65535") == std::string::npos)
        {
            throw;
        }
    }
    if (fits)
    {
        return bytes;
    }
    // Dropping additional, then authority, then answer records from the end keeps a prefix of
    // answers + authority + additional; OPT records stay whatever is dropped. Each record
    // kept adds bytes, so the longest prefix that fits is found by bisection.
    std::vector<const AdcDnsResourceRecord*> sequence;
    std::vector<AdcDnsResourceRecord> opts;
    for (const auto& rr : answers)
    {
        sequence.push_back(&rr);
    }
    for (const auto& rr : authority)
    {
        sequence.push_back(&rr);
    }
    for (const auto& rr : additional)
    {
        if (rr.type == TYPE_OPT)
        {
            opts.push_back(rr);
        }
        else
        {
            sequence.push_back(&rr);
        }
    }
    const std::size_t nAnswers = answers.size();
    const std::size_t nAuthority = authority.size();
    const auto build = [&](std::size_t keep) {
        AdcDnsMessage m = *this;
        m.answers.clear();
        m.authority.clear();
        m.additional.clear();
        for (std::size_t i = 0; i < keep; ++i)
        {
            (i < nAnswers ? m.answers : i < nAnswers + nAuthority ? m.authority : m.additional)
                .push_back(*sequence[i]);
        }
        m.additional.insert(m.additional.end(), opts.begin(), opts.end());
        m.tc = tc || keep < nAnswers + nAuthority;
        return m;
    };
    const auto size = [&](std::size_t keep) -> std::size_t {
        try
        {
            return build(keep).Serialize().size();
        }
        catch (const AdcConfigError&)
        {
            return kMaxMessage + 1; // above 65535 bytes: too large for any limit
        }
    };
    if (size(0) > maxBytes)
    {
        throw AdcConfigError("AdcDnsMessage: header and question take " +
                             std::to_string(size(0)) + " bytes, above the limit of " +
                             std::to_string(maxBytes));
    }
    std::size_t lo = 0; // fits
    std::size_t hi = sequence.size(); // does not fit (the whole message did not)
    while (hi - lo > 1)
    {
        const std::size_t mid = lo + (hi - lo) / 2;
        (size(mid) <= maxBytes ? lo : hi) = mid;
    }
    return build(lo).Serialize();
}

} // namespace ns3
