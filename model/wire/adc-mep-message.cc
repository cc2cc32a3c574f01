/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB wire format: NetScaler's metric exchange protocol (MEP).
 */

#include "adc-mep-message.h"

#include "adc-wire-bytes.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"

#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

const char* const kOwner = "AdcMepMessage: ";

/// \param out bytes \param a an address appended in network order
void
PutIpv4(std::vector<uint8_t>& out, Ipv4Address a)
{
    uint8_t b[4];
    a.Serialize(b);
    out.insert(out.end(), b, b + 4);
}

/// \param out bytes \param a an LDNS address appended as a little-endian u32 (the dissector
/// reads `nstrace.mep.ldns.ip` with ENC_LITTLE_ENDIAN: 10.100.0.2 is 02 00 64 0a)
void
PutLdnsIpv4(std::vector<uint8_t>& out, Ipv4Address a)
{
    const uint32_t v = a.Get(); // host value: 10.100.0.2 is 0x0a640002
    out.push_back(static_cast<uint8_t>(v & 0xFF));
    out.push_back(static_cast<uint8_t>((v >> 8) & 0xFF));
    out.push_back(static_cast<uint8_t>((v >> 16) & 0xFF));
    out.push_back(static_cast<uint8_t>(v >> 24));
}

/// \param p 4 bytes written by PutLdnsIpv4 \return the LDNS address
Ipv4Address
GetLdnsIpv4(const uint8_t* p)
{
    return Ipv4Address(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                       uint32_t{p[3]} << 24);
}

/// \param offset byte offset \param what the message \return "AdcMepMessage: byte N: what"
std::string
At(std::size_t offset, const std::string& what)
{
    std::ostringstream os;
    os << kOwner << "byte " << offset << ": " << what;
    return os.str();
}

/**
 * \param length a length field
 * \return the error it is on its own ("" when a PDU may have it): below the header, or the
 *         RPC signature
 */
std::string
LengthError(uint16_t length)
{
    std::ostringstream os;
    if (length < AdcMepMessage::kHeaderBytes)
    {
        os << "length " << length << ": expected at least " << AdcMepMessage::kHeaderBytes
           << " (the header)";
        return At(4, os.str());
    }
    if (length == AdcMepMessage::kRpcSignature)
    {
        return At(4,
                  "length 42405 (0xA5A5) is the NetScaler RPC signature: expected a MEP "
                  "length other than 0xA5A5");
    }
    return "";
}

/// \param b a byte \return "0x.." text
std::string
Hex(unsigned b)
{
    std::ostringstream os;
    os << "0x" << std::hex << b;
    return os.str();
}

} // namespace

bool
AdcMepNetworkMetric::operator==(const AdcMepNetworkMetric& o) const
{
    return ldns == o.ldns && rttMs == o.rttMs && hops == o.hops;
}

uint16_t
AdcMepSiteMetric::ServiceTypeCode(const std::string& serviceType)
{
    static const std::vector<std::pair<std::string, uint16_t>> codes = {
        {"HTTP", 0x00},
        {"TCP", 0x02},
        {"UDP", 0x03},
        {"SSL_BRIDGE", 0x04},
        {"ANY", 0x0d},
        {"SSL", 0x0e},
        {"SSL_TCP", 0x14},
        {"SIP_UDP", 0x24},
        {"RTSP", 0x28},
    };
    std::vector<std::string> names;
    for (const auto& [name, code] : codes)
    {
        if (AdcText::EqualsNoCase(name, serviceType))
        {
            return code;
        }
        names.push_back(name);
    }
    throw AdcConfigError(std::string(kOwner) + "service type '" + serviceType +
                         "' has no NSSVC code; allowed " + AdcConfigError::JoinAllowed(names));
}

bool
AdcMepSiteMetric::operator==(const AdcMepSiteMetric& o) const
{
    return command == o.command && state == o.state && ip == o.ip && port == o.port &&
           serviceType == o.serviceType && effectiveState == o.effectiveState &&
           mepFlags == o.mepFlags;
}

