/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-lb-method-registry.h"

#include "adc-ilb-hash-lb.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <utility>

namespace ns3
{

const std::string AdcLbMethodRegistry::NETSCALER = "NetScaler";
const std::string AdcLbMethodRegistry::ILBADM = "ilbadm";
const std::string AdcLbMethodRegistry::ILB = "ilb";
const std::string AdcLbMethodRegistry::ANY = "any";

namespace
{

/// One registered method.
struct Method
{
    std::string name;                     //!< canonical name
    AdcLbMethodRegistry::Factory factory; //!< builds it
    uint32_t traits;                      //!< Trait bits
};

/// A name in a vocabulary and the method it means.
using Alias = std::pair<std::string, std::string>;

/// One vocabulary.
struct Vocabulary
{
    std::string name;           //!< its name
    AdcText::Case rule;         //!< how its names compare
    std::vector<Alias> aliases; //!< (name, canonical), in the order added
};

/// What the registry holds.
struct Registry
{
    std::vector<Method> methods;          //!< in registration order
    std::vector<Vocabulary> vocabularies; //!< NETSCALER first
};

/// \return a factory of T
template <typename T>
AdcLbMethodRegistry::Factory
Make()
{
    return [] { return Ptr<AdcLbMethod>(CreateObject<T>()); };
}

/// \return a factory of a source-hash method in \p mode
AdcLbMethodRegistry::Factory
MakeSourceHash(AdcSourceHashLb::Mode mode)
{
    return [mode] {
        Ptr<AdcSourceHashLb> m = CreateObject<AdcSourceHashLb>();
        m->SetMode(mode);
        return Ptr<AdcLbMethod>(m);
    };
}

/// \return a factory of illumos's hash in \p mode
AdcLbMethodRegistry::Factory
MakeIlbHash(AdcIlbHashLb::Mode mode)
{
    return [mode] {
        Ptr<AdcIlbHashLb> m = CreateObject<AdcIlbHashLb>();
        m->SetMode(mode);
        return Ptr<AdcLbMethod>(m);
    };
}

/// \return the registry with the core's methods and the three built-in vocabularies
Registry
Builtins()
{
    using R = AdcLbMethodRegistry;
    Registry r;
    r.methods = {
        // The CRD lower tier's cache methods (CACHE_SELECTION) are those NetScaler's cache
        // redirection documents for a cache vserver.
        {"ROUNDROBIN", Make<AdcRoundRobinLb>(), R::CACHE_SELECTION},
        {"WEIGHTEDROUNDROBIN", Make<AdcWeightedRoundRobinLb>(), 0},
        {"LEASTCONNECTION", Make<AdcLeastConnectionLb>(), R::CACHE_SELECTION},
        {"SOURCEIPHASH", MakeSourceHash(AdcSourceHashLb::IP), R::FLOW_HASH},
        {"SRCIPSRCPORTHASH", MakeSourceHash(AdcSourceHashLb::IP_PORT), R::FLOW_HASH},
        {"SRCIPDESTIPHASH", MakeSourceHash(AdcSourceHashLb::IP_VIP), R::FLOW_HASH},
        {"URLHASH", Make<AdcUrlHashLb>(), R::USES_REQUEST | R::CACHE_SELECTION},
        {"DESTINATIONIPHASH", Make<AdcDestinationIpHashLb>(), R::FLOW_HASH | R::CACHE_SELECTION},
        {"MAGLEV", Make<AdcMaglevLb>(), R::FLOW_HASH},
        {"ILBHASHIP", MakeIlbHash(AdcIlbHashLb::IP), R::FLOW_HASH},
        {"ILBHASHIPPORT", MakeIlbHash(AdcIlbHashLb::IP_PORT), R::FLOW_HASH},
        {"ILBHASHIPVIP", MakeIlbHash(AdcIlbHashLb::IP_VIP), R::FLOW_HASH},
    };
    Vocabulary netscaler{R::NETSCALER, AdcText::INSENSITIVE, {}};
    for (const Method& m : r.methods)
    {
        netscaler.aliases.emplace_back(m.name, m.name);
    }
    // ilbadm(8): roundrobin, hash-ip, hash-ip-port (source IP and port), hash-ip-vip (source
    // IP and VIP): NetScaler's ROUNDROBIN, SOURCEIPHASH, SRCIPSRCPORTHASH, SRCIPDESTIPHASH.
    Vocabulary ilbadm{R::ILBADM,
                      AdcText::INSENSITIVE,
                      {{"roundrobin", "ROUNDROBIN"},
                       {"hash-ip", "SOURCEIPHASH"},
                       {"hash-ip-port", "SRCIPSRCPORTHASH"},
                       {"hash-ip-vip", "SRCIPDESTIPHASH"}}};
    // An illumos ILB: the same words, its own hashes (ilb_alg_hash.c); the consistent hashes
    // stay selectable under other names.
    Vocabulary ilb{R::ILB,
                   AdcText::INSENSITIVE,
                   {{"roundrobin", "ROUNDROBIN"},
                    {"hash-ip", "ILBHASHIP"},
                    {"hash-ip-port", "ILBHASHIPPORT"},
                    {"hash-ip-vip", "ILBHASHIPVIP"},
                    {"rendezvous-hash-ip", "SOURCEIPHASH"},
                    {"rendezvous-hash-ip-port", "SRCIPSRCPORTHASH"},
                    {"rendezvous-hash-ip-vip", "SRCIPDESTIPHASH"},
                    {"maglev", "MAGLEV"}}};
    r.vocabularies = {netscaler, ilbadm, ilb};
    return r;
}

/// \return the registry (built on first use, so other files may register at any time)
Registry&
Get()
{
    static Registry registry = Builtins();
    return registry;
}

/// \return the method named \p canonical (exactly), or null
const Method*
FindMethod(const std::string& canonical)
{
    for (const Method& m : Get().methods)
    {
        if (m.name == canonical)
        {
            return &m;
        }
    }
    return nullptr;
}

/// \return the vocabulary \p name, or null
Vocabulary*
FindVocabulary(const std::string& name)
{
    for (Vocabulary& v : Get().vocabularies)
    {
        if (v.name == name)
        {
            return &v;
        }
    }
    return nullptr;
}

/// \return the (name, canonical) pairs \p query accepts and how they compare
std::pair<std::vector<Alias>, AdcText::Case>
Accepted(const AdcLbMethodRegistry::Query& query)
{
    std::vector<Alias> all;
    AdcText::Case rule = AdcText::INSENSITIVE;
    if (query.vocabulary == AdcLbMethodRegistry::ANY)
    {
        // Later vocabularies add only the names that differ from those listed already.
        for (const Vocabulary& v : Get().vocabularies)
        {
            if (v.name == AdcLbMethodRegistry::ILB)
            {
                continue; // its words mean other methods than ilbadm's shared ones
            }
            for (const Alias& a : v.aliases)
            {
                bool listed = false;
                for (const Alias& b : all)
                {
                    listed = listed || AdcText::EqualsNoCase(a.first, b.first);
                }
                if (!listed)
                {
                    all.push_back(a);
                }
            }
        }
    }
    else
    {
        const Vocabulary* v = FindVocabulary(query.vocabulary);
        if (v == nullptr)
        {
            throw AdcConfigError::NotOneOf("AdcLbMethodRegistry",
                                           "vocabulary",
                                           query.vocabulary,
                                           AdcLbMethodRegistry::GetVocabularies());
        }
        all = v->aliases;
        rule = v->rule;
    }
    std::vector<Alias> out;
    for (const Alias& a : all)
    {
        const bool chosen =
            query.only.empty() ||
            std::find(query.only.begin(), query.only.end(), a.second) != query.only.end();
        if (chosen && (FindMethod(a.second)->traits & query.traits) == query.traits)
        {
            out.push_back(a);
        }
    }
    return {out, rule};
}

/// \param name a name to register \param what what it names, for the message
void
CheckName(const std::string& name, const std::string& what)
{
    if (name.empty() || name.find_first_of(" \t\r\n,") != std::string::npos)
    {
        throw AdcConfigError("AdcLbMethodRegistry: " + what + " '" + name +
                             "' is empty or has blanks or commas; names are single words");
    }
}

} // namespace

void
AdcLbMethodRegistry::Register(const std::string& name, Factory factory, uint32_t traits)
{
    CheckName(name, "method name");
    if (FindMethod(name) != nullptr || !factory)
    {
        throw AdcConfigError(
            "AdcLbMethodRegistry: method '" + name +
            (factory ? "' is already registered; names must be unique" : "' has no factory"));
    }
    Get().methods.push_back({name, std::move(factory), traits});
    FindVocabulary(NETSCALER)->aliases.emplace_back(name, name);
}

void
AdcLbMethodRegistry::Unregister(const std::string& name)
{
    GetTraits(name); // throws for an unknown name
    auto& methods = Get().methods;
    methods.erase(std::remove_if(methods.begin(),
                                 methods.end(),
                                 [&name](const Method& m) { return m.name == name; }),
                  methods.end());
    for (Vocabulary& v : Get().vocabularies)
    {
        v.aliases.erase(std::remove_if(v.aliases.begin(),
                                       v.aliases.end(),
                                       [&name](const Alias& a) { return a.second == name; }),
                        v.aliases.end());
    }
}

void
AdcLbMethodRegistry::AddVocabulary(const std::string& vocabulary, AdcText::Case rule)
{
    CheckName(vocabulary, "vocabulary");
    if (vocabulary == ANY || FindVocabulary(vocabulary) != nullptr)
    {
        throw AdcConfigError("AdcLbMethodRegistry: vocabulary '" + vocabulary + "' exists already");
    }
    Get().vocabularies.push_back({vocabulary, rule, {}});
}

void
AdcLbMethodRegistry::RemoveVocabulary(const std::string& vocabulary)
{
    auto& all = Get().vocabularies;
    const auto it = std::find_if(all.begin(), all.end(), [&vocabulary](const Vocabulary& v) {
        return v.name == vocabulary;
    });
    if (it == all.end() || vocabulary == NETSCALER || vocabulary == ILBADM || vocabulary == ILB)
    {
        throw AdcConfigError("AdcLbMethodRegistry: vocabulary '" + vocabulary +
                             "' is not one a subject added; built-in vocabularies stay");
    }
    all.erase(it);
}

void
AdcLbMethodRegistry::AddAlias(const std::string& vocabulary,
                              const std::string& alias,
                              const std::string& canonical)
{
    CheckName(alias, "alias");
    Vocabulary* v = FindVocabulary(vocabulary);
    if (v == nullptr)
    {
        throw AdcConfigError::NotOneOf("AdcLbMethodRegistry",
                                       "vocabulary",
                                       vocabulary,
                                       GetVocabularies());
    }
    if (FindMethod(canonical) == nullptr)
    {
        throw AdcConfigError::NotOneOf("AdcLbMethodRegistry",
                                       "canonical method",
                                       canonical,
                                       GetNames(NETSCALER));
    }
    for (const Alias& a : v->aliases)
    {
        if (AdcText::Equals(a.first, alias, v->rule))
        {
            throw AdcConfigError("AdcLbMethodRegistry: " + vocabulary + " name '" + alias +
                                 "' is already an alias of " + a.second);
        }
    }
    v->aliases.emplace_back(alias, canonical);
}

std::string
AdcLbMethodRegistry::Resolve(const std::string& name,
                             const Query& query,
                             const std::string& owner,
                             const std::string& setting,
                             const std::string& why)
{
    const auto accepted = Accepted(query);
    std::vector<std::string> names;
    for (const Alias& a : accepted.first)
    {
        if (AdcText::Equals(name, a.first, accepted.second))
        {
            return a.second;
        }
        names.push_back(a.first);
    }
    const AdcConfigError e = AdcConfigError::NotOneOf(owner, setting, name, names);
    throw why.empty() ? e : AdcConfigError(std::string(e.what()) + ": " + why);
}

Ptr<AdcLbMethod>
AdcLbMethodRegistry::Create(const std::string& name, const std::string& vocabulary)
{
    const std::string canonical =
        Resolve(name, Query{vocabulary, 0, {}}, "AdcLbMethodRegistry", vocabulary + " method");
    return FindMethod(canonical)->factory();
}

std::vector<std::string>
AdcLbMethodRegistry::GetNames(const Query& query)
{
    std::vector<std::string> names;
    for (const Alias& a : Accepted(query).first)
    {
        names.push_back(a.first);
    }
    return names;
}

std::vector<std::string>
AdcLbMethodRegistry::GetNames(const std::string& vocabulary, uint32_t traits)
{
    return GetNames(Query{vocabulary, traits, {}});
}

std::string
AdcLbMethodRegistry::GetAlias(const std::string& canonical, const std::string& vocabulary)
{
    for (const Alias& a : Accepted(Query{vocabulary, 0, {}}).first)
    {
        if (a.second == canonical)
        {
            return a.first;
        }
    }
    return "";
}

uint32_t
AdcLbMethodRegistry::GetTraits(const std::string& canonical)
{
    const Method* m = FindMethod(canonical);
    if (m == nullptr)
    {
        throw AdcConfigError::NotOneOf("AdcLbMethodRegistry",
                                       "method",
                                       canonical,
                                       GetNames(NETSCALER));
    }
    return m->traits;
}

std::vector<std::string>
AdcLbMethodRegistry::GetVocabularies()
{
    std::vector<std::string> names;
    for (const Vocabulary& v : Get().vocabularies)
    {
        names.push_back(v.name);
    }
    return names;
}

} // namespace ns3
