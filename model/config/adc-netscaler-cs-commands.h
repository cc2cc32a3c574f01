/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, content switching: NetScaler's CS virtual server commands
 * (add, set, rm cs vserver) and the object they store.
 */

#ifndef ADC_NETSCALER_CS_COMMANDS_H
#define ADC_NETSCALER_CS_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief What a content-switching virtual server's configuration says: its name, service
 * type, address and port, and its persistence (type, timeout, backup type and backup
 * timeout), checked against NetScaler's support matrix (CS-07) and backup rule (CS-08).
 *
 * The CS datapath reads it; the configuration front-end (AdcNetScalerCsCommands) builds it.
 * Timeouts are in minutes, as ns.conf gives them; GetTimeout() gives them as Times.
 */
class AdcCsVserverConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcCsVserverConfig();
    ~AdcCsVserverConfig() override;

    /// NetScaler's persistence timeout default and backup timeout default, in minutes.
    static constexpr uint32_t DEFAULT_TIMEOUT = 2;
    /// The largest timeout, in minutes (one day).
    static constexpr uint32_t MAX_TIMEOUT = 1440;

    /**
     * \param name the virtual server's name
     * \param serviceType its NetScaler service type (AdcService::GetServiceTypes())
     * \param vip its address (none: a virtual server without an address)
     * \param port its port (0 with vip none, or with service type ANY)
     * \throws AdcConfigError for an unknown service type
     */
    void Configure(const std::string& name,
                   const std::string& serviceType,
                   const AdcIpAddress& vip,
                   uint16_t port);

    /**
     * \brief Set the persistence, all of it or nothing.
     * \param type the persistence type
     * \param timeoutMinutes its timeout: 0..1440 for COOKIEINSERT (0: a session cookie) and
     * NONE, 2..1440 otherwise
     * \param backup the backup type: NONE, or SOURCEIP with COOKIEINSERT (CS-08)
     * \param backupTimeoutMinutes the backup's timeout, 2..1440
     * \throws AdcConfigError when \p type is not allowed on the service type (CS-07), the
     * backup is not allowed with \p type, or a timeout is out of range
     */
    void SetPersistence(AdcPersistenceType type,
                        uint32_t timeoutMinutes,
                        AdcPersistenceType backup,
                        uint32_t backupTimeoutMinutes);

    /// \return the name
    const std::string& GetName() const;
    /// \return the service type (NetScaler's name, e.g. "SSL")
    const std::string& GetServiceType() const;
    /// \return the address (none when it has none)
    const AdcIpAddress& GetVip() const;
    /// \return the port
    uint16_t GetPort() const;
    /// \return the persistence type
    AdcPersistenceType GetPersistenceType() const;
    /// \return the persistence timeout, in minutes
    uint32_t GetTimeoutMinutes() const;
    /// \return the persistence timeout (0 with COOKIEINSERT: a session cookie)
    Time GetTimeout() const;
    /// \return the backup persistence type (NONE or SOURCEIP)
    AdcPersistenceType GetPersistenceBackup() const;
    /// \return the backup persistence timeout, in minutes
    uint32_t GetBackupTimeoutMinutes() const;
    /// \return the backup persistence timeout
    Time GetBackupTimeout() const;

    /**
     * \param serviceType a NetScaler service type
     * \return the persistence types NetScaler allows on it (CS-07), NONE first
     */
    static std::vector<std::string> GetAllowedPersistenceTypes(const std::string& serviceType);

    /**
     * \param type a persistence type
     * \return the NetScaler service types it is allowed on (CS-07), "SSL" for HTTPS
     */
    static std::vector<std::string> GetAllowedServiceTypes(AdcPersistenceType type);

    /**
     * \ingroup adc
     * \brief A CS policy bound to the virtual server (`bind cs vserver <name> -policyName <p>
     * -priority <n>`): requests that match the policy's rule go to its target (CS-01).
     */
    struct PolicyBinding
    {
        std::string policy;    //!< the policy's name
        uint32_t priority{0};  //!< 1..MAX_PRIORITY, lower first, unique per virtual server
        std::string target;    //!< the LB virtual server the policy selects
        bool fromAction{true}; //!< target is the policy's action's (not -targetLBVserver)
    };

    /// The largest binding priority (NetScaler's: 2^31 - 1).
    static constexpr uint32_t MAX_PRIORITY = 2147483647;

    /**
     * \brief Bind a policy (CS-01, CS-02: also at run time).
     * \param binding the binding; it is kept in ascending priority order
     * \throws AdcConfigError when the policy is bound already, the priority is out of
     * 1..MAX_PRIORITY or another policy has it (the message names both), or a name is empty
     */
    void BindPolicy(const PolicyBinding& binding);

    /**
     * \param policy a bound policy's name
     * \throws AdcConfigError (listing the bound policies) when it is not bound
     */
    void UnbindPolicy(const std::string& policy);

    /**
     * \brief Change the target of the bindings of policies that take it from an action
     * (`set cs action`): every binding of \p policy with fromAction gets \p target.
     * \param policy a policy's name \param target the LB virtual server
     */
    void RetargetPolicy(const std::string& policy, const std::string& target);

    /// \return the policy bindings, in ascending priority order
    const std::vector<PolicyBinding>& GetPolicyBindings() const;

    /// \param policy a policy's name \return whether it is bound here
    bool IsPolicyBound(const std::string& policy) const;

    /**
     * \brief Bind (or, with "", unbind) the default LB virtual server, used when no policy
     * matches (`bind cs vserver <name> -lbvserver <lb>`).
     * \param lbVserver the LB virtual server's name, or "" for none
     * \throws AdcConfigError when one is bound already and \p lbVserver is not "" (NetScaler
     * allows one: unbind it first)
     */
    void SetDefaultLbVserver(const std::string& lbVserver);

    /// \return the default LB virtual server's name, "" when none is bound
    const std::string& GetDefaultLbVserver() const;

  private:
    /// \return the persistence type's name (the PersistenceType attribute)
    std::string GetPersistenceTypeName() const;
    /// \return the backup type's name (the PersistenceBackup attribute)
    std::string GetPersistenceBackupName() const;

    std::string m_name;                                    //!< name
    std::string m_serviceType{"HTTP"};                     //!< service type
    AdcIpAddress m_vip;                                    //!< address
    uint16_t m_port{0};                                    //!< port
    AdcPersistenceType m_type{AdcPersistenceType::NONE};   //!< persistence type
    uint32_t m_timeout{DEFAULT_TIMEOUT};                   //!< minutes
    AdcPersistenceType m_backup{AdcPersistenceType::NONE}; //!< backup type
    uint32_t m_backupTimeout{DEFAULT_TIMEOUT};             //!< minutes
    std::vector<PolicyBinding> m_bindings;                 //!< by ascending priority
    std::string m_defaultLb;                               //!< default LB vserver, or ""
};

