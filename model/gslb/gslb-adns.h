/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the authoritative DNS server (ADNS) of a GSLB site. It answers a GSLB domain's
 * queries with the address of the site its GSLB virtual server chooses for the querying LDNS.
 */

#ifndef GSLB_ADNS_H
#define GSLB_ADNS_H

#include "ns3/adc-dns-server.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/callback.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class AdcConfigStore;
class GslbVserverConfig;

/**
 * \ingroup adc
 * \brief A GSLB site's authoritative DNS server (GSLB-02): for a GSLB domain it answers with
 * the public address of the GSLB service its virtual server selects for the querying LDNS.
 *
 * For a question about a bound domain (names compared ignoring case) of QTYPE A, AAAA or ANY:
 * 1. the LDNS callback hears of the query's source address (the LDNS: the RTT prober starts
 *    or keeps probing it, the RTT database keeps its entry alive);
 * 2. the domain's virtual server selects (AdcVirtualServer::Select) with AdcLbContext::ldns
 *    set to that source, so that RTT and STATICPROXIMITY choose per LDNS (GSLB-01);
 * 3. the chosen service's address (a GSLB service's public IP) is the answer, one A or AAAA
 *    record with the domain's TTL, when its family is the domain's record type;
 * 4. when the virtual server (and its backup chain) has nothing UP, NetScaler's documented
 *    fallbacks apply: the domain's -backupIP if set; else, with -EDR ENABLED, an empty
 *    NOERROR response (no address); else the model answers with a bound service anyway,
 *    round robin over all of them (the response EDR exists to suppress; see doc/gslb.rst).
 * A question of another type about a bound domain gets the static records of that type (the
 * SOA and NS when the domain is a zone apex), else an empty NOERROR answer (NODATA).
 * Names that are not bound domains are the base class's static zone data (AddRecord).
 *
 * Zones (AdcDnsServer): the zones are the configured ones (AddDnsRecords: `add dns soaRec`,
 * `add dns nsRec`, `add dns cnameRec`, or SOA records added with AddRecord). At start, every
 * bound domain that no zone holds gets a zone of its own, apex the domain, with an SOA of
 * NetScaler's `add dns soaRec` defaults (serial 100, refresh 3600, retry 3, expire 3600,
 * minimum 5, TTL 3600), MNAME "ns1.<domain>" and RNAME "hostmaster.<domain>" (RFC 2142's
 * mailbox), and one NS record naming the MNAME (TTL 3600): negative answers then carry an SOA
 * and names outside every zone are REFUSED.
 *
 * Every decision about a bound domain fires "Decision" with the LDNS, the domain, the
 * service, the address answered, how it was chosen and why.
 */
