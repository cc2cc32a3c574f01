/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_HOST_SWITCH_H
#define SLB_HOST_SWITCH_H

#include "slb-policy.h"
#include "slb-reassembly.h"
#include "slb-vxlan.h"

#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The SDN SLB's host virtual switch (the Hyper-V switch's SLB datapath, Ananta's host agent
 * data plane): VXLAN decapsulation, VIP to DIP NAT, direct server return, TCP MSS clamping and
 * Fastpath.
 */

namespace ns3
{

/**
 * \ingroup adc
 * \brief What an SlbHostSwitch counted.
 */
struct SlbHostSwitchCounters
{
    uint64_t decapsulated{0};    //!< VXLAN frames decapsulated
    uint64_t natIn{0};           //!< packets translated VIP:port -> DIP:port (towards a VM)
    uint64_t natOut{0};          //!< packets translated DIP:port -> VIP:port (from a VM)
    uint64_t dsrPackets{0};      //!< translated replies sent straight to the gateway (DSR)
    uint64_t mssClamped{0};      //!< SYN / SYN-ACK segments whose MSS option was lowered
    uint64_t fastpath{0};        //!< packets tunnelled host to host by a Fastpath entry
    uint64_t fastpathExpired{0}; //!< Fastpath entries removed after FastpathIdleTimeout idle
    uint64_t fragmentsIn{0};     //!< IP fragments taken for reassembly
    uint64_t reassembled{0};     //!< datagrams reassembled from them
    uint64_t fragmentsOut{0};    //!< fragments sent after NAT (refragmented)
    uint64_t muxChoices{0};      //!< packets NATed to the VM the MUX named (inner MAC)
    std::map<std::string, uint64_t> drops; //!< drops by reason
    /// \return the sum of drops
    uint64_t TotalDrops() const;
};

/**
 * \ingroup adc
 * \brief The host's virtual switch of the SDN software load balancer: an AdcDatapath installed
 * on the host node (AdcDatapath::Install).
 *
 * Each VM is its own node behind a point-to-point link to the host (its switch port, named by
 * the host's interface index). The switch:
 * - receives VXLAN (UDP VxlanPort to the host's provider address) on a UDP socket, validates it
 *   (SlbVxlanParse; drops a malformed frame with its "vxlan-..." reason and a VNI no VM port
 *   carries with "vxlan-unknown-vni") and decapsulates it (AdcVerdict::Decapsulate): the inner
 *   datagram re-enters the host as received on the physical interface;
 * - translates a packet to VIP:port with a NAT rule to DIP:dipPort (and clamps the MSS of a SYN
 *   for the VXLAN overhead) and routes it to the VM;
 * - translates a VM's packet from DIP:dipPort back to VIP:port (SYN-ACK clamped too) and routes it
 *   by the host's routes, straight to the gateway: the MUX is not on the way back (DSR);
 * - tunnels a VM's packet of a Fastpath flow (client VM -> VIP) straight to the DIP's host.
 * Anything else is left to the host's routing (PASS).
 */
class Ipv4;
class Ipv6;

class SlbHostSwitch : public AdcDatapath
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    SlbHostSwitch();
    ~SlbHostSwitch() override;

    /**
     * \brief Signature of "Decapsulate".
     * \param outerSource the outer IP source (the MUX or a Fastpath host)
     * \param vni the VXLAN network identifier
     * \param inner the inner packet's 5-tuple
     */
    typedef void (*DecapsulateTracedCallback)(const AdcIpAddress& outerSource,
                                              uint32_t vni,
                                              const AdcFlowKey& inner);
    /**
     * \brief Signature of "HostNat".
     * \param direction "in" (VIP -> DIP) or "out" (DIP -> VIP)
     * \param before the 5-tuple as received
     * \param after the 5-tuple as sent
     */
    typedef void (*HostNatTracedCallback)(const std::string& direction,
                                          const AdcFlowKey& before,
                                          const AdcFlowKey& after);
    /**
     * \brief Signature of "Fastpath".
     * \param flow the client VM -> VIP flow
     * \param dipHostPa the provider address of the DIP's host it was tunnelled to
     */
    typedef void (*FastpathTracedCallback)(const AdcFlowKey& flow, const AdcIpAddress& dipHostPa);
    /**
     * \brief Signature of "MssClamp".
     * \param flow the segment's 5-tuple as received
     * \param oldMss the MSS option it carried
     * \param newMss the MSS it left with
     */
    typedef void (*MssClampTracedCallback)(const AdcFlowKey& flow,
                                           uint16_t oldMss,
                                           uint16_t newMss);

