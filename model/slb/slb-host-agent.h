/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_HOST_AGENT_H
#define SLB_HOST_AGENT_H

#include "slb-policy.h"

#include "ns3/adc-health-monitor.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>

/**
 * \file
 * \ingroup adc
 * The SLB host agent: runs on every Hyper-V host, programs the host's virtual switch with the
 * policy the SLB manager pushes, probes the host's DIPs and takes Fastpath redirects.
 */

namespace ns3
{

class SlbHostSwitch;
class SlbManager;
class Socket;
class Packet;

/**
 * \ingroup adc
 * \brief The SLB host agent (SLB-11).
 *
 * The SLB manager pushes NAT rules (ApplyNatRule, RemoveNatRule); the agent programs its host's
 * virtual switch (SlbHostSwitch) and probes each DIP it holds with the shared health monitor
 * (TCP connect or HTTP, IntervalInSeconds and NumberOfProbes as the network controller's probe
 * resource names them), reporting every change of a DIP's state to the manager. It listens on
 * RedirectPort for the MUXes' Fastpath redirects and installs those whose client is one of the
 * host's VMs.
 */
class SlbHostAgent : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    SlbHostAgent();
    ~SlbHostAgent() override;

    /**
     * \brief Signature of the "PolicyUpdate" trace source.
     * \param host the host's name
     * \param action e.g. "set-nat TCP 107.105.47.60:80 -> 10.10.10.5:80@192.168.2.11/vlan0"
     */
    typedef void (*PolicyUpdateTracedCallback)(const std::string& host, const std::string& action);

    /**
     * \param sw the host's virtual switch (installed on the same node)
     * \param providerAddress the host's provider address (the MUXes tunnel to it)
     *
     * With CapSegmentSize and the switch's ClampMss on, lowers ns-3's TcpSocket::SegmentSize
     * default to the switch's GetSegmentSizeCap (the model's stand-in for TCP honouring the
     * clamped MSS; "PolicyUpdate" says "cap-segment-size OLD -> NEW").
     */
    void SetSwitch(Ptr<SlbHostSwitch> sw, const AdcIpAddress& providerAddress);
    /// \return the host's virtual switch
    Ptr<SlbHostSwitch> GetSwitch() const;
    /// \return the provider address
    AdcIpAddress GetProviderAddress() const;
    /**
     * \param manager the SLB manager it reports to (not owned)
     * \param name the host's name there
     */
    void SetManager(SlbManager* manager, const std::string& name);
    /// \return the host's name
    const std::string& GetHostName() const;

    /**
     * \brief Check that this host can hold \p dip (a VM port with its address and VNI).
     * \param dip a DIP
     * \throws AdcConfigError naming the DIP and what the host carries
     */
    void ValidateDip(const SlbDip& dip) const;
    /**
     * \brief Program the switch's NAT rule for a local DIP and start probing it.
     * \param vip the VIP
     * \param dip the DIP (on this host)
     */
    void ApplyNatRule(const SlbVipKey& vip, const SlbDip& dip);
    /**
     * \brief Remove the NAT rule (and the probe, once no VIP uses the DIP).
     * \param vip the VIP
     * \param dip the DIP's address
     */
    void RemoveNatRule(const SlbVipKey& vip, const AdcIpAddress& dip);

    /// \brief The host fails: the agent falls silent (no heartbeat, no report) at once.
    void Halt();

    /// \return the health monitor probing the host's DIPs
    Ptr<AdcHealthMonitor> GetMonitor() const;
    /**
     * \brief Fix the random stream of the DIP probes' jitter (the monitor is created with the
     * first policy; without this its stream is assigned automatically then).
     * \param stream the stream number
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);
    /// \return Fastpath redirects installed
    uint64_t GetRedirectsInstalled() const;
    /// \return redirect datagrams dropped (malformed, or for no local VM), by reason
    const std::map<std::string, uint64_t>& GetRedirectDrops() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Send a heartbeat to the manager and schedule the next.
    void SendHeartbeat();
    /// Create the DIP monitor (on first use) and add it to the node.
    void EnsureMonitor();
    /// \param socket the redirect socket: read the datagrams
    void HandleRedirect(Ptr<Socket> socket);
    /// \param index a monitor target \param from old state \param to new state
    void HealthChanged(uint32_t index, AdcHealthMonitor::State from, AdcHealthMonitor::State to);
    /// \param reason why a redirect datagram was dropped: count it
    void DropRedirect(const std::string& reason);

    Ptr<SlbHostSwitch> m_switch;                     //!< the host's switch
    AdcIpAddress m_pa;                               //!< provider address
    SlbManager* m_manager{nullptr};                  //!< reports go here
    std::string m_name;                              //!< host name
    Ptr<AdcHealthMonitor> m_monitor;                 //!< DIP probes
    int64_t m_stream{-1};                            //!< AssignStreams's, -1: automatic
    std::map<AdcIpAddress, uint32_t> m_probeIndex;   //!< DIP -> monitor target
    std::map<AdcIpAddress, uint32_t> m_ruleCount;    //!< DIP -> NAT rules using it
    std::map<uint32_t, AdcIpAddress> m_probeDip;     //!< monitor target -> DIP
    Ptr<Socket> m_redirectSocket;                    //!< Fastpath redirects (IPv4 and IPv6 sockets)
    Ptr<Socket> m_redirectSocket6;                   //!< IPv6 redirects
    uint16_t m_redirectPort{8572};                   //!< attribute RedirectPort
    bool m_capSegmentSize{true};                     //!< attribute CapSegmentSize
    std::string m_probeProtocol;                     //!< attribute ProbeProtocol
    std::string m_probePath;                         //!< attribute RequestPath
    Time m_probeInterval;                            //!< attribute IntervalInSeconds
    uint32_t m_numberOfProbes{2};                    //!< attribute NumberOfProbes
    Time m_heartbeatInterval;                        //!< attribute HeartbeatInterval
    EventId m_heartbeat;                             //!< the next heartbeat
    uint64_t m_redirects{0};                         //!< installed
    std::map<std::string, uint64_t> m_redirectDrops; //!< by reason
    TracedCallback<const std::string&, const std::string&> m_policyTrace; //!< PolicyUpdate
};

} // namespace ns3

#endif /* SLB_HOST_AGENT_H */
