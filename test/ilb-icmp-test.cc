/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ILB's ICMP and fragment handling as illumos does it (illumos-gate
 * usr/src/uts/common/inet/ilb/ilb.c ilb_icmp_v4/ilb_icmp_v6, ilb_conn.c ilb_check_icmp_conn,
 * ilb_nat.c ilb_nat_icmpv4/ilb_nat_icmpv6, ip/ip_input.c "We just drop all fragments going to
 * any VIP"): echo requests to a VIP answered by the ILB, "fragmentation needed" / "packet too
 * big" for a NAT connection translated (outer and inner headers) to the server, and from the
 * server side back to the client, every other ICMP to a VIP and every fragment to a VIP
 * dropped, counted and traced. The messages are built here byte by byte from RFC 792, RFC 4443
 * and RFC 768, and every field of what the other end receives is checked against them.
 */

#include "adc-test-raw-packets.h"
#include "ilb-test-fixture.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ilbtest;

namespace
{

using Bytes = std::vector<uint8_t>;

/// \return the one's complement sum (RFC 1071) of \p b, added to \p sum, folded
uint32_t
OnesSum(const Bytes& b, uint32_t sum = 0)
{
    for (std::size_t i = 0; i < b.size(); i += 2)
    {
        sum += static_cast<uint32_t>(b[i] << 8) + (i + 1 < b.size() ? b[i + 1] : 0);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum;
}

/// \return the bytes of \p a (4 or 16)
Bytes
AddressBytes(const AdcIpAddress& a)
{
    return Bytes(a.GetBytes().begin(), a.GetBytes().begin() + a.GetLength());
}

/// \return the pseudo-header sum of \p src, \p dst, \p protocol and \p length (RFC 768, RFC 8200)
uint32_t
PseudoSum(const AdcIpAddress& src, const AdcIpAddress& dst, uint8_t protocol, uint32_t length)
{
    return OnesSum(AddressBytes(dst), OnesSum(AddressBytes(src))) + protocol + (length >> 16) +
           (length & 0xffff);
}

/// \return whether the ICMP message \p m between \p src and \p dst has a right checksum
bool
IcmpChecksumOk(const Bytes& m, const AdcIpAddress& src, const AdcIpAddress& dst)
{
    uint32_t sum = dst.IsV6() ? PseudoSum(src, dst, 58, static_cast<uint32_t>(m.size())) : 0;
    return OnesSum(m, sum) == 0xffff;
}

/// Set the ICMP checksum of \p m (bytes 2-3) for \p src -> \p dst.
void
SetIcmpChecksum(Bytes& m, const AdcIpAddress& src, const AdcIpAddress& dst)
{
    m[2] = m[3] = 0;
    const uint32_t sum = dst.IsV6() ? PseudoSum(src, dst, 58, static_cast<uint32_t>(m.size())) : 0;
    const uint16_t c = static_cast<uint16_t>(~OnesSum(m, sum));
    m[2] = static_cast<uint8_t>(c >> 8);
    m[3] = static_cast<uint8_t>(c & 0xff);
}

/// \return a 16-bit big-endian word of \p b at \p at
uint16_t
W16(const Bytes& b, std::size_t at)
{
    return static_cast<uint16_t>((b[at] << 8) | b[at + 1]);
}

/// \return an address of \p family read from \p b at \p at
AdcIpAddress
AddressAt(const Bytes& b, std::size_t at, bool v6)
{
    return v6 ? AdcIpAddress(Ipv6Address::Deserialize(b.data() + at))
              : AdcIpAddress(Ipv4Address::Deserialize(b.data() + at));
}

/**
 * \return the packet a too-big error quotes: an IP header (IPv4: 20 bytes, DF, TTL 63; IPv6:
 * 40 bytes, hop limit 63) and an 8-byte UDP header of \p k with a right checksum (no payload)
 */
Bytes
QuotedUdp(const AdcFlowKey& k)
{
    const bool v6 = k.src.IsV6();
    Bytes udp = {static_cast<uint8_t>(k.srcPort >> 8),
                 static_cast<uint8_t>(k.srcPort & 0xff),
                 static_cast<uint8_t>(k.dstPort >> 8),
                 static_cast<uint8_t>(k.dstPort & 0xff),
                 0,
                 8,
                 0,
                 0};
    const uint16_t c = static_cast<uint16_t>(~OnesSum(udp, PseudoSum(k.src, k.dst, 17, 8)));
    udp[6] = static_cast<uint8_t>(c >> 8);
    udp[7] = static_cast<uint8_t>(c & 0xff);
    Bytes ip;
    if (!v6)
    {
        ip = {0x45, 0, 0, 28, 0x12, 0x34, 0x40, 0, 63, 17, 0, 0};
        const Bytes s = AddressBytes(k.src);
        const Bytes d = AddressBytes(k.dst);
        ip.insert(ip.end(), s.begin(), s.end());
        ip.insert(ip.end(), d.begin(), d.end());
        const uint16_t hc = static_cast<uint16_t>(~OnesSum(ip));
        ip[10] = static_cast<uint8_t>(hc >> 8);
        ip[11] = static_cast<uint8_t>(hc & 0xff);
    }
    else
    {
        ip = {0x60, 0, 0, 0, 0, 8, 17, 63};
        const Bytes s = AddressBytes(k.src);
        const Bytes d = AddressBytes(k.dst);
        ip.insert(ip.end(), s.begin(), s.end());
        ip.insert(ip.end(), d.begin(), d.end());
    }
    ip.insert(ip.end(), udp.begin(), udp.end());
    return ip;
}

/// \return an ICMPv4 "fragmentation needed" (MTU 1400) or ICMPv6 "packet too big" (MTU 1280)
/// quoting \p quoted, with no checksum yet
Bytes
TooBig(bool v6, const Bytes& quoted)
{
    Bytes m = v6 ? Bytes{2, 0, 0, 0, 0, 0, 0x05, 0x00} : Bytes{3, 4, 0, 0, 0, 0, 0x05, 0x78};
    m.insert(m.end(), quoted.begin(), quoted.end());
    return m;
}

/// An ICMP message a node's IP layer received.
struct IcmpSeen
{
    AdcIpAddress src; //!< outer source
    AdcIpAddress dst; //!< outer destination
    Bytes message;    //!< the ICMP message
};

/// The ICMP tests: the ILB test bed, ICMP sent from raw sockets, ICMP received recorded.
class IlbIcmp : public IlbScenario
{
  protected:
    /// Record the ICMP \p node's IP layer receives (NDP left out) into \p into.
    static void WatchIcmp(Ptr<Node> node, std::vector<IcmpSeen>* into)
    {
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [into](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv4Header h;
                    c->RemoveHeader(h);
                    if (h.GetProtocol() == 1)
                    {
                        Bytes b(c->GetSize());
                        c->CopyData(b.data(), b.size());
                        into->push_back({h.GetSource(), h.GetDestination(), b});
                    }
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv6>, uint32_t>(
                [into](Ptr<const Packet> p, Ptr<Ipv6>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv6Header h;
                    c->RemoveHeader(h);
                    Bytes b(c->GetSize());
                    c->CopyData(b.data(), b.size());
                    // NDP (133-137) keeps the links up; the tests look at the rest
                    if (h.GetNextHeader() == 58 && !b.empty() && (b[0] < 133 || b[0] > 137))
                    {
                        into->push_back({h.GetSource(), h.GetDestination(), b});
                    }
                }));
    }

    /// Send the ICMP message \p m from \p node to \p dst at \p at (a raw socket).
    static void SendIcmp(Ptr<Node> node, const AdcIpAddress& dst, const Bytes& m, Time at)
    {
        const bool v6 = dst.IsV6();
        Ptr<Socket> s = Socket::CreateSocket(node,
                                             v6 ? Ipv6RawSocketFactory::GetTypeId()
                                                : Ipv4RawSocketFactory::GetTypeId());
        s->SetAttribute("Protocol", UintegerValue(v6 ? 58 : 1));
        Simulator::Schedule(at, [s, dst, m, v6] {
            Ptr<Packet> p = Create<Packet>(m.data(), m.size());
            if (v6)
            {
                s->SendTo(p, 0, Inet6SocketAddress(dst.GetIpv6(), 0));
            }
            else
            {
                s->SendTo(p, 0, InetSocketAddress(dst.GetIpv4(), 0));
            }
        });
    }

    /// \return \p t's VIP
    static AdcIpAddress Vip(const Topo& t)
    {
        return t.v6 ? kVip6 : kVip4;
    }

    /// \return \p t's Full-NAT source address
    static AdcIpAddress NatSource(const Topo& t)
    {
        return t.v6 ? AdcIpAddress(Ipv6Address("2001:99::1"))
                    : AdcIpAddress(Ipv4Address("10.20.0.1"));
    }

    /**
     * \brief The test bed of the too-big tests: one client, two servers with UDP echo on 53,
     * rule "dns" (UDP 53, \p topology) and one echo exchange at 1 s, so one connection exists.
     * \return the topology
     */
    Topo OneConnection(bool v6, IlbRule::Topology topology)
    {
        Topo t = Build(v6, 1, 2);
        IlbRule r = Rule("dns", Vip(t), 17, 53, topology, Two(t));
        if (topology == IlbRule::FULL_NAT)
        {
            r.natSourceFirst = NatSource(t);
            r.natSourceLast = NatSource(t);
        }
        t.app->AddRule(r);
        WatchAll(t);
        EchoServer(t.servers.Get(0), 53);
        EchoServer(t.servers.Get(1), 53);
        Echo(t.clients.Get(0), Vip(t), 53, 1, Seconds(1));
        WatchIcmp(t.clients.Get(0), &m_clientIcmp);
        WatchIcmp(t.servers.Get(0), &m_serverIcmp);
        WatchIcmp(t.servers.Get(1), &m_serverIcmp);
        return t;
    }

    /// \return the one request "Rewrite" the test bed recorded (client's key, server's key)
    IlbLog::Rewrite TheConnection()
    {
        IlbLog::Rewrite found;
        uint32_t n = 0;
        for (const IlbLog::Rewrite& r : m_log.rewrites)
        {
            if (r.direction == "request")
            {
                found = r;
                ++n;
            }
        }
        EXPECT_EQ(n, 1u);
        return found;
    }

    std::vector<IcmpSeen> m_clientIcmp; //!< ICMP the client received
    std::vector<IcmpSeen> m_serverIcmp; //!< ICMP the servers received
};

/// v4 / v6
class IlbIcmpFamily : public IlbIcmp, public ::testing::WithParamInterface<bool>
{
};

TEST_P(IlbIcmpFamily, AnEchoRequestToTheVipIsAnsweredByTheIlbItself)
{
    // REQ: ILB-01 (illumos ilb.c ilb_icmp_v4/v6, ICMP_ECHO_REQUEST: "generate a response on
    // behalf of the back end server": type 0 / 129, addresses swapped, id, seq and data kept)
    const bool v6 = GetParam();
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true)); // the fixture turns it off
    Topo t = OneConnection(v6, IlbRule::HALF_NAT);
    // echo request: id 0x4242, sequence 7, 24 bytes of data
    Bytes echo = {static_cast<uint8_t>(v6 ? 128 : 8), 0, 0, 0, 0x42, 0x42, 0, 7};
    for (uint8_t i = 0; i < 24; ++i)
    {
        echo.push_back(static_cast<uint8_t>(0xa0 + i));
    }
    SetIcmpChecksum(echo, t.clientIp[0], Vip(t));
    SendIcmp(t.clients.Get(0), Vip(t), echo, Seconds(2));
    Run(Seconds(3));

