/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cs-virtual-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CsVirtualServer");

NS_OBJECT_ENSURE_REGISTERED(CsVirtualServer);

TypeId
CsVirtualServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CsVirtualServer")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<CsVirtualServer>()
            .AddAttribute("Name",
                          "The CS virtual server's name (Via, the NSC_ cookie's name, traces).",
                          StringValue("cs"),
                          MakeStringAccessor(&CsVirtualServer::m_name),
                          MakeStringChecker())
            .AddAttribute("ServiceType",
                          "HTTP; SSL (TLS 1.2 terminated on the client side; NetScaler's "
                          "SSL is the requirements' HTTPS); SSL_BRIDGE (TLS passed through); "
                          "SSL_TCP (TLS terminated, the bytes relayed); TCP (connections "
                          "relayed); UDP (datagrams relayed per client session).",
                          StringValue("HTTP"),
                          MakeStringAccessor(&CsVirtualServer::m_serviceType),
                          MakeStringChecker())
            .AddAttribute("Port",
                          "The port it listens on (its VIP is an address of its node).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&CsVirtualServer::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PersistenceType",
                          "NONE, SOURCEIP, COOKIEINSERT or SSLSESSION, as the service type "
                          "allows (set cs vserver -persistenceType).",
                          StringValue("NONE"),
                          MakeStringAccessor(&CsVirtualServer::m_persistenceName),
                          MakeStringChecker())
            .AddAttribute("Timeout",
                          "Persistence timeout in minutes (-timeout): 2..1440, or 0..1440 with "
                          "COOKIEINSERT (0: a session cookie without expiry).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CsVirtualServer::m_timeout),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PersistenceBackup",
                          "NONE or SOURCEIP (only with COOKIEINSERT; -persistenceBackup).",
                          StringValue("NONE"),
                          MakeStringAccessor(&CsVirtualServer::m_backupName),
                          MakeStringChecker())
            .AddAttribute("BackupPersistenceTimeout",
                          "Backup persistence timeout in minutes, 2..1440 "
                          "(-backupPersistenceTimeout).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CsVirtualServer::m_backupTimeout),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxPersistenceEntries",
                          "Concurrent SOURCEIP (and backup) persistence sessions kept; a new "
                          "session beyond it gets no entry (counted, traced \"overflow\").",
                          UintegerValue(250000),
                          MakeUintegerAccessor(&CsVirtualServer::m_maxEntries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CookieVersion",
                          "Version of the inserted cookie: 0 (Expires) or 1 (Max-Age), "
                          "NetScaler's set lb parameter -cookieVersion.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CsVirtualServer::m_cookieVersion),
                          MakeUintegerChecker<uint8_t>(0, 1))
            .AddAttribute("HttpOnlyCookie",
                          "Write httponly on inserted persistence cookies (NetScaler's set lb "
                          "parameter -httpOnlyCookieFlag, default ENABLED).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CsVirtualServer::m_httpOnly),
                          MakeBooleanChecker())
            .AddAttribute("SourceIp",
                          "Source address of the connections to services (NetScaler's SNIP); "
                          "0.0.0.0: the node's first non-loopback IPv4 address.",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&CsVirtualServer::m_sourceIp),
                          MakeIpv4AddressChecker())
            .AddTraceSource("Decision",
                            "A request was decided: client, URL, LB vserver, service, how.",
                            MakeTraceSourceAccessor(&CsVirtualServer::m_decisionTrace),
                            "ns3::CsVirtualServer::DecisionTracedCallback")
            .AddTraceSource("Persistence",
                            "A persistence event: hit, miss, create, expire or overflow.",
                            MakeTraceSourceAccessor(&CsVirtualServer::m_persistenceTrace),
                            "ns3::CsVirtualServer::PersistenceTracedCallback");
    return tid;
}

