/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: transport port ranges, maps of exclusive port ranges to their owners
 * (NetScaler cache redirection gives each lower-tier appliance its own source-port range, so
 * replies can be routed back to it by port), and a deterministic port allocator.
 */

#ifndef ADC_PORT_RANGE_H
#define ADC_PORT_RANGE_H

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An inclusive range of transport ports, e.g. 1024-16383.
 *
 * A valid range has 1 <= first <= last (port 0 is never a usable port). Methods that take a
 * range from outside (Split, AdcPortRangeMap::Add, AdcPortAllocator::SetRange) check it.
 */
struct AdcPortRange
{
    uint16_t first{0}; //!< first port in the range
    uint16_t last{0};  //!< last port in the range (inclusive)

    AdcPortRange() = default;

    /**
     * \param f first port
     * \param l last port (inclusive)
     */
    AdcPortRange(uint16_t f, uint16_t l);

    /// \param port a port \return true when first <= port <= last
    bool Contains(uint16_t port) const;

    /// \return number of ports in the range (last - first + 1; 0 when first > last)
    uint32_t Size() const;

    /// \return e.g. "1024-16383"
    std::string ToString() const;

    /// \param other another range \return true when the two ranges share at least one port
    bool Overlaps(const AdcPortRange& other) const;

    /// \return true when 1 <= first <= last
    bool IsValid() const;

    /**
     * \brief Throw AdcConfigError when the range is not valid.
     * \param who the class and setting to name in the message, e.g. "AdcPortRangeMap: range"
     */
    void Check(const std::string& who) const;

    /**
     * \brief Parse "FIRST-LAST" (or a single port "P", meaning P-P). Surrounding spaces are
     * ignored.
     * \param text the text
     * \return the range
     * \throws AdcConfigError on malformed text, a port outside 1..65535, or first > last
     */
    static AdcPortRange Parse(const std::string& text);

    /**
     * \brief Split a range into \p n exclusive contiguous ranges that together cover it.
     *
     * Sizes differ by at most one; the first (size % n) ranges are the larger ones.
     * \param whole the range to split
     * \param n number of parts
     * \return the parts, in increasing port order
     * \throws AdcConfigError when \p whole is invalid, n == 0 or n > whole.Size()
     */
    static std::vector<AdcPortRange> Split(AdcPortRange whole, uint32_t n);

    friend bool operator==(const AdcPortRange& a, const AdcPortRange& b);
    friend bool operator!=(const AdcPortRange& a, const AdcPortRange& b);
};

std::ostream& operator<<(std::ostream& os, const AdcPortRange& r);

/**
 * \ingroup adc
 * \brief Exclusive port ranges and their owners (e.g. the lower-tier appliance that owns each
 * source-port range, for policy-based routing of replies by destination port).
 *
 * Ranges are kept sorted by first port, so FindOwner is a binary search: O(log n) per packet.
 */
class AdcPortRangeMap
{
  public:
    /// One range and its owner.
    struct Item
    {
        AdcPortRange range; //!< the range
        uint32_t owner;     //!< its owner (e.g. an appliance index)
    };

    /**
     * \brief Restrict every range to lie inside \p bounds (e.g. 1024-65535).
     * \param bounds the bounds
     * \throws AdcConfigError when \p bounds is invalid or a range already added lies outside
     */
    void SetBounds(AdcPortRange bounds);

    /// \return the bounds, when set
    std::optional<AdcPortRange> GetBounds() const;

    /**
     * \brief Give \p r to \p owner.
     * \param r the range
     * \param owner its owner
     * \throws AdcConfigError naming both ranges and owners when \p r overlaps a range already
     * added, or naming the bounds when \p r lies outside them, or when \p r is invalid
     */
    void Add(AdcPortRange r, uint32_t owner);

    /**
     * \param port a port
     * \return the owner of the range holding \p port, or nullopt when no range holds it
     */
    std::optional<uint32_t> FindOwner(uint16_t port) const;

    /// \return the ranges and owners, sorted by first port
    const std::vector<Item>& GetRanges() const;

    /// \return number of ranges
    std::size_t GetN() const;

    /// Remove every range (the bounds stay).
    void Clear();

  private:
    std::vector<Item> m_items;            //!< sorted by range.first, non-overlapping
    std::optional<AdcPortRange> m_bounds; //!< optional bounds
};

/**
 * \ingroup adc
 * \brief Allocates ports from a range, each at most once until released.
 *
 * Allocation is deterministic: the next free port after the last one allocated, wrapping at
 * the end of the range (like Linux's sequential scan). State is a bitmap, so memory is
 * range size / 8 bytes. Exhaustion is not an error: Allocate returns nullopt, counts it and
 * fires "Exhausted".
 */
class AdcPortAllocator : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcPortAllocator();
    ~AdcPortAllocator() override;

    /**
     * \brief Signature of "Allocated" and "Released".
     * \param port the port
     */
    typedef void (*PortTracedCallback)(uint16_t port);

    /**
     * \brief Signature of "Exhausted".
     * \param rangeSize number of ports in the range (all of them in use)
     */
    typedef void (*ExhaustedTracedCallback)(uint32_t rangeSize);

    /**
     * \brief Use \p range; every port becomes free and allocation restarts at range.first.
     * \param range the range
     * \throws AdcConfigError when \p range is invalid
     */
    void SetRange(AdcPortRange range);

    /// \return the range
    AdcPortRange GetRange() const;

    /// \return a free port (now in use), or nullopt when every port is in use
    std::optional<uint16_t> Allocate();

    /**
     * \brief Free \p port. A port outside the range or not allocated is ignored (with a
     * warning) and counted by GetMisuseCount().
     * \param port the port
     */
    void Release(uint16_t port);

    /// \param port a port \return true when \p port is in the range and allocated
    bool IsAllocated(uint16_t port) const;

    /// \return number of ports in use
    uint32_t GetInUse() const;

    /// \return number of ports in the range
    uint32_t GetSize() const;

    /// \return how many Allocate calls found no free port
    uint64_t GetExhaustedCount() const;

    /// \return how many Release calls named a port that was not allocated
    uint64_t GetMisuseCount() const;

  private:
    /// \param text range text for the "Range" attribute
    void SetRangeString(std::string text);
    /// \return the range as text
    std::string GetRangeString() const;
    /// \param index a bit index \return true when the bit is set
    bool TestBit(uint32_t index) const;
    /// \param start bit index to start from \return the first clear bit at or after start,
    /// wrapping (the caller ensures one exists)
    uint32_t FindFreeFrom(uint32_t start) const;

    AdcPortRange m_range;         //!< the range
    std::vector<uint64_t> m_bits; //!< 1 = in use; padding bits past the range are set
    uint32_t m_next{0};           //!< bit index where the next search starts
    uint32_t m_inUse{0};          //!< ports in use
    uint64_t m_exhausted{0};      //!< failed allocations
    uint64_t m_misuse{0};         //!< bad releases

    TracedCallback<uint16_t> m_allocatedTrace; //!< "Allocated"
    TracedCallback<uint16_t> m_releasedTrace;  //!< "Released"
    TracedCallback<uint32_t> m_exhaustedTrace; //!< "Exhausted"
};

} // namespace ns3

#endif /* ADC_PORT_RANGE_H */
