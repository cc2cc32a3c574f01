/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every trace source of the module, connected by name with a sink whose signature is exactly
 * the typedef its TypeId cites. ns-3 itself gets this wrong in places (a cited typedef with the
 * wrong arity, or one that does not exist); here a mismatch fails the test:
 *  - the TypeId's recorded callback name must be the typedef this table names, and
 *  - connecting a sink built from that typedef must succeed (ns-3 aborts with "Incompatible
 *    types" when the signature differs, which fails the test too), and
 *  - every trace source declared by a TypeId of this module must be in the table, so a new
 *    source cannot be added without being checked.
 */

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-connection-table.h"
#include "ns3/adc-datapath.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-dns-server.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-proxy-engine.h"
#include "ns3/adc-service-group.h"
#include "ns3/adc-service.h"
#include "ns3/adc-source-address-policy.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/adc-udp-relay.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/adc-web-user.h"
#include "ns3/core-module.h"
#include "ns3/crd-cache-server.h"
#include "ns3/crd-cache-store.h"
#include "ns3/crd-orphan-reset.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/cs-policy.h"
#include "ns3/cs-virtual-server.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-ldns-prober.h"
#include "ns3/gslb-mep-agent.h"
#include "ns3/gslb-rtt-database.h"
#include "ns3/ilb-appliance.h"
#include "ns3/network-module.h"
#include "ns3/slb-host-agent.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"

#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A sink with exactly the signature of the function-pointer typedef T.
template <typename T>
struct SinkOf;

template <typename... Args>
struct SinkOf<void (*)(Args...)>
{
    static void Fn(Args...)
    {
    }
};

struct TraceCase
{
    std::string owner;    //!< TypeId declaring the source
    std::string create;   //!< concrete TypeId to instantiate (owner may be abstract)
    std::string source;   //!< trace source name
    std::string typedef_; //!< the typedef the TypeId must cite
    std::function<bool(Ptr<Object>)> connect; //!< connects a sink of that typedef
};

#define ADC_TRACE(Owner, Create, Source, Scope, Typedef)                                           \
    TraceCase                                                                                      \
    {                                                                                              \
        "ns3::" #Owner, "ns3::" #Create, Source, "ns3::" #Scope "::" #Typedef, [](Ptr<Object> o) { \
            return o->TraceConnectWithoutContext(Source,                                           \
                                                 MakeCallback(&SinkOf<Scope::Typedef>::Fn));       \
        }                                                                                          \
    }

