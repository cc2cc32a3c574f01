/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_REASSEMBLY_H
#define SLB_REASSEMBLY_H

#include "ns3/adc-flow-key.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup adc
 * IP reassembly for the SLB host switch, as Linux's conntrack defragments before NAT
 * (nf_defrag_ipv4 / nf_defrag_ipv6): pure logic over the fragments' offsets, lengths and times.
 */

namespace ns3
{

/**
 * \ingroup adc
 * \brief What identifies the fragments of one datagram (RFC 791 section 3.2: source,
 * destination, protocol and identification; RFC 8200 section 4.5: source, destination and
 * identification, the protocol being the fragment header's next header).
 */
struct SlbFragmentKey
{
    AdcIpAddress src;    //!< source
    AdcIpAddress dst;    //!< destination
    uint8_t protocol{0}; //!< protocol (IPv6: the fragment header's next header)
    uint32_t id{0};      //!< identification (16 bits in IPv4, 32 in IPv6)

    /// \param o another key \return strict weak order
    bool operator<(const SlbFragmentKey& o) const;
};

/**
 * \ingroup adc
 * \brief Reassembles IP datagrams from their fragments.
 *
 * Linux's rules (net/ipv4/ip_fragment.c, net/ipv6/reassembly.c, inet_fragment.c):
 * - a queue lives at most Timeout from its first fragment (ipfrag_time, 30 s); then every
 *   fragment it holds is dropped ("frag-timeout");
 * - the fragments queued for all datagrams hold at most MemoryLimit payload bytes
 *   (ipfrag_high_thresh, 4 MiB); a fragment that would exceed it is dropped ("frag-memory");
 * - a fragment that is not the last must carry a multiple of 8 bytes, and none may be empty
 *   ("frag-bad-length", RFC 791 / RFC 8200);
 * - a datagram may not end beyond 65,535 bytes ("frag-too-big");
 * - a fragment ending past a last fragment's end, or a second last fragment with another end,
 *   drops the queue ("frag-inconsistent");
 * - an exact duplicate (same offset and length) is dropped alone ("frag-duplicate");
 * - any other overlap drops the whole queue ("frag-overlap": RFC 5722 for IPv6; Linux does the
 *   same for IPv4 since 4.19).
 */
class SlbReassembly
{
  public:
    /// What Add did.
    struct Result
    {
        /// The outcome.
        enum Kind : uint8_t
        {
            QUEUED,   //!< held until the rest arrives
            COMPLETE, //!< the datagram is whole: payload
            DROPPED   //!< dropped: reason and dropped (this fragment, maybe its queue)
        };

        Kind kind{QUEUED};                      //!< the outcome
        std::string reason;                     //!< DROPPED: why
        Ptr<Packet> payload;                    //!< COMPLETE: the datagram's payload
        uint32_t maxFragmentBytes{0};           //!< COMPLETE: the largest fragment (IP bytes)
        uint32_t fragments{0};                  //!< COMPLETE: how many fragments it was
        std::vector<Ptr<const Packet>> dropped; //!< DROPPED: the fragments dropped
    };

    /// A queue that timed out.
    struct Expired
    {
        SlbFragmentKey key;                     //!< whose
        std::vector<Ptr<const Packet>> dropped; //!< its fragments (as given to Add)
    };

    /**
     * \param timeout a queue's lifetime from its first fragment
     * \param memoryLimit payload bytes all queues may hold
     */
    void SetLimits(Time timeout, uint64_t memoryLimit);

    /**
     * \brief Add a fragment.
     * \param key the datagram
     * \param offset the fragment's offset in bytes (a multiple of 8)
     * \param more the more-fragments flag
     * \param data the fragment's payload (after the IP header and, IPv6, the fragment header)
     * \param original the packet as received, handed back when it is dropped
     * \param wireBytes the fragment's IP bytes (header included), for the largest fragment
     * \param now the time
     * \return the outcome
     */
    Result Add(const SlbFragmentKey& key,
               uint32_t offset,
               bool more,
               Ptr<const Packet> data,
               Ptr<const Packet> original,
               uint32_t wireBytes,
               Time now);

    /// \param now the time \return the queues older than the timeout, removed
    std::vector<Expired> Expire(Time now);
    /// \return when the oldest queue times out (Time::Max() when none)
    Time NextExpiry() const;
    /// \return datagrams being reassembled
    std::size_t GetQueues() const;
    /// \return payload bytes held
    uint64_t GetMemory() const;

  private:
    /// One fragment held.
    struct Piece
    {
        uint32_t length{0};         //!< payload bytes
        Ptr<const Packet> data;     //!< payload
        Ptr<const Packet> original; //!< as received
    };

    /// One datagram being reassembled.
    struct Queue
    {
        std::map<uint32_t, Piece> pieces; //!< by offset
        bool haveLast{false};             //!< the last fragment arrived
        uint32_t end{0};                  //!< the datagram's length (with the last)
        Time created;                     //!< first fragment
        uint32_t maxWire{0};              //!< largest fragment, IP bytes
        uint64_t bytes{0};                //!< payload bytes held
    };

    /// \param it a queue \param reason why \param r filled with its fragments
    void DropQueue(std::map<SlbFragmentKey, Queue>::iterator it,
                   const std::string& reason,
                   Result& r);

    std::map<SlbFragmentKey, Queue> m_queues; //!< datagrams
    Time m_timeout{Seconds(30)};              //!< queue lifetime
    uint64_t m_memoryLimit{4u << 20};         //!< payload bytes
    uint64_t m_memory{0};                     //!< payload bytes held
};

} // namespace ns3

#endif /* SLB_REASSEMBLY_H */