    /**
     * \brief Signature of "Reassembly".
     * \param before the reassembled datagram's 5-tuple as received
     * \param after its 5-tuple as sent (the same when no rule translated it)
     * \param fragmentsIn the fragments it was received in
     * \param fragmentsOut the fragments it left in
     */
    typedef void (*ReassemblyTracedCallback)(const AdcFlowKey& before,
                                             const AdcFlowKey& after,
                                             uint32_t fragmentsIn,
                                             uint32_t fragmentsOut);

    /**
     * \brief The largest TCP payload a VM's segment may carry so that, with the TCP options
     * ns-3 puts on every segment (the 12-byte timestamp option when
     * ns3::TcpSocketBase::Timestamp is on), it fits the clamped MSS: Linux subtracts the options
     * from the MSS (tcp_current_mss), ns-3 does not, so its SegmentSize must.
     * \param innerV6 whether the VM's traffic is IPv6
     * \return GetClampedMss(innerV6) minus the option bytes (1398 for IPv4 at MTU 1500)
     */
    uint32_t GetSegmentSizeCap(bool innerV6) const;

    /**
     * \brief Declare a VM's switch port.
     * \param interface the host's interface index of the link to the VM (of the VM address's
     *        family)
     * \param vmAddress the VM's address (a DIP)
     * \param vni its tenant virtual network (VXLAN VNI, below 2^24), 0 for a VLAN
     * \param vlan its VLAN id when \p vni is 0 (informational, 0..4094)
     * \throws AdcConfigError for interface 0 or one the installed host lacks, a VNI or VLAN out
     * of range, a VM address that is unset or already on a port
     */
    void AddVmPort(uint32_t interface, const AdcIpAddress& vmAddress, uint32_t vni, uint16_t vlan);

    /**
     * \brief VIP:port <-> DIP:port for a DIP on this host.
     * \param vip the VIP, protocol and front-end port
     * \param dip the DIP (its address, port and VNI are used)
     * \throws AdcConfigError when the protocol is not TCP or UDP, the families differ, the DIP is
     * on no VM port of this host, its VNI is not the one its port carries (a DIP on a VNI the
     * host does not carry), or the DIP's address and port already serve another VIP
     */
    void SetNatRule(const SlbVipKey& vip, const SlbDip& dip);

    /**
     * \brief Check that \p dip can have a NAT rule on this host (what SetNatRule checks of it).
     * \param dip a DIP
     * \throws AdcConfigError when the DIP is on no VM port of this host or its VNI is not the
     * one its port carries (a DIP on a VNI the host does not carry)
     */
    void ValidateDip(const SlbDip& dip) const;

    /**
     * \brief Remove the rule of \p dip under \p vip.
     * \param vip the VIP key
     * \param dip the DIP's address
     * \throws AdcConfigError when there is no such rule
     */
    void RemoveNatRule(const SlbVipKey& vip, const AdcIpAddress& dip);

    /**
     * \brief Tunnel later packets of \p flow from a local VM straight to the DIP's host, until
     * the entry has been idle longer than FastpathIdleTimeout (then the flow's next packet goes
     * to the VIP through a MUX again, which may redirect it again).
     * \param flow the client VM -> VIP 5-tuple (inner destination stays the VIP)
     * \param dipHostPa the provider address of the host holding the DIP
     * \param vni the VNI to put on the wire
     * \throws AdcConfigError for an unset address, a VNI of 2^24 or more, or a flow whose source
     * is on no VM port of this host
     */
    void AddFastpath(const AdcFlowKey& flow, const AdcIpAddress& dipHostPa, uint32_t vni);
    /// \param flow a flow given to AddFastpath \return true when an entry was removed
    bool RemoveFastpath(const AdcFlowKey& flow);

    /**
     * \brief The MSS a SYN leaves with: ProviderMtu minus the VXLAN overhead (outer IP header,
     * UDP 8, VXLAN 8, Ethernet 14), the inner IP header and the TCP header (20).
     * \param innerV6 whether the inner packet is IPv6 (40-byte header, else 20)
     * \return the clamp value (1410 for IPv4 in IPv4 at MTU 1500)
     */
    uint16_t GetClampedMss(bool innerV6) const;

    /// \return the counters
    const SlbHostSwitchCounters& GetCounters() const;
    /// \param reason a drop reason \return how many packets were dropped with it
    uint64_t GetDropCount(const std::string& reason) const;

    /// \return the datagrams being reassembled
    const SlbReassembly& GetReassembly() const;

