/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * emulate-bgp: the SLB MUX's BGP speaker (AdcBgpSpeaker) on a simulated node attached to a
 * Linux tap, so that a real BGP daemon on the host side of the tap (BIRD 2, FRR 8) peers with
 * it. The MUX announces its VIPs (IPv4 /32 in NLRI, IPv6 /128 in MP_REACH_NLRI, RFC 4760),
 * can withdraw one at a given time (--withdrawAt) and can stop dead as a failed MUX does
 * (--haltAt: no NOTIFICATION, no KEEPALIVE; the daemon's hold timer must expire). The routes the
 * daemon sends are learnt and traced.
 *
 * Runs in real time with real checksums (AdcEmulationHelper) until --duration or Ctrl-C, then
 * stops the speaker (Cease NOTIFICATION) and removes the tap. Needs root (a tap); run it in a
 * network namespace of its own (unshare --net, as ./adc emulate bgp and the interop tests do),
 * with addresses from the documentation ranges: they then exist only inside that namespace.
 *
 * Output in --outputDir: bgp-trace.csv, one row per session state change, message sent or
 * received (with its summary), route learnt or withdrawn, NOTIFICATION, discarded input and
 * scenario action, each with the simulated time and the wall clock (Unix time: a script
 * compares it with the daemon's own timestamps, e.g. to time its hold timer); flushed row by
 * row so that a script can read it while the MUX runs.
 */

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-emulation-helper.h"
#include "ns3/adc-experiment.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <sys/time.h>
#include <vector>

using namespace ns3;

namespace
{

/// The command line, as given (every value is checked by Parse, which names the option).
struct Options
{
    std::string tap{"adc-bgp0"};
    std::string simAddress{"192.0.2.2/24,2001:db8::2/64"};
    std::string hostAddress{"192.0.2.1/24,2001:db8::1/64"};
    std::string transport{"ipv4"};
    std::string routerId;
    std::string localAs{"65001"};
    std::string peerAs{"65010"};
    std::string vips{"198.51.100.10/32,2001:db8:100::10/128"};
    std::string holdTime{"90"};
    std::string connectRetry{"5"};
    std::string passive{"false"};
    std::string withdrawAt;
    std::string haltAt;
    std::string duration{"0"};
    std::string outputDir;
    std::string birdSocket;
    std::string vtySocketDir;
};

/// An address with its prefix length.
struct Interface
{
    AdcIpAddress address; //!< the address
    uint8_t length{0};    //!< its prefix length
};

/// A prefix (a VIP): network and length.
struct Prefix
{
    AdcIpAddress network; //!< the network
    uint8_t length{0};    //!< its length

    /// \return "a/len"
    std::string ToString() const
    {
        return network.ToString() + "/" + std::to_string(length);
    }
};

/// The checked settings.
struct Settings
{
    std::string tap;
    Interface sim4, sim6, host4, host6; //!< unset address: that family is not used
    bool transport6{false};             //!< the session runs over IPv6
    Ipv4Address routerId;
    uint32_t localAs{0}, peerAs{0};
    std::vector<Prefix> vips;
    uint16_t holdTime{90};
    double connectRetry{5};
    bool passive{false};
    std::vector<std::pair<Prefix, double>> withdrawals; //!< VIP and when
    double haltAt{-1};                                  //!< < 0: never
    double duration{0};                                 //!< 0: until a signal
    std::string outputDir;
    std::string birdSocket, vtySocketDir;
};

/// \return an AdcConfigError "--option 'value': why"
AdcConfigError
Bad(const std::string& option, const std::string& value, const std::string& why)
{
    return AdcConfigError("--" + option + " '" + value + "': " + why);
}

/// \param text an address \return it, or an unset address when it is not one
AdcIpAddress
ParseAddress(const std::string& text)
{
    uint8_t bytes[16];
    if (inet_pton(AF_INET, text.c_str(), bytes) == 1)
    {
        return Ipv4Address(text.c_str());
    }
    if (inet_pton(AF_INET6, text.c_str(), bytes) == 1)
    {
        return Ipv6Address(text.c_str());
    }
    return AdcIpAddress();
}

/// \param text digits only \param max the largest value \return the value, or -1
int64_t
ParseUnsigned(const std::string& text, int64_t max)
{
    if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != text.npos)
    {
        return -1;
    }
    int64_t v = std::stoll(text);
    return v <= max ? v : -1;
}

/// \param option the option \param text seconds \return them (a finite number >= 0)
double
ParseSeconds(const std::string& option, const std::string& text)
{
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 1e6)
    {
        throw Bad(option, text, "allowed: seconds, a number from 0 to 1000000");
    }
    return v;
}

/// \param option the option \param text "ADDRESS[/LEN]" \param defaults lengths (v4, v6)
/// \return the address and length
Interface
ParseWithLength(const std::string& option, const std::string& text, uint8_t len4, uint8_t len6)
{
    std::size_t slash = text.find('/');
    Interface i;
    i.address = ParseAddress(text.substr(0, slash));
    if (i.address.IsNone())
    {
        throw Bad(option, text, "not an IPv4 or IPv6 address");
    }
    int64_t max = i.address.IsV4() ? 32 : 128;
    int64_t len = slash == text.npos ? (i.address.IsV4() ? len4 : len6)
                                     : ParseUnsigned(text.substr(slash + 1), max);
    if (len < 0)
    {
        throw Bad(option, text, "prefix length allowed: 0.." + std::to_string(max));
    }
    i.length = static_cast<uint8_t>(len);
    return i;
}

/// \param option the option \param text "a,b": at most one IPv4 and one IPv6 address
/// \param v4 set to the IPv4 one \param v6 set to the IPv6 one
void
ParseInterfaces(const std::string& option, const std::string& text, Interface& v4, Interface& v6)
{
    for (const std::string& item : AdcConfigError::SplitList(text))
    {
        Interface i = ParseWithLength(option, item, 24, 64);
        Interface& slot = i.address.IsV4() ? v4 : v6;
        if (!slot.address.IsNone())
        {
            throw Bad(option, text, "allowed: at most one IPv4 and one IPv6 address");
        }
        if (i.length == 0 || i.length >= (i.address.IsV4() ? 31 : 127))
        {
            throw Bad(option,
                      item,
                      "prefix length allowed: 1..30 (IPv4), 1..126 (IPv6): the tap's subnet "
                      "holds both sides");
        }
        slot = i;
    }
}

/// \param text "1..4294967295" or asdot "X.Y" (RFC 5396) \return the AS
uint32_t
ParseAs(const std::string& option, const std::string& text)
{
    std::size_t dot = text.find('.');
    int64_t v = -1;
    if (dot == text.npos)
    {
        v = ParseUnsigned(text, 4294967295LL);
    }
    else
    {
        int64_t hi = ParseUnsigned(text.substr(0, dot), 65535);
        int64_t lo = ParseUnsigned(text.substr(dot + 1), 65535);
        v = (hi < 0 || lo < 0) ? -1 : hi * 65536 + lo;
    }
    if (v <= 0)
    {
        throw Bad(option, text, "allowed: an AS number 1..4294967295, or asdot X.Y (RFC 5396)");
    }
    return static_cast<uint32_t>(v);
}

/// \param option the option \param text a VIP "a[/len]" \return the prefix
Prefix
ParseVip(const std::string& option, const std::string& text)
{
    Interface i = ParseWithLength(option, text, 32, 128);
    if (i.address.Masked(i.length) != i.address)
    {
        throw Bad(option,
                  text,
                  "host bits set: allowed a network address (a VIP is a /32 or /128)");
    }
    return {i.address, i.length};
}

/// \param a an interface \param b another \return true when they share a's subnet
bool
SameSubnet(const Interface& a, const Interface& b)
{
    return a.address.Masked(a.length) == b.address.Masked(a.length) && a.length == b.length;
}

/// \param o the options \return the settings \throws AdcConfigError naming the option
Settings
Parse(const Options& o)
{
    Settings s;
    AdcEmulationHelper().SetTapName(o.tap); // checks the name
    s.tap = o.tap;
    ParseInterfaces("simAddress", o.simAddress, s.sim4, s.sim6);
    ParseInterfaces("hostAddress", o.hostAddress, s.host4, s.host6);
    const std::pair<const Interface*, const Interface*> pairs[] = {{&s.sim4, &s.host4},
                                                                   {&s.sim6, &s.host6}};
    for (const auto& [sim, host] : pairs)
    {
        if (sim->address.IsNone() != host->address.IsNone() ||
            (!sim->address.IsNone() && (!SameSubnet(*sim, *host) || sim->address == host->address)))
        {
            throw Bad("hostAddress",
                      o.hostAddress,
                      "allowed: for each address of --simAddress '" + o.simAddress +
                          "', another address of its subnet (and no other)");
        }
    }
    if (s.sim4.address.IsNone() && s.sim6.address.IsNone())
    {
        throw Bad("simAddress", o.simAddress, "allowed: an IPv4 and/or an IPv6 address");
    }
    if (o.transport != "ipv4" && o.transport != "ipv6")
    {
        throw Bad("transport", o.transport, "allowed: ipv4, ipv6");
    }
    s.transport6 = o.transport == "ipv6";
    if ((s.transport6 ? s.sim6 : s.sim4).address.IsNone())
    {
        throw Bad("transport", o.transport, "no address of that family in --simAddress");
    }
    AdcIpAddress id = o.routerId.empty() ? s.sim4.address : ParseAddress(o.routerId);
    if (!id.IsV4() || id.GetIpv4() == Ipv4Address::GetAny())
    {
        throw Bad("routerId",
                  o.routerId,
                  "allowed: an IPv4 address other than 0.0.0.0 (needed when --simAddress has "
                  "no IPv4 address)");
    }
    s.routerId = id.GetIpv4();
    s.localAs = ParseAs("localAs", o.localAs);
    s.peerAs = ParseAs("peerAs", o.peerAs);
    for (const std::string& v : AdcConfigError::SplitList(o.vips))
    {
        Prefix p = ParseVip("vips", v);
        if ((p.network.IsV4() ? s.sim4 : s.sim6).address.IsNone())
        {
            throw Bad("vips", v, "no --simAddress of that family to be its next hop");
        }
        s.vips.push_back(p);
    }
    int64_t hold = ParseUnsigned(o.holdTime, 65535);
    if (hold < 0 || hold == 1 || hold == 2)
    {
        throw Bad("holdTime", o.holdTime, "allowed: 0 or 3..65535 whole seconds (RFC 4271 4.2)");
    }
    s.holdTime = static_cast<uint16_t>(hold);
    s.connectRetry = ParseSeconds("connectRetry", o.connectRetry);
    if (s.connectRetry < 1)
    {
        throw Bad("connectRetry", o.connectRetry, "allowed: 1 s or more");
    }
    if (o.passive != "true" && o.passive != "false")
    {
        throw Bad("passive", o.passive, "allowed: true, false");
    }
    s.passive = o.passive == "true";
    s.duration = ParseSeconds("duration", o.duration);
    auto beforeEnd = [&s](const std::string& option, const std::string& value, double t) {
        if (s.duration > 0 && t >= s.duration)
        {
            throw Bad(option,
                      value,
                      "must be before --duration " + AdcCsvWriter::FormatFixed(s.duration, 3));
        }
    };
    for (const std::string& w : AdcConfigError::SplitList(o.withdrawAt))
    {
        std::size_t at = w.find('@');
        if (at == w.npos)
        {
            throw Bad("withdrawAt", w, "allowed: VIP@SECONDS, e.g. 198.51.100.10/32@10");
        }
        Prefix p = ParseVip("withdrawAt", w.substr(0, at));
        bool known = false;
        for (const Prefix& v : s.vips)
        {
            known = known || (v.network == p.network && v.length == p.length);
        }
        if (!known)
        {
            throw Bad("withdrawAt", w, "not one of --vips '" + o.vips + "'");
        }
        double t = 0;
        try
        {
            t = ParseSeconds("withdrawAt", w.substr(at + 1));
        }
        catch (const AdcConfigError&)
        {
            throw Bad("withdrawAt", w, "allowed: VIP@SECONDS, SECONDS from 0 to 1000000");
        }
        beforeEnd("withdrawAt", w, t);
        s.withdrawals.emplace_back(p, t);
    }
    if (!o.haltAt.empty() && o.haltAt != "never")
    {
        s.haltAt = ParseSeconds("haltAt", o.haltAt);
        beforeEnd("haltAt", o.haltAt, s.haltAt);
    }
    s.outputDir = o.outputDir;
    s.birdSocket = o.birdSocket;
    s.vtySocketDir = o.vtySocketDir;
    return s;
}

/// \return the Unix time now, in seconds with milliseconds
std::string
WallClock()
{
    timeval tv{};
    gettimeofday(&tv, nullptr);
    std::ostringstream os;
    os << tv.tv_sec << "." << std::setw(3) << std::setfill('0') << tv.tv_usec / 1000;
    return os.str();
}

/// Writes the trace and the console lines.
class Tracer
{
  public:
    /// \param dir the output folder (empty: console only)
    explicit Tracer(const std::string& dir)
    {
        if (!dir.empty())
        {
            std::filesystem::create_directories(dir);
            m_csv = std::make_unique<AdcCsvWriter>(dir + "/bgp-trace.csv",
                                                   std::vector<std::string>{"time_s",
                                                                            "event",
                                                                            "peer",
                                                                            "direction",
                                                                            "type",
                                                                            "detail",
                                                                            "wall_s"});
        }
    }

    /// \brief One row (also printed). \param event \param peer \param dir \param type \param detail
    void Row(const std::string& event,
             const std::string& peer,
             const std::string& dir,
             const std::string& type,
             const std::string& detail)
    {
        std::string t = AdcCsvWriter::FormatSeconds(Simulator::Now());
        if (m_csv)
        {
            m_csv->WriteRow({t, event, peer, dir, type, detail, WallClock()});
            m_csv->Flush(); // read while the MUX runs
        }
        // KEEPALIVEs every second would drown the console: the CSV has them.
        if (!(event == "message" && type == "KEEPALIVE"))
        {
            std::cout << "[" << std::fixed << std::setprecision(3) << Simulator::Now().GetSeconds()
                      << " s] " << event << " " << peer << (peer.empty() ? "" : " ") << dir
                      << (dir.empty() ? "" : " ") << type << " " << detail << std::endl;
        }
    }

    void OnState(const AdcIpAddress& p, const std::string& from, const std::string& to)
    {
        Row("state", p.ToString(), "", to, from + ">" + to);
    }

    void OnMessage(const AdcIpAddress& p, const std::string& dir, const AdcBgpMessage& m)
    {
        Row("message", p.ToString(), dir, AdcBgpMessage::TypeName(m.type), m.ToString());
    }

    void OnRoute(const AdcBgpRouteChange& c)
    {
        Row("route",
            c.peer.ToString(),
            "received",
            c.announced ? "announce" : "withdraw",
            c.prefix.ToString() + "/" + std::to_string(c.length) + " via " + c.nextHop.ToString());
    }

    void OnNotification(const AdcIpAddress& p, const std::string& dir, const AdcBgpNotification& n)
    {
        Row("notification",
            p.ToString(),
            dir,
            std::to_string(n.code) + "/" + std::to_string(n.subcode),
            AdcBgpNotification::CodeName(n.code) + " / " +
                AdcBgpNotification::SubcodeName(n.code, n.subcode));
    }

    void OnDrop(const AdcIpAddress& from, const std::string& reason)
    {
        Row("drop", from.ToString(), "", "", reason);
    }

  private:
    std::unique_ptr<AdcCsvWriter> m_csv; //!< the trace (none without --outputDir)
};

/// \brief Print what to type to talk to the MUX.
void
PrintHelp(const Settings& s)
{
    const Interface& peer = s.transport6 ? s.host6 : s.host4;
    const Interface& self = s.transport6 ? s.sim6 : s.sim4;
    std::cout << "emulate-bgp: simulated MUX " << self.address << " (AS " << s.localAs
              << ", router id " << s.routerId << ") on tap " << s.tap << "; host side";
    for (const Interface* h : {&s.host4, &s.host6})
    {
        if (!h->address.IsNone())
        {
            std::cout << " " << h->address << "/" << unsigned(h->length);
        }
    }
    std::cout << "\n  peer: " << peer.address << " AS " << s.peerAs << ", hold time offered "
              << s.holdTime << " s, " << (s.passive ? "waits for the peer" : "connects")
              << "\n  VIPs:";
    for (const Prefix& v : s.vips)
    {
        std::cout << " " << v.ToString();
    }
    const std::string bird = s.birdSocket.empty() ? "/run/bird/bird.ctl" : s.birdSocket;
    const std::string v6 = s.sim6.address.IsNone() ? "" : " ipv6 { import all; export none; };";
    std::cout << "\nA BIRD 2 peer (bird -c bird.conf -s " << bird
              << "):\n  protocol bgp mux { local as " << s.peerAs << "; neighbor " << self.address
              << " as " << s.localAs << "; ipv4 { import all; export none; };" << v6
              << " }\n  birdc -s " << bird << " show protocols all\n  birdc -s " << bird
              << " show route all\n"
              << "An FRR 8 peer (bgpd with zebra):\n  router bgp " << s.peerAs
              << " / no bgp ebgp-requires-policy / neighbor " << self.address << " remote-as "
              << s.localAs << (v6.empty() ? "" : " / address-family ipv6 unicast / neighbor ")
              << (v6.empty() ? "" : self.address.ToString() + " activate") << "\n";
    const std::string vty = s.vtySocketDir.empty() ? "" : " --vty_socket " + s.vtySocketDir;
    std::cout << "  vtysh" << vty << " -c 'show bgp summary'\n  vtysh" << vty
              << " -c 'show bgp ipv4 unicast'\n  vtysh" << vty << " -c 'show bgp ipv6 unicast'\n"
              << (s.duration > 0 ? "Stops after " + AdcCsvWriter::FormatFixed(s.duration, 3) +
                                       " s (Cease NOTIFICATION), or on Ctrl-C"
                                 : std::string("Stops on Ctrl-C or SIGTERM"))
              << "; the tap is then removed." << std::endl;
}

/// \param node the MUX \param dev its tap device \param s settings: give it its addresses
void
AssignAddresses(Ptr<Node> node, Ptr<NetDevice> dev, const Settings& s)
{
    if (!s.sim4.address.IsNone())
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        int32_t i = ipv4->AddInterface(dev);
        ipv4->AddAddress(
            i,
            Ipv4InterfaceAddress(s.sim4.address.GetIpv4(),
                                 Ipv4Mask(("/" + std::to_string(s.sim4.length)).c_str())));
        ipv4->SetUp(i);
    }
    if (!s.sim6.address.IsNone())
    {
        Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
        int32_t i = ipv6->AddInterface(dev);
        ipv6->SetUp(i); // adds the link-local address neighbour discovery needs
        ipv6->AddAddress(i,
                         Ipv6InterfaceAddress(s.sim6.address.GetIpv6(), Ipv6Prefix(s.sim6.length)));
    }
}

