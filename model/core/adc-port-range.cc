/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-port-range.h"

#include "adc-config-error.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcPortRange");

NS_OBJECT_ENSURE_REGISTERED(AdcPortAllocator);

namespace
{

/// \param s text \return s without leading and trailing white space
std::string
Trim(const std::string& s)
{
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    {
        ++b;
    }
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    {
        --e;
    }
    return s.substr(b, e - b);
}

/// \param s text \param[out] port the port \return true when s is a port number 1..65535
bool
ParsePort(const std::string& s, uint16_t& port)
{
    if (s.empty() || s.size() > 5)
    {
        return false;
    }
    uint32_t v = 0;
    for (char c : s)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        v = v * 10 + static_cast<uint32_t>(c - '0');
    }
    if (v == 0 || v > 65535)
    {
        return false;
    }
    port = static_cast<uint16_t>(v);
    return true;
}

} // namespace

AdcPortRange::AdcPortRange(uint16_t f, uint16_t l)
    : first(f),
      last(l)
{
}

bool
AdcPortRange::Contains(uint16_t port) const
{
    return port >= first && port <= last;
}

uint32_t
AdcPortRange::Size() const
{
    return first > last ? 0 : static_cast<uint32_t>(last) - first + 1;
}

std::string
AdcPortRange::ToString() const
{
    return std::to_string(first) + "-" + std::to_string(last);
}

bool
AdcPortRange::Overlaps(const AdcPortRange& other) const
{
    return first <= other.last && other.first <= last;
}

bool
AdcPortRange::IsValid() const
{
    return first >= 1 && first <= last;
}

void
AdcPortRange::Check(const std::string& who) const
{
    if (!IsValid())
    {
        throw AdcConfigError(who + " '" + ToString() +
                             "' is not a port range FIRST-LAST with 1 <= FIRST <= LAST <= 65535");
    }
}

AdcPortRange
AdcPortRange::Parse(const std::string& text)
{
    const std::string t = Trim(text);
    const std::size_t dash = t.find('-');
    const std::string a = Trim(t.substr(0, dash));
    const std::string b = dash == std::string::npos ? a : Trim(t.substr(dash + 1));
    AdcPortRange r;
    if (!ParsePort(a, r.first) || !ParsePort(b, r.last) || r.first > r.last)
    {
        throw AdcConfigError("AdcPortRange: '" + text +
                             "' is not a port range FIRST-LAST (or a single port) with "
                             "1 <= FIRST <= LAST <= 65535");
    }
    return r;
}

std::vector<AdcPortRange>
AdcPortRange::Split(AdcPortRange whole, uint32_t n)
{
    whole.Check("AdcPortRange::Split: range");
    const uint32_t size = whole.Size();
    if (n == 0 || n > size)
    {
        throw AdcConfigError("AdcPortRange::Split: cannot split " + whole.ToString() + " (" +
                             std::to_string(size) + " ports) into " + std::to_string(n) +
                             " parts; parts must be 1.." + std::to_string(size));
    }
    const uint32_t base = size / n;
    const uint32_t extra = size % n;
    std::vector<AdcPortRange> parts;
    parts.reserve(n);
    uint32_t next = whole.first; // 32 bits: next may pass 65535 after the last part
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t len = base + (i < extra ? 1 : 0);
        parts.emplace_back(static_cast<uint16_t>(next), static_cast<uint16_t>(next + len - 1));
        next += len;
    }
    return parts;
}

bool
operator==(const AdcPortRange& a, const AdcPortRange& b)
{
    return a.first == b.first && a.last == b.last;
}

bool
operator!=(const AdcPortRange& a, const AdcPortRange& b)
{
    return !(a == b);
}

std::ostream&
operator<<(std::ostream& os, const AdcPortRange& r)
{
    return os << r.ToString();
}

// ---------------------------------------------------------------------------------------------
// AdcPortRangeMap

