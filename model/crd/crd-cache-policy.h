/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): NetScaler's built-in classic cache-redirection
 * policies (bypass-non-get, bypass-cache-control, bypass-dynamic-url, bypass-urltokens,
 * bypass-cookie), which decide that a request bypasses the caches.
 */

#ifndef CRD_CACHE_POLICY_H
#define CRD_CACHE_POLICY_H

#include "ns3/adc-http-message.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief NetScaler's built-in classic cache-redirection policies, as the NetScaler
 * documentation ("Built-in cache redirection policies") describes them. Bound to a cache
 * redirection virtual server with the default -onPolicyMatch ORIGIN, a request that matches
 * one of them is not cacheable and goes to the origin; a request that matches none goes to a
 * cache.
 *
 * - bypass-non-get: the method is not GET.
 * - bypass-cache-control: a Cache-Control field holds the directive no-cache or no-store, or
 *   the request has a Pragma field.
 * - bypass-dynamic-url: the URL's path ends in one of the extensions cgi, asp, exe, cfm, ex,
 *   shtml, htx, or begins with /cgi-bin/, /bin/ or /exec/.
 * - bypass-urltokens: the URL holds one of the tokens '?', '!' or '='.
 * - bypass-cookie: the request has a Cookie field and the URL's extension is not gif or jpg
 *   (a URL without an extension included).
 *
 * Extensions and path prefixes compare case-insensitively; the path is the request target up
 * to the first '?', without "scheme://authority" for an absolute-form target.
 */
class CrdCachePolicies
{
  public:
    /// \return the five built-in policy names, in the documentation's order
    static const std::vector<std::string>& GetBuiltinNames();

    /// \return the default policy list: every built-in policy, comma-separated
    static std::string GetDefaultText();

    /**
     * \brief Read a comma-separated list of built-in policy names (the binding order, which is
     * also the order they are evaluated in; the first match names the bypass reason).
     * \param text the list; empty (or only spaces) binds no policy, so every request is
     *        cacheable (NetScaler's cache redirection vserver without bound policies)
     * \param who the object and setting, for the error message
     * \return the names, lower-case
     * \throws AdcConfigError for an unknown name, an empty item or a name given twice
     */
    static std::vector<std::string> Parse(const std::string& text, const std::string& who);

    /**
     * \param policy a built-in policy name (lower-case, as Parse returns it)
     * \param request a request head
     * \return true when \p policy matches \p request (the request bypasses the caches)
     */
    static bool Matches(const std::string& policy, const AdcHttpMessage& request);

    /**
     * \param target a request target
     * \return its path: up to the first '?', without "scheme://authority"
     */
    static std::string PathOf(const std::string& target);

    /**
     * \param path a URL path
     * \return the lower-case extension of its last segment (after the last '.'), "" for none
     */
    static std::string ExtensionOf(const std::string& path);
};

} // namespace ns3

#endif /* CRD_CACHE_POLICY_H */
