/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc wire formats: appending and reading fixed-size integers, the one copy every
 * serializer and parser of the module uses (BGP, DNS, MEP, TLS, the SLB redirect message).
 */

#ifndef ADC_WIRE_BYTES_H
#define ADC_WIRE_BYTES_H

#include <cstdint>
#include <vector>

namespace ns3
{

/// \param out bytes \param v appended big-endian (network order), 2 bytes
inline void
AdcPutU16(std::vector<uint8_t>& out, uint16_t v)
{
    const uint8_t b[2] = {static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v)};
    out.insert(out.end(), b, b + 2);
}

/// \param out bytes \param v appended big-endian, 3 bytes (its low 24 bits)
inline void
AdcPutU24(std::vector<uint8_t>& out, uint32_t v)
{
    const uint8_t b[3] = {static_cast<uint8_t>(v >> 16),
                          static_cast<uint8_t>(v >> 8),
                          static_cast<uint8_t>(v)};
    out.insert(out.end(), b, b + 3);
}

/// \param out bytes \param v appended big-endian, 4 bytes
inline void
AdcPutU32(std::vector<uint8_t>& out, uint32_t v)
{
    const uint8_t b[4] = {static_cast<uint8_t>(v >> 24),
                          static_cast<uint8_t>(v >> 16),
                          static_cast<uint8_t>(v >> 8),
                          static_cast<uint8_t>(v)};
    out.insert(out.end(), b, b + 4);
}

/// \param out bytes \param v appended little-endian, 2 bytes
inline void
AdcPutLe16(std::vector<uint8_t>& out, uint16_t v)
{
    const uint8_t b[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
    out.insert(out.end(), b, b + 2);
}

/// \param p at least 2 bytes \return the big-endian value they hold
inline uint16_t
AdcGetU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

/// \param p at least 2 bytes \return the little-endian value they hold
inline uint16_t
AdcGetLe16(const uint8_t* p)
{
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

} // namespace ns3

#endif /* ADC_WIRE_BYTES_H */
