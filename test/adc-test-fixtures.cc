/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/point-to-point-module.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

namespace ns3
{
namespace adctest
{

Ptr<Packet>
Bytes(const std::string& text)
{
    return Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()),
                          static_cast<uint32_t>(text.size()));
}

std::string
Text(Ptr<const Packet> p)
{
    std::string s(p->GetSize(), '\0');
    p->CopyData(reinterpret_cast<uint8_t*>(s.data()), p->GetSize());
    return s;
}

std::string
ReadAll(Ptr<Socket> s)
{
    std::string out;
    Ptr<Packet> p;
    while ((p = s->Recv()) && p->GetSize() > 0)
    {
        out += Text(p);
    }
    return out;
}

uint8_t
PatternByte(uint64_t k)
{
    const uint32_t x = static_cast<uint32_t>(k) * 2654435761U;
    return static_cast<uint8_t>((x ^ (x >> 13)) & 0xff);
}

std::string
Pattern(uint64_t n, uint64_t from)
{
    std::string s(n, '\0');
    for (uint64_t k = 0; k < n; ++k)
    {
        s[k] = static_cast<char>(PatternByte(from + k));
    }
    return s;
}

std::vector<AdcHttpMessage>
ParseResponses(const std::string& bytes, std::vector<uint64_t>* bodies, bool closed)
{
    AdcHttpStreamParser parser;
    parser.Feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    if (closed)
    {
        parser.EndOfStream();
    }
    std::vector<AdcHttpMessage> out;
    AdcHttpMessage head;
    uint64_t body = 0;
    while (parser.Next(&head, &body))
    {
        out.push_back(head);
        if (bodies)
        {
            bodies->push_back(body);
        }
    }
    return out;
}

// ---- checks ---------------------------------------------------------------------------------

std::filesystem::path
ExamplesDir()
{
    return std::filesystem::path(__FILE__).parent_path().parent_path() / "examples";
}

std::string
Slurp(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string
FreshTempDir(const std::string& prefix)
{
    std::string name = prefix + "-" + std::to_string(::getpid());
    if (const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info())
    {
        name += std::string("-") + t->test_suite_name() + "-" + t->name();
    }
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

std::string
RunCommand(const std::string& command)
{
    std::string out;
    char buf[4096];
    FILE* f = popen(command.c_str(), "r");
    for (std::size_t n; f != nullptr && (n = fread(buf, 1, sizeof(buf), f)) > 0;)
    {
        out.append(buf, n);
    }
    if (f != nullptr)
    {
        pclose(f);
    }
    return out;
}

std::vector<std::string>
OutputLines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream is(text);
    std::string line;
    while (std::getline(is, line))
    {
        std::string clean;
        for (char c : line)
        {
            if (c != ':' && c != '\r')
            {
                clean.push_back(c);
            }
        }
        if (!clean.empty())
        {
            out.push_back(clean);
        }
    }
    return out;
}

std::string
ConfigErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "";
}

bool
Has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

bool
HasAll(const std::string& text, const std::vector<std::string>& words)
{
    for (const std::string& w : words)
    {
        if (text.find(w) == std::string::npos)
        {
            ADD_FAILURE() << "'" << w << "' missing in: " << text;
            return false;
        }
    }
    return true;
}

ConfigReaderTest::ConfigReaderTest(const AdcConfigLanguage& language, const std::string& file)
    : m_reader(language),
      m_file(file)
{
}

void
ConfigReaderTest::TearDown()
{
    Simulator::Destroy();
}

std::string
ConfigReaderTest::ErrorOf(const std::string& text)
{
    try
    {
        m_reader.ReadString(text, m_file);
    }
    catch (const AdcConfigFileError& e)
    {
        m_line = e.GetLine();
        EXPECT_EQ(e.GetFile(), m_file);
        return e.what();
    }
    return "";
}

// ---- topologies -------------------------------------------------------------------------------

Ipv4Address
Lan::ServerIp(uint32_t i) const
{
    return hostIp.at(clients.GetN() + i);
}

Ipv4Address
Lan::ClientIp(uint32_t i) const
{
    return hostIp.at(i);
}

