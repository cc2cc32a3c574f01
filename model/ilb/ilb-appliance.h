/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB), seed 001. One IlbAppliance per
 * ILB node holds the rules' run-time state, the sticky tables, the NAT port allocators and the
 * counters, and makes every decision. It is an AdcDatapath: Install(node) aggregates it to the
 * ILB node and hooks it into the node's IPv4 and IPv6 list routing, where the shared hooks
 * describe each packet and carry out its verdicts.
 */

#ifndef ILB_APPLIANCE_H
#define ILB_APPLIANCE_H

#include "ilb-algorithm.h"
#include "ilb-connection-store.h"
#include "ilb-nat-source.h"
#include "ilb-nat-table.h"
#include "ilb-rule.h"

#include "ns3/adc-connection-table.h"
#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The Integrated Load Balancer of one node: rules, NAT table, decisions, counters.
 *
 * Datapath (Process, fed by the node's IPv4 and IPv6 hooks after Install; one
 * family-independent engine working on AdcFlowKey):
 * - A TCP/UDP packet to a rule's VIP, protocol and port range is a request ("RuleMatch"
 *   fires for each). A new flow (any packet without a connection entry) is balanced as
 *   illumos ilb_check does it: the rule's algorithm runs first, over the up and enabled
 *   servers, chosen by the rule's virtual server (below), so round robin advances for every
 *   new flow; then, for a sticky rule, ilb_sticky_find_add: the entry of the client's source
 *   prefix wins when its server is still enabled, else a new entry is made for the
 *   algorithm's server ("ServerChosen", once per new flow). Every connection holds a
 *   reference on its sticky entry (GetStickyTable); the entry's persist-timeout runs from
 *   when the last reference is dropped, and the cleanup ("CleanupInterval", 15 s as
 *   illumos's ilb_sticky_timeout) removes unreferenced entries older than that. A Full-NAT
 *   sticky entry pins its NAT source address (ilb_sticky_find_add's nat_src_idx): its flows
 *   take ports of that address only (ilb_alloc_nat_addr, no fallback).
 *   Existing flows (the connection table, 5-tuple) keep their server.
 * - DSR keeps no connection state (illumos ilb_check adds no entry for DSR): every packet is
 *   balanced by the algorithm (and the sticky table, whose reference is dropped at once) and
 *   forwarded unchanged with the server's address as next hop (only the destination MAC
 *   changes); "ServerChosen" fires per packet and "connections" counts pure SYNs. roundrobin
 *   thus spreads one connection's packets over the servers, as illumos does: pair DSR with a
 *   hash algorithm or sticky.
 *   HALF_NAT: destination rewritten to the server's address:port.
 *   FULL_NAT: also the source, to a NAT source address and port as illumos ilb_nat.c picks
 *   them (IlbNatSourceTable: a port space of natPorts per (NAT source, server) pair).
 * - Responses (matched by the table's reply key) are rewritten back to VIP:port -> client
 *   (HALF_NAT, FULL_NAT; "Rewrite" with direction "response"); DSR responses that cross the
 *   ILB (the ILB is also the router) match nothing and go on by ordinary routing, uncounted.
 * - Everything else is ordinary traffic (Process returns false: PASS), as in illumos
 *   ilb_check ("If not, just let IP decide what to do with it"): a server's packet with no
 *   connection entry included (a direct client <-> server connection through the ILB).
 * - A disabled rule (SetRuleEnabled false, ilbadm disable-rule) matches, but its packets
 *   without a connection entry pass as ordinary traffic and are counted "not processed"
 *   (ilb_rule_hash: pkt_not_processed, bytes_not_processed); its connections carry on (the
 *   connection lookup comes first in ilb_check). A deleted rule (DeleteRule) matches nothing;
 *   its connections carry on until they end, or are cut after connDrainTimeout when > 0
 *   (ilb_rule_del_common sets the servers' die time).
 * - TCP: any segment without an entry opens one (illumos: "the server should return a RST",
 *   which the entry translates back). Entries go only at the cleanup ("CleanupInterval",
 *   15 s, ilb_conn_cleanup): a RST marks the entry (update_conn_tcp: conn_gc), a FIN records
 *   its sequence number, and the cleanup removes a marked entry, one whose two FINs the last
 *   ACKs acknowledge, or one idle longer than its rule's NAT timeout; until then later
 *   segments are translated as before, and a new SYN on the same 5-tuple (port reuse,
 *   SEQ_GT(seq, fss + 1)) keeps the entry, its server and its NAT port. Whenever an entry
 *   goes, its Full-NAT port and its sticky reference are released.
 * - Tables: with "CompactIpv4Table" IPv4 connections live in a compact IlbNatTable
 *   (GetNatTable(); at most 64 bytes per entry, all per-connection state included; idle times
 *   at millisecond granularity); otherwise, and always for IPv6, in an AdcConnectionTable
 *   (GetConnectionTable()) plus a per-flow map (about 300 bytes per entry).
 *   "ConnectionEnded" fires whenever an entry of either table goes.
 *
 * Drop reasons ("Drop", declared by AdcDatapath): truncated-transport-header,
 * malformed-transport-header, fragment-unsupported, no-server-up,
 * nat-ports-exhausted, connection-table-full, reply-key-collision, nat-table-endpoints-full,
 * bad-checksum, no-route,
 * server-not-on-link; ICMP to a VIP (ilb-appliance-icmp.cc, illumos ilb_icmp_v4/v6):
 * icmp-truncated, icmp-type-unsupported, icmp-no-connection. ICMP echo requests to a VIP are
 * answered by the ILB; frag-needed / packet-too-big for a NAT connection are translated (either
 * direction); IPv4 fragments to a VIP are dropped (fragment-unsupported), counted; IPv6
 * packets with a Fragment header pass (illumos ip_input_v6: ILB_SUPP_L4 fails on next header
 * 44, so ILB never sees them).
 *
 * Services and virtual servers (the shared object model, model/service/):
 * - each server of a rule is an AdcService (GetServerService(rule, i)): name, address, port
 *   (0, "the port the client addressed", is service type ANY with port "*"; otherwise TCP or
 *   UDP as the rule), weight (1..100). Its admin state is the server's enable-server /
 *   disable-server state (SetServerEnabled sets it; Enable()/Disable() on the service do the
 *   same); its health is what its bound AdcHealthMonitor objects say (AdcService::BindMonitor;
 *   IlbHelper binds its health check so). The ILB follows every service's "StateChange": a
 *   service going OUT OF SERVICE takes no new flows and drains its connections (cut after the
 *   rule's connDrainTimeout when > 0); a DOWN service is treated the same (illumos ilbd
 *   disables a server whose health check fails, as disable-server does). UNKNOWN (monitors
 *   bound, not all answered) counts as up, as ILB uses a server until a health check fails.
 * - each rule has its own AdcVirtualServer (GetRuleVServer(rule)): named after the rule, the
 *   rule's VIP, protocol as service type, port (0 = "*" for a port range), the rule's services
 *   bound in server order, LB method from AdcLbMethodRegistry (roundrobin with unequal weights
 *   is WEIGHTEDROUNDROBIN), the appliance's hash seed ("HashSeed": AdcDatapath::SetHashSeed
 *   reseeds every rule's method), "UnknownIsUp" true, persistence NONE. illumos's own
 *   algorithms (roundrobin with equal weights, hash-ip, hash-ip-port, hash-ip-vip) run in the
 *   rule (IlbAlgorithm, GetAlgorithm): a server added joins round robin's list at the head
 *   (ilb_alg_rr.c rr_server_add), one removed shrinks the hash table (ilb_alg_hash.c
 *   del_server), which the shared method, whose back-end indices never move, cannot do. The
 *   model's own methods are the virtual server's; its "Selection" trace fires for their every
 *   new flow (the algorithm runs before the sticky lookup).
 * - ILB's own parts stay in the rule and the appliance: port ranges (IlbRuleSet matches them),
 *   sticky sessions by masked source prefix (pmask) with a timeout in seconds (the
 *   appliance's IlbStickyTable, GetStickyTable), the three topologies and NAT, connection
 *   tracking, connDrainTimeout and the NAT timeouts.
 * - SetServerUp is a health report from outside the bound monitors (a test, an external
 *   checker): while reported down the server's service is unbound from the rule's virtual
 *   server (bound again, at the same back-end index, when reported up), and its connections
 *   drain as those of a DOWN service.
 *
 * The model is deterministic and uses no random variables.
 */
class IlbAppliance : public AdcDatapath
{
  public:
    /// Per-rule or per-server counters.
    struct Counters
    {
        uint64_t packetsIn{0};   //!< request packets forwarded (client -> server)
        uint64_t packetsOut{0};  //!< response packets handled (server -> client)
        uint64_t bytesIn{0};     //!< IP bytes of packetsIn (IP header included)
        uint64_t bytesOut{0};    //!< IP bytes of packetsOut
        uint64_t connections{0}; //!< entries opened (NAT); DSR: pure SYNs balanced
        uint64_t drops{0};       //!< packets dropped (any reason)
        uint64_t drained{0};     //!< connections cut by connDrainTimeout
        // Rule counters only (illumos kstats of the same names; ilb-appliance-icmp.cc):
        uint64_t icmpEchoProcessed{0};   //!< echo requests to the VIP answered by the ILB
        uint64_t icmpTooBigProcessed{0}; //!< frag-needed / packet-too-big translated
        uint64_t icmpTooBigDropped{0};   //!< frag-needed / packet-too-big without a connection
        uint64_t icmpDropped{0};         //!< other ICMP to the VIP, dropped
        uint64_t fragmentsDropped{0};    //!< IP fragments to the VIP, dropped (ip_frag_dropped)
        uint64_t packetsNotProcessed{0}; //!< to a disabled rule, passed (pkt_not_processed)
        uint64_t bytesNotProcessed{0};   //!< their IP bytes (bytes_not_processed)
        /// what ilb_check counts in pkt_dropped: no server, no NAT port, no entry (nomem)
        uint64_t pktDropped{0};
        uint64_t bytesDropped{0}; //!< their IP bytes (bytes_dropped)
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    IlbAppliance();
    ~IlbAppliance() override;

    /**
     * \brief Signature of "RuleMatch".
     * \param rule the rule's name
     * \param flow the request's 5-tuple as it arrived
     */
    typedef void (*RuleMatchTracedCallback)(const std::string& rule, const AdcFlowKey& flow);

    /**
     * \brief Signature of "ServerChosen".
     * \param rule the rule's name
     * \param flow the new flow's 5-tuple as it arrived
     * \param server the server's index in the rule
     * \param serverName the server's name
     */
    typedef void (*ServerChosenTracedCallback)(const std::string& rule,
                                               const AdcFlowKey& flow,
                                               uint32_t server,
                                               const std::string& serverName);

    /**
     * \brief Signature of "Rewrite".
     * \param rule the rule's name
     * \param direction "request" or "response"
     * \param before the 5-tuple as it arrived
     * \param after the 5-tuple as forwarded
     */
    typedef void (*RewriteTracedCallback)(const std::string& rule,
                                          const std::string& direction,
                                          const AdcFlowKey& before,
                                          const AdcFlowKey& after);

    /**
     * \brief Signature of "NatExhausted".
     * \param rule the rule's name
     */
    typedef void (*NatExhaustedTracedCallback)(const std::string& rule);

    /**
     * \brief Signature of "ConnectionEnded".
     * \param rule the rule's name
     * \param original the connection's client-side 5-tuple
     */
    typedef void (*ConnectionEndedTracedCallback)(const std::string& rule,
                                                  const AdcFlowKey& original);

    /**
     * \brief Validate and add a rule.
     * \param rule the rule
     * \return its index
     * \throws AdcConfigError naming the rule and the field: empty or duplicate name, no VIP,
     * protocol not 6/17, invalid port range, a VIP port range overlapping another rule's on
     * the same VIP and protocol, no servers, a server of another family or with a weight
     * outside 1..100 or a duplicate name, a VIP equal to a server address (this or another rule),
     * an unknown algorithm (lists the four), stickyPrefix longer than the address, a negative
     * timeout, and for FULL_NAT: NAT range unset, of another family, inverted, larger than 256
     * addresses, holding a VIP or server address, invalid natPorts, or a NAT address shared
     * with another rule that has different natPorts
     */
    uint32_t AddRule(const IlbRule& rule);

    /// \return number of rules
    uint32_t GetNRules() const;

    /// \param i rule index (out of range is an AdcConfigError) \return the rule as stored
    const IlbRule& GetRule(uint32_t i) const;

    /// \param name a rule name \return its index, or -1
    int32_t FindRule(const std::string& name) const;

    /**
     * \brief ilbadm enable-rule / disable-rule (illumos ilb_rule_enable / ilb_rule_disable):
     * a disabled rule's new flows pass as ordinary traffic, counted packetsNotProcessed; its
     * connections carry on (no drain cut).
     * \param rule rule index
     * \param enabled new state
     */
    void SetRuleEnabled(uint32_t rule, bool enabled);
    /// \param rule rule index \return enabled (and not deleted)
    bool IsRuleEnabled(uint32_t rule) const;
    /**
     * \brief ilbadm delete-rule (illumos ilb_rule_del): the rule matches nothing any more
     * (its packets pass, uncounted); its connections carry on until they end, or until the
     * rule's connDrainTimeout when > 0 (ilb_rule_del_common sets every server's die time).
     * The rule keeps its index, counters and (unusable) name.
     * \param rule rule index
     */
    void DeleteRule(uint32_t rule);
    /// \param rule rule index \return whether DeleteRule was called
    bool IsRuleDeleted(uint32_t rule) const;

    /**
     * \brief Health-check result reported directly (not by a monitor bound to the server's
     * service): a down server gets no new connections (its service is unbound from the rule's
     * virtual server); its existing connections carry on, cut after the rule's
     * connDrainTimeout when > 0, as when a bound monitor says DOWN or disable-server.
     * \param rule rule index
     * \param server server index in the rule
     * \param up new state
     */
    void SetServerUp(uint32_t rule, uint32_t server, bool up);

    /**
     * \brief Administrative enable/disable (ilbadm enable-server / disable-server): sets the
     * admin state of the server's service, which is the same as calling Enable() or Disable()
     * on GetServerService(rule, server). A disabled server gets no new connections; its
     * existing ones continue (connection draining) until they end or idle out, or, when the
     * rule's connDrainTimeout > 0, until the first cleanup after that time past the disable
     * (illumos iser_die_time, checked by ilb_conn_cleanup), when they are removed and counted
     * as drained. Enabling again cancels the pending cut.
     * \param rule rule index
     * \param server server index
     * \param enabled new state
     */
    void SetServerEnabled(uint32_t rule, uint32_t server, bool enabled);

    /**
     * \param rule rule index
     * \param server server index
     * \return the health state: reported up (SetServerUp) and the service's health from its
     * monitors not DOWN
     */
    bool IsServerUp(uint32_t rule, uint32_t server) const;
    /// \param rule rule index \param server server index \return the service's admin state
    bool IsServerEnabled(uint32_t rule, uint32_t server) const;

    /**
     * \brief ilbadm add-server on a rule already on the ILB (illumos ilb_server_add, which
     * works on a live rule): the server is validated as the kernel does (same family; a DSR
     * server's port must be the rule's; no address or name of a server of the rule twice,
     * EEXIST), gets the next index, its service joins the rule's virtual server, and the
     * algorithm takes it as rr_server_add (at the list's head) or hash_server_add (at
     * hash_tbl's end: the modulus grows) does.
     * \param rule rule index
     * \param server the server (name empty = "server<index>")
     * \return its index
     * \throws AdcConfigError naming the rule, the server and what is allowed
     */
    uint32_t AddServer(uint32_t rule, const IlbServer& server);
    /**
     * \brief ilbadm remove-server (illumos ilb_server_del): the algorithm forgets the server
     * (rr_server_del; hash del_server shrinks hash_tbl, so the modulus changes and most hash
     * flows move), it is marked disabled so a sticky entry naming it is not used, and its
     * connections carry on, cut after the rule's connDrainTimeout when > 0 (iser_die_time).
     * The server keeps its index (counters, show-*); it cannot be enabled again.
     * \param rule rule index
     * \param server server index
     */
    void RemoveServer(uint32_t rule, uint32_t server);
    /// \param rule rule index \param server server index \return whether RemoveServer was called
    bool IsServerRemoved(uint32_t rule, uint32_t server) const;
    /**
     * \param rule rule index
     * \return the rule's illumos algorithm state (roundrobin with equal weights, hash-ip,
     * hash-ip-port, hash-ip-vip), or null for the model's own methods (weighted round robin,
     * rendezvous, maglev), which its virtual server runs
     */
    const IlbAlgorithm* GetAlgorithm(uint32_t rule) const;

    /**
     * \param rule rule index
     * \param server server index
     * \return the server's service (admin state, monitors, "StateChange")
     */
    Ptr<AdcService> GetServerService(uint32_t rule, uint32_t server) const;

    /// \param rule rule index \return the virtual server the rule's new flows select through
    Ptr<AdcVirtualServer> GetRuleVServer(uint32_t rule) const;

    /// \param rule rule index \return the rule's counters
    Counters GetRuleCounters(uint32_t rule) const;
    /// \param rule rule index \param server server index \return the server's counters
    Counters GetServerCounters(uint32_t rule, uint32_t server) const;
    /// \param rule rule index \return how many new flows found every NAT port in use
    uint64_t GetNatExhausted(uint32_t rule) const;
    /// \param rule rule index \param server server index \return its connection entries now
    uint32_t GetActiveConnections(uint32_t rule, uint32_t server) const;

    /// \return the connection table of IPv6 flows, and of IPv4 ones unless CompactIpv4Table
    Ptr<AdcConnectionTable> GetConnectionTable() const;
    /// \return the compact NAT table of IPv4 flows (used when CompactIpv4Table is true)
    Ptr<IlbNatTable> GetNatTable() const;

    /**
     * \param compact attribute "CompactIpv4Table"
     * \throws AdcConfigError when changed while connections exist
     */
    void SetCompactIpv4Table(bool compact);
    /// \return whether IPv4 connections live in the compact IlbNatTable
    bool GetCompactIpv4Table() const;
    /// \return the sticky table of every rule (entries keyed by rule index)
    const IlbStickyTable& GetStickyTable() const;
    /// \return the Full-NAT source port spaces (one per NAT source and server pair)
    const IlbNatSourceTable& GetNatSources() const;

    /// \param n maximum connection entries, 0 = unlimited (attribute "MaxConnections")
    void SetMaxConnections(uint32_t n);
    /// \return the maximum number of connection entries
    uint32_t GetMaxConnections() const;

    /**
     * \brief The ILB uses no random variables.
     * \param stream first stream index
     * \return 0
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the algorithm names a rule accepts
    static std::vector<std::string> GetAlgorithmNames();

    /**
     * \brief The engine: decide and carry out what happens to a received packet.
     * \param in the packet
     * \param egress carries out the verdicts
     * \return true when the ILB took the packet (forwarded or dropped), false to leave it to
     * the other routing protocols
     */
    bool Process(const AdcIngress& in, AdcEgress& egress) override;

    /// \param os where to print the rules, servers and counters
    void Print(std::ostream& os) const override;

  protected:
    void DoDispose() override;

  private:
    using Conn = IlbConnectionStore::Conn;           //!< a live connection
    using Flow = IlbConnectionStore::Flow;           //!< a new connection's state
    using Direction = IlbConnectionStore::Direction; //!< packet direction

    /// One server's run-time state.
    struct ServerState
    {
        Ptr<AdcService> service; //!< the server as a service (admin state, health)
        bool reportedUp{true};   //!< SetServerUp's report
        bool inService{true};    //!< enabled and up, as last handled (drain edges)
        Time dieTime;            //!< iser_die_time: the cleanup cuts after it (0: none)
        bool removed{false};     //!< RemoveServer (ilb_server_del)
        Counters counters;       //!< counters
    };

    /// One rule's run-time state (the rule itself is in m_ruleSet, same index).
    struct RuleState
    {
        Ptr<AdcVirtualServer> vserver;    //!< the servers' services; selects for the
                                          //!< model's own methods
        std::shared_ptr<IlbAlgorithm> alg; //!< illumos's algorithm state, or null
        std::vector<ServerState> servers; //!< per server
        bool enabled{true};               //!< enable-rule / disable-rule
        bool deleted{false};              //!< delete-rule
        Counters counters;                //!< rule counters
        uint64_t natExhausted{0};         //!< failed NAT allocations
        Time natTimeout;                  //!< effective NAT timeout
    };

    /// \param i rule index \return the rule as stored
    const IlbRule& Rule(uint32_t i) const;
    /// \param rule rule index \param server server index \param what operation (errors)
    void CheckIndex(uint32_t rule, uint32_t server, const char* what) const;
    /**
     * \brief Make the services and the virtual server of a stored rule.
     * \param rule the rule as stored
     * \param index its index
     * \param st its run-time state (filled)
     */
    void MakeServices(const IlbRule& rule, uint32_t index, RuleState& st);
    /**
     * \brief Make a server's service and bind it to the rule's virtual server.
     * \param rule the rule as stored \param index its index \param k the server's index
     * \param st the rule's run-time state (a ServerState is appended)
     */
    void MakeServerService(const IlbRule& rule, uint32_t index, uint32_t k, RuleState& st);
    /**
     * \brief A server's service changed state ("StateChange"): see ServerStateChanged.
     * \param context "<rule> <server>"
     * \param name the service's name
     * \param oldState its state before
     * \param newState its state now
     */
    void ServiceStateChanged(std::string context,
                             const std::string& name,
                             AdcService::State oldState,
                             AdcService::State newState);
    /**
     * \brief A server's admin state or health may have changed: when it went out of service
     * (disabled, or health down) start its conn-drain cut; back in service, cancel it.
     * \param rule rule index
     * \param server server index
     */
    void ServerStateChanged(uint32_t rule, uint32_t server);
    /// \param rule rule index \param service a service \return its server index, or -1
    int32_t FindServer(uint32_t rule, const Ptr<AdcService>& service) const;

    /// Request of an existing connection. \return true (claimed)
    bool ProcessRequest(const Conn& c, const AdcIngress& in, AdcEgress& egress);
    /// Response of an existing connection. \return what Process returns
    bool ProcessResponse(const Conn& c, const AdcIngress& in, AdcEgress& egress);
    /// New flow for \p rule. \return true (claimed)
    bool ProcessNewFlow(uint32_t rule, const AdcIngress& in, AdcEgress& egress);
    /// A packet of DSR rule \p rule: balanced and forwarded, no entry. \return true (claimed)
    bool ProcessDsr(uint32_t rule, const AdcIngress& in, AdcEgress& egress);
    /// ICMP and IP fragments (ilb-appliance-icmp.cc). \return what Process returns
    bool ProcessNoPorts(const AdcIngress& in, AdcEgress& egress);
    /// ICMP to \p rule's VIP: echo answered, too-big translated, others dropped. \return true
    bool ProcessIcmpToVip(uint32_t rule, const AdcIngress& in);
    /// Too-big from the server side for a NAT connection, to its client. \return claimed
    bool ProcessIcmpTooBigToClient(const AdcIngress& in);
    /// \param address an address \return the first rule whose VIP it is (any protocol), or -1
    int32_t FindVipRule(const AdcIpAddress& address) const;
    /// \param icmp an ICMP message \param src source \param dst destination \return "" or why not
    std::string SendIcmp(Ptr<Packet> icmp, const AdcIpAddress& src, const AdcIpAddress& dst);
    /**
     * \brief Send a packet of a connection; count it, or drop it when sending fails.
     * \param rule rule index
     * \param server server index
     * \param v how to send it (FORWARD or REWRITE)
     * \param in the packet
     * \param request true for the client -> server direction
     * \param egress the hook's sender
     * \return true when sent
     */
    bool Forward(uint32_t rule,
                 uint32_t server,
                 const AdcVerdict& v,
                 const AdcIngress& in,
                 bool request,
                 AdcEgress& egress);
    /// \param rule rule index \param server server index \return up and enabled
    bool IsAvailable(uint32_t rule, uint32_t server) const;
    /**
     * \brief ilb_check's choice: the algorithm, then ilb_sticky_find_add.
     * \param rule rule index
     * \param flow new flow
     * \param now the time
     * \param[out] sticky the sticky entry now holding a reference for the flow (null when the
     *        rule is not sticky)
     * \return server index or -1 (none available)
     */
    int32_t ChooseServer(uint32_t rule,
                         const AdcFlowKey& flow,
                         Time now,
                         IlbStickyTable::Entry*& sticky);
    /**
     * \param rule rule index
     * \param sticky the flow's sticky entry, or null
     * \param[out] flow gets natAddress/natPort
     * \return false if exhausted
     */
    bool AllocateNat(uint32_t rule, const IlbStickyTable::Entry* sticky, Flow& flow);
    /// Make sure a cleanup (ilb_conn_cleanup, ilb_sticky_cleanup) is scheduled.
    void ScheduleCleanup();
    /// The periodic cleanup: idle connections, unreferenced expired sticky entries.
    void Cleanup();
    /**
     * \param rule rule index
     * \param server server index
     * \param flow the client's 5-tuple
     * \param nat the NAT flow state (FULL_NAT)
     * \return the 5-tuple the server sees
     */
    AdcFlowKey Translate(uint32_t rule,
                         uint32_t server,
                         const AdcFlowKey& flow,
                         const Flow& nat) const;
    /**
     * \brief A connection's entry went (either table): trace it, release its Full-NAT port
     * and its sticky reference.
     * \param rule its rule
     * \param server its server
     * \param original its client-side key
     * \param translated its server-side key
     */
    void ConnectionGone(uint32_t rule,
                        uint32_t server,
                        const AdcFlowKey& original,
                        const AdcFlowKey& translated);
    /// \param rule rule \param server server or -1 \param packet packet \param reason reason
    void Drop(int32_t rule, int32_t server, Ptr<const Packet> packet, const std::string& reason);
    /// \param rule rule \param bytes the packet's IP bytes: ilb_check's pkt_dropped, bytes_dropped
    void CountDropped(uint32_t rule, uint32_t bytes);
    /// \param rule rule \param server server \param bytes IP bytes \param in request direction
    void Count(uint32_t rule, uint32_t server, uint32_t bytes, bool in);

    IlbRuleSet m_ruleSet;            //!< the rules, validated, indexed
    std::vector<RuleState> m_rules;  //!< their run-time state
    IlbNatSourceTable m_natSources;  //!< Full-NAT port spaces per (NAT source, server)
    IlbStickyTable m_sticky;         //!< sticky entries of every rule
    Ptr<IlbConnectionStore> m_conns; //!< the connections
    uint32_t m_maxConnections;       //!< "MaxConnections"
    Time m_cleanupInterval;          //!< "CleanupInterval"
    bool m_icmpTooBigFromServers{false}; //!< "IcmpTooBigFromServers"
    bool m_icmpQuoteChecksums{false};    //!< "IcmpQuoteChecksums"
    Time m_cleanupBase;              //!< the cleanup's phase: when the first rule was added
    EventId m_cleanupEvent;          //!< the next cleanup

    TracedCallback<const std::string&, const AdcFlowKey&> m_ruleMatchTrace; //!< "RuleMatch"
    TracedCallback<const std::string&, const AdcFlowKey&, uint32_t, const std::string&>
        m_serverChosenTrace; //!< "ServerChosen"
    TracedCallback<const std::string&, const std::string&, const AdcFlowKey&, const AdcFlowKey&>
        m_rewriteTrace;                                     //!< "Rewrite"
    TracedCallback<const std::string&> m_natExhaustedTrace; //!< "NatExhausted"
    TracedCallback<const std::string&, const AdcFlowKey&>
        m_connectionEndedTrace; //!< "ConnectionEnded"
};

} // namespace ns3

#endif /* ILB_APPLIANCE_H */