CsVirtualServer::CsVirtualServer()
    : m_serviceType("HTTP"),
      m_port(80),
      m_timeout(2),
      m_backupTimeout(2),
      m_maxEntries(250000),
      m_cookieVersion(0),
      m_httpOnly(true),
      m_disposing(false),
      m_persistence(AdcPersistenceType::NONE),
      m_backup(AdcPersistenceType::NONE)
{
    m_engine = CreateObject<AdcProxyEngine>();
    m_engine->SetPolicy(this);
    m_source = CreateObject<AdcSourceAddressPolicy>();
    m_source->SetAttribute("Mode", EnumValue(AdcSourceAddressPolicy::MAPPED_IP));
    m_source->SetAttribute("UsePortRange", BooleanValue(false));
    m_vserver = CreateObject<AdcVirtualServer>();
    m_table = CreateObject<AdcPersistenceTable>();
    m_backupTable = CreateObject<AdcPersistenceTable>();
    for (const Ptr<AdcPersistenceTable>& t : {m_table, m_backupTable})
    {
        t->TraceConnectWithoutContext("Expired", MakeCallback(&CsVirtualServer::OnExpired, this));
        t->TraceConnectWithoutContext("Overflow", MakeCallback(&CsVirtualServer::OnOverflow, this));
    }
    m_random = CreateObject<UniformRandomVariable>();
}

CsVirtualServer::~CsVirtualServer() = default;

void
CsVirtualServer::DoDispose()
{
    m_disposing = true;
    StopApplication();
    m_engine->Dispose();
    m_engine = nullptr;
    m_relay = nullptr; // the node disposes it, as its application
    m_udp = nullptr;
    m_bridges.clear();
    m_source = nullptr;
    m_vserver->Dispose();
    m_vserver = nullptr;
    m_table = nullptr;
    m_backupTable = nullptr;
    m_random = nullptr;
    m_policies.clear();
    m_default = nullptr;
    m_targets.clear();
    m_targetIndex.clear();
    Application::DoDispose();
}

void
CsVirtualServer::Configure(Ptr<const AdcCsVserverConfig> config)
{
    m_name = config->GetName();
    m_serviceType = config->GetServiceType();
    if (config->GetPort() != 0)
    {
        m_port = config->GetPort();
    }
    m_persistenceName = AdcPersistenceTypeToString(config->GetPersistenceType());
    m_timeout = config->GetTimeoutMinutes();
    m_backupName = AdcPersistenceTypeToString(config->GetPersistenceBackup());
    m_backupTimeout = config->GetBackupTimeoutMinutes();
}

void
CsVirtualServer::BindPolicy(Ptr<CsPolicy> policy, Ptr<AdcVirtualServer> lbVserver)
{
    for (const Ptr<CsPolicy>& p : m_policies)
    {
        if (p->GetName() == policy->GetName())
        {
            throw AdcConfigError("CS vserver '" + m_name + "': policy '" + policy->GetName() +
                                 "' is bound already");
        }
        if (p->GetPriority() == policy->GetPriority())
        {
            throw AdcConfigError("CS vserver '" + m_name + "': priority " +
                                 std::to_string(policy->GetPriority()) + " of policy '" +
                                 policy->GetName() + "' is taken by policy '" + p->GetName() +
                                 "'; priorities are unique per CS vserver");
        }
    }
    if (CookieInsertConfigured())
    {
        CheckCookieName("LB vserver", lbVserver->GetName());
    }
    policy->SetRandom(m_random);
    m_vserver->BindVServer(lbVserver, policy);
    m_policies.push_back(policy);
    std::stable_sort(m_policies.begin(),
                     m_policies.end(),
                     [](const Ptr<CsPolicy>& a, const Ptr<CsPolicy>& b) {
                         return a->GetPriority() < b->GetPriority();
                     });
}

bool
CsVirtualServer::UnbindPolicy(const std::string& policyName)
{
    const auto it = std::find_if(m_policies.begin(), m_policies.end(), [&](const Ptr<CsPolicy>& p) {
        return p->GetName() == policyName;
    });
    if (it == m_policies.end())
    {
        return false;
    }
    m_policies.erase(it);
    return m_vserver->UnbindPolicy(policyName);
}

