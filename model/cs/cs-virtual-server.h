/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: NetScaler's content-switching virtual server on the shared proxy engine, with
 * persistence kept across the LB virtual servers bound under it.
 */

#ifndef CS_VIRTUAL_SERVER_H
#define CS_VIRTUAL_SERVER_H

#include "cs-policy.h"

#include "ns3/adc-http-cookie.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-proxy-engine.h"
#include "ns3/adc-proxy-policy.h"
#include "ns3/adc-source-address-policy.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/adc-tls-endpoint.h"
#include "ns3/adc-tls-termination.h"
#include "ns3/adc-udp-relay.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class AdcCsVserverConfig;

/**
 * \ingroup adc
 * \brief A content-switching virtual server (`add cs vserver <name> HTTP <VIP> <port>`): it
 * terminates client connections on the shared AdcProxyEngine and sends each request to an LB
 * virtual server (an AdcVirtualServer, e.g. one per application version) chosen by the
 * policies bound to it, and to a service of that LB virtual server by its LB method.
 *
 * Per request (Decide), in this order:
 * 1. persistence, when "PersistenceType" is not NONE (CS-03, CS-04): the entry of the
 *    request names an LB virtual server and one of its services, whichever LB virtual server
 *    it is, so a session that began on the old version stays there after a policy change:
 *    - SOURCEIP: the client's address, in a table of at most "MaxPersistenceEntries" entries;
 *    - COOKIEINSERT: the cookie NSC_<vid of CS><vid of LB> (AdcNscCookie::EncodeName) whose
 *      value names the service's IP and port (AdcNscCookie::EncodeValue); the appliance keeps
 *      no table for it (limited by memory only, CS-06). With "PersistenceBackup" SOURCEIP, a
 *      request that carries no cookie at all is looked up by its address in the backup table
 *      ("BackupPersistenceTimeout"); one with any cookie is not (CS-08);
 *    The entry stands for the version, its LB virtual server, as the seed says ("LB1 is
 *    retrieved from the persistent session"): while that LB virtual server is still bound
 *    under this one (by a policy or as the default) and UP, the request goes to it: to the
 *    entry's service when it is bound there, UP and below MaxClient
 *    (AdcVirtualServer::SelectPersisted), else to another service that LB virtual server
 *    chooses (AdcVirtualServer::Select; a table entry then names it, a cookie is re-issued;
 *    Decision how "persistence <TYPE>, service re-chosen", Persistence event "update").
 *    Only when the LB virtual server is unbound or not UP is the request balanced anew.
 *    COOKIEINSERT takes, of several NSC_ cookies of this CS vserver, the newest usable one,
 *    and expires the others in the same response (a fail-over leaves no stale cookie that
 *    could move the client back); a hit with a non-zero timeout re-sends the cookie with a
 *    new expiry, since Citrix documents the timeout as an inactivity period;
 * 2. the bound policies by ascending priority, then the default LB virtual server: the CS
 *    virtual server's own AdcVirtualServer ("GetVirtualServer"), whose bound virtual servers
 *    are the LB virtual servers (AdcVirtualServer::BindVServer with a CsPolicy);
 * 3. no LB virtual server UP: 503 Service Unavailable, "Drop" "cs: no LB vserver up".
 * A new choice creates the entry: SOURCEIP in the table (a full table refuses it: the choice
 * stands, the overflow is counted and traced, CS-06); COOKIEINSERT adds Set-Cookie to the
 * response (version "CookieVersion": 0 with Expires, 1 with Max-Age; timeout 0 neither, a
 * session cookie, CS-05) and, for a client without cookies and a SOURCEIP backup, an entry in
 * the backup table.
 *
 * The proxy engine does the rest (connections, relaying, pooling, timeouts, failures); the
 * request goes to the service from "SourceIp" (NetScaler's SNIP; unset: the node's first
 * address). Service types ("ServiceType"): HTTP, and SSL (HTTPS: the engine terminates TLS
 * 1.2, the services get plain HTTP, and SSLSESSION persistence keys on the client's TLS
 * session ID, AdcProxyFront::tlsSessionId, in the same table as SOURCEIP, with the same
 * limit), and SSL_BRIDGE: TLS passes through the shared AdcTcpRelay untouched to services that
 * terminate it themselves; the decision is taken per connection once the ClientHello has
 * arrived (AdcTlsObserver): SSLSESSION looks up the session ID the client offers, SOURCEIP the
 * client's address, then the policies (which see no HTTP request: CLIENT.IP and SYS.RANDOM
 * tests work, HTTP.REQ texts are empty) and the default; the entry of a new session is made
 * when the server's ServerHello shows its ID. A connection that is not TLS is refused
 * (Decision "none"). TCP: the same relay, the choice made when the connection is accepted
 * (SOURCEIP, then policies on the client's address). SSL_TCP: the same relay terminates TLS
 * on the client side (AdcTlsRelayCodec, with the engine's "TlsSessionTimeout" and "TlsSeed")
 * and relays the clear bytes to the services; the choice is made once the handshake completed,
 * so SSLSESSION keys on the session the CS vserver issued or resumed, and its entry is made at
 * the choice; a client whose handshake fails gets the alert and is counted unserved (Decision
 * "none"). UDP: the shared AdcUdpRelay relays datagrams per client session (address and port),
 * choosing at a session's first datagram (SOURCEIP, then the policies on the client's address);
 * a session is one request; with no LB vserver up the datagram is dropped and counted unserved.
 * The configuration takes every NetScaler CS type (CS-07 is enforced there); the types other
 * than these six have no datapath here (CheckConfig says so).
 *
 * Traces: "Decision" per request (LB vserver, service, how), "Persistence" per persistence
 * event (hit, miss, create, expire, overflow), the policies' "Evaluation", and the engine's.
 */
