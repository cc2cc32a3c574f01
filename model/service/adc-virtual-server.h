/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the NetScaler virtual server: a VIP and port with an LB method over bound services
 * and service groups, persistence, a backup virtual server, and virtual servers bound under it
 * with policies, so content switching and GSLB nest without new machinery.
 */

#ifndef ADC_VIRTUAL_SERVER_H
#define ADC_VIRTUAL_SERVER_H

#include "adc-binding-policy.h"
#include "adc-service-group.h"
#include "adc-service.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class AdcVirtualServer;

/**
 * \ingroup adc
 * \brief What a virtual server chose for one request or new flow.
 */
struct AdcSelection
{
    Ptr<AdcService> service;       //!< the service; null when nothing could be chosen
    Ptr<AdcVirtualServer> vserver; //!< the virtual server whose service it is
    std::string how; //!< "method", "persistence", "policy <name>", "default", "backup", "none"
};

/**
 * \ingroup adc
 * \brief A NetScaler virtual server (`add lb vserver <name> <serviceType> [<IP> <port>]`).
 *
 * Select(ctx, now) chooses, in this order:
 * 1. when the virtual server is not UP (disabled, or nothing bound is UP): its backup virtual
 *    server (`-backupVServer`), as NetScaler directs traffic to the backup when the primary
 *    is DOWN or disabled; backups chain;
 * 2. the virtual servers bound with a policy, by ascending priority: the first whose policy
 *    matches and that is UP selects (content switching);
 * 3. the persistence entry of the request (SOURCEIP: the client address; other types: the key
 *    the caller passes) when its service is still bound, UP and below MaxClient;
 * 4. the LB method ("LbMethod", from AdcLbMethodRegistry's NetScaler names) over the bound
 *    services and group members that are UP and below MaxClient; a new choice is remembered
 *    in the persistence table;
 * 5. the virtual servers bound without a policy (the default target);
 * 6. the backup virtual server; else nothing.
 * Every Select fires "Selection" on each virtual server it passes through.
 *
 * State, as NetScaler documents it: OUT_OF_SERVICE while disabled; UP when at least one bound
 * service (or group member, or bound virtual server) is UP; DOWN otherwise. "StateChange" fires
 * when it changes, pushed by the services' and bound virtual servers' own "StateChange".
 *
 * Persistence ("PersistenceType", "Timeout" in minutes): the type must be allowed on the
 * service type (AdcPersistenceTable::CheckSupported, with NetScaler's SSL as HTTPS); the
 * timeout is 2..1440 minutes, or 0..1440 for COOKIEINSERT (0: a session cookie, no expiry).
 * Validate checks both; Select calls it.
 */
class AdcVirtualServer : public Object
{
  public:
    /// Administrative state (`enable lb vserver`, `disable lb vserver`): ENABLED, DISABLED.
    using AdminState = AdcService::AdminState;

    /// Effective state, in the services' words: UP (at least one bound service or virtual
    /// server is UP), DOWN (nothing bound is UP) or OUT_OF_SERVICE (disabled); never UNKNOWN.
    using State = AdcService::State;

    /// A service or service group bound to the virtual server (`bind lb vserver`).
    struct ServiceBinding
    {
        std::string name; //!< the service's or group's name
        uint32_t weight;  //!< the binding's weight (0: the service's own)
        bool group;       //!< true for a service group
    };

    /// A virtual server bound under this one.
    struct VServerBinding
    {
        Ptr<AdcVirtualServer> vserver; //!< the bound virtual server
        Ptr<AdcBindingPolicy> policy;  //!< its policy; null for the default target
    };

    /**
     * \brief Signature of "Selection".
     * \param flow the flow being balanced
     * \param vserver this virtual server's name
     * \param service the chosen service's name ("" when none)
     * \param how "method", "persistence", "policy <name>", "default", "backup" or "none"
     */
    typedef void (*SelectionTracedCallback)(const AdcFlowKey& flow,
                                            const std::string& vserver,
                                            const std::string& service,
                                            const std::string& how);