    ASSERT_EQ(m_clientIcmp.size(), 1u);
    const IcmpSeen& reply = m_clientIcmp[0];
    EXPECT_EQ(reply.src, Vip(t));
    EXPECT_EQ(reply.dst, t.clientIp[0]);
    ASSERT_EQ(reply.message.size(), echo.size());
    EXPECT_EQ(reply.message[0], v6 ? 129 : 0); // echo reply
    EXPECT_EQ(reply.message[1], 0);
    EXPECT_TRUE(IcmpChecksumOk(reply.message, reply.src, reply.dst));
    EXPECT_EQ(Bytes(reply.message.begin() + 4, reply.message.end()),
              Bytes(echo.begin() + 4, echo.end())); // id, sequence, data
    EXPECT_TRUE(m_serverIcmp.empty()) << "the servers never see the ping";
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpEchoProcessed, 1u);
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpDropped, 0u);
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_P(IlbIcmpFamily, OtherIcmpToTheVipIsDroppedWithItsReasonAndCounted)
{
    // REQ: ILB-01 (ilb_icmp_v4/v6: "For other ICMP messages, drop them"; a message shorter than
    // an ICMP header is dropped too)
    const bool v6 = GetParam();
    Topo t = OneConnection(v6, IlbRule::HALF_NAT);
    AdcRemoveQueueDiscsEverywhere();
    // IPv4: timestamp request (13), host unreachable (3/1); IPv6: destination unreachable (1/3),
    // echo reply (129). And 4 bytes only.
    Bytes a = v6 ? Bytes{1, 3, 0, 0, 0, 0, 0, 0} : Bytes{13, 0, 0, 0, 0, 1, 0, 1};
    Bytes b = v6 ? Bytes{129, 0, 0, 0, 0, 1, 0, 1} : Bytes{3, 1, 0, 0, 0, 0, 0, 0};
    a.insert(a.end(), 12, 0);
    b.insert(b.end(), 12, 0);
    // (IPv6: not an echo request, which ns-3's raw socket would pad to a whole echo header)
    Bytes shortOne = {static_cast<uint8_t>(v6 ? 2 : 8), 0, 0, 0};
    for (Bytes* m : {&a, &b, &shortOne})
    {
        SetIcmpChecksum(*m, t.clientIp[0], Vip(t));
    }
    SendIcmp(t.clients.Get(0), Vip(t), a, Seconds(2));
    SendIcmp(t.clients.Get(0), Vip(t), b, Seconds(2.1));
    SendIcmp(t.clients.Get(0), Vip(t), shortOne, Seconds(2.2));
    Run(Seconds(3));

    EXPECT_EQ(m_log.drops,
              (std::vector<std::string>{"icmp-type-unsupported",
                                        "icmp-type-unsupported",
                                        "icmp-truncated"}));
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpDropped, 3u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drops, 3u);
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpEchoProcessed, 0u);
    EXPECT_TRUE(m_serverIcmp.empty());
    EXPECT_TRUE(m_clientIcmp.empty());
}

