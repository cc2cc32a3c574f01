/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-throughput-sampler.h"

#include "adc-mpi.h"

#include "ns3/adc-config-error.h"
#include "ns3/address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcThroughputSampler");

NS_OBJECT_ENSURE_REGISTERED(AdcThroughputSampler);

// ---------------------------------------------------------------------------------------------
// AdcThroughputSampler

void
AdcThroughputSampler::Counter::OnDevicePacket(Ptr<const Packet> p)
{
    total += p->GetSize();
}

void
AdcThroughputSampler::Counter::OnAppPacket(Ptr<const Packet> p, const Address& /* from */)
{
    total += p->GetSize();
}

TypeId
AdcThroughputSampler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcThroughputSampler")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcThroughputSampler>()
            .AddAttribute("Interval",
                          "Sampling interval.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&AdcThroughputSampler::m_interval),
                          MakeTimeChecker())
            .AddAttribute("FileName",
                          "CSV file written from Start() on; empty for none.",
                          StringValue(""),
                          MakeStringAccessor(&AdcThroughputSampler::m_fileName),
                          MakeStringChecker())
            .AddTraceSource("Sample",
                            "One sample of one watched item and direction (one CSV row).",
                            MakeTraceSourceAccessor(&AdcThroughputSampler::m_sampleTrace),
                            "ns3::AdcThroughputSampler::SampleTracedCallback");
    return tid;
}

AdcThroughputSampler::AdcThroughputSampler()
{
    NS_LOG_FUNCTION(this);
}

AdcThroughputSampler::~AdcThroughputSampler()
{
    NS_LOG_FUNCTION(this);
}

void
AdcThroughputSampler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    // The callbacks point at our counters: they must not outlive them.
    for (const Connection& c : m_connections)
    {
        c.object->TraceDisconnectWithoutContext(c.trace, c.cb);
    }
    m_connections.clear();
    Close();
    Object::DoDispose();
}

AdcThroughputSampler::Counter*
AdcThroughputSampler::AddCounter(const std::string& name, const std::string& direction, bool isApp)
{
    const auto key = std::make_pair(name, direction);
    if (name == AGGREGATE_NAME || m_byName.count(key) > 0)
    {
        throw AdcConfigError("AdcThroughputSampler: name '" + name +
                             "' is already used (or is "
                             "the reserved '" +
                             AGGREGATE_NAME +
                             "'); give each watched item a "
                             "unique name");
    }
    m_counters.push_back(std::make_unique<Counter>());
    Counter* c = m_counters.back().get();
    c->name = name;
    c->direction = direction;
    c->isApp = isApp;
    m_byName[key] = c;
    return c;
}

void
AdcThroughputSampler::Connect(Ptr<Object> obj, const std::string& trace, const CallbackBase& cb)
{
    if (!obj->TraceConnectWithoutContext(trace, cb))
    {
        throw AdcConfigError("AdcThroughputSampler: " + obj->GetInstanceTypeId().GetName() +
                             " has no trace source '" + trace + "'");
    }
    m_connections.push_back({obj, trace, cb});
}

void
AdcThroughputSampler::WatchDevice(Ptr<NetDevice> dev, const std::string& name)
{
    NS_LOG_FUNCTION(this << dev << name);
    NS_ABORT_MSG_UNLESS(dev, "AdcThroughputSampler::WatchDevice: null device");
    if (!AdcMpi::IsLocal(dev->GetNode()))
    {
        return; // under MPI, the rank that simulates the node samples it
    }
    Counter* rx = AddCounter(name, "rx", false);
    Counter* tx = AddCounter(name, "tx", false);
    Connect(dev, "MacRx", MakeCallback(&Counter::OnDevicePacket, rx));
    Connect(dev, "MacTx", MakeCallback(&Counter::OnDevicePacket, tx));
}

