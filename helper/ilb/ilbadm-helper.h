/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB: installs an ilbadm configuration (create-servergroup, create-healthcheck, create-rule,
 * ...) onto an IlbAppliance, keeps the appliance in step with later ilbadm lines while a
 * simulation runs, and prints what ilbadm's show-* subcommands print about the live appliance.
 */

#ifndef ILBADM_HELPER_H
#define ILBADM_HELPER_H

#include "ns3/adc-config-reader.h"
#include "ns3/adc-config-store.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-topology.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class AdcIlbadmRule;

/**
 * \ingroup adc
 * \brief Puts an ilbadm configuration (a store read with AdcIlbadmCommands::GetLanguage())
 * onto the IlbAppliance of a node, applies later ilbadm lines to it (Sync, ScheduleLines),
 * and prints ilbadm's show-* output about it.
 *
 * What Sync does with the configuration:
 * - an enabled rule not yet on the appliance is added (IlbAppliance::AddRule) with its
 *   server group's servers as they are then, server i being the group's i-th server (its
 *   ilbd server ID is its name); its health check (create-rule -h) becomes one
 *   AdcHealthMonitor on the node (AdcIlbadmHealthCheck::CreateMonitor), bound to every
 *   server's service, started at once;
 * - disable-rule / enable-rule set the rule's state (IlbAppliance::SetRuleEnabled: as
 *   illumos ilb_rule_disable, new flows pass as ordinary traffic, counted PKT_U, and existing
 *   connections carry on); delete-rule is IlbAppliance::DeleteRule (ilb_rule_del);
 * - servers go to the kernel in ilbd's server group order (ilbd_sg.c i_add_srv2sg keeps the
 *   group sorted by address, and i_update_ksrv_rules adds them in that order);
 * - a server's state on the appliance (IlbAppliance::SetServerEnabled) is disable-server /
 *   enable-server; remove-server is IlbAppliance::RemoveServer (ilb_server_del: the algorithm
 *   forgets it, existing connections drain, conn-drain); add-server to the group of a rule
 *   on the appliance is IlbAppliance::AddServer (i_add_srv2krules -> ilb_server_add), bound
 *   to the rule's health check too; what the kernel refuses is an AdcConfigFileError at the
 *   add-server line.
 *
 * The show-* output follows illumos ilbadm (usr/src/cmd/cmd-inet/usr.sbin/ilbadm and libofmt):
 * same columns, headers, field widths and order (see the Show* methods).
 */