AdcMepMessage
AdcMepMessage::KeepAlive()
{
    AdcMepMessage m;
    m.type = KEEP_ALIVE;
    return m;
}

AdcMepMessage
AdcMepMessage::NetworkMetricUpdate(const std::vector<AdcMepNetworkMetric>& records)
{
    AdcMepMessage m;
    m.type = NETWORK_METRIC_UPDATE;
    m.networkMetrics = records;
    return m;
}

AdcMepMessage
AdcMepMessage::SiteMetricUpdate(const std::vector<AdcMepSiteMetric>& records)
{
    AdcMepMessage m;
    m.type = SITE_METRIC_UPDATE;
    m.siteMetrics = records;
    return m;
}

bool
AdcMepMessage::IsKnownVersion(uint8_t major, uint8_t minor)
{
    return (major == 1 && minor == 0) || (major == 2 && minor >= 1 && minor <= 6);
}

std::string
AdcMepMessage::TypeName(uint16_t type)
{
    static const char* const names[] = {"NONE",
                                        "SITE METRIC UPDATE",
                                        "SITE METRIC FORCE REQ",
                                        "SITE ADV IP ADDR",
                                        "SITE ADV IP ACK",
                                        "SITE ADV IP NACK",
                                        "SITE METRIC FORCE UPDATE",
                                        "NETWORK METRIC UPDATE",
                                        "PERSIST RECORD",
                                        "KEEP ALIVE",
                                        "CNAME PERSIST RECORD",
                                        "DOMAIN INFO",
                                        "SITE INFO",
                                        "FLUSH SVC",
                                        "FLUSH DOMAIN",
                                        "GET SVC",
                                        "GET SVC RESP"};
    return type <= kMaxType ? names[type] : "";
}

std::size_t
AdcMepMessage::GetSerializedSize() const
{
    switch (type)
    {
    case NETWORK_METRIC_UPDATE:
        return kHeaderBytes + kNetworkMetricBytes * networkMetrics.size();
    case SITE_METRIC_UPDATE:
        return kHeaderBytes + kSiteMetricBytes * siteMetrics.size();
    default:
        return kHeaderBytes + body.size();
    }
}