TEST_P(IlbIcmpFamily, TooBigWithoutAConnectionIsDroppedAndCounted)
{
    // REQ: ILB-04 (ilb_icmp_v4/v6: ilb_check_icmp_conn finds no conn -> icmp_2big_dropped)
    const bool v6 = GetParam();
    Topo t = OneConnection(v6, IlbRule::HALF_NAT);
    Bytes m = TooBig(v6, QuotedUdp(AdcFlowKey(Vip(t), t.clientIp[0], 53, 9999, 17)));
    SetIcmpChecksum(m, t.clientIp[0], Vip(t));
    SendIcmp(t.clients.Get(0), Vip(t), m, Seconds(2));
    Run(Seconds(3));

    EXPECT_EQ(m_log.drops, (std::vector<std::string>{"icmp-no-connection"}));
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigDropped, 1u);
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigProcessed, 0u);
    EXPECT_TRUE(m_serverIcmp.empty());
}

INSTANTIATE_TEST_SUITE_P(Families,
                         IlbIcmpFamily,
                         ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) {
                             return std::string(i.param ? "Ipv6" : "Ipv4");
                         });

/// (IPv6?, Full-NAT?)
class IlbIcmpTooBig : public IlbIcmp, public ::testing::WithParamInterface<std::tuple<bool, bool>>
{
  protected:
    /**
     * \brief A too-big from the client side for the one connection, checked at the server.
     * \param repair attribute "IcmpQuoteChecksums"
     */
    void ClientSide(bool repair)
    {
        const bool v6 = std::get<0>(GetParam());
        const bool full = std::get<1>(GetParam());
        Config::SetGlobal("ChecksumEnabled", BooleanValue(true)); // the fixture turns it off
        Topo t = OneConnection(v6, full ? IlbRule::FULL_NAT : IlbRule::HALF_NAT);
        t.app->SetAttribute("IcmpQuoteChecksums", BooleanValue(repair));
        uint16_t clientPort = 0;
        Bytes sent;
        Simulator::Schedule(Seconds(1.9), [this, &clientPort, &sent, &t, v6] {
            // The client's port is known once the echo went; a router near the client then says
            // the response VIP:53 -> client:port was too big (sent here from the client's node).
            const IlbLog::Rewrite c = TheConnection();
            clientPort = c.before.srcPort;
            Bytes m = TooBig(v6, QuotedUdp(AdcFlowKey(Vip(t), t.clientIp[0], 53, clientPort, 17)));
            SetIcmpChecksum(m, t.clientIp[0], Vip(t));
            sent = m;
            SendIcmp(t.clients.Get(0), Vip(t), m, Seconds(0.1));
        });
        Run(Seconds(3));

        const IlbLog::Rewrite c = TheConnection();
        ASSERT_EQ(c.after.dstPort, 53);
        ASSERT_EQ(m_serverIcmp.size(), 1u);
        const IcmpSeen& e = m_serverIcmp[0];
        const AdcIpAddress server = c.after.dst;
        EXPECT_TRUE(server == t.serverIp[0] || server == t.serverIp[1]);
        EXPECT_EQ(e.dst, server);
        EXPECT_EQ(e.src, full ? NatSource(t) : t.clientIp[0]);
        const Bytes& b = e.message;
        ASSERT_EQ(b.size(), v6 ? 56u : 36u);
        EXPECT_EQ(b[0], v6 ? 2 : 3);
        EXPECT_EQ(b[1], v6 ? 0 : 4);
        EXPECT_EQ(W16(b, 6), v6 ? 1280 : 1400); // the MTU untouched
        EXPECT_TRUE(IcmpChecksumOk(b, e.src, e.dst));
        // The quoted packet as the server sent it: server:53 -> client:port (Half-NAT) or
        // NAT source:NAT port (Full-NAT).
        const std::size_t l4 = v6 ? 48 : 28;
        EXPECT_EQ(AddressAt(b, v6 ? 16 : 20, v6), server);
        EXPECT_EQ(AddressAt(b, v6 ? 32 : 24, v6), full ? NatSource(t) : t.clientIp[0]);
        EXPECT_EQ(W16(b, l4), 53);
        EXPECT_EQ(W16(b, l4 + 2), full ? c.after.srcPort : clientPort);
        if (full)
        {
            EXPECT_EQ(c.after.src, NatSource(t));
        }
        const Bytes udp(b.begin() + l4, b.end());
        if (!repair)
        {
            // ilb_nat_icmpv4 / ilb_nat_icmpv6 rewrite the quoted addresses and ports only: the
            // quoted IPv4 header checksum and UDP checksum are the bytes the router quoted.
            ASSERT_EQ(sent.size(), b.size());
            if (!v6)
            {
                EXPECT_EQ(W16(b, 18), W16(sent, 18)) << "inner IP checksum untouched";
            }
            EXPECT_EQ(W16(b, l4 + 6), W16(sent, l4 + 6)) << "inner UDP checksum untouched";
            EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigProcessed, 1u);
            EXPECT_TRUE(m_log.drops.empty());
            return;
        }
        // IcmpQuoteChecksums: the quote is a valid header of the packet the server sent.
        if (!v6)
        {
            EXPECT_EQ(OnesSum(Bytes(b.begin() + 8, b.begin() + 28)), 0xffff) << "inner IP checksum";
        }
        // the quoted UDP checksum is right for the quoted addresses (RFC 768)
        const AdcIpAddress qsrc = AddressAt(b, v6 ? 16 : 20, v6);
        const AdcIpAddress qdst = AddressAt(b, v6 ? 32 : 24, v6);
        EXPECT_EQ(OnesSum(udp, PseudoSum(qsrc, qdst, 17, 8)), 0xffff);
        EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigProcessed, 1u);
        EXPECT_TRUE(m_log.drops.empty());
    }
};