class IlbadmHelper : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    IlbadmHelper();
    ~IlbadmHelper() override;

    /**
     * \brief Install the configuration on \p node: its IlbAppliance (created and installed when
     * the node has none), then Sync.
     * \param node the ILB node
     * \param store the configuration; must outlive this helper (later lines read into it
     *        take effect at the next Sync)
     * \return the appliance
     * \throws AdcConfigError naming the rule for a configuration the appliance rejects
     */
    Ptr<IlbAppliance> Install(Ptr<Node> node, AdcConfigStore& store);

    /**
     * \brief Install on a topology IlbHelper built with InstallIlb false, and fill its
     * appliance, rule (the configuration's first enabled rule), ruleConfig and monitor.
     * \param t the topology
     * \param store the configuration (see Install)
     * \throws AdcConfigError when the topology has an appliance already or the configuration
     *         enables no rule
     */
    void Install(IlbTopology& t, AdcConfigStore& store);

    /// \brief Make the appliance's rules and server states those of the configuration.
    void Sync();

    /**
     * \brief At \p at, read \p lines (ilbadm) with \p reader (whose store was installed) and
     * Sync. An error ends Simulator::Run with the reader's AdcConfigFileError (file, line,
     * word), for the program to report as it reports configuration errors.
     * \param at the simulated time
     * \param reader the reader whose store Install was given
     * \param lines ilbadm lines
     * \param name what error messages call them (the "file")
     */
    void ScheduleLines(Time at,
                       AdcConfigReader& reader,
                       const std::string& lines,
                       const std::string& name = "<run-time>");

    /// \return the appliance (null before Install)
    Ptr<IlbAppliance> GetAppliance() const;

    /**
     * \brief ilbadm's read side as one command line, e.g. "show-rule -f rule1",
     * "show-statistics -a", "show-nat 10", "export-config".
     * \param commandLine a show-* subcommand with its options and operands
     * \return what ilbadm prints
     * \throws AdcConfigError for an unknown subcommand or option, listing the allowed ones
     */
    std::string Show(const std::string& commandLine) const;

    /**
     * \brief show-rule [-f] [rule ...]: default columns RULENAME, STATUS (E/D), LBALG, TYPE,
     * PROTOCOL, VIP, PORT; -f: every field, one "NAME: value" line each, a blank line between
     * rules.
     * \param full -f
     * \param rules the rules to show (none: all)
     * \return the text
     */
    std::string ShowRule(bool full, const std::vector<std::string>& rules = {}) const;
    /// \param rules rules (none: all) \return show-server: SERVERID ADDRESS PORT RULENAME
    /// STATUS SERVERGROUP, one line per server of each rule
    std::string ShowServer(const std::vector<std::string>& rules = {}) const;
    /// \param groups groups (none: all) \return show-servergroup: SGNAME SERVERID MINPORT
    /// MAXPORT IP_ADDRESS
    std::string ShowServerGroup(const std::vector<std::string>& groups = {}) const;
    /// \param checks health checks (none: all) \return show-healthcheck: HCNAME TIMEOUT COUNT
    /// INTERVAL DEF_PING TEST
    std::string ShowHealthCheck(const std::vector<std::string>& checks = {}) const;
    /**
     * \brief show-statistics -a [-r rule | -s serverID]: one summary line of absolute counts
     * over the rules (PKT_P BYTES_P PKT_U BYTES_U PKT_D BYTES_D); the model prints ilbadm's
     * absolute form (-a) only, a snapshot of the run (no interval, count or TIME column).
     * \param rule only this rule ("" all)
     * \param server only this server ID ("" all): PKT_P and BYTES_P of its packets
     * \return the text
     */
    std::string ShowStatistics(const std::string& rule = "", const std::string& server = "") const;
    /// \param count at most this many entries (0: all) \return show-nat: "PROTO: client.port >
    /// vip.port >>> source.port > server.port" per NAT connection
    std::string ShowNat(uint32_t count = 0) const;
    /// \param count at most this many entries (0: all) \return show-persist (the appliance's
    /// IlbStickyTable, expired entries until the cleanup removes them): "rule: prefix -->
    /// server" per live sticky entry
    std::string ShowPersist(uint32_t count = 0) const;
    /// \param rules rules (none: all) \return show-hc-result: RULENAME HCNAME SERVERID STATUS
    /// FAIL LAST NEXT RTT
    std::string ShowHcResult(const std::vector<std::string>& rules = {}) const;
    /// \return export-config: the script import-config reads back
    std::string ExportConfig() const;

  protected:
    void DoDispose() override;

  private:
    /// A rule this helper put on the appliance.
    struct Installed
    {
        uint32_t index{0};                  //!< its index in the appliance
        std::vector<std::string> serverIds; //!< its servers' IDs, in appliance order
        Ptr<AdcHealthMonitor> monitor;      //!< its health check, or null
        std::string hcName;                 //!< the health check's name
        std::string hcTest;                 //!< its hc-test (PING, TCP, UDP, ...)
        uint32_t hcInterval{0};             //!< hc-interval (s)
        std::vector<uint32_t> fails;        //!< per server: failed probes in a row
        std::vector<Time> lastProbe;        //!< per server: when the last probe ended
        std::vector<Time> rtt;              //!< per server: the last probe's time
        std::vector<bool> probed;           //!< per server: a probe has ended
    };

    /// A live NAT connection, as the appliance's traces showed it.
    struct NatEntry
    {
        std::string rule;      //!< the rule's name
        AdcFlowKey original;   //!< client -> VIP
        AdcFlowKey translated; //!< source -> server, as sent to the server
    };

    /// \param rule a stored rule \return the configured rule, or null when deleted
    Ptr<AdcIlbadmRule> Configured(const std::string& rule) const;
    /// Add \p rule to the appliance (and its health check); what the appliance refuses is an
    /// AdcConfigFileError at the rule's create-rule line.
    void Add(Ptr<AdcIlbadmRule> rule);
    /// Add's work. \param rule the rule
    void AddRule(Ptr<AdcIlbadmRule> rule);
    /// Trace sinks. \param rule rule name ...
    void OnRewrite(const std::string& rule,
                   const std::string& direction,
                   const AdcFlowKey& before,
                   const AdcFlowKey& after);
    /// \param rule rule name \param original client-side 5-tuple
    void OnConnectionEnded(const std::string& rule, const AdcFlowKey& original);
    /// \param rule rule name \param index target \param ok success \param rtt time
    void OnProbe(std::string rule,
                 uint32_t index,
                 const std::string& name,
                 bool ok,
                 Time rtt,
                 const std::string& reason);
    /// \param in a rule on the appliance \param id a server ID \return its index (not
    /// removed), or -1
    int32_t FindServer(const Installed& in, const std::string& id) const;
    /**
     * \brief add-server to the group of a rule on the appliance (IlbAppliance::AddServer);
     * what the appliance refuses is an AdcConfigFileError at the add-server line.
     * \param rule the rule \param in what is on the appliance \param server the server
     */
    void AddLiveServer(Ptr<AdcIlbadmRule> rule, Installed& in, const IlbServer& server);
    /// \param rules the rules asked for \return their names in configuration order
    /// \throws AdcConfigError for an unknown one
    std::vector<std::string> RuleNames(const std::vector<std::string>& rules) const;

    bool m_deferMonitors{false};                  //!< Install adds the monitors itself
    Ptr<Node> m_node;                             //!< the ILB node
    Ptr<IlbAppliance> m_appliance;                //!< its appliance
    AdcConfigStore* m_store{nullptr};             //!< the configuration (not owned)
    std::map<std::string, Installed> m_installed; //!< rule name -> what is on the appliance
    std::vector<std::string> m_order;             //!< rule names in installation order
    std::map<AdcIpAddress, std::string> m_names;  //!< server address -> topology's name
    std::map<uint64_t, NatEntry> m_nat;           //!< live NAT entries by serial (oldest first)
    std::map<AdcFlowKey, uint64_t> m_natIndex;    //!< client-side key -> serial
    uint64_t m_natSerial{0};                      //!< the next serial
};

} // namespace ns3

#endif /* ILBADM_HELPER_H */
