/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GSLB_TOPOLOGY_HELPER_H
#define GSLB_TOPOLOGY_HELPER_H

#include "gslb-topology.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Builds GSLB sites and client regions across a WAN (GslbTopology), configures every
 * site's appliance from its ns.conf (shipped files, or text generated from the attributes) and
 * installs LDNS servers and web users.
 *
 * Delays: the WAN link between region r and site s has the one-way delay "NearDelay" when
 * r == s (mod the number of sites) and NearDelay + |r - s| x "DelayStep" otherwise, unless
 * SetWanDelay set it; so every region has one nearest site.
 *
 * MPI partition plan ("Partitions"): site s on rank s % Partitions, region r (router, LDNS,
 * users) on rank r % Partitions; only the WAN point-to-point links cross ranks. Node ids are
 * the same for any number of partitions (see AdcMpi).
 */
class GslbTopologyHelper : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbTopologyHelper();
    ~GslbTopologyHelper() override;

    /**
     * \brief Set one WAN link's one-way delay before Build (default: see the class doc).
     * \param region a region \param site a site \param delay the one-way delay
     */
    void SetWanDelay(uint32_t region, uint32_t site, Time delay);

    /**
     * \brief Configure site s from this file instead of generated text (one file per site, in
     * site order: `add gslb site` order is the site index).
     * \param files the ns.conf files, one per site
     */
    void SetConfigFiles(const std::vector<std::string>& files);

    /**
     * \brief Commands read after every site's configuration (generated or read), e.g.
     * "set gslb vserver gslb-web -lbMethod ROUNDROBIN\n" to compare methods on shipped files.
     * A file given by SetConfigFiles is never edited: the commands are read as their own
     * source, which their errors name instead of a line past the file's end.
     * \param text NetScaler commands, one per line
     * \param source what added them, for errors (e.g. "gslb-rtt --methods=RTT")
     */
    void SetExtraConfig(const std::string& text,
                        const std::string& source = "the program's own commands");

    /**
     * \param site a site index
     * \return the ns.conf text Build gives site \p site when no files are set
     */
    std::string GenerateConfig(uint32_t site) const;

    /**
     * \brief Check the attributes.
     * \throws AdcConfigError naming the attribute, the value and what is allowed
     */
    void Validate() const;

    /// \return the topology, its applications installed (they start at time 0)
    GslbTopology Build();

    /**
     * \brief Change a WAN link's one-way delay now (a congested transit link).
     * \param t the topology \param region a region \param site a site \param delay the delay
     */
    static void ChangeWanDelay(GslbTopology& t, uint32_t region, uint32_t site, Time delay);

    /**
     * \brief Site \p site fails (its appliance and web server stop answering: their
     * interfaces go down) or recovers.
     * \param t the topology \param site a site \param up false to fail it, true to restore it
     */
    static void SetSiteUp(GslbTopology& t, uint32_t site, bool up);

    /**
     * \brief Site \p site's web server (its GSLB service) fails or recovers, its appliance
     * still running: a monitor bound to the service sees it (its interface goes down).
     * \param t the topology \param site a site \param up false to fail it, true to restore it
     */
    static void SetServerUp(GslbTopology& t, uint32_t site, bool up);

    /**
     * \brief Write pcaps: "<prefix>-mep-<a>-<b>.pcap" of every site-site link (MEP),
     * "<prefix>-wan-r<r>-s<s>.pcap" of every WAN link (DNS queries and probes, HTTP) and
     * "<prefix>-region<r>.pcap" of the region LANs.
     * \param t the topology \param prefix the path prefix
     */
    static void EnablePcapAll(const GslbTopology& t, const std::string& prefix);

  private:
    /// \return WAN delay of region r to site s (SetWanDelay's, else the default rule)
    Time DefaultDelay(uint32_t region, uint32_t site) const;

    uint32_t m_sites;                 //!< "Sites"
    uint32_t m_regions;               //!< "Regions"
    uint32_t m_clientsPerRegion;      //!< "ClientsPerRegion"
    Time m_nearDelay;                 //!< "NearDelay"
    Time m_delayStep;                 //!< "DelayStep"
    Time m_lanDelay;                  //!< "LanDelay"
    Time m_siteWanDelay;              //!< "SiteWanDelay"
    std::string m_dataRate;           //!< "DataRate"
    std::string m_domain;             //!< "Domain"
    std::string m_lbMethod;           //!< "LbMethod"
    uint32_t m_toleranceMs;           //!< "Tolerance"
    uint32_t m_rttToleranceMs{5};     //!< "RttTolerance"
    int m_semantics{0};               //!< "ToleranceSemantics" (GslbSiteApps::ToleranceSemantics)
    std::string m_probeOrder;         //!< "ProbeOrder"
    uint32_t m_dnsTtl;                //!< "DnsTtl"
    std::string m_ldnsSelection;      //!< "LdnsServerSelection"
    Time m_interVisit;                //!< "InterVisitTime" (mean of an exponential)
    Time m_visitsUntil;               //!< "StopVisitsAt"
    uint32_t m_partitions{1};         //!< "Partitions"
    std::vector<std::string> m_files; //!< SetConfigFiles
    std::string m_extra;              //!< SetExtraConfig
    std::string m_extraSource;        //!< SetExtraConfig's source
    std::vector<std::vector<std::pair<bool, Time>>> m_set; //!< SetWanDelay's values
};

} // namespace ns3

#endif /* GSLB_TOPOLOGY_HELPER_H */