void
AdcPortRangeMap::SetBounds(AdcPortRange bounds)
{
    bounds.Check("AdcPortRangeMap: bounds");
    for (const auto& item : m_items)
    {
        if (item.range.first < bounds.first || item.range.last > bounds.last)
        {
            throw AdcConfigError("AdcPortRangeMap: bounds " + bounds.ToString() +
                                 " exclude range " + item.range.ToString() + " of owner " +
                                 std::to_string(item.owner));
        }
    }
    m_bounds = bounds;
}

std::optional<AdcPortRange>
AdcPortRangeMap::GetBounds() const
{
    return m_bounds;
}

void
AdcPortRangeMap::Add(AdcPortRange r, uint32_t owner)
{
    r.Check("AdcPortRangeMap: range for owner " + std::to_string(owner));
    if (m_bounds && (r.first < m_bounds->first || r.last > m_bounds->last))
    {
        throw AdcConfigError("AdcPortRangeMap: range " + r.ToString() + " for owner " +
                             std::to_string(owner) + " is outside the bounds " +
                             m_bounds->ToString());
    }
    auto pos =
        std::lower_bound(m_items.begin(), m_items.end(), r.first, [](const Item& i, uint16_t p) {
            return i.range.first < p;
        });
    // Ranges are disjoint and sorted, so only the neighbours on each side can overlap.
    for (auto it : {pos, pos == m_items.begin() ? m_items.end() : pos - 1})
    {
        if (it != m_items.end() && it->range.Overlaps(r))
        {
            throw AdcConfigError("AdcPortRangeMap: range " + r.ToString() + " for owner " +
                                 std::to_string(owner) + " overlaps range " + it->range.ToString() +
                                 " of owner " + std::to_string(it->owner) +
                                 "; ranges must be exclusive");
        }
    }
    m_items.insert(pos, Item{r, owner});
}

std::optional<uint32_t>
AdcPortRangeMap::FindOwner(uint16_t port) const
{
    auto it = std::upper_bound(m_items.begin(), m_items.end(), port, [](uint16_t p, const Item& i) {
        return p < i.range.first;
    });
    if (it == m_items.begin())
    {
        return std::nullopt;
    }
    --it;
    if (!it->range.Contains(port))
    {
        return std::nullopt;
    }
    return it->owner;
}

const std::vector<AdcPortRangeMap::Item>&
AdcPortRangeMap::GetRanges() const
{
    return m_items;
}

std::size_t
AdcPortRangeMap::GetN() const
{
    return m_items.size();
}

void
AdcPortRangeMap::Clear()
{
    m_items.clear();
}

// ---------------------------------------------------------------------------------------------
// AdcPortAllocator

TypeId
AdcPortAllocator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPortAllocator")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcPortAllocator>()
            .AddAttribute("Range",
                          "Ports to allocate from, as FIRST-LAST (inclusive). Setting it frees "
                          "every port. Malformed text throws AdcConfigError.",
                          StringValue("1024-65535"),
                          MakeStringAccessor(&AdcPortAllocator::SetRangeString,
                                             &AdcPortAllocator::GetRangeString),
                          MakeStringChecker())
            .AddTraceSource("Allocated",
                            "A port was allocated.",
                            MakeTraceSourceAccessor(&AdcPortAllocator::m_allocatedTrace),
                            "ns3::AdcPortAllocator::PortTracedCallback")
            .AddTraceSource("Released",
                            "A port was released.",
                            MakeTraceSourceAccessor(&AdcPortAllocator::m_releasedTrace),
                            "ns3::AdcPortAllocator::PortTracedCallback")
            .AddTraceSource("Exhausted",
                            "An allocation failed: every port of the range is in use.",
                            MakeTraceSourceAccessor(&AdcPortAllocator::m_exhaustedTrace),
                            "ns3::AdcPortAllocator::ExhaustedTracedCallback");
    return tid;
}

AdcPortAllocator::AdcPortAllocator()
{
    NS_LOG_FUNCTION(this);
}

