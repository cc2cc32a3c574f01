/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of NetScaler's content-switching virtual server commands (add, set, rm cs vserver):
 * the persistence support matrix (CS-07), the cookie timeout 0 (CS-05), the backup persistence
 * (CS-08), the defaults and parameter names of the command reference (CS-11), printing back as
 * the same lines, and errors naming the file, the line, the word and what is allowed.
 *
 * Expected values come from REQUIREMENTS.md (CS-05, CS-07, CS-08, CS-11) and NetScaler's
 * command reference (defaults: persistenceType NONE, timeout 2, persistenceBackup NONE,
 * backupPersistenceTimeout 2; timeouts up to 1440 minutes), written here independently of the
 * code.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using adctest::HasAll;

namespace
{

using NS = AdcNetScalerCommands;
using CS = AdcNetScalerCsCommands;

/// CS-07, as REQUIREMENTS.md writes it, in NetScaler's service type names (its HTTPS is
/// NetScaler's SSL, its UDP/IP NetScaler's UDP): persistence type -> service types allowed.
const std::map<std::string, std::set<std::string>> kMatrix = {
    {"SOURCEIP", {"HTTP", "SSL", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP"}},
    {"COOKIEINSERT", {"HTTP", "SSL"}},
    {"SSLSESSION", {"SSL", "SSL_BRIDGE", "SSL_TCP"}}};

/// The service types of `add cs vserver` (NetScaler command reference).
const std::vector<std::string> kServiceTypes =
    {"HTTP", "SSL", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"};

/// A reader of NetScaler lines with the CS commands, and the error a text gives.
class AdcConfigNetScalerCs : public adctest::ConfigReaderTest
{
  protected:
    AdcConfigNetScalerCs()
        : ConfigReaderTest(CS::GetLanguage(), "ns.conf")
    {
    }

    /// \return the CS virtual server \p name, or null
    Ptr<AdcCsVserverConfig> Get(const std::string& name)
    {
        return m_reader.GetStore().Get<AdcCsVserverConfig>(CS::CS_VSERVER, name);
    }
};

/// \return an attribute of \p v as text
std::string
Text(Ptr<AdcCsVserverConfig> v, const std::string& attribute)
{
    return NS::GetAttribute<StringValue>(v, attribute);
}

/// \return an attribute of \p v as a number
uint64_t
Number(Ptr<AdcCsVserverConfig> v, const std::string& attribute)
{
    return NS::GetAttribute<UintegerValue>(v, attribute);
}

} // namespace

// REQ: CS-11 (add cs vserver with NetScaler's defaults and attribute names)
TEST_F(AdcConfigNetScalerCs, AddGivesTheCommandReferenceDefaults)
{
    m_reader.ReadString("add cs vserver cs-web HTTP 192.0.2.20 80\n", "ns.conf");
    Ptr<AdcCsVserverConfig> v = Get("cs-web");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->GetName(), "cs-web");
    EXPECT_EQ(v->GetServiceType(), "HTTP");
    EXPECT_EQ(v->GetVip(), AdcIpAddress(Ipv4Address("192.0.2.20")));
    EXPECT_EQ(v->GetPort(), 80);
    EXPECT_EQ(v->GetPersistenceType(), AdcPersistenceType::NONE);
    EXPECT_EQ(Text(v, "PersistenceType"), "NONE");
    EXPECT_EQ(Number(v, "Timeout"), 2u);
    EXPECT_EQ(v->GetTimeout(), Minutes(2));
    EXPECT_EQ(Text(v, "PersistenceBackup"), "NONE");
    EXPECT_EQ(Number(v, "BackupPersistenceTimeout"), 2u);
    EXPECT_EQ(v->GetBackupTimeout(), Minutes(2));

    // Without an address (bound only to other vservers' traffic): no address, no port.
    m_reader.ReadString("add cs vserver cs-inner ssl\n", "ns.conf");
    Ptr<AdcCsVserverConfig> inner = Get("cs-inner");
    ASSERT_TRUE(inner);
    EXPECT_TRUE(inner->GetVip().IsNone());
    EXPECT_EQ(inner->GetServiceType(), "SSL"); // keywords in any case, canonical in the store
}

// REQ: CS-11 (set cs vserver <name> -persistenceType <type> -timeout <minutes>), CS-04
TEST_F(AdcConfigNetScalerCs, SetMirrorsTheCommandAndItsAttributes)
{
    m_reader.ReadString("add cs vserver cs1 HTTP 192.0.2.20 80\n"
                        "set cs vserver cs1 -persistenceType SOURCEIP -timeout 30\n",
                        "ns.conf");
    Ptr<AdcCsVserverConfig> v = Get("cs1");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->GetPersistenceType(), AdcPersistenceType::SOURCEIP);
    EXPECT_EQ(Text(v, "PersistenceType"), "SOURCEIP");
    EXPECT_EQ(Number(v, "Timeout"), 30u);
    EXPECT_EQ(v->GetTimeout(), Minutes(30));

    // set changes only what it names: the timeout stays 30.
    m_reader.ReadString("set cs vserver cs1 -persistenceType cookieinsert\n", "ns.conf");
    EXPECT_EQ(Text(v, "PersistenceType"), "COOKIEINSERT");
    EXPECT_EQ(Number(v, "Timeout"), 30u);

    // add takes the same parameters.
    m_reader.ReadString(
        "add cs vserver cs2 SSL 192.0.2.21 443 -persistenceType SSLSESSION -timeout 1440\n",
        "ns.conf");
    EXPECT_EQ(Get("cs2")->GetPersistenceType(), AdcPersistenceType::SSLSESSION);
    EXPECT_EQ(Get("cs2")->GetTimeoutMinutes(), 1440u);
}

// REQ: CS-07 (every combination of the support matrix: allowed ones accepted)
TEST_F(AdcConfigNetScalerCs, SupportMatrixAllowsItsCombinations)
{
    int accepted = 0;
    for (const auto& [type, services] : kMatrix)
    {
        for (const std::string& service : services)
        {
            const std::string name = "v-" + type + "-" + service;
            const std::string error =
                ErrorOf("add cs vserver " + name + " " + service + " 10.0.0.1 80\nset cs vserver " +
                        name + " -persistenceType " + type + "\n");
            EXPECT_EQ(error, "") << type << " on " << service;
            Ptr<AdcCsVserverConfig> v = Get(name);
            ASSERT_TRUE(v);
            EXPECT_EQ(Text(v, "PersistenceType"), type);
            ++accepted;
        }
    }
    EXPECT_EQ(accepted, 11); // 6 + 2 + 3 yes cells of CS-07
}

// REQ: CS-07 (every other combination rejected, naming file, line, vserver, service type,
// persistence type and the allowed combinations)
TEST_F(AdcConfigNetScalerCs, SupportMatrixRejectsEveryOtherCombination)
{
    int rejected = 0;
    for (const auto& [type, services] : kMatrix)
    {
        std::string allowedServices;
        for (const std::string& s : kServiceTypes) // the command reference's order
        {
            if (services.count(s))
            {
                allowedServices += (allowedServices.empty() ? "" : ", ") + s;
            }
        }
        for (const std::string& service : kServiceTypes)
        {
            if (services.count(service))
            {
                continue;
            }
            // What this service type does allow, NONE first.
            std::string allowedTypes = "NONE";
            for (const char* t : {"SOURCEIP", "COOKIEINSERT", "SSLSESSION"})
            {
                allowedTypes += kMatrix.at(t).count(service) ? std::string(", ") + t : "";
            }
            const std::string name = "w-" + type + "-" + service;
            for (const bool viaSet : {false, true})
            {
                const std::string text =
                    viaSet ? "add cs vserver " + name + " " + service + " 10.0.0.1 80\n" +
                                 "set cs vserver " + name + " -persistenceType " + type + "\n"
                           : "add cs vserver " + name + "-a " + service +
                                 " 10.0.0.1 80 -persistenceType " + type + "\n";
                const std::string error = ErrorOf(text);
                const std::string vserver = viaSet ? name : name + "-a";
                EXPECT_TRUE(
                    HasAll(error,
                           {viaSet ? "ns.conf:2: set cs vserver: " : "ns.conf:1: add cs vserver: ",
                            "persistence type " + type + " is not supported",
                            "cs vserver '" + vserver + "'",
                            "service type " + service,
                            type + " is allowed on service types " + allowedServices,
                            "word '" + type + "'",
                            "allowed values are " + allowedTypes}))
                    << text;
                EXPECT_EQ(m_line, viaSet ? 2u : 1u);
                if (viaSet)
                {
                    // A refused set changes nothing.
                    ASSERT_TRUE(Get(vserver));
                    EXPECT_EQ(Get(vserver)->GetPersistenceType(), AdcPersistenceType::NONE);
                }
                else
                {
                    EXPECT_FALSE(Get(vserver)); // a refused add adds nothing
                }
                ++rejected;
            }
        }
    }
    // 27 cells (3 types x 9 service types) less the 11 yes cells, each by add and by set.
    EXPECT_EQ(rejected, 2 * 16);
}

// REQ: CS-07 (the model object enforces the matrix too, not only the command)
TEST_F(AdcConfigNetScalerCs, ModelObjectEnforcesTheMatrix)
{
    Ptr<AdcCsVserverConfig> v = CreateObject<AdcCsVserverConfig>();
    v->Configure("rtsp", "RTSP", AdcIpAddress(Ipv4Address("10.0.0.1")), 554);
    EXPECT_THROW(v->SetPersistence(AdcPersistenceType::SOURCEIP, 2, AdcPersistenceType::NONE, 2),
                 AdcConfigError);
    EXPECT_EQ(v->GetPersistenceType(), AdcPersistenceType::NONE);
    EXPECT_EQ(AdcCsVserverConfig::GetAllowedPersistenceTypes("RTSP"),
              std::vector<std::string>{"NONE"});
    EXPECT_EQ(AdcCsVserverConfig::GetAllowedPersistenceTypes("SSL"),
              (std::vector<std::string>{"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"}));
    EXPECT_EQ(AdcCsVserverConfig::GetAllowedServiceTypes(AdcPersistenceType::COOKIEINSERT),
              (std::vector<std::string>{"HTTP", "SSL"}));
    EXPECT_THROW(v->Configure("x", "HTTPS", AdcIpAddress(), 0), AdcConfigError);
}

// REQ: CS-05 (cookie timeout 0 = session cookie: COOKIEINSERT only; NetScaler's -timeout is
// 2..1440 minutes for the other types)
TEST_F(AdcConfigNetScalerCs, TimeoutZeroOnlyForCookieInsert)
{
    EXPECT_EQ(ErrorOf("add cs vserver c HTTP 10.0.0.1 80 -persistenceType COOKIEINSERT "
                      "-timeout 0\n"),
              "");
    EXPECT_EQ(Get("c")->GetTimeoutMinutes(), 0u);
    EXPECT_EQ(Get("c")->GetTimeout(), Seconds(0));

    EXPECT_TRUE(HasAll(ErrorOf("add cs vserver s HTTP 10.0.0.1 80 -persistenceType SOURCEIP "
                               "-timeout 0\n"),
                       {"ns.conf:1: add cs vserver: bad value of -timeout: word '0'",
                        "allowed values are 2..1440"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cs vserver t SSL 10.0.0.1 443 -persistenceType SSLSESSION "
                               "-timeout 1\n"),
                       {"bad value of -timeout: word '1'", "allowed values are 2..1440"}));
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver c -timeout 1441\n"),
                       {"ns.conf:1: set cs vserver: bad value of -timeout: word '1441'",
                        "allowed values are 0..1440"}));
    // Leaving COOKIEINSERT with timeout 0 needs a timeout the new type accepts.
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver c -persistenceType SOURCEIP\n"),
                       {"bad value of -timeout: word '0'", "2..1440"}));
    EXPECT_EQ(Get("c")->GetPersistenceType(), AdcPersistenceType::COOKIEINSERT);
    EXPECT_EQ(ErrorOf("set cs vserver c -persistenceType SOURCEIP -timeout 5\n"), "");
    EXPECT_EQ(Get("c")->GetTimeout(), Minutes(5));
}

