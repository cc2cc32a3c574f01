/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GSLB_HELPER_H
#define GSLB_HELPER_H

#include "ns3/adc-config-reader.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-mep-message.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class GslbAdns;
class GslbLdnsProber;
class GslbMepAgent;
class GslbRttDatabase;
class GslbServiceConfig;
class GslbStaticProximityLb;
class GslbVserverConfig;

/**
 * \ingroup adc
 * \brief The GSLB applications of one site's appliance, configured from its ns.conf and joined
 * together: the authoritative DNS (GslbAdns), the RTT database, the LDNS prober (when a GSLB
 * vserver uses RTT) and the MEP agent.
 *
 * How they are joined (what NetScaler does, see doc/gslb.rst):
 * - every query the ADNS answers names its LDNS: the database keeps the entry alive and the
 *   prober starts probing it (GSLB-01);
 * - every RTT the prober measures goes to the database, and when the database stores it (it
 *   differs from the last stored value by more than the RTT tolerance, GSLB-09) the MEP agent
 *   sends it to the other sites (GSLB-07);
 * - the RTT method of every RTT vserver reads the database; a service's site is its
 *   -siteName, and the site index is the order of `add gslb site` (the same at every site);
 * - the two tolerances ("ToleranceSemantics"): NETSCALER (the default, as NetScaler's NITRO
 *   reference has them) takes the store-and-send gate from `set gslb parameter -rttTolerance`
 *   (default 5 ms) and makes each RTT vserver's -tolerance (default 0) its selection window
 *   (round robin among the sites within lowest RTT + tolerance, GslbRttLb); SEED reproduces
 *   the seed's literal wording ("If a change in latency exceeds the configured tolerance
 *   factor, the appliance updates its database ... and sends the new value to other GSLB
 *   sites ... The default tolerance factor is 5 ms", configured with `set gslb vserver <name>
 *   -lbMethod RTT -tolerance <value>`): the RTT vservers' -tolerance (one value per site,
 *   5 ms when not given) is the gate, -rttTolerance is ignored, and the lowest RTT wins (ties
 *   to the lowest site index);
 * - monitors bound to GSLB services (`bind gslb service <name> -monitorName <m>`) run on this
 *   appliance and decide those services' health with what MEP reports;
 * - the MEP agent announces the local site's services every second and applies the other
 *   sites' announcements to their services (AdcService::SetExternalHealth); a site whose MEP
 *   connection is down has its services marked DOWN until it is heard again;
 * - LDNS announcement ("AnnounceLdns", default true; NetScaler tells the other sites of an
 *   LDNS so that every site probes it): a NETWORK METRIC record received for an LDNS makes
 *   the prober probe it (GslbLdnsProber::AddLdns, which also keeps it alive), and every query
 *   is noted with GslbMepAgent::NoteQuery, whose refresh, every third of -ldnsEntryTimeout,
 *   sends the local RTTs of the LDNS that queried this site again; false: each site probes
 *   only the LDNS that query it (the model before issue 26);
 * - the backup method of the RTT and STATICPROXIMITY vservers is their -backupLBMethod
 *   (GslbLdnsLb::SetBackupMethod; ROUNDROBIN unless set), configured like a primary method.
 */
