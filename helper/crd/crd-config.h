/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD: the N-tier cache-redirection topology configured from NetScaler ns.conf files, one per
 * appliance, and the files the C++ configuration amounts to.
 */

#ifndef CRD_CONFIG_H
#define CRD_CONFIG_H

#include "ns3/adc-config-reader.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/crd-topology.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The seed's appliances configured from ns.conf files (NetScaler's CLI, read by
 * AdcNetScalerCommands and AdcNetScalerCrdCommands): one file per upper appliance and one per
 * lower appliance, as each real appliance has its own ns.conf.
 *
 * Upper appliance i (hostName L1NS<i+1>): L3 mode; one LB vserver of service type ANY on
 * `* *` with `-m MAC -sessionless ENABLED` and a hash -lbMethod (UpperBalanceMethod) over one
 * service per lower appliance (ANY *, bound in the lower tier's order, at the address this
 * appliance reaches it at), optionally a TCP monitor with -destPort 80 bound to them
 * (MonitorLowerTier and the monitor settings); one applied ALLOW PBR per lower appliance
 * (-destIP the clients' network, -destPort its port range, -protocol TCP, -nextHop its service's
 * address).
 *
 * Lower appliance j (hostName L2NS<j+1>): `set ns param -crPortRange` (LowerPortRanges); one
 * MIP (`add ns ip ... -type MIP`, its address on the cache side); one LB vserver of service
 * type HTTP over the caches (CacheLbMethod; its services HTTP 80 with `-cip ENABLED <header>`,
 * in the caches' order, at their addresses), optionally a TCP monitor bound to them
 * (MonitorCaches); one cr vserver HTTP * 80, -cacheType TRANSPARENT, -originUSIP ON,
 * -usePortRange ON, -via ON, -srcIPExpr reading the services' header, bound to that LB vserver;
 * its -reuse is ServerConnectionReuse and its -redirect CACHE, ORIGIN or POLICY is CacheableRule
 * ALL, NONE or the helper's rule.
 *
 * Configure sets the topology helper's attributes from the files; Build builds and then
 * checks every address, name and range the files give against the topology (the address plan
 * is CrdRoutePlan's), so a file that does not describe the built network is an
 * AdcConfigFileError naming the file and line of the command to edit (the file alone for what
 * it lacks), the object and both values. What the files may say that the
 * model does not do (another cacheType, -originUSIP OFF, a PBR of another shape, ...) is an
 * AdcConfigError too, never ignored.
 */
class CrdConfig
{
  public:
    /**
     * \brief Read the files (AdcConfigFileError at the first bad line).
     * \param upperFiles one per upper appliance, in order (none: one-tier mode)
     * \param lowerFiles one per lower appliance, in order
     */
    CrdConfig(const std::vector<std::string>& upperFiles,
              const std::vector<std::string>& lowerFiles);

    /**
     * \param dir a directory
     * \return the files crd-upper-*.ns.conf and crd-lower-*.ns.conf in it, each tier sorted by
     * name (AdcConfigError when there is no lower file)
     */
    static CrdConfig FromDirectory(const std::string& dir);

    /// \return the upper files' stores, in order
    std::vector<const AdcConfigStore*> GetUpper() const;
    /// \return the lower files' stores, in order
    std::vector<const AdcConfigStore*> GetLower() const;

    /**
     * \brief Set \p helper's NumUpper, NumLower, NumCaches, LowerPortRanges,
     * UpperBalanceMethod, CacheLbMethod, CacheableRule, ServerConnectionReuse, MonitorLowerTier,
     * MonitorCaches, MonitorInterval, MonitorTimeout and MonitorRetries from the files.
     * \param helper the helper
     * \throws AdcConfigError for a file the model cannot take, or files that disagree
     */
    void Configure(Ptr<CrdTopologyHelper> helper) const;

    /**
     * \brief Check the files' addresses, names and ranges against a built topology and set
     * what lives on the appliances (the lower tier's client-IP header).
     * \param t the topology \p helper built after Configure
     * \throws AdcConfigError on a mismatch
     */
    void Install(const CrdTopology& t) const;

    /// \param helper a helper \return Configure, Build, Install
    CrdTopology Build(Ptr<CrdTopologyHelper> helper) const;

    /**
     * \param helper the helper that built \p t
     * \param t a topology built in UpperTierMode APPLIANCE and LowerTierMode PROXY
     * \param upper an upper appliance's index
     * \return the ns.conf of that appliance, as Show prints it
     */
    static std::string PrintUpper(Ptr<CrdTopologyHelper> helper,
                                  const CrdTopology& t,
                                  uint32_t upper);

    /// \param helper the helper \param t the topology \param lower a lower appliance's index
    /// \return its ns.conf, as Show prints it
    static std::string PrintLower(Ptr<CrdTopologyHelper> helper,
                                  const CrdTopology& t,
                                  uint32_t lower);

    /**
     * \brief Write crd-upper-<name>.ns.conf and crd-lower-<name>.ns.conf into \p dir.
     * \param helper the helper \param t the topology it built \param dir the directory
     */
    static void WriteFiles(Ptr<CrdTopologyHelper> helper,
                           const CrdTopology& t,
                           const std::string& dir);

  private:
    std::vector<std::string> m_upperFiles;                 //!< upper files
    std::vector<std::string> m_lowerFiles;                 //!< lower files
    std::vector<std::unique_ptr<AdcConfigReader>> m_upper; //!< per upper file
    std::vector<std::unique_ptr<AdcConfigReader>> m_lower; //!< per lower file
};

} // namespace ns3

#endif /* CRD_CONFIG_H */
