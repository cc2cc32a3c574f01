/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: health monitors (PING, TCP, UDP, HTTP probes) that decide whether a back-end is UP.
 */

#ifndef ADC_HEALTH_MONITOR_H
#define ADC_HEALTH_MONITOR_H

#include "adc-health-probe.h"

#include "ns3/adc-flow-key.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class Node;
class Packet;
class UniformRandomVariable;

/**
 * \ingroup adc
 * \brief A health monitor: an application on the appliance's node that probes back-ends and
 * keeps a per-target UP/DOWN state, like a NetScaler monitor bound to services.
 *
 * Kinds (attribute "Type"):
 * - PING: ICMP echo (ICMPv6 echo for IPv6 targets) over a raw socket of the family, opened on
 *   the first probe to such a target; success on the matching echo reply ("echo-reply"); an
 *   ICMPv4 destination-unreachable quoting the echo fails it ("icmp-host-unreachable", ...).
 * - TCP: a connection attempt; success when it is established ("connected", then closed); a RST
 *   answering the SYN fails it ("connection-refused"). ns-3 3.37's TcpSocketBase ignores a
 *   RST+ACK in SYN_SENT, so the probe spots that RST on the node's Ipv4L3Protocol /
 *   Ipv6L3Protocol "LocalDeliver" trace (ports and flags only) while a connect is pending.
 * - UDP: UdpPayload in one datagram; success on any reply ("udp-reply"); an ICMP port
 *   unreachable fails it ("icmp-port-unreachable"); silence until the timeout is success
 *   ("no-reply") unless UdpRequireReply, then failure ("timeout").
 * - HTTP: a connection, the request "HttpRequest" with a Host header, then the status line:
 *   success iff status == HttpExpectedStatus ("http-status-NNN" either way; a malformed reply
 *   is "http-parse-error", a close before a whole reply "http-connection-closed").
 * Any probe without an outcome after ResponseTimeout fails with "timeout" (UDP: see above).
 *
 * Timing: a target's probes start exactly Interval apart (DownTime apart while the target is
 * DOWN), measured from the start of the previous probe, plus an optional uniform jitter in
 * [0, Jitter). Only one probe per target is in flight: ResponseTimeout < Interval, DownTime.
 * All targets' first probes go out when the application starts (or when added later).
 *
 * State machine (per target): UNKNOWN -> UP on the first success; UNKNOWN or UP -> DOWN after
 * Retries consecutive failures; DOWN -> UP after SuccessRetries consecutive successes.
 * InitialState defaults to UNKNOWN: the model cannot know a back-end's health before probing
 * it, and NetScaler itself reports a new service as neither UP nor DOWN until the first probe
 * answers; owners decide whether UNKNOWN may receive traffic. Every start resets the states
 * to InitialState.
 */
class AdcHealthMonitor : public Application
{
  public:
    /// Probe kind.
    enum ProbeType
    {
        PING, //!< ICMP / ICMPv6 echo
        TCP,  //!< TCP connection
        UDP,  //!< UDP datagram
        HTTP  //!< HTTP request, status code checked
    };

    /// A target's health.
    enum class State : uint8_t
    {
        UNKNOWN, //!< not probed conclusively yet
        UP,      //!< healthy
        DOWN     //!< failed Retries probes in a row
    };

    /// \return "UNKNOWN", "UP" or "DOWN"
    static std::string ToString(State state);
    /// \return "PING", "TCP", "UDP" or "HTTP"
    static std::string ToString(ProbeType type);

    /**
     * \brief Signature of the "StateChange" trace source.
     * \param index the target's index
     * \param targetName the target's name
     * \param oldState the state before
     * \param newState the state after
     */
    typedef void (*StateChangeTracedCallback)(uint32_t index,
                                              const std::string& targetName,
                                              State oldState,
                                              State newState);

    /**
     * \brief Signature of the "Probe" trace source (one call per finished probe).
     * \param index the target's index
     * \param targetName the target's name
     * \param success whether the probe succeeded
     * \param rtt time from sending the probe to its outcome (ResponseTimeout on a timeout)
     * \param reason e.g. "echo-reply", "timeout", "connection-refused", "http-status-503"
     */
    typedef void (*ProbeTracedCallback)(uint32_t index,
                                        const std::string& targetName,
                                        bool success,
                                        Time rtt,
                                        const std::string& reason);

    /**
     * \brief Signature of the "Drop" trace source.
     * \param packet the received packet that could not be used
     * \param reason why, e.g. "icmp-truncated", "icmp-late-reply"
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /// Owner notification: target index, old state, new state.
    typedef Callback<void, uint32_t, State, State> StateChangeCallback;

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcHealthMonitor();
    ~AdcHealthMonitor() override;

    /**
     * \brief Add a target; may be called before or while the application runs.
     * \param address the target's address (IPv4 or IPv6)
     * \param port the target's service port (used unless DestinationPort is set)
     * \param name the target's name, shown in traces
     * \return the target's index (0, 1, ...)
     */
    uint32_t AddTarget(const AdcIpAddress& address, uint16_t port, const std::string& name);

    /**
     * \param index a target index
     * \return the target's current state
     */
    State GetState(uint32_t index) const;

    /// \return the number of targets
    uint32_t GetNTargets() const;

