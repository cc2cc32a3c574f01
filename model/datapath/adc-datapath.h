/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: the family-independent shape every packet-level appliance shares. The
 * node's IPv4 or IPv6 hook (adc-datapath-hook.h) turns a received packet into an AdcIngress,
 * the AdcDatapath decides, and the hook carries out each AdcVerdict through an AdcEgress:
 * ordinary routing, forwarding to a next hop, rewriting, encapsulating, local delivery or a
 * drop with its reason. For a packet the node itself sends, the hook describes it as an
 * AdcLocalOutput and the datapath may give the route (AdcOutputRoute): its own next hop, or a
 * source address the node does not own (USIP).
 */

#ifndef ADC_DATAPATH_H
#define ADC_DATAPATH_H

#include "adc-packet-rewrite.h"

#include "ns3/adc-flow-key.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class AdcLbMethod;
class Node;
class Ipv4RoutingProtocol;
class Ipv6RoutingProtocol;
class AdcIpv4DatapathHook;
class AdcIpv6DatapathHook;

/**
 * \ingroup adc
 * \brief A received packet as the hook describes it to a datapath, whatever its IP family.
 */
struct AdcIngress
{
    AdcFlowKey flow;                                         //!< 5-tuple (ports 0 unless OK)
    AdcTransportStatus status{AdcTransportStatus::NO_PORTS}; //!< transport header status
    uint8_t tcpFlags{0};                                     //!< TCP flags (OK TCP only)
    uint32_t tcpSeq{0};                                      //!< TCP sequence number
    uint32_t tcpAck{0};                                      //!< TCP acknowledgement number
    uint32_t tcpPayload{0};  //!< TCP payload bytes (after the header and options)
    uint32_t bytes{0};       //!< IP bytes (IP header included)
    uint32_t inInterface{0}; //!< the node's IPv4 / IPv6 interface it arrived on
    /// An IPv4 fragment after the first: the packet does not start with its transport header
    /// (status FRAGMENT says only that the packet is a fragment, first or not).
    bool laterFragment{false};
    /// An IPv4 fragment of any protocol, first or later (more-fragments set or an offset); for
    /// TCP and UDP status FRAGMENT says the same.
    bool fragment{false};
    Ptr<const Packet> packet; //!< the packet (no IP header)

    /**
     * \brief Describe a received packet (reads at most its transport header).
     * \param src IP source
     * \param dst IP destination
     * \param protocol IP protocol (or IPv6 next header)
     * \param p the packet without its IP header
     * \param fragment true for an IP fragment (no whole transport header)
     * \param ipHeaderBytes size of the IP header (for byte counters)
     * \return the description (inInterface 0: the hook sets it)
     */
    static AdcIngress Describe(const AdcIpAddress& src,
                               const AdcIpAddress& dst,
                               uint8_t protocol,
                               Ptr<const Packet> p,
                               bool fragment,
                               uint32_t ipHeaderBytes);
};

/**
 * \ingroup adc
 * \brief An outer header for ENCAPSULATE: the whole received IP datagram (its IP header as
 * received) becomes the payload of a new IP packet the appliance sends from its own address.
 */
struct AdcEncapsulation
{
    /**
     * Adds the headers between the outer IP header and the inner datagram (e.g. UDP, VXLAN and
     * an inner Ethernet header). Called once the outer addresses are known, so a UDP checksum
     * can cover them.
     * \param datagram the inner IP datagram, to which the headers are added
     * \param outerSource the outer IP source (the output interface's address)
     * \param outerDestination the outer IP destination
     */
    using AddHeadersFn = std::function<void(Ptr<Packet> datagram,
                                            const AdcIpAddress& outerSource,
                                            const AdcIpAddress& outerDestination)>;

    uint8_t protocol{0};      //!< the outer IP protocol / next header (e.g. 17 for VXLAN)
    AdcIpAddress destination; //!< the outer destination (e.g. the host holding the back-end)
    AddHeadersFn addHeaders;  //!< null: the datagram follows the outer IP header directly
};

/**
 * \ingroup adc
 * \brief What a datapath wants done with a received packet.
 */