namespace
{

/// \return the links' helper: 100 Mbit/s, 1 ms
PointToPointHelper
Links()
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    return p2p;
}

/// \param i link index \return "10.1.<i+1>.0"
std::string
LinkNet(uint32_t i)
{
    std::ostringstream net;
    net << "10.1." << i + 1 << ".0";
    return net.str();
}

} // namespace

Lan
MakeLan(uint32_t nClients, uint32_t nServers, bool ipv6)
{
    Lan lan;
    lan.clients.Create(nClients);
    lan.servers.Create(nServers);
    NodeContainer hosts(lan.clients, lan.servers);
    PointToPointHelper p2p = Links();
    InternetStackHelper stack;
    Ipv4AddressHelper ip;
    if (hosts.GetN() == 2)
    {
        NetDeviceContainer devs = p2p.Install(hosts);
        stack.Install(hosts);
        ip.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devs);
        lan.hostIp = {ifs.GetAddress(0), ifs.GetAddress(1)};
        if (ipv6)
        {
            Ipv6AddressHelper ip6;
            ip6.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
            lan.ifs6 = ip6.Assign(devs);
        }
        return lan;
    }
    Ptr<Node> hub = CreateObject<Node>();
    stack.Install(hosts);
    stack.Install(hub);
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        NetDeviceContainer devs = p2p.Install(hosts.Get(i), hub);
        ip.SetBase(LinkNet(i).c_str(), "255.255.255.0");
        lan.hostIp.push_back(ip.Assign(devs).GetAddress(0));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return lan;
}

NodeContainer
MakeChain(uint32_t n)
{
    NodeContainer nodes;
    nodes.Create(n);
    InternetStackHelper stack;
    stack.Install(nodes);
    PointToPointHelper p2p = Links();
    Ipv4AddressHelper ip;
    for (uint32_t i = 0; i + 1 < n; ++i)
    {
        ip.SetBase(LinkNet(i).c_str(), "255.255.255.0");
        ip.Assign(p2p.Install(nodes.Get(i), nodes.Get(i + 1)));
    }
    return nodes;
}

// ---- trace collectors ---------------------------------------------------------------------------

void
RequestRecords::Attach(Ptr<Application> app)
{
    app->TraceConnectWithoutContext("RequestSent",
                                    Callback<void, const AdcRequestRecord&>(
                                        [this](const AdcRequestRecord& r) { sent.push_back(r); }));
    app->TraceConnectWithoutContext("RequestDone",
                                    Callback<void, const AdcRequestRecord&>(
                                        [this](const AdcRequestRecord& r) { done.push_back(r); }));
}

std::size_t
RequestRecords::Failed(const std::string& reason) const
{
    return std::count_if(done.begin(), done.end(), [&reason](const AdcRequestRecord& r) {
        return r.outcome == AdcRequestOutcome::FAILED && r.reason == reason;
    });
}

std::size_t
RequestRecords::Completed() const
{
    return std::count_if(done.begin(), done.end(), [](const AdcRequestRecord& r) {
        return r.outcome == AdcRequestOutcome::COMPLETED;
    });
}

void
AccessLog::Attach(Ptr<Application> app)
{
    app->TraceConnectWithoutContext(
        "AccessLog",
        Callback<void, const std::string&, const std::string&, const std::string&, Time>(
            [this](const std::string& peer,
                   const std::string& header,
                   const std::string& url,
                   Time when) {
                lines.push_back({peer, header, url, when});
            }));
    app->TraceConnectWithoutContext(
        "Drop",
        Callback<void, const std::string&>([this](const std::string& r) { drops.push_back(r); }));
}

// ---- raw TCP ends -------------------------------------------------------------------------------

