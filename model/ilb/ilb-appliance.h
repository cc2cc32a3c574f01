/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB), seed 001. One IlbAppliance per
 * ILB node holds the rules, the NAT/connection table, the sticky tables and the counters, and
 * makes every decision; two thin routing-protocol adapters (IPv4 and IPv6) hook it into the
 * node's datapath (Ipv4ListRouting / Ipv6ListRouting, top priority).
 */

#ifndef ILB_APPLIANCE_H
#define ILB_APPLIANCE_H

#include "ilb-nat-table.h"

#include "ns3/adc-connection-table.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-port-range.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class AdcLbMethod;
class Ipv4RoutingProtocol;
class Ipv6RoutingProtocol;
class IlbIpv4Routing;
class IlbIpv6Routing;

/**
 * \ingroup adc
 * \brief One back-end server of an ILB rule.
 */
struct IlbServer
{
    std::string name;     //!< e.g. "srv1"; empty = "server<index>" (filled in by AddRule)
    AdcIpAddress address; //!< the back-end's real address (same family as the VIP)
    uint16_t port{0};     //!< 0 = the port the client addressed (no port rewrite)
    uint32_t weight{1};   //!< relative share (>= 1; hash methods honour it, roundrobin too
                          //!< when not all weights are 1: smooth weighted round robin)
};

/**
 * \ingroup adc
 * \brief One ILB load-balancing rule (ilbadm create-rule).
 */
struct IlbRule
{
    /// The ILB topologies.
    enum Topology : uint8_t
    {
        DSR,      //!< direct server return: only the destination MAC changes
        HALF_NAT, //!< destination IP and port rewritten; the client IP stays the source
        FULL_NAT  //!< source rewritten to a NAT source address and port, destination too
    };

    std::string name;                    //!< "rule1" (unique)
    AdcIpAddress vip;                    //!< IPv4 or IPv6 virtual IP
    uint8_t protocol{6};                 //!< 6 TCP or 17 UDP
    AdcPortRange ports{80, 80};          //!< VIP port or range
    Topology topology{HALF_NAT};         //!< topology
    std::string algorithm{"roundrobin"}; //!< roundrobin, hash-ip, hash-ip-port, hash-ip-vip
    std::vector<IlbServer> servers;      //!< back-ends (at least one)
    AdcIpAddress natSourceFirst;         //!< FULL_NAT: first NAT source address
    AdcIpAddress natSourceLast;          //!< FULL_NAT: last NAT source address (inclusive)
    AdcPortRange natPorts{1024, 65535};  //!< FULL_NAT: ports per NAT source address
    bool sticky{false};                  //!< persistence by source address
    uint8_t stickyPrefix{32};            //!< pmask: /24 makes a client /24 stick together
    Time persistTimeout{Seconds(60)};    //!< ILB's persist-timeout default
    Time natTimeout{Seconds(0)};         //!< 0 = ILB defaults: TCP 120 s, UDP 60 s
    Time connDrainTimeout{Seconds(0)};   //!< 0 = drained connections run to their end

    /// \param t a topology \return "DSR", "HALF_NAT" or "FULL_NAT"
    static std::string TopologyToString(Topology t);
};

/**
 * \ingroup adc
 * \brief The Integrated Load Balancer of one node: rules, NAT table, decisions, counters.
 *
 * Datapath (RouteInput of the adapters GetIpv4Routing() / GetIpv6Routing(), which both feed
 * one family-independent engine working on AdcFlowKey):
 * - A TCP/UDP packet to a rule's VIP, protocol and port range is a request ("RuleMatch"
 *   fires for each). A new flow (TCP: a SYN without ACK; UDP: any datagram) gets a server:
 *   the sticky entry of its source prefix when that server is up and enabled, else the
 *   rule's algorithm over the up and enabled servers ("ServerChosen", once per new flow).
 *   Existing flows (the connection table, 5-tuple) keep their server.
 * - DSR: the packet is forwarded unchanged with the server's address as next hop (only the
 *   destination MAC changes). HALF_NAT: destination rewritten to the server's address:port.
 *   FULL_NAT: also the source, to a NAT source address (round robin over the range) and a
 *   port of natPorts (an AdcPortAllocator per NAT address, shared by the rules using it).
 * - Responses (matched by the table's reply key) are rewritten back to VIP:port -> client
 *   (HALF_NAT, FULL_NAT; "Rewrite" with direction "response"); DSR responses that cross the
 *   ILB (the ILB is also the router) are counted and left unchanged to ordinary routing.
 * - Everything else is ordinary traffic (RouteInput returns false).
 * - TCP: only a SYN opens a connection. The entry is removed at a RST; once both FINs are
 *   acknowledged (sequence numbers checked) it lingers "TcpTimeWait" (default 2 s) for
 *   segments still in flight, then goes; otherwise it goes after the rule's NAT timeout of
 *   idleness. Whenever an entry goes, its Full-NAT port is released.
 * - Tables: with "CompactIpv4Table" IPv4 connections live in a compact IlbNatTable
 *   (GetNatTable(); about 75 bytes per entry, all per-connection state included; idle times
 *   at millisecond granularity); otherwise, and always for IPv6, in an AdcConnectionTable
 *   (GetConnectionTable()) plus a per-flow map (about 300 bytes per entry).
 *   "ConnectionEnded" fires whenever an entry of either table goes.
 *
 * Drop reasons ("Drop"): truncated-transport-header, malformed-transport-header,
 * fragment-unsupported, no-connection, no-server-up, server-down, nat-ports-exhausted,
 * connection-table-full, reply-key-collision, bad-checksum, no-route, server-not-on-link.
 *
 * The model is deterministic and uses no random variables.
 */
