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
 * - rm cs vserver <name>.
 * Show prints "add cs vserver" lines with the parameters that differ from the defaults, after
 * the load-balancing lines (ns.conf's order), so a configuration reads back the same.
 *
 * Objects go to the store under the kind CS_VSERVER (AdcCsVserverConfig).
 */
class AdcNetScalerCsCommands
{
  public:
    static const std::string CS_VSERVER; //!< kind of AdcCsVserverConfig

    /**
     * \brief Add the commands above to \p language; a language that has them already is left
     * as it is.
     * \param language NetScaler's language (or another with its syntax)
     */
    static void Register(AdcConfigLanguage& language);

    /// \return AdcNetScalerCommands::GetLanguage(), with the commands above registered on it
    static AdcConfigLanguage& GetLanguage();
};

} // namespace ns3

#endif /* ADC_NETSCALER_CS_COMMANDS_H */
