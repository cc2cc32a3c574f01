/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: flow keys (transport 5-tuples, IPv4 and IPv6) and the
 * seeded hash every load-balancing and table component uses.
 */

#ifndef ADC_FLOW_KEY_H
#define ADC_FLOW_KEY_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An IPv4 or IPv6 address held in 16 bytes, cheap to copy, hash and compare.
 *
 * IPv4 addresses are stored in the first four bytes (network order) and the family is kept
 * alongside, so an IPv4 address never equals the IPv6 address with the same leading bytes.
 */
class AdcIpAddress
{
  public:
    /// Address family.
    enum Family : uint8_t
    {
        NONE = 0, //!< no address set
        V4 = 4,   //!< IPv4
        V6 = 6    //!< IPv6
    };

    AdcIpAddress();
    /// \param a an IPv4 address
    AdcIpAddress(Ipv4Address a); // NOLINT(google-explicit-constructor): addresses convert freely
    /// \param a an IPv6 address
    AdcIpAddress(Ipv6Address a); // NOLINT(google-explicit-constructor)

    /// \return the family
    Family GetFamily() const;
    /// \return true for IPv4
    bool IsV4() const;
    /// \return true for IPv6
    bool IsV6() const;
    /// \return the IPv4 address (only meaningful when IsV4())
    Ipv4Address GetIpv4() const;
    /// \return the IPv6 address (only meaningful when IsV6())
    Ipv6Address GetIpv6() const;
    /// \return the 16 raw bytes (IPv4 in the first four, network order)
    const std::array<uint8_t, 16>& GetBytes() const;
    /// \return number of meaningful bytes: 4, 16 or 0
    std::size_t GetLength() const;
    /// \return the address in its usual text form
    std::string ToString() const;

    /**
     * \brief The address with all but the first \p prefixLength bits cleared.
     * \param prefixLength bits kept (0..32 for IPv4, 0..128 for IPv6; larger values keep all)
     * \return the masked address
     */
    AdcIpAddress Masked(uint8_t prefixLength) const;

    /// \return true when the address is the unset address
    bool IsNone() const;

    friend bool operator==(const AdcIpAddress& a, const AdcIpAddress& b);
    friend bool operator!=(const AdcIpAddress& a, const AdcIpAddress& b);
    friend bool operator<(const AdcIpAddress& a, const AdcIpAddress& b);

  private:
    std::array<uint8_t, 16> m_bytes; //!< raw bytes
    Family m_family;                 //!< family
};

std::ostream& operator<<(std::ostream& os, const AdcIpAddress& a);

/**
 * \ingroup adc
 * \brief A transport flow's 5-tuple: source and destination address and port, and protocol.
 */
struct AdcFlowKey
{
    AdcIpAddress src;    //!< source address
    AdcIpAddress dst;    //!< destination address
    uint16_t srcPort{0}; //!< source port (0 for protocols without ports)
    uint16_t dstPort{0}; //!< destination port
    uint8_t protocol{0}; //!< IP protocol number (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6)

    /// Protocol numbers used throughout the module.
    static constexpr uint8_t PROTO_ICMP = 1;
    static constexpr uint8_t PROTO_TCP = 6;
    static constexpr uint8_t PROTO_UDP = 17;
    static constexpr uint8_t PROTO_ICMPV6 = 58;

    AdcFlowKey() = default;

    /**
     * \param s source address
     * \param d destination address
     * \param sp source port
     * \param dp destination port
     * \param proto IP protocol number
     */
    AdcFlowKey(AdcIpAddress s, AdcIpAddress d, uint16_t sp, uint16_t dp, uint8_t proto);

    /// \return the key of the reply direction (source and destination swapped)
    AdcFlowKey Reversed() const;

    /// \return e.g. "TCP 10.0.0.1:1234 -> 10.0.0.2:80"
    std::string ToString() const;

    friend bool operator==(const AdcFlowKey& a, const AdcFlowKey& b);
    friend bool operator!=(const AdcFlowKey& a, const AdcFlowKey& b);
    friend bool operator<(const AdcFlowKey& a, const AdcFlowKey& b);
};

std::ostream& operator<<(std::ostream& os, const AdcFlowKey& k);

/**
 * \ingroup adc
 * \brief Seeded 64-bit hashing shared by every component that hashes flows.
 *
 * A small, fast, well-mixing hash (64-bit multiply-xorshift over 8-byte words, finished with
 * the SplitMix64 finaliser). Each device holds its own seed, so two appliances hashing the same
 * flow make independent choices, while one appliance always makes the same choice for a flow.
 * The result depends only on the bytes and the seed, never on the platform or run.
 */
class AdcHash
{
  public:
    /**
     * \param data bytes to hash
     * \param len number of bytes
     * \param seed per-device seed
     * \return the 64-bit hash
     */
    static uint64_t Bytes(const void* data, std::size_t len, uint64_t seed);

    /// \return hash of a string
    static uint64_t String(const std::string& s, uint64_t seed);

    /// \return hash of one address (family included)
    static uint64_t Address(const AdcIpAddress& a, uint64_t seed);

    /// \return hash of the whole 5-tuple
    static uint64_t Flow(const AdcFlowKey& k, uint64_t seed);

    /**
     * \brief Hash of a flow that is the same in both directions (A->B and B->A).
     * \param k the flow
     * \param seed per-device seed
     * \return the symmetric hash
     */
    static uint64_t SymmetricFlow(const AdcFlowKey& k, uint64_t seed);

    /// \return the SplitMix64 finaliser of x: a bijective 64-bit mix
    static uint64_t Mix(uint64_t x);
};

/**
 * \ingroup adc
 * \brief Functor for std::unordered_map keyed by AdcFlowKey, with a per-table seed.
 */
struct AdcFlowKeyHasher
{
    uint64_t seed{0x9e3779b97f4a7c15ULL}; //!< the table's seed

    /// \return hash of \p k
    std::size_t operator()(const AdcFlowKey& k) const
    {
        return static_cast<std::size_t>(AdcHash::Flow(k, seed));
    }
};

/**
 * \ingroup adc
 * \brief Functor for std::unordered_map keyed by AdcIpAddress.
 */
struct AdcIpAddressHasher
{
    uint64_t seed{0x9e3779b97f4a7c15ULL}; //!< the table's seed

    /// \return hash of \p a
    std::size_t operator()(const AdcIpAddress& a) const
    {
        return static_cast<std::size_t>(AdcHash::Address(a, seed));
    }
};

} // namespace ns3

#endif /* ADC_FLOW_KEY_H */
