/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP client's cookie jar (CookiePolicy) and its stateful transactions
 * (TransactionLength), which content switching's clients need (CS-08, CS-09).
 */

#include "adc-http-client.h"

#include "ns3/adc-http-cookie.h"
#include "ns3/adc-text.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpClientCookies");

// ---- cookies -------------------------------------------------------------------------------

bool
AdcHttpClient::MayKeep(const std::string& name) const
{
    return m_cookiePolicy == COOKIES_KEEP ||
           (m_cookiePolicy == COOKIES_OTHER && name.compare(0, 4, "NSC_") != 0);
}

void
AdcHttpClient::StoreCookies(uint64_t rid, const AdcHttpMessage& response)
{
    if (m_cookiePolicy == COOKIES_NONE)
    {
        return;
    }
    const Time now = Simulator::Now();
    for (const std::string& field : response.GetHeaders("Set-Cookie"))
    {
        const auto c = AdcSetCookie::Parse(field);
        if (!c || !AdcHttpCookies::IsCookieName(c->name.data(), c->name.size()) ||
            AdcText::FindControl(c->value) != std::string::npos || !MayKeep(c->name))
        {
            continue;
        }
        auto it = std::find_if(m_jar.begin(), m_jar.end(), [&c](const JarCookie& j) {
            return j.name == c->name;
        });
        // Lifetimes beyond ~31 years are cut there: Time holds only ~292 years of ns.
        const int64_t kLongest = 1000000000;
        Time expiry = Time::Max();
        if (c->maxAge) // Max-Age wins over Expires (RFC 6265 5.3 step 3)
        {
            expiry = *c->maxAge <= 0
                         ? now
                         : now + Seconds(static_cast<double>(std::min(*c->maxAge, kLongest)));
        }
        else if (c->expires) // a Unix time: simulation time 0 is AdcSetCookie::GetEpoch()
        {
            const int64_t at = *c->expires - AdcSetCookie::GetEpoch();
            expiry = at <= 0 ? Time(0) : Seconds(static_cast<double>(std::min(at, kLongest)));
        }
        if (expiry <= now)
        {
            if (it != m_jar.end())
            {
                m_jar.erase(it); // RFC 6265 5.3 step 12: an expired cookie deletes
            }
            continue;
        }
        if (it == m_jar.end())
        {
            m_jar.push_back(JarCookie{c->name, c->value, expiry});
        }
        else
        {
            it->value = c->value; // RFC 6265 5.3 step 11: the old creation time (place) stays
            it->expiry = expiry;
        }
        NS_LOG_INFO("client " << GetNode()->GetId() << " keeps cookie " << c->name << "="
                              << c->value);
        if (!m_disposing)
        {
            m_cookieSetTrace(rid, c->name, c->value, expiry);
        }
    }
}

std::string
AdcHttpClient::GetCookieHeader()
{
    if (m_cookiePolicy == COOKIES_NONE)
    {
        return "";
    }
    const Time now = Simulator::Now();
    m_jar.erase(std::remove_if(m_jar.begin(),
                               m_jar.end(),
                               [now](const JarCookie& j) { return j.expiry <= now; }),
                m_jar.end());
    std::string out;
    if (m_cookiePolicy == COOKIES_OTHER && !m_otherCookie.empty())
    {
        const std::string name = m_otherCookie.substr(0, m_otherCookie.find('='));
        if (std::none_of(m_jar.begin(), m_jar.end(), [&name](const JarCookie& j) {
                return j.name == name;
            }))
        {
            out = m_otherCookie;
        }
    }
    for (const JarCookie& j : m_jar)
    {
        out += (out.empty() ? "" : "; ") + j.name + "=" + j.value;
    }
    return out;
}

// ---- transactions --------------------------------------------------------------------------

uint64_t
AdcHttpClient::TransactionOf(uint64_t rid) const
{
    return m_transactionLength > 1 ? (rid - 1) / m_transactionLength + 1 : 0;
}

void
AdcHttpClient::CheckVersion(uint64_t rid, const AdcHttpMessage& response)
{
    auto it = m_txs.find(TransactionOf(rid));
    if (it == m_txs.end())
    {
        return;
    }
    Transaction& t = it->second;
    const std::string version =
        response.GetHeader("X-App-Version").value_or(response.GetHeader("Server").value_or(""));
    if (!t.version)
    {
        t.version = version;
        return;
    }
    if (*t.version != version && !t.broken)
    {
        t.broken = true;
        ++m_txBroken;
        NS_LOG_INFO("client " << GetNode()->GetId() << " transaction " << it->first
                              << " broken by request " << rid << ": " << *t.version << " -> "
                              << version);
        if (!m_disposing)
        {
            m_txBrokenTrace(it->first, rid, *t.version, version);
        }
    }
}

void
AdcHttpClient::TransactionEnd(uint64_t rid, AdcRequestOutcome outcome)
{
    const uint64_t tid = TransactionOf(rid);
    auto it = m_txs.find(tid);
    if (it == m_txs.end())
    {
        return;
    }
    Transaction& t = it->second;
    ++t.ended;
    t.completed += outcome == AdcRequestOutcome::COMPLETED ? 1 : 0;
    t.openAtStop = t.openAtStop || outcome == AdcRequestOutcome::OPEN_AT_STOP;
    if (t.ended == m_transactionLength && !t.openAtStop)
    {
        FinishTransaction(tid);
    }
}

void
AdcHttpClient::FinishTransaction(uint64_t tid)
{
    const Transaction t = m_txs.at(tid);
    m_txs.erase(tid);
    ++m_txDone;
    if (!m_disposing)
    {
        m_txDoneTrace(tid, t.issued, t.completed, t.broken);
    }
}

} // namespace ns3
