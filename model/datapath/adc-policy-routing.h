/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: stateless policy-based routing on the shared datapath hook. It gives
 * appliances and routers next-hop choice by ingress interface, addresses (IPv4 or IPv6),
 * protocol and port ranges (PBR), sessionless hash balancing over next hops (MAC-based
 * redirection), transparent interception (local delivery of packets addressed elsewhere) and
 * connections from addresses the node does not own (USIP).
 */

#ifndef ADC_POLICY_ROUTING_H
#define ADC_POLICY_ROUTING_H

#include "adc-datapath.h"
#include "adc-policy-rule.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-service.h"
#include "ns3/nstime.h"
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
class Ipv6;
class OutputStreamWrapper;

/**
 * \ingroup adc
 * \brief A stateless policy-based routing datapath (an AdcDatapath): installed on a node with
 * Install(node) (or AdcAddTopIpv4Routing(node, routing, priority)), it is aggregated to the
 * node and its IPv4 and IPv6 hooks sit above static routing ("HookPriority", e.g. 100).
 *
 * Rules (AdcPolicyRule) are tried in insertion order and the first match wins.
 *
 * Input, Process() (forwarded and intercepted packets, both families): the hooks leave packets
 * for the node's own addresses, multicast, broadcast and IPv6 link-local ones to the list (and
 * ns-3's Ipv6ListRouting hands its protocols only packets that arrive on forwarding
 * interfaces: Ipv6::SetForwarding). TCP and UDP ports are read
 * from the first 4 bytes of the transport header; a TCP/UDP packet shorter than that which
 * reaches a rule with port ranges is dropped ("Drop", "truncated-transport-header"); later IPv4
 * fragments have no ports, so rules with port ranges never match them. FORWARD and BALANCE
 * return a FORWARD verdict through the chosen hop's interface to its gateway of the packet's
 * family (IP addresses and ports never change: MAC-based redirection); a rule whose next hops
 * are all down drops the packet ("no-next-hop-up"); a hop the hook cannot send through drops it
 * with the hook's reason (e.g. "bad-out-interface"). LOCAL returns DELIVER_LOCAL (the node's own
 * sockets). PASS and no match return false (ordinary routing).
 *
 * BALANCE uses an AdcLbMethod hash method keyed on the hop names, seeded with "HashSeed": two
 * appliances with the same seed and hop names pick the same hop for a flow, and a hop going
 * down moves only its own flows. A next hop is down when SetNextHopUp marked it so, its service
 * is DOWN or OUT OF SERVICE, or its interface is down (the node's IPv4 interface; IPv6 on a node
 * without IPv4).
 *
 * Output, ProcessOutput() (locally originated packets, through the hooks' RouteOutput, both
 * families): (a) a header source the node does not own, or (b) when the header has none, the
 * source of a connection registered by AddOutputSource (pending, towards this destination) is
 * kept as the route's source (USIP, mapped IPs, transparent proxy replies); the next hop comes
 * from the first FORWARD/BALANCE rule without ingress interfaces that matches, else from the
 * other protocols of the node's list routing (static routing). (c) Otherwise such a rule gives
 * the route with the node's own source; (d) else no route, so the list asks the next protocol.
 * Port ranges are unknown at RouteOutput, so rules with port ranges are skipped there; BALANCE
 * hashes the TCP ports when the packet carries its TCP header (otherwise 0). A matching PASS
 * rule stops the search. A rule whose hops are all down is skipped.
 *
 * "RuleMatch" fires and the rule's hit counter grows once per packet a rule forwards,
 * delivers or passes (RouteOutput calls without a packet, made to choose a source address, are
 * not counted). Drops fire AdcDatapath's "Drop" (also reachable as this TypeId's "Drop").
 * Nothing is stored per forwarded flow: GetPerFlowStateBytes() counts only the output sources
 * of the node's own connections (AddOutputSource).
 */