    bool Process(const AdcIngress& in, AdcEgress& egress) override;
    void Print(std::ostream& os) const override;

  protected:
    void DoDispose() override;
    /// \param node the host \throws AdcConfigError when a VM port names a missing interface
    void CheckNode(Ptr<Node> node) const override;
    void NotifyInstalled(Ptr<Node> node) override;

  private:
    /// A VM's switch port.
    struct VmPort
    {
        uint32_t interface {
            0
        };                    //!< the host's interface index
        AdcIpAddress address; //!< the VM's address
        uint32_t vni{0};      //!< its VNI (0: VLAN)
        uint16_t vlan{0};     //!< its VLAN id
    };

    /// Where a Fastpath flow goes.
    struct FastpathEntry
    {
        AdcIpAddress hostPa; //!< the DIP's host
        uint32_t vni{0};     //!< the VNI
        Time lastUsed;       //!< installed or last used
    };

    /// The reverse side of a NAT rule: DIP, protocol and DIP port.
    using DipKey = SlbVipKey;

    /// \param socket a VXLAN socket with data to read
    void ReceiveVxlan(Ptr<Socket> socket);
    /// \param family V4 or V6 \return a UDP socket on VxlanPort with packet info, or null
    Ptr<Socket> OpenVxlanSocket(AdcIpAddress::Family family);

    /// (a) \param in a VXLAN packet to this host \param egress its egress \return true
    bool Decapsulate(const AdcIngress& in, AdcEgress& egress);
    /// (b) \param in the packet \param egress its egress \return true when translated or dropped
    bool NatIn(const AdcIngress& in, AdcEgress& egress);
    /// (c) \param in the packet \param egress its egress \return true when translated or dropped
    bool NatOut(const AdcIngress& in, AdcEgress& egress);
    /// (d) \param in the packet \param egress its egress \return true when tunnelled or dropped
    bool Fastpath(const AdcIngress& in, AdcEgress& egress);
    /// \param e a Fastpath entry \param now the time \return true when idle past the timeout
    bool IsIdle(const FastpathEntry& e, Time now) const;

    /**
     * \brief Rewrite a packet (clamping a SYN's MSS) and count / trace it.
     * \param in the packet \param egress its egress \param after the new 5-tuple
     * \param direction "in" or "out"
     * \return true (the packet is taken: sent or dropped)
     */
    bool Translate(const AdcIngress& in,
                   AdcEgress& egress,
                   const AdcFlowKey& after,
                   const std::string& direction);
    /// \param who the message's start \param dip a DIP \throws AdcConfigError as ValidateDip
    void CheckDip(const std::string& who, const SlbDip& dip) const;
    /// Drop \p in with \p reason (the hook fires "Drop"), counted. \return true
    bool Drop(const AdcIngress& in, AdcEgress& egress, const std::string& reason);
    /// \param address an address \return true when it is one of the host's own
    bool IsOwnAddress(const AdcIpAddress& address) const;
    /// \param address an address \return its VM port, or null
    const VmPort* FindPort(const AdcIpAddress& address) const;
    /// \param interface an interface index \return true when a VM port
    bool IsVmInterface(uint32_t interface) const;

    // Fragments (slb-host-fragment.cc): reassembled before NAT and fragmented again after it,
    // as Linux's conntrack does (nf_defrag_ipv4 / nf_defrag_ipv6, then ip_do_fragment at the
    // largest fragment received).

    /// What the IP layer's "Rx" trace showed of the packet now being processed.
    struct RxHeader
    {
        const Packet* packet{nullptr}; //!< the packet (its header removed since)
        Ipv4Header v4;                 //!< its IPv4 header
        Ipv6Header v6;                 //!< its IPv6 header
    };

