/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the LDNS prober, which measures the round trip between a GSLB site's appliance
 * and each client's local DNS server (LDNS) with the monitors ldns-ping, ldns-dns and
 * ldns-tcp, falling back from one to the next when a kind gets no answer.
 */

#ifndef GSLB_LDNS_PROBER_H
#define GSLB_LDNS_PROBER_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Measures the round trip time (RTT) from a GSLB site's appliance to local DNS servers
 * (LDNS), as NetScaler's dynamic RTT method does (GSLB-03..06, GSLB-10).
 *
 * Three monitors do the probing; they exist from construction so that a configuration can
 * change them before the start ("customisable like any monitor"), and the prober adds them to
 * its node when it starts:
 * - ldns-ping: Type PING (ICMP echo), TypeName LDNS-PING;
 * - ldns-dns: a UDP monitor whose probe kind is GslbDnsProbe (a DNS query, QNAME "."),
 *   TypeName LDNS-DNS, DestinationPort 53;
 * - ldns-tcp: Type TCP (a connection attempt), TypeName LDNS-TCP, DestinationPort 53.
 * Each has NetScaler's defaults Interval 5 s and ResponseTimeout 2 s. The prober sets their
 * Retries to the maximum: an LDNS probe that fails in monitor terms (a port unreachable, a
 * reset) may still give an RTT, so the UP/DOWN state means nothing here and the DOWN spacing
 * (DownTime) must never apply.
 *
 * Each LDNS is one target in each monitor, at the same index in all three; only the monitor
 * of the LDNS's current kind has it enabled (AdcHealthMonitor::SetTargetEnabled).
 *
 * RTT rule (the seed: "probes need not succeed"): a finished probe yields an RTT when its
 * reason is an answer from the LDNS itself: PING "echo-reply"; DNS any "dns-rcode-*" and
 * "icmp-port-unreachable"; TCP "connected" and "connection-refused". The RTT is the monitor's
 * round trip (send to reply). Anything else (a timeout, an ICMP error from a router, ...)
 * yields none.
 *
 * Fallback: a new LDNS starts on the first kind of the probe order. A probe that yields no RTT
 * moves it to the next kind, which probes it at once; after the last kind it goes back to the
 * first kind, whose next probe comes one Interval (of the first kind's monitor) after that
 * failure. A kind that yields an RTT keeps the LDNS: NetScaler falls back only when a kind
 * fails, and staying keeps one kind's measurements comparable over time.
 *
 * A new probe order (SetProbeOrder, "ProbeOrder") applies to each LDNS at its next move:
 * after a probe without RTT the next kind is the one after the current kind in the new order
 * (the first kind, at once, when the current kind is no longer in it); a probe with an RTT of
 * a kind no longer in the order moves the LDNS to the new first kind, one Interval later.
 *
 * Entries expire: an LDNS whose last AddLdns is older than "EntryTimeout" (NetScaler's
 * ldnsentrytimeout, 180 s) stops being probed ("Expire"); AddLdns starts it again on the first
 * kind, at once. A stopped prober neither probes nor expires entries: it disables every
 * target; a new start probes each active LDNS again on its current kind.
 */
class GslbLdnsProber : public Application
{
  public:
    /// A probe kind, in the words of `set gslb parameter -ldnsprobeOrder`.
    enum Kind : uint8_t
    {
        PING, //!< ICMP echo (monitor ldns-ping)
        DNS,  //!< DNS query over UDP (monitor ldns-dns)
        TCP   //!< TCP connection to port 53 (monitor ldns-tcp)
    };

    /// \param k a kind \return "PING", "DNS" or "TCP"
    static std::string KindName(Kind k);

    /// \param k a kind \return its monitor's name: "ldns-ping", "ldns-dns" or "ldns-tcp"
    static std::string MonitorName(Kind k);

    /**
     * \brief Read a probe order as `set gslb parameter -ldnsprobeOrder DNS PING TCP` gives it.
     * \param words the kinds' words, any case
     * \return the kinds, in order
     * \throws AdcConfigError naming -ldnsprobeOrder, the word and PING DNS TCP when a word is
     *         not a kind, a kind is given twice, or no kind is given
     */
    static std::vector<Kind> ParseProbeOrder(const std::vector<std::string>& words);

    /// \param order kinds \return their words separated by blanks, e.g. "DNS PING TCP"
    static std::string FormatProbeOrder(const std::vector<Kind>& order);

    /**
     * \brief The RTT rule: whether a finished probe's reason is an answer from the LDNS.
     * \param k the kind that probed
     * \param reason the monitor's reason
     * \return true when the probe yields an RTT
     */
    static bool YieldsRtt(Kind k, const std::string& reason);

    /**
     * \brief Signature of the "Probe" trace source: one call per finished probe.
     * \param ldns the LDNS probed
     * \param kind the kind's name ("PING", "DNS", "TCP")
     * \param rtt send to outcome (ResponseTimeout for a timeout); the RTT when \p yieldsRtt
     * \param reason the monitor's reason, e.g. "echo-reply", "dns-rcode-REFUSED", "timeout"
     * \param yieldsRtt whether the probe gave an RTT
     */
    typedef void (*ProbeTracedCallback)(const AdcIpAddress& ldns,
                                        const std::string& kind,
                                        Time rtt,
                                        const std::string& reason,
                                        bool yieldsRtt);

    /**
     * \brief Signature of the "Fallback" trace source: an LDNS moves to another kind.
     * \param ldns the LDNS
     * \param from the kind it leaves
     * \param to the kind it moves to (the first kind again after the last)
     * \param reason the reason of the probe that caused the move
     */
    typedef void (*FallbackTracedCallback)(const AdcIpAddress& ldns,
                                           const std::string& from,
                                           const std::string& to,
                                           const std::string& reason);

    /**
     * \brief Signature of the "Expire" trace source.
     * \param ldns the LDNS no longer probed (not seen for EntryTimeout)
     */
    typedef void (*ExpireTracedCallback)(const AdcIpAddress& ldns);

    /// Receives each RTT: the LDNS and the measured round trip.
    typedef Callback<void, const AdcIpAddress&, Time> RttCallback;

    /// \return the TypeId
    static TypeId GetTypeId();

    GslbLdnsProber();
    ~GslbLdnsProber() override;

    /**
     * \param order 1 to 3 distinct kinds (default PING, DNS, TCP)
     * \throws AdcConfigError naming -ldnsprobeOrder when empty or a kind repeats
     */
    void SetProbeOrder(const std::vector<Kind>& order);

    /// \return the probe order
    std::vector<Kind> GetProbeOrder() const;

    /// \param k a kind \return its monitor (exists from construction)
    Ptr<AdcHealthMonitor> GetMonitor(Kind k) const;

    /// \param name "ldns-ping", "ldns-dns" or "ldns-tcp" \return that monitor, or null
    Ptr<AdcHealthMonitor> GetMonitor(const std::string& name) const;

    /**
     * \brief Start probing \p ldns (idempotent) and refresh its last-seen time; the ADNS calls
     * it on every query.
     * \param ldns the LDNS's address
     * \throws AdcConfigError when \p ldns is not an address
     */
    void AddLdns(const AdcIpAddress& ldns);

    /// \param ldns an address \return whether it is probed (added and not expired)
    bool HasLdns(const AdcIpAddress& ldns) const;

    /// \return the number of LDNS probed (added and not expired)
    uint32_t GetNLdns() const;

    /**
     * \param ldns an address
     * \return the kind that probes \p ldns now (its last kind when expired)
     * \throws AdcConfigError when \p ldns was never added
     */
    Kind GetCurrentKind(const AdcIpAddress& ldns) const;

    /// \param cb receives every RTT measured
    void SetRttCallback(RttCallback cb);

  protected:
    void DoDispose() override;

  private:
    /// One LDNS.
    struct LdnsEntry
    {
        AdcIpAddress address; //!< the LDNS
        uint32_t index{0};    //!< its target index in all three monitors
        Kind kind{PING};      //!< the kind probing it
        bool active{false};   //!< probed (not expired)
        Time lastSeen;        //!< last AddLdns
        EventId expireEvent;  //!< the next EntryTimeout check
    };

    void StartApplication() override;
    void StopApplication() override;

    /// "ProbeOrder" setter: words separated by blanks.
    void SetProbeOrderText(std::string text);
    /// \return "ProbeOrder" as words separated by blanks
    std::string GetProbeOrderText() const;

    /// \param k a kind \return its position in the order, or -1
    int32_t PositionOf(Kind k) const;
    /// \param k a kind \return its monitor's Interval
    Time IntervalOf(Kind k) const;
    /// Enable \p e on its current kind's monitor, first probe \p delay later.
    void Enable(LdnsEntry& e, Time delay);
    /// Disable \p e in every monitor.
    void DisableAll(LdnsEntry& e);
    /// Move \p e to kind \p to (probing \p delay later), firing "Fallback" with \p reason.
    void Move(LdnsEntry& e, Kind to, Time delay, const std::string& reason);
    /// Schedule \p e's EntryTimeout check.
    void ScheduleExpiry(LdnsEntry& e);
    /// EntryTimeout check of the entry at \p index.
    void CheckExpiry(uint32_t index);
    /// A monitor's "Probe" trace: \p kind is the monitor's kind.
    void MonitorProbe(Kind kind,
                      uint32_t index,
                      const std::string& name,
                      bool success,
                      Time rtt,
                      const std::string& reason);

    Time m_entryTimeout;                             //!< "EntryTimeout"
    std::vector<Kind> m_order;                       //!< probe order
    std::array<Ptr<AdcHealthMonitor>, 3> m_monitors; //!< by Kind
    std::vector<LdnsEntry> m_entries;                //!< by target index
    std::map<AdcIpAddress, uint32_t> m_byAddress;    //!< address -> target index
    bool m_running{false};                           //!< between start and stop
    RttCallback m_rttCallback;                       //!< RTT sink

    TracedCallback<const AdcIpAddress&, const std::string&, Time, const std::string&, bool>
        m_probeTrace; //!< "Probe"
    TracedCallback<const AdcIpAddress&, const std::string&, const std::string&, const std::string&>
        m_fallbackTrace;                               //!< "Fallback"
    TracedCallback<const AdcIpAddress&> m_expireTrace; //!< "Expire"
};

} // namespace ns3

#endif /* GSLB_LDNS_PROBER_H */
