/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: reading DNS messages (RFC 1035 section 4), every failure with
 * the byte offset and the field. Writing is in adc-dns-message.cc.
 */

#include "adc-dns-message.h"

#include <string>
#include <vector>

namespace ns3
{

namespace
{

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

/// A parse failure (internal: Parse turns it into its error result).
struct ParseFailure
{
    std::string what; //!< the reason, with the byte offset
};

std::string TypeName(uint16_t type);

/**
 * \brief A field's name for error messages, put together only when an error is written (a
 * message that parses builds no strings): a base ("ID", or a section and its index such as
 * "question 0"), then up to four parts, each a literal (" QNAME") or a record type's
 * mnemonic (" A", " TYPE99").
 */
class Field
{
  public:
    /// \param base the field's name (a literal: implicit, so U16(at, "ID") reads as it did)
    Field(const char* base) // NOLINT(google-explicit-constructor)
        : m_base(base)
    {
    }

    /// \param section a section's name \param index the entry's index in it
    Field(const char* section, uint16_t index)
        : m_base(section),
          m_index(index),
          m_hasIndex(true)
    {
    }

    /// \param suffix a literal \return this name followed by it
    Field operator+(const char* suffix) const
    {
        Field f = *this;
        f.Push({suffix, -1});
        return f;
    }

    /// \param type a record type \return this name followed by " " and its mnemonic
    Field WithType(uint16_t type) const
    {
        Field f = *this;
        f.Push({nullptr, type});
        return f;
    }

    /// \return the name as error messages print it
    std::string Str() const
    {
        std::string s = m_base;
        if (m_hasIndex)
        {
            s += " " + std::to_string(m_index);
        }
        for (uint8_t k = 0; k < m_n; ++k)
        {
            s += m_parts[k].text ? std::string(m_parts[k].text) : " " + TypeName(m_parts[k].type);
        }
        return s;
    }

  private:
    /// A literal, or (text null) a record type's mnemonic.
    struct Part
    {
        const char* text; //!< the literal, or null
        int32_t type;     //!< the type, when text is null
    };

    /// \param part appended (the parser composes at most four)
    void Push(Part part)
    {
        if (m_n < kMaxParts)
        {
            m_parts[m_n++] = part;
        }
    }

    static constexpr uint8_t kMaxParts = 4; //!< parts a name can have
    const char* m_base;                     //!< the base
    uint16_t m_index{0};                    //!< the section index
    bool m_hasIndex{false};                 //!< whether the base has an index
    Part m_parts[kMaxParts]{};              //!< the parts
    uint8_t m_n{0};                         //!< parts in use
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
    void Need(std::size_t at, std::size_t n, const Field& field) const
    {
        if (at > m_size || n > m_size - at)
        {
            Fail(at,
                 "truncated: " + field.Str() + " needs " + std::to_string(n) +
                     " bytes but the message ends at byte " + std::to_string(m_size));
        }
    }

    /// \param at offset (advanced) \param field name \return a byte
    uint8_t U8(std::size_t& at, const Field& field) const
    {
        Need(at, 1, field);
        return m_data[at++];
    }

    /// \param at offset (advanced) \param field name \return a big-endian uint16
    uint16_t U16(std::size_t& at, const Field& field) const
    {
        Need(at, 2, field);
        const auto v = static_cast<uint16_t>((m_data[at] << 8) | m_data[at + 1]);
        at += 2;
        return v;
    }

    /// \param at offset (advanced) \param field name \return a big-endian uint32
    uint32_t U32(std::size_t& at, const Field& field) const
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
    std::vector<std::string> Name(std::size_t& at, const Field& field) const
    {
        std::vector<std::string> labels;
        WalkName(at, field, [&labels](const char* data, uint8_t size) {
            labels.emplace_back(data, size);
        });
        return labels;
    }

    /**
     * \brief A possibly compressed name in text form (AdcDnsName::FromLabels of Name's
     * labels, without the labels).
     * \param at offset (advanced as Name advances it) \param field name for errors
     * \return the text form ("." for the root)
     */
    std::string NameText(std::size_t& at, const Field& field) const
    {
        std::string text;
        WalkName(at, field, [&text](const char* data, uint8_t size) {
            if (!text.empty())
            {
                text.push_back('.');
            }
            AdcDnsName::AppendLabel(text, data, size);
        });
        return text.empty() ? "." : text;
    }