struct AdcVerdict
{
    /// The actions a hook carries out.
    enum Action : uint8_t
    {
        PASS,          //!< ordinary routing (a datapath returns false instead of sending it)
        FORWARD,       //!< unchanged, to an on-link next hop or out of a named interface:
                       //!< only the MAC changes (DSR, policy-based routing)
        REWRITE,       //!< to a new 5-tuple, checksums updated; routed to its destination
        ENCAPSULATE,   //!< inside a new outer header, to the outer destination
        DELIVER_LOCAL, //!< to the node's own stack, whatever its destination (interception)
        DROP,          //!< discarded; "Drop" fires with the reason
        DECAPSULATE    //!< the outer header and the next decapBytes removed: the inner IP
                       //!< datagram re-enters the node as received on the same device
    };

    Action action{PASS}; //!< what to do
    AdcFlowKey after;    //!< REWRITE: the 5-tuple to send
    /// FORWARD, REWRITE: the next hop. FORWARD without outInterface needs one (on-link: the
    /// node's routes to it give the interface); with outInterface, unset means on-link to the
    /// packet's destination. REWRITE: unset routes to the new destination.
    AdcIpAddress nextHop;
    /// FORWARD: the node's interface (of the packet's family) to send on, as a policy rule
    /// names it; 0 (the loopback, never an output) = the interface the routes give.
    uint32_t outInterface{0};
    AdcEncapsulation encapsulation; //!< ENCAPSULATE: the outer header
    std::string reason;             //!< DROP: why
    /// FORWARD: leave the TTL (IPv6: hop limit) as it came, as a MAC-mode virtual server
    /// forwards (NetScaler's -m MAC: only the destination MAC changes); false: it is lowered by
    /// one as a router does (policy-based routing, DSR). A TTL of 255 is lowered all the same.
    bool keepTtl{false};
    /// DECAPSULATE: the bytes between the outer IP header and the inner IP header (VXLAN: UDP,
    /// VXLAN and the inner Ethernet header, kSlbVxlanHeaderBytes)
    uint32_t decapBytes{0};
    /// REWRITE of a TCP segment: when non-zero, an MSS option above it is lowered to it (MSS
    /// clamping for a tunnel's overhead); a segment without the option is left as it is
    uint16_t clampMss{0};

    /// \return a PASS verdict
    static AdcVerdict Pass();
    /**
     * \param nextHop the next hop (unset with \p outInterface: on-link to the destination)
     * \param outInterface the interface to send on; 0: the one the routes to \p nextHop give
     * \return a FORWARD verdict
     */
    static AdcVerdict Forward(const AdcIpAddress& nextHop, uint32_t outInterface = 0);
    /**
     * \param after the new 5-tuple (same family and protocol)
     * \param nextHop an on-link next hop, or unset to route to after.dst
     * \return a REWRITE verdict
     */
    static AdcVerdict Rewrite(const AdcFlowKey& after, const AdcIpAddress& nextHop = {});
    /// \param encapsulation the outer header \return an ENCAPSULATE verdict
    static AdcVerdict Encapsulate(AdcEncapsulation encapsulation);
    /// \return a DELIVER_LOCAL verdict
    static AdcVerdict DeliverLocal();
    /// \param reason why \return a DROP verdict
    static AdcVerdict Drop(const std::string& reason);
    /**
     * \param bytes what follows the outer IP header before the inner IP header
     * \return a DECAPSULATE verdict: the hook strips the outer IP header and \p bytes, and the
     * inner datagram (IPv4 or IPv6, whatever the outer family) re-enters the node's IP layer as
     * if received on the same device, so it meets the datapath again
     */
    static AdcVerdict Decapsulate(uint32_t bytes);
    /// \param action an action \return "PASS", "FORWARD", ...
    static std::string ActionToString(Action action);

  private:
    /// \param action an action \return a verdict of it, every other field at its default
    static AdcVerdict Of(Action action);
};

/**
 * \ingroup adc
 * \brief The hook's side of one received packet: carries out verdicts for it.
 */
class AdcEgress
{
  public:
    virtual ~AdcEgress() = default;

    /**
     * \brief Carry out \p verdict for the packet being processed.
     * \param verdict what to do (PASS does nothing: a datapath returns false instead)
     * \return "" when done, else why it could not be (nothing was sent): "no-route" (the
     * node's other protocols know no route to the destination, next hop or outer destination),
     * "next-hop-not-on-link", "bad-next-hop" (FORWARD without one and without an interface, or of
     * another family), "bad-out-interface" (FORWARD to an interface the node lacks),
     * "bad-rewrite" (REWRITE of a packet without a whole TCP/UDP header, or to another family
     * or protocol), "bad-checksum" and "malformed-transport-header" (AdcRewriteTransport),
     * "no-outer-destination", "no-outer-family" (ENCAPSULATE to a family the node lacks),
     * "no-local-delivery", "no-forwarding" (FORWARD or REWRITE of a packet given through
     * ProcessLocal), "decapsulate-truncated" (fewer bytes than the verdict strips, or no inner IP
     * header after them), "decapsulate-inner-version" (the inner datagram is neither IPv4 nor
     * IPv6, or of a family the node lacks). The datapath decides what follows (usually a drop).
     */
    virtual std::string Send(const AdcVerdict& verdict) = 0;
};