class IlbAppliance : public Object
{
  public:
    /// Per-rule or per-server counters.
    struct Counters
    {
        uint64_t packetsIn{0};   //!< request packets forwarded (client -> server)
        uint64_t packetsOut{0};  //!< response packets handled (server -> client)
        uint64_t bytesIn{0};     //!< IP bytes of packetsIn (IP header included)
        uint64_t bytesOut{0};    //!< IP bytes of packetsOut
        uint64_t connections{0}; //!< new flows given a server
        uint64_t drops{0};       //!< packets dropped (any reason)
        uint64_t drained{0};     //!< connections cut by connDrainTimeout
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
     * \brief Signature of "Drop".
     * \param packet the dropped packet (without its IP header)
     * \param reason why, e.g. "no-server-up"
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

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
     * the same VIP and protocol, no servers, a server of another family or with weight 0 or
     * a duplicate name, a VIP equal to a server address (this or another rule), an unknown
     * algorithm (lists the four), stickyPrefix longer than the address, a negative timeout,
     * and for FULL_NAT: NAT range unset, of another family, inverted, larger than 256
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
     * \brief Health-check result: a down server gets no new connections, and its existing
     * connections are removed at their next packet (dropped, "server-down").
     * \param rule rule index
     * \param server server index in the rule
     * \param up new state
     */
    void SetServerUp(uint32_t rule, uint32_t server, bool up);

    /**
     * \brief Administrative enable/disable. A disabled server gets no new connections; its
     * existing ones continue (connection draining) until they end or idle out, or, when the
     * rule's connDrainTimeout > 0, until that time after the disable, when they are removed
     * and counted as drained. Enabling again cancels the pending cut.
     * \param rule rule index
     * \param server server index
     * \param enabled new state
     */
    void SetServerEnabled(uint32_t rule, uint32_t server, bool enabled);

    /// \param rule rule index \param server server index \return the health state
    bool IsServerUp(uint32_t rule, uint32_t server) const;
    /// \param rule rule index \param server server index \return the administrative state
    bool IsServerEnabled(uint32_t rule, uint32_t server) const;

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
    /// \param rule rule index \return the rule's sticky table
    Ptr<AdcPersistenceTable> GetPersistenceTable(uint32_t rule) const;
    /// \param address a NAT source address \return its port allocator, or null when unknown
    Ptr<AdcPortAllocator> GetNatPortAllocator(const AdcIpAddress& address) const;

    /// \return the IPv4 datapath hook; add it to the node's Ipv4ListRouting (priority 100)
    Ptr<Ipv4RoutingProtocol> GetIpv4Routing();
    /// \return the IPv6 datapath hook; add it to the node's Ipv6ListRouting (priority 100)
    Ptr<Ipv6RoutingProtocol> GetIpv6Routing();

    /// \param seed per-device hash seed of the hash algorithms (attribute "HashSeed")
    void SetHashSeed(uint64_t seed);
    /// \return the hash seed
    uint64_t GetHashSeed() const;

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

  protected:
    void DoDispose() override;

  private:
    template <class Family, class Self>
    friend class IlbRoutingHook; // the IPv4 and IPv6 datapath hooks

    /// What the start of a packet's transport header gave.
    enum class TransportStatus : uint8_t
    {
        NO_PORTS,  //!< not TCP/UDP
        OK,        //!< ports (and TCP flags) read
        TRUNCATED, //!< shorter than its transport header
        MALFORMED, //!< TCP data offset impossible
        FRAGMENT   //!< an IP fragment: no whole transport header
    };

