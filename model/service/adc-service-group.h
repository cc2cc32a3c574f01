/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the NetScaler service group: services of one type managed as one (members by
 * address and port, monitors bound to all of them).
 */

#ifndef ADC_SERVICE_GROUP_H
#define ADC_SERVICE_GROUP_H

#include "adc-service.h"

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A NetScaler service group (`add serviceGroup <name> <serviceType>`): members bound by
 * address and port (`bind serviceGroup <name> <IP> <port> [-weight N]`), each an AdcService
 * named "<group>(<IP>:<port>)", and monitors bound to every member, present and future
 * (`bind serviceGroup <name> -monitorName <m>`).
 *
 * GetMemberSettings() is a service that is no member: the settings it holds ("MaxClient",
 * "Cip", "CipHeader", "UseProxyPort", "Usip", "HealthMonitor") are what every member gets when
 * it is added (`add serviceGroup <name> <type> -maxClient 50 ...`); Enable and Disable set
 * every member's admin state. A virtual server bound to the group balances over its
 * members and follows "MemberChange" as members come and go.
 */
class AdcServiceGroup : public Object
{
  public:
    /**
     * \brief Signature of "MemberChange".
     * \param group the group's name
     * \param member the member's name
     * \param added true when added, false when removed
     */
    typedef void (*MemberTracedCallback)(const std::string& group,
                                         const std::string& member,
                                         bool added);

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcServiceGroup();
    ~AdcServiceGroup() override;

    /**
     * \param name the group's name
     * \param serviceType one of AdcService::GetServiceTypes()
     */
    void Configure(const std::string& name, const std::string& serviceType);

    /// \return the name
    const std::string& GetName() const;
    /// \return the service type (canonical)
    const std::string& GetServiceType() const;
    /// \return the settings members get when added (a service that is not a member)
    Ptr<AdcService> GetMemberSettings() const;

    /**
     * \param group a group's name
     * \param address a member's address
     * \param port its port
     * \return the member's service name, "group(10.0.0.1:80)" or "group([2001:db8::1]:80)"
     */
    static std::string MemberName(const std::string& group,
                                  const AdcIpAddress& address,
                                  uint16_t port);

    /**
     * \brief Add a member.
     * \param address its address
     * \param port its port (0: "*", service type ANY only)
     * \param weight its weight, 1..100
     * \return the member
     * \throws AdcConfigError when the member exists or a value is out of range
     */
    Ptr<AdcService> AddMember(const AdcIpAddress& address, uint16_t port, uint32_t weight = 1);

    /// \param address a member's address \param port its port \return false when absent
    bool RemoveMember(const AdcIpAddress& address, uint16_t port);

    /// \param address a member's address \param port its port \return it, or null
    Ptr<AdcService> FindMember(const AdcIpAddress& address, uint16_t port) const;

    /// \return the members, in the order added
    const std::vector<Ptr<AdcService>>& GetMembers() const;

    /// \param monitor a monitor for every member, present and future
    void BindMonitor(Ptr<AdcHealthMonitor> monitor);
    /// \param monitor a bound monitor \return false when it was not bound
    bool UnbindMonitor(Ptr<AdcHealthMonitor> monitor);
    /// \return the bound monitors, in binding order
    const std::vector<Ptr<AdcHealthMonitor>>& GetMonitors() const;

    /// Enable every member (`enable serviceGroup`).
    void Enable();
    /// Disable every member (`disable serviceGroup`).
    void Disable();
    /// \return the group's admin state (the last Enable or Disable)
    AdcService::AdminState GetAdminState() const;

  protected:
    void DoDispose() override;

  private:
    std::string m_name;                                       //!< name
    std::string m_serviceType{"HTTP"};                        //!< service type
    AdcService::AdminState m_adminState{AdcService::ENABLED}; //!< last Enable/Disable
    Ptr<AdcService> m_settings;                               //!< what members get
    std::vector<Ptr<AdcService>> m_members;                   //!< members
    std::vector<Ptr<AdcHealthMonitor>> m_monitors;            //!< bound monitors
    TracedCallback<const std::string&, const std::string&, bool> m_memberTrace; //!< trace
};

} // namespace ns3

#endif /* ADC_SERVICE_GROUP_H */
