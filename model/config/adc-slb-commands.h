/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADC_SLB_COMMANDS_H
#define ADC_SLB_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <memory>
#include <string>

/**
 * \file
 * \ingroup adc
 * The SLB manager's northbound API as text commands.
 */

namespace ns3
{

class SlbManager;

/**
 * \ingroup adc
 * \brief The SLB manager's northbound API as lines of text.
 *
 * Microsoft's network controller takes its SLB policy as REST resources (MS-NCNBI:
 * loadBalancerMuxes; loadBalancers with frontendIPConfigurations, backendAddressPools,
 * loadBalancingRules and probes) or through the equivalent PowerShell cmdlets. The model keeps
 * their names and reads them as lines, one resource change per line:
 *
 * \verbatim
 * add loadBalancerMux <name>
 * rm loadBalancerMux <name>
 * add loadBalancer <name> <frontendIP> -protocol TCP|UDP -frontendPort <port>
 *     [-type PUBLIC|INTERNAL]
 * rm loadBalancer <name>
 * bind loadBalancer <name> -backendIP <address> -backendPort <port> -host <host>
 *     [-vni <1..16777215> | -vlan <0..4094>]
 * unbind loadBalancer <name> -backendIP <address>
 * \endverbatim
 *
 * The MUXes and hosts named must have been deployed on the manager (SlbManager::DeployMux,
 * AddHost). Each line takes effect on the manager as it is read: errors name the file, the
 * line, the setting and what is allowed. Show() prints the manager's policy back as these
 * lines.
 */
class AdcSlbCommands
{
  public:
    static const std::string MANAGER;       //!< store kind of the manager reference
    static const std::string LOAD_BALANCER; //!< kind whose origins (not objects) the lines note

    /// \return the language
    static AdcConfigLanguage& GetLanguage();

    /**
     * \brief A reader of the language whose lines act on \p manager.
     * \param manager the SLB manager (must outlive the reader)
     * \return the reader
     */
    static std::unique_ptr<AdcConfigReader> MakeReader(Ptr<SlbManager> manager);

    /**
     * \brief The manager's Commit, its refusals named at the lines they are about: a VIP
     * without DIP, or VIPs without a MUX, at the VIP's add loadBalancer line
     * (AdcConfigFileError). Call it instead of SlbManager::Commit for a policy read as lines.
     * \param store the store of a reader made by MakeReader
     */
    static void Commit(const AdcConfigStore& store);
};

} // namespace ns3

#endif /* ADC_SLB_COMMANDS_H */
