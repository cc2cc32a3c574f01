/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the experiment scaffold every program under examples/ runs in: options
 * declared once with what they allow, checked before anything is built, ns-3's own arguments
 * checked first, the output folder prepared, and one way to end with an error.
 */

#ifndef ADC_EXPERIMENT_H
#define ADC_EXPERIMENT_H

#include "ns3/attribute.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The run itself went wrong (an invariant the program checks after the simulation, such
 * as request accounting): AdcExperiment::Run prints "PROGRAM: message" and returns 1, where a
 * bad input returns 2.
 */
class AdcExperimentError : public std::runtime_error
{
  public:
    /// \param what the message
    explicit AdcExperimentError(const std::string& what)
        : std::runtime_error(what)
    {
    }
};

/**
 * \ingroup adc
 * \brief One command-line option of an experiment: its name, help, type, default and what it
 * allows. AdcExperiment's Add* functions return it; its setters chain:
 * `exp.Add("rate", "requests per second per client", s.rate).Above(0).Max(1000);`
 */
class AdcExperimentOption
{
  public:
    /// The C++ type the option's value is stored in.
    enum class Type
    {
        BOOL,
        INT32,
        UINT32,
        UINT64,
        DOUBLE,
        STRING
    };

    /// What a string option holds.
    enum class Kind
    {
        VALUE,       //!< a value (a number, a flag, a word)
        LIST,        //!< a comma-separated list of at least one item, no item twice
        OUTPUT_DIR,  //!< a folder Run creates and checks writable before the body
        INPUT_FILE,  //!< a file that must exist and be readable
        INPUT_FILES, //!< a comma-separated list of such files
        INPUT_DIR,   //!< a folder that must exist
    };

    /// \param v the smallest value allowed (inclusive) \return this option
    AdcExperimentOption& Min(double v)
    {
        return Bound(true, v, false);
    }

    /// \param v the largest value allowed (inclusive) \return this option
    AdcExperimentOption& Max(double v)
    {
        return Bound(false, v, false);
    }

    /// \param v the values allowed are greater than \p v \return this option
    AdcExperimentOption& Above(double v)
    {
        return Bound(true, v, true);
    }

    /// \param v the values allowed are less than \p v \return this option
    AdcExperimentOption& Below(double v)
    {
        return Bound(false, v, true);
    }

    /**
     * \brief Allow one value outside the range, e.g. -1 meaning "none"; dependencies
     * (AdcExperiment::Less, Index) do not apply to it.
     * \param v the value \param meaning what it means ("none") \return this option
     */
    AdcExperimentOption& Special(double v, const std::string& meaning)
    {
        m_special.emplace_back(v, meaning);
        return *this;
    }

    /// \param names the names allowed (of a value, or of each item of a list) \return this
    AdcExperimentOption& OneOf(const std::vector<std::string>& names)
    {
        m_names = names;
        return *this;
    }

    /// \brief An empty string (or path) is allowed: it means "not set". \return this option
    AdcExperimentOption& Optional()
    {
        m_optional = true;
        return *this;
    }

    /**
     * \brief A check of the text given (after the type and name checks).
     * \param check throws AdcConfigError(reason) for a value it refuses; the message becomes
     * "--name=value: reason"
     * \return this option
     */
    AdcExperimentOption& Check(std::function<void(const std::string&)> check)
    {
        m_checks.push_back(std::move(check));
        return *this;
    }

    /**
     * \param names for an INPUT_DIR: names of files the program reads from it (the bad-input
     * test writes a malformed one of each) \return this option
     */
    AdcExperimentOption& SampleFiles(const std::vector<std::string>& names)
    {
        m_sampleFiles = names;
        return *this;
    }

    /// \return the name, without "--"
    const std::string& GetName() const
    {
        return m_name;
    }

    /// \return whether it was given on the command line
    bool IsGiven() const
    {
        return m_isGiven;
    }

    /// \return its value as text, as given or the default
    std::string GetText() const
    {
        return m_isGiven ? m_given : m_default;
    }

    /// \return whether it is set: given for a flag or number, non-empty for a string
    bool IsSet() const;
    /// \return a numeric option's value (bool: 0 or 1)
    double GetNumber() const;

  private:
    friend class AdcExperiment;

    /// \return "allowed ..." for the message of a refused value
    std::string Allowed() const;
    /// \param v a value \return whether one of the special values
    bool IsSpecial(double v) const;
    /// \param text the text given: store it \throws AdcConfigError naming the option
    void Parse(const std::string& text);