    /**
     * \brief Signature of "StateChange".
     * \param name the virtual server's name
     * \param oldState the state before
     * \param newState the state after
     */
    typedef void (*StateChangeTracedCallback)(const std::string& name,
                                              State oldState,
                                              State newState);

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcVirtualServer();
    ~AdcVirtualServer() override;

    /**
     * \param name the virtual server's name
     * \param serviceType one of AdcService::GetServiceTypes()
     * \param vip its address; unset (IsNone) for a non-addressable virtual server
     * \param port its port; 0 is NetScaler's "*"
     */
    void Configure(const std::string& name,
                   const std::string& serviceType,
                   const AdcIpAddress& vip,
                   uint16_t port);

    /// \return the name
    const std::string& GetName() const;
    /// \return the service type (canonical)
    const std::string& GetServiceType() const;
    /// \return the VIP (IsNone for a non-addressable virtual server)
    const AdcIpAddress& GetVip() const;
    /// \return the port (0: "*")
    uint16_t GetPort() const;

    /// \param name a NetScaler method name (any case) \throws AdcConfigError listing them
    void SetLbMethod(const std::string& name);
    /// \param seed the seed of the LB method's hashes ("HashSeed"; reseeds the method in place)
    void SetHashSeed(uint64_t seed);
    /// \return "HashSeed"
    uint64_t GetHashSeed() const;
    /// \return the LB method's canonical name
    std::string GetLbMethodName() const;
    /// \return the LB method (its back-ends are the bound services, in binding order)
    Ptr<AdcLbMethod> GetLbMethod() const;
    /**
     * \brief Set an attribute of the LB method, now and on every method set later, as
     * NetScaler keeps -hashLength, -netmask and -v6netmasklen on the virtual server whatever
     * its -lbMethod: a method without the attribute ignores it (e.g. "HashLength" under
     * ROUNDROBIN), and a later switch to one that has it applies it.
     * \param attribute the method's attribute name, e.g. "HashLength"
     * \param value its value as text, e.g. "12" (AdcConfigError when the method that has the
     * attribute refuses it)
     */
    void SetLbMethodParameter(const std::string& attribute, const std::string& value);
    /// \param attribute a name given to SetLbMethodParameter \return its value, "" when unset
    std::string GetLbMethodParameter(const std::string& attribute) const;

    /// \param type NONE, SOURCEIP, COOKIEINSERT or SSLSESSION (any case)
    void SetPersistenceType(const std::string& type);
    /// \return the persistence type
    AdcPersistenceType GetPersistenceType() const;
    /// \return the persistence table (targets are back-end indices of GetLbMethod())
    Ptr<AdcPersistenceTable> GetPersistenceTable() const;

    /// \param state the admin state (same as "AdminState"); may fire "StateChange"
    void SetAdminState(AdminState state);
    /// \return the admin state
    AdminState GetAdminState() const;

    /**
     * \brief Check persistence type against service type and the timeout's range.
     * \throws AdcConfigError naming the virtual server, the setting and what is allowed
     */
    void Validate() const;

    /**
     * \brief Bind a service (`bind lb vserver <name> <service> [-weight N]`).
     * \param service the service
     * \param weight 1..100, or 0 for the service's own weight
     */
    void BindService(Ptr<AdcService> service, uint32_t weight = 0);

    /// \param group a service group: its members, present and future, are bound
    void BindServiceGroup(Ptr<AdcServiceGroup> group);

    /// \param name a bound service's or group's name \return false when none is bound so
    bool Unbind(const std::string& name);

    /// \return the bound services and groups, in binding order
    std::vector<ServiceBinding> GetServiceBindings() const;

    /**
     * \brief Bind a virtual server under this one.
     * \param vserver the virtual server (AdcConfigError when that would make a cycle)
     * \param policy its policy; null binds it as the default target
     */
    void BindVServer(Ptr<AdcVirtualServer> vserver, Ptr<AdcBindingPolicy> policy = nullptr);

