/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc ILB (seed 001): where the ILB keeps its connections. IPv4 ones live in the compact
 * IlbNatTable (CompactIpv4Table) and the rest in an AdcConnectionTable plus a per-flow map;
 * the store hides which, follows each TCP connection to its end and says when an entry goes.
 */

#ifndef ILB_CONNECTION_STORE_H
#define ILB_CONNECTION_STORE_H

#include "ilb-nat-table.h"

#include "ns3/adc-connection-table.h"
#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The ILB's connections in whichever table holds them, with their TCP end tracking.
 *
 * Servers have global ids (in the order AddRule and AddServer register them): the tables
 * count and remove connections by them. The per-rule NAT timeouts are the IlbAppliance's; the
 * store's Cleanup (the appliance's 15 s timer) enforces them.
 */
class IlbConnectionStore : public SimpleRefCount<IlbConnectionStore>
{
  public:
    /// A new connection's state (IPv6: kept beside the table entry; IPv4: in the record).
    struct Flow
    {
        uint32_t rule{0};         //!< rule index
        uint32_t server{0};       //!< server index
        AdcIpAddress natAddress;  //!< FULL_NAT source address (unset otherwise)
        uint16_t natPort{0};      //!< FULL_NAT source port
        Time lastSeen;            //!< for the rule's NAT timeout
        uint8_t tcp{0};           //!< TCP state: IlbNatTable::Flags bits (FIN_*, ACK_PAST_*, RST)
        uint32_t finAck[2]{0, 0}; //!< per direction: its FIN's sequence number (fss)
    };

    /// A live connection, whichever table holds it.
    struct Conn
    {
        uint32_t nat{IlbNatTable::NONE}; //!< IPv4 compact: the NAT table record; else NONE
        AdcFlowKey original;             //!< client-side key
        AdcFlowKey translated;           //!< server-side key
        uint32_t rule{0};                //!< rule index
        uint32_t server{0};              //!< server index
        uint8_t* tcp{nullptr};           //!< TCP end state (valid until the table changes)
        uint32_t* finAck{nullptr};       //!< the FINs' sequence numbers (valid likewise)
    };

    /// Packet directions (TCP state tracking).
    enum Direction : uint8_t
    {
        FROM_CLIENT = 0, //!< request
        FROM_SERVER = 1  //!< response
    };

    /**
     * Called whenever a connection's entry goes (idle expiry, close, reset, removal).
     * \param rule the connection's rule
     * \param server its server index in the rule
     * \param original its client-side key
     * \param translated its server-side key (FULL_NAT: the NAT address and port it held)
     */
    using EndedCallback = std::function<void(uint32_t rule,
                                             uint32_t server,
                                             const AdcFlowKey& original,
                                             const AdcFlowKey& translated)>;

    IlbConnectionStore();
    ~IlbConnectionStore();

    /// \param cb called whenever an entry goes
    void SetEndedCallback(EndedCallback cb);

    /// \param protocol 6 or 17 \return ILB's default NAT timeout: TCP 120 s, UDP 60 s
    static Time GetDefaultNatTimeout(uint8_t protocol);

    /**
     * \brief Register a rule's servers and NAT timeout (rules are registered in index order).
     * \param protocol the rule's protocol (the tables keep entries as long as the longest NAT
     *        timeout of their protocol; shorter ones are enforced at lookup)
     * \param nServers its servers
     * \param natTimeout its effective NAT timeout
     */
    void AddRule(uint8_t protocol, uint32_t nServers, Time natTimeout);
    /// \param rule a registered rule: one more server (the next index), with a new global id
    void AddServer(uint32_t rule);

    /**
     * \brief Look a packet's connection up in its family's table (illumos ilb_find_conn: the
     * entry is used whatever its idle time or TCP state; only the cleanup removes it).
     * \param k the packet's 5-tuple
     * \param reply false: as a request (original key); true: as a response (reply key)
     * \param now current time
     * \param[out] c the connection
     * \return false when absent
     */
    bool Find(const AdcFlowKey& k, bool reply, Time now, Conn& c);

    /**
     * \brief Insert a new connection in its family's table.
     * \param original client-side key
     * \param translated server-side key
     * \param f the flow's state (rule, server, NAT)
     * \param now current time
     * \return "" or the drop reason (connection-table-full, reply-key-collision,
     * nat-table-endpoints-full)
     */
    std::string Insert(const AdcFlowKey& original,
                       const AdcFlowKey& translated,
                       const Flow& f,
                       Time now);

