/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the NetScaler service, the one back-end object every subject speaks: address, port,
 * service type, weight, admin state, health state from its bound monitors, counters.
 */

#ifndef ADC_SERVICE_H
#define ADC_SERVICE_H

#include "adc-health-monitor.h"

#include "ns3/adc-flow-key.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A NetScaler service (`add service <name> <IP> <serviceType> <port>`): one back-end.
 *
 * State, as NetScaler shows it:
 * - OUT_OF_SERVICE while the admin state is DISABLED (`disable service`);
 * - otherwise the health from the bound monitors. NetScaler's default monitor threshold (0)
 *   with monitor weights 1 marks a service DOWN as soon as one bound monitor marks it DOWN, and
 *   UP when all of them mark it UP; before every monitor has answered, it is UNKNOWN (NetScaler
 *   shows a new service as neither UP nor DOWN until its first probe answers). A service with
 *   no monitor bound, or with "HealthMonitor" false (`-healthMonitor NO`), is UP.
 * Only an UP service gets new connections, and only while it has fewer open connections than
 * "MaxClient" (0: no limit).
 *
 * A monitor bound with BindMonitor probes the service's address and port as one of its
 * targets; the monitor must run as an application on the appliance's node (the subject's
 * helper installs it). "StateChange" fires on every change of GetState().
 */
class AdcService : public Object
{
  public:
    /// Administrative state (`enable service`, `disable service`).
    enum AdminState
    {
        ENABLED, //!< in service
        DISABLED //!< out of service by configuration
    };

    /// What a service is, as NetScaler's `show service` says.
    enum class State : uint8_t
    {
        UP,            //!< enabled and healthy
        DOWN,          //!< enabled, a bound monitor says DOWN
        UNKNOWN,       //!< enabled, not every bound monitor has answered yet
        OUT_OF_SERVICE //!< disabled
    };

    /// \param state a state \return "UP", "DOWN", "UNKNOWN" or "OUT OF SERVICE"
    static std::string ToString(State state);

    /**
     * \brief Signature of "StateChange".
     * \param name the service's name
     * \param oldState the state before
     * \param newState the state after
     */
    typedef void (*StateChangeTracedCallback)(const std::string& name,
                                              State oldState,
                                              State newState);

    /// The "StateChange" trace of a service, and of what reports state as services do
    /// (virtual servers).
    typedef TracedCallback<const std::string&, State, State> StateTrace;

    /**
     * \brief Fire \p trace with (name, last, now) when \p now differs from \p last, and
     * remember \p now as the last state reported.
     * \param name whose state
     * \param now the state now
     * \param last the state reported last (updated)
     * \param trace the trace to fire
     */
    static void ReportState(const std::string& name,
                            State now,
                            State& last,
                            const StateTrace& trace);

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcService();
    ~AdcService() override;

    /**
     * \return NetScaler's service types this model knows, in the order messages list them:
     * HTTP SSL TCP UDP SSL_BRIDGE SSL_TCP RTSP SIP_UDP ANY (SSL is the requirements' HTTPS)
     */
    static const std::vector<std::string>& GetServiceTypes();

    /**
     * \param type a service type (any case)
     * \param owner who asks, for the message
     * \return its canonical (upper-case) name
     * \throws AdcConfigError "owner: serviceType 'x' is not one of HTTP, SSL, ..."
     */
    static std::string CheckServiceType(const std::string& type, const std::string& owner);

    /**
     * \param weight a weight
     * \param owner who asks, for the message
     * \throws AdcConfigError unless 1 <= weight <= 100 (NetScaler's range)
     */
    static void CheckWeight(uint32_t weight, const std::string& owner);

    /**
     * \brief Set what the service is.
     * \param name its name (unique among the services of a configuration)
     * \param address the back-end's address
     * \param serviceType one of GetServiceTypes()
     * \param port the back-end's port; 0 is NetScaler's "*" (any port, service type ANY)
     */
    void Configure(const std::string& name,
                   const AdcIpAddress& address,
                   const std::string& serviceType,
                   uint16_t port);

    /// \return the name
    const std::string& GetName() const;
    /// \return the back-end's address
    const AdcIpAddress& GetAddress() const;
    /// \return the service type (canonical)
    const std::string& GetServiceType() const;
    /// \return the port (0: "*")
    uint16_t GetPort() const;
    /// \return the weight bindings use unless they give their own
    uint32_t GetWeight() const;
    /// \return the admin state
    AdminState GetAdminState() const;
    /// \return "MaxClient" (0: no limit)
    uint32_t GetMaxClient() const;
    /// \return "Cip": whether requests carry the client IP in a header
    bool GetCip() const;
    /// \return "CipHeader": the header's name ("" = the appliance's default header)
    const std::string& GetCipHeader() const;
    /// \return "UseProxyPort"
    bool GetUseProxyPort() const;
    /// \return "Usip"
    bool GetUsip() const;
    /// \return "HealthMonitor"
    bool GetHealthMonitor() const;