    /// \param at offset \param n count \return n bytes (checked)
    std::vector<uint8_t> Bytes(std::size_t at, std::size_t n, const Field& field) const
    {
        Need(at, n, field);
        return std::vector<uint8_t>(m_data + at, m_data + at + n);
    }

  private:
    /**
     * \brief Walk a name as Name describes, calling \p visit(bytes, size) for each label.
     * \param at offset (advanced) \param field name for errors \param visit the visitor
     */
    template <typename Visit>
    void WalkName(std::size_t& at, const Field& field, Visit visit) const
    {
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
                         field.Str() + ": compression pointer to byte " + std::to_string(target) +
                             " is out of range (the message has " + std::to_string(m_size) +
                             " bytes)");
                }
                if (target >= p)
                {
                    Fail(p,
                         field.Str() + ": forward compression pointer to byte " +
                             std::to_string(target) + " (a pointer must point to an earlier name)");
                }
                if (target >= partStart)
                {
                    Fail(p,
                         field.Str() + ": compression pointer loop: byte " +
                             std::to_string(target) + " is not before byte " +
                             std::to_string(partStart) + " where this part of the name starts");
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
                     field.Str() + ": label type 0x" + (len & 0x80 ? std::string("80") : "40") +
                         " (length byte " + std::to_string(len) +
                         ") is reserved: labels hold at most 63 bytes (RFC 1035 section 4.1.4)");
            }
            if (len == 0)
            {
                if (!jumped)
                {
                    at = p + 1;
                }
                return;
            }
            Need(p, 1 + std::size_t{len}, field + " label");
            wire += 1 + std::size_t{len};
            if (wire > AdcDnsName::kMaxWireName)
            {
                Fail(p,
                     field.Str() + ": name exceeds 255 bytes on the wire (RFC 1035 section 2.3.4)");
            }
            visit(reinterpret_cast<const char*>(m_data + p + 1), len);
            p += 1 + std::size_t{len};
        }
    }

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
ReadRecord(const Reader& r, std::size_t& at, const Field& field)
{
    AdcDnsResourceRecord rr;
    rr.name = r.NameText(at, field + " NAME");
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
                   field.Str() + " " + TypeName(rr.type) + " RDATA length " +
                       std::to_string(rdlength) + " is not " + std::to_string(want));
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
    const Field what = field.WithType(rr.type) + " RDATA";
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
                       what.Str() + ": " + std::to_string(part) +
                           " more bytes needed within RDLENGTH " + std::to_string(rdlength));
            }
            const auto fixed = r.Bytes(p, part, what);
            expanded.insert(expanded.end(), fixed.begin(), fixed.end());
            p += part;
        }
        if (p > at)
        {
            r.Fail(start, what.Str() + ": the name runs past RDLENGTH " + std::to_string(rdlength));
        }
    }
    if (p != at)
    {
        r.Fail(p,
               what.Str() + ": " + std::to_string(at - p) + " bytes left inside RDLENGTH " +
                   std::to_string(rdlength));
    }
    rr.rdata = std::move(expanded);
    return rr;
}

} // namespace

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
            const Field field("question", i);
            AdcDnsQuestion q;
            q.name = r.NameText(at, field + " QNAME");
            q.qtype = r.U16(at, field + " QTYPE");
            q.qclass = r.U16(at, field + " QCLASS");
            m.questions.push_back(std::move(q));
        }
        for (uint16_t i = 0; i < an; ++i)
        {
            m.answers.push_back(ReadRecord(r, at, Field("answer", i)));
        }
        for (uint16_t i = 0; i < ns; ++i)
        {
            m.authority.push_back(ReadRecord(r, at, Field("authority", i)));
        }
        for (uint16_t i = 0; i < ar; ++i)
        {
            m.additional.push_back(ReadRecord(r, at, Field("additional", i)));
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

} // namespace ns3