    /// \param original the client-side key of a connection to remove (either table)
    void Remove(const AdcFlowKey& original);

    /**
     * \brief illumos ilb_conn.c update_conn_tcp: a RST marks the connection for the cleanup
     * (conn_gc); a FIN records its sequence number (fss = seq + seg_len) and "fin sent"; the
     * segment's ACK is the direction's last ACK, which the cleanup compares with the other
     * direction's fss (kept here as the ACK_PAST_FIN_* bit); a segment SEQ_GT fss + 1 after
     * a FIN is the client reusing the port: "restart the conn" (fin sent and acked cleared),
     * same server, same NAT port.
     * \param c the connection (its TCP state is updated)
     * \param dir the packet's direction
     * \param in the packet
     */
    static void TrackTcp(const Conn& c, Direction dir, const AdcIngress& in);

    /**
     * \param flags a connection's TCP state \return ilb_conn_cleanup's TCP verdict: the FIN
     * acked bits it sets (from the last ACKs), and whether both FINs are now acknowledged
     */
    static bool CleanupTcp(uint8_t& flags);

    /// \param rule rule index \param server server index \return its connections removed
    uint32_t RemoveServer(uint32_t rule, uint32_t server);
    /**
     * \brief ilb_conn_cleanup over every connection: remove those marked by a RST
     * (conn_gc), those idle for longer than their rule's NAT timeout ("conn_c2s_atime < expiry
     * && conn_s2c_atime < expiry"), and TCP ones whose two FINs the last ACKs acknowledge
     * (SEQ_GT(ack, fss) each way).
     * \param now the time
     * \return connections removed
     */
    uint32_t Cleanup(Time now);
    /// \param interval the cleanup period: the tables keep idle entries that long past the
    /// longest NAT timeout, so only the cleanup removes them
    void SetCleanupInterval(Time interval);
    /// \param rule rule index \param server server index \return its connection entries now
    uint32_t CountServer(uint32_t rule, uint32_t server) const;
    /// \return connection entries of both tables
    uint32_t GetCount() const;

    /// \param compact IPv4 connections go to the compact IlbNatTable
    void SetCompactIpv4(bool compact);
    /// \return whether IPv4 connections go to the compact IlbNatTable
    bool GetCompactIpv4() const;
    /// \param n maximum connection entries of both tables, 0 = unlimited
    void SetMaxConnections(uint32_t n);

    /// \return the connection table (IPv6, and IPv4 unless compact)
    Ptr<AdcConnectionTable> GetConnectionTable() const;
    /// \return the compact IPv4 table
    Ptr<IlbNatTable> GetNatTable() const;

    /// Drop every connection and table without calling back (the appliance is going).
    void Dispose();

  private:
    /// \param k a 5-tuple \return true when its connection belongs in the IlbNatTable
    bool UsesNat(const AdcFlowKey& k) const;
    /// \param entry the table entry that went away (expired or removed): report it
    void ForgetFlow(const AdcConnectionTable::Entry& entry);
    /// \param index the IPv4 record about to go (expired or removed): report it
    void ForgetNat(uint32_t index, bool);

    Ptr<AdcConnectionTable> m_table;                                //!< IPv6 (and IPv4) table
    Ptr<IlbNatTable> m_nat;                                         //!< compact IPv4 table
    std::unordered_map<AdcFlowKey, Flow, AdcFlowKeyHasher> m_flows; //!< original key -> flow
    std::vector<std::pair<uint32_t, uint32_t>> m_serverOwner;       //!< global id -> rule, server
    std::vector<std::vector<uint32_t>> m_serverIds;                 //!< rule, server -> id
    std::vector<Time> m_natTimeout;                                 //!< rule -> NAT timeout
    std::vector<uint8_t> m_protocol;                                //!< rule -> protocol
    EndedCallback m_ended;                                          //!< entry gone
    uint32_t m_maxConnections{0};                                   //!< 0 = unlimited
    Time m_cleanupInterval{Seconds(15)};                            //!< the cleanup's period
    bool m_compactIpv4{true};                                       //!< IPv4 in m_nat
};

} // namespace ns3

#endif /* ILB_CONNECTION_STORE_H */
