/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-rule.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ns3
{

namespace
{

/// Largest server weight: a server is an AdcService, whose weights are NetScaler's 1..100.
constexpr uint32_t MAX_WEIGHT = 100;
/// Largest NAT source range (addresses): illumos ilb_nat.h ILB_MAX_NAT_SRC.
constexpr uint64_t MAX_NAT_ADDRESSES = 10;

/// \param family address family \param bytes 16 bytes \return the address
AdcIpAddress
FromBytes(AdcIpAddress::Family family, const std::array<uint8_t, 16>& bytes)
{
    if (family == AdcIpAddress::V4)
    {
        return AdcIpAddress(Ipv4Address((uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) |
                                        (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]}));
    }
    std::array<uint8_t, 16> copy = bytes;
    return AdcIpAddress(Ipv6Address(copy.data()));
}

/**
 * \param first an address
 * \param last an address of the same family
 * \return last - first as an unsigned number, saturated at UINT64_MAX; 0 when last < first
 * (check that separately)
 */
uint64_t
Span(const AdcIpAddress& first, const AdcIpAddress& last)
{
    const std::size_t len = first.GetLength();
    std::array<uint8_t, 16> diff{};
    int borrow = 0;
    for (std::size_t i = len; i-- > 0;)
    {
        int d = int{last.GetBytes()[i]} - int{first.GetBytes()[i]} - borrow;
        borrow = d < 0 ? 1 : 0;
        diff[i] = static_cast<uint8_t>(d + (borrow ? 256 : 0));
    }
    uint64_t value = 0;
    for (std::size_t i = 0; i < len; ++i)
    {
        if (value > (UINT64_MAX >> 8))
        {
            return UINT64_MAX;
        }
        value = (value << 8) | diff[i];
    }
    return value;
}

/// \param a an address \param b one of the same family \return true when a <= b numerically
bool
LessOrEqual(const AdcIpAddress& a, const AdcIpAddress& b)
{
    const std::size_t len = a.GetLength();
    return !std::lexicographical_compare(b.GetBytes().begin(),
                                         b.GetBytes().begin() + len,
                                         a.GetBytes().begin(),
                                         a.GetBytes().begin() + len);
}

/// \param first an address \param k an offset \return first + k
AdcIpAddress
Offset(const AdcIpAddress& first, uint64_t k)
{
    std::array<uint8_t, 16> bytes = first.GetBytes();
    uint64_t carry = k;
    for (std::size_t i = first.GetLength(); i-- > 0 && carry != 0;)
    {
        const uint64_t sum = bytes[i] + (carry & 0xff);
        bytes[i] = static_cast<uint8_t>(sum);
        carry = (carry >> 8) + (sum >> 8);
    }
    return FromBytes(first.GetFamily(), bytes);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// IlbRule

std::string
IlbRule::TopologyToString(Topology t)
{
    switch (t)
    {
    case DSR:
        return "DSR";
    case HALF_NAT:
        return "HALF_NAT";
    case FULL_NAT:
        return "FULL_NAT";
    }
    return "UNKNOWN(" + std::to_string(static_cast<unsigned>(t)) + ")";
}

// ---------------------------------------------------------------------------------------------
// IlbRuleSet: validation

std::string
IlbRuleSet::Who(const IlbRule& rule, uint32_t index)
{
    return "IlbAppliance: rule '" + rule.name + "' (#" + std::to_string(index) + ")";
}

void
IlbRuleSet::Check(IlbRule& rule, uint32_t index, const std::vector<std::string>& algorithms) const
{
    const std::string who = Who(rule, index);
    if (rule.name.empty())
    {
        throw AdcConfigError(who + ": name is empty; every rule needs a unique name");
    }
    if (Find(rule.name) >= 0)
    {
        throw AdcConfigError(who + ": name '" + rule.name + "' is already used by rule #" +
                             std::to_string(Find(rule.name)) + "; names must be unique");
    }
    if (rule.vip.IsNone())
    {
        throw AdcConfigError(who + ": vip is unset; a rule needs an IPv4 or IPv6 VIP");
    }
    if (!AdcHasPorts(rule.protocol))
    {
        throw AdcConfigError(who + ": protocol '" + std::to_string(rule.protocol) +
                             "' is not one of 6 (TCP), 17 (UDP)");
    }
    if (rule.topology > IlbRule::FULL_NAT)
    {
        throw AdcConfigError(who + ": topology '" + IlbRule::TopologyToString(rule.topology) +
                             "' is not one of DSR, HALF_NAT, FULL_NAT");
    }
    rule.ports.Check(who + ": ports");
    CheckVip(rule, index);
    CheckServers(rule, index);
    if (AdcText::Find(rule.algorithm, algorithms, AdcText::INSENSITIVE) < 0)
    {
        throw AdcConfigError::NotOneOf(who, "algorithm", rule.algorithm, algorithms);
    }
    const unsigned maxPrefix = static_cast<unsigned>(rule.vip.GetLength() * 8);
    if (rule.stickyPrefix > maxPrefix)
    {
        throw AdcConfigError(who + ": stickyPrefix /" + std::to_string(rule.stickyPrefix) +
                             " is longer than the VIP's address; allowed 0.." +
                             std::to_string(maxPrefix));
    }
    if (rule.persistTimeout.IsStrictlyNegative() || (rule.sticky && rule.persistTimeout.IsZero()))
    {
        throw AdcConfigError(who + ": persistTimeout " +
                             std::to_string(rule.persistTimeout.GetSeconds()) +
                             " s must be > 0 for a sticky rule (and never negative)");
    }
    if (rule.natTimeout.IsStrictlyNegative() || rule.connDrainTimeout.IsStrictlyNegative())
    {
        throw AdcConfigError(who + ": natTimeout and connDrainTimeout must be >= 0 (0 = "
                                   "default / no cut)");
    }
}

void
IlbRuleSet::CheckVip(const IlbRule& rule, uint32_t index) const
{
    const std::string who = Who(rule, index);
    auto sameVip = m_byVip.find(rule.vip);
    if (sameVip != m_byVip.end())
    {
        for (uint32_t other : sameVip->second)
        {
            const IlbRule& o = m_rules[other];
            if (o.protocol == rule.protocol && o.ports.Overlaps(rule.ports))
            {
                throw AdcConfigError(who + ": ports " + rule.ports.ToString() + " overlap ports " +
                                     o.ports.ToString() + " of rule '" + o.name +
                                     "' on the same vip " + rule.vip.ToString() +
                                     " and protocol; a packet must match one rule");
            }
        }
    }
    auto natOwner = m_natOwner.find(rule.vip);
    if (natOwner != m_natOwner.end())
    {
        throw AdcConfigError(who + ": vip " + rule.vip.ToString() +
                             " is a NAT source address of rule '" + m_rules[natOwner->second].name +
                             "'");
    }
    for (const IlbRule& other : m_rules)
    {
        for (const IlbServer& s : other.servers)
        {
            if (s.address == rule.vip)
            {
                throw AdcConfigError(who + ": vip " + rule.vip.ToString() + " is server '" +
                                     s.name + "' of rule '" + other.name +
                                     "'; a VIP must not overlap a server address");
            }
        }
    }
}

void
IlbRuleSet::CheckServers(IlbRule& rule, uint32_t index) const
{
    const std::string who = Who(rule, index);
    if (rule.servers.empty())
    {
        throw AdcConfigError(who + ": servers: no servers; a rule needs at least one");
    }
    for (std::size_t i = 0; i < rule.servers.size(); ++i)
    {
        IlbServer& s = rule.servers[i];
        if (s.name.empty())
        {
            s.name = "server" + std::to_string(i);
        }
        const std::string sw = who + ": server '" + s.name + "'";
        if (s.address.GetFamily() != rule.vip.GetFamily())
        {
            throw AdcConfigError(sw + ": address '" + s.address.ToString() +
                                 "' is not of the VIP's family (" + rule.vip.ToString() + ")");
        }
        if (s.weight == 0)
        {
            throw AdcConfigError(sw + ": weight 0; the weight must be >= 1");
        }
        if (s.weight > MAX_WEIGHT)
        {
            // The server is an AdcService, and services weigh as NetScaler's do.
            throw AdcConfigError(sw + ": weight " + std::to_string(s.weight) +
                                 " is out of range; allowed 1.." + std::to_string(MAX_WEIGHT));
        }
        std::string owner;
        if (s.address == rule.vip)
        {
            owner = "this rule's VIP";
        }
        else if (auto v = m_byVip.find(s.address); v != m_byVip.end())
        {
            owner = "the VIP of rule '" + m_rules[v->second.front()].name + "'";
        }
        else if (auto n = m_natOwner.find(s.address); n != m_natOwner.end())
        {
            owner = "a NAT source address of rule '" + m_rules[n->second].name + "'";
        }
        if (!owner.empty())
        {
            throw AdcConfigError(sw + ": address " + s.address.ToString() + " is " + owner +
                                 "; a VIP must not overlap a server address");
        }
        for (std::size_t j = 0; j < i; ++j)
        {
            if (rule.servers[j].name == s.name)
            {
                throw AdcConfigError(sw + ": name is used twice in the rule; names must be "
                                          "unique");
            }
            // ilb.c ilb_server_add: "Check for duplicate." EEXIST for an address twice.
            if (rule.servers[j].address == s.address)
            {
                throw AdcConfigError(sw + ": address " + s.address.ToString() +
                                     " is also server '" + rule.servers[j].name +
                                     "' of the rule (illumos ilb_server_add: EEXIST); allowed "
                                     "one server per address");
            }
        }
        // ilb_server_add: "For DSR, there can be no port shifting.  Hence the server
        // specification must be the same as the rule's." EINVAL.
        if (rule.topology == IlbRule::DSR && s.port != 0 &&
            (rule.ports.first != rule.ports.last || s.port != rule.ports.first))
        {
            throw AdcConfigError(sw + ": port " + std::to_string(s.port) +
                                 " differs from the DSR rule's ports " + rule.ports.ToString() +
                                 " (illumos ilb_server_add: EINVAL); allowed no port or " +
                                 rule.ports.ToString());
        }
    }
}

std::vector<AdcIpAddress>
IlbRuleSet::CheckNatRange(const IlbRule& rule, uint32_t index) const
{
    const std::string who = Who(rule, index) + ": FULL_NAT";
    const AdcIpAddress& first = rule.natSourceFirst;
    const AdcIpAddress& last = rule.natSourceLast;
    if (first.IsNone() || last.IsNone())
    {
        throw AdcConfigError(who + ": natSourceFirst/natSourceLast unset; FULL_NAT needs a NAT "
                                   "source address range");
    }
    if (first.GetFamily() != rule.vip.GetFamily() || last.GetFamily() != rule.vip.GetFamily())
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " is not of the VIP's family (" + rule.vip.ToString() + ")");
    }
    if (!LessOrEqual(first, last))
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " is empty (natSourceFirst > natSourceLast)");
    }
    const uint64_t span = Span(first, last);
    if (span >= MAX_NAT_ADDRESSES)
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " holds more than " + std::to_string(MAX_NAT_ADDRESSES) +
                             " addresses; allowed 1.." + std::to_string(MAX_NAT_ADDRESSES));
    }
    rule.natPorts.Check(who + ": natPorts");
    std::vector<AdcIpAddress> addresses;
    for (uint64_t k = 0; k <= span; ++k)
    {
        const AdcIpAddress a = Offset(first, k);
        bool clash = a == rule.vip || m_byVip.count(a) != 0 || m_halfNatServers.count(a) != 0;
        for (const IlbServer& s : rule.servers)
        {
            clash = clash || s.address == a;
        }
        for (const IlbRule& other : m_rules)
        {
            for (const IlbServer& s : other.servers)
            {
                clash = clash || s.address == a;
            }
        }
        if (clash)
        {
            throw AdcConfigError(who + ": NAT source address " + a.ToString() +
                                 " is a VIP or server address");
        }
        // Rules sharing a NAT address may share its (address, server) port spaces: same ports.
        auto shared = m_natOwner.find(a);
        if (shared != m_natOwner.end() && m_rules[shared->second].natPorts != rule.natPorts)
        {
            throw AdcConfigError(who + ": NAT source address " + a.ToString() +
                                 " is shared with another rule whose natPorts are " +
                                 m_rules[shared->second].natPorts.ToString() + ", not " +
                                 rule.natPorts.ToString());
        }
        addresses.push_back(a);
    }
    return addresses;
}

