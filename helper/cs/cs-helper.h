/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: builds content-switching virtual servers from a NetScaler configuration
 * (`add cs vserver`, `add cs policy`, `bind cs vserver`, ...) and keeps them in step with it
 * while a simulation runs.
 */

#ifndef CS_HELPER_H
#define CS_HELPER_H

#include "ns3/adc-config-reader.h"
#include "ns3/adc-config-store.h"
#include "ns3/cs-virtual-server.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

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
 * <p> -rule <expression>`, `bind cs vserver ...`, `unbind cs vserver ...`, `set cs vserver
 * -persistenceType/-timeout`, `set lb parameter -cookieVersion/-httpOnlyCookieFlag`) from a
 * scheduled event (ScheduleLines), then call Sync: the bindings, rules, persistence and
 * cookie parameters of the virtual server become the configuration's. `set lb vserver`
 * changes the store's AdcVirtualServer itself, so its persistence applies at once.
 *
 * The appliance's read side at run time (Command, cs-show.cc), as the ILB helper's Show:
 * `show cs vserver`, `show lb persistentSessions`, `clear lb persistentSessions`.
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

    /**
     * \brief At \p at, read \p lines (NetScaler) with \p reader, whose store \p cs was
     * installed from, and Sync. An error ends Simulator::Run with the reader's
     * AdcConfigFileError (file, line, word), which the program reports as any configuration
     * error.
     * \param at the simulated time \param cs the CS virtual server \param reader the reader
     * (must outlive the run) \param lines the lines \param name what errors call them
     */
    static void ScheduleLines(Time at,
                              Ptr<CsVirtualServer> cs,
                              AdcConfigReader& reader,
                              const std::string& lines,
                              const std::string& name = "<run-time>");

    /**
     * \brief Run one of the appliance's operational commands on the CS vservers of a node
     * and the LB vservers bound under them, and return what it prints:
     * - `show cs vserver [<name>]`: each CS vserver's type, port, state, persistence, counts
     *   and its policy bindings with their priority, target and hits, then the default;
     * - `show lb persistentSessions [<vServer>]`: one row per live persistence session
     *   (the CS vservers' SOURCEIP, SSLSESSION and backup entries, and the SOURCEIP entries
     *   of the LB vservers bound under them; cookie persistence keeps none), all or those
     *   of \p vServer;
     * - `clear lb persistentSessions [<vServer>]`: removes them, all or those \p vServer
     *   owns (a CS vserver's, or an LB vserver's own table).
     * \param appliance the CS vservers of the node
     * \param commandLine the command
     * \return the text
     * \throws AdcConfigError for another command, an unknown vserver or a stray word, naming
     *         what is allowed
     */
    static std::string Command(const std::vector<Ptr<CsVirtualServer>>& appliance,
                               const std::string& commandLine);
};

} // namespace ns3

#endif /* CS_HELPER_H */