TEST_P(IlbIcmpTooBig, FromTheClientSideItReachesTheServerTranslated)
{
    // REQ: ILB-04, ILB-05 (illumos ilb_check_icmp_conn + ilb_nat_icmpv4/v6: an error to the VIP
    // quoting a response VIP:port -> client:port goes to the connection's server; outer dst and
    // inner src:sport = the server; Full-NAT also outer src and inner dst:dport = the NAT
    // source; the quoted checksums stay as they were)
    ClientSide(false);
}

TEST_P(IlbIcmpTooBig, WithIcmpQuoteChecksumsTheQuotedChecksumsAreRepaired)
{
    // REQ: ILB-04, ILB-05 (the model's extension beyond ilb_nat_icmpv4/v6, opt-in)
    ClientSide(true);
}

TEST_P(IlbIcmpTooBig, FromTheServerSideItIsOrdinaryTrafficByDefault)
{
    // REQ: ILB-04, ILB-05 (illumos ilb_icmp_v4/v6: an ICMP message not addressed to a VIP is
    // ILB_PASSED: IP forwards it unchanged, to the client for Half-NAT; for Full-NAT it is
    // addressed to the NAT source, which no client owns)
    const bool v6 = std::get<0>(GetParam());
    const bool full = std::get<1>(GetParam());
    Topo t = OneConnection(v6, full ? IlbRule::FULL_NAT : IlbRule::HALF_NAT);
    AdcIpAddress server;
    Simulator::Schedule(Seconds(1.9), [this, &server, &t, v6] {
        const IlbLog::Rewrite c = TheConnection();
        server = c.after.dst;
        const uint32_t s = server == t.serverIp[0] ? 0 : 1;
        Bytes m = TooBig(v6, QuotedUdp(c.after));
        SetIcmpChecksum(m, server, c.after.src);
        SendIcmp(t.servers.Get(s), c.after.src, m, Seconds(0.1));
    });
    Run(Seconds(3));

    const IlbLog::Rewrite c = TheConnection();
    if (full)
    {
        EXPECT_TRUE(m_clientIcmp.empty());
    }
    else
    {
        ASSERT_EQ(m_clientIcmp.size(), 1u);
        const Bytes& b = m_clientIcmp[0].message;
        EXPECT_EQ(m_clientIcmp[0].src, server); // not the VIP: untranslated
        const std::size_t l4 = v6 ? 48 : 28;
        EXPECT_EQ(AddressAt(b, v6 ? 32 : 24, v6), server); // the quote as the server saw it
        EXPECT_EQ(W16(b, l4), c.after.srcPort);
    }
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigProcessed, 0u);
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_P(IlbIcmpTooBig, WithIcmpTooBigFromServersTheServerSideErrorReachesTheClient)
{
    // REQ: ILB-04, ILB-05 (the mirror of ilb_nat_icmpv4/v6, beyond illumos and opt-in: a router
    // on the server side says a request as the ILB forwarded it was too big; with
    // IcmpTooBigFromServers the client gets it in its own view)
    const bool v6 = std::get<0>(GetParam());
    const bool full = std::get<1>(GetParam());
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true)); // the fixture turns it off
    Topo t = OneConnection(v6, full ? IlbRule::FULL_NAT : IlbRule::HALF_NAT);
    t.app->SetAttribute("IcmpTooBigFromServers", BooleanValue(true));
    t.app->SetAttribute("IcmpQuoteChecksums", BooleanValue(true));
    AdcIpAddress server;
    Simulator::Schedule(Seconds(1.9), [this, &server, &t, v6] {
        // The error comes from the chosen server's node (standing for a router beside it) to
        // the request's source as the server saw it, quoting that request.
        const IlbLog::Rewrite c = TheConnection();
        server = c.after.dst;
        const uint32_t s = server == t.serverIp[0] ? 0 : 1;
        Bytes m = TooBig(v6, QuotedUdp(c.after));
        SetIcmpChecksum(m, server, c.after.src);
        SendIcmp(t.servers.Get(s), c.after.src, m, Seconds(0.1));
    });
    Run(Seconds(3));

    const IlbLog::Rewrite c = TheConnection();
    ASSERT_EQ(m_clientIcmp.size(), 1u);
    const IcmpSeen& e = m_clientIcmp[0];
    EXPECT_EQ(e.dst, t.clientIp[0]);
    EXPECT_EQ(e.src, full ? Vip(t) : server);
    const Bytes& b = e.message;
    ASSERT_EQ(b.size(), v6 ? 56u : 36u);
    EXPECT_EQ(b[0], v6 ? 2 : 3);
    EXPECT_EQ(b[1], v6 ? 0 : 4);
    EXPECT_EQ(W16(b, 6), v6 ? 1280 : 1400);
    EXPECT_TRUE(IcmpChecksumOk(b, e.src, e.dst));
    // The quoted packet as the client sent it: client:port -> VIP:53.
    const std::size_t l4 = v6 ? 48 : 28;
    EXPECT_EQ(AddressAt(b, v6 ? 16 : 20, v6), t.clientIp[0]);
    EXPECT_EQ(AddressAt(b, v6 ? 32 : 24, v6), Vip(t));
    EXPECT_EQ(W16(b, l4), c.before.srcPort);
    EXPECT_EQ(W16(b, l4 + 2), 53);
    if (!v6)
    {
        EXPECT_EQ(OnesSum(Bytes(b.begin() + 8, b.begin() + 28)), 0xffff) << "inner IP checksum";
    }
    const Bytes udp(b.begin() + l4, b.end());
    EXPECT_EQ(OnesSum(udp, PseudoSum(t.clientIp[0], Vip(t), 17, 8)), 0xffff);
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpTooBigProcessed, 1u);
    EXPECT_TRUE(m_log.drops.empty());
}

