/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the load-balancing methods that choose a site by the client's local DNS server
 * (LDNS): dynamic RTT (GSLB-01, GSLB-07, GSLB-08) and static proximity.
 */

#ifndef GSLB_LB_METHODS_H
#define GSLB_LB_METHODS_H

#include "gslb-rtt-database.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-lb-method.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Register the GSLB methods in AdcLbMethodRegistry: "RTT" (GslbRttLb) and
 * "STATICPROXIMITY" (GslbStaticProximityLb), both with trait USES_LDNS. Idempotent: a second
 * call does nothing.
 *
 * Not called from static initialisation: the core's tests list every registered method
 * (AdcLbMethod.CreateKnowsEveryName, AdcLbMethodRegistryTest's USES_LDNS list), so the GSLB
 * configuration front-end calls it before it reads `-lbMethod RTT`.
 */
void GslbRegisterLbMethods();

/**
 * \ingroup adc
 * \brief Base of the methods that choose by the LDNS: the backup method used when the LDNS
 * tells nothing, and the reason of the last choice.
 *
 * The backup method is the GSLB vserver's `-backupLBMethod` (NITRO gslbvserver: "Backup load
 * balancing method. Becomes operational if the primary load balancing method fails or cannot
 * be used. Valid only if the primary method is based on either round-trip time (RTT) or static
 * proximity"), ROUNDROBIN unless set. It is an ordinary AdcLbMethod whose back-ends mirror
 * this method's (same order, names, weights and states), so its cursor and state persist.
 * A choice it makes is reported as "backup-<method in lower case>-<cause>", e.g.
 * "backup-roundrobin-partial-rtt".
 */
class GslbLdnsLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbLdnsLb();
    ~GslbLdnsLb() override;

    /// \return why the last Select chose as it did (the subclass's reasons)
    std::string GetLastReason() const;

    /**
     * \brief Set the backup method (the vserver's -backupLBMethod).
     * \param name a NetScaler method name known to AdcLbMethodRegistry (any case)
     * \throws AdcConfigError naming -backupLBMethod, the value and the allowed names
     */
    void SetBackupMethod(const std::string& name);
    /// \return the backup method's canonical name (ROUNDROBIN unless set)
    std::string GetBackupMethodName() const;
    /// \return the backup method, its back-ends mirroring this method's (to configure it, e.g.
    /// a STATICPROXIMITY backup's locations)
    Ptr<AdcLbMethod> GetBackupMethod();

  protected:
    /**
     * \brief Let the backup method choose, and record the reason "backup-<method>-<cause>".
     * \param ctx the request \param cause why the primary method cannot choose
     * \return the backup method's choice (an up back-end; -1 only when none is up)
     */
    int32_t Backup(const AdcLbContext& ctx, const std::string& cause);
    void BackendsChanged() override;
    void DoDispose() override;

    std::string m_lastReason; //!< why the last Select chose as it did

  private:
    /// \brief Bring the backup method's back-ends in line with this method's.
    void SyncBackup();

    Ptr<AdcLbMethod> m_backup; //!< the backup method (created on first use)
};

/**
 * \ingroup adc
 * \brief RTT: dynamic round-trip time (NetScaler's `-lbMethod RTT`). Each back-end is a GSLB
 * service at a site; the sites considered (candidates) are those that have an up back-end, and
 * the choice is among them by their RTTs to the client's LDNS (the first up back-end of the
 * chosen site).
 *
 * When it decides ("RequireEveryRtt", default true): only when every candidate site's RTT to
 * the LDNS is known. Until then the backup method chooses (GslbLdnsLb, the vserver's
 * -backupLBMethod, ROUNDROBIN unless set): the seed's "If RTT information is not available
 * ... the appliance selects a site by using the round robin method", read as "not available
 * for every site", since a choice among the RTTs that happen to be known favours whichever
 * sites measured first (the others are still probing the LDNS they were told of over MEP).
 * false: decide as soon as one candidate's RTT is known (the model before issue 26).
 *
 * "Tolerance" is the GSLB vserver's -tolerance, a selection window. NetScaler's NITRO
 * reference (setgslbvserver_tolerance): "The sites having the RTT value less than or equal to
 * the sum of the lowest RTT and tolerance value are considered. NetScaler implements the round
 * robin method of global server load balancing among these considered sites." So every site
 * within lowest RTT + Tolerance (GslbRttDatabase::GetSitesWithin) answers in turn: one cursor
 * per method, over the back-ends' indices, moved only by choices among two or more sites
 * (sites tied at the lowest RTT share the answers even with Tolerance 0).
 * "RoundRobinWithinTolerance" false is the seed's reading (the lowest RTT wins, ties to the
 * lowest site index, GslbRttDatabase::GetBestSite; Tolerance ignored).
 *
 * GetLastReason: "rtt"; or the backup's "backup-<method>-no-rtt" (no candidate's RTT known),
 * "backup-<method>-partial-rtt" (some candidates' RTTs unknown), "backup-<method>-no-ldns"
 * (ctx.ldns is none).
 */
