/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The objects NetScaler's CRD commands read into (adc-netscaler-crd-commands.h): system
 * settings and modes, NS IPs, policy-based routes, cache-redirection virtual servers and the LB
 * virtual server's forwarding mode; the commands themselves are in adc-netscaler-crd-commands.cc.
 */

#include "adc-netscaler-crd-commands.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcNsSettingsConfig);
NS_OBJECT_ENSURE_REGISTERED(AdcNsIpConfig);
NS_OBJECT_ENSURE_REGISTERED(AdcNsPbrConfig);
NS_OBJECT_ENSURE_REGISTERED(AdcCrVserverConfig);
NS_OBJECT_ENSURE_REGISTERED(AdcLbVserverForwarding);

TypeId
AdcNsSettingsConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcNsSettingsConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcNsSettingsConfig>();
    return tid;
}

const std::vector<std::string>&
AdcNsSettingsConfig::GetModes()
{
    // `enable ns mode`'s modes, in the command reference's order.
    static const std::vector<std::string> modes = {"FR",
                                                   "L2",
                                                   "USIP",
                                                   "CKA",
                                                   "TCPB",
                                                   "MBF",
                                                   "Edge",
                                                   "USNIP",
                                                   "L3",
                                                   "PMTUD",
                                                   "SRADV",
                                                   "DRADV",
                                                   "IRADV",
                                                   "SRADV6",
                                                   "DRADV6",
                                                   "ULFD",
                                                   "mediaClassification",
                                                   "BridgeBPDUs"};
    return modes;
}

const std::vector<std::string>&
AdcNsSettingsConfig::GetDefaultModes()
{
    static const std::vector<std::string> modes = {"FR", "L3", "Edge", "USNIP", "PMTUD"};
    return modes;
}

bool
AdcNsSettingsConfig::IsModeEnabled(const std::string& mode) const
{
    const auto it = modes.find(mode);
    if (it != modes.end())
    {
        return it->second;
    }
    const std::vector<std::string>& d = GetDefaultModes();
    return std::find(d.begin(), d.end(), mode) != d.end();
}

TypeId
AdcNsIpConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcNsIpConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcNsIpConfig>();
    return tid;
}

TypeId
AdcNsPbrConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcNsPbrConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcNsPbrConfig>();
    return tid;
}

std::string
AdcNsPbrConfig::ToString(const IpMatch& m)
{
    std::ostringstream os;
    os << (m.equal ? "= " : "!= ") << m.first;
    if (m.last != m.first)
    {
        os << "-" << m.last;
    }
    return os.str();
}

std::string
AdcNsPbrConfig::ToString(const PortMatch& m)
{
    return std::string(m.equal ? "= " : "!= ") +
           (m.range.first == m.range.last ? std::to_string(m.range.first) : m.range.ToString());
}

TypeId
AdcCrVserverConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcCrVserverConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcCrVserverConfig>();
    return tid;
}

namespace
{

/// \return true when \p s is a non-empty RFC 9110 token
bool
IsToken(const std::string& s)
{
    static const std::string extra = "!#$%&'*+.^_`|~-";
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string::npos;
    });
}

/// \return \p s in upper case (ASCII)
std::string
Upper(std::string s)
{
    for (char& c : s)
    {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return s;
}

} // namespace

std::string
AdcCrVserverConfig::HeaderOfSrcIpExpr(const std::string& expr)
{
    // A header name (RFC 9110 token), or the default-syntax expression reading it:
    // HTTP.REQ.HEADER("<token>") with an optional .TYPECAST_IP_ADDRESS_AT, any case.
    static const std::string open = "HTTP.REQ.HEADER(\"";
    static const std::string typecast = ".TYPECAST_IP_ADDRESS_AT";
    const std::string up = Upper(expr);
    if (up.compare(0, open.size(), open) == 0)
    {
        const std::size_t close = expr.find("\")", open.size());
        if (close == std::string::npos)
        {
            return "";
        }
        const std::string name = expr.substr(open.size(), close - open.size());
        const std::string rest = up.substr(close + 2);
        return IsToken(name) && (rest.empty() || rest == typecast) ? name : "";
    }
    return IsToken(expr) && expr.find('.') == std::string::npos ? expr : "";
}

TypeId
AdcLbVserverForwarding::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcLbVserverForwarding")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcLbVserverForwarding>();
    return tid;
}

} // namespace ns3