class AdcPolicyRouting : public AdcDatapath
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
     * \brief Validate and append a rule.
     * \param rule the rule
     * \return its index
     * \throws AdcConfigError naming the rule and the field (AdcPolicyRule::Check), or (once
     * installed) an interface index out of range
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
     * RemoveOutputSource, when the connection ends. IPv4 or IPv6.
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
    std::optional<AdcIpAddress> GetPendingOutputSource() const;

    /**
     * \return bytes held per flow: the registered output sources (AddOutputSource), so 0 on
     * a node that only forwards (the CRD upper tier must keep none)
     */
    std::size_t GetPerFlowStateBytes() const;

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

    /**
     * \brief Print the rules with their hops' states and hits, under a line naming the node
     * and the time (as a routing protocol's table).
     * \param stream the output
     * \param unit the time unit
     */
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit = Time::S) const;

    // AdcDatapath
    bool Process(const AdcIngress& in, AdcEgress& egress) override;
    bool ProcessOutput(const AdcLocalOutput& out, AdcOutputRoute& route) override;
    void NotifyInterfaceChange(AdcIpAddress::Family family, uint32_t interface, bool up) override;
    void Print(std::ostream& os) const override;

  protected:
    void DoDispose() override;
    /// \param node the node \throws AdcConfigError when a rule's interface is out of range
    void CheckNode(Ptr<Node> node) const override;
    /// \param node the node: its IP stacks are kept, and the hops' states computed
    void NotifyInstalled(Ptr<Node> node) override;

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
     * \brief Check a rule's interface indices against a node's interfaces of its family.
     * \param rule the rule
     * \param index its index
     * \param ipv4 the node's Ipv4 (or null)
     * \param ipv6 the node's Ipv6 (or null)
     */
    static void CheckInterfaces(const AdcPolicyRule& rule,
                                uint32_t index,
                                const Ptr<Ipv4>& ipv4,
                                const Ptr<Ipv6>& ipv6);
    /// \param rule rule index \param what the operation; AdcConfigError when out of range
    void CheckRuleIndex(uint32_t rule, const char* what) const;
    /// A next hop's service changed state: the hop follows it (SetNextHopUp).
    void HopServiceChanged(uint32_t rule,
                           uint32_t hop,
                           const std::string& name,
                           AdcService::State oldState,
                           AdcService::State newState);
    /// \param rule rule index \param hop hop index \return HopServiceChanged bound to them
    Callback<void, const std::string&, AdcService::State, AdcService::State> HopServiceCallback(
        uint32_t rule,
        uint32_t hop);
    /// Recompute every hop's effective state and tell the BALANCE methods what changed.
    void UpdateHopStates();
    /// \param entry the rule whose hops to update
    void UpdateHopStates(RuleEntry& entry);
    /// \param interface an interface \return true when it exists and is up (true before Install)
    bool IsInterfaceUp(uint32_t interface) const;
    /// \param family a family \param interface an interface \return its device (or null)
    Ptr<NetDevice> GetDevice(AdcIpAddress::Family family, uint32_t interface) const;

    /**
     * \param entry the rule (FORWARD or BALANCE)
     * \param flow the flow
     * \return index of the hop to use, or -1 when none is up
     */
    static int32_t ChooseHop(RuleEntry& entry, const AdcFlowKey& flow);

    /**
     * \brief Carry out a rule's action on a received packet.
     * \param index the matching rule
     * \param in the packet
     * \param flow its 5-tuple (with the ports policy routing reads)
     * \param egress carries out the verdict
     * \return what Process returns
     */
    bool ApplyInputRule(uint32_t index,
                        const AdcIngress& in,
                        const AdcFlowKey& flow,
                        AdcEgress& egress);

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
     * \brief The output route by the rules without ingress interfaces (cases a, b, c).
     * \param out the packet
     * \param flow its flow (src: the route's source, or the family's any address)
     * \param[out] route interface and next hop, when returning true
     * \return false when no usable FORWARD/BALANCE rule matches first
     */
    bool RouteOutputByRules(const AdcLocalOutput& out,
                            const AdcFlowKey& flow,
                            AdcOutputRoute& route);

    /**
     * \brief Take the newest pending output source towards \p destination.
     * \param destination the header's destination
     * \param protocol the header's protocol (0: unknown)
     * \return its source address, or nothing
     */
    std::optional<AdcIpAddress> TakePendingOutputSource(const AdcIpAddress& destination,
                                                        uint8_t protocol);

    /// \param os the stream: one line per rule, with hops' states and hits
    void PrintRules(std::ostream& os) const;

    Ptr<Ipv4> m_ipv4;               //!< the node's Ipv4 (after Install)
    Ptr<Ipv6> m_ipv6;               //!< the node's Ipv6 (after Install, when it has one)
    std::vector<RuleEntry> m_rules; //!< rules in insertion order
    /// Connections registered by AddOutputSource (their source address is src).
    std::unordered_set<AdcFlowKey, AdcFlowKeyHasher> m_outputSources;
    /// Those no source-less RouteOutput has taken yet, oldest first (normally at most one).
    std::vector<AdcFlowKey> m_pendingSources;
    /// "RuleMatch": a rule handled a packet.
    TracedCallback<const std::string&, const AdcFlowKey&, uint32_t, const std::string&>
        m_ruleMatchTrace;
};

} // namespace ns3

#endif /* ADC_POLICY_ROUTING_H */