void
CsVirtualServer::SetDefaultLbVserver(Ptr<AdcVirtualServer> lbVserver)
{
    if (lbVserver && CookieInsertConfigured())
    {
        CheckCookieName("LB vserver", lbVserver->GetName());
    }
    if (m_default)
    {
        // Only the default binding goes: the same LB vserver may be bound by a policy too.
        m_vserver->UnbindDefault(m_default->GetName());
    }
    m_default = lbVserver;
    if (lbVserver)
    {
        m_vserver->BindVServer(lbVserver, nullptr);
    }
}

Ptr<AdcVirtualServer>
CsVirtualServer::GetDefaultLbVserver() const
{
    return m_default;
}

std::vector<Ptr<CsPolicy>>
CsVirtualServer::GetPolicies() const
{
    return m_policies;
}

Ptr<AdcVirtualServer>
CsVirtualServer::GetVirtualServer() const
{
    return m_vserver;
}

Ptr<AdcProxyEngine>
CsVirtualServer::GetEngine() const
{
    return m_engine;
}

Ptr<AdcTcpRelay>
CsVirtualServer::GetRelay() const
{
    return m_relay;
}

Ptr<AdcUdpRelay>
CsVirtualServer::GetUdpRelay() const
{
    return m_udp;
}

Ptr<AdcPersistenceTable>
CsVirtualServer::GetPersistenceTable() const
{
    return m_table;
}

Ptr<AdcPersistenceTable>
CsVirtualServer::GetBackupPersistenceTable() const
{
    return m_backupTable;
}

int64_t
CsVirtualServer::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

uint64_t
CsVirtualServer::GetRequests() const
{
    return m_requests;
}

uint64_t
CsVirtualServer::GetPersistenceHits() const
{
    return m_hits;
}

uint64_t
CsVirtualServer::GetPersistenceCreated() const
{
    return m_created;
}

uint64_t
CsVirtualServer::GetPersistenceOverflows() const
{
    return m_overflows;
}

uint64_t
CsVirtualServer::GetUnserved() const
{
    return m_unserved;
}

uint64_t
CsVirtualServer::GetRequestsTo(const std::string& lbVserver) const
{
    uint64_t n = 0;
    for (std::size_t t = 0; t < m_targets.size(); ++t)
    {
        n += m_targets[t].first->GetName() == lbVserver ? m_perTarget[t] : 0;
    }
    return n;
}