    /// \param lower the lower bound (or the upper) \param v the bound \param exclusive
    /// whether \p v itself is excluded \return this option
    AdcExperimentOption& Bound(bool lower, double v, bool exclusive)
    {
        (lower ? m_hasMin : m_hasMax) = true;
        (lower ? m_min : m_max) = v;
        (lower ? m_minExclusive : m_maxExclusive) = exclusive;
        return *this;
    }

    std::string m_name;                                    //!< the name
    std::string m_help;                                    //!< the help text
    Type m_type{Type::STRING};                             //!< value type
    Kind m_kind{Kind::VALUE};                              //!< string kind
    std::function<double()> m_get;                         //!< a number's value (not STRING)
    std::function<void(long double)> m_set;                //!< store a number (not STRING)
    std::string* m_text{nullptr};                          //!< a STRING's variable
    std::string m_default;                                 //!< the default, as text
    std::string m_given;                                   //!< the text given
    bool m_isGiven{false};                                 //!< given on the command line
    double m_min{0};                                       //!< lower bound (m_hasMin)
    double m_max{0};                                       //!< upper bound (m_hasMax)
    bool m_hasMin{false};                                  //!< a lower bound is set
    bool m_hasMax{false};                                  //!< an upper bound is set
    bool m_minExclusive{false};                            //!< the lower bound is excluded
    bool m_maxExclusive{false};                            //!< the upper bound is excluded
    std::vector<std::pair<double, std::string>> m_special; //!< values allowed outside
    std::vector<std::string> m_names;                      //!< names allowed (empty: any)
    bool m_optional{false};                                //!< empty allowed
    std::vector<std::function<void(const std::string&)>> m_checks; //!< custom checks
    std::vector<std::string> m_sampleFiles; //!< INPUT_DIR's files (for tests)
    std::string m_declError;                //!< a declaration error (reported by Run)
};

