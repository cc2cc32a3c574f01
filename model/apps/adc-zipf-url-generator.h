/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the request workload of the HTTP clients: object URLs of a catalogue drawn with
 * Zipf popularity, a share of them made non-cacheable.
 */

#ifndef ADC_ZIPF_URL_GENERATOR_H
#define ADC_ZIPF_URL_GENERATOR_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Draws request URLs "/obj/<k>" from a catalogue of N objects with Zipf popularity:
 * P(k) = k^-s / sum_{j=1..N} j^-s, by binary search over the CDF (O(log N) a draw; the CDF is
 * rebuilt when N or s changes). A URL is non-cacheable with probability 1 - CacheableFraction
 * and then carries the query "?nocache=<request id>".
 *
 * Each URL takes two draws from one uniform stream: the rank, then the cacheability.
 * Not an Object: the owning application holds it by value and exposes its settings as
 * attributes; the setters throw AdcConfigError naming the owner, the setting and the value.
 */
class AdcZipfUrlGenerator
{
  public:
    /**
     * \param owner the owning class, for error messages (e.g. "AdcHttpClient")
     *
     * Defaults: 1000 objects, exponent 0.8, every URL cacheable. Creates the uniform random
     * variable now (so it takes its automatic stream where the owner is constructed).
     */
    explicit AdcZipfUrlGenerator(const std::string& owner);

    /// \param n objects /obj/1 .. /obj/n (>= 1)
    void SetCatalogueSize(uint32_t n);
    /// \return the number of objects
    uint32_t GetCatalogueSize() const;
    /// \param s the Zipf exponent (finite, >= 0; 0 is uniform)
    void SetZipfExponent(double s);
    /// \return the Zipf exponent
    double GetZipfExponent() const;
    /// \param f share of cacheable URLs, in [0, 1]
    void SetCacheableFraction(double f);
    /// \return the share of cacheable URLs
    double GetCacheableFraction() const;

    /**
     * \brief Draw an object rank from the Zipf distribution over the catalogue.
     * \return a rank in 1..CatalogueSize
     */
    uint32_t DrawRank();

    /**
     * \brief Draw the URL of request \p id: a rank, then whether it is cacheable.
     * \param id the request id (in the query of a non-cacheable URL)
     * \return "/obj/<rank>", or "/obj/<rank>?nocache=<id>"
     */
    std::string NextUrl(uint64_t id);

    /**
     * \brief Assign a fixed random variable stream.
     * \param stream the stream index
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// Drop the random variable (from the owner's DoDispose).
    void Dispose();

  private:
    /// Rebuild the Zipf CDF for the current catalogue and exponent.
    void BuildCdf();

    std::string m_owner;                  //!< owning class, for error messages
    uint32_t m_catalogueSize;             //!< objects in the catalogue
    double m_zipfExponent;                //!< Zipf s
    double m_cacheableFraction;           //!< share of cacheable URLs
    Ptr<UniformRandomVariable> m_uniform; //!< rank and cacheability draws
    std::vector<double> m_cdf;            //!< Zipf CDF, m_cdf[k-1]
    bool m_cdfDirty;                      //!< the CDF needs rebuilding
};

} // namespace ns3

#endif /* ADC_ZIPF_URL_GENERATOR_H */
