/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: a simulated node on a Linux tap, so that real programs on the host (a BGP
 * daemon, a resolver, curl) exchange real packets with the module's models.
 */

#ifndef ADC_EMULATION_HELPER_H
#define ADC_EMULATION_HELPER_H

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Attaches a simulated node to a Linux tap device that this process creates.
 *
 * Install() opens `/dev/net/tun` (TUNSETIFF with IFF_TAP | IFF_NO_PI), gives the host side of
 * the tap its addresses (IPv4 and IPv6, DAD off so they are usable at once), brings it up and
 * hands the descriptor to an ns-3 `FdNetDevice` on the node: every Ethernet frame the node
 * sends on that device reaches the host's kernel, and every frame the kernel sends on the tap
 * reaches the node. The node's own addresses are given as on any device
 * (`Ipv4AddressHelper`, `Ipv6AddressHelper` on the returned device).
 *
 * Debian's `TapFdNetDeviceHelper` is not used: it runs a creator program at a build-tree path
 * that the package does not install. The tap is not persistent: it disappears when the device
 * closes its descriptor (Simulator::Destroy, or the process's end, Ctrl-C included).
 *
 * A simulation with a tap must run in real time with real checksums: call EnableRealtime()
 * first in main(), before any other ns-3 call. Creating a tap needs CAP_NET_ADMIN (root);
 * GetUnavailableReason() says why it cannot work here. The interoperability tests and
 * `./adc emulate` run every tap in a network namespace of their own, so that the tap, the
 * host programs and every packet stay inside it.
 */
class AdcEmulationHelper
{
  public:
    AdcEmulationHelper();

    /**
     * \brief Run the simulator in real time (ns3::RealtimeSimulatorImpl, best effort) with
     * checksums computed and checked (ChecksumEnabled): what a real peer needs. Also sets
     * "AdcEpoch" (the Unix time of simulation time 0) to now, so HTTP dates are real dates.
     * Call before any other ns-3 call of main().
     */
    static void EnableRealtime();

    /**
     * \brief Stop the run cleanly on SIGINT or SIGTERM (Ctrl-C): the signal sets a flag that
     * an event checks every 100 ms, which then calls Simulator::Stop(), so Simulator::Run()
     * returns and the program writes its files and closes the tap as at a normal end.
     * Call after EnableRealtime(), before Simulator::Run().
     * \param onStop called with the signal's number just before the stop (e.g. to trace it);
     *        empty: none
     */
    static void StopOnSignal(std::function<void(int)> onStop = {});

    /// \return whether SIGINT or SIGTERM stopped the run
    static bool Interrupted();

    /// \return an empty string when a tap can be created here, otherwise why not
    static std::string GetUnavailableReason();

    /**
     * \param name the tap's interface name (at most 15 characters; default "adc-tap0")
     * \throws AdcConfigError for an empty or too long name
     */
    void SetTapName(const std::string& name);

    /**
     * \brief The host side's IPv4 address on the tap (none by default).
     * \param address the address \param mask its mask
     */
    void SetHostAddress(Ipv4Address address, Ipv4Mask mask);

    /**
     * \brief Add an IPv6 address to the host side of the tap.
     * \param address the address \param prefix its prefix
     */
    void AddHostAddress(Ipv6Address address, Ipv6Prefix prefix);

    /**
     * \brief A route the host side takes through the simulated node (added by Install, in the
     * host's main table), e.g. to a VIP behind it.
     * \param network the destination \param mask its mask \param gateway the simulated node's
     *        address on the tap
     */
    void AddHostRoute(Ipv4Address network, Ipv4Mask mask, Ipv4Address gateway);

    /**
     * \brief An IPv6 route the host side takes through the simulated node.
     * \param network the destination \param prefix its prefix \param gateway the simulated
     *        node's address on the tap
     */
    void AddHostRoute(Ipv6Address network, Ipv6Prefix prefix, Ipv6Address gateway);

    /**
     * \brief The MTU of both sides (default 1500).
     * \param mtu bytes of IP packet, 1280 to 9000
     * \throws AdcConfigError outside that range
     */
    void SetMtu(uint16_t mtu);

    /**
     * \brief Whether Install may add the tap to a network namespace that has interfaces other
     * than the loopback (default false: it refuses, so that a tap and its addresses are only
     * ever made in a namespace of their own, as `./adc emulate` and the tests make).
     * \param allow true to allow it
     */
    void SetAllowHostInterfaces(bool allow);

    /**
     * \brief Create the tap, configure its host side and attach it to \p node.
     * \param node the simulated node (with an internet stack, or one to be installed)
     * \return the node's new FdNetDevice
     * \throws AdcConfigError naming the tap and the system's reason when the tap cannot be
     *         created or configured (not root, no /dev/net/tun, a name in use), or when the
     *         namespace has other interfaces than lo and SetAllowHostInterfaces was not given
     */
    Ptr<NetDevice> Install(Ptr<Node> node) const;

  private:
    std::string m_tapName{"adc-tap0"};                       //!< interface name
    Ipv4Address m_hostAddress{Ipv4Address::GetAny()};        //!< host IPv4 (any: none)
    Ipv4Mask m_hostMask{Ipv4Mask::GetZero()};                //!< its mask
    std::vector<std::pair<Ipv6Address, Ipv6Prefix>> m_host6; //!< host IPv6 addresses
    uint16_t m_mtu{1500};                                    //!< MTU
    bool m_allowHostInterfaces{false};                       //!< see SetAllowHostInterfaces

    /// An IPv4 host route: network, mask, gateway.
    struct Route4
    {
        Ipv4Address network; //!< destination
        Ipv4Mask mask;       //!< its mask
        Ipv4Address gateway; //!< via
    };

    /// An IPv6 host route: network, prefix, gateway.
    struct Route6
    {
        Ipv6Address network; //!< destination
        Ipv6Prefix prefix;   //!< its prefix
        Ipv6Address gateway; //!< via
    };

    std::vector<Route4> m_routes4; //!< host routes (IPv4)
    std::vector<Route6> m_routes6; //!< host routes (IPv6)
};

} // namespace ns3

#endif /* ADC_EMULATION_HELPER_H */
