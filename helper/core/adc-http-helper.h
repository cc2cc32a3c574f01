/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: helpers installing AdcHttpClient and AdcHttpServer applications.
 */

#ifndef ADC_HTTP_HELPER_H
#define ADC_HTTP_HELPER_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief What the application helpers share: an ObjectFactory for one application type, its
 * attributes, and Install on one node or many (one application per node).
 */
class AdcApplicationHelper
{
  public:
    /**
     * \param name an attribute of the application type
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /// \param node the node \return the installed application
    ApplicationContainer Install(Ptr<Node> node) const;
    /// \param nodes the nodes \return the installed applications, one per node
    ApplicationContainer Install(NodeContainer nodes) const;

  protected:
    /// \param tid the application type the helper installs
    explicit AdcApplicationHelper(TypeId tid);

    ObjectFactory m_factory; //!< the application factory

  private:
    /// \return a new application on \p node
    Ptr<Application> InstallPriv(Ptr<Node> node) const;
};

/**
 * \ingroup adc
 * \brief Installs AdcHttpServer applications.
 */
class AdcHttpServerHelper : public AdcApplicationHelper
{
  public:
    /// \param port the TCP port the servers listen on
    explicit AdcHttpServerHelper(uint16_t port = 80);
};

/**
 * \ingroup adc
 * \brief Installs AdcHttpClient applications.
 */
class AdcHttpClientHelper : public AdcApplicationHelper
{
  public:
    /// \param remote the server or VIP (InetSocketAddress or Inet6SocketAddress)
    explicit AdcHttpClientHelper(const Address& remote);

    /**
     * \brief Assign fixed random variable streams to the AdcHttpClients on \p nodes.
     * \param nodes the nodes whose clients get streams (in node and application order)
     * \param stream first stream index
     * \return number of streams assigned
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream);
};

} // namespace ns3

#endif /* ADC_HTTP_HELPER_H */
