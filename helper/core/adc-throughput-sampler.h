/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: a periodic throughput sampler over devices and applications.
 */

#ifndef ADC_THROUGHPUT_SAMPLER_H
#define ADC_THROUGHPUT_SAMPLER_H

#include "adc-csv-writer.h"

#include "ns3/adc-request-record.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class Address;
class Packet;

/**
 * \ingroup adc
 * \brief Samples bytes sent and received at devices and applications every Interval and writes
 * one CSV row per watched item, direction and interval.
 *
 * CSV columns: time_s,name,direction,bytes,throughput_bps. time_s is the end of the interval;
 * bytes are those counted during it; throughput_bps = bytes * 8 / interval length. Rows are
 * ordered by time, then by the order items were watched (a device gives "rx" then "tx"); when
 * applications are watched, each interval ends with a row named "ALL" (direction "rx") holding
 * the sum of all applications' received bytes. Device bytes are whole frames as the device's
 * MacTx / MacRx trace sources see them; application bytes are packet payloads.
 *
 * Under MPI (AdcMpi) each rank samples the items of its own nodes into its own file
 * (NAME.rankK.csv) and "ALL" sums that rank's applications; ./adc run --ranks merges the files
 * and adds up the ranks' "ALL" rows of each interval (utils/adc-merge-ranks.py).
 */
class AdcThroughputSampler : public Object
{
  public:
    /**
     * \brief Signature of the "Sample" trace source: one per CSV row.
     * \param time end of the interval
     * \param name watched item (or "ALL")
     * \param direction "rx" or "tx"
     * \param bytes bytes counted in the interval
     * \param throughputBps bytes * 8 / interval length in seconds
     */
    typedef void (*SampleTracedCallback)(Time time,
                                         const std::string& name,
                                         const std::string& direction,
                                         uint64_t bytes,
                                         double throughputBps);

    /// Name of the aggregate row of all watched applications.
    static constexpr const char* AGGREGATE_NAME = "ALL";

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcThroughputSampler();
    ~AdcThroughputSampler() override;

    /**
     * \brief Count the bytes a device receives ("rx", MacRx) and sends ("tx", MacTx).
     * \param dev the device (CSMA and point-to-point devices have both trace sources)
     * \param name name in the CSV (unique among watched items)
     * \throw AdcConfigError when the name is taken or the device lacks the trace sources
     */
    void WatchDevice(Ptr<NetDevice> dev, const std::string& name);
    /**
     * \brief Count the bytes an application receives ("rx").
     * \param app the application
     * \param name name in the CSV (unique among watched items)
     * \param traceName trace source with signature (Ptr<const Packet>, const Address&)
     * \throw AdcConfigError when the name is taken or the trace source does not exist
     */
    void WatchApplication(Ptr<Application> app,
                          const std::string& name,
                          const std::string& traceName = "Rx");
    /**
     * \brief Schedule sampling: counters restart at \p start, a sample every Interval until
     * \p stop (a shorter last interval ends exactly at \p stop). Opens FileName when set.
     * \param start time of the first interval's beginning
     * \param stop time of the last sample
     * \throw AdcConfigError on a bad interval or window, or when the file cannot be opened
     */
    void Start(Time start, Time stop);

    /**
     * \param name watched item, or "ALL" for the sum over applications
     * \param direction "rx" or "tx"
     * \return bytes counted since the item was watched
     * \throw AdcConfigError for an unknown name/direction
     */
    uint64_t GetTotalBytes(const std::string& name, const std::string& direction) const;
    /// \return number of samples taken so far (intervals closed)
    uint32_t GetNSamples() const;
    /// \brief Flush and close the CSV file.
    void Close();

  protected:
    void DoDispose() override;

  private:
    /// One counted (item, direction).
    struct Counter
    {
        std::string name;      //!< item name
        std::string direction; //!< "rx" or "tx"
        bool isApp{false};     //!< counts an application's received bytes
        uint64_t total{0};     //!< bytes since watched
        uint64_t reported{0};  //!< total at the last sample

        /// \param p a packet seen at a device
        void OnDevicePacket(Ptr<const Packet> p);
        /// \param p a packet received by an application \param from its source
        void OnAppPacket(Ptr<const Packet> p, const Address& from);
    };

    /// A trace connection to undo on dispose (the callbacks hold raw counter pointers).
    struct Connection
    {
        Ptr<Object> object; //!< traced object
        std::string trace;  //!< trace source name
        CallbackBase cb;    //!< connected callback
    };

    /// \param name item \param direction dir \param isApp app counter \return the new counter
    Counter* AddCounter(const std::string& name, const std::string& direction, bool isApp);
    /// \param obj object \param trace source \param cb callback: connect or throw
    void Connect(Ptr<Object> obj, const std::string& trace, const CallbackBase& cb);
    /// \brief Restart the interval counting at the window's start.
    void Begin();
    /// \brief Close an interval: write and fire one row per counter, schedule the next.
    void Sample();
    /// \param now sample time \param c counter name \param dir direction \param bytes bytes
    /// \param seconds interval length
    void Emit(Time now,
              const std::string& c,
              const std::string& dir,
              uint64_t bytes,
              double seconds);

    Time m_interval;                                  //!< sampling interval
    std::string m_fileName;                           //!< CSV file (empty: no file)
    Time m_stop;                                      //!< last sample time
    Time m_last;                                      //!< previous sample time
    EventId m_event;                                  //!< next sample or begin
    uint32_t m_nSamples{0};                           //!< samples taken
    std::vector<std::unique_ptr<Counter>> m_counters; //!< in watch order
    std::map<std::pair<std::string, std::string>, const Counter*> m_byName; //!< lookup
    std::vector<Connection> m_connections; //!< to disconnect on dispose
    std::unique_ptr<AdcCsvWriter> m_csv;   //!< output file
    TracedCallback<Time, const std::string&, const std::string&, uint64_t, double>
        m_sampleTrace; //!< "Sample"
};

} // namespace ns3

#endif /* ADC_THROUGHPUT_SAMPLER_H */