    /// \param p a received packet, IPv4 header first \param ip IPv4 \param i its interface
    void RxIpv4(Ptr<const Packet> p, Ptr<Ipv4> ip, uint32_t i);
    /// \param p a received packet, IPv6 header first \param ip IPv6 \param i its interface
    void RxIpv6(Ptr<const Packet> p, Ptr<Ipv6> ip, uint32_t i);
    /// \param in a packet \return true for an IPv4 fragment or an IPv6 fragment header
    static bool IsFragment(const AdcIngress& in);
    /// \param in a fragment \param egress its egress \return true (queued, sent or dropped)
    bool Defragment(const AdcIngress& in, AdcEgress& egress);
    /**
     * \brief NAT a reassembled datagram as NatIn / NatOut would, fragment it again and send it.
     * \param key its key \param payload its payload \param maxFragment the largest fragment
     * \param fragments how many it came in \param rx the header of its last fragment
     * \param inInterface the interface it came in on
     */
    void SendReassembled(const SlbFragmentKey& key,
                         Ptr<Packet> payload,
                         uint32_t maxFragment,
                         uint32_t fragments,
                         const RxHeader& rx,
                         uint32_t inInterface);
    /// \param packets dropped fragments \param reason why: each counted and traced
    void DropFragments(const std::vector<Ptr<const Packet>>& packets, const std::string& reason);
    /// Drop the queues that timed out and schedule the next check.
    void ExpireFragments();
    /**
     * \param f a 5-tuple as received \param inInterface where it came in
     * \param[out] after its translation \param[out] direction "in" or "out"
     * \return true when a NAT rule translates it
     */
    bool FindTranslation(const AdcFlowKey& f,
                         uint32_t inInterface,
                         AdcFlowKey& after,
                         std::string& direction) const;

    /// \param node a node \param address an address \return the node's interfaces of its family
    static uint32_t CountInterfaces(Ptr<Node> node, const AdcIpAddress& address);
    /// \return true when the host's provider network is IPv6 (no IPv4 address outside the VM
    /// ports)
    bool ProviderIsV6() const;

    /// A VM a MUX named for a flow (the inner Ethernet destination of its VXLAN frames).
    struct MuxChoice
    {
        AdcIpAddress dip; //!< the VM's address
        Time lastUsed;    //!< when a frame of the flow last named it
    };

    /**
     * \brief Remember the VM a decapsulated frame names for its inner flow.
     * \param frame the parsed frame \param inner its inner flow
     */
    void RecordMuxChoice(const SlbVxlanFrame& frame, const AdcFlowKey& inner);
    /**
     * \param flow a flow to a VIP \param dips the VIP's DIPs on this host
     * \return the DIP the MUX named for it (null when none, or when it is not one of \p dips)
     */
    const SlbDip* FindMuxChoice(const AdcFlowKey& flow, const std::vector<SlbDip>& dips);

    uint32_t m_providerMtu; //!< "ProviderMtu"
    bool m_clampMss;        //!< "ClampMss"
    Time m_fastpathIdle;    //!< "FastpathIdleTimeout"
    uint16_t m_vxlanPort;   //!< "VxlanPort"
    Time m_reasmTimeout;    //!< "ReassemblyTimeout"
    uint64_t m_reasmMemory; //!< "ReassemblyMemory"
    SlbReassembly m_reasm;  //!< datagrams being reassembled
    EventId m_reasmEvent;   //!< the next expiry check
    RxHeader m_rx4;         //!< the last IPv4 fragment the IP layer received
    RxHeader m_rx6;         //!< the last IPv6 fragment the IP layer received

    std::vector<VmPort> m_ports;                      //!< the VM ports
    std::map<SlbVipKey, std::vector<SlbDip>> m_rules; //!< VIP -> its DIPs on this host
    std::map<DipKey, SlbVipKey> m_reverse;            //!< DIP:port -> VIP:port
    std::map<AdcFlowKey, FastpathEntry> m_fastpath;   //!< Fastpath flows
    std::map<AdcFlowKey, MuxChoice> m_muxChoice;      //!< inner flow -> the VM a MUX named
    std::size_t m_muxChoiceSweepAt{1024};             //!< size at which idle ones are swept
    Time m_muxChoiceIdle;                             //!< "MuxChoiceIdleTimeout"
    Ptr<Socket> m_socket4;                            //!< VXLAN over IPv4
    Ptr<Socket> m_socket6;                            //!< VXLAN over IPv6
    SlbHostSwitchCounters m_counters;                 //!< counters

    /// "Decapsulate"
    TracedCallback<const AdcIpAddress&, uint32_t, const AdcFlowKey&> m_decapTrace;
    /// "HostNat"
    TracedCallback<const std::string&, const AdcFlowKey&, const AdcFlowKey&> m_natTrace;
    /// "Fastpath"
    TracedCallback<const AdcFlowKey&, const AdcIpAddress&> m_fastpathTrace;
    /// "MssClamp"
    TracedCallback<const AdcFlowKey&, uint16_t, uint16_t> m_mssTrace;
    /// "Reassembly"
    TracedCallback<const AdcFlowKey&, const AdcFlowKey&, uint32_t, uint32_t> m_reasmTrace;
};

} // namespace ns3

#endif /* SLB_HOST_SWITCH_H */
