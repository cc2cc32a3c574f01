/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: NetScaler's commands of N-tier cache redirection (CRD):
 * system settings (host name, modes, cache-redirection port range, IP addresses), policy-based
 * routes, cache-redirection virtual servers, and the lb vserver's forwarding mode.
 */

#ifndef ADC_NETSCALER_CRD_COMMANDS_H
#define ADC_NETSCALER_CRD_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/adc-port-range.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An appliance's system settings as ns.conf gives them: `set ns hostName`,
 * `enable ns mode` / `disable ns mode` and `set ns param -crPortRange`. One object per
 * configuration (kind AdcNetScalerCrdCommands::NS, name "ns"), made by the first such command.
 */
class AdcNsSettingsConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// \return the modes of `enable ns mode`, as the command reference spells them
    static const std::vector<std::string>& GetModes();
    /// \return the modes a NetScaler has enabled out of the box: FR L3 Edge USNIP PMTUD
    static const std::vector<std::string>& GetDefaultModes();

    /**
     * \param mode a mode of GetModes()
     * \return whether it is enabled: as the configuration set it, else NetScaler's default
     */
    bool IsModeEnabled(const std::string& mode) const;

    std::string hostName;                    //!< `set ns hostName` ("" when not set)
    std::map<std::string, bool> modes;       //!< modes the configuration enabled (true) or disabled
    std::optional<AdcPortRange> crPortRange; //!< `set ns param -crPortRange` (none: not set)
};

/**
 * \ingroup adc
 * \brief `add ns ip <IPAddress> <netmask> [-type SNIP|VIP|MIP]`: an address the appliance owns
 * (kind AdcNetScalerCrdCommands::NS_IP, named by the address). A MIP (mapped IP) is the source
 * of the appliance's connections to servers when USIP is off (CRD-06: the lower tier's
 * connections to the caches).
 */
class AdcNsIpConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    Ipv4Address address; //!< the address
    Ipv4Mask mask;       //!< its netmask
    std::string type;    //!< SNIP (the default), VIP or MIP
};

/**
 * \ingroup adc
 * \brief `add ns pbr`: a policy-based route (kind AdcNetScalerCrdCommands::NS_PBR). Matches
 * outgoing IPv4 packets by source and destination address (one address or a range), ports
 * (one port or a range; TCP and UDP only) and protocol, each with "=" or "!="; ALLOW sends a
 * match to -nextHop, DENY routes it normally. A PBR acts after `apply ns pbrs` only.
 */
class AdcNsPbrConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// A match on addresses: operator and inclusive range.
    struct IpMatch
    {
        bool given{false}; //!< the parameter was given
        bool equal{true};  //!< "=" (true) or "!=" (false)
        Ipv4Address first; //!< first address
        Ipv4Address last;  //!< last address (first when one address)
    };

    /// A match on ports: operator and inclusive range.
    struct PortMatch
    {
        bool given{false};  //!< the parameter was given
        bool equal{true};   //!< "=" or "!="
        AdcPortRange range; //!< the ports
    };

    /// \param m a match \return it as the CLI writes it, e.g. "= 10.0.0.0-10.255.255.255"
    static std::string ToString(const IpMatch& m);
    /// \param m a match \return it as the CLI writes it, e.g. "= 1024-16383"
    static std::string ToString(const PortMatch& m);

    std::string name;     //!< the PBR's name
    bool allow{true};     //!< ALLOW (true) or DENY
    IpMatch srcIp;        //!< -srcIP
    PortMatch srcPort;    //!< -srcPort
    IpMatch destIp;       //!< -destIP
    PortMatch destPort;   //!< -destPort
    Ipv4Address nextHop;  //!< -nextHop (ALLOW only)
    std::string protocol; //!< -protocol ("" when not given: any)
    uint32_t priority{0}; //!< -priority (0: not given; then in the order added)
    bool enabled{true};   //!< -state
    bool applied{false};  //!< an `apply ns pbrs` came after it
};

/**
 * \ingroup adc
 * \brief `add cr vserver`: a cache-redirection virtual server (kind
 * AdcNetScalerCrdCommands::CR_VSERVER) and the LB virtual server of caches bound to it
 * (`-cacheVserver` or `bind cr vserver <name> -lbvserver <lb>`).
 */
class AdcCrVserverConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \param expr a -srcIPExpr value: a header name, or HTTP.REQ.HEADER("<name>") optionally
     * followed by .TYPECAST_IP_ADDRESS_AT (NetScaler's default syntax expression)
     * \return the header name, or "" when \p expr is neither form
     */
    static std::string HeaderOfSrcIpExpr(const std::string& expr);

    std::string name;                     //!< its name
    std::string serviceType;              //!< HTTP or SSL
    Ipv4Address vip;                      //!< address (0.0.0.0 for "*")
    uint16_t port{0};                     //!< port
    std::string cacheType{"TRANSPARENT"}; //!< TRANSPARENT, REVERSE or FORWARD
    std::string redirect{"POLICY"};       //!< CACHE, POLICY or ORIGIN
    bool originUsip{false};               //!< -originUSIP ON: the client IP is the origin's source
    bool usePortRange{false};             //!< -usePortRange ON: source ports of -crPortRange
    bool via{true};                       //!< -via ON: a Via header marks requests
    bool reuse{true};                     //!< -reuse ON: server-side connections are reused
    std::string srcIpExpr;                //!< -srcIPExpr ("" when not given)
    std::string cacheVserver;             //!< the LB virtual server of caches ("" when none)
    bool enabled{true};                   //!< -state
};

