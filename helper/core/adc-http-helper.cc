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

AdcApplicationHelper::AdcApplicationHelper(TypeId tid)
{
    m_factory.SetTypeId(tid);
}

void
AdcApplicationHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
AdcApplicationHelper::Install(Ptr<Node> node) const
{
    return ApplicationContainer(InstallPriv(node));
}

ApplicationContainer
AdcApplicationHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto i = nodes.Begin(); i != nodes.End(); ++i)
    {
        apps.Add(InstallPriv(*i));
    }
    return apps;
}

Ptr<Application>
AdcApplicationHelper::InstallPriv(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return app;
}

AdcHttpServerHelper::AdcHttpServerHelper(uint16_t port)
    : AdcApplicationHelper(AdcHttpServer::GetTypeId())
{
    m_factory.Set("Port", UintegerValue(port));
}

AdcHttpClientHelper::AdcHttpClientHelper(const Address& remote)
    : AdcApplicationHelper(AdcHttpClient::GetTypeId())
{
    m_factory.Set("Remote", AddressValue(remote));
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
