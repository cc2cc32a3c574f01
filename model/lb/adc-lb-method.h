/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the load-balancing methods every ADC model shares, behind one interface.
 */

#ifndef ADC_LB_METHOD_H
#define ADC_LB_METHOD_H

#include "adc-maglev-table.h"

#include "ns3/adc-flow-key.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class AdcHttpMessage;

/**
 * \ingroup adc
 * \brief One back-end (service) a load-balancing method balances over.
 */
struct AdcBackend
{
    std::string name;              //!< identity, e.g. "CRS1"; keyed on by hashing methods
    AdcIpAddress address;          //!< back-end address
    uint16_t port{0};              //!< back-end port
    uint32_t weight{1};            //!< relative share, >= 1 (0 is an AdcConfigError)
    bool up{true};                 //!< a down back-end gets no new flows
    uint32_t activeConnections{0}; //!< open connections (LEASTCONNECTION)
};

/**
 * \ingroup adc
 * \brief What a method may look at to choose a back-end.
 */
struct AdcLbContext
{
    AdcFlowKey flow; //!< client-side 5-tuple (src = client, dst = VIP)
    std::string url; //!< request URL (path + query), empty when unknown (L4)
    /// The request head at L7 (Host, cookies, headers for content switching and L7 methods);
    /// null at L4. Not owned: valid only during the call it is passed to.
    const AdcHttpMessage* request{nullptr};
    AdcIpAddress ldns; //!< the client's local DNS server (GSLB); IsNone() when unknown
};

/**
 * \ingroup adc
 * \brief Why a method chose what it chose: the back-ends it considered and the rule that
 * decided, carried by the "Selection" trace.
 *
 * candidates are back-end indices: every up back-end for a method that compares them all
 * (round robin, least connection, rendezvous hashing), or the one looked up for a table method
 * (Maglev, illumos's hash). reason is one line, e.g. "fewest connections per weight (0/1)".
 */
struct AdcLbDecision
{
    std::vector<uint32_t> candidates; //!< the back-ends considered, ascending
    std::string reason;               //!< the rule that decided
};

/**
 * \ingroup adc
 * \brief The keys hash methods choose by, as public pieces a new method reuses: each is a
 * seeded 64-bit hash (AdcHash) of what it names, so two seeds give two independent keys of the
 * same request (e.g. the two candidates of power-of-two-choices).
 */
class AdcLbKey
{
  public:
    /// \return a hash of the pair (h, v), order-sensitive
    static uint64_t Combine(uint64_t h, uint64_t v);
    /**
     * \param ctx the request
     * \param seed the hash seed
     * \param v4Prefix bits of an IPv4 address kept (NetScaler's -netmask), 0..32
     * \param v6Prefix bits of an IPv6 address kept (NetScaler's -v6netmasklen), 0..128
     * \return the client's address, masked
     */
    static uint64_t SourceIp(const AdcLbContext& ctx,
                             uint64_t seed,
                             uint8_t v4Prefix = 32,
                             uint8_t v6Prefix = 128);
    /// \param ctx the request \param seed the hash seed \return the client's address and port
    static uint64_t SourceIpPort(const AdcLbContext& ctx, uint64_t seed);
    /// \param ctx the request \param seed the hash seed \return the client's address and the VIP
    static uint64_t SourceIpVip(const AdcLbContext& ctx, uint64_t seed);
    /**
     * \param ctx the request
     * \param seed the hash seed
     * \param v4Prefix bits of an IPv4 address kept, 0..32
     * \param v6Prefix bits of an IPv6 address kept, 0..128
     * \return the destination address, masked
     */
    static uint64_t DestinationIp(const AdcLbContext& ctx,
                                  uint64_t seed,
                                  uint8_t v4Prefix = 32,
                                  uint8_t v6Prefix = 128);
    /// \param ctx the request \param seed the hash seed \return the whole 5-tuple
    static uint64_t Flow(const AdcLbContext& ctx, uint64_t seed);
    /**
     * \param ctx the request
     * \param seed the hash seed
     * \param ignoreQuery hash the path only ('?' onwards left out)
     * \param length bytes of the URL hashed (NetScaler's -hashLength), from the start
     * \return the URL (path and query); with no URL (L4), SourceIp, as URLHASH falls back
     */
    static uint64_t Url(const AdcLbContext& ctx,
                        uint64_t seed,
                        bool ignoreQuery = false,
                        std::size_t length = std::string::npos);
};