// ---------------------------------------------------------------------------------------------
// IlbRuleSet: the set

uint32_t
IlbRuleSet::Add(const IlbRule& rule, const std::vector<std::string>& algorithms)
{
    const auto index = static_cast<uint32_t>(m_rules.size());
    IlbRule r = rule;
    Check(r, index, algorithms);
    std::vector<AdcIpAddress> nat;
    if (r.topology == IlbRule::FULL_NAT)
    {
        nat = CheckNatRange(r, index);
    }
    // ilbadm's spelling of the method (the names compare without case, as ilbadm's do).
    r.algorithm =
        AdcLbMethodRegistry::GetAlias(AdcLbMethodRegistry::Resolve(r.algorithm,
                                                                   {AdcLbMethodRegistry::ILB},
                                                                   Who(r, index),
                                                                   "algorithm"),
                                      AdcLbMethodRegistry::ILB);
    m_byVip[r.vip].push_back(index);
    if (r.topology == IlbRule::HALF_NAT)
    {
        for (uint32_t s = 0; s < r.servers.size(); ++s)
        {
            m_halfNatServers[r.servers[s].address].emplace_back(index, s);
        }
    }
    for (const AdcIpAddress& a : nat)
    {
        m_natOwner.emplace(a, index);
    }
    m_rules.push_back(std::move(r));
    m_natAddresses.push_back(std::move(nat));
    return index;
}

