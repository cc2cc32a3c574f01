/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB wire format: NetScaler's metric exchange protocol (MEP), the messages GSLB
 * sites exchange over TCP to share site health and LDNS round-trip times (GSLB-07), laid out
 * as Wireshark's dissector (epan/dissectors/packet-ns-mep.c, "nstrace.mep") reads them so
 * that pcaps decode with `tshark -d tcp.port==3011,nstrace.mep`.
 */

#ifndef ADC_MEP_MESSAGE_H
#define ADC_MEP_MESSAGE_H

#include "ns3/ipv4-address.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One network metric record of a NETWORK METRIC UPDATE: an LDNS and the sender's RTT
 * to it.
 *
 * Wire layout (8 bytes, the dissector's GSLIB_NET_MET_TABLE_SIZE): 0-3 LDNS IPv4 address as a
 * little-endian 32-bit integer (10.100.0.2 is 02 00 64 0a), 4-5 RTT in milliseconds (u16
 * little endian, `nstrace.mep.mfu.roundTripTime`), 6 hop count (`nstrace.mep.mfu.hops`), 7 pad
 * (zero).
 *
 * Byte order of the address, decided from Wireshark's packet-ns-mep.c (written by a Citrix
 * engineer): the field `nstrace.mep.ldns.ip` (FT_IPv4) is added with ENC_LITTLE_ENDIAN, in
 * NETWORK METRIC and PERSIST records alike, while every service address (`nstrace.mep.mfu.ip`,
 * `nstrace.mep.adv.ip`, `persistenceGslbServIp`) is added with ENC_BIG_ENDIAN: the appliance
 * sends the LDNS address as a host-order (little-endian) integer. Encoded so, the typed field
 * shows the true address and `nstrace.mep.ldns.ip == 10.100.0.2` matches; only the record's
 * label ("Network Metrics of ..."), which the dissector prints from the raw bytes in network
 * order, shows it reversed (2.0.100.10).
 */
struct AdcMepNetworkMetric
{
    Ipv4Address ldns;  //!< the client's local DNS server (`nstrace.mep.ldns.ip`)
    uint16_t rttMs{0}; //!< RTT from the sending site to the LDNS, milliseconds
    uint8_t hops{0};   //!< hop count (0: unknown)

    /// \param o another record \return true when every field is equal
    bool operator==(const AdcMepNetworkMetric& o) const;
};

/**
 * \ingroup adc
 * \brief One service record of a SITE METRIC UPDATE: a GSLB service's state.
 *
 * Wire layout (16 bytes, the dissector's Ns_GSLB_MSG_SITE_METRIC_UPDATE_SIZE): 0-1 command
 * (u16 LE; the dissector skips it), 2-3 state (u16 LE, `nstrace.mep.mfu.state`: 1 down, 2
 * unknown, 3 busy, 4 out of service, 5 transition out of service, 7 up, 8 TROFS down), 4-7
 * service IPv4 address in network order (`nstrace.mep.mfu.ip`), 8-9 port (big endian,
 * `nstrace.mep.mfu.port`), 10-11 service type (u16 LE, `nstrace.mep.mfu.svctype`, 0 HTTP,
 * 2 TCP, 3 UDP, 0x0e SSL, ...). Then, for versions above 2.2: 12 effective state
 * (`nstrace.mep.mfu.effstate`), 13 MEP flags (`nstrace.mep.mfu.mepflag`), 14-15 pad; for
 * 1.0, 2.1 and 2.2 bytes 12-15 are pad, so effectiveState and mepFlags must be 0.
 */
struct AdcMepSiteMetric
{
    static constexpr uint16_t kStateDown = 1; //!< SERVER_STATE_DOWN
    static constexpr uint16_t kStateUp = 7;   //!< SERVER_STATE_UP

    uint16_t command{0};       //!< per-record command (not shown by the dissector)
    uint16_t state{kStateUp};  //!< service state
    Ipv4Address ip;            //!< the service's public IP
    uint16_t port{0};          //!< the service's public port
    uint16_t serviceType{0};   //!< NSSVC_* (0 HTTP)
    uint8_t effectiveState{0}; //!< effective state (versions above 2.2)
    uint8_t mepFlags{0};       //!< MEP flags (versions above 2.2)

    /// \param o another record \return true when every field is equal
    bool operator==(const AdcMepSiteMetric& o) const;

