/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: NetScaler's CLI (ns.conf lines) for load-balancing virtual
 * servers, services, service groups and monitors.
 */

#ifndef ADC_NETSCALER_COMMANDS_H
#define ADC_NETSCALER_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class AdcVirtualServer;

/**
 * \ingroup adc
 * \brief NetScaler's command language, with the commands of load balancing.
 *
 * Commands (NetScaler command reference; keywords, parameter names and values in any case,
 * object names case-sensitive, names and values with blanks in "..." or '...'):
 * - add lb vserver <name> <serviceType> [<IPAddress> <port>] [-lbMethod <m>]
 *   [-persistenceType <t>] [-timeout <minutes>] [-backupVServer <name>] [-state ENABLED|DISABLED];
 *   defaults: lbMethod LEASTCONNECTION, persistenceType NONE, timeout 2; "*" for a wildcard
 *   address or port; set lb vserver (same parameters but -state), rm, enable, disable;
 *   bind lb vserver <name> <service or serviceGroup> [-weight 1..100], unbind.
 * - add service <name> <IP> <serviceType> <port> [-cip ENABLED|DISABLED [<cipHeader>]]
 *   [-usip YES|NO] [-useproxyport YES|NO] [-maxClient N] [-healthMonitor YES|NO]
 *   [-state ENABLED|DISABLED]; defaults: cip DISABLED, usip NO, useproxyport YES, maxClient 0,
 *   healthMonitor YES; set service, rm, enable, disable;
 *   bind service <name> -monitorName <m>, unbind.
 * - add serviceGroup <name> <serviceType> (same parameters as add service);
 *   bind serviceGroup <name> <IP> <port> [-weight N] [-state ...] | -monitorName <m>, unbind,
 *   rm, enable, disable.
 * - add lb monitor <name> <type> [-interval N [SEC|MSEC|MIN]] [-resptimeout N [unit]]
 *   [-retries N] [-successRetries N] [-downTime N [unit]] [-destPort N] [-httpRequest <s>]
 *   [-respCode <code>] [-send <s>]; types PING, TCP, HTTP, UDP-ECV; defaults: interval 5 s,
 *   resptimeout 2 s, retries 3, successRetries 1, downTime 30 s, httpRequest "HEAD /",
 *   respCode 200; set lb monitor <name> <type>, rm lb monitor <name> <type>.
 * Show prints, in ns.conf's order, "add lb monitor", "add service", "add serviceGroup",
 * "bind serviceGroup", "add lb vserver", "set lb vserver -backupVServer", "bind lb vserver" and
 * "bind service -monitorName" lines, each with the parameters that differ from the defaults.
 *
 * Objects go to the store under the kinds SERVICE, SERVICE_GROUP, LB_VSERVER and LB_MONITOR
 * (AdcService, AdcServiceGroup, AdcVirtualServer, AdcHealthMonitor). Monitors are
 * applications: the subject that uses the configuration installs them on its appliance.
 */
class AdcNetScalerCommands
{
  public:
    static const std::string SERVICE;       //!< kind of AdcService
    static const std::string SERVICE_GROUP; //!< kind of AdcServiceGroup
    static const std::string LB_VSERVER;    //!< kind of AdcVirtualServer
    static const std::string LB_MONITOR;    //!< kind of AdcHealthMonitor

    /**
     * \return NetScaler's language with the commands above, built on first use; subjects add
     * theirs to it (content switching's "add cs vserver", GSLB's, ...)
     */
    static AdcConfigLanguage& GetLanguage();

    /// \return the monitor types: PING, TCP, HTTP, UDP-ECV, and GSLB's LDNS-PING, LDNS-DNS,
    /// LDNS-TCP (RTT probes of local DNS servers: ICMP echo, DNS over UDP and TCP to port 53)
    static const std::vector<std::string>& GetMonitorTypes();

    /**
     * \param t a time
     * \return it as the CLI writes a monitor time: "5" (seconds) or "500 MSEC"
     */
    static std::string FormatTime(Time t);

    /**
     * \param name a name
     * \return true when NetScaler accepts it as an object name: 1..127 characters, a letter,
     * digit or '_' first, then letters, digits and _ # . space : @ = -
     */
    static bool IsValidName(const std::string& name);

    // What every NetScaler command reads and prints the same way; subjects adding commands
    // to the language (content switching, GSLB) use these too.

    /// \param word a word \return it quoted as the CLI needs (blanks, quotes, leading '-')
    static std::string Quote(const std::string& word);

    /**
     * \param cmd the command \param name a new object's name \param what what it names
     * \throws AdcConfigFileError unless IsValidName(name)
     */
    static void CheckName(const AdcConfigCommand& cmd,
                          const std::string& name,
                          const std::string& what);

    /**
     * \brief A new object's name (every `add <object> <name>` of the language): valid
     * (CheckName) and not taken yet by an object of \p kind in the command's store.
     * \param cmd the command \param kind the store's kind \param name the name
     * \param what the parameter's name in the reference ("name", "siteName")
     * \param noun what the object is called in the message ("cs vserver")
     * \throws AdcConfigFileError for a bad or taken name
     */
    static void CheckNewName(const AdcConfigCommand& cmd,
                             const std::string& kind,
                             const std::string& name,
                             const std::string& what,
                             const std::string& noun);

    /// \param cmd the command \param word YES or NO (any case) \param what the parameter
    /// \return true for YES (AdcConfigFileError for anything else)
    static bool ReadYesNo(const AdcConfigCommand& cmd,
                          const std::string& word,
                          const std::string& what);

    /// \param cmd the command \param word ENABLED or DISABLED \param what the parameter
    /// \return true for ENABLED (AdcConfigFileError for anything else)
    static bool ReadEnabled(const AdcConfigCommand& cmd,
                            const std::string& word,
                            const std::string& what);

    /**
     * \param cmd the command \param word a port, or "*" \param serviceType the object's type
     * \return the port; "*" is 0 and needs service type ANY
     */
    static uint16_t ReadPort(const AdcConfigCommand& cmd,
                             const std::string& word,
                             const std::string& serviceType);

    /// \param object an object \param name one of its attributes
    /// \return the attribute's value, read as a V (StringValue, TimeValue, UintegerValue...)
    template <typename V>
    static auto GetAttribute(Ptr<Object> object, const std::string& name)
    {
        V v;
        object->GetAttribute(name, v);
        return v.Get();
    }

    /// \return the LB method's own parameters of add/set lb vserver: -hashLength, -netmask,
    /// -v6netmasklen
    static std::vector<AdcConfigParameter> GetLbMethodParameters();

    /**
     * \brief Read and check the LB method's parameters of \p cmd (FILE:LINE errors).
     * \param cmd an add or set lb vserver command
     * \return (method attribute, value) pairs for AdcVirtualServer::SetLbMethodParameter
     */
    static std::vector<std::pair<std::string, std::string>> ReadLbMethodParameters(
        const AdcConfigCommand& cmd);

    /// \param vserver an LB virtual server \return its method parameters as CLI text ("" for
    /// the defaults)
    static std::string LbMethodParametersText(Ptr<AdcVirtualServer> vserver);

  private:
    /// \param language the language: add the monitor commands (add/set/rm lb monitor)
    static void RegisterMonitors(AdcConfigLanguage& language);
    /// \param language the language: add the virtual server, service and group commands
    static void RegisterLoadBalancing(AdcConfigLanguage& language);
};

} // namespace ns3

#endif /* ADC_NETSCALER_COMMANDS_H */