    /// A received packet as the adapters describe it to the engine.
    struct Ingress
    {
        AdcFlowKey flow;                                   //!< 5-tuple (ports 0 unless OK)
        TransportStatus status{TransportStatus::NO_PORTS}; //!< transport header status
        uint8_t tcpFlags{0};                               //!< TCP flags (OK TCP only)
        uint32_t tcpSeq{0};                                //!< TCP sequence number
        uint32_t tcpAck{0};                                //!< TCP acknowledgement number
        uint32_t tcpPayload{0};   //!< TCP payload bytes (after the header and options)
        uint32_t bytes{0};        //!< IP bytes
        Ptr<const Packet> packet; //!< the packet (no IP header)
    };

    /// How the engine wants a packet sent.
    struct Egress
    {
        AdcFlowKey before;    //!< the 5-tuple as it arrived
        AdcFlowKey after;     //!< the 5-tuple to send
        AdcIpAddress gateway; //!< DSR: the server (next hop); unset: route to after.dst
        bool rewrite{false};  //!< addresses/ports change (NAT)
    };

    /// Sends a packet as told; returns "" or a drop reason.
    using SendFn = std::function<std::string(const Egress&)>;

    /// One server's run-time state.
    struct ServerState
    {
        bool up{true};        //!< health
        bool enabled{true};   //!< administrative state
        uint64_t drainGen{0}; //!< bumps at every state change (stale cuts do nothing)
        EventId drainEvent;   //!< pending connDrainTimeout cut
        Counters counters;    //!< counters
    };

    /// One rule and its run-time state.
    struct RuleState
    {
        IlbRule rule;                           //!< as stored
        Ptr<AdcLbMethod> lb;                    //!< the algorithm
        Ptr<AdcPersistenceTable> sticky;        //!< sticky table
        std::vector<ServerState> servers;       //!< per server
        Counters counters;                      //!< rule counters
        uint64_t natExhausted{0};               //!< failed NAT allocations
        std::vector<AdcIpAddress> natAddresses; //!< FULL_NAT source addresses
        uint32_t natCursor{0};                  //!< next NAT address to try
        uint32_t serverBase{0};                 //!< global id of server 0 (table's backend)
        Time natTimeout;                        //!< effective NAT timeout
    };

    /// What the ILB keeps per IPv6 connection besides the table entry (IPv4: in the record).
    struct Flow
    {
        uint32_t rule{0};         //!< rule index
        uint32_t server{0};       //!< server index
        AdcIpAddress natAddress;  //!< FULL_NAT source address (unset otherwise)
        uint16_t natPort{0};      //!< FULL_NAT source port
        Time lastSeen;            //!< for the rule's NAT timeout
        uint8_t tcp{0};           //!< TCP end state: IlbNatTable::Flags bits (FIN_*, CLOSED)
        uint32_t finAck[2]{0, 0}; //!< per direction: the ACK number that acknowledges its FIN
        uint64_t id{0};           //!< unique per flow (a closed 5-tuple may be reused)
    };

    /// A live connection as the engine sees it, whichever table holds it.
    struct Conn
    {
        uint32_t nat{IlbNatTable::NONE}; //!< IPv4: the NAT table record; NONE: IPv6
        AdcFlowKey original;             //!< client-side key
        AdcFlowKey translated;           //!< server-side key
        uint32_t rule{0};                //!< rule index
        uint32_t server{0};              //!< server index
        uint8_t* tcp{nullptr};           //!< TCP end state (valid until the table changes)
        uint32_t* finAck{nullptr};       //!< the FINs' ACK numbers (valid likewise)
    };

    /// What a TCP segment means for its connection's end.
    enum class TcpEnd : uint8_t
    {
        OPEN,   //!< still open
        CLOSED, //!< both FINs acknowledged
        RESET   //!< a RST
    };

    /// Packet directions (TCP state tracking).
    enum Direction : uint8_t
    {
        FROM_CLIENT = 0,
        FROM_SERVER = 1
    };

