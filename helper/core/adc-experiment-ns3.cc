/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-experiment-ns3.h"

#include "adc-experiment.h"

#include "ns3/adc-config-error.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <iostream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ns3
{
namespace adcexperiment
{

namespace
{

/**
 * \brief Try \p f in a child process: ns-3 aborts (NS_FATAL_ERROR) on some malformed values,
 * which no handler can catch.
 * \param f what to try \param reason set to ns-3's message when it fails
 * \return whether \p f returned true in the child
 */
bool
TryInChild(const std::function<bool()>& f, std::string* reason)
{
    std::cout.flush();
    std::cerr.flush();
    int fds[2];
    const pid_t pid = pipe(fds) == 0 ? fork() : -2;
    if (pid == 0)
    {
        dup2(fds[1], 2);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        const bool ok = f();
        std::cerr.flush();
        _exit(ok ? 0 : 3);
    }
    if (pid < 0)
    {
        return f(); // no child: ns-3 decides in this process
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) != 0;)
    {
        text.append(buf, n > 0 && text.size() < 65536 ? n : 0);
        if (n < 0 && errno != EINTR)
        {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    // ns-3's fatal errors read: ... msg="WHAT", file=... (or ", +TIME").
    const std::size_t m = text.find("msg=\"");
    const std::size_t end = m == std::string::npos
                                ? text.find('\n')
                                : std::min(text.find("\", file=", m), text.find("\", +", m));
    *reason =
        text.substr(m == std::string::npos ? 0 : m + 5,
                    end == std::string::npos ? end : end - (m == std::string::npos ? 0 : m + 5));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/**
 * \param who the message's start \param checker the setting's checker \param f its setter
 * \throws AdcConfigError when ns-3 refuses the value (tried in a child: it may abort)
 */
void
TryValue(const std::string& who, Ptr<const AttributeChecker> checker, std::function<bool()> f)
{
    std::string reason;
    if (!TryInChild(f, &reason))
    {
        throw AdcConfigError(who + "ns-3 refuses the value" +
                             (reason.empty() ? "" : " (" + AdcExperiment::Show(reason) + ")") +
                             "; allowed " + checker->GetUnderlyingTypeInformation());
    }
}

} // namespace

/// \param text text \param v set to its value \return whether \p text is a whole number
bool
ParseWhole(const std::string& text, long double* v)
{
    const std::size_t digits = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    if (text.size() <= digits || text.size() > 40 ||
        text.find_first_not_of("0123456789", digits) != std::string::npos)
    {
        return false;
    }
    *v = std::strtold(text.c_str(), nullptr);
    return true;
}

/**
 * \brief Check a `--ns3::Type::Attribute=value` argument.
 * \param name "ns3::Type::Attribute" \param value the value \param who the message's start
 * \throws AdcConfigError for an unknown type or attribute, or a value ns-3 refuses
 */
void
CheckAttributeArgument(const std::string& name, const std::string& value, const std::string& who)
{
    const std::size_t pos = name.rfind("::");
    const std::string type = name.substr(0, pos);
    const std::string attribute = name.substr(pos + 2);
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        throw AdcConfigError(who + "ns-3 has no type " + AdcExperiment::Show(type) +
                             "; allowed --ns3::Type::Attribute=value, a type of --PrintTypeIds");
    }
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw AdcConfigError(who + type + " has no attribute " + AdcExperiment::Show(attribute) +
                             " (--PrintAttributes=" + type + " lists them)");
    }
    // Config::SetDefault sets an attribute through the type that declares it.
    for (TypeId t = tid; !(t == t.GetParent()); t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetParent().GetAttributeN(); ++i)
        {
            if (t.GetParent().GetAttribute(i).name == attribute)
            {
                const std::string owner = t.GetParent().GetName();
                throw AdcConfigError(who + "attribute " + attribute + " belongs to " + owner +
                                     "; allowed --" + owner + "::" + attribute + "=value");
            }
        }
    }
    TryValue(who, info.checker, [&]() {
        return Config::SetDefaultFailSafe(name, StringValue(value));
    });
}

/**
 * \brief Check an ns-3 global value argument (`--RngRun=2`).
 * \param name its name \param value the value \param who the message's start
 * \throws AdcConfigError for an unknown name or a value ns-3 refuses or would abort on later
 */
void
CheckGlobalArgument(const std::string& name, const std::string& value, const std::string& who)
{
    std::vector<std::string> globals;
    Ptr<const AttributeChecker> checker;
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        globals.push_back((*it)->GetName());
        checker = (*it)->GetName() == name ? (*it)->GetChecker() : checker;
    }
    if (!checker)
    {
        throw AdcConfigError("unknown option --" + AdcExperiment::Show(name) +
                             " (--PrintHelp lists the options; ns-3's global values are " +
                             AdcConfigError::JoinAllowed(globals) + ")");
    }
    long double whole = 0;
    if ((name == "RngSeed" || name == "RngRun") &&
        (!ParseWhole(value, &whole) || whole < (name == "RngSeed" ? 1 : 0) || whole > UINT32_MAX))
    {
        throw AdcConfigError(who + "allowed a whole number " + (name == "RngSeed" ? "1" : "0") +
                             "..4294967295");
    }
    // Types ns-3 looks up only when the simulator starts (an unknown one aborts there).
    const std::map<std::string, std::string> bases{
        {"SchedulerType", "ns3::Scheduler"},
        {"SimulatorImplementationType", "ns3::SimulatorImpl"}};
    TypeId tid;
    if (bases.count(name) && (!TypeId::LookupByNameFailSafe(value, &tid) ||
                              !tid.IsChildOf(TypeId::LookupByName(bases.at(name)))))
    {
        throw AdcConfigError(who + "allowed a type derived from " + bases.at(name) +
                             " (--PrintTypeIds lists the types)");
    }
    TryValue(who, checker, [&]() { return Config::SetGlobalFailSafe(name, StringValue(value)); });
}

} // namespace adcexperiment
} // namespace ns3
