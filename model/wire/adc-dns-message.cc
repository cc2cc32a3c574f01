/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: DNS messages (RFC 1035 section 4).
 */

#include "adc-dns-message.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>

namespace ns3
{

namespace
{

/// \param c a byte \return it in ASCII lower case
char
Lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// \param labels labels \return their wire length uncompressed (length bytes, root byte)
std::size_t
WireLength(const std::vector<std::string>& labels)
{
    std::size_t n = 1;
    for (const auto& l : labels)
    {
        n += 1 + l.size();
    }
    return n;
}

/// \param out bytes \param v a big-endian uint16 to append
void
PutU16(std::vector<uint8_t>& out, uint16_t v)
{
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
}

/// \param out bytes \param v a big-endian uint32 to append
void
PutU32(std::vector<uint8_t>& out, uint32_t v)
{
    PutU16(out, static_cast<uint16_t>(v >> 16));
    PutU16(out, static_cast<uint16_t>(v));
}

/// \param out bytes \param labels a name to append uncompressed
void
PutLabels(std::vector<uint8_t>& out, const std::vector<std::string>& labels)
{
    for (const auto& l : labels)
    {
        out.push_back(static_cast<uint8_t>(l.size()));
        out.insert(out.end(), l.begin(), l.end());
    }
    out.push_back(0);
}

/// Writes a message, compressing names against the ones already written (RFC 1035 4.1.4).
class Writer
{
  public:
    /// \param name a name's text form (validated) to append, compressed
    void Name(const std::string& name)
    {
        // The name's labels in wire form (length-prefixed): each suffix's bytes are its key, as
        // unambiguous as its labels (a label may hold any byte, even a dot).
        std::string wire;
        std::vector<std::size_t> starts;
        for (const std::string& label : AdcDnsName::ToLabels(name))
        {
            starts.push_back(wire.size());
            wire.push_back(static_cast<char>(label.size()));
            wire += label;
        }
        for (std::size_t i = 0; i < starts.size(); ++i)
        {
            const std::string_view suffix(wire.data() + starts[i], wire.size() - starts[i]);
            const auto it = std::find_if(m_names.begin(), m_names.end(), [&](const auto& n) {
                return n.first == suffix;
            });
            if (it != m_names.end())
            {
                PutU16(m_out, static_cast<uint16_t>(0xC000 | it->second));
                return;
            }
            // Pointers hold 14 bits of offset: later suffixes are written but not offered.
            if (m_out.size() < 0x4000)
            {
                m_names.emplace_back(std::string(suffix), static_cast<uint16_t>(m_out.size()));
            }
            const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : wire.size();
            m_out.insert(m_out.end(), wire.begin() + starts[i], wire.begin() + end);
        }
        m_out.push_back(0);
    }

    /// \param rr a record to append \param section its section's name (for errors)
    void Record(const AdcDnsResourceRecord& rr, const char* section)
    {
        if (rr.rdata.size() > 0xffff)
        {
            throw AdcConfigError("AdcDnsMessage: " + std::string(section) + " record '" + rr.name +
                                 "': RDATA of " + std::to_string(rr.rdata.size()) +
                                 " bytes exceeds the RDLENGTH limit of 65535");
        }
        Name(rr.name);
        PutU16(m_out, rr.type);
        PutU16(m_out, rr.rrclass);
        PutU32(m_out, rr.ttl);
        PutU16(m_out, static_cast<uint16_t>(rr.rdata.size()));
        m_out.insert(m_out.end(), rr.rdata.begin(), rr.rdata.end());
    }

    /// \return the bytes written
    std::vector<uint8_t>& Out()
    {
        return m_out;
    }

