/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-experiment.h"

#include "adc-experiment-ns3.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-text.h"
#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

namespace ns3
{

using adcexperiment::CheckAttributeArgument;
using adcexperiment::CheckGlobalArgument;
using adcexperiment::ParseWhole;

namespace
{

using Type = AdcExperimentOption::Type;
using Kind = AdcExperimentOption::Kind;

/// The options ns-3's CommandLine handles itself (it prints, then exits 0), between blanks.
const std::string kNs3Print = " PrintHelp help PrintVersion version PrintGroups PrintTypeIds "
                              "PrintGlobals PrintGroup PrintAttributes ";

/// \param name an option's name \return whether ns-3's CommandLine handles it
bool
IsNs3Print(const std::string& name)
{
    return kNs3Print.find(" " + name + " ") != std::string::npos;
}

/// \param v a number \return it as text (whole numbers up to 12 digits without a fraction)
std::string
Num(double v)
{
    std::ostringstream os;
    os.precision(12);
    os << v;
    return os.str();
}

/// \param text text \param v set to its value \return whether \p text is a finite number
bool
ParseReal(const std::string& text, double* v)
{
    char* end = nullptr;
    errno = 0;
    *v = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
             ? 0
             : std::strtod(text.c_str(), &end);
    return end && *end == '\0' && std::isfinite(*v) && errno != ERANGE;
}

/// \param path a path \return why it is not a readable file, or ""
std::string
CannotRead(const std::string& path)
{
    std::error_code ec;
    const bool folder = std::filesystem::is_directory(path, ec);
    std::FILE* f = folder ? nullptr : std::fopen(path.c_str(), "r");
    const std::string why = folder ? "is a folder; allowed a readable file"
                            : f    ? ""
                                   : std::string("cannot read the file: ") + std::strerror(errno);
    if (f)
    {
        std::fclose(f);
    }
    return why;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcExperimentOption

bool
AdcExperimentOption::IsSet() const
{
    return m_text ? !m_text->empty() : m_isGiven;
}

double
AdcExperimentOption::GetNumber() const
{
    return m_get ? m_get() : 0;
}

bool
AdcExperimentOption::IsSpecial(double v) const
{
    return std::any_of(m_special.begin(), m_special.end(), [v](const auto& s) {
        return s.first == v;
    });
}

std::string
AdcExperimentOption::Allowed() const
{
    static const char* const kinds[] = {"",
                                        "a comma-separated list",
                                        "a folder this program can create and write in",
                                        "a readable file",
                                        "comma-separated readable files",
                                        "an existing folder"};
    std::string out = kinds[static_cast<int>(m_kind)];
    if (m_type == Type::BOOL)
    {
        return "true or false (1 or 0)";
    }
    if (m_type == Type::STRING)
    {
        const std::string names = AdcConfigError::JoinAllowed(m_names);
        out += m_names.empty() ? "" : (out.empty() ? names : " of " + names);
        out += m_kind == Kind::LIST ? " (each once)" : "";
        out += m_optional && m_kind != Kind::VALUE ? " (empty: not set)" : "";
        return out.empty() ? "any text" : out;
    }
    const std::string lo = (m_minExclusive ? "> " : ">= ") + Num(m_min);
    const std::string hi = (m_maxExclusive ? "< " : "<= ") + Num(m_max);
    out = m_hasMin && m_hasMax && !m_minExclusive && !m_maxExclusive
              ? Num(m_min) + ".." + Num(m_max)
              : (m_hasMin ? lo : "") + (m_hasMin && m_hasMax ? " and " : "") + (m_hasMax ? hi : "");
    out = m_type == Type::DOUBLE ? (out.empty() ? "a number" : out)
                                 : "a whole number" + (out.empty() ? "" : " " + out);
    for (const auto& [v, meaning] : m_special)
    {
        out = Num(v) + " (" + meaning + ") or " + out;
    }
    return out;
}

void
AdcExperimentOption::Parse(const std::string& text)
{
    const auto fail = [&text, this](const std::string& why) {
        throw AdcConfigError("--" + m_name + "=" + AdcExperiment::Show(text) + ": " + why +
                             "; allowed " + Allowed());
    };
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    double real = 0;
    long double whole = 0;
    const long double lo = m_type == Type::INT32 ? INT32_MIN : 0;
    const long double hi = m_type == Type::INT32    ? INT32_MAX
                           : m_type == Type::UINT32 ? UINT32_MAX
                                                    : static_cast<long double>(UINT64_MAX);
    if (m_type == Type::STRING)
    {
        *m_text = text;
    }
    else if (m_type == Type::BOOL)
    {
        const bool yes = t == "true" || t == "t" || t == "1";
        if (!yes && t != "false" && t != "f" && t != "0" && !t.empty())
        {
            fail("not true or false");
        }
        m_set(t.empty() ? m_default != "true" : yes); // as ns-3: a bare --flag flips it
    }
    else if (m_type == Type::DOUBLE)
    {
        if (!ParseReal(text, &real))
        {
            fail("not a number");
        }
        m_set(real);
    }
    else if (!ParseWhole(text, &whole))
    {
        fail(ParseReal(text, &real) ? "not a whole number" : "not a number");
    }
    else if (whole < lo || whole > hi)
    {
        fail("out of range");
    }
    else
    {
        m_set(whole);
    }
}

// ---------------------------------------------------------------------------------------------
// AdcExperiment

AdcExperiment::AdcExperiment(const std::string& program, const std::string& usage)
    : m_program(program),
      m_usage(usage)
{
}

AdcExperiment::~AdcExperiment() = default;

AdcExperimentOption&
AdcExperiment::Declare(const std::string& name,
                       const std::string& help,
                       Type type,
                       Kind kind,
                       const std::string& defaultText)
{
    auto o = std::make_unique<AdcExperimentOption>();
    o->m_name = name;
    o->m_help = help;
    o->m_type = type;
    o->m_kind = kind;
    o->m_default = defaultText;
    if (Find(name) || IsNs3Print(name) || name == "PrintOptionSpec")
    {
        o->m_declError = "option --" + name + " is declared twice";
    }
    m_options.push_back(std::move(o));
    return *m_options.back();
}

AdcExperimentOption&
AdcExperiment::Add(const std::string& name, const std::string& help, std::string& value, Kind kind)
{
    AdcExperimentOption& o = Declare(name, help, Type::STRING, kind, value);
    o.m_text = &value;
    // A path to read is not needed unless the program says so (it is empty by default).
    o.m_optional = kind == Kind::INPUT_FILE || kind == Kind::INPUT_FILES || kind == Kind::INPUT_DIR;
    return o;
}

void
AdcExperiment::AddSeedAndRun(uint32_t& seed, uint32_t& run)
{
    m_seed = &seed;
    m_run = &run;
    Add("seed", "RNG seed (ns-3's --RngSeed is the same setting)", seed).Min(1);
    Add("run", "RNG run number (ns-3's --RngRun is the same setting)", run);
}

void
AdcExperiment::AddCheck(std::function<void()> check)
{
    m_checks.push_back(std::move(check));
}

void
AdcExperiment::AddWorkLimit(const std::string& what, double limit, std::function<Work()> estimate)
{
    if (!Find("maxWork"))
    {
        Add("maxWork",
            "multiply the run-size limits by this factor to run a larger experiment (or set the "
            "environment variable ADC_MAX_WORK)",
            m_maxWork)
            .Above(0);
    }
    m_work.push_back({what, {limit, std::move(estimate)}});
}

void
AdcExperiment::AddLoadLimits(std::function<Load()> load)
{
    const std::vector<std::tuple<std::string, double, double Load::*, std::string>> limits{
        {"client nodes", 250000, &Load::clients, "clients"},
        {"requests", 5e6, &Load::requests, "clients x rate x duration x runs"},
        {"response bytes", 5e10, &Load::bytes, "requests x object size"},
        {"popularity-table entries", 1e8, &Load::entries, "clients x catalogue"}};
    for (const auto& [what, limit, member, how] : limits)
    {
        AddWorkLimit(what, limit, [load, member = member, how = how]() {
            return Work{load().*member, how};
        });
    }
}

void
AdcExperiment::SetDefault(const std::string& path, const AttributeValue& value)
{
    m_defaults.emplace_back(path, value.Copy());
}

AdcExperimentOption*
AdcExperiment::Find(const std::string& name) const
{
    for (const auto& o : m_options)
    {
        if (o->m_name == name)
        {
            return o.get();
        }
    }
    return nullptr;
}

const AdcExperimentOption&
AdcExperiment::Get(const std::string& name) const
{
    if (const AdcExperimentOption* o = Find(name))
    {
        return *o;
    }
    throw AdcConfigError("no option --" + name);
}

void
AdcExperiment::Refuse(const std::string& name, const std::string& why) const
{
    throw AdcConfigError("--" + name + "=" + Show(Get(name).GetText()) + ": " + why);
}

std::string
AdcExperiment::Show(const std::string& text)
{
    const std::string out = AdcText::Printable(text, 200);
    return out.empty() || out.find(' ') != std::string::npos ? "'" + out + "'" : out;
}

void
AdcExperiment::Report(const std::string& message) const
{
    std::string m = message;
    const std::string prefix = m_program + ": ";
    while (m.compare(0, prefix.size(), prefix) == 0)
    {
        m.erase(0, prefix.size());
    }
    // Never a terminal sequence or a NUL (escaping is idempotent: escaped words stay so).
    std::cerr << prefix << AdcText::Escape(m) << std::endl;
}

void
AdcExperiment::RunNs3CommandLine(const std::string& program, const std::vector<std::string>& args)
{
    for (const std::string& a : args)
    {
        const std::size_t eq = a.find('=');
        TypeId tid;
        if (a.find("PrintAttributes") != std::string::npos &&
            !TypeId::LookupByNameFailSafe(eq == std::string::npos ? "" : a.substr(eq + 1), &tid))
        {
            throw AdcConfigError(Show(a) + ": ns-3 has no such type; allowed a type of "
                                           "--PrintTypeIds, e.g. ns3::TcpSocket");
        }
    }
    CommandLine cmd(m_program);
    cmd.Usage(m_usage);
    for (const auto& o : m_options)
    {
        std::string allowed = o->Allowed();
        for (const Dependency& d : m_dependencies)
        {
            const std::map<std::string, std::string> says{{"less", ", < --"},
                                                          {"lessOrEqual", ", <= --"},
                                                          {"index", ", below --"},
                                                          {"requires", ", only with --"},
                                                          {"excludes", ", not with --"}};
            allowed += d.a == o->m_name ? says.at(d.kind) + d.b : "";
        }
        const bool say = allowed != "any text" && o->m_type != Type::BOOL;
        cmd.AddValue(
            o->m_name,
            o->m_help + (say ? "; allowed " + allowed : ""),
            MakeCallback(static_cast<bool (*)(std::string)>([](std::string) { return true; })),
            o->m_default);
    }
    std::vector<std::string> argv{program};
    argv.insert(argv.end(), args.begin(), args.end());
    cmd.Parse(argv); // prints, then exits 0
}

void
AdcExperiment::ReadArguments(int argc, char* argv[])
{
    std::vector<std::string> print;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string body = arg.substr(arg.rfind("--", 0) == 0 ? 2 : 1);
        const std::size_t eq = body.find('=');
        const std::string name = body.substr(0, eq);
        if (arg.size() < 2 || arg[0] != '-' || name.empty())
        {
            throw AdcConfigError("unexpected argument " + Show(arg) +
                                 ": options are --name=value (--PrintHelp lists them)");
        }
        AdcExperimentOption* o = Find(name);
        if (IsNs3Print(name))
        {
            print.push_back(arg);
        }
        else if (name == "PrintOptionSpec")
        {
            m_printSpec = true;
        }
        else if (o)
        {
            o->m_given = eq == std::string::npos ? "" : body.substr(eq + 1);
            o->m_isGiven = true;
        }
        else
        {
            m_ns3Args.emplace_back(name, eq == std::string::npos ? "" : body.substr(eq + 1));
        }
    }
    if (!print.empty())
    {
        RunNs3CommandLine(argv[0], print);
    }
}

void
AdcExperiment::CheckOption(AdcExperimentOption& o) const
{
    if (o.m_isGiven)
    {
        o.Parse(o.m_given);
    }
    const std::string text = o.GetText();
    const std::string who = "--" + o.m_name + "=" + Show(text) + ": ";
    const auto fail = [&who, &o](const std::string& why) {
        throw AdcConfigError(who + why + "; allowed " + o.Allowed());
    };
    const double v = o.GetNumber();
    if (!o.IsSpecial(v) && ((o.m_hasMin && (o.m_minExclusive ? v <= o.m_min : v < o.m_min)) ||
                            (o.m_hasMax && (o.m_maxExclusive ? v >= o.m_max : v > o.m_max))))
    {
        fail("out of range");
    }
    const std::string value = o.m_text ? *o.m_text : "";
    const bool many = o.m_kind == Kind::LIST || o.m_kind == Kind::INPUT_FILES;
    const std::vector<std::string> items =
        many ? AdcConfigError::SplitList(value) : std::vector<std::string>{value};
    if (o.m_type == Type::STRING && !(o.m_optional && value.empty()) &&
        (items.empty() || items[0].empty()))
    {
        fail(many ? "an empty list" : "empty");
    }
    for (std::size_t i = 0; o.m_type == Type::STRING && !value.empty() && i < items.size(); ++i)
    {
        std::error_code ec;
        const std::string why = o.m_kind == Kind::INPUT_FILE || o.m_kind == Kind::INPUT_FILES
                                    ? CannotRead(items[i])
                                    : "";
        if (!o.m_names.empty() &&
            std::find(o.m_names.begin(), o.m_names.end(), items[i]) == o.m_names.end())
        {
            fail("unknown name " + Show(items[i]));
        }
        else if (std::find(items.begin(), items.begin() + i, items[i]) != items.begin() + i)
        {
            fail(Show(items[i]) + " is named twice");
        }
        else if (!why.empty())
        {
            throw AdcConfigError(who + (many ? Show(items[i]) + " " : "") + why);
        }
        else if (o.m_kind == Kind::INPUT_DIR && !std::filesystem::is_directory(items[i], ec))
        {
            fail(std::filesystem::exists(items[i], ec) ? "not a folder" : "no such folder");
        }
    }
    for (const auto& check : o.m_checks)
    {
        try
        {
            check(text);
        }
        catch (const AdcConfigError& e)
        {
            throw AdcConfigError(who + e.what());
        }
    }
}

void
AdcExperiment::CheckDependencies() const
{
    for (const Dependency& d : m_dependencies)
    {
        const AdcExperimentOption& a = Get(d.a);
        const AdcExperimentOption& b = Get(d.b);
        const std::string who = "--" + a.m_name + "=" + Show(a.GetText()) + ": allowed ";
        const std::string other = "--" + b.m_name + " (" + Show(b.GetText()) + ")";
        const double x = a.GetNumber();
        const double y = b.GetNumber();
        const bool special = a.IsSpecial(x) || b.IsSpecial(y);
        std::string allowed = y >= 1 ? "0.." + Num(y - 1) : "none";
        for (const auto& [v, meaning] : a.m_special)
        {
            allowed = Num(v) + " (" + meaning + ") or " + allowed;
        }
        if ((d.kind == "less" && !special && !(x < y)) ||
            (d.kind == "lessOrEqual" && !special && !(x <= y)))
        {
            throw AdcConfigError(who + (d.kind == "less" ? "< " : "<= ") + other);
        }
        if (d.kind == "index" && !special && !(x >= 0 && x < y))
        {
            throw AdcConfigError(who + allowed + " (an index below --" + b.m_name + "=" +
                                 Show(b.GetText()) + ")");
        }
        if (d.kind == "requires" && a.IsSet() && !b.IsSet())
        {
            throw AdcConfigError(who + "only with --" + b.m_name);
        }
        if (d.kind == "excludes" && a.IsSet() && b.IsSet())
        {
            throw AdcConfigError(who + "without " + other + ": give one or the other");
        }
    }
}

void
AdcExperiment::ApplyNs3Arguments() const
{
    for (const auto& [path, value] : m_defaults)
    {
        if (!Config::SetDefaultFailSafe(path, *value))
        {
            throw AdcConfigError("ns-3 refuses the program's default for " + path);
        }
    }
    for (const auto& [name, value] : m_ns3Args) // checked: each succeeds
    {
        if (name.find("::") != std::string::npos)
        {
            Config::SetDefaultFailSafe(name, StringValue(value));
        }
        else
        {
            Config::SetGlobalFailSafe(name, StringValue(value));
        }
    }
}

void
AdcExperiment::SetSeedAndRun() const
{
    // --seed and ns-3's --RngSeed (likewise --run and --RngRun) are one setting.
    for (const auto& [option, global] :
         std::vector<std::pair<std::string, std::string>>{{"seed", "RngSeed"}, {"run", "RngRun"}})
    {
        const AdcExperimentOption& o = Get(option);
        for (const auto& [name, value] : m_ns3Args)
        {
            if (name == global && o.IsGiven() &&
                std::strtod(value.c_str(), nullptr) != o.GetNumber())
            {
                throw AdcConfigError("--" + option + "=" + Show(o.GetText()) + " and --" + global +
                                     "=" + Show(value) +
                                     " disagree: they are the same setting; give one");
            }
        }
    }
    if (!Get("seed").IsGiven())
    {
        *m_seed = RngSeedManager::GetSeed(); // --RngSeed, NS_GLOBAL_VALUE's or 1
    }
    if (!Get("run").IsGiven())
    {
        *m_run = static_cast<uint32_t>(RngSeedManager::GetRun());
    }
    RngSeedManager::SetSeed(*m_seed);
    RngSeedManager::SetRun(*m_run);
}

void
AdcExperiment::CheckWork() const
{
    if (m_work.empty())
    {
        return;
    }
    double factor = m_maxWork;
    const char* env = std::getenv("ADC_MAX_WORK");
    if (env && !Get("maxWork").IsGiven() && (!ParseReal(env, &factor) || factor <= 0))
    {
        throw AdcConfigError("ADC_MAX_WORK=" + Show(env) +
                             ": allowed a number > 0 (a factor on the run-size limits)");
    }
    for (const auto& [what, limit] : m_work)
    {
        const Work w = limit.second();
        if (!(w.amount <= limit.first * factor))
        {
            std::ostringstream os;
            os.precision(3);
            os << "the run is too large: about " << w.amount << " " << what << " (" << w.how
               << "); the limit is " << limit.first * factor << " (--maxWork=" << factor
               << "); to run it anyway give --maxWork="
               << std::ceil(w.amount / limit.first * 100) / 100
               << " or more (or set ADC_MAX_WORK), or make the run smaller";
            throw AdcConfigError(os.str());
        }
    }
}

void
AdcExperiment::PrepareOutput() const
{
    for (const auto& o : m_options)
    {
        const std::string dir = o->m_text ? *o->m_text : "";
        if (o->m_kind != Kind::OUTPUT_DIR || dir.empty())
        {
            continue;
        }
        const std::string who = "--" + o->m_name + "=" + Show(dir) + ": ";
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec || !std::filesystem::is_directory(dir, ec))
        {
            throw AdcConfigError(who + "cannot create the folder: " +
                                 (ec ? ec.message() : "a file of that name exists"));
        }
        const std::string probe = dir + "/.adc-write-test-" + std::to_string(getpid());
        std::FILE* f = std::fopen(probe.c_str(), "w");
        const int err = errno;
        if (!f || std::fputc('x', f) == EOF || std::fclose(f) != 0)
        {
            throw AdcConfigError(who + "cannot write in the folder: " + std::strerror(err));
        }
        std::remove(probe.c_str());
    }
}

void
AdcExperiment::PrintOptionSpec() const
{
    // One line per option and per dependency, tab-separated KEY=VALUE fields (lists: '|').
    static const char* const types[] = {"bool", "int32", "uint32", "uint64", "double", "string"};
    static const char* const kinds[] = {"value", "list", "outdir", "infile", "infiles", "indir"};
    const auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& s : v)
        {
            out += (out.empty() ? "" : "|") + s;
        }
        return out;
    };
    std::ostringstream os;
    os.precision(17);
    os << "program\t" << m_program << "\tseedAndRun=" << (m_seed ? 1 : 0) << "\n";
    for (const auto& o : m_options)
    {
        std::vector<std::string> special;
        for (const auto& s : o->m_special)
        {
            special.push_back(Num(s.first));
        }
        os << "option\tname=" << o->m_name << "\ttype=" << types[static_cast<int>(o->m_type)]
           << "\tkind=" << kinds[static_cast<int>(o->m_kind)] << "\toptional=" << o->m_optional
           << "\tspecial=" << join(special) << "\tnames=" << join(o->m_names)
           << "\tsampleFiles=" << join(o->m_sampleFiles) << "\tdefault=" << o->m_default;
        if (o->m_hasMin)
        {
            os << "\tmin=" << o->m_min << "\tminExclusive=" << o->m_minExclusive;
        }
        if (o->m_hasMax)
        {
            os << "\tmax=" << o->m_max << "\tmaxExclusive=" << o->m_maxExclusive;
        }
        os << "\n";
    }
    for (const Dependency& d : m_dependencies)
    {
        os << "dependency\t" << d.kind << "\t" << d.a << "\t" << d.b << "\n";
    }
    std::cout << os.str();
}

