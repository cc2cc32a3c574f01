/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, content switching: NetScaler's CS virtual server commands
 * (add, set, rm cs vserver) and AdcCsVserverConfig, the object they store.
 */

#include "adc-netscaler-cs-commands.h"

#include "adc-netscaler-commands.h"
#include "adc-netscaler-cs-policy-commands.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-cookie.h"
#include "ns3/adc-service.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcCsVserverConfig);

namespace
{

/// The persistence types, in NetScaler's order.
const std::vector<AdcPersistenceType> kTypes = {AdcPersistenceType::NONE,
                                                AdcPersistenceType::SOURCEIP,
                                                AdcPersistenceType::COOKIEINSERT,
                                                AdcPersistenceType::SSLSESSION};

/// \return whether \p type is allowed on the NetScaler service type \p serviceType (CS-07)
bool
Supported(AdcPersistenceType type, const std::string& serviceType)
{
    // The support matrix (AdcPersistenceTable) names NetScaler's SSL as HTTPS.
    try
    {
        AdcPersistenceTable::CheckSupported(type, serviceType == "SSL" ? "HTTPS" : serviceType);
        return true;
    }
    catch (const AdcConfigError&)
    {
        return false;
    }
}

/// \return the smallest timeout \p type accepts: 0 for COOKIEINSERT (a session cookie, CS-05)
/// and NONE (unused), 2 for the others
uint32_t
MinTimeout(AdcPersistenceType type)
{
    return type == AdcPersistenceType::COOKIEINSERT || type == AdcPersistenceType::NONE ? 0 : 2;
}

} // namespace

TypeId
AdcCsVserverConfig::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcCsVserverConfig")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcCsVserverConfig>()
            .AddAttribute("Name",
                          "The CS virtual server's name (set by Configure).",
                          TypeId::ATTR_GET,
                          StringValue(""),
                          MakeStringAccessor(&AdcCsVserverConfig::m_name),
                          MakeStringChecker())
            .AddAttribute("ServiceType",
                          "NetScaler service type (set by Configure).",
                          TypeId::ATTR_GET,
                          StringValue("HTTP"),
                          MakeStringAccessor(&AdcCsVserverConfig::m_serviceType),
                          MakeStringChecker())
            .AddAttribute("PersistenceType",
                          "-persistenceType: NONE, SOURCEIP, COOKIEINSERT or SSLSESSION "
                          "(set by SetPersistence).",
                          TypeId::ATTR_GET,
                          StringValue("NONE"),
                          MakeStringAccessor(&AdcCsVserverConfig::GetPersistenceTypeName),
                          MakeStringChecker())
            .AddAttribute("Timeout",
                          "-timeout: persistence timeout in minutes (set by SetPersistence).",
                          TypeId::ATTR_GET,
                          UintegerValue(DEFAULT_TIMEOUT),
                          MakeUintegerAccessor(&AdcCsVserverConfig::m_timeout),
                          MakeUintegerChecker<uint32_t>(0, MAX_TIMEOUT))
            .AddAttribute("PersistenceBackup",
                          "-persistenceBackup: NONE or SOURCEIP (set by SetPersistence).",
                          TypeId::ATTR_GET,
                          StringValue("NONE"),
                          MakeStringAccessor(&AdcCsVserverConfig::GetPersistenceBackupName),
                          MakeStringChecker())
            .AddAttribute("BackupPersistenceTimeout",
                          "-backupPersistenceTimeout: backup timeout in minutes (set by "
                          "SetPersistence).",
                          TypeId::ATTR_GET,
                          UintegerValue(DEFAULT_TIMEOUT),
                          MakeUintegerAccessor(&AdcCsVserverConfig::m_backupTimeout),
                          MakeUintegerChecker<uint32_t>(2, MAX_TIMEOUT));
    return tid;
}

AdcCsVserverConfig::AdcCsVserverConfig() = default;

AdcCsVserverConfig::~AdcCsVserverConfig() = default;

void
AdcCsVserverConfig::Configure(const std::string& name,
                              const std::string& serviceType,
                              const AdcIpAddress& vip,
                              uint16_t port)
{
    m_serviceType = AdcService::CheckServiceType(serviceType, "AdcCsVserverConfig " + name);
    m_name = name;
    m_vip = vip;
    m_port = port;
}

