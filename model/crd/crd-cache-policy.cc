/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): NetScaler's built-in classic cache-redirection
 * policies.
 */

#include "crd-cache-policy.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Split \p value at commas into trimmed items (empty items kept).
std::vector<std::string>
SplitComma(const std::string& value)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t comma = value.find(',', start);
        out.push_back(AdcText::Trim(value.substr(start, comma - start)));
        if (comma == std::string::npos)
        {
            return out;
        }
        start = comma + 1;
    }
}

/// \return true when a Cache-Control value holds no-cache or no-store (directives may carry
/// arguments: no-cache="Set-Cookie")
bool
HasNoCacheDirective(const std::string& value)
{
    for (const std::string& item : SplitComma(value))
    {
        const std::string directive =
            AdcText::ToLower(AdcText::Trim(item.substr(0, item.find('='))));
        if (directive == "no-cache" || directive == "no-store")
        {
            return true;
        }
    }
    return false;
}

} // namespace

const std::vector<std::string>&
CrdCachePolicies::GetBuiltinNames()
{
    static const std::vector<std::string> kNames = {"bypass-non-get",
                                                    "bypass-cache-control",
                                                    "bypass-dynamic-url",
                                                    "bypass-urltokens",
                                                    "bypass-cookie"};
    return kNames;
}

std::string
CrdCachePolicies::GetDefaultText()
{
    std::string text;
    for (const std::string& name : GetBuiltinNames())
    {
        text += (text.empty() ? "" : ",") + name;
    }
    return text;
}

std::vector<std::string>
CrdCachePolicies::Parse(const std::string& text, const std::string& who)
{
    std::vector<std::string> out;
    if (AdcText::Trim(text).empty())
    {
        return out;
    }
    for (const std::string& item : SplitComma(text))
    {
        const std::string name = AdcText::ToLower(item);
        if (AdcText::Find(name, GetBuiltinNames(), AdcText::EXACT) < 0)
        {
            throw AdcConfigError(who + " '" + text + "': '" + item +
                                 "' is not a built-in cache redirection policy; allowed: " +
                                 AdcConfigError::JoinAllowed(GetBuiltinNames()) +
                                 " (comma-separated), or empty for none");
        }
        if (std::find(out.begin(), out.end(), name) != out.end())
        {
            throw AdcConfigError(who + " '" + text + "': '" + item +
                                 "' is bound twice; give each policy once");
        }
        out.push_back(name);
    }
    return out;
}

std::string
CrdCachePolicies::PathOf(const std::string& target)
{
    std::string path = target.substr(0, target.find('?'));
    const std::size_t scheme = path.find("://");
    if (scheme != std::string::npos && path.find('/') > scheme)
    {
        const std::size_t slash = path.find('/', scheme + 3);
        path = slash == std::string::npos ? "/" : path.substr(slash);
    }
    return path;
}

std::string
CrdCachePolicies::ExtensionOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    const std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = last.rfind('.');
    return dot == std::string::npos ? "" : AdcText::ToLower(last.substr(dot + 1));
}

bool
CrdCachePolicies::Matches(const std::string& policy, const AdcHttpMessage& request)
{
    const std::string& target = request.GetTarget();
    if (policy == "bypass-non-get")
    {
        return request.GetMethod() != "GET";
    }
    if (policy == "bypass-cache-control")
    {
        for (const std::string& value : request.GetHeaders("Cache-Control"))
        {
            if (HasNoCacheDirective(value))
            {
                return true;
            }
        }
        return request.GetHeader("Pragma").has_value();
    }
    if (policy == "bypass-dynamic-url")
    {
        static const std::vector<std::string> kExtensions =
            {"cgi", "asp", "exe", "cfm", "ex", "shtml", "htx"};
        const std::string path = PathOf(target);
        if (AdcText::Find(ExtensionOf(path), kExtensions, AdcText::EXACT) >= 0)
        {
            return true;
        }
        const std::string lower = AdcText::ToLower(path);
        for (const char* prefix : {"/cgi-bin/", "/bin/", "/exec/"})
        {
            if (lower.rfind(prefix, 0) == 0)
            {
                return true;
            }
        }
        return false;
    }
    if (policy == "bypass-urltokens")
    {
        return target.find_first_of("?!=") != std::string::npos;
    }
    if (policy == "bypass-cookie")
    {
        const std::string ext = ExtensionOf(PathOf(target));
        return request.GetHeader("Cookie").has_value() && ext != "gif" && ext != "jpg";
    }
    return false;
}

} // namespace ns3
