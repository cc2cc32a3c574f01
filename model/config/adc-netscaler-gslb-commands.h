/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, GSLB: NetScaler's GSLB commands (sites, GSLB services, GSLB
 * virtual servers and their domains, the GSLB parameter, the built-in LDNS monitors) and the
 * objects they store.
 */

#ifndef ADC_NETSCALER_GSLB_COMMANDS_H
#define ADC_NETSCALER_GSLB_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A GSLB site (`add gslb site <name> <siteIPAddress> [-siteType LOCAL|REMOTE]
 * [-publicIP <ip>]`): a data centre taking part in the GSLB domain. Its site IP is where its
 * metric exchange (MEP) listens; its public IP (the site IP unless given) is what the other
 * sites connect to.
 */
class GslbSiteConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \param name the site's name
     * \param siteIp its site IP address
     * \param local whether it is this appliance's own site (LOCAL) or another's (REMOTE)
     */
    void Configure(const std::string& name, const AdcIpAddress& siteIp, bool local);
    /// \param ip the public IP (none: the site IP)
    void SetPublicIp(const AdcIpAddress& ip);

    /// \return the name
    const std::string& GetName() const;
    /// \return the site IP
    const AdcIpAddress& GetSiteIp() const;
    /// \return the public IP, or the site IP when none was given
    AdcIpAddress GetPublicIp() const;
    /// \return whether a public IP was given
    bool HasPublicIp() const;
    /// \return whether it is the LOCAL site
    bool IsLocal() const;

  private:
    std::string m_name;    //!< name
    AdcIpAddress m_siteIp; //!< site IP
    AdcIpAddress m_public; //!< public IP (none: the site IP)
    bool m_local{false};   //!< LOCAL
};

/**
 * \ingroup adc
 * \brief A GSLB service (`add gslb service <name> <IP> <serviceType> <port> -siteName <site>
 * [-publicIP <ip>] [-publicPort <n>]`): one site's instance of the application, the address a
 * DNS answer gives out.
 *
 * GetService() is the shared core's AdcService for it (built once), configured with the public
 * IP and port: the address clients are sent to, which the ADNS answers and which the
 * service's monitors (if any) probe. Remote sites' services get their state from MEP
 * (AdcService::SetExternalHealth).
 */
class GslbServiceConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * \param name the service's name
     * \param ip its IP address
     * \param serviceType one of AdcService::GetServiceTypes()
     * \param port its port (0: "*", service type ANY)
     * \param siteName the GSLB site it belongs to
     */
    void Configure(const std::string& name,
                   const AdcIpAddress& ip,
                   const std::string& serviceType,
                   uint16_t port,
                   const std::string& siteName);
    /// \param ip the public IP (none: the IP)
    void SetPublicIp(const AdcIpAddress& ip);
    /// \param port the public port (0: the port)
    void SetPublicPort(uint16_t port);

    /// \return the name
    const std::string& GetName() const;
    /// \return the IP
    const AdcIpAddress& GetIp() const;
    /// \return the service type
    const std::string& GetServiceType() const;
    /// \return the port
    uint16_t GetPort() const;
    /// \return the site's name
    const std::string& GetSiteName() const;
    /// \return the public IP, or the IP when none was given
    AdcIpAddress GetPublicIp() const;
    /// \return the public port, or the port when none was given
    uint16_t GetPublicPort() const;
    /// \return whether a public IP was given
    bool HasPublicIp() const;
    /// \return whether a public port was given
    bool HasPublicPort() const;

    /// \return the shared core's service (name, public IP, service type, public port)
    Ptr<AdcService> GetService();

  protected:
    void DoDispose() override;

  private:
    std::string m_name;        //!< name
    AdcIpAddress m_ip;         //!< IP
    std::string m_serviceType; //!< service type
    uint16_t m_port{0};        //!< port
    std::string m_site;        //!< site name
    AdcIpAddress m_publicIp;   //!< public IP (none: m_ip)
    uint16_t m_publicPort{0};  //!< public port (0: m_port)
    Ptr<AdcService> m_service; //!< built by GetService
};

/**
 * \ingroup adc
 * \brief A GSLB virtual server (`add gslb vserver <name> <serviceType> [-lbMethod M]
 * [-tolerance ms] [-dnsRecordType A|AAAA] [-EDR ENABLED|DISABLED]`), with its bound GSLB
 * services and domains.
 *
 * GetVirtualServer() is the shared core's AdcVirtualServer (no address: DNS answers choose
 * among the bound services), with the LB method and the bound services' AdcServices; it is
 * built on first use and follows later binds and unbinds.
 */
class GslbVserverConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbVserverConfig();
    ~GslbVserverConfig() override;

    /// NetScaler's default -tolerance, ms: no selection window (the NITRO reference
    /// setgslbvserver_tolerance gives no other default).
    static constexpr uint32_t DEFAULT_TOLERANCE_MS = 0;
    /// The seed's default of its "tolerance factor" (`set gslb vserver -tolerance`, read as the
    /// store-and-send gate): "The default tolerance factor is 5 ms" (GslbSiteApps, SEED).
    static constexpr uint32_t SEED_DEFAULT_TOLERANCE_MS = 5;
    /// The largest tolerance NetScaler accepts, ms.
    static constexpr uint32_t MAX_TOLERANCE_MS = 100;
    /// NetScaler's default TTL of a bound domain, s.
    static constexpr uint32_t DEFAULT_TTL = 5;
    /// NetScaler's default GSLB LB method.
    static const std::string DEFAULT_LB_METHOD;
    /// The backup method when -backupLBMethod is not given: round robin (the seed: "If RTT
    /// information is not available ... the appliance selects a site by using the round robin
    /// method").
    static const std::string DEFAULT_BACKUP_LB_METHOD;

    /// A domain bound to the virtual server (`bind gslb vserver <v> -domainName <d>`).
    struct Domain
    {
        std::string name;      //!< the domain name, as given
        uint32_t ttl;          //!< the TTL of answers, s
        AdcIpAddress backupIp; //!< -backupIP: answered when no service is up (none: not set)
        std::string file{};    //!< the file of the binding (for Validate's message)
        uint32_t line{0};      //!< its line
    };

    /**
     * \param name the virtual server's name
     * \param serviceType one of AdcService::GetServiceTypes()
     */
    void Configure(const std::string& name, const std::string& serviceType);
    /// \param method the LB method's canonical name (see AdcNetScalerGslbCommands::GetLbMethods)
    void SetLbMethod(const std::string& method);
    /// \param ms -tolerance, the RTT selection window (AdcConfigError above MAX_TOLERANCE_MS);
    /// marks it as given (IsToleranceSet)
    void SetToleranceMs(uint32_t ms);
    /// \param method -backupLBMethod's canonical name (see AdcNetScalerGslbCommands::
    /// GetLbMethods); used while the RTT or STATICPROXIMITY method cannot choose
    void SetBackupLbMethod(const std::string& method);
    /// \param type AdcDnsMessage::TYPE_A or TYPE_AAAA (AdcConfigError otherwise)
    void SetDnsRecordType(uint16_t type);
    /// \param on -EDR: an empty DNS response when the virtual server is DOWN
    void SetEmptyDownResponse(bool on);
    /// \param file the file of its `add gslb vserver` line \param line the line
    void SetLocation(const std::string& file, uint32_t line);
    /// \return the file of its `add gslb vserver` line ("" when not read from one)
    const std::string& GetFile() const;
    /// \return the line of its `add gslb vserver` line
    uint32_t GetLine() const;

    /// \return the name
    const std::string& GetName() const;
    /// \return the service type
    const std::string& GetServiceType() const;
    /// \return the LB method's canonical name
    const std::string& GetLbMethod() const;
    /// \return -tolerance, ms (DEFAULT_TOLERANCE_MS when not given)
    uint32_t GetToleranceMs() const;
    /// \return whether -tolerance was given (the seed's reading defaults it to 5 ms otherwise)
    bool IsToleranceSet() const;
    /// \return -backupLBMethod (DEFAULT_BACKUP_LB_METHOD when not given)
    const std::string& GetBackupLbMethod() const;
    /// \return whether -backupLBMethod was given
    bool IsBackupLbMethodSet() const;
    /// \return the record type of the domains' answers (A or AAAA)
    uint16_t GetDnsRecordType() const;
    /// \return -EDR
    bool GetEmptyDownResponse() const;

    /**
     * \param service a GSLB service (AdcConfigError when bound already or of another service
     * type than the virtual server's)
     */
    void BindService(Ptr<GslbServiceConfig> service);
    /// \param name a bound service's name \return false when it is not bound
    bool UnbindService(const std::string& name);
    /// \return the bound services' names, in binding order
    std::vector<std::string> GetServiceNames() const;
    /// \return the bound services, in binding order
    const std::vector<Ptr<GslbServiceConfig>>& GetServices() const;

    /// \param domain a domain (AdcConfigError when bound already, ignoring case)
    void BindDomain(const Domain& domain);
    /// \param name a bound domain (ignoring case) \return false when it is not bound
    bool UnbindDomain(const std::string& name);
    /// \return the bound domains, in binding order
    const std::vector<Domain>& GetDomains() const;

    /**
     * \return the shared core's virtual server with the bound services
     * \throws AdcConfigError when the LB method is not registered (RTT and STATICPROXIMITY
     * come from the GSLB LB methods' registration)
     */
    Ptr<AdcVirtualServer> GetVirtualServer();

  protected:
    void DoDispose() override;

  private:
    std::string m_name;                             //!< name
    std::string m_serviceType{"HTTP"};              //!< service type
    std::string m_lbMethod;                         //!< LB method
    uint32_t m_tolerance{DEFAULT_TOLERANCE_MS};     //!< ms
    bool m_toleranceSet{false};                     //!< -tolerance given
    std::string m_backupLbMethod;                   //!< -backupLBMethod
    bool m_backupLbMethodSet{false};                //!< -backupLBMethod given
    uint16_t m_recordType{1};                       //!< A
    bool m_edr{false};                              //!< -EDR
    std::string m_file;                             //!< where added
    uint32_t m_line{0};                             //!< where added
    std::vector<Ptr<GslbServiceConfig>> m_services; //!< bound services
    std::vector<Domain> m_domains;                  //!< bound domains
    Ptr<AdcVirtualServer> m_vserver;                //!< built by GetVirtualServer
};

/**
 * \ingroup adc
 * \brief The GSLB parameter (`set gslb parameter`): the LDNS probe order, the LDNS entry
 * timeout, the MEP keep-alive timeout and the RTT tolerance of metric updates.
 */
class GslbParameterConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbParameterConfig();
    ~GslbParameterConfig() override;

    static constexpr uint32_t DEFAULT_LDNS_ENTRY_TIMEOUT = 180;   //!< s, NetScaler's default
    static constexpr uint32_t MIN_LDNS_ENTRY_TIMEOUT = 30;        //!< s, NetScaler's minimum
    static constexpr uint32_t MAX_LDNS_ENTRY_TIMEOUT = 65534;     //!< s
    static constexpr uint32_t DEFAULT_MEP_KEEPALIVE_TIMEOUT = 10; //!< s, NetScaler's default
    static constexpr uint32_t MAX_MEP_KEEPALIVE_TIMEOUT = 3600;   //!< s (the model's limit)
    static constexpr uint32_t DEFAULT_RTT_TOLERANCE = 5;          //!< ms, NetScaler's default
    static constexpr uint32_t MAX_RTT_TOLERANCE = 100;            //!< ms, NetScaler's maximum

    /// \return the probe kinds, in NetScaler's default order: PING, DNS, TCP
    static const std::vector<std::string>& GetProbeKinds();

    /**
     * \param words probe kinds as -ldnsprobeOrder gives them (any case): 1 to 3, distinct
     * \throws AdcConfigError naming -ldnsprobeOrder, the word and the allowed kinds
     */
    void SetProbeOrder(const std::vector<std::string>& words);
    /// \param s LDNS entry timeout (MIN..MAX_LDNS_ENTRY_TIMEOUT)
    void SetLdnsEntryTimeout(uint32_t s);
    /// \param s MEP keep-alive timeout (1..MAX_MEP_KEEPALIVE_TIMEOUT)
    void SetMepKeepAliveTimeout(uint32_t s);
    /// \param ms RTT tolerance of metric updates (1..MAX_RTT_TOLERANCE)
    void SetRttTolerance(uint32_t ms);

    /// \return the probe order, canonical words ("PING", "DNS", "TCP")
    const std::vector<std::string>& GetProbeOrder() const;
    /// \return -ldnsEntryTimeout, s
    uint32_t GetLdnsEntryTimeout() const;
    /// \return -mepKeepAliveTimeout, s
    uint32_t GetMepKeepAliveTimeout() const;
    /// \return -rttTolerance, ms
    uint32_t GetRttTolerance() const;

  private:
    std::vector<std::string> m_order;                        //!< probe order
    uint32_t m_ldnsEntryTimeout{DEFAULT_LDNS_ENTRY_TIMEOUT}; //!< s
    uint32_t m_mepKeepAlive{DEFAULT_MEP_KEEPALIVE_TIMEOUT};  //!< s
    uint32_t m_rttTolerance{DEFAULT_RTT_TOLERANCE};          //!< ms
};

/**
 * \ingroup adc
 * \brief NetScaler's GSLB commands, added to NetScaler's language.
 *
 * Commands (NetScaler command reference; keywords and parameter names in any case):
 * - add gslb site <siteName> <siteIPAddress> [-siteType LOCAL|REMOTE] [-publicIP <ip>];
 *   siteType default REMOTE (NetScaler infers LOCAL from its own addresses; the model is
 *   told); at most one LOCAL site.
 * - add gslb service <name> <IP> <serviceType> <port> -siteName <site> [-publicIP <ip>]
 *   [-publicPort <n>]; the site must exist.
 * - add gslb vserver <name> <serviceType> [-lbMethod M] [-backupLBMethod M] [-tolerance ms]
 *   [-dnsRecordType A|AAAA] [-EDR ENABLED|DISABLED]; lbMethod default LEASTCONNECTION, one of
 *   GetLbMethods(); backupLBMethod default ROUNDROBIN, one of GetLbMethods(), only with
 *   lbMethod RTT or STATICPROXIMITY (Validate); tolerance (the RTT selection window, GslbRttLb) default 0, 0..100; set gslb vserver
 *   <name> with -lbMethod, -backupLBMethod, -tolerance, -EDR.
 * - bind gslb vserver <name> -serviceName <svc> | -domainName <d> [-TTL s] [-backupIP ip];
 *   TTL default 5; unbind gslb vserver <name> -serviceName <svc> | -domainName <d>.
 * - set gslb parameter [-ldnsprobeOrder <kind>...] [-ldnsEntryTimeout s]
 *   [-mepKeepAliveTimeout s] [-rttTolerance ms]; kinds PING DNS TCP (1..3, distinct; default
 *   PING DNS TCP); defaults 180 s, 10 s, 5 ms (-rttTolerance 1..100: the store-and-send gate
 *   of RTT changes, GslbRttDatabase "Tolerance").
 * - The built-in monitors ldns-ping (LDNS-PING), ldns-dns (LDNS-DNS) and ldns-tcp (LDNS-TCP)
 *   exist without `add lb monitor`: they are put in the store by the first GSLB command (a
 *   `set lb monitor ldns-xxx <type> ...` puts the one it names, then sets it as `set lb monitor`
 *   does);
 *   `rm lb monitor` of one is refused, as NetScaler refuses removing built-in monitors.
 * Show prints "add gslb site", "add gslb service", "add gslb vserver", "bind gslb vserver"
 * and "set gslb parameter" lines with the parameters that differ from the defaults, after the
 * other subjects' lines; the built-in monitors print with the monitors, as "add lb monitor"
 * lines, so that reading Show's text again gives the same objects.
 *
 * Objects go to the store under the kinds GSLB_SITE, GSLB_SERVICE, GSLB_VSERVER and
 * GSLB_PARAMETER (one object named PARAMETER_NAME, stored by the first `set gslb parameter`).
 * What can only be checked once every line is read (a domain bound to a virtual server with
 * no service, no LOCAL site while a virtual server exists) is checked by Validate().
 */
class AdcNetScalerGslbCommands
{
  public:
    static const std::string GSLB_SITE;      //!< kind of GslbSiteConfig
    static const std::string GSLB_SERVICE;   //!< kind of GslbServiceConfig
    static const std::string GSLB_VSERVER;   //!< kind of GslbVserverConfig
    static const std::string GSLB_PARAMETER; //!< kind of GslbParameterConfig
    static const std::string PARAMETER_NAME; //!< the GSLB parameter's name in the store

    /**
     * \brief Add the commands above to \p language; a language that has them already is left
     * as it is.
     * \param language NetScaler's language
     */
    static void Register(AdcConfigLanguage& language);

    /// \return AdcNetScalerCommands::GetLanguage(), with the commands above registered on it
    static AdcConfigLanguage& GetLanguage();

    /**
     * \return the LB methods a GSLB virtual server accepts: ROUNDROBIN, LEASTCONNECTION, RTT,
     * STATICPROXIMITY (NetScaler's names, kept here in sync with the GSLB methods' own
     * registration in gslb-lb-methods), then any other method registered with the
     * AdcLbMethodRegistry::USES_LDNS trait
     */
    static std::vector<std::string> GetLbMethods();

    /**
     * \param store a configuration
     * \return its GSLB parameter, or one with the defaults when it has none
     */
    static Ptr<GslbParameterConfig> GetParameter(const AdcConfigStore& store);

    /// \param store a configuration \return its LOCAL site, or null
    static Ptr<GslbSiteConfig> GetLocalSite(const AdcConfigStore& store);

    /**
     * \brief Check what needs every line: each GSLB virtual server with a bound domain has a
     * bound service, and a configuration with a GSLB virtual server has exactly one LOCAL site.
     * \param store a configuration read with these commands
     * \throws AdcConfigFileError naming the file and line of the binding or virtual server
     */
    static void Validate(const AdcConfigStore& store);

    /**
     * \brief Read a file and Validate what was read.
     * \param reader a reader of GetLanguage() \param path the file
     */
    static void ReadFile(AdcConfigReader& reader, const std::string& path);

    /**
     * \brief Compare several sites' configurations of one GSLB domain (GSLB-09: "the RTT
     * tolerance must be the same across the GSLB domain").
     * \param stores each site's configuration
     * \param names each one's name for messages (its file)
     * \return one message per mismatch: a GSLB virtual server whose -tolerance, or a GSLB
     * parameter -rttTolerance, differs from the first configuration that has it (both files,
     * the virtual server, both values); empty when they agree
     */
    static std::vector<std::string> CheckDomainConsistency(
        const std::vector<const AdcConfigStore*>& stores,
        const std::vector<std::string>& names);

    /// \return the built-in monitors' names: ldns-ping, ldns-dns, ldns-tcp
    static const std::vector<std::string>& GetBuiltinMonitors();
};

} // namespace ns3

#endif /* ADC_NETSCALER_GSLB_COMMANDS_H */
