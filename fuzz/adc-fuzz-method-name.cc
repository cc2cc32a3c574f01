/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "method-name": the parsers that turn a configuration name into an object or an
 * enum without a simulation:
 * - AdcLbMethod::Create (LB methods; the CRD tiers, the ILB's algorithms and the policy
 *   routing's BALANCE methods all build their method through it),
 * - AdcPersistenceTypeFromString (persistence types),
 * - AdcPersistenceTable::CheckSupported (service-type names against the support matrix),
 * - AdcConfigError::SplitList (list settings such as the experiments' --methods=A,B).
 * The ILB's algorithm check and the policy routing's balance-method check are members of a
 * configured appliance, not static; both hand the name to AdcLbMethod::Create.
 *
 * Accepted names round-trip (the canonical name is accepted and gives itself back); a
 * rejection is an AdcConfigError whose message lists the allowed values, and nothing else may
 * escape (any other exception aborts the run).
 */

// REQ: ILB-02 (a rule's algorithm, named in its configuration, picks the back-end)
// REQ: CS-04 (persistence types SOURCEIP, COOKIEINSERT, SSLSESSION)
// REQ: CS-07 (the support matrix of persistence types and service types)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-persistence-table.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return \p s in ASCII upper case
std::string
Upper(std::string s)
{
    for (auto& c : s)
    {
        if (c >= 'a' && c <= 'z')
        {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    return s;
}

/// \return true when \p what names every value of \p allowed
bool
ListsAll(const std::string& what, const std::vector<std::string>& allowed)
{
    return std::all_of(allowed.begin(), allowed.end(), [&what](const std::string& a) {
        return what.find(a) != std::string::npos;
    });
}

/// \return true when \p name equals one of \p allowed ignoring ASCII case
bool
OneOfNoCase(const std::string& name, const std::vector<std::string>& allowed)
{
    const std::string u = Upper(name);
    return std::any_of(allowed.begin(), allowed.end(), [&u](const std::string& a) {
        return Upper(a) == u;
    });
}

/// AdcLbMethod::Create on \p name.
void
CheckLbMethod(const std::string& name)
{
    const std::vector<std::string> names = AdcLbMethod::GetMethodNames();
    Ptr<AdcLbMethod> m;
    try
    {
        m = AdcLbMethod::Create(name);
    }
    catch (const AdcConfigError& e)
    {
        ADC_FUZZ_CHECK(!OneOfNoCase(name, names));
        ADC_FUZZ_CHECK(name.find('\0') != std::string::npos || ListsAll(e.what(), names));
        return;
    }
    ADC_FUZZ_CHECK(m);
    ADC_FUZZ_CHECK(OneOfNoCase(name, names));
    const std::string canonical = m->GetMethodName();
    ADC_FUZZ_CHECK(std::find(names.begin(), names.end(), canonical) != names.end());
    Ptr<AdcLbMethod> again = AdcLbMethod::Create(canonical);
    ADC_FUZZ_CHECK(again->GetMethodName() == canonical);
    ADC_FUZZ_CHECK(again->GetInstanceTypeId() == m->GetInstanceTypeId());
    m->Dispose();
    again->Dispose();
}

/// AdcPersistenceTypeFromString on \p name.
void
CheckPersistenceType(const std::string& name)
{
    const std::vector<std::string> names = {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"};
    AdcPersistenceType t = AdcPersistenceType::NONE;
    try
    {
        t = AdcPersistenceTypeFromString(name);
    }
    catch (const AdcConfigError& e)
    {
        ADC_FUZZ_CHECK(!OneOfNoCase(name, names));
        ADC_FUZZ_CHECK(name.find('\0') != std::string::npos || ListsAll(e.what(), names));
        return;
    }
    const std::string canonical = AdcPersistenceTypeToString(t);
    ADC_FUZZ_CHECK(canonical == Upper(name));
    ADC_FUZZ_CHECK(AdcPersistenceTypeFromString(canonical) == t);
    std::ostringstream os;
    os << t;
    ADC_FUZZ_CHECK(os.str() == canonical);
}

/// AdcPersistenceTable::CheckSupported for every type, with \p service as the service type,
/// against the support matrix of the requirements (CS-07).
void
CheckServiceType(const std::string& service)
{
    const std::vector<std::string> known =
        {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"};
    const std::map<AdcPersistenceType, std::vector<std::string>> matrix = {
        {AdcPersistenceType::NONE, known},
        {AdcPersistenceType::SOURCEIP, {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP"}},
        {AdcPersistenceType::COOKIEINSERT, {"HTTP", "HTTPS"}},
        {AdcPersistenceType::SSLSESSION, {"HTTPS", "SSL_BRIDGE", "SSL_TCP"}},
    };
    std::string u = Upper(service);
    if (u == "UDP/IP")
    {
        u = "UDP";
    }
    const bool isKnown = std::find(known.begin(), known.end(), u) != known.end();
    for (const auto& [type, allowed] : matrix)
    {
        const bool expected = std::find(allowed.begin(), allowed.end(), u) != allowed.end();
        try
        {
            AdcPersistenceTable::CheckSupported(type, service);
        }
        catch (const AdcConfigError& e)
        {
            ADC_FUZZ_CHECK(!expected);
            if (service.find('\0') == std::string::npos)
            {
                ADC_FUZZ_CHECK(ListsAll(e.what(), isKnown ? allowed : known));
            }
            continue;
        }
        ADC_FUZZ_CHECK(expected);
    }
}

/// AdcConfigError::SplitList on \p text: the items, joined, are the text without separators.
std::vector<std::string>
CheckSplitList(const std::string& text, char separator)
{
    const std::vector<std::string> items = AdcConfigError::SplitList(text, separator);
    std::string joined;
    for (const auto& item : items)
    {
        ADC_FUZZ_CHECK(!item.empty());
        ADC_FUZZ_CHECK(item.find(separator) == std::string::npos);
        joined += item;
    }
    std::string expected = text;
    expected.erase(std::remove(expected.begin(), expected.end(), separator), expected.end());
    ADC_FUZZ_CHECK(joined == expected);
    return items;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string s = AdcFuzzString(data, size);
    CheckLbMethod(s);
    CheckPersistenceType(s);
    CheckServiceType(s);
    // A list setting: each item is a method name (as the experiments' --methods=A,B).
    const auto items = CheckSplitList(s, ',');
    for (std::size_t i = 0; i < items.size() && i < 8; ++i)
    {
        CheckLbMethod(items[i]);
    }
    CheckSplitList(s, ' ');
    return 0;
}