std::vector<uint8_t>
AdcMepMessage::Serialize() const
{
    std::ostringstream os;
    if (!IsKnownVersion(major, minor))
    {
        os << kOwner << "version " << unsigned(major) << "." << unsigned(minor)
           << " is not one the dissector decodes: allowed 1.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6";
        throw AdcConfigError(os.str());
    }
    if (type > kMaxType)
    {
        os << kOwner << "message type " << type << " is not known: allowed 0..16";
        throw AdcConfigError(os.str());
    }
    if (type != NETWORK_METRIC_UPDATE && !networkMetrics.empty())
    {
        os << kOwner << "networkMetrics holds " << networkMetrics.size()
           << " records in a message of type " << type
           << ": allowed only in NETWORK METRIC UPDATE (7)";
        throw AdcConfigError(os.str());
    }
    if (type != SITE_METRIC_UPDATE && !siteMetrics.empty())
    {
        os << kOwner << "siteMetrics holds " << siteMetrics.size()
           << " records in a message of type " << type
           << ": allowed only in SITE METRIC UPDATE (1)";
        throw AdcConfigError(os.str());
    }
    if ((type == NETWORK_METRIC_UPDATE || type == SITE_METRIC_UPDATE || type == KEEP_ALIVE) &&
        !body.empty())
    {
        os << kOwner << "body holds " << body.size() << " bytes in a message of type " << type
           << ": allowed only in types other than 1, 7 and 9 (those have no opaque body)";
        throw AdcConfigError(os.str());
    }
    const std::size_t length = GetSerializedSize();
    if (length > kMaxBytes || length == kRpcSignature)
    {
        os << kOwner << "message length " << length
           << " is not allowed: at most 65535 (u16) and not 42405 (0xA5A5, the RPC signature)";
        throw AdcConfigError(os.str());
    }
    const bool extended = major > 2 || (major == 2 && minor > 2);
    std::vector<uint8_t> out;
    out.reserve(length);
    out.push_back(major);
    out.push_back(minor);
    AdcPutLe16(out, type);
    AdcPutLe16(out, static_cast<uint16_t>(length));
    AdcPutLe16(out, status);
    for (const auto& r : networkMetrics)
    {
        PutLdnsIpv4(out, r.ldns);
        AdcPutLe16(out, r.rttMs);
        out.push_back(r.hops);
        out.push_back(0);
    }
    for (const auto& r : siteMetrics)
    {
        if (!extended && (r.effectiveState != 0 || r.mepFlags != 0))
        {
            os << kOwner << "siteMetrics effectiveState " << unsigned(r.effectiveState)
               << " / mepFlags " << unsigned(r.mepFlags) << " in version " << unsigned(major) << "."
               << unsigned(minor) << ": allowed only 0 up to version 2.2 (pad bytes)";
            throw AdcConfigError(os.str());
        }
        AdcPutLe16(out, r.command);
        AdcPutLe16(out, r.state);
        PutIpv4(out, r.ip);
        out.push_back(static_cast<uint8_t>(r.port >> 8)); // big endian, as the dissector reads
        out.push_back(static_cast<uint8_t>(r.port & 0xFF));
        AdcPutLe16(out, r.serviceType);
        out.push_back(r.effectiveState);
        out.push_back(r.mepFlags);
        out.push_back(0);
        out.push_back(0);
    }
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

std::optional<AdcMepMessage>
AdcMepMessage::Parse(const uint8_t* data, std::size_t size, std::string* error)
{
    auto fail = [error](const std::string& what) -> std::optional<AdcMepMessage> {
        if (error != nullptr)
        {
            *error = what;
        }
        return std::nullopt;
    };
    std::ostringstream os;
    if (size < kHeaderBytes)
    {
        os << "data ends inside the header: expected " << kHeaderBytes << " bytes, got " << size;
        return fail(At(size, os.str()));
    }
    AdcMepMessage m;
    m.major = data[0];
    m.minor = data[1];
    m.type = AdcGetLe16(data + 2);
    const uint16_t length = AdcGetLe16(data + 4);
    m.status = AdcGetLe16(data + 6);
    if (!IsKnownVersion(m.major, m.minor))
    {
        os << "version " << unsigned(m.major) << "." << unsigned(m.minor)
           << ": expected one the dissector decodes (1.0, 2.1 .. 2.6)";
        return fail(At(0, os.str()));
    }
    if (m.type > kMaxType)
    {
        os << "message type " << m.type << ": expected 0..16";
        return fail(At(2, os.str()));
    }
    const std::string lengthError = LengthError(length);
    if (!lengthError.empty())
    {
        return fail(lengthError);
    }
    if (length != size)
    {
        os << "length " << length << ": expected the PDU's size " << size;
        return fail(At(4, os.str()));
    }
    const bool extended = m.major > 2 || (m.major == 2 && m.minor > 2);
    std::size_t at = kHeaderBytes;
    const std::size_t bodyBytes = size - kHeaderBytes;
    auto needZero = [&](std::size_t offset) {
        return data[offset] == 0 ? std::string()
                                 : At(offset, "pad byte " + Hex(data[offset]) + ": expected 0");
    };
    switch (m.type)
    {
    case NETWORK_METRIC_UPDATE:
        if (bodyBytes % kNetworkMetricBytes != 0)
        {
            os << bodyBytes << " body bytes: expected whole " << kNetworkMetricBytes
               << "-byte network metric records (the last one is cut after "
               << bodyBytes % kNetworkMetricBytes << " bytes)";
            return fail(At(size - bodyBytes % kNetworkMetricBytes, os.str()));
        }
        for (; at < size; at += kNetworkMetricBytes)
        {
            const std::string pad = needZero(at + 7);
            if (!pad.empty())
            {
                return fail(pad);
            }
            AdcMepNetworkMetric r;
            r.ldns = GetLdnsIpv4(data + at);
            r.rttMs = AdcGetLe16(data + at + 4);
            r.hops = data[at + 6];
            m.networkMetrics.push_back(r);
        }
        break;
    case SITE_METRIC_UPDATE:
        if (bodyBytes % kSiteMetricBytes != 0)
        {
            os << bodyBytes << " body bytes: expected whole " << kSiteMetricBytes
               << "-byte site metric records (the last one is cut after "
               << bodyBytes % kSiteMetricBytes << " bytes)";
            return fail(At(size - bodyBytes % kSiteMetricBytes, os.str()));
        }
        for (; at < size; at += kSiteMetricBytes)
        {
            for (std::size_t k = extended ? 14 : 12; k < kSiteMetricBytes; ++k)
            {
                const std::string pad = needZero(at + k);
                if (!pad.empty())
                {
                    return fail(pad);
                }
            }
            AdcMepSiteMetric r;
            r.command = AdcGetLe16(data + at);
            r.state = AdcGetLe16(data + at + 2);
            r.ip = Ipv4Address::Deserialize(data + at + 4);
            r.port = static_cast<uint16_t>((data[at + 8] << 8) | data[at + 9]);
            r.serviceType = AdcGetLe16(data + at + 10);
            r.effectiveState = data[at + 12];
            r.mepFlags = data[at + 13];
            m.siteMetrics.push_back(r);
        }
        break;
    case KEEP_ALIVE:
        if (bodyBytes != 0)
        {
            os << "keep-alive carries " << bodyBytes << " body bytes: expected none";
            return fail(At(kHeaderBytes, os.str()));
        }
        break;
    default:
        m.body.assign(data + kHeaderBytes, data + size);
        break;
    }
    return m;
}

std::optional<AdcMepMessage>
AdcMepMessage::Parse(const std::vector<uint8_t>& bytes, std::string* error)
{
    return Parse(bytes.data(), bytes.size(), error);
}

bool
AdcMepMessage::operator==(const AdcMepMessage& o) const
{
    return major == o.major && minor == o.minor && type == o.type && status == o.status &&
           networkMetrics == o.networkMetrics && siteMetrics == o.siteMetrics && body == o.body;
}

std::vector<AdcMepMessage>
AdcMepFramer::Feed(const uint8_t* data, std::size_t size)
{
    std::vector<AdcMepMessage> out;
    if (!m_error.empty())
    {
        return out;
    }
    if (size > 0)
    {
        m_buffer.insert(m_buffer.end(), data, data + size);
    }
    std::size_t at = 0;
    auto streamError = [this, &at](const std::string& what) {
        std::ostringstream os;
        os << "AdcMepFramer: message at stream byte " << (m_consumed + at) << ": " << what;
        m_error = os.str();
    };
    while (m_buffer.size() - at >= 6) // the dissector's fixed part: enough for the length
    {
        const uint16_t length = AdcGetLe16(m_buffer.data() + at + 4);
        const std::string lengthError = LengthError(length);
        if (!lengthError.empty())
        {
            streamError(lengthError);
            break;
        }
        if (m_buffer.size() - at < length)
        {
            break;
        }
        std::string error;
        auto m = AdcMepMessage::Parse(m_buffer.data() + at, length, &error);
        if (!m)
        {
            streamError(error);
            break;
        }
        out.push_back(std::move(*m));
        at += length;
    }
    m_buffer.erase(m_buffer.begin(), m_buffer.begin() + at);
    m_consumed += at;
    if (!m_error.empty())
    {
        m_buffer.clear();
    }
    return out;
}

bool
AdcMepFramer::HasError() const
{
    return !m_error.empty();
}

const std::string&
AdcMepFramer::GetError() const
{
    return m_error;
}

uint64_t
AdcMepFramer::GetMessageBytes() const
{
    return m_consumed;
}

std::size_t
AdcMepFramer::GetBufferedBytes() const
{
    return m_buffer.size();
}

} // namespace ns3
