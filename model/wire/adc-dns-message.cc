/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: DNS messages (RFC 1035 section 4).
 */

#include "adc-dns-message.h"

#include "adc-wire-bytes.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <array>
#include <boost/container/small_vector.hpp>
#include <cstdio>
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

/**
 * \brief Whether a name's text form is plain: labels of printable ASCII other than '\\'
 * (0x21..0x7e), none empty, within the limits (63 bytes a label, 255 on the wire), an optional
 * final dot. A plain name is its own canonical form (less the final dot) and its labels are
 * the text between the dots: the common case, read without ToLabels' allocations.
 * \param name the text form
 * \return true when plain (false for the root and for anything ToLabels must look at)
 */
bool
IsPlain(const std::string& name)
{
    const std::size_t n = name.size() - (!name.empty() && name.back() == '.' ? 1 : 0);
    if (n == 0)
    {
        return false;
    }
    // Per byte: 1 for a plain label byte, 2 for the dot, 0 for anything else.
    static const std::array<uint8_t, 256> kind = [] {
        std::array<uint8_t, 256> k{};
        for (int c = 0x21; c <= 0x7e; ++c)
        {
            k[c] = c == '.' ? 2 : (c == '\\' ? 0 : 1);
        }
        return k;
    }();
    std::size_t label = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const uint8_t k = kind[static_cast<unsigned char>(name[i])];
        if (k == 1)
        {
            if (++label > AdcDnsName::kMaxLabel)
            {
                return false;
            }
        }
        else if (k == 2 && label > 0)
        {
            label = 0;
        }
        else
        {
            return false; // not plain, or an empty label
        }
    }
    // Wire length: one length byte per label plus the root byte = the text's length (dots
    // become length bytes) + 2 (the first label's length byte and the root).
    return label > 0 && n + 2 <= AdcDnsName::kMaxWireName;
}

