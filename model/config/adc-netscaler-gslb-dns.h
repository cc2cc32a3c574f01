/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, GSLB: NetScaler's DNS record commands for the zones the
 * ADNS is authoritative for (add dns soaRec, add dns nsRec, add dns cnameRec).
 */

#ifndef ADC_NETSCALER_GSLB_DNS_H
#define ADC_NETSCALER_GSLB_DNS_H

#include "adc-config-reader.h"

#include "ns3/adc-dns-message.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One DNS record added by `add dns soaRec`, `add dns nsRec` or `add dns cnameRec`.
 */
class GslbDnsRecordConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// \param rr the record (its owner in canonical form)
    void SetRecord(const AdcDnsResourceRecord& rr);
    /// \return the record
    const AdcDnsResourceRecord& GetRecord() const;

  private:
    AdcDnsResourceRecord m_record; //!< the record
};

/**
 * \ingroup adc
 * \brief NetScaler's DNS record commands (NetScaler command reference, "dns" chapter):
 * - add dns soaRec <domain> -originServer <name> -contact <mailbox> [-serial n] [-refresh s]
 *   [-retry s] [-expire s] [-minimum s] [-TTL s]: the zone's apex; defaults serial 100,
 *   refresh 3600, retry 3, expire 3600, minimum 5 (NITRO dnssoarec), TTL 3600; serial,
 *   refresh, retry, expire 0..4294967294, minimum and TTL 0..2147483647 (RFC 2181 section 8).
 *   One per domain.
 * - add dns nsRec <domain> <nameServer> [-TTL s]: an NS record, TTL default 3600.
 * - add dns cnameRec <aliasName> <canonicalName> [-TTL s]: a CNAME, TTL default 3600. An alias
 *   has one CNAME and no other data (RFC 1034 section 3.6.2, RFC 2181 section 10.1): a
 *   cnameRec on a name with an soaRec or nsRec, or the reverse, is an error.
 * Names are checked as domain names (RFC 1035 section 2.3.4) and compared ignoring case.
 * Show prints them back as these commands. The ADNS (GslbAdns::AddDnsRecords) serves them.
 */
class AdcNetScalerGslbDns
{
  public:
    static const std::string DNS_SOA_REC;   //!< kind of an soaRec
    static const std::string DNS_NS_REC;    //!< kind of an nsRec
    static const std::string DNS_CNAME_REC; //!< kind of a cnameRec

    static constexpr uint32_t DEFAULT_SERIAL = 100;   //!< NetScaler's -serial
    static constexpr uint32_t DEFAULT_REFRESH = 3600; //!< NetScaler's -refresh, s
    static constexpr uint32_t DEFAULT_RETRY = 3;      //!< NetScaler's -retry, s
    static constexpr uint32_t DEFAULT_EXPIRE = 3600;  //!< NetScaler's -expire, s
    static constexpr uint32_t DEFAULT_MINIMUM = 5;    //!< NetScaler's -minimum, s
    static constexpr uint32_t DEFAULT_TTL = 3600;     //!< NetScaler's record -TTL, s

    /// \param language NetScaler's language: the commands above are added (once)
    static void Register(AdcConfigLanguage& language);

    /**
     * \param store a configuration
     * \return its records: every SOA, then every NS, then every CNAME, each in the order added
     */
    static std::vector<AdcDnsResourceRecord> GetRecords(const AdcConfigStore& store);
};

} // namespace ns3

#endif /* ADC_NETSCALER_GSLB_DNS_H */
