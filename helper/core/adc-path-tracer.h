/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the path tracer, which records through which nodes a request's data passed
 * and merges the TCP connections ("legs") of a proxied request into one hop sequence.
 */

#ifndef ADC_PATH_TRACER_H
#define ADC_PATH_TRACER_H

#include "ns3/adc-flow-key.h"
#include "ns3/callback.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup adc
 * \brief Records which watched nodes the first data packet of every transport connection
 * ("leg") passed through, and merges legs into hop sequences such as
 * "client > router > L1NS1 > L2NS2 > CRS1 > L2NS2 > router > client".
 *
 * Proxies terminate TCP connections and open new ones, so one request is a chain of legs. A
 * leg is identified by the 5-tuple of its packets as sent. For each leg the tracer follows one
 * packet, the first data-carrying one (TCP payload > 0; UDP payload > 0 when IncludeUdp is
 * true), by its Packet UID (kept when a router forwards it) and, for TCP, its sequence number
 * (segments cut from one application buffer share a UID). It records the names of the watched
 * nodes in order: the sender ("SendOutgoing"), every forwarder ("UnicastForward") and the
 * receiver ("LocalDeliver", which completes the leg and fires "Leg"). Later packets of a
 * known leg cost two hash lookups (UID, 5-tuple) and are otherwise ignored; pure ACKs, SYNs
 * and FINs carry no payload and are ignored too. Forwarders may rewrite addresses: the
 * followed packet is recognised by UID and sequence number, not by its 5-tuple.
 *
 * Only watched nodes appear in paths. A leg whose sender is not watched starts at the first
 * watched node that handles its first data packet. When the followed packet is lost and the
 * sender retransmits it (same UID and sequence number), the path restarts at the leg's first
 * node when the copy gets there again; a retransmission built as a new packet (new UID) is
 * not followed and the leg stays incomplete (Leg::complete false, nodes as far as the lost
 * packet got). A 5-tuple reused later (port wrap-around) counts as the same leg. IPv4 only; IP
 * fragments other than the first are ignored.
 *
 * Packets too short for their transport header (or with a TCP data offset outside 20..length)
 * are counted as malformed and reported through "Drop"; they never crash the tracer. They are
 * counted once per watched node that handles them.
 *
 * Memory is O(legs recorded): for large experiments set a flow filter (SetFlowFilter) that
 * keeps only a chosen set of clients.
 */
class AdcPathTracer : public Object
{
  public:
    /// Which Ipv4L3Protocol trace source saw a packet.
    enum Event : uint8_t
    {
        SEND_OUTGOING = 0,   //!< "SendOutgoing": the node sent the packet
        UNICAST_FORWARD = 1, //!< "UnicastForward": the node forwarded the packet
        LOCAL_DELIVER = 2    //!< "LocalDeliver": the packet reached its destination node
    };

    /// The path of one leg's first data packet.
    struct Leg
    {
        AdcFlowKey flow;                //!< 5-tuple of the leg as sent
        Time start;                     //!< when the first watched node handled the packet
        std::vector<std::string> nodes; //!< watched node names, in the order passed
        bool complete{false};           //!< the followed packet was delivered at a watched node
    };

    /**
     * \brief Signature of the "Leg" trace source: a leg's path is complete.
     * \param flow the leg's 5-tuple
     * \param nodes watched node names from sender to receiver
     */
    typedef void (*LegTracedCallback)(const AdcFlowKey& flow,
                                      const std::vector<std::string>& nodes);

    /**
     * \brief Signature of the "Drop" trace source: a packet could not be parsed.
     * \param packet the packet (without its IPv4 header)
     * \param reason e.g. "tcp-header-truncated"
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcPathTracer();
    ~AdcPathTracer() override;

    /**
     * \brief Watch \p node: connect to its Ipv4L3Protocol's "SendOutgoing", "UnicastForward"
     * and "LocalDeliver" trace sources. Nodes get watch indexes 0, 1, ... in call order.
     * \param node a node with the Internet stack installed
     * \param name name shown in paths (non-empty, unique among watched nodes)
     * \throw AdcConfigError for a null node, an empty or taken name, a node already watched,
     * or a node without Ipv4L3Protocol
     */
    void AddNode(Ptr<Node> node, const std::string& name);

    /**
     * \brief Record only the legs whose 5-tuple passes \p filter (a null callback records all).
     * The filter is asked when a leg is first seen and for every later packet of a rejected
     * leg, so it must give the same answer for the same 5-tuple.
     * \param filter returns true for legs to record
     */
    void SetFlowFilter(Callback<bool, const AdcFlowKey&> filter);

    /**
     * \brief The trace sink of every watched node; public so that packets can be fed directly.
     * \param watchIndex the node's watch index (AddNode call order, from 0)
     * \param event which trace source fired
     * \param header the packet's IPv4 header
     * \param packet the packet, starting at the transport header
     * \param interface IPv4 interface index (unused)
     * \throw AdcConfigError when \p watchIndex is not a watched node's index
     */
    void NotifyPacket(uint32_t watchIndex,
                      Event event,
                      const Ipv4Header& header,
                      Ptr<const Packet> packet,
                      uint32_t interface);