void
AdcCsVserverConfig::SetPersistence(AdcPersistenceType type,
                                   uint32_t timeoutMinutes,
                                   AdcPersistenceType backup,
                                   uint32_t backupTimeoutMinutes)
{
    const std::string owner = "AdcCsVserverConfig " + m_name + ": ";
    if (!Supported(type, m_serviceType))
    {
        throw AdcConfigError(
            owner + "persistence type " + AdcPersistenceTypeToString(type) +
            " is not supported on service type " + m_serviceType + "; allowed are " +
            AdcConfigError::JoinAllowed(GetAllowedPersistenceTypes(m_serviceType)));
    }
    if (backup != AdcPersistenceType::NONE &&
        (type != AdcPersistenceType::COOKIEINSERT || backup != AdcPersistenceType::SOURCEIP))
    {
        throw AdcConfigError(owner + "backup persistence " + AdcPersistenceTypeToString(backup) +
                             " with " + AdcPersistenceTypeToString(type) +
                             "; only SOURCEIP backs up COOKIEINSERT");
    }
    if (timeoutMinutes < MinTimeout(type) || timeoutMinutes > MAX_TIMEOUT)
    {
        throw AdcConfigError(owner + "timeout " + std::to_string(timeoutMinutes) +
                             " is out of range; allowed " + std::to_string(MinTimeout(type)) +
                             ".." + std::to_string(MAX_TIMEOUT));
    }
    if (backupTimeoutMinutes < 2 || backupTimeoutMinutes > MAX_TIMEOUT)
    {
        throw AdcConfigError(owner + "backup timeout " + std::to_string(backupTimeoutMinutes) +
                             " is out of range; allowed 2.." + std::to_string(MAX_TIMEOUT));
    }
    m_type = type;
    m_timeout = timeoutMinutes;
    m_backup = backup;
    m_backupTimeout = backupTimeoutMinutes;
}

const std::string&
AdcCsVserverConfig::GetName() const
{
    return m_name;
}

const std::string&
AdcCsVserverConfig::GetServiceType() const
{
    return m_serviceType;
}

const AdcIpAddress&
AdcCsVserverConfig::GetVip() const
{
    return m_vip;
}

uint16_t
AdcCsVserverConfig::GetPort() const
{
    return m_port;
}

AdcPersistenceType
AdcCsVserverConfig::GetPersistenceType() const
{
    return m_type;
}

uint32_t
AdcCsVserverConfig::GetTimeoutMinutes() const
{
    return m_timeout;
}

Time
AdcCsVserverConfig::GetTimeout() const
{
    return Minutes(m_timeout);
}

AdcPersistenceType
AdcCsVserverConfig::GetPersistenceBackup() const
{
    return m_backup;
}

uint32_t
AdcCsVserverConfig::GetBackupTimeoutMinutes() const
{
    return m_backupTimeout;
}

Time
AdcCsVserverConfig::GetBackupTimeout() const
{
    return Minutes(m_backupTimeout);
}

std::string
AdcCsVserverConfig::GetPersistenceTypeName() const
{
    return AdcPersistenceTypeToString(m_type);
}

std::string
AdcCsVserverConfig::GetPersistenceBackupName() const
{
    return AdcPersistenceTypeToString(m_backup);
}

std::vector<std::string>
AdcCsVserverConfig::GetAllowedPersistenceTypes(const std::string& serviceType)
{
    std::vector<std::string> out;
    for (AdcPersistenceType t : kTypes)
    {
        if (Supported(t, serviceType))
        {
            out.push_back(AdcPersistenceTypeToString(t));
        }
    }
    return out;
}

std::vector<std::string>
AdcCsVserverConfig::GetAllowedServiceTypes(AdcPersistenceType type)
{
    std::vector<std::string> out;
    for (const std::string& s : AdcService::GetServiceTypes())
    {
        if (Supported(type, s))
        {
            out.push_back(s);
        }
    }
    return out;
}

