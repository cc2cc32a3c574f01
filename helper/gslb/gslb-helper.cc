/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gslb-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-lb-methods.h"
#include "ns3/gslb-ldns-prober.h"
#include "ns3/gslb-mep-agent.h"
#include "ns3/gslb-rtt-database.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbHelper");

NS_OBJECT_ENSURE_REGISTERED(GslbSiteApps);

TypeId
GslbSiteApps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbSiteApps")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddAttribute(
                "ToleranceSemantics",
                "NETSCALER: set gslb parameter -rttTolerance gates which RTT changes are stored "
                "and sent over MEP, and the GSLB vserver's -tolerance is a round-robin window "
                "(NetScaler's NITRO reference); SEED: the seed's wording, the vserver's "
                "-tolerance (default 5 ms) is the gate and the lowest RTT wins.",
                EnumValue(GslbSiteApps::NETSCALER),
                MakeEnumAccessor(&GslbSiteApps::m_semantics),
                MakeEnumChecker(GslbSiteApps::NETSCALER, "NETSCALER", GslbSiteApps::SEED, "SEED"))
            .AddAttribute(
                "AnnounceLdns",
                "true: as NetScaler, an LDNS one site sees is announced to the others over MEP "
                "(its first RTT record), every site probes it, and the RTTs of the LDNS that "
                "keep querying a site are sent again every third of -ldnsEntryTimeout to keep "
                "them alive everywhere; false: a site probes only the LDNS that query it.",
                BooleanValue(true),
                MakeBooleanAccessor(&GslbSiteApps::m_announce),
                MakeBooleanChecker());
    return tid;
}

GslbSiteApps::GslbSiteApps() = default;

GslbSiteApps::~GslbSiteApps() = default;

uint32_t
GslbSiteApps::GetSite() const
{
    return m_site;
}

const std::vector<std::string>&
GslbSiteApps::GetSiteNames() const
{
    return m_siteNames;
}

const std::vector<AdcIpAddress>&
GslbSiteApps::GetSiteIps() const
{
    return m_siteIps;
}

const AdcConfigStore&
GslbSiteApps::GetStore() const
{
    return m_reader->GetStore();
}

const std::string&
GslbSiteApps::GetFileName() const
{
    return m_file;
}

std::vector<Ptr<GslbVserverConfig>>
GslbSiteApps::GetVservers() const
{
    return GetStore().GetAll<GslbVserverConfig>(AdcNetScalerGslbCommands::GSLB_VSERVER);
}

Ptr<GslbRttDatabase>
GslbSiteApps::GetDatabase() const
{
    return m_db;
}

Ptr<GslbLdnsProber>
GslbSiteApps::GetProber() const
{
    return m_prober;
}

Ptr<GslbMepAgent>
GslbSiteApps::GetMepAgent() const
{
    return m_mep;
}

Ptr<GslbAdns>
GslbSiteApps::GetAdns() const
{
    return m_adns;
}

Ptr<GslbStaticProximityLb>
GslbSiteApps::GetStaticProximity(const std::string& vserver) const
{
    for (const Ptr<GslbVserverConfig>& v : GetVservers())
    {
        if (v->GetName() == vserver)
        {
            return DynamicCast<GslbStaticProximityLb>(v->GetVirtualServer()->GetLbMethod());
        }
    }
    return nullptr;
}

uint32_t
GslbSiteApps::GetToleranceMs() const
{
    return m_toleranceMs;
}

GslbSiteApps::ToleranceSemantics
GslbSiteApps::GetToleranceSemantics() const
{
    return m_semantics;
}

bool
GslbSiteApps::GetAnnounceLdns() const
{
    return m_announce;
}

int32_t
GslbSiteApps::GetSiteOfService(const std::string& name) const
{
    for (std::size_t i = 0; i < m_services.size(); ++i)
    {
        if (m_services[i]->GetName() == name)
        {
            return m_serviceSite[i];
        }
    }
    return -1;
}