/**
 * \ingroup adc
 * \brief Abstract load-balancing method: holds the back-ends, chooses one per new flow.
 *
 * Back-end indices are stable (the order of AddBackend). Select() only ever returns an up
 * back-end, or -1 when none is up. Every method is deterministic: no random variables.
 * Hash-based methods key on AdcHash with the "HashSeed" attribute, so each device makes its
 * own, repeatable choices. Create() builds a method by its configuration name.
 */
class AdcLbMethod : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcLbMethod();
    ~AdcLbMethod() override;

    /**
     * \brief Add a back-end.
     * \param b the back-end; weight 0, or a non-empty name already used, is an AdcConfigError
     * \return its index (stable)
     */
    uint32_t AddBackend(const AdcBackend& b);

    /**
     * \brief Mark a back-end up or down; what depends on the set is rebuilt.
     * \param index back-end index
     * \param up new state
     */
    void SetBackendUp(uint32_t index, bool up);

    /**
     * \param index back-end index
     * \param weight new weight, >= 1 (0 is an AdcConfigError)
     */
    void SetBackendWeight(uint32_t index, uint32_t weight);

    /// \param index back-end index \return the back-end
    const AdcBackend& GetBackend(uint32_t index) const;
    /// \return number of back-ends
    uint32_t GetNBackends() const;
    /// \return number of back-ends that are up
    uint32_t GetNUpBackends() const;

    /// \param index back-end that opened a connection (the caller reports it after Select)
    void ConnectionOpened(uint32_t index);
    /// \param index back-end whose connection closed (never goes below 0)
    void ConnectionClosed(uint32_t index);

    /**
     * \brief Choose a back-end for a new flow or request; fires "Selection".
     * \param ctx what the method may look at
     * \return index of an up back-end, or -1 when none is up
     */
    int32_t Select(const AdcLbContext& ctx);

    /// \return the candidates and reason of the last Select (empty before the first)
    const AdcLbDecision& GetLastDecision() const;

    /// \return the method's canonical configuration name, e.g. "ROUNDROBIN"
    virtual std::string GetMethodName() const = 0;

    /// \param seed the per-device hash seed (same as attribute "HashSeed")
    void SetHashSeed(uint64_t seed);
    /// \return the per-device hash seed
    uint64_t GetHashSeed() const;

    /**
     * \brief Methods are deterministic and use no random variables.
     * \param stream first stream index
     * \return 0, the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Build a method by name (case-insensitive), in any vocabulary: a thin wrapper of
     * AdcLbMethodRegistry (vocabulary ANY), for settings that always took NetScaler's and
     * ilbadm's names alike. New settings read names in one vocabulary with
     * AdcLbMethodRegistry::Create or Resolve.
     * \param name one of GetMethodNames(); anything else is an AdcConfigError listing them
     * \return the method
     */
    static Ptr<AdcLbMethod> Create(const std::string& name);

    /// \return every name Create() accepts (AdcLbMethodRegistry::GetNames(ANY)), in a fixed
    /// order: the canonical (NetScaler) names, then the other vocabularies' aliases
    static std::vector<std::string> GetMethodNames();

    /**
     * \brief Signature of trace source "Selection".
     * \param flow the flow being balanced
     * \param url its URL (empty at L4)
     * \param index the chosen back-end, -1 when none was up
     * \param decision the back-ends considered and the reason for the choice
     */
    typedef void (*SelectionTracedCallback)(const AdcFlowKey& flow,
                                            const std::string& url,
                                            int32_t index,
                                            const AdcLbDecision& decision);

  protected:
    /**
     * \brief Choose among the back-ends; called only when at least one is up.
     *
     * A method says why with Consider and Because; what it leaves unsaid defaults to every
     * up back-end as candidates and its method name as the reason.
     * \param ctx what the method may look at
     * \return index of an up back-end
     */
    virtual int32_t DoSelect(const AdcLbContext& ctx) = 0;

    /// \param index a back-end this choice considered (in any order; Select sorts them)
    void Consider(uint32_t index);
    /// \param reason the rule that decided this choice
    void Because(std::string reason);

    /// Hook called after a back-end is added, goes up or down, changes weight, or the seed
    /// changes.
    virtual void BackendsChanged();

    /// \param index back-end index \return the string hashing methods key on: its name, or
    /// "#<index>" when the name is empty
    std::string GetBackendIdentity(uint32_t index) const;

    void DoDispose() override;

  private:
    /// \param index index to check (AdcConfigError when out of range)
    /// \param what the operation, for the message
    void CheckIndex(uint32_t index, const char* what) const;
    /// \param weight weight to check (AdcConfigError when 0)
    /// \param who the back-end, for the message
    static void CheckWeight(uint32_t weight, const std::string& who);

    std::vector<AdcBackend> m_backends; //!< back-ends by index
    uint32_t m_nUp{0};                  //!< how many are up
    uint64_t m_hashSeed;                //!< per-device hash seed
    AdcLbDecision m_decision;           //!< the current or last Select's decision
    /// Fired once per Select with the result.
    TracedCallback<const AdcFlowKey&, const std::string&, int32_t, const AdcLbDecision&>
        m_selectionTrace;
};