std::vector<TraceCase>
AllCases()
{
    return {
        ADC_TRACE(AdcLbMethod, AdcRoundRobinLb, "Selection", AdcLbMethod, SelectionTracedCallback),
        ADC_TRACE(AdcPortAllocator,
                  AdcPortAllocator,
                  "Allocated",
                  AdcPortAllocator,
                  PortTracedCallback),
        ADC_TRACE(AdcPortAllocator,
                  AdcPortAllocator,
                  "Released",
                  AdcPortAllocator,
                  PortTracedCallback),
        ADC_TRACE(AdcPortAllocator,
                  AdcPortAllocator,
                  "Exhausted",
                  AdcPortAllocator,
                  ExhaustedTracedCallback),
        ADC_TRACE(AdcPersistenceTable,
                  AdcPersistenceTable,
                  "Overflow",
                  AdcPersistenceTable,
                  OverflowTracedCallback),
        ADC_TRACE(AdcPersistenceTable,
                  AdcPersistenceTable,
                  "Expired",
                  AdcPersistenceTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcPersistenceTable,
                  AdcPersistenceTable,
                  "Evicted",
                  AdcPersistenceTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcPersistenceTable,
                  AdcPersistenceTable,
                  "Hit",
                  AdcPersistenceTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcPersistenceTable,
                  AdcPersistenceTable,
                  "Miss",
                  AdcPersistenceTable,
                  KeyTracedCallback),
        ADC_TRACE(AdcConnectionTable,
                  AdcConnectionTable,
                  "EntryCreated",
                  AdcConnectionTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcConnectionTable,
                  AdcConnectionTable,
                  "EntryExpired",
                  AdcConnectionTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcConnectionTable,
                  AdcConnectionTable,
                  "EntryRemoved",
                  AdcConnectionTable,
                  EntryTracedCallback),
        ADC_TRACE(AdcConnectionTable,
                  AdcConnectionTable,
                  "Overflow",
                  AdcConnectionTable,
                  KeyTracedCallback),
        ADC_TRACE(AdcConnectionTable,
                  AdcConnectionTable,
                  "Collision",
                  AdcConnectionTable,
                  CollisionTracedCallback),
        ADC_TRACE(AdcHealthMonitor,
                  AdcHealthMonitor,
                  "StateChange",
                  AdcHealthMonitor,
                  StateChangeTracedCallback),
        ADC_TRACE(AdcHealthMonitor,
                  AdcHealthMonitor,
                  "Probe",
                  AdcHealthMonitor,
                  ProbeTracedCallback),
        ADC_TRACE(AdcHealthMonitor, AdcHealthMonitor, "Drop", AdcHealthMonitor, DropTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "RequestSent",
                  AdcHttpClient,
                  RequestTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "RequestDone",
                  AdcHttpClient,
                  RequestTracedCallback),
        ADC_TRACE(AdcHttpClient, AdcHttpClient, "Rx", Packet, AddressTracedCallback),
        ADC_TRACE(AdcHttpClient, AdcHttpClient, "Response", AdcHttpClient, ResponseTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "CookieSet",
                  AdcHttpClient,
                  CookieSetTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "TransactionBroken",
                  AdcHttpClient,
                  TransactionBrokenTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "TransactionDone",
                  AdcHttpClient,
                  TransactionDoneTracedCallback),
        ADC_TRACE(CsVirtualServer,
                  CsVirtualServer,
                  "Decision",
                  CsVirtualServer,
                  DecisionTracedCallback),
        ADC_TRACE(CsVirtualServer,
                  CsVirtualServer,
                  "Persistence",
                  CsVirtualServer,
                  PersistenceTracedCallback),
        ADC_TRACE(CsPolicy, CsPolicy, "Evaluation", CsPolicy, EvaluationTracedCallback),
        ADC_TRACE(AdcHttpClient,
                  AdcHttpClient,
                  "TlsHandshake",
                  AdcHttpClient,
                  TlsHandshakeTracedCallback),
        ADC_TRACE(AdcHttpServer, AdcHttpServer, "Request", AdcHttpServer, RequestTracedCallback),
        ADC_TRACE(AdcHttpServer,
                  AdcHttpServer,
                  "AccessLog",
                  AdcHttpServer,
                  AccessLogTracedCallback),
        ADC_TRACE(AdcHttpServer, AdcHttpServer, "Tx", Packet, TracedCallback),
        ADC_TRACE(AdcHttpServer, AdcHttpServer, "Drop", AdcHttpServer, DropTracedCallback),
        ADC_TRACE(AdcDnsServer, AdcDnsServer, "Query", AdcDnsServer, QueryTracedCallback),
        ADC_TRACE(AdcDnsServer, AdcDnsServer, "Response", AdcDnsServer, ResponseTracedCallback),
        ADC_TRACE(AdcDnsServer, AdcDnsServer, "Drop", AdcDnsServer, DropTracedCallback),
        ADC_TRACE(AdcDnsServer, AdcDnsServer, "Malformed", AdcDnsServer, MalformedTracedCallback),
        ADC_TRACE(GslbAdns, GslbAdns, "Decision", GslbAdns, DecisionTracedCallback),
        ADC_TRACE(GslbLdnsProber, GslbLdnsProber, "Probe", GslbLdnsProber, ProbeTracedCallback),
        ADC_TRACE(GslbLdnsProber,
                  GslbLdnsProber,
                  "Fallback",
                  GslbLdnsProber,
                  FallbackTracedCallback),
        ADC_TRACE(GslbLdnsProber, GslbLdnsProber, "Expire", GslbLdnsProber, ExpireTracedCallback),
        ADC_TRACE(AdcLdnsServer, AdcLdnsServer, "Query", AdcLdnsServer, QueryTracedCallback),
        ADC_TRACE(AdcLdnsServer, AdcLdnsServer, "Forward", AdcLdnsServer, ForwardTracedCallback),
        ADC_TRACE(AdcLdnsServer, AdcLdnsServer, "Answer", AdcLdnsServer, AnswerTracedCallback),
        ADC_TRACE(AdcLdnsServer, AdcLdnsServer, "Drop", AdcLdnsServer, DropTracedCallback),
        ADC_TRACE(AdcWebUser, AdcWebUser, "Visit", AdcWebUser, VisitTracedCallback),
        ADC_TRACE(GslbRttDatabase,
                  GslbRttDatabase,
                  "Update",
                  GslbRttDatabase,
                  UpdateTracedCallback),
        ADC_TRACE(GslbRttDatabase,
                  GslbRttDatabase,
                  "Expire",
                  GslbRttDatabase,
                  ExpireTracedCallback),
        ADC_TRACE(GslbMepAgent, GslbMepAgent, "Message", GslbMepAgent, MessageTracedCallback),
        ADC_TRACE(GslbMepAgent, GslbMepAgent, "PeerState", GslbMepAgent, PeerStateTracedCallback),
        ADC_TRACE(GslbMepAgent, GslbMepAgent, "Drop", GslbMepAgent, DropTracedCallback),
        ADC_TRACE(AdcDnsResolver,
                  AdcDnsResolver,
                  "QuerySent",
                  AdcDnsResolver,
                  QuerySentTracedCallback),
        ADC_TRACE(AdcDnsResolver, AdcDnsResolver, "Answer", AdcDnsResolver, AnswerTracedCallback),
        ADC_TRACE(AdcDnsResolver, AdcDnsResolver, "Failure", AdcDnsResolver, FailureTracedCallback),
        ADC_TRACE(AdcDnsResolver, AdcDnsResolver, "Drop", AdcDnsResolver, DropTracedCallback),
        ADC_TRACE(AdcHttpServer,
                  AdcHttpServer,
                  "Connection",
                  AdcHttpServer,
                  ConnectionTracedCallback),
        ADC_TRACE(AdcThroughputSampler,
                  AdcThroughputSampler,
                  "Sample",
                  AdcThroughputSampler,
                  SampleTracedCallback),
        ADC_TRACE(CrdOrphanReset, CrdOrphanReset, "Reset", CrdOrphanReset, ResetTracedCallback),
        ADC_TRACE(CrdCacheStore, CrdCacheStore, "Hit", CrdCacheStore, KeyTracedCallback),
        ADC_TRACE(CrdCacheStore, CrdCacheStore, "Miss", CrdCacheStore, KeyTracedCallback),
        ADC_TRACE(CrdCacheStore, CrdCacheStore, "Evict", CrdCacheStore, EvictTracedCallback),
        ADC_TRACE(CrdCacheStore, CrdCacheStore, "Reject", CrdCacheStore, RejectTracedCallback),
        ADC_TRACE(AdcHttpServer, AdcHttpServer, "Response", AdcHttpServer, ResponseTracedCallback),
        ADC_TRACE(AdcHttpServer, AdcHttpServer, "Framing", AdcHttpServer, FramingTracedCallback),
        ADC_TRACE(CrdCacheServer,
                  CrdCacheServer,
                  "AccessLog",
                  CrdCacheServer,
                  AccessLogTracedCallback),
        ADC_TRACE(CrdCacheServer, CrdCacheServer, "Hit", CrdCacheServer, LookupTracedCallback),
        ADC_TRACE(CrdCacheServer, CrdCacheServer, "Miss", CrdCacheServer, LookupTracedCallback),
        ADC_TRACE(CrdCacheServer,
                  CrdCacheServer,
                  "OriginFetch",
                  CrdCacheServer,
                  OriginFetchTracedCallback),
        ADC_TRACE(CrdCacheServer, CrdCacheServer, "Drop", CrdCacheServer, DropTracedCallback),
        ADC_TRACE(AdcPolicyRouting,
                  AdcPolicyRouting,
                  "RuleMatch",
                  AdcPolicyRouting,
                  RuleMatchTracedCallback),
        ADC_TRACE(AdcDatapath, AdcPolicyRouting, "Drop", AdcDatapath, DropTracedCallback),
        ADC_TRACE(AdcPathTracer, AdcPathTracer, "Leg", AdcPathTracer, LegTracedCallback),
        ADC_TRACE(AdcPathTracer, AdcPathTracer, "Drop", AdcPathTracer, DropTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "Decision",
                  CrdLowerTierAppliance,
                  DecisionTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "Bypass",
                  CrdLowerTierAppliance,
                  BypassTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "Intercept",
                  CrdLowerTierAppliance,
                  InterceptTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "PortAllocated",
                  CrdLowerTierAppliance,
                  PortAllocatedTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "PortExhausted",
                  CrdLowerTierAppliance,
                  PortExhaustedTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "BackendFailure",
                  CrdLowerTierAppliance,
                  BackendFailureTracedCallback),
        ADC_TRACE(CrdLowerTierAppliance,
                  CrdLowerTierAppliance,
                  "Drop",
                  CrdLowerTierAppliance,
                  DropTracedCallback),
        ADC_TRACE(IlbAppliance, IlbAppliance, "RuleMatch", IlbAppliance, RuleMatchTracedCallback),
        ADC_TRACE(IlbAppliance,
                  IlbAppliance,
                  "ServerChosen",
                  IlbAppliance,
                  ServerChosenTracedCallback),
        ADC_TRACE(IlbAppliance, IlbAppliance, "Rewrite", IlbAppliance, RewriteTracedCallback),
        // IlbAppliance's drops are its datapath's: AdcDatapath declares "Drop".
        ADC_TRACE(AdcDatapath, IlbAppliance, "Drop", AdcDatapath, DropTracedCallback),
        ADC_TRACE(SlbMux, SlbMux, "DipChoice", SlbMux, DipChoiceTracedCallback),
        ADC_TRACE(SlbMux, SlbMux, "Encapsulate", SlbMux, EncapsulateTracedCallback),
        ADC_TRACE(SlbMux, SlbMux, "FastpathRedirect", SlbMux, FastpathRedirectTracedCallback),
        ADC_TRACE(AdcDatapath, SlbMux, "Drop", AdcDatapath, DropTracedCallback),
        ADC_TRACE(SlbHostSwitch,
                  SlbHostSwitch,
                  "Decapsulate",
                  SlbHostSwitch,
                  DecapsulateTracedCallback),
        ADC_TRACE(SlbHostSwitch, SlbHostSwitch, "HostNat", SlbHostSwitch, HostNatTracedCallback),
        ADC_TRACE(SlbHostSwitch, SlbHostSwitch, "Fastpath", SlbHostSwitch, FastpathTracedCallback),
        ADC_TRACE(SlbHostSwitch, SlbHostSwitch, "MssClamp", SlbHostSwitch, MssClampTracedCallback),
        ADC_TRACE(SlbHostSwitch,
                  SlbHostSwitch,
                  "Reassembly",
                  SlbHostSwitch,
                  ReassemblyTracedCallback),
        ADC_TRACE(AdcDatapath, SlbHostSwitch, "Drop", AdcDatapath, DropTracedCallback),
        ADC_TRACE(SlbManager, SlbManager, "PolicyPush", SlbManager, PolicyPushTracedCallback),
        ADC_TRACE(SlbManager, SlbManager, "HealthChange", SlbManager, HealthChangeTracedCallback),
        ADC_TRACE(SlbHostAgent,
                  SlbHostAgent,
                  "PolicyUpdate",
                  SlbHostAgent,
                  PolicyUpdateTracedCallback),
        ADC_TRACE(IlbAppliance,
                  IlbAppliance,
                  "NatExhausted",
                  IlbAppliance,
                  NatExhaustedTracedCallback),
        ADC_TRACE(IlbAppliance,
                  IlbAppliance,
                  "ConnectionEnded",
                  IlbAppliance,
                  ConnectionEndedTracedCallback),
        ADC_TRACE(AdcTcpRelay, AdcTcpRelay, "Accept", AdcTcpRelay, AcceptTracedCallback),
        ADC_TRACE(AdcTcpRelay, AdcTcpRelay, "Relayed", AdcTcpRelay, RelayedTracedCallback),
        ADC_TRACE(AdcTcpRelay, AdcTcpRelay, "Closed", AdcTcpRelay, ClosedTracedCallback),
        ADC_TRACE(AdcUdpRelay, AdcUdpRelay, "Session", AdcUdpRelay, SessionTracedCallback),
        ADC_TRACE(AdcUdpRelay, AdcUdpRelay, "Relayed", AdcUdpRelay, RelayedTracedCallback),
        ADC_TRACE(AdcUdpRelay, AdcUdpRelay, "Dropped", AdcUdpRelay, DroppedTracedCallback),
        ADC_TRACE(AdcUdpRelay, AdcUdpRelay, "Closed", AdcUdpRelay, ClosedTracedCallback),
        ADC_TRACE(AdcBgpSpeaker,
                  AdcBgpSpeaker,
                  "SessionState",
                  AdcBgpSpeaker,
                  SessionStateTracedCallback),
        ADC_TRACE(AdcBgpSpeaker, AdcBgpSpeaker, "Message", AdcBgpSpeaker, MessageTracedCallback),
        ADC_TRACE(AdcBgpSpeaker,
                  AdcBgpSpeaker,
                  "RouteChange",
                  AdcBgpSpeaker,
                  RouteChangeTracedCallback),
        ADC_TRACE(AdcBgpSpeaker,
                  AdcBgpSpeaker,
                  "Notification",
                  AdcBgpSpeaker,
                  NotificationTracedCallback),
        ADC_TRACE(AdcBgpSpeaker, AdcBgpSpeaker, "Drop", AdcBgpSpeaker, DropTracedCallback),
        ADC_TRACE(AdcEcmpRouting, AdcEcmpRouting, "NextHop", AdcEcmpRouting, NextHopTracedCallback),
        ADC_TRACE(AdcEcmpRouting,
                  AdcEcmpRouting,
                  "RouteChange",
                  AdcEcmpRouting,
                  RouteChangeTracedCallback),
        ADC_TRACE(AdcEcmpRouting6,
                  AdcEcmpRouting6,
                  "NextHop",
                  AdcEcmpRouting6,
                  NextHopTracedCallback),
        ADC_TRACE(AdcEcmpRouting6,
                  AdcEcmpRouting6,
                  "RouteChange",
                  AdcEcmpRouting6,
                  RouteChangeTracedCallback),
        ADC_TRACE(AdcProxyEngine, AdcProxyEngine, "Accept", AdcProxyEngine, AcceptTracedCallback),
        ADC_TRACE(AdcProxyEngine,
                  AdcProxyEngine,
                  "ServerConnection",
                  AdcProxyEngine,
                  ServerConnectionTracedCallback),
        ADC_TRACE(AdcProxyEngine,
                  AdcProxyEngine,
                  "ServerFailure",
                  AdcProxyEngine,
                  ServerFailureTracedCallback),
        ADC_TRACE(AdcProxyEngine,
                  AdcProxyEngine,
                  "LocalAnswer",
                  AdcProxyEngine,
                  LocalAnswerTracedCallback),
        ADC_TRACE(AdcProxyEngine, AdcProxyEngine, "Drop", AdcProxyEngine, DropTracedCallback),
        ADC_TRACE(AdcProxyEngine,
                  AdcProxyEngine,
                  "IdleClosed",
                  AdcProxyEngine,
                  IdleClosedTracedCallback),
        ADC_TRACE(AdcProxyEngine,
                  AdcProxyEngine,
                  "TlsHandshake",
                  AdcProxyEngine,
                  TlsHandshakeTracedCallback),
        ADC_TRACE(AdcSourceAddressPolicy,
                  AdcSourceAddressPolicy,
                  "Leased",
                  AdcSourceAddressPolicy,
                  LeaseTracedCallback),
        ADC_TRACE(AdcSourceAddressPolicy,
                  AdcSourceAddressPolicy,
                  "Released",
                  AdcSourceAddressPolicy,
                  LeaseTracedCallback),
        ADC_TRACE(AdcSourceAddressPolicy,
                  AdcSourceAddressPolicy,
                  "Exhausted",
                  AdcSourceAddressPolicy,
                  ExhaustedTracedCallback),
        ADC_TRACE(AdcService, AdcService, "StateChange", AdcService, StateChangeTracedCallback),
        ADC_TRACE(AdcServiceGroup,
                  AdcServiceGroup,
                  "MemberChange",
                  AdcServiceGroup,
                  MemberTracedCallback),
        ADC_TRACE(AdcVirtualServer,
                  AdcVirtualServer,
                  "Selection",
                  AdcVirtualServer,
                  SelectionTracedCallback),
        ADC_TRACE(AdcVirtualServer,
                  AdcVirtualServer,
                  "StateChange",
                  AdcVirtualServer,
                  StateChangeTracedCallback),
    };
}