void
GslbSiteApps::DoDispose()
{
    m_db = nullptr;
    m_prober = nullptr;
    m_mep = nullptr;
    m_adns = nullptr;
    m_services.clear();
    m_reader.reset();
    Object::DoDispose();
}

void
GslbSiteApps::Install(Ptr<Node> node)
{
    using G = AdcNetScalerGslbCommands;
    const AdcConfigStore& store = m_reader->GetStore();
    G::Validate(store);
    GslbRegisterLbMethods();

    // Sites, in `add gslb site` order: the index every site gives them.
    const std::vector<Ptr<GslbSiteConfig>> sites = store.GetAll<GslbSiteConfig>(G::GSLB_SITE);
    Ptr<GslbSiteConfig> local = G::GetLocalSite(store);
    for (uint32_t i = 0; i < sites.size(); ++i)
    {
        m_siteNames.push_back(sites[i]->GetName());
        m_siteIps.push_back(sites[i]->GetSiteIp());
        if (sites[i] == local)
        {
            m_site = i;
        }
    }
    auto siteIndex = [this](const std::string& name) {
        auto it = std::find(m_siteNames.begin(), m_siteNames.end(), name);
        return it == m_siteNames.end() ? -1 : static_cast<int32_t>(it - m_siteNames.begin());
    };
    m_services = store.GetAll<GslbServiceConfig>(G::GSLB_SERVICE);
    for (const Ptr<GslbServiceConfig>& s : m_services)
    {
        m_serviceSite.push_back(siteIndex(s->GetSiteName()));
    }
    // Monitors bound to GSLB services (bind gslb service -monitorName) run on this appliance.
    std::vector<AdcHealthMonitor*> installed;
    for (const Ptr<GslbServiceConfig>& s : m_services)
    {
        for (const Ptr<AdcHealthMonitor>& m : s->GetService()->GetMonitors())
        {
            if (std::find(installed.begin(), installed.end(), PeekPointer(m)) == installed.end())
            {
                installed.push_back(PeekPointer(m));
                node->AddApplication(m);
            }
        }
    }
    Ptr<GslbParameterConfig> params = G::GetParameter(store);
    const std::vector<Ptr<GslbVserverConfig>> vservers = GetVservers();

    // The store-and-send gate. NETSCALER: `set gslb parameter -rttTolerance` (NITRO reference,
    // setgslbparameter_rtttolerance). SEED: the seed's `set gslb vserver <name> -lbMethod RTT
    // -tolerance <ms>` ("the default tolerance factor is 5 ms"), one per site's database.
    bool usesRtt = false;
    std::string first; // the first RTT vserver
    const bool seed = m_semantics == SEED;
    m_toleranceMs = params->GetRttTolerance();
    auto seedGate = [](const Ptr<GslbVserverConfig>& v) {
        return v->IsToleranceSet() ? v->GetToleranceMs()
                                   : GslbVserverConfig::SEED_DEFAULT_TOLERANCE_MS;
    };
    for (const Ptr<GslbVserverConfig>& v : vservers)
    {
        if (v->GetLbMethod() == "RTT")
        {
            if (seed && usesRtt && seedGate(v) != m_toleranceMs)
            {
                const AdcConfigOrigin other = store.GetOrigin(G::GSLB_VSERVER, first, "-tolerance");
                AdcConfigFileError::Fail(
                    store.GetOrigin(G::GSLB_VSERVER, v->GetName(), "-tolerance"),
                    "gslb vserver " + v->GetName() + ": -tolerance differs from gslb vserver " +
                        first + "'s (" + other.ToString() +
                        "): the site keeps one RTT database, so one tolerance",
                    std::to_string(seedGate(v)),
                    {std::to_string(m_toleranceMs)});
            }
            usesRtt = true;
            first = first.empty() ? v->GetName() : first;
            m_toleranceMs = seed ? seedGate(v) : m_toleranceMs;
        }
        usesRtt = usesRtt || (v->GetLbMethod() == "STATICPROXIMITY" &&
                              v->GetBackupLbMethod() == "RTT"); // probes for the backup
    }
    m_db = CreateObject<GslbRttDatabase>();
    m_db->SetSites(m_siteNames, m_site);
    m_db->SetAttribute("Tolerance", TimeValue(MilliSeconds(m_toleranceMs)));
    m_db->SetAttribute("EntryTimeout", TimeValue(Seconds(params->GetLdnsEntryTimeout())));

    // The ADNS answers for every bound domain; the GSLB methods read the database.
    m_adns = CreateObject<GslbAdns>();
    for (const Ptr<GslbVserverConfig>& v : vservers)
    {
        Ptr<AdcVirtualServer> vs;
        // A method the configuration names but this program does not link (GetVirtualServer).
        AdcConfigFileError::At(store.GetOrigin(G::GSLB_VSERVER, v->GetName(), "-lbMethod"),
                               [&] { vs = v->GetVirtualServer(); });
        // A GSLB method and its backup (-backupLBMethod) are configured alike.
        auto configure = [&](Ptr<AdcLbMethod> method) {
            if (Ptr<GslbRttLb> rtt = DynamicCast<GslbRttLb>(method))
            {
                // NETSCALER: the vserver's -tolerance is its selection window (NITRO
                // reference, setgslbvserver_tolerance); SEED: the lowest RTT, no window.
                rtt->SetAttribute("RoundRobinWithinTolerance", BooleanValue(!seed));
                rtt->SetAttribute("Tolerance",
                                  TimeValue(MilliSeconds(seed ? 0 : v->GetToleranceMs())));
                rtt->SetDatabase(m_db);
                for (const Ptr<GslbServiceConfig>& s : v->GetServices())
                {
                    rtt->SetBackendSite(s->GetName(),
                                        static_cast<uint32_t>(siteIndex(s->GetSiteName())));
                }
            }
            if (Ptr<GslbStaticProximityLb> sp = DynamicCast<GslbStaticProximityLb>(method))
            {
                for (const Ptr<GslbServiceConfig>& s : v->GetServices())
                {
                    sp->SetBackendRegion(s->GetName(), s->GetSiteName());
                }
            }
        };
        configure(vs->GetLbMethod());
        if (Ptr<GslbLdnsLb> ldnsLb = DynamicCast<GslbLdnsLb>(vs->GetLbMethod()))
        {
            AdcConfigFileError::At(
                store.GetOrigin(G::GSLB_VSERVER, v->GetName(), "-backupLBMethod"),
                [&] { ldnsLb->SetBackupMethod(v->GetBackupLbMethod()); });
            configure(ldnsLb->GetBackupMethod());
        }
        m_adns->AddVserver(v);
    }
    m_adns->AddDnsRecords(store); // add dns soaRec/nsRec/cnameRec: the site's own zones
    m_adns->SetLdnsCallback(MakeCallback(&GslbSiteApps::OnLdns, this));
    node->AddApplication(m_adns);

    // The LDNS prober, only when a vserver uses RTT (NetScaler probes LDNS for RTT alone).
    if (usesRtt)
    {
        m_prober = CreateObject<GslbLdnsProber>();
        m_prober->SetProbeOrder(GslbLdnsProber::ParseProbeOrder(params->GetProbeOrder()));
        m_prober->SetAttribute("EntryTimeout", TimeValue(Seconds(params->GetLdnsEntryTimeout())));
        for (const std::string& name : G::GetBuiltinMonitors())
        {
            Ptr<AdcHealthMonitor> from =
                store.Get<AdcHealthMonitor>(AdcNetScalerCommands::LB_MONITOR, name);
            Ptr<AdcHealthMonitor> to = m_prober->GetMonitor(name);
            if (!from || !to)
            {
                continue;
            }
            for (const char* attribute : {"Interval", "ResponseTimeout", "DownTime"})
            {
                TimeValue t;
                from->GetAttribute(attribute, t);
                to->SetAttribute(attribute, t);
            }
            if (name != "ldns-ping")
            {
                UintegerValue port;
                from->GetAttribute("DestinationPort", port);
                to->SetAttribute("DestinationPort", port);
            }
        }
        m_prober->SetRttCallback(MakeCallback(&GslbSiteApps::OnRtt, this));
        node->AddApplication(m_prober);
    }

    // MEP with every other site, from the site IP.
    m_mep = CreateObject<GslbMepAgent>();
    m_mep->SetDatabase(m_db);
    m_mep->SetAttribute("KeepAliveTimeout", TimeValue(Seconds(params->GetMepKeepAliveTimeout())));
    if (m_siteIps[m_site].IsV4())
    {
        m_mep->SetLocalAddress(m_siteIps[m_site].GetIpv4());
    }
    for (uint32_t i = 0; i < m_siteIps.size(); ++i)
    {
        if (i != m_site && m_siteIps[i].IsV4())
        {
            m_mep->AddPeer(i, m_siteIps[i].GetIpv4());
        }
    }
    m_mep->SetLocalServicesCallback(MakeCallback(&GslbSiteApps::LocalServices, this));
    m_mep->SetSiteMetricCallback(MakeCallback(&GslbSiteApps::OnSiteMetric, this));
    m_mep->SetPeerStateCallback(MakeCallback(&GslbSiteApps::OnPeerState, this));
    m_mep->SetRemoteRttCallback(MakeCallback(&GslbSiteApps::OnRemoteRtt, this));
    // The refresh keeps an LDNS alive at the sites it does not query: three rounds per entry
    // timeout, so that one lost or late round does not let it expire.
    m_mep->SetAttribute(
        "LdnsRefreshInterval",
        TimeValue(m_announce ? Seconds(params->GetLdnsEntryTimeout()) / 3 : Time(0)));
    node->AddApplication(m_mep);
}

