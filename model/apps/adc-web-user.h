/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a web user, what a person behind a browser experiences: resolve the site's name
 * through the local DNS server, then fetch a page from the address it gave (DNS time plus
 * transfer time). GSLB's figure of merit: which site the user was sent to, and how long it took.
 */

#ifndef ADC_WEB_USER_H
#define ADC_WEB_USER_H

#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-request-record.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One visit of a web user: the name resolved, the page fetched.
 */
struct AdcWebVisit
{
    uint64_t id{0};      //!< visit number, from 1
    Time start;          //!< when the visit began (the DNS query)
    Time dnsTime;        //!< DNS query to answer (to the failure, when DNS failed)
    Time fetchTime;      //!< HTTP request issued to its end (0 when not fetched)
    Time total;          //!< start to end of the visit
    AdcIpAddress server; //!< the address fetched from (the DNS answer's first; none if none)
    std::string outcome; //!< "completed", "open-at-stop", or a failure reason
    uint16_t status{0};  //!< HTTP status received (0 when none)
};

/**
 * \ingroup adc
 * \brief A web user on a client node: visits http://HostName/Path again and again, each visit
 * a DNS resolution through its LDNS (an AdcDnsResolver it creates, "Server" = "Ldns") then one
 * HTTP GET on a new connection (an AdcHttpClient it creates, not persistent, generating no
 * requests of its own) to the first address of the answer.
 *
 * The first visit starts when the application starts; each next visit starts "InterVisitTime"
 * after the previous one ended (a user's think time), unless "MaxVisits" were made or the
 * next start would be after "StopVisitsAt". Visits never overlap.
 *
 * Outcomes ("Visit" trace, GetFailed): "completed" (a 2xx or 3xx response); DNS failures
 * "dns-timeout" (no answer after the resolver's tries), "dns-<rcode>" for an error response
 * ("dns-servfail", "dns-nxdomain", "dns-refused", ...), "dns-nodata" (NOERROR without an
 * address); HTTP failures from the client's reasons: "connection-failed" (the connection
 * could not be opened: AdcHttpClient's "connect-failed", after the SYN retries; ns-3's TCP
 * ignores a RST answering a SYN, so a refused connection shows as this or as "http-timeout"),
 * "http-timeout", "http-status-<code>", and "http-<reason>" for the others
 * ("http-connection-reset", ...). A visit open when the
 * application stops ends as "open-at-stop": traced, and counted apart (GetOpen), neither
 * completed nor failed. After the stop, GetVisits() == GetCompleted() + failed + GetOpen().
 */
class AdcWebUser : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcWebUser();
    ~AdcWebUser() override;

    /**
     * \brief Signature of the "Visit" trace: a visit ended.
     * \param visit the visit
     */
    typedef void (*VisitTracedCallback)(const AdcWebVisit& visit);

    /**
     * \brief Use fixed random variable streams: InterVisitTime, the resolver's IDs, the HTTP
     * client's (applied when they are created, at start).
     * \param stream the first stream index
     * \return streams used (4)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return visits begun
    uint64_t GetVisits() const;
    /// \return visits completed
    uint64_t GetCompleted() const;
    /// \return failed visits by reason (sorted by reason)
    const std::map<std::string, uint64_t>& GetFailed() const;
    /// \return failed visits, all reasons
    uint64_t GetFailedTotal() const;
    /// \return visits open: those still open when the application stopped, and the one in
    /// progress now (so that GetVisits() == GetCompleted() + failed + GetOpen() at any time)
    uint64_t GetOpen() const;
    /// \return every ended visit, in order
    const std::vector<AdcWebVisit>& GetVisitLog() const;
    /// \return the resolver (null before start)
    Ptr<AdcDnsResolver> GetResolver() const;
    /// \return the HTTP client (null before start)
    Ptr<AdcHttpClient> GetHttpClient() const;

    /// \param os where to write the CSV header line
    static void WriteCsvHeader(std::ostream& os);
    /// \param os where to write \p v as one CSV line (times in seconds) \param v a visit
    static void WriteCsvRow(std::ostream& os, const AdcWebVisit& v);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Begin a visit: ask the LDNS.
    void StartVisit();
    /// The resolver answered.
    void Resolved(const std::string& name, std::vector<AdcIpAddress> addresses, uint8_t rcode);
    /// The HTTP client's chooser: the address of the current visit.
    Address ChooseServer(const std::string& url, uint64_t requestId);
    /// The HTTP client ended a request.
    void RequestDone(const AdcRequestRecord& record);
    /// End the current visit with \p outcome; schedule the next.
    void EndVisit(const std::string& outcome);
    /// Schedule the next visit when allowed.
    void ScheduleNext();

    Address m_ldns;                         //!< "Ldns"
    std::string m_hostName;                 //!< "HostName"
    std::string m_path;                     //!< "Path"
    uint16_t m_port{80};                    //!< "Port"
    Ptr<RandomVariableStream> m_interVisit; //!< "InterVisitTime"
    uint32_t m_maxVisits{0};                //!< "MaxVisits"
    Time m_stopVisitsAt;                    //!< "StopVisitsAt"
    bool m_ipv6{false};                     //!< "Ipv6"
    Time m_dnsTimeout;                      //!< "DnsTimeout"
    uint32_t m_dnsRetries{2};               //!< "DnsRetries"
    Time m_httpTimeout;                     //!< "HttpTimeout"

    Ptr<AdcDnsResolver> m_resolver; //!< created at start
    Ptr<AdcHttpClient> m_client;    //!< created at start
    int64_t m_stream{-1};           //!< AssignStreams' first stream (-1: none)
    bool m_running{false};          //!< between start and stop
    EventId m_next;                 //!< next visit
    enum class Phase
    {
        IDLE,
        DNS,
        FETCH
    } m_phase{Phase::IDLE}; //!< where the current visit is
    AdcWebVisit m_current;  //!< the current visit
    Time m_fetchStart;      //!< when its request was issued

    uint64_t m_visits{0};                     //!< begun
    uint64_t m_completed{0};                  //!< completed
    std::map<std::string, uint64_t> m_failed; //!< failed by reason
    uint64_t m_failedTotal{0};                //!< failed
    uint64_t m_open{0};                       //!< open at stop
    std::vector<AdcWebVisit> m_log;           //!< ended visits

    TracedCallback<const AdcWebVisit&> m_visitTrace; //!< "Visit"
};

} // namespace ns3

#endif /* ADC_WEB_USER_H */
