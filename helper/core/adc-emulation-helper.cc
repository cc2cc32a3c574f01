/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-emulation-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <atomic>
#include <csignal>
#include <ctime>

#ifdef ADC_EMULATION
#include "ns3/fd-net-device-helper.h"
#include "ns3/fd-net-device.h"
#include "ns3/mac48-address.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/if_tun.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace ns3
{

namespace
{

/// The signal (SIGINT or SIGTERM) that asked the run to stop, 0 before one came.
std::atomic<int> g_adcEmulationSignal{0};

/// \param sig the signal: ask the run to stop
void
OnStopSignal(int sig)
{
    g_adcEmulationSignal = sig;
}

/// Stop the simulator once a signal came (telling \p onStop first), else look again in 100 ms.
void
PollStopSignal(std::function<void(int)> onStop)
{
    if (const int sig = g_adcEmulationSignal)
    {
        if (onStop)
        {
            onStop(sig);
        }
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(MilliSeconds(100), &PollStopSignal, onStop);
}

#ifdef ADC_EMULATION
/// Linux's struct in6_ifreq (linux/ipv6.h, which clashes with netinet/in.h).
struct AdcIn6Ifreq
{
    in6_addr addr;      //!< the address
    uint32_t prefixLen; //!< its prefix length
    int ifIndex;        //!< the interface
};

/// A descriptor closed when it goes out of scope unless released.
class ScopedFd
{
  public:
    /// \param fd the descriptor (or -1)
    explicit ScopedFd(int fd)
        : m_fd(fd)
    {
    }

    ~ScopedFd()
    {
        if (m_fd >= 0)
        {
            close(m_fd);
        }
    }

    ScopedFd(const ScopedFd&) = delete;
    ScopedFd& operator=(const ScopedFd&) = delete;

    /// \return the descriptor
    int Get() const
    {
        return m_fd;
    }

    /// \return the descriptor, no longer closed here
    int Release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

  private:
    int m_fd; //!< the descriptor
};

/// \return "TAP: WHAT: the system's reason", as an AdcConfigError
AdcConfigError
SystemError(const std::string& tap, const std::string& what)
{
    return AdcConfigError("AdcEmulationHelper: tap '" + tap + "': " + what + ": " +
                          std::strerror(errno));
}

/// \return a tap descriptor for \p name (the kernel picks a name when it holds "%d")
int
OpenTap(const std::string& name, std::string* chosen)
{
    ScopedFd fd(open("/dev/net/tun", O_RDWR | O_CLOEXEC));
    if (fd.Get() < 0)
    {
        throw SystemError(name, "cannot open /dev/net/tun");
    }
    ifreq ifr{};
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
    if (ioctl(fd.Get(), TUNSETIFF, &ifr) < 0)
    {
        throw SystemError(name, "cannot create the tap (TUNSETIFF; needs CAP_NET_ADMIN)");
    }
    if (chosen)
    {
        *chosen = ifr.ifr_name;
    }
    return fd.Release();
}
#endif

} // namespace

AdcEmulationHelper::AdcEmulationHelper() = default;

void
AdcEmulationHelper::EnableRealtime()
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    // HTTP dates (a cookie's Expires) as a real client reads them: simulation time 0 is now.
    GlobalValue::Bind("AdcEpoch", IntegerValue(static_cast<int64_t>(std::time(nullptr))));
}

void
AdcEmulationHelper::StopOnSignal(std::function<void(int)> onStop)
{
    struct sigaction sa
    {
    };

    sa.sa_handler = &OnStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    Simulator::Schedule(MilliSeconds(100), &PollStopSignal, onStop);
}

bool
AdcEmulationHelper::Interrupted()
{
    return g_adcEmulationSignal != 0;
}

std::string
AdcEmulationHelper::GetUnavailableReason()
{
#ifdef ADC_EMULATION
    try
    {
        std::string name;
        const int fd = OpenTap("adc-probe%d", &name);
        close(fd);
        return "";
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
#else
    return "this build of ns3-adc has no emulation: ns-3's fd-net-device module was not found";
#endif
}

void
AdcEmulationHelper::SetTapName(const std::string& name)
{
    if (name.empty() || name.size() > 15 || name.find_first_of("/ \t%") != std::string::npos)
    {
        throw AdcConfigError("AdcEmulationHelper: tap name '" + name +
                             "' is not an interface name: 1 to 15 characters, no '/', "
                             "space or '%'");
    }
    m_tapName = name;
}

void
AdcEmulationHelper::SetHostAddress(Ipv4Address address, Ipv4Mask mask)
{
    m_hostAddress = address;
    m_hostMask = mask;
}

void
AdcEmulationHelper::AddHostAddress(Ipv6Address address, Ipv6Prefix prefix)
{
    m_host6.emplace_back(address, prefix);
}

void
AdcEmulationHelper::AddHostRoute(Ipv4Address network, Ipv4Mask mask, Ipv4Address gateway)
{
    m_routes4.push_back({network, mask, gateway});
}

void
AdcEmulationHelper::AddHostRoute(Ipv6Address network, Ipv6Prefix prefix, Ipv6Address gateway)
{
    m_routes6.push_back({network, prefix, gateway});
}

void
AdcEmulationHelper::SetAllowHostInterfaces(bool allow)
{
    m_allowHostInterfaces = allow;
}

void
AdcEmulationHelper::SetMtu(uint16_t mtu)
{
    if (mtu < 1280 || mtu > 9000)
    {
        throw AdcConfigError("AdcEmulationHelper: MTU " + std::to_string(mtu) +
                             " is out of range: allowed 1280 to 9000");
    }
    m_mtu = mtu;
}

Ptr<NetDevice>
AdcEmulationHelper::Install(Ptr<Node> node) const
{
#ifdef ADC_EMULATION
    const std::string& tap = m_tapName;
    if (!m_allowHostInterfaces)
    {
        std::string others;
        if (struct if_nameindex* list = if_nameindex())
        {
            for (struct if_nameindex* i = list; i->if_index != 0; ++i)
            {
                if (std::string(i->if_name) != "lo")
                {
                    others += (others.empty() ? "" : ", ") + std::string(i->if_name);
                }
            }
            if_freenameindex(list);
        }
        if (!others.empty())
        {
            throw AdcConfigError(
                "AdcEmulationHelper: tap '" + tap +
                "': this network namespace has interfaces "
                "other than lo (" +
                others +
                "): run in a namespace of its own (./adc emulate, "
                "or `unshare --net` as root), or allow it explicitly (SetAllowHostInterfaces; "
                "the programs' --allowHostInterfaces=1)");
        }
    }
    ScopedFd fd(OpenTap(tap, nullptr));
    ScopedFd sock(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (sock.Get() < 0)
    {
        throw SystemError(tap, "cannot open a configuration socket");
    }
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, tap.c_str(), IFNAMSIZ - 1);
    ifr.ifr_mtu = m_mtu;
    if (ioctl(sock.Get(), SIOCSIFMTU, &ifr) < 0)
    {
        throw SystemError(tap, "cannot set the MTU");
    }
    if (m_hostAddress != Ipv4Address::GetAny())
    {
        auto* sin = reinterpret_cast<sockaddr_in*>(&ifr.ifr_addr);
        sin->sin_family = AF_INET;
        sin->sin_addr.s_addr = htonl(m_hostAddress.Get());
        if (ioctl(sock.Get(), SIOCSIFADDR, &ifr) < 0)
        {
            throw SystemError(tap, "cannot set the host's IPv4 address");
        }
        sin->sin_addr.s_addr = htonl(m_hostMask.Get());
        if (ioctl(sock.Get(), SIOCSIFNETMASK, &ifr) < 0)
        {
            throw SystemError(tap, "cannot set the host's IPv4 mask");
        }
    }
    // Addresses usable at once: no duplicate address detection on the tap (the simulated
    // node never claims the host's addresses). The file exists only when IPv6 is on.
    {
        std::ofstream dad("/proc/sys/net/ipv6/conf/" + tap + "/accept_dad");
        dad << "0\n";
    }
    if (ioctl(sock.Get(), SIOCGIFFLAGS, &ifr) < 0)
    {
        throw SystemError(tap, "cannot read the interface flags");
    }
    ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
    if (ioctl(sock.Get(), SIOCSIFFLAGS, &ifr) < 0)
    {
        throw SystemError(tap, "cannot bring the interface up");
    }
    if (!m_host6.empty())
    {
        ScopedFd sock6(socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0));
        if (sock6.Get() < 0 || ioctl(sock.Get(), SIOCGIFINDEX, &ifr) < 0)
        {
            throw SystemError(tap, "cannot configure IPv6 (is IPv6 enabled?)");
        }
        for (const auto& [address, prefix] : m_host6)
        {
            AdcIn6Ifreq req{};
            address.GetBytes(req.addr.s6_addr);
            req.prefixLen = prefix.GetPrefixLength();
            req.ifIndex = ifr.ifr_ifindex;
            if (ioctl(sock6.Get(), SIOCSIFADDR, &req) < 0)
            {
                throw SystemError(tap, "cannot add the host's IPv6 address");
            }
        }
        for (const Route6& r : m_routes6)
        {
            in6_rtmsg rt{};
            r.network.GetBytes(rt.rtmsg_dst.s6_addr);
            r.gateway.GetBytes(rt.rtmsg_gateway.s6_addr);
            rt.rtmsg_dst_len = r.prefix.GetPrefixLength();
            rt.rtmsg_metric = 1;
            rt.rtmsg_flags = RTF_UP | RTF_GATEWAY;
            rt.rtmsg_ifindex = ifr.ifr_ifindex;
            if (ioctl(sock6.Get(), SIOCADDRT, &rt) < 0)
            {
                throw SystemError(tap, "cannot add the host's IPv6 route");
            }
        }
    }
    for (const Route4& r : m_routes4)
    {
        rtentry rt{};
        auto set = [](sockaddr* sa, Ipv4Address a) {
            auto* sin = reinterpret_cast<sockaddr_in*>(sa);
            sin->sin_family = AF_INET;
            sin->sin_addr.s_addr = htonl(a.Get());
        };
        set(&rt.rt_dst, r.network);
        set(&rt.rt_genmask, Ipv4Address(r.mask.Get()));
        set(&rt.rt_gateway, r.gateway);
        rt.rt_flags = RTF_UP | RTF_GATEWAY | (r.mask.GetPrefixLength() == 32 ? RTF_HOST : 0);
        std::string dev = tap;
        rt.rt_dev = dev.data();
        if (ioctl(sock.Get(), SIOCADDRT, &rt) < 0)
        {
            throw SystemError(tap, "cannot add the host's IPv4 route");
        }
    }

    FdNetDeviceHelper helper;
    helper.SetAttribute("Address", Mac48AddressValue(Mac48Address::Allocate()));
    Ptr<FdNetDevice> device = DynamicCast<FdNetDevice>(helper.Install(node).Get(0));
    device->SetMtu(m_mtu);
    // IPv6 neighbour discovery needs multicast (solicited-node addresses); the tap delivers it.
    device->SetIsMulticast(true);
    device->SetFileDescriptor(fd.Release());
    return device;
#else
    throw AdcConfigError("AdcEmulationHelper: " + GetUnavailableReason());
#endif
}

} // namespace ns3
