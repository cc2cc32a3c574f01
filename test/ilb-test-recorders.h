/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ILB tests' recorders: small address helpers, what the nodes' IP layers receive and
 * forward (Wire, parsed), UDP echo results and TCP sinks, and every IlbAppliance trace with the
 * rules' virtual servers' "Selection" and the servers' services' "StateChange" (IlbLog).
 * Included by ilb-test-fixture.h.
 */

#ifndef ILB_TEST_RECORDERS_H
#define ILB_TEST_RECORDERS_H

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-datapath.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ilb-appliance.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

// The tests use ns-3 names unqualified.
using namespace ns3;

/// The ILB tests' shared pieces (one definition for all test files: gtest needs the same
/// fixture class in every file that uses it).
namespace ilbtest
{

using adctest::ConfigErrorOf;
using adctest::Has;

inline const AdcIpAddress kVip4(Ipv4Address("10.10.10.10"));
inline const AdcIpAddress kVip6(Ipv6Address("2001:9::9"));

/// \return a socket address for \p a and \p port
inline Address
Sock(const AdcIpAddress& a, uint16_t port)
{
    return a.IsV4() ? Address(InetSocketAddress(a.GetIpv4(), port))
                    : Address(Inet6SocketAddress(a.GetIpv6(), port));
}

/// An address and port taken from a socket address.
struct Endpoint
{
    AdcIpAddress ip;  //!< address
    uint16_t port{0}; //!< port
};

/// \return the address and port of a socket address
inline Endpoint
Split(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        const InetSocketAddress s = InetSocketAddress::ConvertFrom(a);
        return {s.GetIpv4(), s.GetPort()};
    }
    if (Inet6SocketAddress::IsMatchingType(a))
    {
        const Inet6SocketAddress s = Inet6SocketAddress::ConvertFrom(a);
        return {s.GetIpv6(), s.GetPort()};
    }
    return {};
}

/// \return \p a as an ns-3 Address (checksum pseudo-header)
inline Address
PlainAddress(const AdcIpAddress& a)
{
    return a.IsV4() ? Address(a.GetIpv4()) : Address(a.GetIpv6());
}

// ---------------------------------------------------------------------------------------------
// What the wire carried

/// A packet seen by a node's IP layer.
struct Seen
{
    std::string where;     //!< node name (+ "/fwd" for forwarded packets)
    AdcFlowKey flow;       //!< 5-tuple (ports 0 when not TCP/UDP or too short)
    uint8_t ttl{0};        //!< TTL / hop limit
    uint16_t id{0};        //!< IPv4 identification (0 for IPv6)
    uint8_t tcpFlags{0};   //!< TCP flags
    bool checksumOk{true}; //!< transport checksum right (checked when checksums are enabled)
};

/// Records every IP packet some nodes receive or forward, with its parsed headers.
class Wire
{
  public:
    /// Record what \p node's IPv4 and IPv6 layers receive, as \p name.
    void WatchRx(Ptr<Node> node, const std::string& name)
    {
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv4Header h;
                    c->RemoveHeader(h);
                    Add(name,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetProtocol(),
                        h.GetTtl(),
                        h.GetIdentification(),
                        c);
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv6>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv6>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv6Header h;
                    c->RemoveHeader(h);
                    Add(name,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetNextHeader(),
                        h.GetHopLimit(),
                        0,
                        c);
                }));
    }

    /// Record what \p node forwards (after the ILB's rewrite), as name + "/fwd".
    void WatchForward(Ptr<Node> node, const std::string& name)
    {
        const std::string where = name + "/fwd";
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                [this, where](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) {
                    Add(where,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetProtocol(),
                        h.GetTtl(),
                        h.GetIdentification(),
                        p);
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            Callback<void, const Ipv6Header&, Ptr<const Packet>, uint32_t>(
                [this, where](const Ipv6Header& h, Ptr<const Packet> p, uint32_t) {
                    Add(where,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetNextHeader(),
                        h.GetHopLimit(),
                        0,
                        p);
                }));
    }

    /// \return the TCP/UDP packets (protocol \p protocol) seen at \p where
    std::vector<Seen> At(const std::string& where, uint8_t protocol) const
    {
        std::vector<Seen> out;
        for (const Seen& s : m_seen)
        {
            if (s.where == where && s.flow.protocol == protocol)
            {
                out.push_back(s);
            }
        }
        return out;
    }

  private:
    void Add(const std::string& where,
             AdcIpAddress src,
             AdcIpAddress dst,
             uint8_t protocol,
             uint8_t ttl,
             uint16_t id,
             Ptr<const Packet> payload)
    {
        Seen s;
        s.where = where;
        s.flow = AdcFlowKey(src, dst, 0, 0, protocol);
        s.ttl = ttl;
        s.id = id;
        const bool ports = protocol == 6 || protocol == 17;
        if (ports && payload->GetSize() >= 4)
        {
            uint8_t b[14] = {};
            payload->CopyData(b, std::min<uint32_t>(payload->GetSize(), 14));
            s.flow.srcPort = static_cast<uint16_t>((b[0] << 8) | b[1]);
            s.flow.dstPort = static_cast<uint16_t>((b[2] << 8) | b[3]);
            s.tcpFlags = protocol == 6 ? b[13] : 0;
        }
        if (ports && Node::ChecksumEnabled())
        {
            s.checksumOk = ChecksumOk(s.flow, payload);
        }
        m_seen.push_back(s);
    }

    /// \return true when the transport checksum is right for the packet's addresses
    static bool ChecksumOk(const AdcFlowKey& k, Ptr<const Packet> payload)
    {
        Ptr<Packet> c = payload->Copy();
        if (k.protocol == 6 && c->GetSize() >= 20)
        {
            TcpHeader h;
            h.EnableChecksums();
            h.InitializeChecksum(PlainAddress(k.src), PlainAddress(k.dst), 6);
            c->RemoveHeader(h);
            return h.IsChecksumOk();
        }
        if (k.protocol == 17 && c->GetSize() >= 8)
        {
            UdpHeader h;
            h.EnableChecksums();
            h.InitializeChecksum(PlainAddress(k.src), PlainAddress(k.dst), 17);
            c->RemoveHeader(h);
            return h.IsChecksumOk();
        }
        return false;
    }

    std::vector<Seen> m_seen; //!< everything, in order
};