/**
 * \ingroup adc
 * \brief The scaffold of an experiment program: declare the options once, then Run the body.
 *
 * \code
 * int main(int argc, char* argv[])
 * {
 *     Settings s;
 *     AdcExperiment exp("my-experiment", "What the experiment compares.");
 *     exp.Add("clients", "client nodes", s.clients).Min(1).Max(1000);
 *     exp.Add("rate", "requests per second per client", s.rate).Above(0).Max(1000);
 *     exp.Add("duration", "seconds of requests", s.duration).Above(0).Max(86400);
 *     exp.Add("servers", "servers", s.servers).Min(1).Max(64);
 *     exp.Add("failServer", "index of the server that fails", s.failServer).Special(-1, "none");
 *     exp.Index("failServer", "servers");
 *     exp.Add("failAt", "when it fails (s)", s.failAt).Min(0);
 *     exp.Less("failAt", "duration");
 *     exp.AddList("methods", "LB methods compared", s.methods)
 *         .OneOf(AdcLbMethod::GetMethodNames());
 *     exp.Add("config", "an ns.conf to read", s.config, AdcExperimentOption::Kind::INPUT_FILE);
 *     exp.AddOutputDir("outputDir", "where the CSV files go", s.outputDir);
 *     exp.AddSeedAndRun(s.seed, s.run);
 *     exp.AddCheck([&s, &exp]() {
 *         if (...) { exp.Refuse("failAt", "allowed ... (why)"); }
 *     });
 *     exp.AddLoadLimits([&s]() {
 *         const double requests = s.clients * s.rate * s.duration;
 *         return AdcExperiment::Load{double(s.clients), requests, requests * 20000, 0};
 *     });
 *     exp.SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
 *     return exp.Run(argc, argv, [&]() {
 *         ... build, simulate, write into s.outputDir (created already) ...
 *         return 0; // or throw AdcConfigError (status 2) or AdcExperimentError (status 1)
 *     });
 * }
 * \endcode
 *
 * A program that must run in real time (AdcEmulationHelper::EnableRealtime) calls that
 * before constructing AdcExperiment; a program whose options are checked in its own code
 * declares them as strings with a Check, so that they still appear in --PrintHelp and in the
 * bad-input test (utils/check-bad-input.py, CTest label bad-input, which covers every program
 * built on the scaffold: add a new program to test/cmake/bad-input.cmake).
 *
 * Run, in this order:
 * 1. reads the command line itself (`--name=value`; a string keeps its spaces): an unknown
 *    option or a positional argument is an error; `--PrintHelp`/`--help` and ns-3's other
 *    Print* options are handed to ns-3's CommandLine, which lists every option with its help,
 *    what it allows (dependencies included) and its default, and exits 0; the hidden
 *    `--PrintOptionSpec` prints the options, limits and dependencies, one per line in
 *    tab-separated KEY=VALUE fields (for utils/check-bad-input.py), and exits 0;
 * 2. checks ns-3's own arguments (`--ns3::Type::Attribute=value`, global values such as
 *    `--RngRun`, `--SchedulerType`, `--ChecksumEnabled`): the type, the attribute and the
 *    value (tried in a child process: ns-3 aborts on some malformed values);
 * 3. checks every option: its type (a number, a whole number for integer types, true or
 *    false), its range, its names, a list non-empty without repeats, input files and folders
 *    present, its Check; then the dependencies (Less, LessOrEqual, Index, Requires, Excludes)
 *    and the AddCheck checks;
 * 4. applies the SetDefault values, then ns-3's own arguments, so the command line wins;
 * 5. the seed and run (AddSeedAndRun): `--seed` >= 1; ns-3's `--RngSeed`/`--RngRun` are the
 *    same settings: either may be given, both with different values is an error; without
 *    either, ns-3's value stands (1, or NS_GLOBAL_VALUE's); RngSeedManager gets them;
 * 6. the work limits (AddLoadLimits, AddWorkLimit): a run estimated above a limit is refused
 *    with the estimate, the limit and how to raise it (`--maxWork=F` multiplies every limit
 *    by F, as does the environment variable ADC_MAX_WORK);
 * 7. MPI (UseMpi): AdcMpi::Enable (after the checks: a refused run never starts MPI);
 * 8. creates each OUTPUT_DIR and checks that a file can be written in it;
 * 9. runs the body and returns its status (AdcMpi::Disable after it).
 *
 * Every error ends the same way: "PROGRAM: message" once on stderr (a message that starts
 * with "PROGRAM: " already is not prefixed again; AdcText::Escape escapes every byte that is
 * not printable, and values are cut by AdcText::Printable) and status 2: an error of the checks, an
 * AdcConfigError (a configuration file's message names FILE:LINE) or any other std::exception the
 * body throws; AdcExperimentError gives status 1. Nothing of the checks aborts: the values that
 * would make ns-3 abort (an attribute value its checker refuses, a seed of 0, an unknown scheduler)
 * are refused first.
 *
 * Messages: "--rate=-1: out of range; allowed > 0 and <= 1000", "--methods=FOO: unknown name
 * 'FOO'; allowed ROUNDROBIN, ...", "--failAt=30: allowed < --duration (20)".
 */
class AdcExperiment
{
  public:
    /**
     * \param program the program's name, printed before every error ("gslb-rtt")
     * \param usage what the program does (--PrintHelp's first line)
     */
    AdcExperiment(const std::string& program, const std::string& usage);
    ~AdcExperiment();

    AdcExperiment(const AdcExperiment&) = delete;
    AdcExperiment& operator=(const AdcExperiment&) = delete;

    /**
     * \brief Declare an option whose value goes to \p value (its current value is the
     * default): T is bool, int32_t, uint32_t, uint64_t, double or std::string.
     * \param name the name, without "--" \param help the help text \param value the variable
     * \return the option, to add what it allows
     */
    template <typename T>
    AdcExperimentOption& Add(const std::string& name, const std::string& help, T& value);

    /**
     * \brief Declare a string option that holds a list or paths.
     * \param name the name \param help the help text \param value the variable
     * \param kind what it holds: LIST, OUTPUT_DIR (created and checked writable by Run, unless
     * Optional and empty), INPUT_FILE, INPUT_FILES, INPUT_DIR (checked when given)
     * \return the option
     */
    AdcExperimentOption& Add(const std::string& name,
                             const std::string& help,
                             std::string& value,
                             AdcExperimentOption::Kind kind);

    /// \copydoc Add(const std::string&,const std::string&,T&)
    /// A comma-separated list (AdcConfigError::SplitList gives its items).
    AdcExperimentOption& AddList(const std::string& name,
                                 const std::string& help,
                                 std::string& value)
    {
        return Add(name, help, value, AdcExperimentOption::Kind::LIST);
    }

    /// \copydoc Add(const std::string&,const std::string&,T&)
    /// The output folder.
    AdcExperimentOption& AddOutputDir(const std::string& name,
                                      const std::string& help,
                                      std::string& value)
    {
        return Add(name, help, value, AdcExperimentOption::Kind::OUTPUT_DIR);
    }