uint32_t
IlbRuleSet::AddServer(uint32_t rule, const IlbServer& server, const std::vector<bool>& gone)
{
    IlbRule& r = m_rules.at(rule);
    const auto k = static_cast<uint32_t>(r.servers.size());
    IlbServer s = server;
    if (s.name.empty())
    {
        s.name = "server" + std::to_string(k);
    }
    // The servers still in the rule and the new one, checked as AddRule checks servers.
    IlbRule check = r;
    check.servers.clear();
    for (uint32_t i = 0; i < k; ++i)
    {
        if (i >= gone.size() || !gone[i])
        {
            check.servers.push_back(r.servers[i]);
        }
    }
    check.servers.push_back(s);
    CheckServers(check, rule);
    const std::string sw = Who(r, rule) + ": add server '" + s.name + "'";
    for (std::size_t i = 0; i + 1 < check.servers.size(); ++i)
    {
        const IlbServer& o = check.servers[i];
        // ilb.c ilb_server_add: "Check for duplicate." (the address, checked with the other
        // servers above, or the name by strcasecmp): EEXIST.
        if (AdcText::EqualsNoCase(o.name, s.name))
        {
            throw AdcConfigError(sw + ": server '" + o.name + "' of the rule has the same " +
                                 "name (illumos ilb_server_add: EEXIST); allowed a new name");
        }
    }
    r.servers.push_back(s);
    if (r.topology == IlbRule::HALF_NAT)
    {
        m_halfNatServers[s.address].emplace_back(rule, k);
    }
    return k;
}

