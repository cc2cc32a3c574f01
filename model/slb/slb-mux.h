/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_MUX_H
#define SLB_MUX_H

#include "slb-flow-table.h"
#include "slb-policy.h"
#include "slb-redirect-message.h"

#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-maglev-table.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The SDN software load balancer's MUX (Ananta's Mux, Maglev's forwarder).
 */

namespace ns3
{

/**
 * \ingroup adc
 * \brief The SLB MUX: takes every packet to a VIP, picks a DIP and tunnels the packet in VXLAN
 * to the host holding it; every MUX of a pool with the same policy picks the same DIP.
 *
 * Installed on the MUX node with AdcDatapath::Install(node). For a TCP or UDP packet to a
 * VIP address (Process):
 * 1. over the capacity (PacketRate, BurstPackets: a token bucket) -> drop "mux-over-capacity";
 * 2. a fragment, ICMP or a cut transport header -> drop ("vip-fragment", "vip-no-port",
 *    "truncated-transport-header", "malformed-transport-header");
 * 3. no VIP with that protocol and port -> drop "vip-no-port";
 * 4. the flow table's entry (FlowTable true) when its DIP is still in the VIP and healthy;
 *    otherwise (a new flow, or its DIP gone or down: "rechosen") the selection over the
 *    healthy DIPs: MAGLEV (an AdcMaglevTable of MaglevTableSize slots built from the DIPs'
 *    address strings with MaglevSeed) or MODULO (hash mod the number of healthy DIPs); the
 *    hash is AdcHash::Flow(5-tuple, MaglevSeed). No healthy DIP -> drop "vip-no-healthy-dip";
 * 5. ENCAPSULATE in SlbVxlanEncapsulation(dip.hostPa, dip.vni, hash, dip.address) (the inner
 *    Ethernet destination names the chosen VM, so its host delivers to it): the inner datagram
 *    keeps the VIP as its destination (the host NATs); the outer source port is
 *    AdcVxlanSourcePort(hash), the same for every packet of a flow.
 * A TCP RST removes the flow's entry, a FIN gives it the short ClosingTimeout. Every other
 * packet (the MUX's own BGP, ...) is left to routing (PASS).
 *
 * Fastpath (Ananta's): for an INTERNAL VIP, the first TCP packet of a flow carrying an ACK
 * without SYN (the handshake is done) from a VM whose host is known (SetVmHost) makes the MUX
 * send one SlbRedirectMessage in UDP to RedirectPort of the client's host and of the DIP's host.
 */
class SlbMux : public AdcDatapath
{
  public:
    /// How a new flow's DIP is chosen.
    enum Selection : uint8_t
    {
        MAGLEV, //!< Maglev consistent hashing
        MODULO  //!< the naive hash mod the number of healthy DIPs (for comparison)
    };

    /// The MUX's counters.
    struct Counters
    {
        uint64_t packets{0};                   //!< packets to a VIP address (all outcomes)
        uint64_t bytes{0};                     //!< their IP bytes
        uint64_t flowsCreated{0};              //!< flow-table entries created
        uint64_t flowTableHits{0};             //!< packets whose DIP came from the flow table
        uint64_t flowsRechosen{0};             //!< pinned flows whose DIP was gone or down
        uint64_t flowTableFull{0};             //!< new flows hashed without an entry (MaxFlows)
        uint64_t encapsulated{0};              //!< packets sent to a host in VXLAN
        uint64_t fastpathFlows{0};             //!< flows redirected (Fastpath)
        uint64_t redirectsSent{0};             //!< redirect datagrams sent (two per flow)
        std::map<std::string, uint64_t> drops; //!< drops by reason
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    SlbMux();
    ~SlbMux() override;

    /**
     * \brief Signature of "DipChoice" (every packet the MUX tunnels).
     * \param flow the packet's 5-tuple \param dip the DIP \param fromFlowTable true when the
     * flow table gave it, false when the selection chose it
     */
    typedef void (*DipChoiceTracedCallback)(const AdcFlowKey& flow,
                                            const SlbDip& dip,
                                            bool fromFlowTable);
    /**
     * \brief Signature of "Encapsulate".
     * \param flow the inner 5-tuple \param hostPa the outer destination \param vni the VNI
     * \param srcPort the outer UDP source port
     */
    typedef void (*EncapsulateTracedCallback)(const AdcFlowKey& flow,
                                              const AdcIpAddress& hostPa,
                                              uint32_t vni,
                                              uint16_t srcPort);
    /**
     * \brief Signature of "FastpathRedirect".
     * \param flow the flow \param clientHostPa the client's host \param dipHostPa the DIP's
     */
    typedef void (*FastpathRedirectTracedCallback)(const AdcFlowKey& flow,
                                                   const AdcIpAddress& clientHostPa,
                                                   const AdcIpAddress& dipHostPa);