    /**
     * \brief The NSSVC_* code of a GSLB service type, as packet-ns-mep.c's ns_svc_type_vals
     * names them (HTTP 0x00, TCP 0x02, UDP 0x03, SSL_BRIDGE 0x04, ANY 0x0d, SSL 0x0e, SSL_TCP
     * 0x14, SIP_UDP 0x24, RTSP 0x28).
     * \param serviceType one of AdcService::GetServiceTypes() (any case)
     * \return its code
     * \throws AdcConfigError naming the type and the allowed ones
     */
    static uint16_t ServiceTypeCode(const std::string& serviceType);
};

/**
 * \ingroup adc
 * \brief One MEP message (PDU) as Wireshark's packet-ns-mep.c dissects it.
 *
 * Header, 8 bytes, little endian: 0 major version (`nstrace.mep.maj`, member major), 1 minor
 * version (`nstrace.mep.min`, minor), 2-3 message type (`nstrace.mep.type`, type), 4-5 message
 * length (`nstrace.mep.len`: the whole PDU, header included; computed by Serialize), 6-7 status
 * code (`nstrace.mep.errcode`, status: 0 SUCCESS). The body follows without a sub-header:
 * - NETWORK_METRIC_UPDATE (7): 8-byte AdcMepNetworkMetric records (networkMetrics);
 * - SITE_METRIC_UPDATE (1): 16-byte AdcMepSiteMetric records (siteMetrics);
 * - KEEP_ALIVE (9): no body;
 * - the other types of the dissector's list (0..16): opaque body bytes (body).
 *
 * Versions: the dissector decodes 1.0 and 2.1 to 2.6 (it switches on the first two bytes read
 * as a little-endian u16: 0x0001, 0x0102 ... 0x0602); this model sends 2.6 by default (the
 * newest it decodes in full) and Parse refuses other versions. A length of 0xA5A5 is refused
 * both ways: the dissector takes those bytes as the signature of NetScaler RPC.
 *
 * Parse checks the whole PDU and reports, as an error naming the byte offset and what was
 * expected: data ending inside the header, an unknown version or type, a length field other
 * than the PDU's size, a body that is not whole records, non-zero pad bytes, a keep-alive
 * with a body. It never throws for wire input.
 */
struct AdcMepMessage
{
    /// Message types (the dissector's nslist_gslbmessage).
    enum Type : uint16_t
    {
        NONE = 0,                     //!< NONE
        SITE_METRIC_UPDATE = 1,       //!< site metric update (service state)
        SITE_METRIC_FORCE_REQ = 2,    //!< site metric force request
        SITE_ADV_IP_ADDR = 3,         //!< site advertises its IP address
        SITE_ADV_IP_ACK = 4,          //!< advertisement acknowledged
        SITE_ADV_IP_NACK = 5,         //!< advertisement refused
        SITE_METRIC_FORCE_UPDATE = 6, //!< forced site metric update (with counters)
        NETWORK_METRIC_UPDATE = 7,    //!< network metric update (LDNS RTTs)
        PERSIST_RECORD = 8,           //!< persistence record
        KEEP_ALIVE = 9,               //!< keep-alive
        CNAME_PERSIST_RECORD = 10,    //!< CNAME persistence record
        LBNODE_DOM_INFO = 11,         //!< domain info
        LBNODE_SITE_INFO = 12,        //!< site info
        LBNODE_FLUSH_SVC_INFO = 13,   //!< flush service
        LBNODE_FLUSH_DOM_INFO = 14,   //!< flush domain
        LBNODE_GETSVC = 15,           //!< get service
        LBNODE_GETSVC_RESP = 16       //!< get service response
    };

    static constexpr uint16_t kPort = 3011;                  //!< TCP port of plain MEP
    static constexpr uint16_t kSecurePort = 3009;            //!< TCP port of MEP over secure RPC
    static constexpr std::size_t kHeaderBytes = 8;           //!< major, minor, type, length, status
    static constexpr std::size_t kNetworkMetricBytes = 8;    //!< one AdcMepNetworkMetric
    static constexpr std::size_t kSiteMetricBytes = 16;      //!< one AdcMepSiteMetric
    static constexpr std::size_t kMaxBytes = 65535;          //!< u16 length field
    static constexpr uint16_t kRpcSignature = 0xA5A5;        //!< NetScaler RPC, not MEP
    static constexpr uint8_t kDefaultMajor = 2;              //!< version sent by default
    static constexpr uint8_t kDefaultMinor = 6;              //!< version sent by default
    static constexpr uint16_t kMaxType = LBNODE_GETSVC_RESP; //!< the highest known type