/**
 * \ingroup adc
 * \brief A packet the node itself sends, as the hook's RouteOutput describes it to a datapath
 * (or a socket choosing its source address before it has a packet: TCP's Connect).
 */
struct AdcLocalOutput
{
    /// src: the header's source, unset when the stack has not chosen one yet; dst, protocol;
    /// ports of a TCP header at the packet's front (only TCP hands its header down), else 0
    AdcFlowKey flow;
    bool ownSource{false};      //!< src is set and is one of the node's addresses
    Ptr<const Packet> packet;   //!< the packet (transport header first), or null
    Ptr<NetDevice> boundDevice; //!< the device the socket is bound to, or null
};

/**
 * \ingroup adc
 * \brief The route a datapath gives a locally originated packet (AdcDatapath::ProcessOutput).
 */
struct AdcOutputRoute
{
    /// The route's source; unset = the output interface's own address (IPv4: its first,
    /// IPv6: the one source address selection picks). A foreign one is kept as given (USIP).
    AdcIpAddress source;
    /// The interface to send on; 0 = the one the node's other routing protocols give for the
    /// destination (or, with nextHop, for the next hop).
    uint32_t outInterface{0};
    /// The next hop; unset = the other protocols' gateway (outInterface 0) or on-link to the
    /// destination (with outInterface).
    AdcIpAddress nextHop;
};

/**
 * \ingroup adc
 * \brief A packet-level appliance: sees every packet its node receives (above the node's
 * static routing), decides, and has the node's hook carry its verdicts out.
 *
 * Install(node) aggregates the datapath to the node (node->GetObject<T>() finds it; it lives as
 * long as the node) and puts its IPv4 and IPv6 hooks at the top ("HookPriority") of the node's
 * Ipv4ListRouting / Ipv6ListRouting. A node holds at most one datapath of each kind; datapaths
 * of different kinds (an ILB and policy routing) can share a node, the higher HookPriority
 * seeing each packet first.
 *
 * Input (the hooks' RouteInput): packets for the node's own addresses, multicast, IPv4
 * broadcast and IPv6 link-local ones are left to the list; every other packet is described as
 * an AdcIngress and given to Process(). Output (the hooks' RouteOutput, for the node's own
 * packets): ProcessOutput() may give the route; by default it gives none, so the node's own
 * traffic uses the other protocols of the list.
 *
 * Subclasses write Process() (and ProcessOutput() when they route the node's own packets); a
 * drop, whoever decides it, goes through DropPacket() ("Drop"). CheckNode(), NotifyInstalled()
 * and NotifyInterfaceChange() let a subclass follow the node it runs on.
 */