void
GslbSiteApps::OnLdns(const AdcIpAddress& ldns)
{
    m_db->Touch(ldns);
    if (m_prober)
    {
        m_prober->AddLdns(ldns);
    }
    if (m_announce)
    {
        m_mep->NoteQuery(ldns);
    }
}

void
GslbSiteApps::OnRemoteRtt(uint32_t /* site */, const AdcIpAddress& ldns, Time /* rtt */)
{
    // NetScaler: "First resolution, the LDNS IP is communicated to the other sites to return a
    // value using one of the available probes"; a record from a peer also says the LDNS is
    // still in use, which keeps it probed here.
    if (m_announce && m_prober)
    {
        m_prober->AddLdns(ldns);
    }
}

void
GslbSiteApps::OnRtt(const AdcIpAddress& ldns, Time rtt)
{
    if (m_db->UpdateLocal(ldns, rtt))
    {
        m_mep->SendRtt(ldns, rtt);
    }
}

std::vector<AdcMepSiteMetric>
GslbSiteApps::LocalServices()
{
    std::vector<AdcMepSiteMetric> out;
    for (std::size_t i = 0; i < m_services.size(); ++i)
    {
        Ptr<AdcService> s = m_services[i]->GetService();
        if (m_serviceSite[i] != static_cast<int32_t>(m_site) || !s->GetAddress().IsV4())
        {
            continue;
        }
        AdcMepSiteMetric r;
        r.state = s->IsUp() ? AdcMepSiteMetric::kStateUp : AdcMepSiteMetric::kStateDown;
        // v2.6 records carry the effective state ("the ability of the corresponding virtual
        // server to serve traffic", NITRO gslbvserver considereffectivestate): the model has
        // no LB vserver behind a GSLB service, so it is the service's own state.
        r.effectiveState = static_cast<uint8_t>(r.state);
        r.ip = s->GetAddress().GetIpv4();
        r.port = s->GetPort();
        r.serviceType = AdcMepSiteMetric::ServiceTypeCode(m_services[i]->GetServiceType());
        out.push_back(r);
    }
    return out;
}