    uint8_t major{kDefaultMajor};                    //!< major version
    uint8_t minor{kDefaultMinor};                    //!< minor version
    uint16_t type{KEEP_ALIVE};                       //!< message type
    uint16_t status{0};                              //!< status code (0: SUCCESS)
    std::vector<AdcMepNetworkMetric> networkMetrics; //!< records of type 7
    std::vector<AdcMepSiteMetric> siteMetrics;       //!< records of type 1
    std::vector<uint8_t> body;                       //!< body of the other types (not 1, 7, 9)

    /// \return a keep-alive (type 9, no body)
    static AdcMepMessage KeepAlive();

    /// \param records LDNS RTTs \return a NETWORK METRIC UPDATE carrying them
    static AdcMepMessage NetworkMetricUpdate(const std::vector<AdcMepNetworkMetric>& records);

    /// \param records service states \return a SITE METRIC UPDATE carrying them
    static AdcMepMessage SiteMetricUpdate(const std::vector<AdcMepSiteMetric>& records);

    /**
     * \param major a major version \param minor a minor version
     * \return true for the versions the dissector decodes: 1.0 and 2.1 to 2.6
     */
    static bool IsKnownVersion(uint8_t major, uint8_t minor);

    /// \param type a message type \return its dissector name ("KEEP ALIVE"), "" when unknown
    static std::string TypeName(uint16_t type);

    /// \return the length field Serialize writes (header and body)
    std::size_t GetSerializedSize() const;

    /**
     * \return the PDU's bytes
     * \throws AdcConfigError naming the field, the value and what is allowed: an unknown
     *         version or type, records in the container of another type, a keep-alive with
     *         a body, effectiveState or mepFlags in a version up to 2.2, a PDU above 65535
     *         bytes or of length 0xA5A5
     */
    std::vector<uint8_t> Serialize() const;

    /**
     * \brief Parse one whole PDU (what AdcMepFramer cuts from a stream).
     * \param data the bytes \param size their number
     * \param error [out, may be null] on failure, e.g. "AdcMepMessage: byte 4: length 12:
     *        expected the PDU's size 16"
     * \return the message, or nullopt with \p error set
     */
    static std::optional<AdcMepMessage> Parse(const uint8_t* data,
                                              std::size_t size,
                                              std::string* error = nullptr);

    /// \param bytes the bytes \param error [out, may be null] \return the message or nullopt
    static std::optional<AdcMepMessage> Parse(const std::vector<uint8_t>& bytes,
                                              std::string* error = nullptr);

    /// \param o another message \return true when every field is equal
    bool operator==(const AdcMepMessage& o) const;
};

/**
 * \ingroup adc
 * \brief Cuts a TCP byte stream into MEP messages by their length field (as the dissector's
 * tcp_dissect_pdus does: the length is the u16 at offset 4) and parses each.
 *
 * Bytes can arrive in any pieces. A length below 8 or equal to 0xA5A5, or a PDU that Parse
 * refuses, is a stream error naming the message's stream byte offset; after it Feed returns
 * nothing more (the owner closes the connection).
 */
class AdcMepFramer
{
  public:
    /**
     * \param data received bytes \param size their number
     * \return the messages completed by them, in order
     */
    std::vector<AdcMepMessage> Feed(const uint8_t* data, std::size_t size);

    /// \return true once the stream is in error
    bool HasError() const;

    /// \return the error ("" when none), e.g. "AdcMepFramer: message at stream byte 16:
    /// AdcMepMessage: byte 4: length 3: expected at least 8 (the header)"
    const std::string& GetError() const;

    /// \return the stream bytes consumed into complete messages
    uint64_t GetMessageBytes() const;

    /// \return bytes held waiting for the rest of a message
    std::size_t GetBufferedBytes() const;

  private:
    std::vector<uint8_t> m_buffer; //!< bytes of the incomplete message
    uint64_t m_consumed{0};        //!< stream offset of m_buffer's first byte
    std::string m_error;           //!< the error ("" when none)
};

} // namespace ns3

#endif /* ADC_MEP_MESSAGE_H */