AdcPortAllocator::~AdcPortAllocator()
{
    NS_LOG_FUNCTION(this);
}

void
AdcPortAllocator::SetRange(AdcPortRange range)
{
    NS_LOG_FUNCTION(this << range);
    range.Check("AdcPortAllocator: Range");
    if (m_inUse > 0)
    {
        NS_LOG_WARN("AdcPortAllocator: Range changed with " << m_inUse
                                                            << " ports in use; all are freed");
    }
    m_range = range;
    const uint32_t size = range.Size();
    m_bits.assign((size + 63) / 64, 0);
    if (size % 64 != 0)
    {
        // Padding bits past the range are marked in use so the scan never returns them.
        m_bits.back() = ~uint64_t{0} << (size % 64);
    }
    m_next = 0;
    m_inUse = 0;
}

AdcPortRange
AdcPortAllocator::GetRange() const
{
    return m_range;
}

void
AdcPortAllocator::SetRangeString(std::string text)
{
    SetRange(AdcPortRange::Parse(text));
}

std::string
AdcPortAllocator::GetRangeString() const
{
    return m_range.ToString();
}

bool
AdcPortAllocator::TestBit(uint32_t index) const
{
    return (m_bits[index / 64] >> (index % 64)) & 1U;
}

uint32_t
AdcPortAllocator::FindFreeFrom(uint32_t start) const
{
    const std::size_t nWords = m_bits.size();
    std::size_t w = start / 64;
    uint64_t freeBits = ~m_bits[w] & (~uint64_t{0} << (start % 64));
    // nWords + 1 steps: the start word is seen again in full after wrapping.
    for (std::size_t step = 0; step <= nWords; ++step)
    {
        if (freeBits != 0)
        {
            return static_cast<uint32_t>(w * 64 + __builtin_ctzll(freeBits));
        }
        w = (w + 1) % nWords;
        freeBits = ~m_bits[w];
    }
    NS_ABORT_MSG("AdcPortAllocator: no free port although the in-use count says there is one");
    return 0;
}

std::optional<uint16_t>
AdcPortAllocator::Allocate()
{
    const uint32_t size = GetSize();
    if (m_inUse >= size)
    {
        ++m_exhausted;
        NS_LOG_LOGIC("AdcPortAllocator: range " << m_range << " exhausted");
        m_exhaustedTrace(size);
        return std::nullopt;
    }
    const uint32_t index = FindFreeFrom(m_next);
    m_bits[index / 64] |= uint64_t{1} << (index % 64);
    ++m_inUse;
    m_next = (index + 1) % size;
    const auto port = static_cast<uint16_t>(m_range.first + index);
    NS_LOG_LOGIC("AdcPortAllocator: allocated " << port);
    m_allocatedTrace(port);
    return port;
}

void
AdcPortAllocator::Release(uint16_t port)
{
    if (!IsAllocated(port))
    {
        ++m_misuse;
        NS_LOG_WARN("AdcPortAllocator: release of port " << port << " which is not allocated in "
                                                         << m_range << "; ignored");
        return;
    }
    const uint32_t index = port - m_range.first;
    m_bits[index / 64] &= ~(uint64_t{1} << (index % 64));
    --m_inUse;
    m_releasedTrace(port);
}

bool
AdcPortAllocator::IsAllocated(uint16_t port) const
{
    return !m_bits.empty() && m_range.Contains(port) && TestBit(port - m_range.first);
}

uint32_t
AdcPortAllocator::GetInUse() const
{
    return m_inUse;
}

uint32_t
AdcPortAllocator::GetSize() const
{
    return m_bits.empty() ? 0 : m_range.Size();
}

uint64_t
AdcPortAllocator::GetExhaustedCount() const
{
    return m_exhausted;
}

uint64_t
AdcPortAllocator::GetMisuseCount() const
{
    return m_misuse;
}

} // namespace ns3