// ---------------------------------------------------------------------------------------------
// Applications

/// What a UDP echo client got back.
struct EchoStats
{
    uint32_t replies{0};        //!< replies received
    std::vector<Endpoint> from; //!< their sources
};

/// TCP listeners that count bytes per accepted connection and close when the peer closes.
class TcpSinks
{
  public:
    /// One accepted connection.
    struct Conn
    {
        std::string at;    //!< node name
        Endpoint peer;     //!< the peer as seen by the server
        Endpoint local;    //!< the server's own end (GetSockName)
        uint64_t bytes{0}; //!< bytes received
    };

    /// Listen on \p node (named \p name) at ANY:\p port.
    void Listen(Ptr<Node> node, const std::string& name, uint16_t port, bool v6)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        s->Bind(v6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), port))
                   : Address(InetSocketAddress(Ipv4Address::GetAny(), port)));
        s->Listen();
        s->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>(
                [this, name](Ptr<Socket> c, const Address& from) { Accept(c, from, name); }));
        m_sockets.push_back(s);
    }

    /// \param at node name, or "" for all \return bytes received there
    uint64_t Bytes(const std::string& at = "") const
    {
        uint64_t n = 0;
        for (const Conn& c : m_conns)
        {
            n += (at.empty() || c.at == at) ? c.bytes : 0;
        }
        return n;
    }

    /// \return the accepted connections, in order
    const std::deque<Conn>& Conns() const
    {
        return m_conns;
    }

  private:
    void Accept(Ptr<Socket> c, const Address& from, const std::string& name)
    {
        Conn conn;
        conn.at = name;
        conn.peer = Split(from);
        Address local;
        c->GetSockName(local);
        conn.local = Split(local);
        m_conns.push_back(conn);
        Conn* rec = &m_conns.back(); // deque: stable while we only push_back
        c->SetRecvCallback(Callback<void, Ptr<Socket>>([rec](Ptr<Socket> sock) {
            Address a;
            while (Ptr<Packet> p = sock->RecvFrom(a))
            {
                if (p->GetSize() == 0)
                {
                    break;
                }
                rec->bytes += p->GetSize();
            }
        }));
        // Close when the peer closes, so both FINs cross the ILB.
        c->SetCloseCallbacks(Callback<void, Ptr<Socket>>([](Ptr<Socket> s) { s->ShutdownSend(); }),
                             Callback<void, Ptr<Socket>>([](Ptr<Socket>) {}));
        m_sockets.push_back(c);
    }

    std::deque<Conn> m_conns;           //!< accepted connections
    std::vector<Ptr<Socket>> m_sockets; //!< keep sockets alive
};

/// What the appliance's trace sources reported.
struct IlbLog
{
    /// One "ServerChosen".
    struct Chosen
    {
        std::string rule; //!< rule
        AdcFlowKey flow;  //!< new flow
        uint32_t server;  //!< server index
        std::string name; //!< server name
        Time when;        //!< when
    };

    /// One "Selection" of a rule's virtual server.
    struct Selection
    {
        AdcFlowKey flow;     //!< the flow
        std::string vserver; //!< the virtual server (the rule's name)
        std::string service; //!< the service chosen ("" none)
        std::string how;     //!< "method", ...
    };