class GslbRttLb : public GslbLdnsLb
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    /// \return "RTT"
    std::string GetMethodName() const override;

    /**
     * \param db the site's RTT database (the back-ends' sites index its sites); null: no RTT
     *        is known, every choice is round robin
     * \throws AdcConfigError when a site given to SetBackendSite is not one of db's
     */
    void SetDatabase(Ptr<GslbRttDatabase> db);
    /// \return the database (may be null)
    Ptr<GslbRttDatabase> GetDatabase() const;

    /**
     * \brief Say at which site a back-end (a GSLB service) is. Back-ends without a site take
     * part in round robin only.
     * \param backendName the back-end's name (it may be added before or after)
     * \param site the site index (AdcConfigError when the database is set and has no such site)
     */
    void SetBackendSite(const std::string& backendName, uint32_t site);

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;
    void DoDispose() override;

  private:
    /// \param site a site \param what the caller, for the message (throws when out of range)
    void CheckSite(uint32_t site, const std::string& what) const;

    Ptr<GslbRttDatabase> m_db;                //!< the RTT database
    std::map<std::string, uint32_t> m_siteOf; //!< back-end name -> site
    Time m_window;                            //!< "Tolerance"
    bool m_windowRoundRobin{true};            //!< "RoundRobinWithinTolerance"
    bool m_requireEveryRtt{true};             //!< "RequireEveryRtt"
    uint32_t m_windowNext{0};                 //!< round-robin cursor within the window
};

/**
 * \ingroup adc
 * \brief STATICPROXIMITY: a static proximity table (NetScaler's `add location`, simplified
 * to prefixes): the LDNS's longest matching prefix names a region, and the choice is the up
 * back-end of that region (the lowest index when it has several); else the backup method
 * (GslbLdnsLb; ROUNDROBIN unless set).
 *
 * GetLastReason: "proximity", or the backup's "backup-<method>-no-location" (no prefix matches
 * the LDNS), "backup-<method>-region-down" (the region has no up back-end) or
 * "backup-<method>-no-ldns".
 */
class GslbStaticProximityLb : public GslbLdnsLb
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    /// \return "STATICPROXIMITY"
    std::string GetMethodName() const override;

    /**
     * \brief Add a location: every LDNS in the prefix is in \p region.
     * \param prefix the prefix (IPv4 or IPv6; bits beyond the length are ignored)
     * \param prefixLength its length (at most 32 for IPv4, 128 for IPv6)
     * \param region the region's name (non-empty)
     * \throws AdcConfigError for a bad length, an empty region or a prefix added twice
     */
    void AddLocation(const AdcIpAddress& prefix, uint8_t prefixLength, const std::string& region);

    /// \param backendName a back-end's name \param region the region it serves
    void SetBackendRegion(const std::string& backendName, const std::string& region);

    /// \param ldns an address \return the region of its longest matching prefix, "" when none
    std::string GetRegion(const AdcIpAddress& ldns) const;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;

  private:
    /// One location entry.
    struct Location
    {
        AdcIpAddress prefix; //!< masked prefix
        uint8_t length{0};   //!< prefix length
        std::string region;  //!< region name
    };

    std::vector<Location> m_locations;             //!< the proximity table
    std::map<std::string, std::string> m_regionOf; //!< back-end name -> region
};

} // namespace ns3

#endif /* GSLB_LB_METHODS_H */