    /**
     * \brief Declare --seed (RNG seed, >= 1) and --run (RNG run number), which ns-3's
     * --RngSeed and --RngRun also set (see the class doc).
     * \param seed the seed's variable (its value is the default)
     * \param run the run's variable
     */
    void AddSeedAndRun(uint32_t& seed, uint32_t& run);

    /// \brief Option \p a must be less than option \p b. \param a a name \param b a name
    void Less(const std::string& a, const std::string& b)
    {
        m_dependencies.push_back({"less", a, b});
    }

    /// \brief Option \p a must be at most option \p b. \param a a name \param b a name
    void LessOrEqual(const std::string& a, const std::string& b)
    {
        m_dependencies.push_back({"lessOrEqual", a, b});
    }

    /// \brief Option \p a is an index below option \p b. \param a a name \param b a name
    void Index(const std::string& a, const std::string& b)
    {
        m_dependencies.push_back({"index", a, b});
    }

    /// \brief Option \p a, when set, needs option \p b set. \param a a name \param b a name
    void Requires(const std::string& a, const std::string& b)
    {
        m_dependencies.push_back({"requires", a, b});
    }

    /// \brief Options \p a and \p b are not both set. \param a a name \param b a name
    void Excludes(const std::string& a, const std::string& b)
    {
        m_dependencies.push_back({"excludes", a, b});
    }

    /**
     * \brief A check of several options, run after the declared dependencies.
     * \param check throws AdcConfigError with a message that names the options
     */
    void AddCheck(std::function<void()> check);

    /// A run's estimated size: the amount and how it was computed.
    struct Work
    {
        double amount;   //!< e.g. requests
        std::string how; //!< e.g. "400 clients x 0.5/s x 20 s x 5 methods"
    };

    /// The size of a client-server run, for AddLoadLimits (0: not counted).
    struct Load
    {
        double clients;  //!< client nodes (memory)
        double requests; //!< requests (or visits) over every run the options name
        double bytes;    //!< response bytes over those runs
        double entries;  //!< popularity-table entries: clients x catalogue (memory)

        /**
         * \brief The size of \p runs runs of \p clients Poisson clients, each with its own
         * popularity table.
         * \param clients client nodes \param rate requests per second per client
         * \param duration seconds \param runs runs (variants, methods) \param objectSize
         * bytes per response \param catalogue distinct objects \return the load
         */
        static Load OfClients(double clients,
                              double rate,
                              double duration,
                              double runs,
                              double objectSize,
                              double catalogue)
        {
            const double requests = clients * rate * duration * runs;
            return Load{clients, requests, requests * objectSize, clients * catalogue};
        }
    };

    /**
     * \brief The usual limits of a client-server experiment: 250,000 client nodes, 5 million
     * requests, 5e10 response bytes, 1e8 popularity-table entries (each a few hours of
     * simulation or gigabytes of memory on one core; --maxWork raises them).
     * \param load the run's size, from the checked options
     */
    void AddLoadLimits(std::function<Load()> load);

    /**
     * \brief Refuse runs larger than \p limit (times --maxWork or ADC_MAX_WORK).
     * \param what what is counted ("requests") \param limit the limit
     * \param estimate the run's size, from the checked options
     */
    void AddWorkLimit(const std::string& what, double limit, std::function<Work()> estimate);

    /**
     * \brief A default the program gives an ns-3 attribute (Config::SetDefault), applied
     * before the command line's `--ns3::...` values, so that the user's value wins.
     * \param path "ns3::Type::Attribute" \param value the value
     */
    void SetDefault(const std::string& path, const AttributeValue& value);

    /// \brief The program runs on several MPI ranks under mpirun (AdcMpi::Enable in Run).
    void UseMpi()
    {
        m_mpi = true;
    }

    /**
     * \brief Check the command line, prepare, run \p body; end every error as the class doc
     * says. Call once, as main's return value.
     * \param argc main's argc \param argv main's argv \param body the experiment
     * \return the exit status: the body's, 2 for bad input, 1 for AdcExperimentError
     */
    int Run(int argc, char* argv[], std::function<int()> body);

    /// \param name an option's name \return the option (AdcConfigError when none)
    const AdcExperimentOption& Get(const std::string& name) const;
    /**
     * \brief Refuse an option's value (for AddCheck and the body).
     * \param name the option \param why what is allowed
     * \throws AdcConfigError "--name=VALUE: why"
     */
    [[noreturn]] void Refuse(const std::string& name, const std::string& why) const;

