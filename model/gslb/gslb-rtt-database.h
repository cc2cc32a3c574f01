/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the RTT database of a GSLB site, the round-trip time from every site of the
 * GSLB domain to every client's local DNS server (LDNS) it knows (GSLB-01, GSLB-07, GSLB-09).
 */

#ifndef GSLB_RTT_DATABASE_H
#define GSLB_RTT_DATABASE_H

#include "ns3/adc-flow-key.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Per LDNS, the RTT from every GSLB site: the site's own measurements (stored only when
 * they move by more than "Tolerance", NetScaler's `set gslb parameter -rttTolerance`, default
 * 5 ms) and the other sites' values received through MEP.
 *
 * NetScaler's NITRO reference (setgslbparameter_rtttolerance): "If the difference between the
 * old RTT value and the newly computed RTT value is less than or equal to the specified
 * tolerance value, the LDNS entry in the network metric table is not updated with the new RTT
 * value. Prevents the exchange of metrics when variations in RTT values are negligible."
 * The GSLB vserver's own -tolerance is a different setting, a selection window (GetSitesWithin,
 * GslbRttLb "Tolerance").
 *
 * Sites are indexed 0..N-1 in the order of the GSLB domain's site list (the same at every
 * site), so every site that holds the same values makes the same choice (GetBestSite: lowest
 * RTT, lowest site index on ties, GSLB-07; GetSitesWithin: every site within a window).
 *
 * Entries expire: an LDNS neither updated (a stored local value or any remote value) nor
 * touched (a query from it) for "EntryTimeout" (NetScaler's `ldnsentrytimeout`, 180 s) is gone:
 * GetRtt reports nothing for it from then on, and it is removed (trace "Expire") by the next
 * call that changes the database (a full sweep runs at most once per EntryTimeout). A local
 * measurement that is not stored (within the tolerance) does not keep an entry alive.
 *
 * Storage is compact (the target: at most 64 bytes per LDNS with table overhead for
 * 3 to 4 sites): an open-addressing hash table (linear probing, backward-shift deletion) of
 * 32-bit entry numbers, and the entries in dense arrays: the address (16 bytes, IPv4 in the
 * first 4), its family (1 byte), the last activity (u32 milliseconds, compared modulo 2^32)
 * and the RTTs of all sites in one flat array of u16 milliseconds (0xFFFF: unknown). RTTs are
 * rounded to the millisecond (what MEP carries) and capped at 65534 ms.
 */
class GslbRttDatabase : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbRttDatabase();
    ~GslbRttDatabase() override;

    /// The most sites a GSLB domain may have in this model.
    static constexpr uint32_t kMaxSites = 32;
    /// The stored value meaning "no RTT known".
    static constexpr uint16_t kUnknown = 0xFFFF;
    /// The largest RTT stored, in milliseconds (larger ones are capped).
    static constexpr uint16_t kMaxRttMs = 0xFFFE;

    /**
     * \brief Name the sites (clears every entry).
     * \param names the sites' names in the domain's order (1 to kMaxSites, non-empty, unique)
     * \param localSite this site's index in \p names
     * \throws AdcConfigError naming the setting, the value and what is allowed
     */
    void SetSites(const std::vector<std::string>& names, uint32_t localSite);
    /// \return the number of sites (0 before SetSites)
    uint32_t GetNSites() const;
    /// \return this site's index
    uint32_t GetLocalSite() const;
    /// \param site a site index (AdcConfigError when out of range) \return its name
    const std::string& GetSiteName(uint32_t site) const;

    /**
     * \brief A local measurement (this site's RTT to \p ldns).
     *
     * Stored when the LDNS has no local value yet or the value, rounded to the millisecond,
     * differs from the stored one (the last sent) by more than "Tolerance" (GSLB-09). Fires
     * "Update" either way.
     * \param ldns the LDNS (IPv4 or IPv6)
     * \param rtt the measured round-trip time (negative is an AdcConfigError)
     * \return true when stored: the caller must send it to the other sites through MEP
     */
    bool UpdateLocal(const AdcIpAddress& ldns, Time rtt);

    /**
     * \brief Another site's RTT to \p ldns, received through MEP; always stored.
     * \param site the sending site (not the local one; AdcConfigError otherwise)
     * \param ldns the LDNS
     * \param rtt its RTT (negative is an AdcConfigError)
     */
    void UpdateRemote(uint32_t site, const AdcIpAddress& ldns, Time rtt);

    /**
     * \brief A query from \p ldns: keeps its entry alive, or creates one with no RTT known (an
     * LDNS seen for the first time, which the prober then measures).
     * \param ldns the LDNS
     */
    void Touch(const AdcIpAddress& ldns);

    /**
     * \param ldns an LDNS
     * \param site a site index (AdcConfigError when out of range)
     * \return the RTT from \p site to \p ldns, or nullopt when unknown or the entry expired
     */
    std::optional<Time> GetRtt(const AdcIpAddress& ldns, uint32_t site) const;

    /**
     * \brief The site with the lowest known RTT to \p ldns among the candidates (ties: the
     * lowest site index, so that every site holding the same values chooses alike).
     * \param ldns the LDNS
     * \param candidate one flag per site (size GetNSites(); AdcConfigError otherwise)
     * \return the site index, or -1 when no candidate has a known RTT
     */
    int32_t GetBestSite(const AdcIpAddress& ldns, const std::vector<bool>& candidate) const;

    /**
     * \param ldns an LDNS
     * \param candidate one flag per site (size GetNSites(); AdcConfigError otherwise)
     * \return how many candidate sites have a known RTT to \p ldns (0 when the entry expired)
     */
    uint32_t CountKnown(const AdcIpAddress& ldns, const std::vector<bool>& candidate) const;

    /**
     * \brief The candidate sites whose known RTT to \p ldns is at most the lowest one plus
     * \p window (NetScaler's GSLB vserver -tolerance: "The sites having the RTT value less than
     * or equal to the sum of the lowest RTT and tolerance value are considered").
     * \param ldns the LDNS
     * \param candidate one flag per site (size GetNSites(); AdcConfigError otherwise)
     * \param window the tolerance (negative is an AdcConfigError)
     * \return the sites in index order; empty when no candidate has a known RTT
     */
    std::vector<uint32_t> GetSitesWithin(const AdcIpAddress& ldns,
                                         const std::vector<bool>& candidate,
                                         Time window) const;

    /// \return the number of entries held (expired ones not yet swept included)
    uint64_t GetNEntries() const;

    /// \return the LDNS addresses of the live (not expired) entries, in table order
    std::vector<AdcIpAddress> GetLdnsAddresses() const;

    /// \return bytes allocated (hash slots and entry arrays) per entry; 0 when empty
    double GetBytesPerEntry() const;

    /// \brief Remove every expired entry now (fires "Expire" for each).
    void Sweep();

    /**
     * \brief Signature of trace source "Update".
     * \param ldns the LDNS
     * \param site the site the value is for
     * \param oldRttMs the value held before, -1 when none
     * \param newRttMs the value given, rounded to the millisecond
     * \param source "local" (UpdateLocal) or "mep" (UpdateRemote)
     * \param stored whether the value was stored (a local one within tolerance is not)
     */
    typedef void (*UpdateTracedCallback)(const AdcIpAddress& ldns,
                                         uint32_t site,
                                         int32_t oldRttMs,
                                         int32_t newRttMs,
                                         const std::string& source,
                                         bool stored);

    /**
     * \brief Signature of trace source "Expire".
     * \param ldns the LDNS whose entry was removed
     */
    typedef void (*ExpireTracedCallback)(const AdcIpAddress& ldns);

  protected:
    void DoDispose() override;

  private:
    /// No entry (an empty slot, or Find's "not found").
    static constexpr uint32_t kNone = 0xFFFFFFFF;

    /// \param what the operation, for the message (throws when SetSites was not called)
    void CheckSites(const char* what) const;
    /// \param site a site index \param what the operation (throws when out of range)
    void CheckSite(uint32_t site, const char* what) const;
    /// \param rtt a time \param what the operation \return it in ms, rounded, capped
    static uint16_t ToMs(Time rtt, const char* what);
    /// \return now in the entries' time unit (ms modulo 2^32)
    static uint32_t NowUnits();
    /// \param entry an entry \return true when it expired
    bool IsExpired(uint32_t entry) const;
    /// \param a an address \return the hash slot it starts probing at
    uint32_t HomeSlot(const AdcIpAddress& a) const;
    /// \param e an entry \return its address
    AdcIpAddress AddressOf(uint32_t e) const;
    /// \param a an address \param slot [out, may be null] its slot \return its entry or kNone
    uint32_t Find(const AdcIpAddress& a, uint32_t* slot = nullptr) const;
    /// \param a an address \return its live entry, created (all unknown) when absent or expired
    uint32_t FindOrCreate(const AdcIpAddress& a);
    /// \param slot a slot holding an entry: removes it (fires "Expire")
    void Remove(uint32_t slot);
    /// \brief Grow the hash table (doubling) and rehash.
    void GrowTable();
    /// \brief Sweep when the last sweep is older than EntryTimeout.
    void MaybeSweep();

    Time m_tolerance;    //!< RTT tolerance
    Time m_entryTimeout; //!< LDNS entry timeout

    std::vector<std::string> m_siteNames; //!< by site index
    uint32_t m_localSite{0};              //!< this site

    std::vector<uint32_t> m_slots;                  //!< hash slots: entry number or kNone
    std::vector<std::array<uint8_t, 16>> m_address; //!< per entry: address bytes
    std::vector<uint8_t> m_family;                  //!< per entry: AdcIpAddress::Family
    std::vector<uint32_t> m_lastActivity;           //!< per entry: ms modulo 2^32
    std::vector<uint16_t> m_rtt;                    //!< per entry, per site: ms or kUnknown
    Time m_lastSweep;                               //!< when the last sweep ran
    Time m_lastAnyActivity;                         //!< latest activity of any entry

    /// Fired for every update (local or remote).
    TracedCallback<const AdcIpAddress&, uint32_t, int32_t, int32_t, const std::string&, bool>
        m_updateTrace;
    /// Fired when an entry is removed on expiry.
    TracedCallback<const AdcIpAddress&> m_expireTrace;
};

} // namespace ns3

#endif /* GSLB_RTT_DATABASE_H */
