/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the one registry of load-balancing method names. NetScaler's names are
 * canonical; other products' vocabularies (ilbadm's) are aliases of the same methods.
 */

#ifndef ADC_LB_METHOD_REGISTRY_H
#define ADC_LB_METHOD_REGISTRY_H

#include "adc-lb-method.h"

#include "ns3/adc-text.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Every load-balancing method by name: factories keyed by the canonical (NetScaler)
 * name, and vocabularies of aliases with their own case rule.
 *
 * Built in: the methods of AdcLbMethod (ROUNDROBIN, WEIGHTEDROUNDROBIN, LEASTCONNECTION,
 * SOURCEIPHASH, SRCIPSRCPORTHASH, SRCIPDESTIPHASH, URLHASH, DESTINATIONIPHASH, MAGLEV), the
 * vocabulary NETSCALER (every canonical name, case-insensitive as NetScaler's CLI) and the
 * vocabulary ILBADM (roundrobin, hash-ip, hash-ip-port, hash-ip-vip; case-insensitive as
 * ilbadm, whose i_val_from_str compares with strncasecmp) and the vocabulary ILB (what those
 * names mean on an illumos ILB: hash-ip, hash-ip-port and hash-ip-vip are illumos's own
 * hashes ILBHASHIP, ILBHASHIPPORT, ILBHASHIPVIP of AdcIlbHashLb; the consistent alternatives
 * are rendezvous-hash-ip, rendezvous-hash-ip-port, rendezvous-hash-ip-vip and maglev). A subject
 * adds its own methods
 * (e.g. GSLB's RTT, STATICPROXIMITY) with Register and its own vocabulary with AddVocabulary
 * and AddAlias, without editing this file.
 *
 * A Query says which names a setting accepts: a vocabulary and the traits every accepted
 * method must have (e.g. FLOW_HASH for sessionless balancing). Resolve and Create build the
 * one error text for every setting: "owner: setting 'value' is not one of <the names the query
 * accepts>".
 */
class AdcLbMethodRegistry
{
  public:
    /// Vocabulary of NetScaler's names (the canonical ones), case-insensitive.
    static const std::string NETSCALER;
    /// Vocabulary of Solaris/illumos ilbadm's lbalg names, case-insensitive, as the shared
    /// methods (NetScaler's equivalents): for settings of other subjects that take them.
    static const std::string ILBADM;
    /// ilbadm's lbalg names as an illumos ILB runs them (its own hashes), plus the consistent
    /// alternatives; case-insensitive. Not part of ANY.
    static const std::string ILB;
    /**
     * Every vocabulary at once, case-insensitive: the canonical names, then the aliases of the
     * other vocabularies that differ from them. Only for the settings that always accepted both
     * vocabularies (AdcLbMethod::Create, the policy routing's balanceMethod).
     */
    static const std::string ANY;

    /// What a method guarantees or reads (bit flags).
    enum Trait : uint32_t
    {
        FLOW_HASH = 1U << 0,    //!< a hash of packet header fields only: every packet of a flow
                                //!< gets the same choice without per-flow state
        USES_REQUEST = 1U << 1, //!< reads the request head (L7); falls back at L4
        USES_LDNS = 1U << 2,    //!< reads the client's LDNS address (GSLB)
        /// offered for choosing a cache (the CRD lower tier's cache vserver, its help and
        /// error texts, crd-compare's variants): a method registered with it is usable there
        /// with no other change
        CACHE_SELECTION = 1U << 3
    };

    /// Builds a new, unconfigured method.
    using Factory = std::function<Ptr<AdcLbMethod>()>;

    /// Which names a setting accepts.
    struct Query
    {
        std::string vocabulary{NETSCALER}; //!< the vocabulary the names are read in
        uint32_t traits{0};                //!< traits every accepted method has
        /// When not empty, the canonical names the setting is limited to (a subject's choice,
        /// e.g. the CRD lower tier's cache methods); listed in registration order.
        std::vector<std::string> only{};
    };

    /**
     * \brief Register a method under its canonical name; it joins the NETSCALER vocabulary.
     * \param name the canonical name (upper case by NetScaler's convention)
     * \param factory builds the method
     * \param traits what the method guarantees or reads (Trait bits)
     * \throws AdcConfigError when the name is empty, has blanks or is already registered
     */
    static void Register(const std::string& name, Factory factory, uint32_t traits = 0);

    /**
     * \brief Remove a method and every alias of it (a subject that withdraws a method; tests
     * that register one and must leave the registry as they found it).
     * \param name a canonical name registered with Register (AdcConfigError otherwise)
     */
    static void Unregister(const std::string& name);

    /**
     * \brief Add a vocabulary (a product's spelling of method names).
     * \param vocabulary its name
     * \param rule how its names compare
     * \throws AdcConfigError when it exists
     */
    static void AddVocabulary(const std::string& vocabulary, AdcText::Case rule);

    /// \param vocabulary a vocabulary added with AddVocabulary, removed with its aliases
    static void RemoveVocabulary(const std::string& vocabulary);

    /**
     * \brief Add a name to a vocabulary.
     * \param vocabulary an existing vocabulary
     * \param alias the name in that vocabulary (printed back as given)
     * \param canonical the registered method it means
     * \throws AdcConfigError for an unknown vocabulary or method, or an alias already there
     */
    static void AddAlias(const std::string& vocabulary,
                         const std::string& alias,
                         const std::string& canonical);

    /**
     * \brief Read a method name.
     * \param name the name given
     * \param query what the setting accepts
     * \param owner who reads it, for the message (e.g. "AdcPolicyRouting: rule 'r' (#0)")
     * \param setting the setting, for the message (e.g. "balanceMethod")
     * \param why an optional reason appended to the message
     * \return the canonical name
     * \throws AdcConfigError "owner: setting 'name' is not one of <GetNames(query)>[: why]"
     */
    static std::string Resolve(const std::string& name,
                               const Query& query,
                               const std::string& owner,
                               const std::string& setting,
                               const std::string& why = "");

    /**
     * \brief Build a method by a name of \p vocabulary.
     * \param name the name
     * \param vocabulary the vocabulary
     * \return a new method
     * \throws AdcConfigError listing that vocabulary's names
     */
    static Ptr<AdcLbMethod> Create(const std::string& name, const std::string& vocabulary);

    /**
     * \param query what a setting accepts
     * \return the names it accepts, in registration order (aliases in the order added)
     */
    static std::vector<std::string> GetNames(const Query& query);

    /**
     * \param vocabulary a vocabulary
     * \param traits traits every listed method has
     * \return its names, as GetNames(Query)
     */
    static std::vector<std::string> GetNames(const std::string& vocabulary, uint32_t traits = 0);

    /**
     * \param canonical a registered name
     * \param vocabulary a vocabulary
     * \return the first name of \p vocabulary for that method, or "" when it has none
     */
    static std::string GetAlias(const std::string& canonical, const std::string& vocabulary);

    /// \param canonical a registered name \return its traits (AdcConfigError when unknown)
    static uint32_t GetTraits(const std::string& canonical);

    /// \return the vocabularies, NETSCALER first
    static std::vector<std::string> GetVocabularies();
};

} // namespace ns3

#endif /* ADC_LB_METHOD_REGISTRY_H */