void
AdcThroughputSampler::WatchApplication(Ptr<Application> app,
                                       const std::string& name,
                                       const std::string& traceName)
{
    NS_LOG_FUNCTION(this << app << name << traceName);
    NS_ABORT_MSG_UNLESS(app, "AdcThroughputSampler::WatchApplication: null application");
    if (!AdcMpi::IsLocal(app->GetNode()))
    {
        return; // under MPI, the rank that simulates the node samples it
    }
    Counter* rx = AddCounter(name, "rx", true);
    Connect(app, traceName, MakeCallback(&Counter::OnAppPacket, rx));
}

void
AdcThroughputSampler::Start(Time start, Time stop)
{
    NS_LOG_FUNCTION(this << start << stop);
    if (!m_interval.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcThroughputSampler: Interval " +
                             AdcCsvWriter::FormatSeconds(m_interval) + " s must be positive");
    }
    if (start < Simulator::Now() || stop <= start)
    {
        throw AdcConfigError("AdcThroughputSampler: window [" + AdcCsvWriter::FormatSeconds(start) +
                             ", " + AdcCsvWriter::FormatSeconds(stop) +
                             "] s must not start in the past and must end after it starts");
    }
    if (!m_fileName.empty())
    {
        m_csv = std::make_unique<AdcCsvWriter>(
            m_fileName,
            std::vector<std::string>{"time_s", "name", "direction", "bytes", "throughput_bps"});
    }
    m_stop = stop;
    m_event.Cancel();
    m_event = Simulator::Schedule(start - Simulator::Now(), &AdcThroughputSampler::Begin, this);
}

void
AdcThroughputSampler::Begin()
{
    for (auto& c : m_counters)
    {
        c->reported = c->total;
    }
    m_last = Simulator::Now();
    m_event = Simulator::Schedule(std::min(m_interval, m_stop - m_last),
                                  &AdcThroughputSampler::Sample,
                                  this);
}

void
AdcThroughputSampler::Emit(Time now,
                           const std::string& name,
                           const std::string& dir,
                           uint64_t bytes,
                           double seconds)
{
    const double bps = static_cast<double>(bytes) * 8.0 / seconds;
    if (m_csv)
    {
        m_csv->WriteRow({AdcCsvWriter::FormatSeconds(now),
                         name,
                         dir,
                         std::to_string(bytes),
                         AdcCsvWriter::FormatFixed(bps, 3)});
    }
    m_sampleTrace(now, name, dir, bytes, bps);
}

void
AdcThroughputSampler::Sample()
{
    const Time now = Simulator::Now();
    const double seconds = (now - m_last).GetSeconds();
    uint64_t appBytes = 0;
    bool anyApp = false;
    for (auto& c : m_counters)
    {
        const uint64_t delta = c->total - c->reported;
        c->reported = c->total;
        Emit(now, c->name, c->direction, delta, seconds);
        if (c->isApp)
        {
            appBytes += delta;
            anyApp = true;
        }
    }
    if (anyApp)
    {
        Emit(now, AGGREGATE_NAME, "rx", appBytes, seconds);
    }
    m_last = now;
    ++m_nSamples;
    if (now < m_stop)
    {
        m_event = Simulator::Schedule(std::min(m_interval, m_stop - now),
                                      &AdcThroughputSampler::Sample,
                                      this);
    }
    else if (m_csv)
    {
        m_csv->Flush();
    }
}

uint64_t
AdcThroughputSampler::GetTotalBytes(const std::string& name, const std::string& direction) const
{
    if (name == AGGREGATE_NAME && direction == "rx")
    {
        uint64_t sum = 0;
        for (const auto& c : m_counters)
        {
            sum += c->isApp ? c->total : 0;
        }
        return sum;
    }
    const auto it = m_byName.find({name, direction});
    if (it == m_byName.end())
    {
        throw AdcConfigError("AdcThroughputSampler: nothing watched as '" + name + "' direction '" +
                             direction + "'");
    }
    return it->second->total;
}

uint32_t
AdcThroughputSampler::GetNSamples() const
{
    return m_nSamples;
}

void
AdcThroughputSampler::Close()
{
    if (m_csv)
    {
        m_csv->Close();
    }
}

} // namespace ns3