class AdcDatapath : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcDatapath();
    ~AdcDatapath() override;

    /**
     * \brief Signature of "Drop".
     * \param packet the dropped packet (without its IP header)
     * \param reason why, e.g. "no-server-up"
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Decide what happens to a received packet and have it done through \p egress
     * (once or more; each Send says whether it worked, so state can follow the outcome).
     * \param in the packet
     * \param egress carries out verdicts for this packet
     * \return true when the datapath took the packet (sent or dropped it), false to leave it to
     * ordinary routing (PASS)
     */
    virtual bool Process(const AdcIngress& in, AdcEgress& egress) = 0;

    /**
     * \brief Give the route of a packet the node itself sends (the hooks' RouteOutput).
     * \param out the packet
     * \param[out] route the route, when returning true
     * \return true to give \p route (the hook builds it; if the node has no route to what it
     * names, the packet has none), false to leave the packet to the list's other protocols
     * (the default)
     */
    virtual bool ProcessOutput(const AdcLocalOutput& out, AdcOutputRoute& route);

    /**
     * \brief An interface of the node went up or down (the hooks pass the list's notice on).
     * \param family V4 or V6: the family whose interface changed
     * \param interface its index
     * \param up its new state
     */
    virtual void NotifyInterfaceChange(AdcIpAddress::Family family, uint32_t interface, bool up);

    /**
     * \brief Aggregate this datapath to \p node and hook it into the node's IPv4 and (when
     * installed) IPv6 list routing at "HookPriority".
     * \param node a node whose stack came from AdcMakeListStackHelper (a list routing for
     *        every family it has)
     * \throws AdcConfigError when this datapath is already installed, when \p node already
     * holds a datapath of the same kind, or when a family's routing is not a list routing
     */
    void Install(Ptr<Node> node);

    /// \return the node this datapath is installed on, or null
    Ptr<Node> GetNode() const;
    /// \return the IPv4 hook in the node's Ipv4ListRouting (null before Install)
    Ptr<Ipv4RoutingProtocol> GetIpv4Routing() const;
    /// \return the IPv6 hook in the node's Ipv6ListRouting (null without IPv6 or Install)
    Ptr<Ipv6RoutingProtocol> GetIpv6Routing() const;

    /**
     * \brief Drop a packet: fire "Drop" with the reason (the hook does it for DROP verdicts).
     * \param packet the packet (without its IP header)
     * \param reason why
     */
    void DropPacket(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Seed every LB method the datapath hashes with (AddSeededMethod): datapaths with
     * the same seed and back-end names send a flow the same way.
     * \param seed the seed
     */
    void SetHashSeed(uint64_t seed);
    /// \return the hash seed (0 until set)
    uint64_t GetHashSeed() const;

    /**
     * \brief What the hooks print in PrintRoutingTable (default: nothing).
     * \param os the stream
     */
    virtual void Print(std::ostream& os) const;

  protected:
    void DoDispose() override;

    /**
     * \brief Give Process() a packet the node received for one of its own addresses.
     *
     * The node's list routing delivers such packets before any hook sees them, so an endpoint
     * that must decide on them (a tunnel endpoint receiving on a socket) hands them over here,
     * rebuilt from what the socket gave. The hook of the packet's family describes it and carries
     * out the verdicts: DECAPSULATE, ENCAPSULATE, DROP and DELIVER_LOCAL (refused:
     * "no-local-delivery", it was delivered already), FORWARD and REWRITE ("no-forwarding").
     * \param payload the IP payload (transport header first)
     * \param src the IP source
     * \param dst the IP destination (one of the node's addresses)
     * \param protocol the IP protocol
     * \param interface the node's interface (of the family of \p dst) it arrived on
     * \return what Process() returned; false when not installed or the family has no hook
     */
    bool ProcessLocal(Ptr<const Packet> payload,
                      const AdcIpAddress& src,
                      const AdcIpAddress& dst,
                      uint8_t protocol,
                      uint32_t interface);

    /**
     * \brief Refuse a node this datapath cannot run on (Install calls it before changing
     * anything; default: accept).
     * \param node the node, with its Internet stack
     * \throws AdcConfigError naming what does not fit
     */
    virtual void CheckNode(Ptr<Node> node) const;

    /**
     * \brief Install finished: the datapath is aggregated to \p node and its hooks are in the
     * node's lists (default: nothing).
     * \param node the node
     */
    virtual void NotifyInstalled(Ptr<Node> node);

    /**
     * \brief Give \p lb the datapath's hash seed, now and on every SetHashSeed.
     * \param lb a method of one of the datapath's rules
     */
    void AddSeededMethod(Ptr<AdcLbMethod> lb);
    /// \param lb a method given to AddSeededMethod, which no longer follows the seed
    void RemoveSeededMethod(Ptr<AdcLbMethod> lb);

  private:
    /// \param node the node \throws AdcConfigError when Install would fail on it
    void CheckInstall(Ptr<Node> node) const;
    /// Detach and release the hooks (they stay in the lists but take nothing any more).
    void DetachHooks();

    int16_t m_priority;                  //!< "HookPriority"
    Ptr<AdcIpv4DatapathHook> m_ipv4Hook; //!< IPv4 hook (after Install)
    Ptr<AdcIpv6DatapathHook> m_ipv6Hook; //!< IPv6 hook (after Install, with IPv6)
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< "Drop"
    uint64_t m_hashSeed{0};                                            //!< SetHashSeed
    std::vector<Ptr<AdcLbMethod>> m_seeded; //!< methods that follow the seed
};

} // namespace ns3

#endif /* ADC_DATAPATH_H */