    /// \return the recorded legs ordered by start time (ties in the order first seen)
    std::vector<Leg> GetLegs() const;
    /// \return number of recorded legs
    std::size_t GetNLegs() const;
    /// \return number of packets that could not be parsed (once per watched node handling one)
    uint64_t GetMalformed() const;

    /**
     * \brief Merge the legs that started in [\p from, \p to] into one hop sequence.
     *
     * Legs are taken in start order. A leg whose first node equals the last node so far is
     * joined without repeating that node ([C,R,P] + [P,S] -> C R P S). A leg that does not join
     * (an unrelated flow, or a leg after an incomplete one) is appended whole, so the repeated
     * or jumping node stays visible ([C,R,S] + [X,R,Y] -> C R S X R Y).
     * \param from earliest leg start included
     * \param to latest leg start included
     * \return the node names
     */
    std::vector<std::string> GetHopSequence(Time from = Seconds(0), Time to = Time::Max()) const;

    /**
     * \param nodes node names
     * \return the names joined with " > ", e.g. "C > R1 > S" (empty for no names)
     */
    static std::string ToString(const std::vector<std::string>& nodes);

    /// \brief Forget every leg, followed packet and the malformed count; nodes and the filter
    /// stay.
    void Clear();

    /**
     * \brief Write the legs as CSV, columns leg,start_s,flow,hops: leg is the 0-based index in
     * GetLegs() order, start_s seconds with 9 decimals, flow as AdcFlowKey::ToString(), hops
     * as ToString(nodes).
     * \param file file name (truncated)
     * \throw AdcConfigError when the file cannot be opened
     */
    void WriteCsv(const std::string& file) const;

    /// \return the CSV header columns
    static const std::vector<std::string>& Header();

  protected:
    void DoDispose() override;

  private:
    /// What the tracer needs from a packet's transport header.
    struct Parsed
    {
        AdcFlowKey flow;  //!< 5-tuple
        uint32_t seq{0};  //!< TCP sequence number (0 for UDP)
        bool data{false}; //!< carries payload of a traced protocol
    };

    /// A leg with what is needed to follow its packet.
    struct LegState
    {
        Leg leg;               //!< the public record
        uint64_t uid{0};       //!< followed packet's UID
        uint32_t seq{0};       //!< followed packet's TCP sequence number
        bool isTcp{false};     //!< sequence numbers are compared
        bool following{false}; //!< the followed packet has not been delivered yet
    };

    /// A trace connection to undo on dispose (the callbacks hold a raw pointer to us).
    struct Connection
    {
        Ptr<Object> object; //!< traced Ipv4L3Protocol
        std::string trace;  //!< trace source name
        CallbackBase cb;    //!< connected callback
    };

    /**
     * \brief Read the transport header without reading past the packet's end.
     * \param header IPv4 header \param packet packet \param out result
     * \return false when malformed (counted and reported through "Drop")
     */
    bool Parse(const Ipv4Header& header, Ptr<const Packet> packet, Parsed& out);
    /// \param packet the bad packet \param reason why: count and fire "Drop"
    void Malformed(Ptr<const Packet> packet, const std::string& reason);
    /// \param uid packet UID \param p parsed header \param event trace source
    /// \return the index of the leg following this very packet, or NOT_FOUND
    std::size_t FindFollowed(uint64_t uid, const Parsed& p, Event event) const;
    /// \param p parsed header \param uid packet UID \param name first node \param event source
    void StartLeg(const Parsed& p, uint64_t uid, const std::string& name, Event event);
    /// \param index a leg \param name node name \param event trace source: extend its path
    void Extend(std::size_t index, const std::string& name, Event event);
    /// \param index the leg whose followed packet was delivered: stop following, fire "Leg"
    void Complete(std::size_t index);

    static constexpr std::size_t NOT_FOUND = static_cast<std::size_t>(-1); //!< no leg

    std::vector<std::string> m_names;           //!< by watch index
    std::vector<uint32_t> m_nodeIds;            //!< by watch index
    std::vector<Connection> m_connections;      //!< to disconnect
    bool m_includeUdp{false};                   //!< trace UDP legs too
    Callback<bool, const AdcFlowKey&> m_filter; //!< leg filter (null: all)
    std::vector<LegState> m_legs;               //!< in start order
    std::unordered_map<AdcFlowKey, std::size_t, AdcFlowKeyHasher> m_byFlow; //!< leg index
    std::unordered_map<uint64_t, std::size_t> m_byUid; //!< followed UID -> leg index
    uint64_t m_malformed{0};                           //!< unparsable packets
    TracedCallback<const AdcFlowKey&, const std::vector<std::string>&> m_legTrace; //!< "Leg"
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;             //!< "Drop"
};

} // namespace ns3

#endif /* ADC_PATH_TRACER_H */