class CsVirtualServer : public Application, public AdcProxyPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    CsVirtualServer();
    ~CsVirtualServer() override;

    /**
     * \brief Signature of "Decision".
     * \param client the client as "ip:port"
     * \param url the request's URL
     * \param lbVserver the LB virtual server chosen ("" when none)
     * \param service the service chosen ("" when none)
     * \param how "policy <name>", "default", "persistence <TYPE>",
     *        "backup-persistence SOURCEIP" (either with ", service re-chosen" when the entry's
     *        LB vserver chose another service) or "none"
     */
    typedef void (*DecisionTracedCallback)(const std::string& client,
                                           const std::string& url,
                                           const std::string& lbVserver,
                                           const std::string& service,
                                           const std::string& how);

    /**
     * \brief Signature of "Persistence".
     * \param event "hit", "miss", "create", "update" (the entry's LB vserver chose another
     *        service), "expire" or "overflow"
     * \param key the entry's key (AdcPersistenceKey::ToString, e.g. "SOURCEIP 10.1.0.2/32")
     * \param lbVserver the entry's LB virtual server ("" for a miss or an overflow)
     * \param service the entry's service ("" for a miss or an overflow)
     */
    typedef void (*PersistenceTracedCallback)(const std::string& event,
                                              const std::string& key,
                                              const std::string& lbVserver,
                                              const std::string& service);

    /**
     * \brief Take the persistence settings of a configured CS vserver (name, port and
     * persistence; `add/set cs vserver`).
     * \param config the configuration
     */
    void Configure(Ptr<const AdcCsVserverConfig> config);

    /**
     * \brief Check the settings as the appliance checks `set cs vserver` (StartApplication
     * calls it): persistence type, backup and timeouts against the support matrix (CS-07);
     * with COOKIEINSERT, that its name and the bound LB vservers' names can be written into
     * the NSC_ cookie name (AdcNscCookie::VserverIdProblem).
     * \throws AdcConfigError naming the CS vserver, the setting, the value and what is allowed
     */
    void CheckConfig();

    /**
     * \brief Bind an LB virtual server with a policy (`bind cs vserver <cs> -policyName <p>
     * -priority <n>`; the priority is the policy's "Priority"). Allowed while running.
     * \param policy the policy
     * \param lbVserver the LB virtual server it sends to
     * \throws AdcConfigError when a policy of that name or priority is bound already, or
     *         when COOKIEINSERT is configured and \p lbVserver's name cannot be in a cookie
     */
    void BindPolicy(Ptr<CsPolicy> policy, Ptr<AdcVirtualServer> lbVserver);

    /// \param policyName a bound policy \return false when none is bound by that name
    bool UnbindPolicy(const std::string& policyName);

    /// \param lbVserver the default LB virtual server (`bind cs vserver <cs> -lbvserver`), or
    /// null to unbind it \throws AdcConfigError as BindPolicy for a name a cookie cannot carry
    void SetDefaultLbVserver(Ptr<AdcVirtualServer> lbVserver);

    /// \return the default LB virtual server, or null
    Ptr<AdcVirtualServer> GetDefaultLbVserver() const;

    /// \return the bound policies, by priority
    std::vector<Ptr<CsPolicy>> GetPolicies() const;

    /// \return the selection object: LB virtual servers bound under it by policy or as default
    Ptr<AdcVirtualServer> GetVirtualServer() const;
    /// \return the proxy engine
    Ptr<AdcProxyEngine> GetEngine() const;
    /// \return the TCP relay of an SSL_BRIDGE, SSL_TCP or TCP virtual server (null for other
    /// types, and before it starts)
    Ptr<AdcTcpRelay> GetRelay() const;
    /// \return the UDP relay of a UDP virtual server (null for other types, and before it
    /// starts)
    Ptr<AdcUdpRelay> GetUdpRelay() const;
    /// \return the SOURCEIP or SSLSESSION table (targets are internal indices)
    Ptr<AdcPersistenceTable> GetPersistenceTable() const;
    /// \return the backup SOURCEIP table of COOKIEINSERT
    Ptr<AdcPersistenceTable> GetBackupPersistenceTable() const;

    /**
     * \param stream first stream index \return streams used (the SYS.RANDOM draws)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return requests decided
    uint64_t GetRequests() const;
    /// \return requests served from a persistence entry (backup entries included)
    uint64_t GetPersistenceHits() const;
    /// \return persistence entries or cookies created
    uint64_t GetPersistenceCreated() const;
    /// \return entries a full table refused (CS-06)
    uint64_t GetPersistenceOverflows() const;
    /// \return requests answered 503 for want of an LB virtual server
    uint64_t GetUnserved() const;
    /// \param lbVserver an LB virtual server's name \return requests sent to it
    uint64_t GetRequestsTo(const std::string& lbVserver) const;
    /// \param policy a policy's name \return requests its match sent to its LB vserver
    /// (`show cs vserver`'s hits per policy; persistence hits not included)
    uint64_t GetPolicyHits(const std::string& policy) const;
    /// \return requests the default LB vserver took because no policy matched
    uint64_t GetDefaultHits() const;

    /**
     * \brief Change the persistence while the virtual server runs (`set cs vserver
     * -persistenceType -timeout -persistenceBackup -backupPersistenceTimeout`), checked as
     * CheckConfig checks it. A new type drops the entries of the old one (a SOURCEIP entry
     * means nothing to SSLSESSION); a new timeout applies to new entries and to each kept
     * entry at its next hit. Before the start it only sets the attributes.
     * \param type NONE, SOURCEIP, COOKIEINSERT or SSLSESSION
     * \param timeoutMinutes the timeout \param backup NONE or SOURCEIP
     * \param backupTimeoutMinutes the backup's timeout
     * \throws AdcConfigError as CheckConfig (nothing changed then)
     */
    void SetPersistence(const std::string& type,
                        uint32_t timeoutMinutes,
                        const std::string& backup,
                        uint32_t backupTimeoutMinutes);

    /// A persistence session the appliance holds (`show lb persistentSessions`).
    struct PersistentSession
    {
        std::string vserver;  //!< the virtual server that owns it (this CS vserver)
        std::string type;     //!< SOURCEIP or SSLSESSION (a backup entry: SOURCEIP)
        std::string source;   //!< the client's address ("" for SSLSESSION)
        std::string param;    //!< the SSL session ID in hex ("" for SOURCEIP)
        Ipv4Address destIp;   //!< the service's address
        uint16_t destPort{0}; //!< the service's port
        std::string lbVserver; //!< the LB vserver the entry stands for
        uint32_t timeoutSeconds{0}; //!< seconds left before it expires
        bool backup{false};         //!< an entry of the backup SOURCEIP table
    };

    /// \return the live persistence sessions (SOURCEIP, SSLSESSION, backup SOURCEIP; cookie
    /// persistence keeps none), in table order
    std::vector<PersistentSession> GetPersistentSessions();

    /// \brief `clear lb persistentSessions <this vserver>`: drop every entry of both tables.
    /// \return entries removed
    uint32_t ClearPersistentSessions();

    /**
     * \brief The Set-Cookie value NetScaler writes for an inserted persistence cookie, in the
     * appliance's own spelling, as captured from appliances in the field (e.g.
     * `NSC_x=ffffffff...;expires=Fri, 17-Feb-2017 15:57:20 GMT;path=/;httponly`): no space
     * after ';', lowercase attributes, version 0 with a Netscape date (`Wdy, DD-Mon-YYYY
     * HH:MM:SS GMT`, CTX108883: absolute GMT time = now + timeout), version 1 with
     * `Version=1;Max-Age=<s>` (CTX108883: a relative time); timeout 0 neither (a session
     * cookie, CS-05); `httponly` when \p httpOnly (`set lb parameter -httpOnlyCookieFlag`,
     * default ENABLED).
     * \param name the cookie's name \param value its value \param version 0 or 1
     * \param timeout the timeout (0: session cookie) \param now the simulation time
     * \param httpOnly write httponly \param epoch Unix time of simulation time 0
     * \return the field value
     */
    static std::string BuildNscSetCookie(const std::string& name,
                                         const std::string& value,
                                         uint8_t version,
                                         Time timeout,
                                         Time now,
                                         bool httpOnly,
                                         int64_t epoch = AdcSetCookie::GetEpoch());

    /**
     * \param name a cookie's name \param version 0 or 1 \param httpOnly write httponly
     * \return a Set-Cookie value in the same spelling that deletes the cookie (RFC 6265 3.1:
     * an expiry in the past; version 1: Max-Age=0)
     */
    static std::string BuildNscExpired(const std::string& name, uint8_t version, bool httpOnly);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    AdcProxyDecision Decide(const AdcProxyFront& front, const AdcHttpMessage& request) override;
    void Released(const AdcProxyDecision& decision) override;

    /// \return the cookie's name for \p lbVserver
    std::string CookieName(const std::string& lbVserver) const;
    /// \return the LB virtual servers bound under this one, policies first
    std::vector<Ptr<AdcVirtualServer>> BoundLbVservers() const;

    /**
     * \brief Balance a request anew, as NetScaler does behind a CS vserver
     * (cs-virtual-server-persistence.cc): the policies by priority (then the default) choose
     * the LB vserver, and that LB vserver chooses the service with its own persistence
     * (SelectInLb). Counts the policy's or the default's hit.
     * \param ctx the request \param cookies its cookies
     * \return the selection (no service: no LB vserver could take it)
     */
    AdcSelection SelectAnew(const AdcLbContext& ctx, const AdcHttpCookies& cookies);
    /**
     * \brief The service the LB vserver \p lb chooses, with its own persistence: its
     * COOKIEINSERT cookie (NSC_<vid of LB>) when the request carries one naming a service it
     * can still take (AdcVirtualServer::SelectPersisted), else AdcVirtualServer::Select (its
     * SOURCEIP entry, else its method).
     * \param ctx the request \param lb the LB vserver \param cookies the request's cookies
     * \return the selection (no service: \p lb chose nothing)
     */
    AdcSelection SelectInLb(const AdcLbContext& ctx,
                            Ptr<AdcVirtualServer> lb,
                            const AdcHttpCookies& cookies);
    /// Add the chosen LB vserver's own NSC_ cookie to \p d when it has COOKIEINSERT and the
    /// request lacks it, names another service, or the timeout slides (not 0).
    void AddLbCookie(AdcProxyDecision& d,
                     const AdcSelection& sel,
                     const AdcHttpCookies& cookies) const;
    /// \return whether any LB vserver bound under this one has COOKIEINSERT
    bool AnyLbCookieInsert() const;
    /// \param sel a selection \return its index in m_targets (added when new)
    uint32_t TargetOf(const AdcSelection& sel);

    /// What a persistence lookup found.
    struct Found
    {
        AdcSelection sel;       //!< the selection; no service: balance anew (policies)
        std::string how;        //!< the Decision's how
        bool rechosen{false};   //!< the entry's LB vserver chose another of its services
        bool fromCookie{false}; //!< COOKIEINSERT: a cookie of the request gave it
        std::string cookieName; //!< the cookie that gave it
    };

    /**
     * \brief The selection of an entry naming \p lb and \p service: the entry stands for the
     * LB vserver (the version). While \p lb is bound under this one and UP, the service when
     * it can still be taken, else another service \p lb chooses itself (\p rechosen).
     * \param ctx the request \param lb the entry's LB vserver \param service its service
     * (null: unbound) \param rechosen set when \p lb chose another service
     * \return the selection; no service when \p lb is unbound, not UP or chose nothing
     */
    AdcSelection Resume(const AdcLbContext& ctx,
                        Ptr<AdcVirtualServer> lb,
                        Ptr<AdcService> service,
                        bool& rechosen);
    /**
     * \brief Resume the entry of \p key in \p table; a re-chosen service updates the entry.
     * \param ctx the request \param table the table \param key the key \param timeout the
     * entry's timeout \param found what was found (sel, rechosen, how's suffix)
     */
    void LookupTable(const AdcLbContext& ctx,
                     Ptr<AdcPersistenceTable> table,
                     const AdcPersistenceKey& key,
                     Time timeout,
                     Found& found);
    /// Persistence lookup of a request or relayed connection.
    Found Lookup(const AdcLbContext& ctx,
                 const AdcProxyFront& front,
                 const AdcHttpCookies& cookies);
    /**
     * \param name a cookie name \return the LB vserver, bound under this one or chosen by it
     * before, whose NSC_ cookie of this CS vserver has that name; null when none
     */
    Ptr<AdcVirtualServer> LbOfCookie(const std::string& name) const;
    /**
     * \brief Refuse an LB vserver or CS vserver name that cannot go into the NSC_ cookie
     * while COOKIEINSERT is configured (a request must never meet it).
     * \param role "CS vserver" or "LB vserver" \param name the name
     * \throws AdcConfigError naming this CS vserver, the name, the character and what is allowed
     */
    void CheckCookieName(const std::string& role, const std::string& name) const;
    /// \return whether "PersistenceType" says COOKIEINSERT (before the start too)
    bool CookieInsertConfigured() const;
    /// \return the persistence key of a SOURCEIP or SSLSESSION entry for the request
    AdcPersistenceKey TableKey(const AdcLbContext& ctx, const AdcProxyFront& front) const;

    // SSL_BRIDGE (cs-virtual-server-bridge.cc)
    /// An SSL_BRIDGE connection: what its TLS hellos said and where it went.
    struct Bridge
    {
        AdcTlsObserver hellos; //!< both directions' hellos
        AdcProxyFront front;   //!< the client, and the session once known
        int64_t target{-1};    //!< its (LB vserver, service), -1 before the choice
        bool persisted{false}; //!< the choice came from an entry
        bool recorded{false};  //!< the ServerHello's session was looked at
        /// SSL_TCP: the TLS termination on the client side (the relay holds it too)
        std::shared_ptr<AdcTlsRelayCodec> tls;
    };

    /// Start the relay of an SSL_BRIDGE, SSL_TCP or TCP virtual server.
    void StartBridge();
    /// Start the relay of a UDP virtual server.
    void StartUdp();
    /// The relay's chooser: decide from the ClientHello.
    AdcTcpRelay::Choice ChooseBridge(uint64_t id,
                                     const InetSocketAddress& client,
                                     Ptr<const Packet> bytes);
    /**
     * \brief Choose the LB vserver and service of a relayed connection or UDP session from
     * \p b's front (client, TLS session), as a request: persistence, policies, default; count
     * and trace it, make its SOURCEIP entry (and its SSLSESSION entry when \p sessionKnown).
     * \param b the connection \param client its client \param protocol AdcFlowKey::PROTO_TCP
     * or PROTO_UDP \param sessionKnown the front's TLS session is the one in use
     * \return the service (null: none is up; counted unserved, Decision "none")
     */
    Ptr<AdcService> SelectConnection(Bridge& b,
                                     const InetSocketAddress& client,
                                     uint8_t protocol,
                                     bool sessionKnown);
    /// The relay's byte observer: the hellos; the ServerHello's session makes the entry.
    void ObserveBridge(uint64_t id, bool toServer, Ptr<const Packet> bytes);
    /// The relay's end observer.
    void EndBridge(uint64_t id, const std::string& outcome);
    /// A table's "Expired".
    void OnExpired(const AdcPersistenceKey& key, uint32_t target);
    /// A table's "Overflow".
    void OnOverflow(const AdcPersistenceKey& key, AdcPersistenceTable::OverflowPolicy policy);
    /// Fire "Persistence" for \p target.
    void TracePersistence(const std::string& event, const AdcPersistenceKey& key, int64_t target);

    // attributes
    std::string m_name;            //!< "Name"
    std::string m_serviceType;     //!< "ServiceType"
    uint16_t m_port;               //!< "Port"
    std::string m_persistenceName; //!< "PersistenceType"
    uint32_t m_timeout;            //!< "Timeout" (minutes)
    std::string m_backupName;      //!< "PersistenceBackup"
    uint32_t m_backupTimeout;      //!< "BackupPersistenceTimeout" (minutes)
    uint32_t m_maxEntries;         //!< "MaxPersistenceEntries"
    uint8_t m_cookieVersion;       //!< "CookieVersion"
    bool m_httpOnly;               //!< "HttpOnlyCookie"
    bool m_started{false};         //!< StartApplication ran
    bool m_retime{false};          //!< the timeout changed at run time: hits re-time entries
    Ipv4Address m_sourceIp;        //!< "SourceIp"
    bool m_disposing;              //!< stopping quietly

    AdcPersistenceType m_persistence;       //!< parsed "PersistenceType"
    AdcPersistenceType m_backup;            //!< parsed "PersistenceBackup"
    Ptr<AdcProxyEngine> m_engine;           //!< the proxy
    Ptr<AdcTcpRelay> m_relay;               //!< SSL_BRIDGE, SSL_TCP, TCP: the relay
    Ptr<AdcUdpRelay> m_udp;                 //!< UDP: the relay
    std::map<uint64_t, Bridge> m_bridges;   //!< SSL_BRIDGE connections by relay id
    AdcTlsSessionCache m_tlsCache;          //!< SSL_TCP: the session cache
    Ptr<AdcSourceAddressPolicy> m_source;   //!< SNIP source of server connections
    Ptr<AdcVirtualServer> m_vserver;        //!< policies and default
    Ptr<AdcPersistenceTable> m_table;       //!< SOURCEIP / SSLSESSION entries
    Ptr<AdcPersistenceTable> m_backupTable; //!< backup SOURCEIP entries
    Ptr<UniformRandomVariable> m_random;    //!< SYS.RANDOM draws of every policy
    std::vector<Ptr<CsPolicy>> m_policies;  //!< bound policies
    Ptr<AdcVirtualServer> m_default;        //!< default LB virtual server
    /// (LB vserver, service) pairs persistence entries point at, by index
    std::vector<std::pair<Ptr<AdcVirtualServer>, Ptr<AdcService>>> m_targets;
    std::map<std::pair<const AdcVirtualServer*, const AdcService*>, uint32_t>
        m_targetIndex;                 //!< lookup
    std::vector<uint64_t> m_perTarget; //!< requests per (LB vserver, service), by m_targets index
    std::map<std::string, uint64_t> m_policyHits; //!< requests per matching policy
    uint64_t m_defaultHits{0};                    //!< requests the default took

    uint64_t m_requests{0};  //!< counter
    uint64_t m_hits{0};      //!< counter
    uint64_t m_created{0};   //!< counter
    uint64_t m_overflows{0}; //!< counter
    uint64_t m_unserved{0};  //!< counter

    TracedCallback<const std::string&,
                   const std::string&,
                   const std::string&,
                   const std::string&,
                   const std::string&>
        m_decisionTrace; //!< "Decision"
    TracedCallback<const std::string&, const std::string&, const std::string&, const std::string&>
        m_persistenceTrace; //!< "Persistence"
};

} // namespace ns3

#endif /* CS_VIRTUAL_SERVER_H */