void
AdcCsVserverConfig::BindPolicy(const PolicyBinding& binding)
{
    const std::string owner = "AdcCsVserverConfig " + m_name + ": ";
    if (binding.policy.empty() || binding.target.empty())
    {
        throw AdcConfigError(owner + "a policy binding needs a policy and a target LB vserver");
    }
    if (binding.priority < 1 || binding.priority > MAX_PRIORITY)
    {
        throw AdcConfigError(owner + "priority " + std::to_string(binding.priority) +
                             " of policy " + binding.policy + " is out of range; allowed 1.." +
                             std::to_string(MAX_PRIORITY));
    }
    for (const PolicyBinding& b : m_bindings)
    {
        if (b.policy == binding.policy)
        {
            throw AdcConfigError(owner + "policy " + binding.policy +
                                 " is bound already (priority " + std::to_string(b.priority) +
                                 "); unbind it first");
        }
        if (b.priority == binding.priority)
        {
            throw AdcConfigError(owner + "priority " + std::to_string(binding.priority) +
                                 " of policy " + binding.policy + " is taken by policy " +
                                 b.policy + "; priorities are unique per cs vserver");
        }
    }
    const auto at = std::upper_bound(
        m_bindings.begin(),
        m_bindings.end(),
        binding,
        [](const PolicyBinding& a, const PolicyBinding& b) { return a.priority < b.priority; });
    m_bindings.insert(at, binding);
}

void
AdcCsVserverConfig::UnbindPolicy(const std::string& policy)
{
    std::vector<std::string> bound;
    for (auto it = m_bindings.begin(); it != m_bindings.end(); ++it)
    {
        if (it->policy == policy)
        {
            m_bindings.erase(it);
            return;
        }
        bound.push_back(it->policy);
    }
    throw AdcConfigError("AdcCsVserverConfig " + m_name + ": policy '" + policy +
                         "' is not bound; bound are " + AdcConfigError::JoinAllowed(bound));
}

void
AdcCsVserverConfig::RetargetPolicy(const std::string& policy, const std::string& target)
{
    for (PolicyBinding& b : m_bindings)
    {
        if (b.policy == policy && b.fromAction)
        {
            b.target = target;
        }
    }
}

const std::vector<AdcCsVserverConfig::PolicyBinding>&
AdcCsVserverConfig::GetPolicyBindings() const
{
    return m_bindings;
}

bool
AdcCsVserverConfig::IsPolicyBound(const std::string& policy) const
{
    return std::any_of(m_bindings.begin(), m_bindings.end(), [&](const PolicyBinding& b) {
        return b.policy == policy;
    });
}

void
AdcCsVserverConfig::SetDefaultLbVserver(const std::string& lbVserver)
{
    if (!lbVserver.empty() && !m_defaultLb.empty())
    {
        throw AdcConfigError("AdcCsVserverConfig " + m_name + ": default lb vserver " +
                             m_defaultLb + " is bound already; unbind it first to bind " +
                             lbVserver);
    }
    m_defaultLb = lbVserver;
}

const std::string&
AdcCsVserverConfig::GetDefaultLbVserver() const
{
    return m_defaultLb;
}

// ---- commands ----------------------------------------------------------------------------------

const std::string AdcNetScalerCsCommands::CS_VSERVER = "cs vserver";
const std::string AdcNetScalerCsCommands::CS_ACTION = "cs action";
const std::string AdcNetScalerCsCommands::CS_POLICY = "cs policy";
const std::string AdcNetScalerCsCommands::LB_PARAMETER = "lb parameter";

NS_OBJECT_ENSURE_REGISTERED(AdcLbParameterConfig);

TypeId
AdcLbParameterConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcLbParameterConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcLbParameterConfig>();
    return tid;
}

uint8_t
AdcLbParameterConfig::GetCookieVersion() const
{
    return m_cookieVersion;
}

void
AdcLbParameterConfig::SetCookieVersion(uint8_t v)
{
    m_cookieVersion = v;
}

bool
AdcLbParameterConfig::GetHttpOnlyCookie() const
{
    return m_httpOnly;
}

void
AdcLbParameterConfig::SetHttpOnlyCookie(bool on)
{
    m_httpOnly = on;
}

const std::string&
AdcLbParameterConfig::GetCookiePassphrase() const
{
    return m_passphrase;
}

void
AdcLbParameterConfig::SetCookiePassphrase(const std::string& p)
{
    m_passphrase = p;
}

Ptr<const AdcLbParameterConfig>
AdcNetScalerCsCommands::GetLbParameter(const AdcConfigStore& store)
{
    Ptr<AdcLbParameterConfig> p = store.Get<AdcLbParameterConfig>(LB_PARAMETER, "lb parameter");
    return p ? p : CreateObject<AdcLbParameterConfig>();
}