    /**
     * \brief Describe a received packet for the engine (reads at most its transport header).
     * \param src IP source
     * \param dst IP destination
     * \param protocol IP protocol (or IPv6 next header)
     * \param p the packet without its IP header
     * \param fragment true for an IP fragment (no whole transport header)
     * \param ipHeaderBytes size of the IP header (for byte counters)
     * \return the description
     */
    static Ingress Describe(const AdcIpAddress& src,
                            const AdcIpAddress& dst,
                            uint8_t protocol,
                            Ptr<const Packet> p,
                            bool fragment,
                            uint32_t ipHeaderBytes);
    /// \param os where to print the rules, servers and counters
    void Print(std::ostream& os) const;
    /// \param rule a rule \param index its index \return "IlbAppliance: rule 'name'"
    static std::string Who(const IlbRule& rule, uint32_t index);
    /// \param rule the rule to check (names of servers may be filled in) \param index index
    void CheckRule(IlbRule& rule, uint32_t index) const;
    /// \param rule a FULL_NAT rule \param index its index \return its NAT source addresses
    std::vector<AdcIpAddress> CheckNatRange(const IlbRule& rule, uint32_t index) const;
    /// \param rule rule index \param server server index \param what operation (errors)
    void CheckIndex(uint32_t rule, uint32_t server, const char* what) const;
    /// Set the table's idle timeouts to the largest NAT timeout of each protocol.
    void UpdateTableTimeouts();
    /// \param rule rule index \param server server index: tell the algorithm
    void UpdateAvailability(uint32_t rule, uint32_t server);

    /**
     * \brief The engine: decide and carry out what happens to a received packet.
     * \param in the packet
     * \param send how to send it
     * \return true when the ILB took the packet (forwarded or dropped), false to leave it to
     * the other routing protocols
     */
    bool Process(const Ingress& in, const SendFn& send);
    /// Request of an existing connection. \return true (claimed)
    bool ProcessRequest(const Conn& c, const Ingress& in, const SendFn& send);
    /// Response of an existing connection. \return what Process returns
    bool ProcessResponse(const Conn& c, const Ingress& in, const SendFn& send);
    /// New flow for \p rule. \return true (claimed)
    bool ProcessNewFlow(uint32_t rule, const Ingress& in, const SendFn& send);
    /**
     * \brief Send a packet of a connection; count it, or drop it when sending fails.
     * \param rule rule index
     * \param server server index
     * \param e how to send it
     * \param in the packet
     * \param request true for the client -> server direction
     * \param send the adapter's sender
     * \return true when sent
     */
    bool Forward(uint32_t rule,
                 uint32_t server,
                 const Egress& e,
                 const Ingress& in,
                 bool request,
                 const SendFn& send);
    /// \param rule rule index \param server server index \return up and enabled
    bool IsAvailable(uint32_t rule, uint32_t server) const;

    /**
     * \brief Look a packet's connection up in its family's table.
     * \param k the packet's 5-tuple
     * \param reply false: as a request (original key); true: as a response (reply key)
     * \param now current time
     * \param[out] c the connection
     * \return false when absent, or when it outlived its rule's NAT timeout (then removed)
     */
    bool FindConn(const AdcFlowKey& k, bool reply, Time now, Conn& c);
    /**
     * \param original a connection's client-side key
     * \param[out] tcp its TCP end state
     * \param[out] id its unique id (IPv4: the record's serial)
     * \return false when there is no such connection
     */
    bool FindTcpState(const AdcFlowKey& original, uint8_t*& tcp, uint64_t& id);
    /// \param original the client-side key of a connection to remove (either table)
    void RemoveConn(const AdcFlowKey& original);
    /// \param k a 5-tuple \return true when its connection belongs in the IlbNatTable
    bool UsesNat(const AdcFlowKey& k) const;
    /// \return connection entries of both tables
    uint32_t GetConnectionCount() const;
    /// \param flow a request's 5-tuple \return the rule whose VIP, protocol and ports match, or -1
    int32_t MatchRule(const AdcFlowKey& flow) const;
    /// \param flow a 5-tuple with unknown ports \return a rule whose VIP and protocol match, -1
    int32_t MatchVip(const AdcFlowKey& flow) const;
    /**
     * \brief A packet that looks like a response of a NAT rule without a connection: from a
     * HALF_NAT server's service port, or to a FULL_NAT source address.
     * \param flow the 5-tuple (ports may be 0 when unknown)
     * \param portsKnown whether the ports are meaningful
     * \param[out] server the server index, or -1
     * \return the rule, or -1
     */
    int32_t MatchOrphan(const AdcFlowKey& flow, bool portsKnown, int32_t& server) const;
    /**
     * \brief Insert a new connection in its family's table (IPv6: and its Flow).
     * \param original client-side key
     * \param translated server-side key
     * \param f the flow's state (rule, server, NAT)
     * \param now current time
     * \return "" or the drop reason (connection-table-full, reply-key-collision)
     */
    std::string InsertConn(const AdcFlowKey& original,
                           const AdcFlowKey& translated,
                           const Flow& f,
                           Time now);
    /// \param rule rule index \param flow new flow \return server index or -1 (none available)
    int32_t ChooseServer(uint32_t rule, const AdcFlowKey& flow, Time now);
    /// \param rule rule index \param[out] flow gets natAddress/natPort \return false if exhausted
    bool AllocateNat(uint32_t rule, Flow& flow);
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
     * \brief Follow a TCP connection's end: a RST, or both FINs each acknowledged by the
     * other side (sequence numbers compared, so segments still in flight do not count).
     * \param c the connection (its TCP state is updated)
     * \param dir the packet's direction
     * \param in the packet
     * \return true when the connection ends with this packet
     */
    static TcpEnd TrackTcp(const Conn& c, Direction dir, const Ingress& in);
    /**
     * \brief After a packet of \p original: end its entry now (RST) or after "TcpTimeWait"
     * (both FINs acknowledged), so segments still in flight find it.
     * \param original the connection's client-side key
     * \param end what TrackTcp said
     */
    void EndConnection(const AdcFlowKey& original, TcpEnd end);
    /// \param original a closed connection's key \param id its flow id: remove it if still there
    void TimeWaitOver(AdcFlowKey original, uint64_t id);
    /// \param entry the table entry that went away (expired or removed): release what it held
    void ForgetFlow(const AdcConnectionTable::Entry& entry);
    /// \param index the IPv4 record about to go (expired or removed): release its NAT port
    void ForgetNat(uint32_t index, bool);
    /// \param rule rule index \param server server index \param gen state generation: cut
    void DrainDeadline(uint32_t rule, uint32_t server, uint64_t gen);
    /// \param rule rule \param server server or -1 \param packet packet \param reason reason
    void Drop(int32_t rule, int32_t server, Ptr<const Packet> packet, const std::string& reason);
    /// \param rule rule \param server server \param bytes IP bytes \param in request direction
    void Count(uint32_t rule, uint32_t server, uint32_t bytes, bool in);

