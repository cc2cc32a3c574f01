/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADC_TIMEOUT_CLASS_H
#define ADC_TIMEOUT_CLASS_H

#include "adc-flow-key.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The timeout classes of the connection and NAT tables: TCP, UDP and every other
 * protocol each have their own idle timeout, so each table keeps one LRU list per class.
 */
struct AdcTimeoutClass
{
    /// A class, usable as an index.
    enum Value : uint8_t
    {
        TCP = 0,   //!< TCP
        UDP = 1,   //!< UDP
        OTHER = 2, //!< any other protocol
        COUNT = 3  //!< number of classes
    };

    /// \param protocol an IP protocol number \return its class
    static Value Of(uint8_t protocol)
    {
        return protocol == AdcFlowKey::PROTO_TCP   ? TCP
               : protocol == AdcFlowKey::PROTO_UDP ? UDP
                                                   : OTHER;
    }
};

} // namespace ns3

#endif /* ADC_TIMEOUT_CLASS_H */