// REQ: CS-08 (SOURCEIP backs up COOKIEINSERT, with its own timeout; no other backup)
TEST_F(AdcConfigNetScalerCs, BackupPersistenceOnlyWithCookieInsert)
{
    EXPECT_EQ(ErrorOf("add cs vserver c HTTP 10.0.0.1 80 -persistenceType COOKIEINSERT "
                      "-timeout 0 -persistenceBackup SOURCEIP -backupPersistenceTimeout 10\n"),
              "");
    Ptr<AdcCsVserverConfig> c = Get("c");
    EXPECT_EQ(c->GetPersistenceBackup(), AdcPersistenceType::SOURCEIP);
    EXPECT_EQ(Text(c, "PersistenceBackup"), "SOURCEIP");
    EXPECT_EQ(Number(c, "BackupPersistenceTimeout"), 10u);
    EXPECT_EQ(c->GetBackupTimeout(), Minutes(10));
    EXPECT_EQ(c->GetTimeout(), Seconds(0)); // the backup's timeout is its own

    // Backup with another type, or without persistence: refused, naming the vserver.
    EXPECT_TRUE(HasAll(ErrorOf("add cs vserver s HTTP 10.0.0.1 80 -persistenceType SOURCEIP "
                               "-persistenceBackup SOURCEIP\n"),
                       {"ns.conf:1: add cs vserver: backup persistence is only for "
                        "-persistenceType COOKIEINSERT",
                        "cs vserver 's' has SOURCEIP",
                        "word 'SOURCEIP'",
                        "allowed values are NONE"}));
    EXPECT_FALSE(Get("s"));
    EXPECT_TRUE(HasAll(
        ErrorOf("add cs vserver n SSL 10.0.0.1 443\n"
                "set cs vserver n -persistenceBackup SOURCEIP\n"),
        {"ns.conf:2: set cs vserver: backup persistence is only for", "cs vserver 'n' has NONE"}));
    EXPECT_EQ(m_line, 2u);
    EXPECT_TRUE(HasAll(ErrorOf("add cs vserver t SSL 10.0.0.1 443 -persistenceType SSLSESSION "
                               "-persistenceBackup SOURCEIP\n"),
                       {"cs vserver 't' has SSLSESSION"}));
    // Only SOURCEIP is a backup type.
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver c -persistenceBackup SSLSESSION\n"),
                       {"bad value of -persistenceBackup: word 'SSLSESSION'",
                        "allowed values are NONE, SOURCEIP"}));
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver c -backupPersistenceTimeout 1\n"),
                       {"bad value of -backupPersistenceTimeout: word '1'", "2..1440"}));
    EXPECT_EQ(c->GetBackupTimeoutMinutes(), 10u);

    // Leaving COOKIEINSERT drops its backup; NONE removes it explicitly.
    m_reader.ReadString("set cs vserver c -persistenceType SOURCEIP -timeout 3\n", "ns.conf");
    EXPECT_EQ(c->GetPersistenceBackup(), AdcPersistenceType::NONE);
    m_reader.ReadString("set cs vserver c -persistenceType COOKIEINSERT -persistenceBackup "
                        "SOURCEIP\nset cs vserver c -persistenceBackup NONE\n",
                        "ns.conf");
    EXPECT_EQ(c->GetPersistenceBackup(), AdcPersistenceType::NONE);
    EXPECT_EQ(c->GetPersistenceType(), AdcPersistenceType::COOKIEINSERT);
}