  private:
    std::vector<uint8_t> m_out; //!< the bytes
    /// suffixes written (wire form) and their offsets; a message has few names: a linear search
    std::vector<std::pair<std::string, uint16_t>> m_names;
};

/// A parse failure (internal: Parse turns it into its error result).
struct ParseFailure
{
    std::string what; //!< the reason, with the byte offset
};

/// Reads a message's fields; every failure names the byte offset.
class Reader
{
  public:
    /// \param data bytes \param size their number
    Reader(const uint8_t* data, std::size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /// \param at offset \param what the problem
    [[noreturn]] void Fail(std::size_t at, const std::string& what) const
    {
        throw ParseFailure{"AdcDnsMessage: byte " + std::to_string(at) + ": " + what};
    }

    /// \param at offset \param n bytes needed \param field its name
    void Need(std::size_t at, std::size_t n, const std::string& field) const
    {
        if (at > m_size || n > m_size - at)
        {
            Fail(at,
                 "truncated: " + field + " needs " + std::to_string(n) +
                     " bytes but the message ends at byte " + std::to_string(m_size));
        }
    }

    /// \param at offset (advanced) \param field name \return a byte
    uint8_t U8(std::size_t& at, const std::string& field) const
    {
        Need(at, 1, field);
        return m_data[at++];
    }

    /// \param at offset (advanced) \param field name \return a big-endian uint16
    uint16_t U16(std::size_t& at, const std::string& field) const
    {
        Need(at, 2, field);
        const auto v = static_cast<uint16_t>((m_data[at] << 8) | m_data[at + 1]);
        at += 2;
        return v;
    }

    /// \param at offset (advanced) \param field name \return a big-endian uint32
    uint32_t U32(std::size_t& at, const std::string& field) const
    {
        const uint32_t hi = U16(at, field);
        return (hi << 16) | U16(at, field);
    }

    /**
     * \brief A possibly compressed name (RFC 1035 section 4.1.4).
     *
     * Every pointer must point strictly before the start of the part of the name it
     * continues (the name's first byte, or the previous pointer's target): the targets
     * decrease, so no loop can form, and a pointer to or past itself is a forward pointer.
     * \param at offset (advanced past the name's bytes here: up to the first pointer)
     * \param field name for errors
     * \return the labels
     */
    std::vector<std::string> Name(std::size_t& at, const std::string& field) const
    {
        std::vector<std::string> labels;
        std::size_t p = at;
        std::size_t partStart = at;
        std::size_t wire = 1;
        bool jumped = false;
        while (true)
        {
            Need(p, 1, field);
            const uint8_t len = m_data[p];
            if ((len & 0xC0) == 0xC0)
            {
                Need(p, 2, field + " compression pointer");
                const std::size_t target =
                    (static_cast<std::size_t>(len & 0x3F) << 8) | m_data[p + 1];
                if (target >= m_size)
                {
                    Fail(p,
                         field + ": compression pointer to byte " + std::to_string(target) +
                             " is out of range (the message has " + std::to_string(m_size) +
                             " bytes)");
                }
                if (target >= p)
                {
                    Fail(p,
                         field + ": forward compression pointer to byte " + std::to_string(target) +
                             " (a pointer must point to an earlier name)");
                }
                if (target >= partStart)
                {
                    Fail(p,
                         field + ": compression pointer loop: byte " + std::to_string(target) +
                             " is not before byte " + std::to_string(partStart) +
                             " where this part of the name starts");
                }
                if (!jumped)
                {
                    at = p + 2;
                    jumped = true;
                }
                p = target;
                partStart = target;
                continue;
            }
            if (len & 0xC0)
            {
                Fail(p,
                     field + ": label type 0x" + (len & 0x80 ? std::string("80") : "40") +
                         " (length byte " + std::to_string(len) +
                         ") is reserved: labels hold at most 63 bytes (RFC 1035 section 4.1.4)");
            }
            if (len == 0)
            {
                if (!jumped)
                {
                    at = p + 1;
                }
                return labels;
            }
            Need(p, 1 + std::size_t{len}, field + " label");
            wire += 1 + std::size_t{len};
            if (wire > AdcDnsName::kMaxWireName)
            {
                Fail(p, field + ": name exceeds 255 bytes on the wire (RFC 1035 section 2.3.4)");
            }
            labels.emplace_back(reinterpret_cast<const char*>(m_data + p + 1), len);
            p += 1 + std::size_t{len};
        }
    }

    /// \param at offset \param n count \return n bytes (checked)
    std::vector<uint8_t> Bytes(std::size_t at, std::size_t n, const std::string& field) const
    {
        Need(at, n, field);
        return std::vector<uint8_t>(m_data + at, m_data + at + n);
    }

  private:
    const uint8_t* m_data; //!< the bytes
    std::size_t m_size;    //!< their number
};

/**
 * \param type a record type
 * \return the layout of its RDATA when it holds names (0: a name; n > 0: n fixed bytes),
 *         empty when the RDATA is opaque
 */
std::vector<std::size_t>
RdataLayout(uint16_t type)
{
    switch (type)
    {
    case AdcDnsMessage::TYPE_NS:
    case AdcDnsMessage::TYPE_CNAME:
    case AdcDnsMessage::TYPE_PTR:
        return {0};
    case AdcDnsMessage::TYPE_MX:
        return {2, 0};
    case AdcDnsMessage::TYPE_SOA:
        return {0, 0, 20};
    default:
        return {};
    }
}

/// \param type a type \return its mnemonic for errors ("TYPE<n>" when unnamed)
std::string
TypeName(uint16_t type)
{
    switch (type)
    {
    case AdcDnsMessage::TYPE_A:
        return "A";
    case AdcDnsMessage::TYPE_NS:
        return "NS";
    case AdcDnsMessage::TYPE_CNAME:
        return "CNAME";
    case AdcDnsMessage::TYPE_SOA:
        return "SOA";
    case AdcDnsMessage::TYPE_PTR:
        return "PTR";
    case AdcDnsMessage::TYPE_MX:
        return "MX";
    case AdcDnsMessage::TYPE_AAAA:
        return "AAAA";
    default:
        return "TYPE" + std::to_string(type);
    }
}

/// \param r reader \param at offset (advanced) \param field section name \return a record
AdcDnsResourceRecord
ReadRecord(const Reader& r, std::size_t& at, const std::string& field)
{
    AdcDnsResourceRecord rr;
    rr.name = AdcDnsName::FromLabels(r.Name(at, field + " NAME"));
    rr.type = r.U16(at, field + " TYPE");
    rr.rrclass = r.U16(at, field + " CLASS");
    rr.ttl = r.U32(at, field + " TTL");
    const uint16_t rdlength = r.U16(at, field + " RDLENGTH");
    const std::size_t start = at;
    rr.rdata = r.Bytes(start, rdlength, field + " RDATA");
    at += rdlength;
    const bool in = rr.rrclass == AdcDnsMessage::CLASS_IN;
    if (in && (rr.type == AdcDnsMessage::TYPE_A || rr.type == AdcDnsMessage::TYPE_AAAA))
    {
        const std::size_t want = rr.type == AdcDnsMessage::TYPE_A ? 4 : 16;
        if (rdlength != want)
        {
            r.Fail(start,
                   field + " " + TypeName(rr.type) + " RDATA length " + std::to_string(rdlength) +
                       " is not " + std::to_string(want));
        }
        return rr;
    }
    const std::vector<std::size_t> layout = RdataLayout(rr.type);
    if (layout.empty())
    {
        return rr;
    }
    // Names in RDATA may be compressed: store them expanded, valid at any offset.
    std::vector<uint8_t> expanded;
    std::size_t p = start;
    const std::string what = field + " " + TypeName(rr.type) + " RDATA";
    for (std::size_t part : layout)
    {
        if (part == 0)
        {
            PutLabels(expanded, r.Name(p, what + " name"));
        }
        else
        {
            if (p + part > at)
            {
                r.Fail(p,
                       what + ": " + std::to_string(part) + " more bytes needed within RDLENGTH " +
                           std::to_string(rdlength));
            }
            const auto fixed = r.Bytes(p, part, what);
            expanded.insert(expanded.end(), fixed.begin(), fixed.end());
            p += part;
        }
        if (p > at)
        {
            r.Fail(start, what + ": the name runs past RDLENGTH " + std::to_string(rdlength));
        }
    }
    if (p != at)
    {
        r.Fail(p,
               what + ": " + std::to_string(at - p) + " bytes left inside RDLENGTH " +
                   std::to_string(rdlength));
    }
    rr.rdata = std::move(expanded);
    return rr;
}

/// \param name a name \param what the problem (the limit broken)
[[noreturn]] void
NameError(const std::string& name, const std::string& what)
{
    throw AdcConfigError("AdcDnsName: name '" + name + "': " + what);
}

} // namespace

// ---------------------------------------------------------------------------- AdcDnsName

std::vector<std::string>
AdcDnsName::ToLabels(const std::string& name)
{
    std::vector<std::string> labels;
    if (name.empty() || name == ".")
    {
        return labels;
    }
    std::string label;
    bool open = false; // a label has begun (possibly empty so far)
    for (std::size_t i = 0; i < name.size(); ++i)
    {
        const char c = name[i];
        if (c == '.')
        {
            if (label.empty())
            {
                NameError(name, "empty label at character " + std::to_string(i));
            }
            labels.push_back(label);
            label.clear();
            open = false;
            continue;
        }
        open = true;
        if (c != '\\')
        {
            label.push_back(c);
            continue;
        }
        if (i + 1 >= name.size())
        {
            NameError(name, "escape '\\' at the end");
        }
        const char d = name[i + 1];
        if (d >= '0' && d <= '9')
        {
            if (i + 3 >= name.size() || !(name[i + 2] >= '0' && name[i + 2] <= '9') ||
                !(name[i + 3] >= '0' && name[i + 3] <= '9'))
            {
                NameError(name, "escape at character " + std::to_string(i) + " is not \\DDD");
            }
            const int v = (d - '0') * 100 + (name[i + 2] - '0') * 10 + (name[i + 3] - '0');
            if (v > 255)
            {
                NameError(name,
                          "escape \\" + name.substr(i + 1, 3) + " at character " +
                              std::to_string(i) + " is above 255");
            }
            label.push_back(static_cast<char>(v));
            i += 3;
        }
        else
        {
            label.push_back(d);
            i += 1;
        }
    }
    if (open)
    {
        labels.push_back(label);
    }
    for (const auto& l : labels)
    {
        if (l.size() > kMaxLabel)
        {
            NameError(name,
                      "label of " + std::to_string(l.size()) +
                          " bytes exceeds the limit of 63 (RFC 1035 section 2.3.4)");
        }
    }
    const std::size_t wire = WireLength(labels);
    if (wire > kMaxWireName)
    {
        NameError(name,
                  std::to_string(wire) +
                      " bytes on the wire exceeds the limit of 255 (RFC 1035 section 2.3.4)");
    }
    return labels;
}

std::string
AdcDnsName::FromLabels(const std::vector<std::string>& labels)
{
    if (labels.empty())
    {
        return ".";
    }
    std::string out;
    for (std::size_t k = 0; k < labels.size(); ++k)
    {
        if (k > 0)
        {
            out.push_back('.');
        }
        for (const char ch : labels[k])
        {
            const auto u = static_cast<unsigned char>(ch);
            if (ch == '.' || ch == '\\')
            {
                out.push_back('\\');
                out.push_back(ch);
            }
            else if (u < 0x21 || u > 0x7e)
            {
                char buf[5];
                std::snprintf(buf, sizeof(buf), "\\%03u", static_cast<unsigned>(u));
                out += buf;
            }
            else
            {
                out.push_back(ch);
            }
        }
    }
    return out;
}

std::string
AdcDnsName::Canonical(const std::string& name)
{
    return FromLabels(ToLabels(name));
}

bool
AdcDnsName::Equal(const std::string& a, const std::string& b)
{
    std::vector<std::string> la;
    std::vector<std::string> lb;
    try
    {
        la = ToLabels(a);
        lb = ToLabels(b);
    }
    catch (const AdcConfigError&)
    {
        return false;
    }
    if (la.size() != lb.size())
    {
        return false;
    }
    for (std::size_t k = 0; k < la.size(); ++k)
    {
        if (la[k].size() != lb[k].size())
        {
            return false;
        }
        for (std::size_t i = 0; i < la[k].size(); ++i)
        {
            if (Lower(la[k][i]) != Lower(lb[k][i]))
            {
                return false;
            }
        }
    }
    return true;
}

std::vector<uint8_t>
AdcDnsName::ToWire(const std::string& name)
{
    std::vector<uint8_t> out;
    PutLabels(out, ToLabels(name));
    return out;
}

// ------------------------------------------------------------------ question and records

bool
AdcDnsQuestion::operator==(const AdcDnsQuestion& other) const
{
    return name == other.name && qtype == other.qtype && qclass == other.qclass;
}

AdcDnsResourceRecord
AdcDnsResourceRecord::A(const std::string& name, Ipv4Address address, uint32_t ttl)
{
    AdcDnsResourceRecord rr;
    rr.name = AdcDnsName::Canonical(name);
    rr.type = AdcDnsMessage::TYPE_A;
    rr.rrclass = AdcDnsMessage::CLASS_IN;
    rr.ttl = ttl;
    rr.rdata.resize(4);
    address.Serialize(rr.rdata.data());
    return rr;
}

AdcDnsResourceRecord
AdcDnsResourceRecord::Aaaa(const std::string& name, Ipv6Address address, uint32_t ttl)
{
    AdcDnsResourceRecord rr;
    rr.name = AdcDnsName::Canonical(name);
    rr.type = AdcDnsMessage::TYPE_AAAA;
    rr.rrclass = AdcDnsMessage::CLASS_IN;
    rr.ttl = ttl;
    rr.rdata.resize(16);
    address.Serialize(rr.rdata.data());
    return rr;
}

AdcDnsResourceRecord
AdcDnsResourceRecord::NameRecord(const std::string& name,
                                 uint16_t type,
                                 const std::string& target,
                                 uint32_t ttl)
{
    if (type != AdcDnsMessage::TYPE_NS && type != AdcDnsMessage::TYPE_CNAME &&
        type != AdcDnsMessage::TYPE_PTR)
    {
        throw AdcConfigError("AdcDnsResourceRecord: type " + std::to_string(type) +
                             " is not one of 2 (NS), 5 (CNAME), 12 (PTR)");
    }
    AdcDnsResourceRecord rr;
    rr.name = AdcDnsName::Canonical(name);
    rr.type = type;
    rr.rrclass = AdcDnsMessage::CLASS_IN;
    rr.ttl = ttl;
    rr.rdata = AdcDnsName::ToWire(target);
    return rr;
}

std::optional<Ipv4Address>
AdcDnsResourceRecord::GetA() const
{
    if (type != AdcDnsMessage::TYPE_A || rrclass != AdcDnsMessage::CLASS_IN || rdata.size() != 4)
    {
        return std::nullopt;
    }
    return Ipv4Address::Deserialize(rdata.data());
}

std::optional<Ipv6Address>
AdcDnsResourceRecord::GetAaaa() const
{
    if (type != AdcDnsMessage::TYPE_AAAA || rrclass != AdcDnsMessage::CLASS_IN ||
        rdata.size() != 16)
    {
        return std::nullopt;
    }
    return Ipv6Address::Deserialize(rdata.data());
}

std::optional<std::string>
AdcDnsResourceRecord::GetTargetName() const
{
    if (type != AdcDnsMessage::TYPE_NS && type != AdcDnsMessage::TYPE_CNAME &&
        type != AdcDnsMessage::TYPE_PTR)
    {
        return std::nullopt;
    }
    std::vector<std::string> labels;
    std::size_t p = 0;
    while (p < rdata.size())
    {
        const uint8_t len = rdata[p];
        if (len == 0)
        {
            if (p + 1 != rdata.size())
            {
                return std::nullopt;
            }
            return AdcDnsName::FromLabels(labels);
        }
        if (len > AdcDnsName::kMaxLabel || p + 1 + len > rdata.size())
        {
            return std::nullopt;
        }
        labels.emplace_back(reinterpret_cast<const char*>(rdata.data() + p + 1), len);
        p += 1 + std::size_t{len};
    }
    return std::nullopt;
}

bool
AdcDnsResourceRecord::operator==(const AdcDnsResourceRecord& other) const
{
    return name == other.name && type == other.type && rrclass == other.rrclass &&
           ttl == other.ttl && rdata == other.rdata;
}

// ------------------------------------------------------------------------- AdcDnsMessage

AdcDnsMessage
AdcDnsMessage::MakeQuery(uint16_t id, const std::string& name, uint16_t qtype, bool rd)
{
    AdcDnsMessage m;
    m.id = id;
    m.rd = rd;
    m.questions.push_back(AdcDnsQuestion{AdcDnsName::Canonical(name), qtype, CLASS_IN});
    return m;
}

AdcDnsMessage
AdcDnsMessage::MakeResponse(const AdcDnsMessage& query, uint8_t rcode, bool aa)
{
    AdcDnsMessage m;
    m.id = query.id;
    m.qr = true;
    m.opcode = query.opcode;
    m.aa = aa;
    m.rd = query.rd;
    m.rcode = rcode;
    m.questions = query.questions;
    return m;
}

std::vector<uint8_t>
AdcDnsMessage::Serialize() const
{
    const auto range = [](const char* field, unsigned v, unsigned max) {
        if (v > max)
        {
            throw AdcConfigError("AdcDnsMessage: " + std::string(field) + " " + std::to_string(v) +
                                 " is not in 0.." + std::to_string(max));
        }
    };
    range("Opcode", opcode, 15);
    range("RCODE", rcode, 15);
    range("Z", z, 7);
    range("QDCOUNT", static_cast<unsigned>(questions.size()), 0xffff);
    range("ANCOUNT", static_cast<unsigned>(answers.size()), 0xffff);
    range("NSCOUNT", static_cast<unsigned>(authority.size()), 0xffff);
    range("ARCOUNT", static_cast<unsigned>(additional.size()), 0xffff);

    Writer w;
    auto& out = w.Out();
    PutU16(out, id);
    const auto flags = static_cast<uint16_t>(
        (qr ? 0x8000 : 0) | (opcode << 11) | (aa ? 0x0400 : 0) | (tc ? 0x0200 : 0) |
        (rd ? 0x0100 : 0) | (ra ? 0x0080 : 0) | (z << 4) | rcode);
    PutU16(out, flags);
    PutU16(out, static_cast<uint16_t>(questions.size()));
    PutU16(out, static_cast<uint16_t>(answers.size()));
    PutU16(out, static_cast<uint16_t>(authority.size()));
    PutU16(out, static_cast<uint16_t>(additional.size()));
    for (const auto& q : questions)
    {
        w.Name(q.name);
        PutU16(out, q.qtype);
        PutU16(out, q.qclass);
    }
    for (const auto& rr : answers)
    {
        w.Record(rr, "answer");
    }
    for (const auto& rr : authority)
    {
        w.Record(rr, "authority");
    }
    for (const auto& rr : additional)
    {
        w.Record(rr, "additional");
    }
    if (out.size() > kMaxMessage)
    {
        throw AdcConfigError("AdcDnsMessage: message of " + std::to_string(out.size()) +
                             " bytes exceeds the limit of 65535 (RFC 1035 section 4.2.2)");
    }
    return std::move(out);
}

std::vector<uint8_t>
AdcDnsMessage::SerializeTruncated(std::size_t maxBytes) const
{
    std::vector<uint8_t> bytes = Serialize();
    if (bytes.size() <= maxBytes)
    {
        return bytes;
    }
    AdcDnsMessage m = *this;
    while (bytes.size() > maxBytes)
    {
        if (!m.additional.empty())
        {
            m.additional.pop_back();
        }
        else if (!m.authority.empty())
        {
            m.authority.pop_back();
            m.tc = true;
        }
        else if (!m.answers.empty())
        {
            m.answers.pop_back();
            m.tc = true;
        }
        else
        {
            throw AdcConfigError("AdcDnsMessage: header and question take " +
                                 std::to_string(bytes.size()) + " bytes, above the limit of " +
                                 std::to_string(maxBytes));
        }
        bytes = m.Serialize();
    }
    return bytes;
}

std::optional<AdcDnsMessage>
AdcDnsMessage::Parse(const uint8_t* data, std::size_t size, std::string* error)
{
    const Reader r(data, size);
    try
    {
        if (size < kHeaderBytes)
        {
            r.Fail(0,
                   "truncated: a message of " + std::to_string(size) +
                       " bytes is shorter than the 12-byte header");
        }
        AdcDnsMessage m;
        std::size_t at = 0;
        m.id = r.U16(at, "ID");
        const uint16_t flags = r.U16(at, "flags");
        m.qr = flags & 0x8000;
        m.opcode = static_cast<uint8_t>((flags >> 11) & 0x0f);
        m.aa = flags & 0x0400;
        m.tc = flags & 0x0200;
        m.rd = flags & 0x0100;
        m.ra = flags & 0x0080;
        m.z = static_cast<uint8_t>((flags >> 4) & 0x07);
        m.rcode = static_cast<uint8_t>(flags & 0x0f);
        const uint16_t qd = r.U16(at, "QDCOUNT");
        const uint16_t an = r.U16(at, "ANCOUNT");
        const uint16_t ns = r.U16(at, "NSCOUNT");
        const uint16_t ar = r.U16(at, "ARCOUNT");
        for (uint16_t i = 0; i < qd; ++i)
        {
            const std::string field = "question " + std::to_string(i);
            AdcDnsQuestion q;
            q.name = AdcDnsName::FromLabels(r.Name(at, field + " QNAME"));
            q.qtype = r.U16(at, field + " QTYPE");
            q.qclass = r.U16(at, field + " QCLASS");
            m.questions.push_back(std::move(q));
        }
        for (uint16_t i = 0; i < an; ++i)
        {
            m.answers.push_back(ReadRecord(r, at, "answer " + std::to_string(i)));
        }
        for (uint16_t i = 0; i < ns; ++i)
        {
            m.authority.push_back(ReadRecord(r, at, "authority " + std::to_string(i)));
        }
        for (uint16_t i = 0; i < ar; ++i)
        {
            m.additional.push_back(ReadRecord(r, at, "additional " + std::to_string(i)));
        }
        if (at != size)
        {
            r.Fail(at, std::to_string(size - at) + " trailing bytes after the last record");
        }
        return m;
    }
    catch (const ParseFailure& f)
    {
        if (error)
        {
            *error = f.what;
        }
        return std::nullopt;
    }
}

std::optional<AdcDnsMessage>
AdcDnsMessage::Parse(const std::vector<uint8_t>& bytes, std::string* error)
{
    return Parse(bytes.data(), bytes.size(), error);
}

std::string
AdcDnsMessage::RcodeName(uint8_t rcode)
{
    static const char* const names[] =
        {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"};
    return rcode <= REFUSED ? names[rcode] : "RCODE" + std::to_string(rcode);
}

bool
AdcDnsMessage::operator==(const AdcDnsMessage& other) const
{
    return id == other.id && qr == other.qr && opcode == other.opcode && aa == other.aa &&
           tc == other.tc && rd == other.rd && ra == other.ra && z == other.z &&
           rcode == other.rcode && questions == other.questions && answers == other.answers &&
           authority == other.authority && additional == other.additional;
}

bool
AdcDnsMessage::operator!=(const AdcDnsMessage& other) const
{
    return !(*this == other);
}

// ------------------------------------------------------------------------------ TCP

std::vector<uint8_t>
AdcDnsTcpFrame(const std::vector<uint8_t>& message)
{
    if (message.size() > AdcDnsMessage::kMaxMessage)
    {
        throw AdcConfigError("AdcDnsTcpFrame: message of " + std::to_string(message.size()) +
                             " bytes exceeds the 2-byte length limit of 65535");
    }
    std::vector<uint8_t> out;
    out.reserve(message.size() + 2);
    PutU16(out, static_cast<uint16_t>(message.size()));
    out.insert(out.end(), message.begin(), message.end());
    return out;
}

std::vector<std::vector<uint8_t>>
AdcDnsTcpFramer::Feed(const uint8_t* data, std::size_t size)
{
    std::vector<std::vector<uint8_t>> messages;
    if (!m_error.empty())
    {
        return messages;
    }
    m_buffer.insert(m_buffer.end(), data, data + size);
    std::size_t p = 0;
    while (m_buffer.size() - p >= 2)
    {
        const std::size_t len = (std::size_t{m_buffer[p]} << 8) | m_buffer[p + 1];
        if (len < AdcDnsMessage::kHeaderBytes)
        {
            m_error = "AdcDnsTcpFramer: frame at stream byte " + std::to_string(m_offset + p) +
                      ": length " + std::to_string(len) + " is below the 12-byte header";
            m_buffer.clear();
            return messages;
        }
        if (m_buffer.size() - p < 2 + len)
        {
            break;
        }
        messages.emplace_back(m_buffer.begin() + static_cast<std::ptrdiff_t>(p + 2),
                              m_buffer.begin() + static_cast<std::ptrdiff_t>(p + 2 + len));
        p += 2 + len;
    }
    m_buffer.erase(m_buffer.begin(), m_buffer.begin() + static_cast<std::ptrdiff_t>(p));
    m_offset += p;
    return messages;
}

std::vector<std::vector<uint8_t>>
AdcDnsTcpFramer::Feed(const std::vector<uint8_t>& bytes)
{
    return Feed(bytes.data(), bytes.size());
}

bool
AdcDnsTcpFramer::HasPartial() const
{
    return !m_buffer.empty();
}

bool
AdcDnsTcpFramer::HasError() const
{
    return !m_error.empty();
}

const std::string&
AdcDnsTcpFramer::GetError() const
{
    return m_error;
}

} // namespace ns3