/// TypeIds of this module: every class registers itself in the group "Adc".
bool
IsModuleType(TypeId tid)
{
    return tid.GetGroupName() == "Adc";
}

class AdcTraceSources : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

// REQ: CORE-02
TEST_F(AdcTraceSources, EachCitesItsTypedefAndConnects)
{
    for (const TraceCase& c : AllCases())
    {
        SCOPED_TRACE(c.owner + "::" + c.source);
        TypeId owner;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(c.owner, &owner)) << "no TypeId " << c.owner;
        TypeId::TraceSourceInformation info;
        ASSERT_TRUE(owner.LookupTraceSourceByName(c.source, &info) != nullptr);
        EXPECT_EQ(info.callback, c.typedef_);
        ObjectFactory factory;
        factory.SetTypeId(c.create);
        Ptr<Object> object = factory.Create<Object>();
        ASSERT_TRUE(object);
        EXPECT_TRUE(c.connect(object));
    }
}

// REQ: CORE-02
TEST_F(AdcTraceSources, EverySourceOfTheModuleIsChecked)
{
    std::set<std::pair<std::string, std::string>> covered;
    for (const TraceCase& c : AllCases())
    {
        covered.insert({c.owner, c.source});
    }
    uint32_t seen = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (!IsModuleType(tid))
        {
            continue;
        }
        for (std::size_t j = 0; j < tid.GetTraceSourceN(); ++j)
        {
            const std::string source = tid.GetTraceSource(j).name;
            EXPECT_TRUE(covered.count({tid.GetName(), source}) == 1)
                << tid.GetName() << " declares trace source " << source
                << " that this test does not check: add it to AllCases()";
            ++seen;
        }
    }
    EXPECT_EQ(seen, covered.size());
    // Every class the table names registers in the group, or the scan above would miss it.
    for (const TraceCase& c : AllCases())
    {
        EXPECT_TRUE(IsModuleType(TypeId::LookupByName(c.owner))) << c.owner << " not in group Adc";
    }
}