    /// One "StateChange" of a server's service.
    struct StateChange
    {
        std::string service;   //!< the service (the server's name)
        AdcService::State now; //!< its new state
        Time when;             //!< when
    };

    /// One "Rewrite".
    struct Rewrite
    {
        std::string rule;      //!< rule
        std::string direction; //!< request / response
        AdcFlowKey before;     //!< as arrived
        AdcFlowKey after;      //!< as sent
    };

    std::vector<std::pair<std::string, AdcFlowKey>> matches; //!< "RuleMatch"
    std::vector<Chosen> chosen;                              //!< "ServerChosen"
    std::vector<Rewrite> rewrites;                           //!< "Rewrite"
    std::vector<std::string> drops;                          //!< "Drop" reasons
    std::vector<std::string> exhausted;                      //!< "NatExhausted"
    std::vector<Selection> selections;                       //!< the vservers' "Selection"
    std::vector<StateChange> states;                         //!< the services' "StateChange"

    /// Connect to every trace source of \p app.
    void Attach(Ptr<IlbAppliance> app)
    {
        app->TraceConnectWithoutContext(
            "RuleMatch",
            Callback<void, const std::string&, const AdcFlowKey&>(
                [this](const std::string& r, const AdcFlowKey& f) { matches.emplace_back(r, f); }));
        app->TraceConnectWithoutContext(
            "ServerChosen",
            Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
                [this](const std::string& r,
                       const AdcFlowKey& f,
                       uint32_t s,
                       const std::string& n) {
                    chosen.push_back({r, f, s, n, Simulator::Now()});
                }));
        app->TraceConnectWithoutContext("Rewrite",
                                        Callback<void,
                                                 const std::string&,
                                                 const std::string&,
                                                 const AdcFlowKey&,
                                                 const AdcFlowKey&>([this](const std::string& r,
                                                                           const std::string& d,
                                                                           const AdcFlowKey& b,
                                                                           const AdcFlowKey& a) {
                                            rewrites.push_back({r, d, b, a});
                                        }));
        app->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& reason) { drops.push_back(reason); }));
        app->TraceConnectWithoutContext(
            "NatExhausted",
            Callback<void, const std::string&>(
                [this](const std::string& r) { exhausted.push_back(r); }));
    }

    /// Record the "Selection" of every rule's virtual server and the "StateChange" of every
    /// server's service of \p app (call after the rules are added).
    void AttachServices(Ptr<IlbAppliance> app)
    {
        for (uint32_t r = 0; r < app->GetNRules(); ++r)
        {
            app->GetRuleVServer(r)->TraceConnectWithoutContext(
                "Selection",
                Callback<void,
                         const AdcFlowKey&,
                         const std::string&,
                         const std::string&,
                         const std::string&>([this](const AdcFlowKey& f,
                                                    const std::string& v,
                                                    const std::string& s,
                                                    const std::string& how) {
                    selections.push_back({f, v, s, how});
                }));
            for (uint32_t k = 0; k < app->GetRule(r).servers.size(); ++k)
            {
                app->GetServerService(r, k)->TraceConnectWithoutContext(
                    "StateChange",
                    Callback<void, const std::string&, AdcService::State, AdcService::State>(
                        [this](const std::string& name, AdcService::State, AdcService::State now) {
                            states.push_back({name, now, Simulator::Now()});
                        }));
            }
        }
    }

    /// \return how many drops had \p reason
    uint32_t Drops(const std::string& reason) const
    {
        return static_cast<uint32_t>(std::count(drops.begin(), drops.end(), reason));
    }

    /// \param from start \param to end \return the servers chosen in [from, to), in order
    std::vector<uint32_t> ServersBetween(Time from, Time to) const
    {
        std::vector<uint32_t> out;
        for (const Chosen& c : chosen)
        {
            if (c.when >= from && c.when < to)
            {
                out.push_back(c.server);
            }
        }
        return out;
    }

    /// \return the servers chosen for rule \p rule, in order
    std::vector<uint32_t> ServersOf(const std::string& rule) const
    {
        std::vector<uint32_t> out;
        for (const Chosen& c : chosen)
        {
            if (c.rule == rule)
            {
                out.push_back(c.server);
            }
        }
        return out;
    }
};

/// Records the verdicts instead of carrying them out.
class RecordingEgress : public AdcEgress
{
  public:
    std::string Send(const AdcVerdict& verdict) override
    {
        sent.push_back(verdict);
        return "";
    }

    std::vector<AdcVerdict> sent; //!< every verdict, in order
};

} // namespace ilbtest

using namespace ilbtest;

#endif /* ILB_TEST_RECORDERS_H */