void
RawPeer::Connect(Ptr<Node> node, const Address& remote, std::optional<Time> readFrom)
{
    socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    out.Push(Bytes(toSend));
    if (InetSocketAddress::IsMatchingType(remote))
    {
        socket->Bind();
    }
    else
    {
        socket->Bind6();
    }
    socket->SetConnectCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) { Flush(s); }),
                               MakeNullCallback<void, Ptr<Socket>>());
    socket->SetSendCallback(
        Callback<void, Ptr<Socket>, uint32_t>([this](Ptr<Socket> s, uint32_t) { Flush(s); }));
    socket->SetCloseCallbacks(Callback<void, Ptr<Socket>>([this](Ptr<Socket>) { closed = true; }),
                              Callback<void, Ptr<Socket>>([this](Ptr<Socket>) { closed = true; }));
    auto startReading = [this]() {
        socket->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) { Read(s); }));
        Read(socket);
    };
    if (readFrom)
    {
        // Until then the bytes stay in TCP: its window closes towards the peer.
        Simulator::Schedule(std::max(Time(0), *readFrom - Simulator::Now()), startReading);
    }
    else
    {
        socket->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) { Read(s); }));
    }
    socket->Connect(remote);
}

void
RawPeer::ConnectAt(Time at, Ptr<Node> node, const Address& remote)
{
    Simulator::Schedule(at, [this, node, remote]() { Connect(node, remote); });
}

void
RawPeer::Start(Ptr<Node> node,
               const Address& remote,
               Time at,
               const std::string& bytes,
               Time readFrom)
{
    toSend = bytes;
    Simulator::Schedule(at, [this, node, remote, readFrom]() { Connect(node, remote, readFrom); });
}

std::vector<AdcHttpMessage>
RawPeer::Responses(std::vector<uint64_t>* bodies) const
{
    return ParseResponses(rx, bodies, closed);
}

void
RawPeer::Flush(Ptr<Socket> s)
{
    handed += out.Flush(s);
}

void
RawPeer::Read(Ptr<Socket> s)
{
    rx += ReadAll(s);
}

void
RawServer::Listen(Ptr<Node> node)
{
    listener = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    listener->Listen();
    listener->SetAcceptCallback(
        MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
        Callback<void, Ptr<Socket>, const Address&>([this](Ptr<Socket> s, const Address&) {
            conns.push_back(s);
            m_parsers.emplace_back();
            const Callback<void, Ptr<Socket>> read([this](Ptr<Socket> c) { Read(c); });
            if (readFrom <= Simulator::Now())
            {
                s->SetRecvCallback(read);
                return;
            }
            Simulator::Schedule(readFrom - Simulator::Now(), [this, s, read]() {
                s->SetRecvCallback(read);
                Read(s);
                AdcAnnounceWindow(s); // ns-3 would not tell the peer its window opened
            });
        }));
}

void
RawServer::Read(Ptr<Socket> s)
{
    const std::size_t i = std::find(conns.begin(), conns.end(), s) - conns.begin();
    AdcHttpStreamParser& parser = m_parsers.at(i);
    while (Ptr<Packet> p = s->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        received += Text(p);
        parser.Feed(p);
    }
    AdcHttpMessage head;
    while (parser.Next(&head, nullptr))
    {
        requests.push_back(head);
        std::string answer;
        if (reply)
        {
            answer = reply(head);
        }
        else if (!answers.empty())
        {
            answer = answers[next++ % answers.size()];
        }
        else
        {
            continue; // silent
        }
        s->Send(Bytes(answer));
        if (closeAfterAnswer)
        {
            s->Close();
            return;
        }
    }
}

Ptr<AdcLbMethod>
MakeMethod(const std::string& name, uint32_t n, const std::vector<uint32_t>& weights)
{
    Ptr<AdcLbMethod> m = AdcLbMethod::Create(name);
    for (uint32_t i = 0; i < n; ++i)
    {
        AdcBackend b;
        b.name = "S" + std::to_string(i);
        b.address = Ipv4Address(0x0a000100 + i);
        b.port = 80;
        b.weight = weights.empty() ? 1 : weights[i];
        EXPECT_EQ(m->AddBackend(b), i);
    }
    return m;
}

LbRegistrySnapshot::LbRegistrySnapshot()
    : m_names(AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER))
{
}

void
LbRegistrySnapshot::Restore() const
{
    for (const std::string& name : AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER))
    {
        if (std::find(m_names.begin(), m_names.end(), name) == m_names.end())
        {
            AdcLbMethodRegistry::Unregister(name);
        }
    }
}

} // namespace adctest
} // namespace ns3