uint32_t
IlbRuleSet::GetN() const
{
    return static_cast<uint32_t>(m_rules.size());
}

const IlbRule&
IlbRuleSet::Get(uint32_t i) const
{
    return m_rules[i];
}

const std::vector<AdcIpAddress>&
IlbRuleSet::GetNatAddresses(uint32_t i) const
{
    return m_natAddresses[i];
}

int32_t
IlbRuleSet::Find(const std::string& name) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        if (m_rules[i].name == name)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

int32_t
IlbRuleSet::MatchVip(const AdcFlowKey& flow) const
{
    return MatchOn(flow, false);
}

int32_t
IlbRuleSet::Match(const AdcFlowKey& flow) const
{
    return MatchOn(flow, true);
}

int32_t
IlbRuleSet::MatchOn(const AdcFlowKey& flow, bool port) const
{
    auto it = m_byVip.find(flow.dst);
    if (it == m_byVip.end())
    {
        return -1;
    }
    for (uint32_t r : it->second)
    {
        const IlbRule& rule = m_rules[r];
        if (rule.protocol == flow.protocol && (!port || rule.ports.Contains(flow.dstPort)))
        {
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

int32_t
IlbRuleSet::MatchOrphan(const AdcFlowKey& flow, bool portsKnown, int32_t& server) const
{
    server = -1;
    auto nat = m_natOwner.find(flow.dst);
    if (nat != m_natOwner.end())
    {
        const IlbRule& rule = m_rules[nat->second];
        if (rule.protocol == flow.protocol && (!portsKnown || rule.natPorts.Contains(flow.dstPort)))
        {
            return static_cast<int32_t>(nat->second);
        }
    }
    auto half = m_halfNatServers.find(flow.src);
    if (half == m_halfNatServers.end())
    {
        return -1;
    }
    for (const auto& [r, s] : half->second)
    {
        const IlbRule& rule = m_rules[r];
        const uint16_t port = rule.servers[s].port;
        const bool servicePort =
            port != 0 ? flow.srcPort == port : rule.ports.Contains(flow.srcPort);
        if (rule.protocol == flow.protocol && (!portsKnown || servicePort))
        {
            server = static_cast<int32_t>(s);
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

void
IlbRuleSet::Clear()
{
    m_rules.clear();
    m_natAddresses.clear();
    m_byVip.clear();
    m_halfNatServers.clear();
    m_natOwner.clear();
}

} // namespace ns3