namespace
{

using NS = AdcNetScalerCommands;
using Cmd = AdcConfigCommand;
using Config = AdcCsVserverConfig;

/// The parameters of add and set cs vserver.
const std::vector<AdcConfigParameter>&
CsParameters()
{
    // A function, not a global: Register may run during another file's static
    // initialization, whose order relative to this file's is not defined.
    static const std::vector<AdcConfigParameter> parameters = {{"-persistenceType"},
                                                               {"-timeout"},
                                                               {"-persistenceBackup"},
                                                               {"-backupPersistenceTimeout"}};
    return parameters;
}

} // namespace

void
AdcNetScalerCsCommands::CheckCookieName(const AdcConfigCommand& cmd,
                                        const std::string& csVserver,
                                        const std::string& role,
                                        const std::string& name)
{
    // COOKIEINSERT writes both names into the NSC_ cookie's name (CS-04); a name it cannot
    // carry is refused here rather than met by the first request.
    const std::string problem = AdcNscCookie::VserverIdProblem(name);
    if (!problem.empty())
    {
        cmd.Fail("cs vserver '" + csVserver + "' has -persistenceType COOKIEINSERT, whose NSC_ " +
                 "cookie name carries the " + role + " name '" + name + "', which " + problem);
    }
}

namespace
{

/// Apply add or set cs vserver's parameters to \p v (all of them or, on an error, none).
void
ApplyCsParameters(const Cmd& cmd, Ptr<Config> v)
{
    AdcPersistenceType type = v->GetPersistenceType();
    if (cmd.Has("-persistenceType"))
    {
        const std::string word = cmd.Value("-persistenceType");
        type = AdcPersistenceTypeFromString(
            cmd.OneOf(word,
                      "-persistenceType",
                      {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"}));
        if (!Supported(type, v->GetServiceType()))
        {
            // CS-07: say which virtual server, its type, and what the matrix allows.
            const std::string name = AdcPersistenceTypeToString(type);
            cmd.Fail("persistence type " + name + " is not supported on cs vserver '" +
                         v->GetName() + "' of service type " + v->GetServiceType() + " (" + name +
                         " is allowed on service types " +
                         AdcConfigError::JoinAllowed(Config::GetAllowedServiceTypes(type)) + ")",
                     word,
                     Config::GetAllowedPersistenceTypes(v->GetServiceType()));
        }
    }
    if (type == AdcPersistenceType::COOKIEINSERT)
    {
        AdcNetScalerCsCommands::CheckCookieName(cmd, v->GetName(), "cs vserver", v->GetName());
        std::vector<std::string> bound;
        for (const Config::PolicyBinding& b : v->GetPolicyBindings())
        {
            bound.push_back(b.target);
        }
        bound.push_back(v->GetDefaultLbVserver());
        for (const std::string& lb : bound)
        {
            if (!lb.empty())
            {
                AdcNetScalerCsCommands::CheckCookieName(cmd, v->GetName(), "lb vserver", lb);
            }
        }
    }
    AdcPersistenceType backup = v->GetPersistenceBackup();
    if (cmd.Has("-persistenceBackup"))
    {
        const std::string word = cmd.Value("-persistenceBackup");
        backup = AdcPersistenceTypeFromString(
            cmd.OneOf(word, "-persistenceBackup", {"NONE", "SOURCEIP"}));
        if (backup != AdcPersistenceType::NONE && type != AdcPersistenceType::COOKIEINSERT)
        {
            // CS-08: SOURCEIP backs up COOKIEINSERT, and nothing else.
            cmd.Fail("backup persistence is only for -persistenceType COOKIEINSERT; cs vserver '" +
                         v->GetName() + "' has " + AdcPersistenceTypeToString(type),
                     word,
                     {"NONE"});
        }
    }
    else if (type != AdcPersistenceType::COOKIEINSERT)
    {
        backup = AdcPersistenceType::NONE; // a backup goes with its cookie persistence
    }
    const uint64_t timeout =
        cmd.Number(cmd.Value("-timeout", std::to_string(v->GetTimeoutMinutes())),
                   "-timeout",
                   MinTimeout(type),
                   Config::MAX_TIMEOUT);
    const uint64_t backupTimeout = cmd.Number(
        cmd.Value("-backupPersistenceTimeout", std::to_string(v->GetBackupTimeoutMinutes())),
        "-backupPersistenceTimeout",
        2,
        Config::MAX_TIMEOUT);
    cmd.Check([&] {
        v->SetPersistence(type,
                          static_cast<uint32_t>(timeout),
                          backup,
                          static_cast<uint32_t>(backupTimeout));
    });
}

void
AddCsVserver(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, AdcNetScalerCsCommands::CS_VSERVER, name, "name", "cs vserver");
    const std::string type =
        cmd.OneOf(cmd.Operand(1), "serviceType", AdcService::GetServiceTypes());
    if (cmd.GetOperands().size() == 3)
    {
        cmd.Fail("missing <port> after <IPAddress>");
    }
    const bool addressed = cmd.GetOperands().size() == 4;
    AdcIpAddress vip;
    uint16_t port = 0;
    if (addressed)
    {
        vip = cmd.Operand(2) == "*" ? AdcIpAddress(Ipv4Address::GetAny())
                                    : cmd.Address(cmd.Operand(2), "IPAddress");
        port = NS::ReadPort(cmd, cmd.Operand(3), type);
    }
    Ptr<Config> v = CreateObject<Config>();
    v->Configure(name, type, vip, port);
    ApplyCsParameters(cmd, v);
    cmd.GetStore().Add(AdcNetScalerCsCommands::CS_VSERVER, name, v);
}

/// \return the virtual server the command's first operand names
Ptr<Config>
CsVserver(const Cmd& cmd)
{
    return cmd.Ref<Config>(AdcNetScalerCsCommands::CS_VSERVER, cmd.Operand(0), "cs vserver");
}

void
SetCsVserver(Cmd& cmd)
{
    ApplyCsParameters(cmd, CsVserver(cmd));
    cmd.NoteParameters(AdcNetScalerCsCommands::CS_VSERVER, cmd.Operand(0));
}

void
RemoveCsVserver(Cmd& cmd)
{
    CsVserver(cmd);
    cmd.GetStore().Remove(AdcNetScalerCsCommands::CS_VSERVER, cmd.Operand(0));
}

void
SetLbParameter(Cmd& cmd)
{
    AdcConfigStore& store = cmd.GetStore();
    Ptr<AdcLbParameterConfig> p =
        store.Get<AdcLbParameterConfig>(AdcNetScalerCsCommands::LB_PARAMETER, "lb parameter");
    const bool isNew = !p;
    p = p ? p : CreateObject<AdcLbParameterConfig>();
    uint8_t version = p->GetCookieVersion();
    if (cmd.Has("-cookieVersion"))
    {
        version = cmd.OneOf(cmd.Value("-cookieVersion"), "-cookieVersion", {"0", "1"}) == "1";
    }
    bool httpOnly = p->GetHttpOnlyCookie();
    if (cmd.Has("-httpOnlyCookieFlag"))
    {
        httpOnly = cmd.OneOf(cmd.Value("-httpOnlyCookieFlag"),
                             "-httpOnlyCookieFlag",
                             {"ENABLED", "DISABLED"}) == "ENABLED";
    }
    for (const char* param : {"-useEncryptedPersistenceCookie", "-useSecuredPersistenceCookie"})
    {
        if (cmd.Has(param) &&
            cmd.OneOf(cmd.Value(param), param, {"ENABLED", "DISABLED"}) == "ENABLED")
        {
            // Citrix documents only "Encode persistence cookie values using SHA2 hash"
            // (lbparameter), not the bytes hashed nor the text written.
            cmd.Fail(std::string(param) + " ENABLED is not modelled: Citrix does not publish "
                                          "how the SHA2 cookie value is built, so no faithful "
                                          "value can be written",
                     "ENABLED",
                     {"DISABLED"});
        }
    }
    std::string passphrase = p->GetCookiePassphrase();
    if (cmd.Has("-cookiePassphrase"))
    {
        passphrase = cmd.Value("-cookiePassphrase");
        if (passphrase.size() > 31)
        {
            cmd.Fail("-cookiePassphrase has " + std::to_string(passphrase.size()) +
                     " characters; at most 31 are allowed");
        }
    }
    p->SetCookieVersion(version);
    p->SetHttpOnlyCookie(httpOnly);
    p->SetCookiePassphrase(passphrase);
    if (isNew)
    {
        store.Add(AdcNetScalerCsCommands::LB_PARAMETER, "lb parameter", p);
    }
    cmd.NoteParameters(AdcNetScalerCsCommands::LB_PARAMETER, "lb parameter");
}

void
ShowLbParameter(const AdcConfigStore& store, std::ostream& os)
{
    Ptr<const AdcLbParameterConfig> p = AdcNetScalerCsCommands::GetLbParameter(store);
    std::string line;
    line += p->GetCookieVersion() != 0 ? " -cookieVersion 1" : "";
    line += p->GetHttpOnlyCookie() ? "" : " -httpOnlyCookieFlag DISABLED";
    line += p->GetCookiePassphrase().empty()
                ? ""
                : " -cookiePassphrase " + NS::Quote(p->GetCookiePassphrase());
    if (!line.empty())
    {
        os << "set lb parameter" << line << "\n";
    }
}

void
ShowCsVservers(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<Config>& v : store.GetAll<Config>(AdcNetScalerCsCommands::CS_VSERVER))
    {
        os << "add cs vserver " << NS::Quote(v->GetName()) << " " << v->GetServiceType();
        if (!v->GetVip().IsNone())
        {
            os << " "
               << (v->GetVip() == AdcIpAddress(Ipv4Address::GetAny()) ? "*"
                                                                      : v->GetVip().ToString())
               << " " << (v->GetPort() == 0 ? "*" : std::to_string(v->GetPort()));
        }
        if (v->GetPersistenceType() != AdcPersistenceType::NONE)
        {
            os << " -persistenceType " << AdcPersistenceTypeToString(v->GetPersistenceType());
        }
        if (v->GetTimeoutMinutes() != Config::DEFAULT_TIMEOUT)
        {
            os << " -timeout " << v->GetTimeoutMinutes();
        }
        if (v->GetPersistenceBackup() != AdcPersistenceType::NONE)
        {
            os << " -persistenceBackup " << AdcPersistenceTypeToString(v->GetPersistenceBackup());
        }
        if (v->GetBackupTimeoutMinutes() != Config::DEFAULT_TIMEOUT)
        {
            os << " -backupPersistenceTimeout " << v->GetBackupTimeoutMinutes();
        }
        os << "\n";
    }
}

} // namespace

void
AdcNetScalerCsCommands::Register(AdcConfigLanguage& language)
{
    for (const AdcConfigCommandSpec& c : language.GetCommands())
    {
        if (c.path == "add cs vserver")
        {
            return;
        }
    }
    const std::vector<std::string> name{"<name>"};
    // After "bind lb vserver" (50) and before the service monitors (60): ns.conf's order.
    // clang-format off
    const std::vector<AdcConfigCommandSpec> commands = {
        {"add cs vserver", {"<name>", "<serviceType>", "[<IPAddress>", "<port>]"}, 2, false,
         CsParameters(), AddCsVserver, ShowCsVservers, 55},
        {"set cs vserver", name, 1, false, CsParameters(), SetCsVserver, {}, 0},
        {"rm cs vserver", name, 1, false, {}, RemoveCsVserver, {}, 0},
        {"set lb parameter", {}, 0, false,
         {{"-cookieVersion"}, {"-httpOnlyCookieFlag"}, {"-useEncryptedPersistenceCookie"},
          {"-useSecuredPersistenceCookie"}, {"-cookiePassphrase"}},
         SetLbParameter, ShowLbParameter, 54},
    };
    // clang-format on
    for (const AdcConfigCommandSpec& c : commands)
    {
        language.RegisterCommand(c);
    }
    AdcNetScalerCsPolicyCommands::Register(language);
    // `rm lb vserver` is refused while a CS action or binding names the LB vserver.
    language.AddUserFinder(AdcNetScalerCommands::LB_VSERVER,
                           &AdcNetScalerCsPolicyCommands::GetLbVserverUsers);
}

AdcConfigLanguage&
AdcNetScalerCsCommands::GetLanguage()
{
    static AdcConfigLanguage& language = []() -> AdcConfigLanguage& {
        AdcConfigLanguage& l = AdcNetScalerCommands::GetLanguage();
        Register(l);
        return l;
    }();
    return language;
}

} // namespace ns3
