/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what a proxy policy (CRD's lower tier, content switching, ...) sees of a request
 * and what it tells the proxy engine to do with it.
 */

#ifndef ADC_PROXY_POLICY_H
#define ADC_PROXY_POLICY_H

#include "adc-source-address-policy.h"

#include "ns3/adc-http-message.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A client-side (front) connection of a proxy engine, as its policy sees it.
 */
struct AdcProxyFront
{
    uint64_t id{0};       //!< the engine's connection id (from 1)
    Ipv4Address peerIp;   //!< who connected
    uint16_t peerPort{0}; //!< from which port
    /// The address the peer connected to: with transparent interception, the original
    /// destination (the accepted socket's GetSockName).
    Ipv4Address localIp;
    uint16_t localPort{0}; //!< the port it connected to
    uint32_t kind{0};      //!< the policy's own classification, set in Accepted
    /// With TLS termination ("Tls"): the established session's ID (bytes; empty before the
    /// handshake completes, and without TLS)
    std::string tlsSessionId;
    bool tlsResumed{false};    //!< the session was resumed (abbreviated handshake)
    std::string tlsServerName; //!< the SNI host name the client sent ("" none)
};

/**
 * \ingroup adc
 * \brief One change to a request head before it is forwarded.
 */
struct AdcHeaderEdit
{
    std::string name;                 //!< the field name
    std::optional<std::string> value; //!< set the field to it (replacing any); unset: remove
};

/**
 * \ingroup adc
 * \brief What a policy decides for one request: answer it locally, or forward it to a server
 * from a source that an AdcSourceAddressPolicy gives.
 */
struct AdcProxyDecision
{
    /// The two outcomes.
    enum Action
    {
        ANSWER, //!< the proxy answers with \c status itself
        FORWARD //!< the request goes to \c serverIp : \c serverPort
    };

    Action action{ANSWER}; //!< what to do

    uint16_t status{503};                      //!< ANSWER: the status code
    std::string reason{"Service Unavailable"}; //!< ANSWER: its reason phrase
    std::string drop;  //!< ANSWER: non-empty: the engine fires "Drop" with it first
    bool close{false}; //!< ANSWER: close the client connection after the answer

    std::string target;               //!< FORWARD: the server's name in traces
    Ipv4Address serverIp;             //!< FORWARD: the server
    uint16_t serverPort{0};           //!< FORWARD: its port
    std::vector<AdcHeaderEdit> edits; //!< FORWARD: head changes, in order
    /// FORWARD: fields added to the final response head for the client, in order, after the
    /// server's own (a persistence cookie's Set-Cookie); interim 1xx heads are left alone
    std::vector<std::pair<std::string, std::string>> responseFields;
    Ptr<AdcSourceAddressPolicy> source; //!< FORWARD: where the connection comes from
    Ipv4Address client;                 //!< FORWARD: the client it is for (USIP source)
    int64_t tag{-1}; //!< FORWARD: the policy's own (e.g. a service index), given back in Released

    /**
     * \param status the status code
     * \param reason its reason phrase
     * \param drop non-empty: a "Drop" reason to trace
     * \param close close the client connection after the answer
     * \return an ANSWER decision
     */
    static AdcProxyDecision Answer(uint16_t status,
                                   const std::string& reason,
                                   const std::string& drop = "",
                                   bool close = false);

    /**
     * \param target the server's name in traces
     * \param serverIp the server
     * \param serverPort its port
     * \param source the source-address policy of the connection
     * \param client the client the request is for
     * \return a FORWARD decision without header edits
     */
    static AdcProxyDecision Forward(const std::string& target,
                                    Ipv4Address serverIp,
                                    uint16_t serverPort,
                                    Ptr<AdcSourceAddressPolicy> source,
                                    Ipv4Address client);
};

/**
 * \ingroup adc
 * \brief The decisions an AdcProxyEngine asks of its owner: which server a request goes to,
 * with which header changes and from which source, or which answer it gets. The engine does
 * everything else (connections, parsing, relaying, timeouts, pooling).
 *
 * Not an ns-3 Object: the application that owns the engine implements it (CRD's lower tier,
 * later content switching) and outlives the engine's use of it.
 */
class AdcProxyPolicy
{
  public:
    virtual ~AdcProxyPolicy();

    /**
     * \brief A client connection was accepted, before any request: classify it (front.kind).
     * \param front the connection
     */
    virtual void Accepted(AdcProxyFront& front);

    /**
     * \brief Decide for one request (its head is complete; its body may still be arriving).
     * \param front the connection it came on
     * \param request its head as received
     * \return the decision
     */
    virtual AdcProxyDecision Decide(const AdcProxyFront& front, const AdcHttpMessage& request) = 0;

    /**
     * \brief The server side is done with a FORWARD decision: its connection closed, failed,
     * or went back to the pool after the response (once per FORWARD).
     * \param decision the decision, as Decide returned it
     */
    virtual void Released(const AdcProxyDecision& decision);
};

} // namespace ns3

#endif /* ADC_PROXY_POLICY_H */