    /// \return the program's name
    const std::string& GetProgram() const
    {
        return m_program;
    }

    /**
     * \param text a value to show in a message
     * \return it as AdcText::Printable shows it (bytes that are not printable escaped, cut
     * after 200 bytes), quoted when empty or holding blanks
     */
    static std::string Show(const std::string& text);

  private:
    /// A dependency between two options.
    struct Dependency
    {
        std::string kind; //!< less, lessOrEqual, index, requires, excludes
        std::string a;    //!< an option
        std::string b;    //!< another
    };

    /// \return a new option (the caller binds its variable)
    AdcExperimentOption& Declare(const std::string& name,
                                 const std::string& help,
                                 AdcExperimentOption::Type type,
                                 AdcExperimentOption::Kind kind,
                                 const std::string& defaultText);
    /// \param name a name \return the option, or null
    AdcExperimentOption* Find(const std::string& name) const;
    /// Read argv; hand Print* options to ns-3 (which exits). \throws AdcConfigError
    void ReadArguments(int argc, char* argv[]);
    /// \param o an option: store and check its value \throws AdcConfigError
    void CheckOption(AdcExperimentOption& o) const;
    /// Check the declared dependencies. \throws AdcConfigError
    void CheckDependencies() const;
    /// Apply the program's defaults, then ns-3's own arguments (checked before).
    void ApplyNs3Arguments() const;
    /// Reconcile --seed/--run with --RngSeed/--RngRun. \throws AdcConfigError
    void SetSeedAndRun() const;
    /// Refuse runs over a work limit. \throws AdcConfigError
    void CheckWork() const;
    /// Create the output folders, check them writable. \throws AdcConfigError
    void PrepareOutput() const;
    /// Print the options, limits and dependencies (--PrintOptionSpec).
    void PrintOptionSpec() const;
    /// Print --PrintHelp and ns-3's other Print* options through ns-3's CommandLine (exits).
    void RunNs3CommandLine(const std::string& program, const std::vector<std::string>& args);
    /// \param message an error: print "PROGRAM: message" once
    void Report(const std::string& message) const;

    std::string m_program;                                       //!< name
    std::string m_usage;                                         //!< usage
    std::vector<std::unique_ptr<AdcExperimentOption>> m_options; //!< declared, in order
    std::vector<Dependency> m_dependencies;                      //!< declared dependencies
    std::vector<std::function<void()>> m_checks;                 //!< AddCheck
    std::vector<std::pair<std::string, std::pair<double, std::function<Work()>>>>
        m_work;                                                                //!< limits
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_defaults; //!< SetDefault
    std::vector<std::pair<std::string, std::string>> m_ns3Args; //!< ns-3's own, in order
    uint32_t* m_seed{nullptr};                                  //!< AddSeedAndRun
    uint32_t* m_run{nullptr};                                   //!< AddSeedAndRun
    double m_maxWork{1};                                        //!< --maxWork
    bool m_mpi{false};                                          //!< UseMpi
    bool m_printSpec{false};                                    //!< --PrintOptionSpec given
};

template <typename T>
AdcExperimentOption&
AdcExperiment::Add(const std::string& name, const std::string& help, T& value)
{
    using Type = AdcExperimentOption::Type;
    static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t> ||
                      std::is_same_v<T, double> || std::is_same_v<T, std::string>,
                  "an option is a bool, int32_t, uint32_t, uint64_t, double or std::string");
    std::ostringstream text;
    text << std::boolalpha << value;
    const Type type = std::is_same_v<T, bool>       ? Type::BOOL
                      : std::is_same_v<T, int32_t>  ? Type::INT32
                      : std::is_same_v<T, uint32_t> ? Type::UINT32
                      : std::is_same_v<T, uint64_t> ? Type::UINT64
                      : std::is_same_v<T, double>   ? Type::DOUBLE
                                                    : Type::STRING;
    AdcExperimentOption& o =
        Declare(name, help, type, AdcExperimentOption::Kind::VALUE, text.str());
    if constexpr (std::is_same_v<T, std::string>)
    {
        o.m_text = &value;
    }
    else
    {
        o.m_get = [&value]() { return static_cast<double>(value); };
        o.m_set = [&value](long double v) { value = static_cast<T>(v); };
    }
    return o;
}

} // namespace ns3

#endif /* ADC_EXPERIMENT_H */