void
GslbSiteApps::OnSiteMetric(uint32_t site, const std::vector<AdcMepSiteMetric>& records)
{
    for (std::size_t i = 0; i < m_services.size(); ++i)
    {
        if (m_serviceSite[i] != static_cast<int32_t>(site))
        {
            continue;
        }
        Ptr<AdcService> s = m_services[i]->GetService();
        for (const AdcMepSiteMetric& r : records)
        {
            if (s->GetAddress().IsV4() && r.ip == s->GetAddress().GetIpv4() &&
                r.port == s->GetPort())
            {
                s->SetExternalHealth(r.state == AdcMepSiteMetric::kStateUp
                                         ? AdcService::State::UP
                                         : AdcService::State::DOWN);
            }
        }
    }
}

void
GslbSiteApps::OnPeerState(uint32_t site, bool up)
{
    if (up)
    {
        return; // its SITE METRIC UPDATE says which services are up
    }
    for (std::size_t i = 0; i < m_services.size(); ++i)
    {
        if (m_serviceSite[i] == static_cast<int32_t>(site))
        {
            m_services[i]->GetService()->SetExternalHealth(AdcService::State::DOWN);
        }
    }
}

void
GslbHelper::SetToleranceSemantics(GslbSiteApps::ToleranceSemantics semantics)
{
    m_semanticsSet = true;
    m_semantics = semantics;
}

