/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: a stateless policy-based routing protocol. It gives appliances and
 * routers next-hop choice by ingress interface, addresses, protocol and port ranges (PBR),
 * sessionless hash balancing over next hops (MAC-based redirection), transparent interception
 * (local delivery of packets addressed elsewhere) and connections from addresses the node does
 * not own (USIP).
 */

#ifndef ADC_POLICY_ROUTING_H
#define ADC_POLICY_ROUTING_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-port-range.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace ns3
{

class AdcLbMethod;
class Ipv4;
class Ipv4Route;

/**
 * \ingroup adc
 * \brief One next hop a policy rule can send packets to.
 */
struct AdcNextHop
{
    uint32_t interface = 0; //!< outgoing Ipv4 interface index
    /// Next hop on that interface; left unset (or 0.0.0.0) the packet goes on-link to its
    /// destination.
    Ipv4Address gateway;
    std::string name; //!< e.g. "L2NS2" (traces, hop names; the identity BALANCE hashes on)
};

/**
 * \ingroup adc
 * \brief One policy-based routing rule: a match on the packet and an action.
 *
 * A rule matches when every constraint holds: the ingress interface is listed (or the list is
 * empty), source and destination lie in their networks, the protocol is equal (or the rule's
 * is 0) and the ports lie in their ranges (when set).
 */
struct AdcPolicyRule
{
    /// What a matching packet gets.
    enum Action : uint8_t
    {
        FORWARD, //!< forward to the one next hop, addresses and ports untouched
        BALANCE, //!< forward to the next hop a hash of the flow picks among the up ones
        LOCAL,   //!< deliver to the node's own sockets (transparent interception)
        PASS     //!< stop here and leave the packet to the lower-priority protocols
    };

    std::string name;                          //!< e.g. "pbr-L2NS2", shown in traces
    std::vector<uint32_t> inInterfaces;        //!< empty = any ingress interface
    Ipv4Address srcNet{Ipv4Address::GetAny()}; //!< source network
    Ipv4Mask srcMask{Ipv4Mask::GetZero()};     //!< source mask (zero = any source)
    Ipv4Address dstNet{Ipv4Address::GetAny()}; //!< destination network
    Ipv4Mask dstMask{Ipv4Mask::GetZero()};     //!< destination mask (zero = any)
    uint8_t protocol{0};                       //!< 0 = any; 6 TCP, 17 UDP
    std::optional<AdcPortRange> srcPorts;      //!< unset = any
    std::optional<AdcPortRange> dstPorts;      //!< unset = any
    Action action{FORWARD};                    //!< what a matching packet gets
    std::vector<AdcNextHop> nextHops;          //!< FORWARD: 1; BALANCE: >= 1; else none
    std::string balanceMethod{"hash-ip-port"}; //!< BALANCE only: a hash method name
};

/**
 * \ingroup adc
 * \brief A stateless policy-based Ipv4 routing protocol, added to a node's Ipv4ListRouting
 * above static routing (e.g. priority 100).
 *
 * Rules are tried in insertion order and the first match wins.
 *
 * RouteInput (forwarded and intercepted packets): packets for the node's own addresses,
 * multicast and broadcast are left to the list (return false). TCP and UDP ports are read from
 * the first 4 bytes of the transport header; a TCP/UDP packet shorter than that which reaches
 * a rule with port ranges is dropped ("Drop", "truncated-transport-header"); non-first
 * fragments have no ports, so rules with port ranges never match them. FORWARD and BALANCE
 * hand the packet to the forwarding callback with a route to the chosen next hop (IP addresses
 * and ports never change: MAC-based redirection); a rule whose next hops are all down drops
 * the packet ("no-next-hop-up"). LOCAL hands it to the node's own sockets. PASS and no match
 * return false.
 *
 * BALANCE uses an AdcLbMethod hash method keyed on the hop names, seeded with "HashSeed": two
 * appliances with the same seed and hop names pick the same hop for a flow, and a hop going
 * down moves only its own flows. A next hop is down when SetNextHopUp marked it so or its
 * interface is down.
 *
 * RouteOutput (locally originated packets): (a) a header source the node does not own, or
 * (b) when the header has none, the source of a connection registered by AddOutputSource
 * (pending, towards this destination) is kept as the route's source (USIP, mapped IPs,
 * transparent proxy replies); the next hop comes from the first
 * FORWARD/BALANCE rule without ingress interfaces that matches, else from the other protocols
 * of the node's Ipv4ListRouting (static routing). (c) Otherwise such a rule gives the route
 * with the node's own source; (d) else no route, so the list asks the next protocol. Port
 * ranges are unknown at RouteOutput, so rules with port ranges are skipped there; BALANCE hashes
 * the TCP ports when the packet carries its TCP header (otherwise 0). A matching PASS rule
 * stops the search. A rule whose hops are all down is skipped.
 *
 * "RuleMatch" fires and the rule's hit counter grows once per packet a rule forwards,
 * delivers or passes (RouteOutput calls without a packet, made to choose a source address, are
 * not counted). Nothing is stored per forwarded flow: GetPerFlowStateBytes() counts only the
 * output sources of the node's own connections (AddOutputSource).
 */
class AdcPolicyRouting : public Ipv4RoutingProtocol
{
  public:
    /// The ingressInterface of "RuleMatch" for locally originated packets (RouteOutput).
    static constexpr uint32_t LOCAL_ORIGIN = std::numeric_limits<uint32_t>::max();

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcPolicyRouting();
    ~AdcPolicyRouting() override;

    /**
     * \brief Signature of the "RuleMatch" trace source.
     * \param ruleName the rule's name
     * \param flow the packet's 5-tuple (ports 0 when unknown)
     * \param ingressInterface the interface it arrived on (LOCAL_ORIGIN for local packets)
     * \param nextHopName the chosen hop's name; empty for LOCAL and PASS
     */
    typedef void (*RuleMatchTracedCallback)(const std::string& ruleName,
                                            const AdcFlowKey& flow,
                                            uint32_t ingressInterface,
                                            const std::string& nextHopName);

    /**
     * \brief Signature of the "Drop" trace source.
     * \param packet the dropped packet (without its IP header)
     * \param reason why, e.g. "truncated-transport-header", "no-next-hop-up"
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Validate and append a rule.
     * \param rule the rule
     * \return its index
     * \throws AdcConfigError naming the rule and the field: FORWARD without exactly one next
     * hop, BALANCE without next hops, with a non-hash method or with duplicate hop names,
     * LOCAL/PASS with next hops, port ranges on a protocol other than 0, TCP, UDP, an invalid
     * port range, or (once the Ipv4 is known) an interface index out of range
     */
    uint32_t AddRule(const AdcPolicyRule& rule);

    /// \return number of rules
    uint32_t GetNRules() const;

    /**
     * \param i rule index (out of range is an AdcConfigError)
     * \return the rule (the reference is valid until the next AddRule)
     */
    const AdcPolicyRule& GetRule(uint32_t i) const;

    /**
     * \brief Mark a rule's next hop administratively up or down (health monitors call this).
     * \param rule rule index
     * \param hop next-hop index within the rule
     * \param up new state; a down hop gets no packets
     */
    void SetNextHopUp(uint32_t rule, uint32_t hop, bool up);

    /**
     * \param rule rule index
     * \param hop next-hop index
     * \return true when the hop may get packets: marked up and its interface up
     */
    bool IsNextHopUp(uint32_t rule, uint32_t hop) const;

    /// \param rule rule index \return packets the rule forwarded, delivered or passed
    uint64_t GetRuleHits(uint32_t rule) const;

    /**
     * \brief Register the source of one connection this node opens (USIP: a client's
     * address; or a mapped IP): the explicit mapping that replaces a one-shot "next source".
     *
     * ns-3's TCP Connect asks RouteOutput for its local address with neither a source nor a
     * packet (TcpSocketBase::SetupEndpoint) and overwrites the bound address with the route's
     * source. So a registered connection is "pending" until the first RouteOutput without a
     * header source towards \p connection.dst (same protocol, or either unknown) takes it:
     * register right before Connect (AdcConnectFrom does). Its packets then carry the source
     * in their header, which case (a) keeps. The registration stays until
     * RemoveOutputSource, when the connection ends.
     * \param connection src: the address to use; srcPort: the bound port; dst, dstPort: the
     *        server; protocol: 6 (TCP)
     * \return false when the same connection is already registered (nothing changes)
     */
    bool AddOutputSource(const AdcFlowKey& connection);

    /**
     * \brief The connection ended: forget its registration.
     * \param connection as given to AddOutputSource
     * \return false when it was not registered
     */
    bool RemoveOutputSource(const AdcFlowKey& connection);

    /// \return connections registered by AddOutputSource and not removed yet
    std::size_t GetNOutputSources() const;

    /// \return the source of the newest registration no RouteOutput has taken yet, if any
    std::optional<Ipv4Address> GetPendingOutputSource() const;

    /**
     * \return bytes held per flow: the registered output sources (AddOutputSource), so 0 on
     * a node that only forwards (the CRD upper tier must keep none)
     */
    std::size_t GetPerFlowStateBytes() const;

    /// \param seed hash seed of every BALANCE rule (same as attribute "HashSeed")
    void SetHashSeed(uint64_t seed);
    /// \return the hash seed
    uint64_t GetHashSeed() const;

    /**
     * \brief The protocol uses no random variables.
     * \param stream first stream index
     * \return 0, the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the methods a BALANCE rule accepts (hash methods: same hop for every packet)
    static std::vector<std::string> GetBalanceMethodNames();

    /// \param action an action \return "FORWARD", "BALANCE", "LOCAL" or "PASS"
    static std::string ActionToString(AdcPolicyRule::Action action);

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    /// \param ipv4 the node's Ipv4; every rule's interface indices are checked against it
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /// A rule with what the protocol keeps for it (per rule, never per flow).
    struct RuleEntry
    {
        AdcPolicyRule rule;            //!< the rule as given
        Ptr<AdcLbMethod> lb;           //!< BALANCE: picks among the hops
        std::vector<bool> adminUp;     //!< per hop: as set by SetNextHopUp
        std::vector<bool> effectiveUp; //!< per hop: adminUp and interface up
        uint64_t hits{0};              //!< packets handled
    };

    /**
     * \param name a rule's name
     * \param index its index
     * \return "AdcPolicyRouting: rule 'name' (#index)", how messages name a rule
     */
    static std::string Who(const std::string& name, uint32_t index);
    /**
     * \brief Check everything about a rule that does not need the node.
     * \param rule the rule
     * \param index its index
     */
    static void CheckRule(const AdcPolicyRule& rule, uint32_t index);
    /**
     * \brief Check a rule's interface indices.
     * \param rule the rule
     * \param index its index
     * \param nInterfaces the node's number of Ipv4 interfaces
     */
    static void CheckInterfaces(const AdcPolicyRule& rule, uint32_t index, uint32_t nInterfaces);
    /// \param rule rule index \param what the operation; AdcConfigError when out of range
    void CheckRuleIndex(uint32_t rule, const char* what) const;
    /// Recompute every hop's effective state and tell the BALANCE methods what changed.
    void UpdateHopStates();
    /// \param entry the rule whose hops to update
    void UpdateHopStates(RuleEntry& entry);
    /// \param interface an interface \return true when it exists and is up (true without Ipv4)
    bool IsInterfaceUp(uint32_t interface) const;
    /// \param address an address \return true when one of the node's interfaces holds it
    bool IsOwnAddress(Ipv4Address address) const;

    /**
     * \param entry the rule (FORWARD or BALANCE)
     * \param flow the flow
     * \return index of the hop to use, or -1 when none is up
     */
    static int32_t ChooseHop(RuleEntry& entry, const AdcFlowKey& flow);

    /**
     * \brief Carry out a rule's action on a received packet.
     * \param index the matching rule
     * \param p the packet (without its IP header)
     * \param header its IP header
     * \param iif ingress interface
     * \param flow its 5-tuple
     * \param ucb forwarding callback
     * \param lcb local delivery callback
     * \return what RouteInput returns
     */
    bool ApplyInputRule(uint32_t index,
                        Ptr<const Packet> p,
                        const Ipv4Header& header,
                        uint32_t iif,
                        const AdcFlowKey& flow,
                        const UnicastForwardCallback& ucb,
                        const LocalDeliverCallback& lcb);

    /**
     * \param hop the next hop
     * \param destination the packet's destination
     * \param source the route's source; unset = the outgoing interface's first address
     * \return a route through \p hop
     */
    Ptr<Ipv4Route> MakeRoute(const AdcNextHop& hop,
                             Ipv4Address destination,
                             std::optional<Ipv4Address> source) const;

    /**
     * \brief Count a packet a rule handled and fire "RuleMatch".
     * \param index rule index
     * \param flow the flow
     * \param ingress ingress interface or LOCAL_ORIGIN
     * \param hopName chosen hop's name, empty for LOCAL/PASS
     */
    void RecordMatch(uint32_t index,
                     const AdcFlowKey& flow,
                     uint32_t ingress,
                     const std::string& hopName);

    /**
     * \brief RouteOutput by the rules without ingress interfaces (cases a, b, c).
     * \param p the packet (may be null)
     * \param flow the flow (ports only from a TCP header)
     * \param oif the device the socket is bound to, if any
     * \param source the route's source; unset = the outgoing interface's first address
     * \return the route, or null when no usable FORWARD/BALANCE rule matches first
     */
    Ptr<Ipv4Route> RouteOutputByRules(Ptr<const Packet> p,
                                      const AdcFlowKey& flow,
                                      Ptr<NetDevice> oif,
                                      std::optional<Ipv4Address> source);

    /**
     * \brief Take the newest pending output source towards \p destination.
     * \param destination the header's destination
     * \param protocol the header's protocol (0: unknown)
     * \return its source address, or nothing
     */
    std::optional<Ipv4Address> TakePendingOutputSource(Ipv4Address destination, uint8_t protocol);

    /**
     * \brief Ask the node's other routing protocols (static routing) for a route to the
     * destination, and give it \p source.
     * \param p the packet
     * \param header the header (its source is cleared for the lookup)
     * \param oif the bound device, if any
     * \param source the source the route must carry
     * \return the route, or null
     */
    Ptr<Ipv4Route> RouteOutputByOthers(Ptr<Packet> p,
                                       const Ipv4Header& header,
                                       Ptr<NetDevice> oif,
                                       Ipv4Address source);

    Ptr<Ipv4> m_ipv4;               //!< the node's Ipv4
    std::vector<RuleEntry> m_rules; //!< rules in insertion order
    uint64_t m_hashSeed;            //!< seed of every BALANCE method
    /// Connections registered by AddOutputSource (their source address is src).
    std::unordered_set<AdcFlowKey, AdcFlowKeyHasher> m_outputSources;
    /// Those no source-less RouteOutput has taken yet, oldest first (normally at most one).
    std::vector<AdcFlowKey> m_pendingSources;
    /// "RuleMatch": a rule handled a packet.
    TracedCallback<const std::string&, const AdcFlowKey&, uint32_t, const std::string&>
        m_ruleMatchTrace;
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< "Drop"
};

} // namespace ns3

#endif /* ADC_POLICY_ROUTING_H */