/**
 * \ingroup adc
 * \brief The appliance-wide load-balancing parameters persistence cookies follow (`set lb
 * parameter`; NITRO's lbparameter resource):
 * - -cookieVersion 0 | 1 (default 0): version 0 writes the absolute expiry (expires=),
 *   version 1 the relative one (Max-Age) (CTX108883);
 * - -httpOnlyCookieFlag ENABLED | DISABLED (default ENABLED): "Include the HttpOnly attribute
 *   in persistence cookies" (lbparameter);
 * - -useEncryptedPersistenceCookie and -useSecuredPersistenceCookie: only DISABLED (the
 *   default). Citrix documents them as "Encode persistence cookie values using SHA2 hash" with
 *   -cookiePassphrase, but not the construction (which SHA-2, over what bytes, in what text
 *   form, how the appliance maps a hash back to a service), so no faithful value can be written;
 * - -cookiePassphrase: at most 31 characters (kept; used by nothing while encryption is off).
 */
class AdcLbParameterConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// \return the cookie version, 0 or 1
    uint8_t GetCookieVersion() const;
    /// \param v 0 or 1
    void SetCookieVersion(uint8_t v);
    /// \return whether persistence cookies carry httponly
    bool GetHttpOnlyCookie() const;
    /// \param on httponly on persistence cookies
    void SetHttpOnlyCookie(bool on);
    /// \return the passphrase ("" when none)
    const std::string& GetCookiePassphrase() const;
    /// \param p the passphrase
    void SetCookiePassphrase(const std::string& p);

  private:
    uint8_t m_cookieVersion{0};  //!< -cookieVersion
    bool m_httpOnly{true};       //!< -httpOnlyCookieFlag
    std::string m_passphrase;    //!< -cookiePassphrase
};