Ptr<GslbSiteApps>
GslbHelper::Create() const
{
    Ptr<GslbSiteApps> apps = CreateObject<GslbSiteApps>();
    if (m_semanticsSet)
    {
        apps->SetAttribute("ToleranceSemantics", EnumValue(m_semantics));
    }
    return apps;
}

Ptr<GslbSiteApps>
GslbHelper::InstallFromFile(Ptr<Node> node, const std::string& path) const
{
    Ptr<GslbSiteApps> apps = Create();
    apps->m_reader = std::make_unique<AdcConfigReader>(AdcNetScalerGslbCommands::GetLanguage());
    AdcNetScalerGslbCommands::ReadFile(*apps->m_reader, path);
    apps->m_file = path;
    apps->Install(node);
    return apps;
}

Ptr<GslbSiteApps>
GslbHelper::InstallFromFile(Ptr<Node> node,
                            const std::string& path,
                            const std::string& commands,
                            const std::string& source) const
{
    Ptr<GslbSiteApps> apps = Create();
    apps->m_reader = std::make_unique<AdcConfigReader>(AdcNetScalerGslbCommands::GetLanguage());
    apps->m_reader->ReadFile(path);
    apps->m_reader->ReadCommands(commands, source);
    apps->m_file = path;
    apps->Install(node);
    return apps;
}

Ptr<GslbSiteApps>
GslbHelper::InstallFromText(Ptr<Node> node, const std::string& text, const std::string& name) const
{
    Ptr<GslbSiteApps> apps = Create();
    apps->m_reader = std::make_unique<AdcConfigReader>(AdcNetScalerGslbCommands::GetLanguage());
    apps->m_reader->ReadString(text, name);
    apps->m_file = name;
    apps->Install(node);
    return apps;
}

std::vector<std::string>
GslbHelper::CheckConsistency(const std::vector<Ptr<GslbSiteApps>>& sites)
{
    std::vector<const AdcConfigStore*> stores;
    std::vector<std::string> names;
    for (const Ptr<GslbSiteApps>& s : sites)
    {
        stores.push_back(&s->GetStore());
        names.push_back(s->GetFileName());
    }
    return AdcNetScalerGslbCommands::CheckDomainConsistency(stores, names);
}

} // namespace ns3