    /// \param state the admin state (same as attribute "AdminState"); fires "StateChange"
    void SetAdminState(AdminState state);
    /// \param on whether monitors decide the state ("HealthMonitor"); fires "StateChange"
    void SetHealthMonitor(bool on);

    /// `enable service`: admin state ENABLED
    void Enable();
    /// `disable service`: admin state DISABLED (the service is OUT_OF_SERVICE)
    void Disable();

    /**
     * \brief Bind a monitor (`bind service <name> -monitorName <m>`): the monitor probes this
     * service's address and port, and its verdicts decide the health.
     * \param monitor the monitor (bound once; binding it again changes nothing)
     */
    void BindMonitor(Ptr<AdcHealthMonitor> monitor);

    /**
     * \brief Unbind a monitor: its verdicts no longer count (the monitor keeps the target,
     * since monitors have no way to drop one, but the service ignores it).
     * \param monitor a bound monitor
     * \return false when it was not bound
     */
    bool UnbindMonitor(Ptr<AdcHealthMonitor> monitor);

    /// \return the bound monitors, in binding order
    std::vector<Ptr<AdcHealthMonitor>> GetMonitors() const;

    /**
     * \brief Health reported by a source other than this node's monitors, e.g. GSLB's metric
     * exchange (MEP) giving the state of a remote site's service. It combines with the
     * monitors' as one more bound monitor would: DOWN wins, then UNKNOWN. Fires "StateChange".
     * \param state UP, DOWN or UNKNOWN; ClearExternalHealth removes the report
     */
    void SetExternalHealth(State state);
    /// \brief Forget the external report (SetExternalHealth); fires "StateChange"
    void ClearExternalHealth();
    /// \return whether an external report is set
    bool HasExternalHealth() const;

    /// \return the health the monitors (and an external report) give: UP, DOWN or UNKNOWN
    State GetHealth() const;
    /// \return OUT_OF_SERVICE when disabled, else GetHealth()
    State GetState() const;
    /// \return true when GetState() is UP
    bool IsUp() const;
    /**
     * \param unknownIsUp whether UNKNOWN (monitors bound, not all answered yet) takes traffic
     * \return true when GetState() is UP, or UNKNOWN and \p unknownIsUp
     */
    bool IsUp(bool unknownIsUp) const;
    /**
     * \param state a state, e.g. one "StateChange" reported
     * \param unknownIsUp whether UNKNOWN takes traffic
     * \return true when \p state is UP, or UNKNOWN and \p unknownIsUp
     */
    static bool IsUp(State state, bool unknownIsUp);
    /// \return true when a new connection fits under "MaxClient"
    bool HasCapacity() const;

    /// A virtual server chose this service for a request or new flow.
    void CountSelection();
    /// A connection to this service opened.
    void ConnectionOpened();
    /// A connection to this service closed (never goes below 0).
    void ConnectionClosed();

    /// \return how many times a virtual server chose this service
    uint64_t GetSelections() const;
    /// \return connections open now
    uint32_t GetCurrentConnections() const;
    /// \return connections opened in total
    uint64_t GetTotalConnections() const;

  protected:
    void DoDispose() override;

  private:
    /// One bound monitor and what it says about this service.
    struct MonitorBinding
    {
        Ptr<AdcHealthMonitor> monitor; //!< the monitor
        uint32_t target;               //!< this service's target index in it
        AdcHealthMonitor::State state; //!< its last verdict
        bool bound;                    //!< false after UnbindMonitor
    };

    /// The monitor of binding \p context (its index, as text) changed a target's state.
    void MonitorStateChanged(std::string context,
                             uint32_t target,
                             const std::string& targetName,
                             AdcHealthMonitor::State oldState,
                             AdcHealthMonitor::State newState);

    /// Fire "StateChange" when GetState() differs from the last state reported.
    void Update();

    std::string m_name;                     //!< name
    AdcIpAddress m_address;                 //!< back-end address
    std::string m_serviceType{"HTTP"};      //!< service type
    uint16_t m_port{0};                     //!< port (0: "*")
    uint32_t m_weight{1};                   //!< "Weight"
    AdminState m_adminState{ENABLED};       //!< "AdminState"
    uint32_t m_maxClient{0};                //!< "MaxClient"
    bool m_cip{false};                      //!< "Cip"
    std::string m_cipHeader;                //!< "CipHeader"
    bool m_useProxyPort{true};              //!< "UseProxyPort"
    bool m_usip{false};                     //!< "Usip"
    bool m_healthMonitor{true};             //!< "HealthMonitor"
    bool m_hasExternal{false};              //!< SetExternalHealth was called
    State m_external{State::UP};            //!< the external report
    std::vector<MonitorBinding> m_monitors; //!< bound monitors
    State m_reported{State::UP};            //!< the state "StateChange" reported last
    uint64_t m_selections{0};               //!< counter
    uint32_t m_currentConnections{0};       //!< counter
    uint64_t m_totalConnections{0};         //!< counter
    StateTrace m_stateTrace;                //!< "StateChange"
};

/// Stream a state as its name.
std::ostream& operator<<(std::ostream& os, AdcService::State state);

} // namespace ns3

#endif /* ADC_SERVICE_H */