/**
 * \ingroup adc
 * \brief NetScaler's content-switching virtual server commands, added to NetScaler's language.
 *
 * Commands (NetScaler command reference):
 * - add cs vserver <name> <serviceType> [<IPAddress> <port>] [-persistenceType <t>]
 *   [-timeout <mins>] [-persistenceBackup <t>] [-backupPersistenceTimeout <mins>];
 *   serviceType one of AdcService::GetServiceTypes(); persistenceType NONE, SOURCEIP,
 *   COOKIEINSERT, SSLSESSION as the support matrix allows on the service type (CS-07);
 *   timeout default 2, 2..1440 (COOKIEINSERT 0..1440, 0 a session cookie, CS-05);
 *   persistenceBackup NONE or SOURCEIP, only with COOKIEINSERT (CS-08);
 *   backupPersistenceTimeout default 2, 2..1440.
 * - set cs vserver <name> with the same parameters (CS-11); a persistence type other than
 *   COOKIEINSERT drops a backup the virtual server had.
 * - rm cs vserver <name> (its bindings go with it).
 * - set lb parameter [-cookieVersion 0|1] [-httpOnlyCookieFlag ENABLED|DISABLED]
 *   [-useEncryptedPersistenceCookie DISABLED] [-useSecuredPersistenceCookie DISABLED]
 *   [-cookiePassphrase <string>] (AdcLbParameterConfig; stored under LB_PARAMETER).
 * - The CS actions, policies and bindings of AdcNetScalerCsPolicyCommands (add/set/rm cs
 *   action, add/set/rm cs policy, bind/unbind cs vserver), registered with these.
 * Show prints "add cs vserver" lines with the parameters that differ from the defaults, after
 * the load-balancing lines (ns.conf's order), so a configuration reads back the same.
 *
 * Objects go to the store under the kind CS_VSERVER (AdcCsVserverConfig).
 */
class AdcNetScalerCsCommands
{
  public:
    static const std::string CS_VSERVER; //!< kind of AdcCsVserverConfig
    static const std::string CS_ACTION;  //!< kind of AdcCsActionConfig
    static const std::string CS_POLICY;  //!< kind of AdcCsPolicyConfig
    static const std::string LB_PARAMETER; //!< kind of AdcLbParameterConfig (one, "lb parameter")

    /// \param store a configuration \return its `set lb parameter`, or the defaults
    static Ptr<const AdcLbParameterConfig> GetLbParameter(const AdcConfigStore& store);

    /**
     * \brief Add the commands above to \p language; a language that has them already is left
     * as it is.
     * \param language NetScaler's language (or another with its syntax)
     */
    static void Register(AdcConfigLanguage& language);

    /// \return AdcNetScalerCommands::GetLanguage(), with the commands above registered on it
    static AdcConfigLanguage& GetLanguage();

    /**
     * \brief Refuse a name COOKIEINSERT cannot write into the NSC_ cookie's name
     * (AdcNscCookie::VserverIdProblem): `add/set cs vserver -persistenceType COOKIEINSERT` for
     * the CS vserver and the LB vservers bound under it, and binding an LB vserver under a CS
     * vserver that has it.
     * \param cmd the command (its file and line) \param csVserver the CS vserver
     * \param role "cs vserver" or "lb vserver" \param name the name checked
     * \throws AdcConfigError "FILE:LINE: <command>: ..." naming the name, the character and
     *         what is allowed
     */
    static void CheckCookieName(const AdcConfigCommand& cmd,
                                const std::string& csVserver,
                                const std::string& role,
                                const std::string& name);
};

} // namespace ns3

#endif /* ADC_NETSCALER_CS_COMMANDS_H */