    /// \param name a bound virtual server's name (every binding of it goes)
    /// \return false when none is bound so
    bool UnbindVServer(const std::string& name);

    /**
     * \brief Unbind the virtual server bound with the policy named \p policyName (content
     * switching's `unbind cs vserver <cs> -policyName <p>`); other bindings of the same virtual
     * server stay.
     * \param policyName the policy's name
     * \return false when no binding has that policy
     */
    bool UnbindPolicy(const std::string& policyName);

    /**
     * \brief Unbind \p name where it is bound without a policy (a default target); its
     * bindings with policies stay.
     * \param name a virtual server's name
     * \return false when it is not bound as a default target
     */
    bool UnbindDefault(const std::string& name);

    /// \return the bound virtual servers: by policy priority, then the default targets
    std::vector<VServerBinding> GetVServerBindings() const;

    /// \param backup the backup virtual server, or null (AdcConfigError on a cycle)
    void SetBackupVServer(Ptr<AdcVirtualServer> backup);
    /// \return the backup virtual server, or null
    Ptr<AdcVirtualServer> GetBackupVServer() const;

    /// \return the effective state
    State GetState() const;

    /**
     * \brief Choose a service for a request or new flow; SOURCEIP persistence keys on the
     * client address.
     * \param ctx the flow, and at L7 the request head
     * \param now the current time (persistence expiry)
     * \return the selection
     */
    AdcSelection Select(const AdcLbContext& ctx, Time now);

    /**
     * \brief Choose, with a persistence key the caller found (a cookie, an SSL session id).
     * \param ctx the flow, and at L7 the request head
     * \param now the current time
     * \param key the persistence key
     * \return the selection
     */
    AdcSelection Select(const AdcLbContext& ctx, Time now, const AdcPersistenceKey& key);

    /**
     * \param address a service's address
     * \param port its port
     * \return the bound service (directly or through a group) with that address and port, or
     * null
     */
    Ptr<AdcService> FindBoundService(const AdcIpAddress& address, uint16_t port) const;

    /**
     * \brief Take \p service for a request because a persistence entry kept by someone else
     * names it (content switching's persistence across its LB virtual servers), as Select
     * takes one of its own entries: only while this virtual server is UP and the service is
     * bound, UP and below MaxClient. Counted and traced ("Selection", how "persistence") as
     * Select's persistence hits are.
     * \param ctx the request
     * \param service the service the entry names
     * \return the selection; no service (and nothing counted or traced) when it cannot be taken
     */
    AdcSelection SelectPersisted(const AdcLbContext& ctx, Ptr<AdcService> service);

    /// \param service a service this virtual server chose: a connection to it opened
    void ConnectionOpened(Ptr<AdcService> service);
    /// \param service a service this virtual server chose: a connection to it closed
    void ConnectionClosed(Ptr<AdcService> service);

    /// \return selections this virtual server's own services served
    uint64_t GetHits() const;
    /// \return of those, the ones that came from a persistence entry
    uint64_t GetPersistenceHits() const;
    /// \return selections passed to the backup virtual server
    uint64_t GetBackupSelections() const;
    /// \return selections that found nothing
    uint64_t GetFailures() const;

  protected:
    void DoDispose() override;

  private:
    /// A service the LB method balances over; its index is the method's back-end index.
    struct Member
    {
        Ptr<AdcService> service; //!< the service
        uint32_t weight;         //!< the binding's weight (0: the service's own)
        std::string group;       //!< the group it came through ("" when bound directly)
        bool bound;              //!< false once unbound (indices stay stable)
    };

    /// A bound service or group (what GetServiceBindings shows).
    struct Binding
    {
        std::string name;           //!< its name
        uint32_t weight;            //!< weight (services)
        Ptr<AdcServiceGroup> group; //!< the group, or null for a service
    };

