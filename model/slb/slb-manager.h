/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_MANAGER_H
#define SLB_MANAGER_H

#include "slb-policy.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The network controller's SLB manager: the northbound API of the SDN software load balancer.
 */

namespace ns3
{

class AdcBgpSpeaker;
class Node;
class SlbMux;
class SlbHostAgent;

/**
 * \ingroup adc
 * \brief The SLB manager of the network controller (SLB-09).
 *
 * It takes commands through its northbound API (these methods, and the text commands of
 * AdcSlbCommands), keeps the SLB policy (VIPs, their DIPs, the hosts holding them, the MUX
 * pool), and distributes it: to every MUX in service (SlbMux::SetVip, the VM-to-host map for
 * Fastpath, and the VIP routes its BGP speaker announces) and to the host agent of each DIP's
 * host (its NAT rule and health probe). Every push reaches its target PolicyDelay after the
 * change. Host agents report DIP health back (SlbHostAgent's reports, ReportDelay later here); the
 * manager aggregates it, pushes it to the MUXes and reports the health of the whole SLB
 * infrastructure (PrintHealth).
 *
 * One manager supports at most 8 MUXes (kMaxMuxes), as Microsoft's SLB manager does.
 *
 * The manager is the management plane: it reaches the MUXes and hosts with scheduled calls
 * (the modelled delay), not packets; the data plane's per-packet state travels in headers.
 */
class SlbManager : public Object
{
  public:
    /// MUXes one SLB manager supports.
    static constexpr std::size_t kMaxMuxes = 8;

    /// \return the TypeId
    static TypeId GetTypeId();

    SlbManager();
    ~SlbManager() override;

    /**
     * \brief Signature of the "PolicyPush" trace source.
     * \param target "mux:NAME" or "host:NAME"
     * \param action what was pushed, e.g. "set-vip TCP 107.105.47.60:80 dips=2"
     */
    typedef void (*PolicyPushTracedCallback)(const std::string& target, const std::string& action);

    /**
     * \brief Signature of the "HealthChange" trace source.
     * \param vip the VIP's name
     * \param dip the DIP
     * \param healthy its new aggregated state
     */
    typedef void (*HealthChangeTracedCallback)(const std::string& vip,
                                               const AdcIpAddress& dip,
                                               bool healthy);

    /**
     * \brief A deployed MUX VM the manager may put in service.
     * \param name its name (unique)
     * \param mux its datapath
     * \param speaker its BGP speaker (announces the VIPs), or null
     */
    void DeployMux(const std::string& name, Ptr<SlbMux> mux, Ptr<AdcBgpSpeaker> speaker);
    /**
     * \brief Put a deployed MUX in service: it gets every VIP and announces them.
     * \param name a MUX given to DeployMux
     * \throws AdcConfigError for an unknown name, a MUX already in service, or a ninth MUX
     */
    void AddMux(const std::string& name);
    /**
     * \brief Take a MUX out of service: its speaker withdraws the VIPs, its policy is removed.
     * \param name a MUX in service
     */
    void RemoveMux(const std::string& name);
    /**
     * \brief A host with an SLB host agent.
     * \param name its name (unique)
     * \param agent its host agent
     */
    void AddHost(const std::string& name, Ptr<SlbHostAgent> agent);

    /**
     * \brief Create a VIP (announced at Commit, or at once after it).
     * \param name its name (unique)
     * \param key address, protocol (TCP or UDP) and port
     * \param kind public or internal
     */
    void AddVip(const std::string& name, const SlbVipKey& key, SlbVipKind kind);
    /**
     * \brief Delete a VIP: withdrawn by every MUX, NAT rules removed from the hosts.
     * \param name a VIP
     */
    void RemoveVip(const std::string& name);
    /**
     * \brief Add a DIP to a VIP.
     * \param vip the VIP's name
     * \param dip the DIP (address, port, vni or vlan; hostPa is filled from \p host)
     * \param host the name of the host holding it
     * \throws AdcConfigError for an unknown VIP or host, a duplicate DIP, a DIP the host holds
     *         on no VM port or on a VNI the host does not carry
     */
    void AddDip(const std::string& vip, SlbDip dip, const std::string& host);
    /**
     * \brief Remove a DIP from a VIP.
     * \param vip the VIP's name
     * \param dip the DIP's address
     * \throws AdcConfigError when it is the last DIP of a committed VIP (a VIP needs a DIP)
     */
    void RemoveDip(const std::string& vip, const AdcIpAddress& dip);

    /**
     * \brief Validate the policy and push all of it (the first time); later changes are pushed
     * as they are made.
     * \throws AdcConfigError naming a VIP with no DIP, or when no MUX is in service
     */
    void Commit();

    /**
     * \brief A host agent's health report (called by SlbHostAgent; takes effect ReportDelay
     * later).
     * \param host the reporting host
     * \param dip the DIP
     * \param healthy its probe state
     */
    void ReportDipHealth(const std::string& host, const AdcIpAddress& dip, bool healthy);

