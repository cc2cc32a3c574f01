/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-policy-rule.h"

#include "adc-packet-rewrite.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"

#include <sstream>

namespace ns3
{

namespace
{

/// \param family a family \return "IPv4", "IPv6" or "no family"
std::string
FamilyName(AdcIpAddress::Family family)
{
    switch (family)
    {
    case AdcIpAddress::V4:
        return "IPv4";
    case AdcIpAddress::V6:
        return "IPv6";
    case AdcIpAddress::NONE:
        break;
    }
    return "no family";
}

/**
 * \param who the rule, for messages
 * \param field "src" or "dst"
 * \param net the network
 * \param mask its mask
 * \throws AdcConfigError when a mask with bits set comes without a network of its family
 */
void
CheckNetwork(const std::string& who,
             const std::string& field,
             const AdcIpAddress& net,
             const AdcIpMask& mask)
{
    if (mask.IsAny() || net.GetFamily() == mask.GetFamily())
    {
        return;
    }
    std::ostringstream os;
    os << who << ": " << field << "Net "
       << (net.IsNone() ? std::string("is unset while") : net.ToString() + " does not fit") << " "
       << field << "Mask " << mask << " (" << FamilyName(mask.GetFamily())
       << "); allowed: a network of the mask's family (an Ipv4Address with an Ipv4Mask, an "
          "Ipv6Address with an Ipv6Prefix)";
    throw AdcConfigError(os.str());
}

/// \param range an optional range \return its text, or "any"
std::string
RangeToString(const std::optional<AdcPortRange>& range)
{
    return range ? range->ToString() : "any";
}

} // namespace

AdcIpAddress
AdcNextHop::GetGateway(AdcIpAddress::Family family) const
{
    if (family == AdcIpAddress::V6)
    {
        return gateway6.IsAny() ? AdcIpAddress() : AdcIpAddress(gateway6);
    }
    return gateway.IsInitialized() && !gateway.IsAny() ? AdcIpAddress(gateway) : AdcIpAddress();
}

AdcIpAddress::Family
AdcPolicyRule::GetFamily() const
{
    if (!srcMask.IsAny())
    {
        return srcMask.GetFamily();
    }
    return dstMask.IsAny() ? AdcIpAddress::NONE : dstMask.GetFamily();
}

std::string
AdcPolicyRule::ActionToString(Action action)
{
    switch (action)
    {
    case FORWARD:
        return "FORWARD";
    case BALANCE:
        return "BALANCE";
    case LOCAL:
        return "LOCAL";
    case PASS:
        return "PASS";
    }
    return "action " + std::to_string(static_cast<unsigned>(action));
}

std::string
AdcPolicyRule::Who(uint32_t index) const
{
    return "AdcPolicyRouting: rule '" + name + "' (#" + std::to_string(index) + ")";
}

void
AdcPolicyRule::Check(uint32_t index) const
{
    const std::string who = Who(index);
    const std::size_t nHops = nextHops.size();
    const std::string hopsGiven = "nextHops has " + std::to_string(nHops) + " entries";
    switch (action)
    {
    case FORWARD:
        if (nHops != 1)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action FORWARD needs exactly 1");
        }
        break;
    case BALANCE: {
        if (nHops == 0)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action BALANCE needs at least 1");
        }
        AdcLbMethodRegistry::Resolve(
            balanceMethod,
            {AdcLbMethodRegistry::ANY, AdcLbMethodRegistry::FLOW_HASH},
            who,
            "balanceMethod",
            "sessionless balancing keeps no per-flow state, so it must give every packet of a "
            "flow the same next hop, which only a hash of the packet's fields does");
        for (std::size_t j = 0; j < nHops; ++j)
        {
            for (std::size_t i = 0; i < j; ++i)
            {
                const std::string& hop = nextHops[j].name;
                if (!hop.empty() && hop == nextHops[i].name)
                {
                    throw AdcConfigError(who + ": nextHops[" + std::to_string(j) + "].name '" +
                                         hop + "' repeats nextHops[" + std::to_string(i) +
                                         "].name; BALANCE hashes on hop names, so they must "
                                         "differ");
                }
            }
        }
        break;
    }
    case LOCAL:
    case PASS:
        if (nHops != 0)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action " + ActionToString(action) +
                                 " takes none");
        }
        break;
    default:
        throw AdcConfigError(who + ": action " + std::to_string(static_cast<unsigned>(action)) +
                             " is not one of FORWARD, BALANCE, LOCAL, PASS");
    }
    if (NeedsPorts() && protocol != 0 && !AdcHasPorts(protocol))
    {
        throw AdcConfigError(who + ": " + (srcPorts ? "srcPorts" : "dstPorts") +
                             " is set but protocol is " + std::to_string(protocol) +
                             "; port ranges need protocol 0 (any), 6 (TCP) or 17 (UDP)");
    }
    if (srcPorts)
    {
        srcPorts->Check(who + ": srcPorts");
    }
    if (dstPorts)
    {
        dstPorts->Check(who + ": dstPorts");
    }
    CheckNetwork(who, "src", srcNet, srcMask);
    CheckNetwork(who, "dst", dstNet, dstMask);
    if (!srcMask.IsAny() && !dstMask.IsAny() && srcMask.GetFamily() != dstMask.GetFamily())
    {
        throw AdcConfigError(who + ": srcNet " + srcMask.Format(srcNet) + " is " +
                             FamilyName(srcMask.GetFamily()) + " but dstNet " +
                             dstMask.Format(dstNet) + " is " + FamilyName(dstMask.GetFamily()) +
                             "; allowed: both networks of one family (a packet has one)");
    }
}

void
AdcPolicyRule::CheckInterfaces(uint32_t index,
                               uint32_t nInterfaces,
                               const std::string& family) const
{
    auto check = [&](uint32_t interface, const std::string& field) {
        if (interface >= nInterfaces)
        {
            throw AdcConfigError(Who(index) + ": " + field + " " + std::to_string(interface) +
                                 " is out of range (the node has " + std::to_string(nInterfaces) +
                                 " " + family + " interfaces, 0.." +
                                 std::to_string(nInterfaces - 1) + ")");
        }
    };
    for (std::size_t i = 0; i < inInterfaces.size(); ++i)
    {
        check(inInterfaces[i], "inInterfaces[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < nextHops.size(); ++i)
    {
        check(nextHops[i].interface, "nextHops[" + std::to_string(i) + "].interface");
    }
}

void
AdcPolicyRule::Print(std::ostream& os) const
{
    os << name << " in=";
    if (inInterfaces.empty())
    {
        os << "any";
    }
    for (std::size_t k = 0; k < inInterfaces.size(); ++k)
    {
        os << (k ? "," : "") << inInterfaces[k];
    }
    os << " src=" << srcMask.Format(srcNet) << " dst=" << dstMask.Format(dstNet)
       << " proto=" << static_cast<unsigned>(protocol) << " sport=" << RangeToString(srcPorts)
       << " dport=" << RangeToString(dstPorts) << " " << ActionToString(action);
    if (action == BALANCE)
    {
        os << "(" << balanceMethod << ")";
    }
}

} // namespace ns3