    /**
     * \brief Add or replace a VIP with all its DIPs (healthy or not). DIPs kept across a
     * replacement (same address and port) keep the flows pinned to them.
     * \param vip the VIP
     * \throws AdcConfigError naming the VIP and the field: no VIP address, protocol not 6/17,
     * port 0, no DIP, a DIP without address or host PA, two DIPs with one address and port,
     * a VNI above 2^24 - 1
     */
    void SetVip(const SlbVip& vip);
    /// \param key a VIP's key \throws AdcConfigError when no such VIP
    void RemoveVip(const SlbVipKey& key);
    /**
     * \param key a VIP \param dip one of its DIPs' address \param healthy its health
     * \throws AdcConfigError when the VIP or the DIP is unknown
     */
    void SetDipHealth(const SlbVipKey& key, const AdcIpAddress& dip, bool healthy);
    /// \param vm a VM's address \param hostPa the provider address of its host (Fastpath)
    void SetVmHost(const AdcIpAddress& vm, const AdcIpAddress& hostPa);
    /// \param address an address \return true when some VIP has it
    bool IsVip(const AdcIpAddress& address) const;
    /// \return the VIPs' keys, in order
    std::vector<SlbVipKey> GetVips() const;
    /// \param key a VIP \return its policy as set (health as last set) \throws AdcConfigError
    const SlbVip& GetVip(const SlbVipKey& key) const;
    /// \return flow-table entries
    std::size_t GetFlowCount() const;
    /// \return the flow table
    const SlbFlowTable& GetFlowTable() const;
    /// \return bytes of memory per flow-table entry at the table's highest load (the IPv6
    /// entry, the larger: 64; IPv4 entries take 32, SlbFlowTable::GetEntryBytes)
    static std::size_t GetFlowEntryBytes();
    /// \return the counters
    const Counters& GetCounters() const;
    /// \param os where: the counters and the VIPs
    void Print(std::ostream& os) const override;

    bool Process(const AdcIngress& in, AdcEgress& egress) override;

  protected:
    void DoDispose() override;

  private:
    /// One VIP's run-time state.
    struct VipState
    {
        SlbVip vip;                                  //!< the policy
        std::vector<uint32_t> dipIds;                //!< the MUX's id of each DIP (parallel)
        std::unordered_map<uint32_t, uint32_t> byId; //!< DIP id -> index in vip.dips
        std::vector<uint32_t> healthy;               //!< indexes of the healthy DIPs, in order
        AdcMaglevTable maglev;                       //!< over the healthy DIPs (ids index healthy)
        /// MaglevTableSize, MaglevSeed and Selection when it was built
        std::tuple<uint32_t, uint64_t, Selection> builtFor{0, 0, MAGLEV};
    };

    /// \param s a VIP: rebuild its healthy list and Maglev table
    void Rebuild(VipState& s);
    /// \param s a VIP (built for the current attributes)
    /// \param hash the flow's hash \return the chosen DIP's index, or -1
    int32_t Choose(const VipState& s, uint64_t hash) const;
    /// \return true when a packet may pass the capacity limit now (a token taken)
    bool TakeToken();
    /// \param in the packet \param reason why: counted, "Drop" fired \return true
    bool Drop(const AdcIngress& in, const std::string& reason);
    /// \param in the packet \param s its VIP \param dip its DIP: Fastpath redirect if due
    /// \param redirected the flow's redirect was already sent
    void MaybeRedirect(const AdcIngress& in, const VipState& s, const SlbDip& dip, bool redirected);
    /// \param message the redirect \param to the host's PA: sent now, in UDP
    void SendRedirect(std::vector<uint8_t> message, AdcIpAddress to);
    /// \return the time in milliseconds (flow-table clock)
    static uint32_t NowMs();

    // Attributes
    uint32_t m_maglevSize;        //!< "MaglevTableSize"
    uint64_t m_maglevSeed;        //!< "MaglevSeed"
    Selection m_selection;        //!< "Selection"
    bool m_useFlowTable;          //!< "FlowTable"
    Time m_idleTimeout;           //!< "FlowIdleTimeout"
    Time m_closingTimeout;        //!< "ClosingTimeout"
    uint32_t m_maxFlows;          //!< "MaxFlows"
    uint32_t m_providerMtu{1500}; //!< "ProviderMtu"
    double m_packetRate;          //!< "PacketRate"
    uint32_t m_burst;             //!< "BurstPackets"
    bool m_fastpath;              //!< "Fastpath"
    uint16_t m_redirectPort;      //!< "RedirectPort"

    std::map<SlbVipKey, VipState> m_vips;            //!< VIPs
    std::map<AdcIpAddress, uint32_t> m_vipAddresses; //!< VIP address -> VIPs having it
    std::map<AdcIpAddress, AdcIpAddress> m_vmHosts;  //!< VM -> host PA
    std::set<AdcFlowKey> m_redirectedNoTable;        //!< redirected flows (FlowTable false)
    uint32_t m_nextDipId{1};                         //!< next DIP id
    SlbFlowTable m_flows;                            //!< the flow table
    double m_tokens{0};                              //!< token bucket level
    Time m_tokensAt;                                 //!< when it was last filled
    bool m_tokensStarted{false};                     //!< the bucket was filled once
    Ptr<Socket> m_redirectSocket;                    //!< sends redirects (made on first use)
    Counters m_counters;                             //!< counters

    TracedCallback<const AdcFlowKey&, const SlbDip&, bool> m_dipChoiceTrace; //!< "DipChoice"
    TracedCallback<const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t>
        m_encapsulateTrace; //!< "Encapsulate"
    TracedCallback<const AdcFlowKey&, const AdcIpAddress&, const AdcIpAddress&>
        m_redirectTrace; //!< "FastpathRedirect"
};

} // namespace ns3

#endif /* SLB_MUX_H */