    std::vector<RuleState> m_rules; //!< rules
    std::unordered_map<AdcIpAddress, std::vector<uint32_t>, AdcIpAddressHasher>
        m_byVip; //!< VIP -> rules
    /// HALF_NAT server address -> (rule, server) pairs, for orphan responses
    std::unordered_map<AdcIpAddress, std::vector<std::pair<uint32_t, uint32_t>>, AdcIpAddressHasher>
        m_halfNatServers;
    std::unordered_map<AdcIpAddress, uint32_t, AdcIpAddressHasher> m_natOwner; //!< NAT addr -> rule
    std::map<AdcIpAddress, Ptr<AdcPortAllocator>> m_natPorts;       //!< NAT address -> ports
    std::unordered_map<AdcFlowKey, Flow, AdcFlowKeyHasher> m_flows; //!< original key -> flow
    uint32_t m_nServers{0};                                         //!< servers of all rules
    Ptr<AdcConnectionTable> m_table;                                //!< IPv6 NAT table
    Ptr<IlbNatTable> m_nat;                                         //!< IPv4 NAT table
    std::vector<std::pair<uint32_t, uint32_t>> m_serverOwner;       //!< global id -> rule, server
    Ptr<IlbIpv4Routing> m_ipv4Routing;                              //!< IPv4 hook
    Ptr<IlbIpv6Routing> m_ipv6Routing;                              //!< IPv6 hook
    uint64_t m_hashSeed;                                            //!< "HashSeed"
    uint32_t m_maxConnections;                                      //!< "MaxConnections"
    Time m_tcpTimeWait;                                             //!< "TcpTimeWait"
    uint64_t m_nextFlowId{1};                                       //!< flow ids
    bool m_compactIpv4{true};                                       //!< "CompactIpv4Table"

    TracedCallback<const std::string&, const AdcFlowKey&> m_ruleMatchTrace; //!< "RuleMatch"
    TracedCallback<const std::string&, const AdcFlowKey&, uint32_t, const std::string&>
        m_serverChosenTrace; //!< "ServerChosen"
    TracedCallback<const std::string&, const std::string&, const AdcFlowKey&, const AdcFlowKey&>
        m_rewriteTrace;                                                //!< "Rewrite"
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< "Drop"
    TracedCallback<const std::string&> m_natExhaustedTrace;            //!< "NatExhausted"
    TracedCallback<const std::string&, const AdcFlowKey&>
        m_connectionEndedTrace; //!< "ConnectionEnded"
};

} // namespace ns3

#endif /* ILB_APPLIANCE_H */
