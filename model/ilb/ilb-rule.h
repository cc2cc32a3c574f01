/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc ILB (seed 001): the load-balancing rules (ilbadm create-rule) and the rule set that
 * validates them against each other and matches packets to them.
 */

#ifndef ILB_RULE_H
#define ILB_RULE_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-port-range.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One back-end server of an ILB rule.
 */
struct IlbServer
{
    std::string name;     //!< e.g. "srv1"; empty = "server<index>" (filled in by AddRule)
    AdcIpAddress address; //!< the back-end's real address (same family as the VIP)
    uint16_t port{0};     //!< 0 = the port the client addressed (no port rewrite)
    uint32_t weight{1};   //!< relative share (1..100, the weight of the server's AdcService;
                          //!< a model extension: illumos has no weights and its hashes
                          //!< ignore them; roundrobin with unequal weights is the model's
                          //!< smooth weighted round robin, the rendezvous hashes and maglev
                          //!< honour them)
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
    AdcPortRange natPorts{4096, 65534};  //!< FULL_NAT: ports of each (NAT source, server) pair
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
 * \brief The rules of one ILB: validated against each other when added, indexed by VIP, NAT
 * source address and Half-NAT server address for the datapath's lookups.
 */
class IlbRuleSet
{
  public:
    /**
     * \brief Validate a rule against the set and add it. Stored with its server names filled
     * in ("server<i>") and its algorithm in lower case.
     * \param rule the rule
     * \param algorithms the algorithm names a rule accepts
     * \return its index
     * \throws AdcConfigError naming the rule and the field (see IlbAppliance::AddRule)
     */
    uint32_t Add(const IlbRule& rule, const std::vector<std::string>& algorithms);

    /**
     * \brief Add a server to a stored rule (illumos ilb_server_add on a live rule), checked as
     * the kernel checks it: the rule's address family, a DSR server's port equal to the rule's
     * (EINVAL), no address or name (case-insensitive) of a server still in the rule twice
     * (EEXIST); and as AddRule checks servers (weight 1..100, not a VIP or NAT address).
     * \param rule rule index (< GetN())
     * \param server the server (name empty = "server<index>")
     * \param gone per existing server: removed from the rule (ilb_server_del), so not a duplicate
     * \return the new server's index
     * \throws AdcConfigError naming the rule, the server and what is allowed
     */
    uint32_t AddServer(uint32_t rule, const IlbServer& server, const std::vector<bool>& gone);

    /// \return number of rules
    uint32_t GetN() const;
    /// \param i rule index (< GetN()) \return the rule as stored
    const IlbRule& Get(uint32_t i) const;
    /// \param i a FULL_NAT rule's index \return its NAT source addresses, in order
    const std::vector<AdcIpAddress>& GetNatAddresses(uint32_t i) const;
    /// \param name a rule name \return its index, or -1
    int32_t Find(const std::string& name) const;

    /// \param flow a request's 5-tuple \return the rule whose VIP, protocol and ports match, or -1
    int32_t Match(const AdcFlowKey& flow) const;
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

    /// Forget every rule.
    void Clear();

  private:
    /// \param rule a rule \param index its index \return "IlbAppliance: rule 'name' (#i)"
    static std::string Who(const IlbRule& rule, uint32_t index);
    /// \param rule the rule to check (server names may be filled in) \param index its index
    /// \param algorithms the accepted algorithm names
    void Check(IlbRule& rule, uint32_t index, const std::vector<std::string>& algorithms) const;
    /**
     * \param flow a 5-tuple
     * \param port whether the rule's ports must hold its destination port
     * \return the first rule on its destination (the VIP) and protocol, or -1
     */
    int32_t MatchOn(const AdcFlowKey& flow, bool port) const;
    /// \param rule the rule \param index its index: VIP against other rules' ports and addresses
    void CheckVip(const IlbRule& rule, uint32_t index) const;
    /// \param rule the rule \param index its index: names, families, weights, overlaps
    void CheckServers(IlbRule& rule, uint32_t index) const;
    /// \param rule a FULL_NAT rule \param index its index \return its NAT source addresses
    std::vector<AdcIpAddress> CheckNatRange(const IlbRule& rule, uint32_t index) const;

    std::vector<IlbRule> m_rules;                          //!< rules
    std::vector<std::vector<AdcIpAddress>> m_natAddresses; //!< FULL_NAT source addresses
    std::unordered_map<AdcIpAddress, std::vector<uint32_t>, AdcIpAddressHasher>
        m_byVip; //!< VIP -> rules
    /// HALF_NAT server address -> (rule, server) pairs, for orphan responses
    std::unordered_map<AdcIpAddress, std::vector<std::pair<uint32_t, uint32_t>>, AdcIpAddressHasher>
        m_halfNatServers;
    std::unordered_map<AdcIpAddress, uint32_t, AdcIpAddressHasher>
        m_natOwner; //!< NAT address -> first rule using it
};

} // namespace ns3

#endif /* ILB_RULE_H */