/// \param s settings: run the scenario \return the exit status
int
Run(const Settings& s)
{
    // Usable at once: the host side's DAD is off too (AdcEmulationHelper).
    Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
    Ptr<Node> node = CreateObject<Node>();
    InternetStackHelper stack;
    stack.SetIpv4StackInstall(!s.sim4.address.IsNone());
    stack.SetIpv6StackInstall(!s.sim6.address.IsNone());
    stack.Install(node);

    AdcEmulationHelper emu;
    emu.SetTapName(s.tap);
    // No IPv4 on the host side: 0.0.0.0 said explicitly (the helper's unset address is ns-3's
    // uninitialised 102.102.102.102, which it would try to configure).
    emu.SetHostAddress(s.host4.address.IsNone() ? Ipv4Address::GetAny() : s.host4.address.GetIpv4(),
                       Ipv4Mask(("/" + std::to_string(s.host4.length)).c_str()));
    if (!s.host6.address.IsNone())
    {
        emu.AddHostAddress(s.host6.address.GetIpv6(), Ipv6Prefix(s.host6.length));
    }
    Ptr<NetDevice> dev;
    try
    {
        dev = emu.Install(node);
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "emulate-bgp: " << e.what() << std::endl;
        return 1; // the machine's reason (not root, no /dev/net/tun, a name in use)
    }
    AssignAddresses(node, dev, s);

    Tracer tracer(s.outputDir);
    Ptr<AdcBgpSpeaker> speaker = CreateObject<AdcBgpSpeaker>();
    speaker->SetAttribute("LocalAs", UintegerValue(s.localAs));
    speaker->SetAttribute("RouterId", Ipv4AddressValue(s.routerId));
    speaker->SetAttribute("HoldTime", TimeValue(Seconds(s.holdTime)));
    speaker->SetAttribute("ConnectRetryTime", TimeValue(Seconds(s.connectRetry)));
    node->AddApplication(speaker);
    speaker->SetStartTime(Seconds(0));
    speaker->TraceConnectWithoutContext("SessionState", MakeCallback(&Tracer::OnState, &tracer));
    speaker->TraceConnectWithoutContext("Message", MakeCallback(&Tracer::OnMessage, &tracer));
    speaker->TraceConnectWithoutContext("RouteChange", MakeCallback(&Tracer::OnRoute, &tracer));
    speaker->TraceConnectWithoutContext("Notification",
                                        MakeCallback(&Tracer::OnNotification, &tracer));
    speaker->TraceConnectWithoutContext("Drop", MakeCallback(&Tracer::OnDrop, &tracer));
    const Interface& peer = s.transport6 ? s.host6 : s.host4;
    const Interface& self = s.transport6 ? s.sim6 : s.sim4;
    // Over IPv4 the IPv6 VIPs go in MP_REACH_NLRI with the MUX's IPv6 address as next hop.
    AdcIpAddress nextHop6 = s.transport6 ? AdcIpAddress() : s.sim6.address;
    speaker->AddPeer(peer.address, s.peerAs, self.address, s.passive, nextHop6);
    for (const Prefix& v : s.vips)
    {
        speaker->Announce(v.network, v.length);
        Simulator::Schedule(Seconds(0), [&tracer, v]() {
            tracer.Row("vip", "", "", "announce", v.ToString());
        });
    }
    for (const auto& [vip, t] : s.withdrawals)
    {
        Simulator::Schedule(Seconds(t), [speaker, &tracer, vip = vip]() {
            tracer.Row("vip", "", "", "withdraw", vip.ToString());
            speaker->Withdraw(vip.network, vip.length);
        });
    }
    if (s.haltAt >= 0)
    {
        Simulator::Schedule(Seconds(s.haltAt), [speaker, &tracer]() {
            tracer.Row("halt", "", "", "", "the MUX stops dead: no NOTIFICATION, no KEEPALIVE");
            speaker->Halt();
        });
    }
    if (s.duration > 0)
    {
        // The speaker stops with a Cease NOTIFICATION (RFC 4271 6.7); 300 ms more let it and
        // the FIN leave before the tap goes.
        speaker->SetStopTime(Seconds(s.duration));
        Simulator::Schedule(Seconds(s.duration),
                            [&tracer]() { tracer.Row("stop", "", "", "", "duration"); });
        Simulator::Stop(Seconds(s.duration) + MilliSeconds(300));
    }
    // Ctrl-C or SIGTERM: the run ends at once (the tap's removal drops the session; ns-3's
    // Application cannot be stopped before its preset stop time, so no Cease here).
    AdcEmulationHelper::StopOnSignal([&tracer](int sig) {
        tracer.Row("stop", "", "", "", std::string("signal ") + (sig == SIGINT ? "INT" : "TERM"));
    });
    Simulator::Schedule(Seconds(0), [&tracer]() {
        tracer.Row("start", "", "", "", "real time, wall_s is the Unix time");
    });
    PrintHelp(s);
    Simulator::Run();

    AdcBgpPeerCounters c = speaker->GetCounters(peer.address);
    std::cout << "emulate-bgp: session "
              << AdcBgpSpeaker::StateName(speaker->GetState(peer.address))
              << "; messages sent OPEN/UPDATE/NOTIFICATION/KEEPALIVE " << c.sent[1] << "/"
              << c.sent[2] << "/" << c.sent[3] << "/" << c.sent[4] << ", received " << c.received[1]
              << "/" << c.received[2] << "/" << c.received[3] << "/" << c.received[4]
              << "; routes learnt now " << speaker->GetAdjRibIn(peer.address).size() << std::endl;
    Simulator::Destroy(); // closes the tap's descriptor: the tap disappears
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    AdcEmulationHelper::EnableRealtime(); // before any other ns-3 call
    Options o;
    AdcExperiment exp("emulate-bgp",
                      "The SLB MUX's BGP speaker on a simulated node attached to a Linux tap, "
                      "announcing its VIPs to a real BGP daemon (BIRD 2, FRR 8) on the host "
                      "side. Needs root; run it in a network namespace of its own (./adc "
                      "emulate bgp, or unshare --net). Lists are comma-separated, without "
                      "spaces.");
    exp.Add("tap", "the tap's name (1..15 characters)", o.tap);
    exp.Add("simAddress",
            "the MUX's addresses on the tap: ADDRESS[/LEN], one IPv4 and/or one IPv6 (default "
            "lengths /24, /64)",
            o.simAddress);
    exp.Add("hostAddress",
            "the host side's addresses, same families and subnets as --simAddress (the "
            "daemon's addresses; the session's peer)",
            o.hostAddress);
    exp.Add("transport", "the session's transport", o.transport).OneOf({"ipv4", "ipv6"});
    exp.Add("routerId", "BGP identifier (default: the MUX's IPv4 address)", o.routerId).Optional();
    exp.Add("localAs", "the MUX's AS: 1..4294967295 or asdot X.Y", o.localAs);
    exp.Add("peerAs", "the daemon's AS: 1..4294967295 or asdot X.Y", o.peerAs);
    exp.Add("vips",
            "VIPs announced: IPv4 ADDRESS[/32] in NLRI, IPv6 ADDRESS[/128] in MP_REACH_NLRI "
            "(empty: none)",
            o.vips)
        .Optional();
    exp.Add("holdTime", "hold time offered in the OPEN: 0 or 3..65535 s", o.holdTime);
    exp.Add("connectRetry", "ConnectRetry time (s, >= 1)", o.connectRetry);
    exp.Add("passive", "true: wait for the daemon's connection; false: connect too", o.passive)
        .OneOf({"true", "false", "1", "0"});
    exp.Add("withdrawAt", "withdraw VIPs: VIP@SECONDS,... (e.g. 198.51.100.10/32@10)", o.withdrawAt)
        .Optional();
    exp.Add("haltAt",
            "the MUX stops dead at this time (s), as a failed MUX: the daemon's hold timer must "
            "expire (empty or never: no halt)",
            o.haltAt)
        .Optional();
    exp.Add("duration", "run time (s); 0: until Ctrl-C or SIGTERM", o.duration);
    exp.Add("outputDir", "where bgp-trace.csv goes (empty: no file)", o.outputDir).Optional();
    exp.Add("birdSocket", "BIRD's control socket, for the printed birdc commands", o.birdSocket)
        .Optional();
    exp.Add("vtySocketDir",
            "FRR's vty socket folder, for the printed vtysh commands",
            o.vtySocketDir)
        .Optional();
    Settings s;
    // Every value is checked (and converted) before anything is built.
    exp.AddCheck([&o, &s]() { s = Parse(o); });
    return exp.Run(argc, argv, [&s]() {
        const std::string why = AdcEmulationHelper::GetUnavailableReason();
        if (!why.empty())
        {
            throw AdcExperimentError("cannot create a tap here: " + why);
        }
        return Run(s);
    });
}