INSTANTIATE_TEST_SUITE_P(FamiliesAndTopologies,
                         IlbIcmpTooBig,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>>& i) {
                             return std::string(std::get<0>(i.param) ? "Ipv6" : "Ipv4") +
                                    (std::get<1>(i.param) ? "FullNat" : "HalfNat");
                         });

TEST_P(IlbIcmpFamily, AFragmentedEchoRequestToTheVipIsNotAnswered)
{
    // REQ: ILB-01 (illumos ip_input.c drops every IPv4 fragment going to a VIP, the first one
    // of a ping too; ip_input_v6 hands IPv6 fragments to IP (ILB_SUPP_L4 fails on next header
    // 44): either way ILB never answers a fragmented echo request)
    const bool v6 = GetParam();
    Topo t = OneConnection(v6, IlbRule::HALF_NAT);
    // echo request with 3,000 bytes of data: 3,008 bytes of ICMP over a 1,500-byte MTU
    Bytes echo = {static_cast<uint8_t>(v6 ? 128 : 8), 0, 0, 0, 0x42, 0x42, 0, 9};
    echo.resize(3008, 0x5a);
    SetIcmpChecksum(echo, t.clientIp[0], Vip(t));
    SendIcmp(t.clients.Get(0), Vip(t), echo, Seconds(2));
    Run(Seconds(3));

    // IPv4: ceil(3,008 / 1,480) fragments dropped; IPv6: none, passed to IP.
    const uint32_t fragments = v6 ? 0 : (3008 + 1479) / 1480;
    for (const IcmpSeen& m : m_clientIcmp)
    {
        EXPECT_NE(m.message[0], v6 ? 129 : 0) << "no echo reply";
    }
    EXPECT_EQ(t.app->GetRuleCounters(0).icmpEchoProcessed, 0u);
    EXPECT_EQ(t.app->GetRuleCounters(0).fragmentsDropped, fragments);
    EXPECT_EQ(m_log.Drops("fragment-unsupported"), fragments);
}