/**
 * \ingroup adc
 * \brief ROUNDROBIN: cycles over up back-ends in index order, skipping down ones.
 */
class AdcRoundRobinLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetMethodName() const override;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;

  private:
    uint32_t m_next{0}; //!< index to try first
};

/**
 * \ingroup adc
 * \brief WEIGHTEDROUNDROBIN: smooth weighted round robin (the nginx algorithm).
 *
 * Each pick adds every up back-end's weight to its current value, picks the largest current
 * (lowest index on ties) and subtracts the total up weight from it. Weights 5,1,1 give
 * a a b a c a a. The sequence restarts whenever the back-end set changes.
 */
class AdcWeightedRoundRobinLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetMethodName() const override;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;
    void BackendsChanged() override;

  private:
    std::vector<int64_t> m_current; //!< current value per back-end
};

/**
 * \ingroup adc
 * \brief LEASTCONNECTION: fewest activeConnections / weight among up back-ends.
 *
 * Ties are broken round-robin (the first tied back-end at or after a rotating cursor), so
 * equal back-ends share load even before connection counts are reported.
 */
class AdcLeastConnectionLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetMethodName() const override;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;

  private:
    uint32_t m_next{0}; //!< tie-break cursor
};

/**
 * \ingroup adc
 * \brief Base of the hash methods: weighted rendezvous (highest-random-weight) hashing.
 *
 * For a key hash k, up back-end i scores -w_i / ln(u_i) with u_i in (0,1) from
 * Mix(k ^ identityHash_i); the highest score wins, lowest index on ties. A back-end going
 * down therefore moves only its own flows, and shares follow the weights.
 */
class AdcRendezvousHashLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

  protected:
    /**
     * \param ctx the context
     * \return the hash of what this method keys on
     */
    virtual uint64_t KeyHash(const AdcLbContext& ctx) const = 0;
    /**
     * \brief The rendezvous choice for a key: the up back-end of highest weighted score (what
     * DoSelect does with KeyHash(ctx)); a method that draws several keys per request (e.g.
     * power of two choices) calls it once per key.
     * \param key a key hash (AdcLbKey)
     * \return the back-end's index, -1 when none is up
     */
    int32_t PickByKey(uint64_t key) const;
    int32_t DoSelect(const AdcLbContext& ctx) override;
    void BackendsChanged() override;

  private:
    std::vector<uint64_t> m_identityHash; //!< seeded hash of each back-end's identity
};

