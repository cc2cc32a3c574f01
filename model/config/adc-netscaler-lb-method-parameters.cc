/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NetScaler front end: the LB method's own parameters of add/set lb vserver (-hashLength,
 * -netmask, -v6netmasklen), kept on the virtual server (AdcVirtualServer::SetLbMethodParameter)
 * and applied to whichever method it runs.
 */

#include "adc-netscaler-commands.h"

#include "ns3/adc-virtual-server.h"

#include <sstream>

namespace ns3
{

namespace
{

/// A parameter: its CLI name, the method attribute it sets and its default as printed.
struct MethodParameter
{
    const char* cli;       //!< e.g. "-hashLength"
    const char* attribute; //!< e.g. "HashLength" (AdcUrlHashLb)
    const char* fallback;  //!< the default, not printed back by show
};

// NetScaler's command reference (add lb vserver): -hashLength, bytes of the URL (URLHASH) or
// domain hashed, default 80, 1..4096; -netmask, the IPv4 mask applied to the source or
// destination address for SOURCEIPHASH and DESTINATIONIPHASH; -v6netmasklen, the IPv6 prefix
// length for them, default 128, 1..128.
const MethodParameter kParameters[] = {{"-hashLength", "HashLength", "80"},
                                       {"-netmask", "Netmask", "255.255.255.255"},
                                       {"-v6netmasklen", "V6NetmaskLen", "128"}};

} // namespace

std::vector<AdcConfigParameter>
AdcNetScalerCommands::GetLbMethodParameters()
{
    std::vector<AdcConfigParameter> p;
    for (const MethodParameter& m : kParameters)
    {
        p.push_back({m.cli});
    }
    return p;
}

std::vector<std::pair<std::string, std::string>>
AdcNetScalerCommands::ReadLbMethodParameters(const AdcConfigCommand& cmd)
{
    std::vector<std::pair<std::string, std::string>> values;
    if (cmd.Has("-hashLength"))
    {
        const uint64_t n = cmd.Number(cmd.Value("-hashLength"), "-hashLength", 1, 4096);
        values.emplace_back("HashLength", std::to_string(n));
    }
    if (cmd.Has("-netmask"))
    {
        const std::string& word = cmd.Value("-netmask");
        const AdcIpAddress m = cmd.Address(word, "-netmask");
        const uint32_t bits = m.IsV4() ? m.GetIpv4().Get() : 1;
        if (!m.IsV4() || (~bits & (~bits + 1)) != 0) // contiguous ones, then zeros
        {
            cmd.Fail("bad value of -netmask", word, {"a contiguous IPv4 mask"});
        }
        values.emplace_back("Netmask", m.ToString());
    }
    if (cmd.Has("-v6netmasklen"))
    {
        const uint64_t n = cmd.Number(cmd.Value("-v6netmasklen"), "-v6netmasklen", 1, 128);
        values.emplace_back("V6NetmaskLen", std::to_string(n));
    }
    return values;
}

std::string
AdcNetScalerCommands::LbMethodParametersText(Ptr<AdcVirtualServer> vserver)
{
    std::ostringstream os;
    for (const MethodParameter& m : kParameters)
    {
        const std::string value = vserver->GetLbMethodParameter(m.attribute);
        if (!value.empty() && value != m.fallback)
        {
            os << " " << m.cli << " " << value;
        }
    }
    return os.str();
}

} // namespace ns3
