/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-mpi.h"

#include "ns3/adc-config-error.h"
#include "ns3/application.h"
#include "ns3/global-value.h"
#include "ns3/node-list.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <cstdlib>

#ifdef ADC_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{

/// \return the number of ranks MPI's launcher started (mpirun's environment), 1 without one
uint32_t
LauncherSize()
{
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    {
        if (const char* v = std::getenv(name))
        {
            const long n = std::strtol(v, nullptr, 10);
            if (n > 0)
            {
                return static_cast<uint32_t>(n);
            }
        }
    }
    return 1;
}

bool g_enabled = false; //!< the distributed simulator runs

} // namespace

bool
AdcMpi::IsAvailable()
{
#ifdef ADC_MPI
    return true;
#else
    return false;
#endif
}

void
AdcMpi::Enable(int* argc, char*** argv, bool nullMessages)
{
    const uint32_t size = LauncherSize();
    if (size <= 1 || g_enabled)
    {
        return;
    }
#ifdef ADC_MPI
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(nullMessages ? "ns3::NullMessageSimulatorImpl"
                                               : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
    g_enabled = true;
#else
    (void)argc;
    (void)argv;
    (void)nullMessages;
    throw AdcConfigError("AdcMpi: started by an MPI launcher with " + std::to_string(size) +
                         " ranks, but this build of ns3-adc is against an ns-3 without MPI "
                         "(Debian's): build it with ./adc setup --mpi and run ./adc run "
                         "EXPERIMENT --ranks N");
#endif
}

void
AdcMpi::Disable()
{
#ifdef ADC_MPI
    if (g_enabled)
    {
        MpiInterface::Disable();
        g_enabled = false;
    }
#endif
}

bool
AdcMpi::IsEnabled()
{
    return g_enabled;
}

uint32_t
AdcMpi::GetRank()
{
#ifdef ADC_MPI
    return g_enabled ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
AdcMpi::GetSize()
{
#ifdef ADC_MPI
    return g_enabled ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
AdcMpi::IsLocal(Ptr<const Node> node)
{
    return !g_enabled || node->GetSystemId() == GetRank();
}

std::string
AdcMpi::RankFileName(const std::string& path)
{
    if (GetSize() <= 1)
    {
        return path;
    }
    const std::string tag = ".rank" + std::to_string(GetRank());
    const std::size_t slash = path.find_last_of('/');
    const std::size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    {
        return path + tag;
    }
    return path.substr(0, dot) + tag + path.substr(dot);
}

void
AdcMpi::CheckOneSimulation(const std::string& program,
                           const std::string& option,
                           std::size_t count,
                           const std::string& what)
{
    if (IsEnabled() && count != 1)
    {
        throw AdcConfigError(program + ": " + option + " names " + std::to_string(count) + " " +
                             what + "; on " + std::to_string(GetSize()) +
                             " MPI ranks a run simulates exactly one (./adc run " + program +
                             " --ranks N runs them one after the other)");
    }
}

uint32_t
AdcMpi::SilenceRemoteApplications()
{
    uint32_t n = 0;
    for (uint32_t i = 0; g_enabled && i < NodeList::GetNNodes(); ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        if (IsLocal(node))
        {
            continue;
        }
        for (uint32_t a = 0; a < node->GetNApplications(); ++a)
        {
            // Past any run's stop time, yet far from Time's limit (the simulator adds Now()).
            node->GetApplication(a)->SetStartTime(Seconds(1e9));
            node->GetApplication(a)->SetStopTime(TimeStep(0));
            ++n;
        }
    }
    return n;
}

void
AdcMpi::Sum(std::vector<uint64_t>& values)
{
#ifdef ADC_MPI
    if (g_enabled && !values.empty())
    {
        std::vector<uint64_t> sums(values.size());
        MPI_Allreduce(values.data(),
                      sums.data(),
                      static_cast<int>(values.size()),
                      MPI_UINT64_T,
                      MPI_SUM,
                      MPI_COMM_WORLD);
        values.swap(sums);
    }
#else
    (void)values;
#endif
}

#ifdef ADC_MPI
namespace
{

/**
 * \brief Every rank's \p mine on every rank, in rank order (MPI_Allgatherv).
 * \param mine this rank's elements \param n how many \param type their MPI type
 * \param all all ranks' elements \param offsets where each rank's begin in \p all
 * \return how many each rank gave
 */
template <class T, class Out>
std::vector<int>
AllGather(const T* mine, int n, MPI_Datatype type, Out& all, std::vector<int>& offsets)
{
    const int size = static_cast<int>(AdcMpi::GetSize());
    std::vector<int> counts(size);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    offsets.assign(size, 0);
    for (int r = 1; r < size; ++r)
    {
        offsets[r] = offsets[r - 1] + counts[r - 1];
    }
    all.resize(offsets[size - 1] + counts[size - 1]);
    MPI_Allgatherv(mine, n, type, all.data(), counts.data(), offsets.data(), type, MPI_COMM_WORLD);
    return counts;
}

} // namespace
#endif

void
AdcMpi::Gather(std::vector<double>& values)
{
#ifdef ADC_MPI
    if (g_enabled)
    {
        std::vector<double> all;
        std::vector<int> offsets;
        AllGather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all, offsets);
        values.swap(all);
    }
#else
    (void)values;
#endif
}

std::vector<std::string>
AdcMpi::GatherText(const std::string& text)
{
#ifdef ADC_MPI
    if (g_enabled)
    {
        std::string all;
        std::vector<int> offsets;
        const std::vector<int> counts =
            AllGather(text.data(), static_cast<int>(text.size()), MPI_CHAR, all, offsets);
        std::vector<std::string> out;
        for (std::size_t r = 0; r < counts.size(); ++r)
        {
            out.push_back(all.substr(offsets[r], counts[r]));
        }
        return out;
    }
#endif
    return {text};
}

} // namespace ns3