class GslbSiteApps : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// Which setting is the store-and-send gate and which the selection window.
    enum ToleranceSemantics
    {
        NETSCALER, //!< -rttTolerance gates, the vserver's -tolerance is a round-robin window
        SEED       //!< the seed's wording: the vserver's -tolerance gates, no window
    };

    GslbSiteApps();
    ~GslbSiteApps() override;

    /// \return this site's index (its `add gslb site` position)
    uint32_t GetSite() const;
    /// \return the site names in index order
    const std::vector<std::string>& GetSiteNames() const;
    /// \return the site IPs in index order
    const std::vector<AdcIpAddress>& GetSiteIps() const;
    /// \return the configuration store (what the ns.conf made)
    const AdcConfigStore& GetStore() const;
    /// \return the configuration file's name
    const std::string& GetFileName() const;
    /// \return the GSLB vservers
    std::vector<Ptr<GslbVserverConfig>> GetVservers() const;
    /// \return the RTT database
    Ptr<GslbRttDatabase> GetDatabase() const;
    /// \return the prober; null when no GSLB vserver uses RTT
    Ptr<GslbLdnsProber> GetProber() const;
    /// \return the MEP agent
    Ptr<GslbMepAgent> GetMepAgent() const;
    /// \return the authoritative DNS server
    Ptr<GslbAdns> GetAdns() const;
    /// \param vserver a GSLB vserver's name \return its STATICPROXIMITY method, or null
    Ptr<GslbStaticProximityLb> GetStaticProximity(const std::string& vserver) const;
    /// \return the RTT tolerance in ms the database uses (the store-and-send gate)
    uint32_t GetToleranceMs() const;
    /// \return "ToleranceSemantics"
    ToleranceSemantics GetToleranceSemantics() const;
    /// \return "AnnounceLdns"
    bool GetAnnounceLdns() const;
    /// \param name a GSLB service's name \return its site index, or -1
    int32_t GetSiteOfService(const std::string& name) const;

  protected:
    void DoDispose() override;

  private:
    friend class GslbHelper;

    /// Configure and install on \p node from the reader's store (after reading).
    void Install(Ptr<Node> node);
    /// The ADNS heard from an LDNS.
    void OnLdns(const AdcIpAddress& ldns);
    /// The prober measured an RTT.
    void OnRtt(const AdcIpAddress& ldns, Time rtt);
    /// \return the local site's services' states, for MEP
    std::vector<AdcMepSiteMetric> LocalServices();
    /// A peer announced its services' states.
    void OnSiteMetric(uint32_t site, const std::vector<AdcMepSiteMetric>& records);
    /// A peer's MEP connection went up or down.
    void OnPeerState(uint32_t site, bool up);
    /// A peer sent its RTT to an LDNS (the LDNS is announced: probe it here too).
    void OnRemoteRtt(uint32_t site, const AdcIpAddress& ldns, Time rtt);

    std::unique_ptr<AdcConfigReader> m_reader;      //!< holds the configuration
    std::string m_file;                             //!< the configuration's file name
    uint32_t m_site{0};                             //!< this site
    uint32_t m_toleranceMs{5};                      //!< RTT tolerance (the gate)
    ToleranceSemantics m_semantics{NETSCALER};      //!< "ToleranceSemantics"
    bool m_announce{true};                          //!< "AnnounceLdns"
    std::vector<std::string> m_siteNames;           //!< by index
    std::vector<AdcIpAddress> m_siteIps;            //!< by index
    std::vector<Ptr<GslbServiceConfig>> m_services; //!< every GSLB service
    std::vector<int32_t> m_serviceSite;             //!< m_services[i]'s site
    Ptr<GslbRttDatabase> m_db;                      //!< RTT database
    Ptr<GslbLdnsProber> m_prober;                   //!< LDNS prober (RTT only)
    Ptr<GslbMepAgent> m_mep;                        //!< MEP agent
    Ptr<GslbAdns> m_adns;                           //!< the ADNS
};

/**
 * \ingroup adc
 * \brief Installs a GSLB site's applications on its appliance from NetScaler configuration
 * (`add gslb site`, `add gslb service`, `add gslb vserver`, `bind gslb vserver`,
 * `set gslb vserver -lbMethod RTT -tolerance`, `set gslb parameter -ldnsprobeOrder
 * -rttTolerance`, `set lb monitor ldns-* ...`).
 */
class GslbHelper
{
  public:
    /**
     * \brief The sites installed from now on read the two tolerances this way (default: the
     * attribute's default, NETSCALER).
     * \param semantics NETSCALER or SEED
     */
    void SetToleranceSemantics(GslbSiteApps::ToleranceSemantics semantics);

    /**
     * \param node the appliance \param path its ns.conf
     * \return its applications (they start at time 0)
     * \throws AdcConfigFileError for a bad file (naming the file and line)
     */
    Ptr<GslbSiteApps> InstallFromFile(Ptr<Node> node, const std::string& path) const;

    /**
     * \brief The file, then commands a program adds (e.g. the LB method of a run), read as
     * their own source: the user's file is not edited, and an error in the added commands
     * names \p source, not a line past the file's end (AdcConfigReader::ReadCommands).
     * \param node the appliance \param path its ns.conf
     * \param commands the added lines \param source what added them, e.g. "gslb-rtt --methods"
     * \return its applications
     */
    Ptr<GslbSiteApps> InstallFromFile(Ptr<Node> node,
                                      const std::string& path,
                                      const std::string& commands,
                                      const std::string& source) const;

    /**
     * \param node the appliance \param text its configuration \param name the name errors give
     * \return its applications
     */
    Ptr<GslbSiteApps> InstallFromText(Ptr<Node> node,
                                      const std::string& text,
                                      const std::string& name) const;

    /**
     * \brief The seed: "the RTT tolerance must be the same across the GSLB domain". Compares the
     * sites' configurations.
     * \param sites every site of the GSLB domain
     * \return one message per mismatch (files, vserver, both values); empty when they agree
     */
    static std::vector<std::string> CheckConsistency(const std::vector<Ptr<GslbSiteApps>>& sites);

  private:
    /// \return new site applications with this helper's settings
    Ptr<GslbSiteApps> Create() const;

    bool m_semanticsSet{false}; //!< SetToleranceSemantics
    GslbSiteApps::ToleranceSemantics m_semantics{GslbSiteApps::NETSCALER}; //!< its value
};

} // namespace ns3

#endif /* GSLB_HELPER_H */