TEST_P(IlbIcmpFamily, Ipv4FragmentsToTheVipAreDroppedAndIpv6OnesPassed)
{
    // REQ: ILB-01 (illumos ip_input.c: "We just drop all fragments going to any VIP" (IPv4,
    // ip_frag_dropped); ip_input_v6 calls ilb_check_v6 only when ILB_SUPP_L4(ira_protocol),
    // which next header 44 (Fragment) fails, so IPv6 fragments are handed to IP: ILB neither
    // drops nor balances them)
    const bool v6 = GetParam();
    Topo t = OneConnection(v6, IlbRule::HALF_NAT);
    // 3,000 bytes of UDP data + 8 of header over a 1,500-byte MTU: the client's IP layer sends
    // fragments of 1,480 (IPv4) / 1,448 (IPv6: 1,500 - 40 - 8 of Fragment header, a multiple
    // of 8) bytes.
    UdpEchoClientHelper h(PlainAddress(Vip(t)), 53);
    h.SetAttribute("MaxPackets", UintegerValue(1));
    h.SetAttribute("PacketSize", UintegerValue(3000));
    h.Install(t.clients.Get(0)).Start(Seconds(2));
    Run(Seconds(3));

    // IPv4: ceil(3,008 / 1,480) = 3 fragments dropped and counted; IPv6: none.
    const uint32_t fragments = v6 ? 0 : (3008 + 1479) / 1480;
    EXPECT_EQ(m_log.Drops("fragment-unsupported"), fragments);
    EXPECT_EQ(m_log.drops.size(), fragments);
    EXPECT_EQ(t.app->GetRuleCounters(0).fragmentsDropped, fragments);
    // Only the 1 s echo (request and reply) was balanced; nothing of the big datagram.
    EXPECT_EQ(t.app->GetRuleCounters(0).packetsIn, 1u);
    EXPECT_EQ(m_echo.front().replies, 1u);
}

} // namespace