// REQ: CS-11 (show prints ns.conf lines that read back to the same objects and text)
TEST_F(AdcConfigNetScalerCs, ShowRoundTrips)
{
    const std::string config = "add lb vserver lb-v1 HTTP\n"
                               "add cs vserver cs-web HTTP 192.0.2.20 80 -persistenceType "
                               "COOKIEINSERT -timeout 0 -persistenceBackup SOURCEIP "
                               "-backupPersistenceTimeout 5\n"
                               "add cs vserver cs-tls ssl_bridge 192.0.2.21 443\n"
                               "set cs vserver cs-tls -persistenceType SSLSESSION\n"
                               "add cs vserver \"cs any\" ANY * *\n"
                               "add cs vserver cs-inner TCP -timeout 7\n"
                               "add cs vserver gone HTTP\n"
                               "rm cs vserver gone\n";
    m_reader.ReadString(config, "ns.conf");
    // Defaults left out; lb vservers first (ns.conf's order); names with blanks quoted.
    const std::string expected = "add lb vserver lb-v1 HTTP\n"
                                 "add cs vserver cs-web HTTP 192.0.2.20 80 -persistenceType "
                                 "COOKIEINSERT -timeout 0 -persistenceBackup SOURCEIP "
                                 "-backupPersistenceTimeout 5\n"
                                 "add cs vserver cs-tls SSL_BRIDGE 192.0.2.21 443 "
                                 "-persistenceType SSLSESSION\n"
                                 "add cs vserver \"cs any\" ANY * *\n"
                                 "add cs vserver cs-inner TCP -timeout 7\n";
    const std::string shown = m_reader.Show();
    EXPECT_EQ(shown, expected);

    AdcConfigReader again(CS::GetLanguage());
    again.ReadString(shown, "shown");
    EXPECT_EQ(again.Show(), shown);
    Ptr<AdcCsVserverConfig> web =
        again.GetStore().Get<AdcCsVserverConfig>(CS::CS_VSERVER, "cs-web");
    ASSERT_TRUE(web);
    EXPECT_EQ(web->GetPersistenceBackup(), AdcPersistenceType::SOURCEIP);
    EXPECT_EQ(web->GetBackupTimeoutMinutes(), 5u);
    EXPECT_FALSE(again.GetStore().Find(CS::CS_VSERVER, "gone"));
}

