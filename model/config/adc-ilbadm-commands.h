/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: Solaris/illumos ilbadm's subcommands (server groups, health
 * checks, rules) and its export-config format.
 */

#ifndef ADC_ILBADM_COMMANDS_H
#define ADC_ILBADM_COMMANDS_H

#include "adc-config-reader.h"

#include "ns3/ilb-rule.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class AdcHealthMonitor;

/**
 * \ingroup adc
 * \brief An ilbadm server group (create-servergroup, add-server): its servers, named with the
 * server IDs ilbd gives them ("_<group>.<n>", n counting from 0 in the group).
 */
class AdcIlbadmServerGroup : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    std::string name;               //!< the group's name
    std::vector<IlbServer> servers; //!< its servers, in the order added
    uint32_t nextId{0};             //!< the next server ID's number
    std::set<std::string> disabled; //!< IDs of its servers disabled by disable-server

    /// \param id a server ID \return false when disable-server disabled it (servers are added
    /// enabled, as ilbadm's create-servergroup and add-server do)
    bool IsEnabled(const std::string& id) const;
};

/**
 * \ingroup adc
 * \brief An ilbadm health check (create-healthcheck): hc-test PING, TCP, UDP or an external
 * method's path; hc-timeout (s, default 5), hc-count (default 3), hc-interval (s, default 30),
 * and whether a ping comes first (default yes; -n: no).
 */
class AdcIlbadmHealthCheck : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    std::string name;       //!< its name
    std::string test;       //!< PING, TCP, UDP, or "/path/of/method"
    uint32_t timeout{5};    //!< hc-timeout, seconds
    uint32_t count{3};      //!< hc-count: failed probes before a server is dead
    uint32_t interval{30};  //!< hc-interval, seconds
    bool defaultPing{true}; //!< false with -n

    /**
     * \brief The model's monitor for this check (PING, TCP or UDP; an external method cannot
     * run in the model): Interval hc-interval (also while down: ilbd probes a dead server at
     * the same interval), ResponseTimeout hc-timeout, Retries hc-count.
     * \return the monitor, to be installed on the ILB's node
     * \throws AdcConfigError for an external method
     */
    Ptr<AdcHealthMonitor> CreateMonitor() const;
};

/**
 * \ingroup adc
 * \brief An ilbadm rule (create-rule) as configured: the IlbRule (its servers come from the
 * server group when GetRule is called, as ILB rules follow their group), whether it is enabled
 * (-e), its server group, its health check and the timers as given (0: ILB's default).
 */
class AdcIlbadmRule : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    IlbRule rule;                    //!< the rule (servers filled in by GetRule)
    bool enabled{false};             //!< -e (ilbadm creates rules disabled without it)
    Ptr<AdcIlbadmServerGroup> group; //!< -o servergroup=
    std::string healthCheck;         //!< -h hc-name= ("" none)
    std::string hcPort;              //!< -h hc-port= ("ANY" or a port; "" without -h)
    uint32_t connDrain{0};           //!< -t conn-drain= (s; 0 none)
    uint32_t natTimeout{0};          //!< -t nat-timeout= (s; 0 ILB's default)
    uint32_t persistTimeout{0};      //!< -t persist-timeout= (s; 0 ILB's default, 60)

    /// \return the rule with the group's servers, ready for IlbAppliance::AddRule
    IlbRule GetRule() const;

  protected:
    void DoDispose() override;
};

/**
 * \ingroup adc
 * \brief ilbadm's language: create-servergroup [-s server=<spec>[,<spec>...]] <group>,
 * add-server -s server=<spec>[,...] <group>, delete-servergroup <group>,
 * create-healthcheck [-n] -h hc-test=<t>[,hc-timeout=N][,hc-count=N][,hc-interval=N] <name>,
 * delete-healthcheck <name>,
 * create-rule [-e] [-p] -i vip=<ip>,port=<port>[-<port>][,protocol=tcp|udp]
 * -m lbalg=<alg>,type=DSR|NAT|HALF-NAT[,proxy-src=<ip>[-<ip>]][,pmask=/<len>]
 * [-h hc-name=<hc>[,hc-port=<port>|ANY]] [-t [conn-drain=N][,nat-timeout=N][,persist-timeout=N]]
 * -o servergroup=<group> <name>, delete-rule <name>, enable-rule <name>, disable-rule <name>,
 * remove-server -s server=<serverID>[,...] <group>, enable-server <serverID> ...,
 * disable-server <serverID> ... (server IDs as ilbd gives them, "_<group>.<n>").
 *
 * As ilbadm reads them (illumos usr/src/cmd/cmd-inet/usr.sbin/ilbadm): words split at blanks,
 * no quoting; '#' starts a comment line; a line ending in "\" continues; subcommands, keys and
 * values (lbalg, type, protocol, hc-test) in any case, names case-sensitive and at most 19
 * characters; lbalg from AdcLbMethodRegistry's ilbadm vocabulary (roundrobin, hash-ip,
 * hash-ip-port, hash-ip-vip); a server <spec> is ip[-ip][:port] with IPv6 in brackets, a range
 * expanding to one server per address (at most 256). Defaults: protocol tcp, rule disabled
 * without -e, pmask /32 (/128) with -p, hc-port ANY with -h, timers 0 (ILB's own defaults).
 * The model needs the port (ilbadm allows none, meaning every port) and gives servers one port.
 *
 * Show prints ilbadm export-config's lines: create-servergroup and one add-server per server,
 * create-healthcheck, create-rule, in that order.
 */
class AdcIlbadmCommands
{
  public:
    static const std::string SERVER_GROUP; //!< kind of AdcIlbadmServerGroup
    static const std::string HEALTH_CHECK; //!< kind of AdcIlbadmHealthCheck
    static const std::string RULE;         //!< kind of AdcIlbadmRule

    /// \return ilbadm's language with the subcommands above, built on first use
    static AdcConfigLanguage& GetLanguage();
};

} // namespace ns3

#endif /* ADC_ILBADM_COMMANDS_H */