/**
 * \ingroup adc
 * \brief SOURCEIPHASH, SRCIPSRCPORTHASH and SRCIPDESTIPHASH (ilbadm's hash-ip, hash-ip-port,
 * hash-ip-vip). SOURCEIPHASH masks the address by "Netmask" and "V6NetmaskLen" (NetScaler's
 * -netmask and -v6netmasklen apply to SOURCEIPHASH and DESTINATIONIPHASH only).
 */
class AdcSourceHashLb : public AdcRendezvousHashLb
{
  public:
    /// What is hashed.
    enum Mode
    {
        IP,      //!< source IP ("SOURCEIPHASH", ilbadm "hash-ip")
        IP_PORT, //!< source IP and source port ("SRCIPSRCPORTHASH", ilbadm "hash-ip-port")
        IP_VIP   //!< source IP and destination VIP ("SRCIPDESTIPHASH", ilbadm "hash-ip-vip")
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    /// \return "SOURCEIPHASH", "SRCIPSRCPORTHASH" or "SRCIPDESTIPHASH" by mode
    std::string GetMethodName() const override;
    /// \param mode what is hashed
    void SetMode(Mode mode);
    /// \return what is hashed
    Mode GetMode() const;
    /// \param mask a contiguous IPv4 mask (AdcConfigError otherwise) for the source address
    void SetNetmask(Ipv4Mask mask);
    /// \return the IPv4 mask applied to the source address
    Ipv4Mask GetNetmask() const;

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override;

  private:
    Mode m_mode{IP};         //!< what is hashed
    uint8_t m_v4Prefix{32};  //!< "Netmask": IPv4 bits kept (SOURCEIPHASH only)
    uint8_t m_v6Prefix{128}; //!< "V6NetmaskLen": IPv6 bits kept (SOURCEIPHASH only)
};

/**
 * \ingroup adc
 * \brief URLHASH: hash of the first "HashLength" bytes of the URL (path + query; NetScaler's
 * `-hashLength`, default 80 bytes); an empty URL falls back to the source IP.
 */
class AdcUrlHashLb : public AdcRendezvousHashLb
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetMethodName() const override;

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override;

  private:
    bool m_ignoreQuery{false}; //!< hash the path only
    uint32_t m_hashLength{80}; //!< bytes of the URL hashed
};

/**
 * \ingroup adc
 * \brief DESTINATIONIPHASH: hash of the destination IP (cache redirection), masked by
 * "Netmask" and "V6NetmaskLen" (NetScaler's -netmask, -v6netmasklen).
 */
class AdcDestinationIpHashLb : public AdcRendezvousHashLb
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetMethodName() const override;

    /// \param mask a contiguous IPv4 mask (AdcConfigError otherwise)
    void SetNetmask(Ipv4Mask mask);
    /// \return the IPv4 mask applied to the destination address
    Ipv4Mask GetNetmask() const;

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override;

  private:
    uint8_t m_v4Prefix{32};  //!< "Netmask": IPv4 bits kept
    uint8_t m_v6Prefix{128}; //!< "V6NetmaskLen": IPv6 bits kept
};

/**
 * \ingroup adc
 * \brief MAGLEV: Maglev consistent hashing of the 5-tuple over an AdcMaglevTable.
 *
 * The table is rebuilt over the up back-ends (keyed on their identity, weights honoured)
 * whenever the set changes; lookup is table[Hash(5-tuple) mod TableSize].
 */
class AdcMaglevLb : public AdcLbMethod
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcMaglevLb();
    std::string GetMethodName() const override;
    /// \param size the table size; not prime is an AdcConfigError
    void SetTableSize(uint32_t size);
    /// \return the table size
    uint32_t GetTableSize() const;
    /// \return the current lookup table
    const AdcMaglevTable& GetTable() const;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;
    void BackendsChanged() override;

  private:
    AdcMaglevTable m_table; //!< lookup table over the up back-ends
};

} // namespace ns3

#endif /* ADC_LB_METHOD_H */