void
CsVirtualServer::CheckConfig()
{
    // The configuration object checks the support matrix (CS-07) and the timeouts, with the
    // messages `set cs vserver` gives.
    const std::string type = AdcText::ToUpper(m_serviceType);
    if (type != "HTTP" && type != "SSL" && type != "SSL_BRIDGE" && type != "TCP" &&
        type != "SSL_TCP" && type != "UDP")
    {
        throw AdcConfigError("CsVirtualServer '" + m_name + "': ServiceType '" + m_serviceType +
                             "' has no CS datapath in this model; allowed values are HTTP, SSL, "
                             "SSL_BRIDGE, SSL_TCP, TCP, UDP");
    }
    m_serviceType = type;
    Ptr<AdcCsVserverConfig> check = CreateObject<AdcCsVserverConfig>();
    check->Configure(m_name, type, AdcIpAddress(), m_port);
    check->SetPersistence(AdcPersistenceTypeFromString(m_persistenceName),
                          m_timeout,
                          AdcPersistenceTypeFromString(m_backupName),
                          m_backupTimeout);
    m_persistence = check->GetPersistenceType();
    m_backup = check->GetPersistenceBackup();
    if (m_persistence == AdcPersistenceType::COOKIEINSERT)
    {
        CheckCookieName("CS vserver", m_name);
        for (const Ptr<AdcVirtualServer>& lb : BoundLbVservers())
        {
            CheckCookieName("LB vserver", lb->GetName());
        }
    }
    for (const Ptr<AdcVirtualServer>& lb : BoundLbVservers())
    {
        // An LB vserver's own COOKIEINSERT names its cookie after it (NSC_<vid of LB>).
        if (lb->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
        {
            CheckCookieName("LB vserver (its own COOKIEINSERT)", lb->GetName());
        }
    }
}

bool
CsVirtualServer::CookieInsertConfigured() const
{
    return AdcText::ToUpper(m_persistenceName) == "COOKIEINSERT";
}

void
CsVirtualServer::CheckCookieName(const std::string& role, const std::string& name) const
{
    // A name the cookie cannot carry would throw at the first request, inside the proxy.
    const std::string problem = AdcNscCookie::VserverIdProblem(name);
    if (!problem.empty())
    {
        throw AdcConfigError("CsVirtualServer '" + m_name +
                             "': PersistenceType COOKIEINSERT writes the " + role +
                             " name into the NSC_ cookie name, but '" + name + "' " + problem);
    }
}

void
CsVirtualServer::StartApplication()
{
    const std::string who = "CsVirtualServer '" + m_name + "'";
    CheckConfig();
    m_started = true;
    m_table->SetAttribute("MaxEntries", UintegerValue(m_maxEntries));
    m_backupTable->SetAttribute("MaxEntries", UintegerValue(m_maxEntries));
    m_vserver->Configure(m_name, "HTTP", AdcIpAddress(), m_port);
    m_engine->SetAttribute("Tls", BooleanValue(m_serviceType == "SSL"));
    Ipv4Address source = m_sourceIp;
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    for (uint32_t i = 1; source == Ipv4Address::GetAny() && ipv4 && i < ipv4->GetNInterfaces(); ++i)
    {
        if (ipv4->GetNAddresses(i) > 0)
        {
            source = ipv4->GetAddress(i, 0).GetLocal();
        }
    }
    m_source->SetAttribute("MappedIp", Ipv4AddressValue(source));
    m_source->CheckConfig(who);
    if (m_serviceType == "SSL_BRIDGE" || m_serviceType == "TCP" || m_serviceType == "SSL_TCP")
    {
        StartBridge();
        return;
    }
    if (m_serviceType == "UDP")
    {
        StartUdp();
        return;
    }
    m_engine->SetAttribute("Name", StringValue(m_name));
    m_engine->SetAttribute("ServicePort", UintegerValue(m_port));
    m_engine->Start(GetNode());
}

void
CsVirtualServer::StopApplication()
{
    if (m_engine)
    {
        m_engine->Stop(m_disposing);
    }
}

std::string
CsVirtualServer::CookieName(const std::string& lbVserver) const
{
    return AdcNscCookie::EncodeName(m_name, lbVserver);
}

std::vector<Ptr<AdcVirtualServer>>
CsVirtualServer::BoundLbVservers() const
{
    std::vector<Ptr<AdcVirtualServer>> out;
    for (const AdcVirtualServer::VServerBinding& b : m_vserver->GetVServerBindings())
    {
        if (std::find(out.begin(), out.end(), b.vserver) == out.end())
        {
            out.push_back(b.vserver);
        }
    }
    return out;
}

uint32_t
CsVirtualServer::TargetOf(const AdcSelection& sel)
{
    const auto key = std::make_pair(PeekPointer(sel.vserver), PeekPointer(sel.service));
    const auto it = m_targetIndex.find(key);
    if (it != m_targetIndex.end())
    {
        return it->second;
    }
    const auto index = static_cast<uint32_t>(m_targets.size());
    m_targets.emplace_back(sel.vserver, sel.service);
    m_perTarget.push_back(0);
    m_targetIndex.emplace(key, index);
    return index;
}

AdcSelection
CsVirtualServer::Resume(const AdcLbContext& ctx,
                        Ptr<AdcVirtualServer> lb,
                        Ptr<AdcService> service,
                        bool& rechosen)
{
    rechosen = false;
    const std::vector<Ptr<AdcVirtualServer>> bound = BoundLbVservers();
    if (!lb || std::find(bound.begin(), bound.end(), lb) == bound.end() ||
        lb->GetState() != AdcVirtualServer::State::UP)
    {
        return AdcSelection{}; // the version itself is gone: the policies decide again
    }
    if (service)
    {
        AdcSelection sel = lb->SelectPersisted(ctx, service);
        if (sel.service)
        {
            return sel;
        }
    }
    // The service is disabled, DOWN, unbound or at MaxClient: the same LB vserver chooses,
    // as NetScaler does for a persistent service that is down ("the appliance uses the load
    // balancing methods to select a new service, and the new service becomes persistent").
    // Only its own services count: its backup vserver is not bound under this CS vserver.
    AdcSelection sel = lb->Select(ctx, Simulator::Now());
    if (!sel.service || sel.vserver != lb)
    {
        return AdcSelection{};
    }
    rechosen = true;
    return sel;
}

void
CsVirtualServer::LookupTable(const AdcLbContext& ctx,
                             Ptr<AdcPersistenceTable> table,
                             const AdcPersistenceKey& key,
                             Time timeout,
                             Found& found)
{
    const Time now = Simulator::Now();
    const std::optional<uint32_t> t = table->Lookup(key, now);
    if (!t)
    {
        TracePersistence("miss", key, -1);
        return;
    }
    const std::pair<Ptr<AdcVirtualServer>, Ptr<AdcService>> entry = m_targets.at(*t);
    found.sel = Resume(ctx, entry.first, entry.second, found.rechosen);
    if (!found.sel.service)
    {
        TracePersistence("miss", key, -1);
        return;
    }
    if (!found.rechosen)
    {
        if (m_retime)
        {
            table->Insert(key, *t, now, timeout); // `set cs vserver -timeout` since its insert
        }
        TracePersistence("hit", key, *t);
        return;
    }
    const uint32_t target = TargetOf(found.sel);
    table->Insert(key, target, now, timeout); // an update: a full table does not refuse it
    TracePersistence("update", key, target);
    found.how += ", service re-chosen";
}

AdcPersistenceKey
CsVirtualServer::TableKey(const AdcLbContext& ctx, const AdcProxyFront& front) const
{
    return m_persistence == AdcPersistenceType::SSLSESSION
               ? AdcPersistenceKey::FromSslSessionId(front.tlsSessionId)
               : AdcPersistenceKey::FromSourceIp(ctx.flow.src);
}

Ptr<AdcVirtualServer>
CsVirtualServer::LbOfCookie(const std::string& name) const
{
    if (name.compare(0, 4, "NSC_") != 0)
    {
        return nullptr;
    }
    for (const Ptr<AdcVirtualServer>& lb : BoundLbVservers())
    {
        if (CookieName(lb->GetName()) == name)
        {
            return lb;
        }
    }
    for (const auto& [lb, service] : m_targets)
    {
        if (CookieName(lb->GetName()) == name)
        {
            return lb;
        }
    }
    return nullptr;
}

CsVirtualServer::Found
CsVirtualServer::Lookup(const AdcLbContext& ctx,
                        const AdcProxyFront& front,
                        const AdcHttpCookies& cookies)
{
    Found found;
    const AdcPersistenceType type = m_persistence;
    if (type == AdcPersistenceType::SOURCEIP ||
        (type == AdcPersistenceType::SSLSESSION && !front.tlsSessionId.empty()))
    {
        found.how = "persistence " + AdcPersistenceTypeToString(type);
        LookupTable(ctx, m_table, TableKey(ctx, front), Minutes(m_timeout), found);
        return found;
    }
    if (type != AdcPersistenceType::COOKIEINSERT)
    {
        return found;
    }
    found.how = "persistence COOKIEINSERT";
    // Several NSC_ cookies of this CS vserver (a client moved by a fail-over that kept the old
    // one): the newest usable one. Citrix documents no order; RFC 6265 5.4 step 2 lists
    // cookies of equal path (ours are all Path=/) by creation time, oldest first, so walk the
    // header backwards. Of a repeated name only the first counts (AdcHttpCookies::Get).
    const std::vector<AdcHttpCookies::Pair>& pairs = cookies.GetPairs();
    for (std::size_t i = pairs.size(); i-- > 0;)
    {
        const AdcHttpCookies::Pair& p = pairs[i];
        const Ptr<AdcVirtualServer> lb = LbOfCookie(p.name);
        if (!lb || cookies.Get(p.name) != p.value)
        {
            continue;
        }
        const AdcPersistenceKey key = AdcPersistenceKey::FromCookie(p.value);
        const std::optional<AdcNscCookie::Service> named = AdcNscCookie::DecodeValue(p.value);
        Ptr<AdcService> service =
            named ? lb->FindBoundService(AdcIpAddress(named->ip), named->port) : nullptr;
        found.sel = Resume(ctx, lb, service, found.rechosen);
        if (found.sel.service)
        {
            found.fromCookie = true;
            found.cookieName = p.name;
            found.how += found.rechosen ? ", service re-chosen" : "";
            TracePersistence(found.rechosen ? "update" : "hit", key, TargetOf(found.sel));
            return found;
        }
        TracePersistence("miss", key, -1);
    }
    if (m_backup == AdcPersistenceType::SOURCEIP && !cookies.HasAnyCookie())
    {
        // CS-08: only a client that returned no cookie at all falls back to its address.
        found.how = "backup-persistence SOURCEIP";
        LookupTable(ctx,
                    m_backupTable,
                    AdcPersistenceKey::FromSourceIp(ctx.flow.src),
                    Minutes(m_backupTimeout),
                    found);
    }
    return found;
}

AdcProxyDecision
CsVirtualServer::Decide(const AdcProxyFront& front, const AdcHttpMessage& request)
{
    ++m_requests;
    const Time now = Simulator::Now();
    AdcLbContext ctx;
    ctx.flow = AdcFlowKey(AdcIpAddress(front.peerIp),
                          AdcIpAddress(front.localIp),
                          front.peerPort,
                          front.localPort,
                          AdcFlowKey::PROTO_TCP);
    ctx.url = request.GetTarget();
    ctx.request = &request;
    // Only COOKIEINSERT reads the request's cookies; only a connected sink needs the text.
    const AdcHttpCookies cookies =
        m_persistence == AdcPersistenceType::COOKIEINSERT || AnyLbCookieInsert()
            ? AdcHttpCookies::Parse(request)
            : AdcHttpCookies();
    const auto client = [&front]() { return AdcEndpointText(front.peerIp, front.peerPort); };
    const Found found = Lookup(ctx, front, cookies);
    AdcSelection sel = found.sel;
    std::string how = found.how;
    const bool persisted = static_cast<bool>(sel.service);
    if (!persisted)
    {
        sel = SelectAnew(ctx, cookies);
        how = sel.how;
    }
    if (!sel.service)
    {
        ++m_unserved;
        if (!m_decisionTrace.IsEmpty())
        {
            m_decisionTrace(client(), ctx.url, "", "", "none");
        }
        return AdcProxyDecision::Answer(503, "Service Unavailable", "cs: no LB vserver up");
    }
    m_hits += persisted ? 1 : 0;
    AdcProxyDecision d = AdcProxyDecision::Forward(sel.service->GetName(),
                                                   sel.service->GetAddress().GetIpv4(),
                                                   sel.service->GetPort(),
                                                   m_source,
                                                   front.peerIp);
    const uint32_t target = TargetOf(sel);
    ++m_perTarget[target];
    d.tag = target;
    sel.vserver->ConnectionOpened(sel.service);
    if (!persisted &&
        (m_persistence == AdcPersistenceType::SOURCEIP ||
         (m_persistence == AdcPersistenceType::SSLSESSION && !front.tlsSessionId.empty())))
    {
        const AdcPersistenceKey key = TableKey(ctx, front);
        if (m_table->Insert(key, target, now, Minutes(m_timeout)))
        {
            ++m_created;
            TracePersistence("create", key, target);
        }
    }
    else if (m_persistence == AdcPersistenceType::COOKIEINSERT)
    {
        const std::string name = CookieName(sel.vserver->GetName());
        const std::string value =
            AdcNscCookie::EncodeValue(sel.service->GetAddress().GetIpv4(), sel.service->GetPort());
        // Set-Cookie: on a new choice; when the entry's LB vserver chose another service (the
        // cookie must name it); and on every hit with a non-zero timeout, which Citrix's
        // "HTTP cookie persistence" page documents as "an inactivity period for the session":
        // the re-sent expiry (now + timeout) keeps an active session alive. When the appliance
        // re-sends it is not documented; every such response is this model's simplification.
        // A backup-persistence hit (a client that keeps no cookie) gets none, as before.
        if (!persisted || found.rechosen || (found.fromCookie && m_timeout != 0))
        {
            d.responseFields.emplace_back(
                "Set-Cookie",
                BuildNscSetCookie(name, value, m_cookieVersion, Minutes(m_timeout), now, m_httpOnly));
        }
        if (!persisted)
        {
            ++m_created;
            TracePersistence("create", AdcPersistenceKey::FromCookie(value), target);
        }
        if (!persisted && m_backup == AdcPersistenceType::SOURCEIP && !cookies.HasAnyCookie())
        {
            const AdcPersistenceKey key = AdcPersistenceKey::FromSourceIp(ctx.flow.src);
            if (m_backupTable->Insert(key, target, now, Minutes(m_backupTimeout)))
            {
                TracePersistence("create", key, target);
            }
        }
        // The client's other NSC_ cookies of this CS vserver are stale (it was moved to
        // another LB vserver, e.g. by a fail-over): Citrix documents nothing for them, so they
        // are deleted in this response as RFC 6265 3.1 lets a server delete a cookie (an
        // expiry in the past); the lookup prefers the newest cookie as well, for a client that
        // ignores the deletion.
        for (const AdcHttpCookies::Pair& p : cookies.GetPairs())
        {
            const bool first = cookies.Get(p.name) == p.value;
            if (first && p.name != name && LbOfCookie(p.name))
            {
                d.responseFields.emplace_back("Set-Cookie",
                                              BuildNscExpired(p.name, m_cookieVersion, m_httpOnly));
            }
        }
    }
    AddLbCookie(d, sel, cookies);
    if (!m_decisionTrace.IsEmpty())
    {
        m_decisionTrace(client(),
                        ctx.url,
                        sel.vserver->GetName(),
                        sel.service->GetName(),
                        persisted ? how : sel.how);
    }
    return d;
}

void
CsVirtualServer::Released(const AdcProxyDecision& decision)
{
    if (decision.tag >= 0 && static_cast<std::size_t>(decision.tag) < m_targets.size())
    {
        const auto& [lb, service] = m_targets[decision.tag];
        lb->ConnectionClosed(service);
    }
}

void
CsVirtualServer::OnExpired(const AdcPersistenceKey& key, uint32_t target)
{
    TracePersistence("expire", key, target);
}

void
CsVirtualServer::OnOverflow(const AdcPersistenceKey& key,
                            AdcPersistenceTable::OverflowPolicy /* policy */)
{
    ++m_overflows;
    TracePersistence("overflow", key, -1);
}

void
CsVirtualServer::TracePersistence(const std::string& event,
                                  const AdcPersistenceKey& key,
                                  int64_t target)
{
    if (m_persistenceTrace.IsEmpty())
    {
        return;
    }
    std::string lb;
    std::string service;
    if (target >= 0 && static_cast<std::size_t>(target) < m_targets.size())
    {
        lb = m_targets[target].first->GetName();
        service = m_targets[target].second->GetName();
    }
    m_persistenceTrace(event, key.ToString(), lb, service);
}

} // namespace ns3