    /**
     * \brief Start or stop probing one target without forgetting it (its state stays). A
     * disabled target gets no probes: its probe in flight is abandoned, unreported, and its
     * next probe cancelled. Enabling a disabled target sends its first probe \p delay later
     * (when the application runs; otherwise at the start). GSLB's LDNS probing uses this to
     * move an LDNS from one probe kind's monitor to the next.
     * \param index a target index
     * \param enabled whether it is probed
     * \param delay when enabling: the wait before its first probe
     */
    void SetTargetEnabled(uint32_t index, bool enabled, Time delay = Seconds(0));

    /// \param index a target index \return whether it is probed
    bool IsTargetEnabled(uint32_t index) const;

    /**
     * \param index a target index
     * \return the target's name
     */
    const std::string& GetTargetName(uint32_t index) const;

    /**
     * \brief Set the owner's notification (e.g. an appliance stops sending to DOWN back-ends).
     * \param cb called on every actual state change
     */
    void SetStateChangeCallback(StateChangeCallback cb);

    /**
     * \brief Use this probe kind instead of the one "Type" names (extension point for kinds
     * defined elsewhere, e.g. the GSLB's DNS probe). Must be called before the start.
     * \param probe the probe kind
     */
    void SetProbe(Ptr<AdcHealthProbe> probe);

    /**
     * \brief Check the configuration; StartApplication calls it too.
     * Rules: Interval > 0; 0 < ResponseTimeout < Interval; DownTime > ResponseTimeout;
     * Retries >= 1; SuccessRetries >= 1; Jitter >= 0; PingDataSize <= 65000; for TCP, UDP and
     * HTTP every target has a port (its own or DestinationPort); for HTTP, HttpRequest is
     * "METHOD path" and HttpExpectedStatus is 100..599.
     * \throws AdcConfigError naming the attribute, the value and the rule
     */
    void Validate() const;

    /**
     * \brief Fix the random stream used for Jitter.
     * \param stream first stream index
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// One target and its state machine.
    struct TargetEntry
    {
        AdcHealthProbe::Target target; //!< address, own port, name
        State state{State::UNKNOWN};   //!< current state
        uint32_t failures{0};          //!< consecutive failed probes
        uint32_t successes{0};         //!< consecutive successful probes
        bool inFlight{false};          //!< a probe awaits its outcome
        bool enabled{true};            //!< probed (SetTargetEnabled)
        Time sentAt;                   //!< when the probe in flight was sent
        EventId timeoutEvent;          //!< ResponseTimeout of the probe in flight
        EventId nextEvent;             //!< the next probe
    };

    void StartApplication() override;
    void StopApplication() override;

    /// \return a new probe kind for "Type"
    Ptr<AdcHealthProbe> CreateProbe() const;
    /// \return a number telling this monitor from others on its node
    uint16_t ComputeInstanceId() const;
    /// \return the target's entry; throws AdcConfigError when out of range
    const TargetEntry& Entry(uint32_t index) const;
    /// Reset a target's state machine to InitialState.
    void ResetEntry(TargetEntry& entry) const;
    /// Schedule a target's next probe \p delay (plus jitter) from now.
    void ScheduleProbe(uint32_t index, Time delay);
    /// Send a probe to target \p index.
    void SendProbe(uint32_t index);
    /// The probe to \p index timed out.
    void ProbeTimeout(uint32_t index);
    /// A probe kind's outcome for \p index.
    void ProbeResult(uint32_t index, bool success, const std::string& reason);
    /// A probe kind's dropped packet.
    void ProbeDrop(Ptr<const Packet> packet, const std::string& reason);
    /// Apply one outcome to the state machine; fires StateChange on a change.
    void UpdateState(uint32_t index, bool success);

    // Attributes
    ProbeType m_type;              //!< probe kind
    std::string m_name;            //!< monitor name
    std::string m_typeName;        //!< "TypeName"
    Time m_interval;               //!< probe spacing while not DOWN
    Time m_responseTimeout;        //!< probe timeout
    uint32_t m_retries;            //!< failures that mark DOWN
    uint32_t m_successRetries;     //!< successes that mark a DOWN target UP
    Time m_downTime;               //!< probe spacing while DOWN
    Time m_jitter;                 //!< max random delay added to each spacing
    uint16_t m_destinationPort;    //!< 0: the target's own port
    std::string m_httpRequest;     //!< "METHOD path"
    uint16_t m_httpExpectedStatus; //!< the status an UP HTTP target returns
    std::string m_udpPayload;      //!< UDP probe payload
    bool m_udpRequireReply;        //!< UDP: silence is failure
    uint32_t m_pingDataSize;       //!< ICMP echo data bytes
    int m_initialState;            //!< State as int (attribute storage)

    std::vector<TargetEntry> m_targets;        //!< targets, by index
    Ptr<AdcHealthProbe> m_probe;               //!< the running probe kind
    Ptr<AdcHealthProbe> m_customProbe;         //!< set by SetProbe
    bool m_running;                            //!< between start and stop
    Ptr<UniformRandomVariable> m_jitterRng;    //!< jitter draws
    StateChangeCallback m_stateChangeCallback; //!< owner notification

    TracedCallback<uint32_t, const std::string&, State, State> m_stateChangeTrace; //!< StateChange
    TracedCallback<uint32_t, const std::string&, bool, Time, const std::string&>
        m_probeTrace;                                                  //!< Probe
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< Drop
};

/// Stream a state as its name.
std::ostream& operator<<(std::ostream& os, AdcHealthMonitor::State state);

} // namespace ns3

#endif /* ADC_HEALTH_MONITOR_H */
