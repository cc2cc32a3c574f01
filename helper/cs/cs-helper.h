/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: builds content-switching virtual servers from a NetScaler configuration
 * (`add cs vserver`, `add cs policy`, `bind cs vserver`, ...) and keeps them in step with it
 * while a simulation runs.
 */

#ifndef CS_HELPER_H
#define CS_HELPER_H

#include "ns3/adc-config-store.h"
#include "ns3/cs-virtual-server.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Installs a CsVirtualServer described by a configuration read with NetScaler's
 * language (AdcNetScalerCsCommands::GetLanguage()), and applies later changes to it.
 *
 * The configuration's LB virtual servers and services (`add lb vserver`, `add service`,
 * `bind lb vserver`) are the AdcVirtualServer and AdcService objects of the store; the CS
 * virtual server takes its persistence from `add/set cs vserver`, one CsPolicy per
 * `bind cs vserver -policyName` (priority of the binding, rule of `add cs policy`, target the
 * action's LB virtual server or -targetLBVserver) and its default from
 * `bind cs vserver -lbvserver`.
 *
 * Run-time changes (CS-02): read more lines with the same reader (e.g. `set cs policy
 * <p> -rule <expression>`, `bind cs vserver ...`, `unbind cs vserver ...`) from a scheduled
 * event, then call Sync: the bindings and rules of the virtual server become the
 * configuration's.
 */
class CsHelper
{
  public:
    /**
     * \param node the appliance (the CS vserver's VIP is one of its addresses)
     * \param store a configuration
     * \param csVserver the CS virtual server's name in it
     * \return the application, added to \p node
     * \throws AdcConfigError naming the CS vserver when it, a bound policy or an LB virtual
     *         server is not in \p store
     */
    static Ptr<CsVirtualServer> Install(Ptr<Node> node,
                                        const AdcConfigStore& store,
                                        const std::string& csVserver);

    /**
     * \brief Make \p cs's policies, rules and default LB virtual server those of \p store
     * (persistence settings change only before the application starts).
     * \param cs a CS virtual server installed by Install
     * \param store the configuration
     */
    static void Sync(Ptr<CsVirtualServer> cs, const AdcConfigStore& store);
};

} // namespace ns3

#endif /* CS_HELPER_H */