/**
 * \ingroup adc
 * \brief The forwarding settings of an LB virtual server (`add lb vserver ... -m MAC
 * -sessionless ENABLED`), aggregated to its AdcVirtualServer by the lb vserver commands.
 */
class AdcLbVserverForwarding : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    std::string mode{"IP"};  //!< -m: IP (the default), MAC, IPTUNNEL or TOS
    bool sessionless{false}; //!< -sessionless ENABLED: per packet, no session
};

/**
 * \ingroup adc
 * \brief NetScaler's commands of N-tier cache redirection, added to NetScaler's language
 * (AdcNetScalerCommands::GetLanguage() calls Register).
 *
 * Commands (NetScaler command reference; keywords and values in any case):
 * - set ns hostName <name>
 * - enable ns mode <mode> ..., disable ns mode <mode> ...; modes of GetModes()
 * - set ns param -crPortRange <first>-<last> (1024..65535)
 * - add ns ip <IPAddress> <netmask> [-type SNIP|VIP|MIP]; rm ns ip <IPAddress>
 * - add ns pbr <name> ALLOW|DENY [-srcIP [=|!=] <ip>[-<ip>]] [-srcPort [=|!=] <p>[-<p>]]
 *   [-destIP ...] [-destPort ...] [-nextHop <ip>] [-protocol <p>] [-priority 1..81920]
 *   [-state ENABLED|DISABLED]; ALLOW needs -nextHop; ports need -protocol TCP or UDP (the
 *   command reference: "can be specified only for TCP and UDP protocols"); rm ns pbr <name>;
 *   apply ns pbrs
 * - add cr vserver <name> HTTP|SSL [<IPAddress> <port>] [-cacheType TRANSPARENT|REVERSE|
 *   FORWARD] [-redirect CACHE|POLICY|ORIGIN] [-originUSIP ON|OFF] [-usePortRange ON|OFF]
 *   [-via ON|OFF] [-reuse ON|OFF] [-srcIPExpr <expr>] [-cacheVserver <lb vserver>]
 *   [-state ENABLED|DISABLED]; defaults: TRANSPARENT, POLICY, OFF, OFF, ON, ON; set cr vserver
 *   (same parameters), rm cr vserver; bind cr vserver <name> -lbvserver <lb>, unbind.
 * - add lb vserver's -m IP|MAC|IPTUNNEL|TOS and -sessionless ENABLED|DISABLED (read by
 *   AdcNetScalerCommands, kept in AdcLbVserverForwarding; -sessionless ENABLED needs -m MAC).
 *
 * Show prints "set ns hostName", "enable ns mode", "disable ns mode", "set ns param", "add ns
 * ip", then (after the lb lines) "add ns pbr" (applied ones, "apply ns pbrs", the others),
 * "add cr vserver" and "bind cr vserver -lbvserver", with the parameters that differ from the
 * defaults.
 */
class AdcNetScalerCrdCommands
{
  public:
    static const std::string NS;         //!< kind of AdcNsSettingsConfig (one, named "ns")
    static const std::string NS_IP;      //!< kind of AdcNsIpConfig
    static const std::string NS_PBR;     //!< kind of AdcNsPbrConfig
    static const std::string CR_VSERVER; //!< kind of AdcCrVserverConfig

    /// \param language NetScaler's language: add the commands above
    static void Register(AdcConfigLanguage& language);

    /// \return NetScaler's language (AdcNetScalerCommands::GetLanguage())
    static AdcConfigLanguage& GetLanguage();

    /**
     * \param store a configuration
     * \return its system settings, or null when no command set them
     */
    static Ptr<AdcNsSettingsConfig> GetSettings(const AdcConfigStore& store);

    /// \return the parameters of add/set lb vserver this file reads (-m, -sessionless)
    static const std::vector<AdcConfigParameter>& GetLbVserverParameters();

    /**
     * \brief Apply -m and -sessionless of an add/set lb vserver command to \p vserver (its
     * AdcLbVserverForwarding, aggregated on first use).
     * \param cmd the command
     * \param vserver the virtual server (an AdcVirtualServer)
     */
    static void ApplyLbVserverParameters(const AdcConfigCommand& cmd, Ptr<Object> vserver);

    /// \param vserver an LB virtual server \return its -m/-sessionless as CLI text ("" for
    /// the defaults)
    static std::string LbVserverParametersText(Ptr<Object> vserver);
};

} // namespace ns3

#endif /* ADC_NETSCALER_CRD_COMMANDS_H */
