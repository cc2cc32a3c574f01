/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-binding-policy.h"

#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcBindingPolicy);

TypeId
AdcBindingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcBindingPolicy")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddAttribute("Name",
                          "The policy's name, shown in traces (\"policy <name>\").",
                          StringValue("policy"),
                          MakeStringAccessor(&AdcBindingPolicy::m_name),
                          MakeStringChecker())
            .AddAttribute("Priority",
                          "Evaluation order: lower first, as NetScaler's policy priorities.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&AdcBindingPolicy::m_priority),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

AdcBindingPolicy::AdcBindingPolicy() = default;

AdcBindingPolicy::~AdcBindingPolicy() = default;

const std::string&
AdcBindingPolicy::GetName() const
{
    return m_name;
}

uint32_t
AdcBindingPolicy::GetPriority() const
{
    return m_priority;
}

} // namespace ns3