    /// A bound virtual server with its binding order.
    struct Child
    {
        VServerBinding binding; //!< virtual server and policy
        uint32_t order;         //!< binding order (ties of priority)
    };

    /// \param service a service \param weight its binding weight \param group its group
    void AddMember(Ptr<AdcService> service, uint32_t weight, const std::string& group);
    /// \param index a member to unbind
    void DropMember(std::size_t index);
    /// \param member a member \return the back-end it is in the LB method
    AdcBackend MakeBackend(const Member& member) const;
    /// Bring the LB method's up flags in line with the services (state and MaxClient).
    void SyncBackends();
    /// \param it a binding to remove (StateChange of its virtual server disconnected when it
    /// was its last binding)
    void EraseChild(std::vector<Child>::iterator it);
    /// \param target a virtual server \return true when it is this one or reachable from it
    bool Reaches(const AdcVirtualServer* target) const;
    /// \param service a service \return its member index, or -1
    int32_t FindMember(const Ptr<AdcService>& service) const;
    /// Choose; \p key is null without persistence.
    AdcSelection DoSelect(const AdcLbContext& ctx, Time now, const AdcPersistenceKey* key);
    /// \param ctx the flow \param sel the result \return \p sel, after firing "Selection"
    AdcSelection Done(const AdcLbContext& ctx, AdcSelection sel);
    /// Fire "StateChange" when GetState() differs from the last state reported.
    void UpdateState();
    /// A member's "StateChange".
    void MemberStateChanged(const std::string& name,
                            AdcService::State oldState,
                            AdcService::State newState);
    /// A bound group's "MemberChange".
    void GroupMemberChanged(const std::string& group, const std::string& member, bool added);
    /// Set \p attribute of \p lb to \p value when \p lb has it (AdcConfigError if refused).
    void ApplyLbParameter(Ptr<AdcLbMethod> lb,
                          const std::string& attribute,
                          const std::string& value) const;
    /// A bound virtual server's "StateChange".
    void ChildStateChanged(const std::string& name, State oldState, State newState);

    std::string m_name;                                //!< name
    std::string m_serviceType{"HTTP"};                 //!< service type
    AdcIpAddress m_vip;                                //!< VIP
    uint16_t m_port{0};                                //!< port (0: "*")
    std::string m_lbMethodName;                        //!< "LbMethod" (canonical)
    Ptr<AdcLbMethod> m_lb;                             //!< the LB method
    uint64_t m_hashSeed;                               //!< "HashSeed"
    std::map<std::string, std::string> m_lbParameters; //!< SetLbMethodParameter's, by attribute
    bool m_unknownIsUp{false};                         //!< "UnknownIsUp"
    AdcPersistenceType m_persistence{AdcPersistenceType::NONE}; //!< "PersistenceType"
    uint32_t m_timeout{2};                                      //!< "Timeout" (minutes)
    Ptr<AdcPersistenceTable> m_table;                           //!< persistence entries
    AdminState m_adminState{AdcService::ENABLED};               //!< "AdminState"
    std::vector<Member> m_members;                              //!< back-ends, by index
    std::vector<Binding> m_bindings;                            //!< services and groups, bind order
    std::vector<Child> m_children;                              //!< bound virtual servers
    uint32_t m_childOrder{0};                                   //!< next binding order
    Ptr<AdcVirtualServer> m_backup;                             //!< backup virtual server
    State m_reported{State::DOWN};  //!< last state "StateChange" reported
    uint64_t m_hits{0};             //!< counter
    uint64_t m_persistenceHits{0};  //!< counter
    uint64_t m_backupSelections{0}; //!< counter
    uint64_t m_failures{0};         //!< counter
    /// "Selection"
    TracedCallback<const AdcFlowKey&, const std::string&, const std::string&, const std::string&>
        m_selectionTrace;
    AdcService::StateTrace m_stateTrace; //!< "StateChange"
};

} // namespace ns3

#endif /* ADC_VIRTUAL_SERVER_H */