/// Writes a message, compressing names against the ones already written (RFC 1035 4.1.4).
class Writer
{
  public:
    /// \param name a name's text form (validated) to append, compressed
    void Name(const std::string& name)
    {
        // The same name as the last one (an answer's owner is the question's name): a
        // pointer to it, found without taking the name apart again.
        if (m_last && *m_last == name && m_lastOffset < 0x4000)
        {
            AdcPutU16(m_out, static_cast<uint16_t>(0xC000 | m_lastOffset));
            return;
        }
        m_last = &name;
        m_lastOffset = m_out.size();
        // The name's labels in wire form (length-prefixed): each suffix's bytes are its key, as
        // unambiguous as its labels (a label may hold any byte, even a dot).
        std::array<char, AdcDnsName::kMaxWireName> wire;
        std::size_t size = 0;
        // Where each label starts in wire: at most 127 labels fit in 255 bytes.
        std::array<uint8_t, AdcDnsName::kMaxWireName / 2 + 1> starts{};
        std::size_t labels = 0;
        auto label = [&](const char* text, std::size_t length) {
            starts[labels++] = static_cast<uint8_t>(size);
            wire[size++] = static_cast<char>(length);
            std::copy_n(text, length, wire.data() + size);
            size += length;
        };
        if (IsPlain(name))
        {
            const std::size_t n = name.back() == '.' ? name.size() - 1 : name.size();
            std::size_t from = 0;
            while (from < n)
            {
                const std::size_t dot = std::min(name.find('.', from), n);
                label(name.data() + from, dot - from);
                from = dot + 1;
            }
        }
        else
        {
            for (const std::string& l : AdcDnsName::ToLabels(name))
            {
                label(l.data(), l.size());
            }
        }
        for (std::size_t i = 0; i < labels; ++i)
        {
            const std::string_view suffix(wire.data() + starts[i], size - starts[i]);
            for (const Suffix& known : m_names)
            {
                if (known.length == suffix.size() &&
                    std::string_view(m_keys.data() + known.key, known.length) == suffix)
                {
                    if (i == 0)
                    {
                        m_lastOffset = known.offset; // the whole name is there
                    }
                    AdcPutU16(m_out, static_cast<uint16_t>(0xC000 | known.offset));
                    return;
                }
            }
            // Pointers hold 14 bits of offset: later suffixes are written but not offered.
            if (m_out.size() < 0x4000)
            {
                m_names.push_back(Suffix{static_cast<uint32_t>(m_keys.size()),
                                         static_cast<uint16_t>(suffix.size()),
                                         static_cast<uint16_t>(m_out.size())});
                m_keys.insert(m_keys.end(), suffix.begin(), suffix.end());
            }
            const std::size_t end = i + 1 < labels ? starts[i + 1] : size;
            m_out.insert(m_out.end(), wire.data() + starts[i], wire.data() + end);
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
        Fields({rr.type,
                rr.rrclass,
                static_cast<uint16_t>(rr.ttl >> 16),
                static_cast<uint16_t>(rr.ttl),
                static_cast<uint16_t>(rr.rdata.size())});
        m_out.insert(m_out.end(), rr.rdata.begin(), rr.rdata.end());
    }

    /// \param fields 16-bit fields appended big-endian, in one go
    template <std::size_t N>
    void Fields(const uint16_t (&fields)[N])
    {
        std::array<uint8_t, 2 * N> b;
        for (std::size_t i = 0; i < N; ++i)
        {
            b[2 * i] = static_cast<uint8_t>(fields[i] >> 8);
            b[2 * i + 1] = static_cast<uint8_t>(fields[i]);
        }
        m_out.insert(m_out.end(), b.begin(), b.end());
    }

    /// \return the bytes written
    std::vector<uint8_t>& Out()
    {
        return m_out;
    }

  private:
    /// A suffix written: its wire form is m_keys[key, key + length), its place in the message
    /// is offset.
    struct Suffix
    {
        uint32_t key;    //!< where its bytes start in m_keys
        uint16_t length; //!< how many bytes
        uint16_t offset; //!< where it is in the message
    };

    std::vector<uint8_t> m_out; //!< the bytes
    /// Suffixes written; a message has few names: a linear search, and for the usual message
    /// (a question and its answers) no allocation.
    boost::container::small_vector<Suffix, 8> m_names;
    boost::container::small_vector<char, 128> m_keys; //!< the suffixes' wire forms
    const std::string* m_last{nullptr}; //!< the last name written (alive while serializing)
    std::size_t m_lastOffset{0};        //!< where its whole wire form starts
};

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

void
AdcDnsName::AppendLabel(std::string& out, const char* data, std::size_t size)
{
    for (std::size_t i = 0; i < size; ++i)
    {
        const char ch = data[i];
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
        AppendLabel(out, labels[k].data(), labels[k].size());
    }
    return out;
}

std::string
AdcDnsName::Canonical(const std::string& name)
{
    if (IsPlain(name))
    {
        return name.back() == '.' ? name.substr(0, name.size() - 1) : name;
    }
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
    Writer w; // one name: nothing to compress against, so it is written whole
    w.Name(name);
    return std::move(w.Out());
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
    out.reserve(512); // RFC 1035's UDP size: most messages fit without a reallocation
    const auto flags = static_cast<uint16_t>(
        (qr ? 0x8000 : 0) | (opcode << 11) | (aa ? 0x0400 : 0) | (tc ? 0x0200 : 0) |
        (rd ? 0x0100 : 0) | (ra ? 0x0080 : 0) | (z << 4) | rcode);
    w.Fields({id,
              flags,
              static_cast<uint16_t>(questions.size()),
              static_cast<uint16_t>(answers.size()),
              static_cast<uint16_t>(authority.size()),
              static_cast<uint16_t>(additional.size())});
    for (const auto& q : questions)
    {
        w.Name(q.name);
        w.Fields({q.qtype, q.qclass});
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
    AdcPutU16(out, static_cast<uint16_t>(message.size()));
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