class GslbAdns : public AdcDnsServer
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    GslbAdns();
    ~GslbAdns() override;

    /**
     * \brief Signature of the "Decision" trace: one DNS decision about a bound domain.
     * \param ldns the query's source (the LDNS)
     * \param domain the domain as asked
     * \param service the GSLB service answered ("" when none)
     * \param address the address answered (none when the answer is empty)
     * \param how AdcSelection::how ("method", "backup", ...), or "backup-ip", "empty-down",
     *        "all-down", "no-record" when the virtual server chose nothing
     * \param reason why: the LB method's reason (SetReasonSource) or the fallback's
     */
    typedef void (*DecisionTracedCallback)(const AdcIpAddress& ldns,
                                           const std::string& domain,
                                           const std::string& service,
                                           const AdcIpAddress& address,
                                           const std::string& how,
                                           const std::string& reason);

    /// Called with the source address of every query about a bound domain.
    typedef Callback<void, const AdcIpAddress&> LdnsCallback;

    /**
     * \brief Serve a GSLB domain.
     * \param domain the domain name (AdcConfigError when malformed or bound already)
     * \param vserver its GSLB virtual server
     * \param ttl the answers' TTL, s (NetScaler's default for a bound domain is 5)
     * \param recordType AdcDnsMessage::TYPE_A or TYPE_AAAA (AdcConfigError otherwise)
     */
    void AddDomain(const std::string& domain,
                   Ptr<AdcVirtualServer> vserver,
                   uint32_t ttl,
                   uint16_t recordType);

    /**
     * \brief Serve every domain bound to a configured GSLB virtual server, with its TTLs,
     * record type, backup IPs and -EDR (`bind gslb vserver -domainName`).
     * \param vserver the configuration (its GetVirtualServer() answers)
     */
    void AddVserver(Ptr<GslbVserverConfig> vserver);

    /**
     * \param domain a bound domain (AdcConfigError otherwise)
     * \param ip -backupIP: answered when nothing is UP (none: no backup IP)
     */
    void SetBackupIp(const std::string& domain, const AdcIpAddress& ip);

    /**
     * \param domain a bound domain (AdcConfigError otherwise)
     * \param on -EDR: an empty response when nothing is UP
     */
    void SetEmptyDownResponse(const std::string& domain, bool on);

    /**
     * \brief Serve the DNS records of a configuration (`add dns soaRec`, `add dns nsRec`,
     * `add dns cnameRec`: AdcNetScalerGslbDns::GetRecords).
     * \param store the configuration
     */
    void AddDnsRecords(const AdcConfigStore& store);

    /// \return the apex keys of the zones generated at start for bound domains
    const std::vector<std::string>& GetGeneratedZones() const;

    /// \param cb called with every query's source address (the LDNS); null to stop
    void SetLdnsCallback(LdnsCallback cb);

    /// \param cb gives the LB method's reason for its last choice (e.g. GslbRttLb's
    /// GetLastReason); without one the reason is the method's name
    void SetReasonSource(Callback<std::string> cb);

    /// \return the bound domains, in the order added
    std::vector<std::string> GetDomains() const;

    /// \return answers given with a selected service
    uint64_t GetAnswered() const;
    /// \return decisions where nothing was UP (backup IP, empty or all-down answers)
    uint64_t GetDownDecisions() const;

  protected:
    void DoDispose() override;
    std::vector<AdcDnsResourceRecord> Answer(const AdcDnsQuestion& q, const Address& from) override;
    bool HasName(const std::string& name) const override;
    bool HasNameBelow(const std::string& name) const override;
    /// Generate the zones of bound domains no zone holds, then start serving.
    void StartApplication() override;

  private:
    /// A bound domain.
    struct Domain
    {
        std::string name;              //!< as bound
        Ptr<AdcVirtualServer> vserver; //!< its virtual server
        uint32_t ttl{5};               //!< answers' TTL
        uint16_t recordType{1};        //!< A or AAAA
        AdcIpAddress backupIp;         //!< -backupIP (none: not set)
        bool emptyDownResponse{false}; //!< -EDR
        uint32_t nextDown{0};          //!< round robin of the all-down answers
    };

    /// \param domain a name \return the bound domain (AdcConfigError when not bound)
    Domain& Find(const std::string& domain);
    /// \return a record of \p d's type for \p address, if the family matches
    static bool Record(const Domain& d,
                       const std::string& qname,
                       const AdcIpAddress& address,
                       std::vector<AdcDnsResourceRecord>& out);

    std::map<std::string, Domain> m_domains; //!< by lookup key
    std::vector<std::string> m_order;        //!< keys in the order added
    std::vector<std::string> m_generated;    //!< zones generated at start
    LdnsCallback m_ldnsCallback;             //!< the LDNS hook
    Callback<std::string> m_reasonSource;    //!< the method's reason
    uint64_t m_answered{0};                  //!< counter
    uint64_t m_down{0};                      //!< counter
    /// "Decision"
    TracedCallback<const AdcIpAddress&,
                   const std::string&,
                   const std::string&,
                   const AdcIpAddress&,
                   const std::string&,
                   const std::string&>
        m_decisionTrace;
};

} // namespace ns3

#endif /* GSLB_ADNS_H */