// REQ: CS-11 (mistakes name the file, the line, the word and what is allowed)
TEST_F(AdcConfigNetScalerCs, ErrorsNameFileLineWordAndAllowedValues)
{
    m_reader.ReadString("add cs vserver cs1 HTTP 192.0.2.20 80\n", "ns.conf");

    struct Case
    {
        std::string line;                //!< the bad line
        std::vector<std::string> expect; //!< what the message must say
    };

    const std::vector<Case> cases = {
        {"set cs vserver cs1 -persistencetyp SOURCEIP",
         {"set cs vserver: unknown parameter: word '-persistencetyp'",
          "-persistenceType, -timeout, -persistenceBackup, -backupPersistenceTimeout"}},
        {"set cs vserver cs1 -persistenceType RULE",
         {"bad value of -persistenceType: word 'RULE'",
          "NONE, SOURCEIP, COOKIEINSERT, SSLSESSION"}},
        {"set cs vserver cs1 -timeout soon", {"-timeout: word 'soon'", "0..1440"}},
        {"set cs vserver nope -timeout 5",
         {"set cs vserver: cs vserver is not defined: word 'nope'", "allowed values are cs1"}},
        {"rm cs vserver nope", {"rm cs vserver: cs vserver is not defined: word 'nope'"}},
        {"add cs vserver cs1 HTTP", {"a cs vserver has this name already: word 'cs1'"}},
        {"add cs vserver x HTTPS 1.2.3.4 80",
         {"bad value of serviceType: word 'HTTPS'", "HTTP, SSL, TCP, UDP"}},
        {"add cs vserver x HTTP 1.2.3.4", {"missing <port> after <IPAddress>"}},
        {"add cs vserver x HTTP 1.2.3.4 80 extra", {"unexpected word", "word 'extra'"}},
        {"add cs vserver x HTTP 1.2.3.999 80", {"IPAddress: word '1.2.3.999'"}},
        {"add cs vserver x HTTP 1.2.3.4 0", {"port: word '0'", "1..65535"}},
        {"add cs vserver x HTTP 1.2.3.4 *", {"port * needs service type ANY, not HTTP"}},
        {"add cs vserver -x HTTP", {"unknown parameter: word '-x'"}},
        {"add cs vserver x", {"missing <serviceType>"}},
        {"add cs vserver x HTTP -timeout", {"missing value of parameter: word '-timeout'"}},
        {"add cs vserver x HTTP -timeout 3 -timeout 4", {"given twice: word '-timeout'"}},
        {"add cs vserver 'x!' HTTP", {"bad name: word 'x!'"}},
        {"add cs frob x HTTP", {"unknown command: word 'frob'", "vserver"}},
    };
    for (const Case& c : cases)
    {
        // The bad line is line 3 of its text: errors give the line of the file.
        const std::string error = ErrorOf("# ns.conf\n\n" + c.line + "\n");
        std::vector<std::string> expect = c.expect;
        expect.insert(expect.begin(), "ns.conf:3: ");
        EXPECT_TRUE(HasAll(error, expect)) << c.line;
        EXPECT_EQ(m_line, 3u) << c.line;
    }
    // Nothing a refused line named was added or changed.
    EXPECT_EQ(m_reader.GetStore().GetNames(CS::CS_VSERVER), std::vector<std::string>{"cs1"});
    EXPECT_EQ(Get("cs1")->GetTimeoutMinutes(), 2u);
}

