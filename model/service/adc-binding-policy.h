/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADC_BINDING_POLICY_H
#define ADC_BINDING_POLICY_H

#include "ns3/adc-lb-method.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A policy that binds a virtual server under another (content switching's
 * `bind cs vserver <cs> -policyName <p> -targetLBVserver <lb> -priority <n>`, a GSLB site
 * choice): Match says whether a request goes to the bound virtual server; policies are tried
 * in ascending "Priority" (1 first, as NetScaler's), ties in binding order.
 */
class AdcBindingPolicy : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcBindingPolicy();
    ~AdcBindingPolicy() override;

    /**
     * \param ctx the request or flow (the request head is in ctx.request at L7)
     * \return true when the bound virtual server should take it
     */
    virtual bool Match(const AdcLbContext& ctx) const = 0;

    /// \return "Name"
    const std::string& GetName() const;
    /// \return "Priority"
    uint32_t GetPriority() const;

  private:
    std::string m_name;  //!< "Name"
    uint32_t m_priority; //!< "Priority"
};

} // namespace ns3

#endif /* ADC_BINDING_POLICY_H */