int
AdcExperiment::Run(int argc, char* argv[], std::function<int()> body)
{
    try
    {
        for (const auto& o : m_options)
        {
            if (!o->m_declError.empty())
            {
                throw AdcConfigError(o->m_declError);
            }
        }
        ReadArguments(argc, argv);
        if (m_printSpec)
        {
            PrintOptionSpec();
            return 0;
        }
        for (const auto& [name, value] : m_ns3Args) // first: before any of them reaches ns-3
        {
            const std::string who = "--" + name + "=" + Show(value) + ": ";
            name.find("::") != std::string::npos ? CheckAttributeArgument(name, value, who)
                                                 : CheckGlobalArgument(name, value, who);
        }
        for (const auto& o : m_options)
        {
            CheckOption(*o);
        }
        CheckDependencies();
        for (const auto& check : m_checks)
        {
            check();
        }
        ApplyNs3Arguments();
        if (m_seed)
        {
            SetSeedAndRun();
        }
        CheckWork();
        if (m_mpi)
        {
            AdcMpi::Enable(&argc, &argv);
        }
        PrepareOutput();
        const int status = body();
        AdcMpi::Disable();
        return status;
    }
    catch (const AdcExperimentError& e)
    {
        Report(e.what());
        AdcMpi::Disable();
        return 1;
    }
    catch (const std::exception& e)
    {
        Report(e.what());
        AdcMpi::Disable();
        return 2;
    }
}

} // namespace ns3
