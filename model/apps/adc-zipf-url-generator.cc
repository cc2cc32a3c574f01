/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the request workload of the HTTP clients (Zipf-distributed object URLs).
 */

#include "adc-zipf-url-generator.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

AdcZipfUrlGenerator::AdcZipfUrlGenerator(const std::string& owner)
    : m_owner(owner),
      m_catalogueSize(1000),
      m_zipfExponent(0.8),
      m_cacheableFraction(1.0),
      m_uniform(CreateObject<UniformRandomVariable>()),
      m_cdfDirty(true)
{
}

void
AdcZipfUrlGenerator::SetCatalogueSize(uint32_t n)
{
    if (n == 0)
    {
        throw AdcConfigError(m_owner + ": CatalogueSize 0 is not allowed; use 1 or more");
    }
    m_catalogueSize = n;
    m_cdfDirty = true;
}

uint32_t
AdcZipfUrlGenerator::GetCatalogueSize() const
{
    return m_catalogueSize;
}

void
AdcZipfUrlGenerator::SetZipfExponent(double s)
{
    if (!(s >= 0.0) || std::isinf(s))
    {
        throw AdcConfigError(m_owner + ": ZipfExponent " + std::to_string(s) +
                             " is not allowed; use a finite value >= 0");
    }
    m_zipfExponent = s;
    m_cdfDirty = true;
}

double
AdcZipfUrlGenerator::GetZipfExponent() const
{
    return m_zipfExponent;
}

void
AdcZipfUrlGenerator::SetCacheableFraction(double f)
{
    if (!(f >= 0.0 && f <= 1.0))
    {
        throw AdcConfigError(m_owner + ": CacheableFraction " + std::to_string(f) +
                             " is not allowed; use a value in [0, 1]");
    }
    m_cacheableFraction = f;
}

double
AdcZipfUrlGenerator::GetCacheableFraction() const
{
    return m_cacheableFraction;
}

void
AdcZipfUrlGenerator::BuildCdf()
{
    m_cdf.assign(m_catalogueSize, 0.0);
    double sum = 0.0;
    for (uint32_t k = 1; k <= m_catalogueSize; ++k)
    {
        sum += std::pow(static_cast<double>(k), -m_zipfExponent);
        m_cdf[k - 1] = sum;
    }
    for (auto& c : m_cdf)
    {
        c /= sum;
    }
    m_cdf.back() = 1.0; // no rank is lost to rounding
    m_cdfDirty = false;
}

uint32_t
AdcZipfUrlGenerator::DrawRank()
{
    if (m_cdfDirty)
    {
        BuildCdf();
    }
    const double u = m_uniform->GetValue(0.0, 1.0);
    auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
    const auto idx = std::min<std::size_t>(it - m_cdf.begin(), m_cdf.size() - 1);
    return static_cast<uint32_t>(idx + 1);
}

std::string
AdcZipfUrlGenerator::NextUrl(uint64_t id)
{
    const uint32_t rank = DrawRank();
    const bool cacheable = m_uniform->GetValue(0.0, 1.0) < m_cacheableFraction;
    std::string url = "/obj/" + std::to_string(rank);
    if (!cacheable)
    {
        url += "?nocache=" + std::to_string(id);
    }
    return url;
}

int64_t
AdcZipfUrlGenerator::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

void
AdcZipfUrlGenerator::Dispose()
{
    m_uniform = nullptr;
}

} // namespace ns3
