/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: helpers installing AdcHttpClient and AdcHttpServer applications.
 */

#include "ns3/adc-http-helper.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/address.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{

/// Create an application from \p factory and add it to \p node.
Ptr<Application>
CreateOn(const ObjectFactory& factory, Ptr<Node> node)
{
    Ptr<Application> app = factory.Create<Application>();
    node->AddApplication(app);
    return app;
}

} // namespace

AdcHttpServerHelper::AdcHttpServerHelper(uint16_t port)
{
    m_factory.SetTypeId(AdcHttpServer::GetTypeId());
    m_factory.Set("Port", UintegerValue(port));
}

void
AdcHttpServerHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
AdcHttpServerHelper::Install(Ptr<Node> node) const
{
    return ApplicationContainer(InstallPriv(node));
}

ApplicationContainer
AdcHttpServerHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto i = nodes.Begin(); i != nodes.End(); ++i)
    {
        apps.Add(InstallPriv(*i));
    }
    return apps;
}

Ptr<Application>
AdcHttpServerHelper::InstallPriv(Ptr<Node> node) const
{
    return CreateOn(m_factory, node);
}

AdcHttpClientHelper::AdcHttpClientHelper(const Address& remote)
{
    m_factory.SetTypeId(AdcHttpClient::GetTypeId());
    m_factory.Set("Remote", AddressValue(remote));
}

void
AdcHttpClientHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
AdcHttpClientHelper::Install(Ptr<Node> node) const
{
    return ApplicationContainer(InstallPriv(node));
}

ApplicationContainer
AdcHttpClientHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto i = nodes.Begin(); i != nodes.End(); ++i)
    {
        apps.Add(InstallPriv(*i));
    }
    return apps;
}

Ptr<Application>
AdcHttpClientHelper::InstallPriv(Ptr<Node> node) const
{
    return CreateOn(m_factory, node);
}

int64_t
AdcHttpClientHelper::AssignStreams(NodeContainer nodes, int64_t stream)
{
    int64_t current = stream;
    for (auto n = nodes.Begin(); n != nodes.End(); ++n)
    {
        for (uint32_t j = 0; j < (*n)->GetNApplications(); ++j)
        {
            Ptr<AdcHttpClient> client = DynamicCast<AdcHttpClient>((*n)->GetApplication(j));
            if (client)
            {
                current += client->AssignStreams(current);
            }
        }
    }
    return current - stream;
}

} // namespace ns3