// REQ: CS-11 (the CS commands join NetScaler's language once; lb commands still work)
TEST_F(AdcConfigNetScalerCs, RegistersOnceOnNetScalersLanguage)
{
    AdcConfigLanguage& language = CS::GetLanguage();
    EXPECT_EQ(&language, &NS::GetLanguage());
    const std::size_t n = language.GetCommands().size();
    CS::Register(language); // again: nothing added, no error
    EXPECT_EQ(language.GetCommands().size(), n);
    int cs = 0;
    for (const AdcConfigCommandSpec& c : language.GetCommands())
    {
        cs += c.path.find(" cs vserver") != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(cs, 5); // add, set, rm, bind, unbind
}

// REQ: CS-04 CS-11 (COOKIEINSERT writes the CS and LB vserver names into the NSC_ cookie's
// name, an RFC 6265 token: NetScaler names with '@', ':', '=' or a space are refused when the
// cookie would need them, at the line that makes it so, never at a request)
TEST_F(AdcConfigNetScalerCs, CookieInsertRefusesNamesTheCookieCannotCarry)
{
    // Without COOKIEINSERT such names are NetScaler names like any other.
    ASSERT_EQ(ErrorOf("add cs vserver cs@1 HTTP 10.0.0.1 80\n"
                      "add lb vserver lb:2 HTTP\n"
                      "add lb vserver lb-3 HTTP\n"),
              "");
    EXPECT_TRUE(HasAll(ErrorOf("add cs vserver ok HTTP 10.0.0.9 80\n"
                               "add cs vserver \"cs a\" HTTP 10.0.0.2 80 -persistenceType "
                               "COOKIEINSERT\n"),
                       {"ns.conf:2: add cs vserver: ",
                        "COOKIEINSERT",
                        "'cs a'",
                        "' ' at position 2",
                        "allowed: 1 to 127 letters, digits, '_', '-', '.', '#'"}));
    EXPECT_EQ(m_line, 2u);
    EXPECT_FALSE(Get("cs a"));
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver cs@1 -persistenceType COOKIEINSERT\n"),
                       {"ns.conf:1: set cs vserver: ", "'cs@1'", "'@' at position 2"}));
    EXPECT_EQ(Get("cs@1")->GetPersistenceType(), AdcPersistenceType::NONE);

    // Binding an LB vserver under a COOKIEINSERT CS vserver, as default or by policy.
    ASSERT_EQ(ErrorOf("add cs vserver c2 HTTP 10.0.0.3 80 -persistenceType COOKIEINSERT\n"), "");
    EXPECT_TRUE(HasAll(ErrorOf("add lb vserver lb-4 HTTP\n"
                               "bind cs vserver c2 -lbvserver lb:2\n"),
                       {"ns.conf:2: bind cs vserver: ", "'c2'", "'lb:2'", "':' at position 2"}));
    EXPECT_EQ(Get("c2")->GetDefaultLbVserver(), "");
    EXPECT_TRUE(HasAll(ErrorOf("add cs policy p2 -rule SYS.RANDOM.MUL(100).LT(10)\n"
                               "bind cs vserver c2 -policyName p2 -priority 10 "
                               "-targetLBVserver lb:2\n"),
                       {"ns.conf:2: bind cs vserver: ", "'lb:2'", "':' at position 2"}));
    EXPECT_TRUE(Get("c2")->GetPolicyBindings().empty());

    // Turning COOKIEINSERT on over an LB vserver bound before.
    ASSERT_EQ(ErrorOf("add cs vserver c3 HTTP 10.0.0.4 80\n"
                      "bind cs vserver c3 -lbvserver lb:2\n"),
              "");
    EXPECT_TRUE(HasAll(ErrorOf("set cs vserver c3 -persistenceType COOKIEINSERT -timeout 0\n"),
                       {"ns.conf:1: set cs vserver: ", "'c3'", "'lb:2'", "':' at position 2"}));
    EXPECT_EQ(Get("c3")->GetPersistenceType(), AdcPersistenceType::NONE);
}