    /**
     * \brief A host agent's heartbeat (SlbHostAgent sends one every HeartbeatInterval; it takes
     * effect ReportDelay later). A host silent for HostTimeout is down: every DIP it holds is
     * marked unhealthy and the MUXes stop choosing them, until its heartbeats return.
     * \param host the host
     */
    void Heartbeat(const std::string& host);
    /// \param host a host \return false while it is down (missed heartbeats)
    bool IsHostUp(const std::string& host) const;

    /// \return the names of the MUXes in service, in the order added
    std::vector<std::string> GetMuxes() const;
    /// \param vip a VIP's name \return its policy (AdcConfigError when unknown)
    const SlbVip& GetVip(const std::string& vip) const;
    /// \return every VIP's name
    std::vector<std::string> GetVipNames() const;
    /// \param vip a VIP's name \param dip a DIP \return its aggregated health
    bool IsDipHealthy(const std::string& vip, const AdcIpAddress& dip) const;
    /// \param vip a VIP's name \param dip one of its DIPs \return the name of its host
    std::string GetDipHost(const std::string& vip, const AdcIpAddress& dip) const;
    /// \return pushes made so far (each trace call)
    uint64_t GetPushCount() const;

    /**
     * \brief The health of the SLB infrastructure: MUXes (in service, VIPs announced), hosts,
     * and each VIP's DIPs with their state.
     * \param os the stream
     */
    void PrintHealth(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /// A MUX VM.
    struct Mux
    {
        Ptr<SlbMux> mux;                  //!< its datapath
        Ptr<AdcBgpSpeaker> speaker;       //!< its BGP speaker
        bool inService{false};            //!< added
        std::set<AdcIpAddress> announced; //!< VIP addresses its speaker announces
    };

    /// \param name a VIP \return it (AdcConfigError when unknown)
    SlbVip& FindVip(const std::string& name);
    /// \param name a host \return its agent (AdcConfigError when unknown)
    Ptr<SlbHostAgent> FindHost(const std::string& name) const;
    /// \param vip a VIP: push it to every MUX in service
    void PushVip(const SlbVip& vip);
    /// \param name a MUX: push every VIP to it and announce them
    void PushAllTo(const std::string& name);
    /// \param name a MUX \param vip push one VIP to it
    void PushVipTo(const std::string& name, const SlbVip& vip);
    /// \param vip a VIP \param dip one of its DIPs: its host's NAT rule and probe
    void PushDipToHost(const SlbVip& vip, const SlbDip& dip);
    /// Announce / withdraw VIP addresses so that each MUX in service announces exactly the
    /// addresses of the committed VIPs.
    void SyncRoutes();
    /**
     * \param target a target ("mux:NAME", "host:NAME")
     * \param action what
     * \param fn the push, run PolicyDelay later (only on the rank that simulates the target)
     */
    void Push(const std::string& target, const std::string& action, std::function<void()> fn);
    /// \param target a target of Push \return its node, or null when unknown
    Ptr<Node> TargetNode(const std::string& target) const;
    /// \param host reporting host \param dip a DIP \param healthy its state (after ReportDelay)
    void ApplyHealth(const std::string& host, AdcIpAddress dip, bool healthy);
    /// \param host a host that heartbeats again (after ReportDelay)
    void HeartbeatArrived(const std::string& host);
    /// \param host a host whose heartbeats stopped: mark its DIPs down
    void HostTimedOut(const std::string& host);
    /// \param host a host \param healthy the state to give every DIP it holds
    void SetHostDips(const std::string& host, bool healthy);

    Time m_policyDelay;                               //!< attribute PolicyDelay
    Time m_reportDelay;                               //!< attribute ReportDelay
    Time m_hostTimeout;                               //!< attribute HostTimeout
    std::map<std::string, EventId> m_hostTimers;      //!< host -> its timeout
    std::set<std::string> m_hostsDown;                //!< hosts that missed their heartbeats
    bool m_committed{false};                          //!< Commit called
    std::map<std::string, Mux> m_muxes;               //!< deployed MUXes by name
    std::vector<std::string> m_muxOrder;              //!< in service, in order added
    std::map<std::string, Ptr<SlbHostAgent>> m_hosts; //!< hosts by name
    std::map<std::string, SlbVip> m_vips;             //!< VIPs by name
    std::map<std::string, std::string> m_dipHost;     //!< "vip|dip" -> host name
    uint64_t m_pushes{0};                             //!< pushes traced

    TracedCallback<const std::string&, const std::string&> m_pushTrace;          //!< PolicyPush
    TracedCallback<const std::string&, const AdcIpAddress&, bool> m_healthTrace; //!< HealthChange
};

} // namespace ns3

#endif /* SLB_MANAGER_H */
