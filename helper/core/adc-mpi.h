/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: running an experiment on several MPI ranks with ns-3's distributed
 * simulator, and the same code on one process when ns-3 has no MPI.
 */

#ifndef ADC_MPI_H
#define ADC_MPI_H

#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The project's side of ns-3's MPI engine (the `mpi` module).
 *
 * A topology is partitioned by node system ids (NodeContainer::Create(n, systemId)); the
 * helpers give them from their partition plans. Every rank builds every node, device, channel
 * and application in the same order, so automatic random-stream numbers are the same on every
 * rank and as in a single process; SilenceRemoteApplications() then keeps the applications of
 * other ranks' nodes from ever starting, so each node's traffic is simulated on its own rank
 * only. Per-packet state crosses ranks in headers only (ns-3 serializes packets between ranks).
 *
 * Built against an ns-3 without MPI (Debian's), or run as one process, every function works as
 * for one rank: rank 0 of 1, every node local, file names unchanged.
 */
class AdcMpi
{
  public:
    /**
     * \brief Enable ns-3's distributed simulator when the process runs under mpirun with more
     * than one rank (MPI's environment says so); otherwise do nothing.
     * Call first in main(), before any Simulator or Node use.
     * \param argc main's argc
     * \param argv main's argv
     * \param nullMessages use ns-3's NullMessageSimulatorImpl instead of the default
     *        DistributedSimulatorImpl (granted time window)
     * \throw AdcConfigError when started by mpirun with several ranks but ns-3 has no MPI
     */
    static void Enable(int* argc, char*** argv, bool nullMessages = false);
    /// \brief Finish MPI (call last in main(), after Simulator::Destroy()); no-op otherwise.
    static void Disable();
    /// \return whether the distributed simulator runs (more than one rank)
    static bool IsEnabled();
    /// \return whether this build of the module was compiled against an ns-3 with MPI
    static bool IsAvailable();
    /// \return this process's rank (0 without MPI)
    static uint32_t GetRank();
    /// \return the number of ranks (1 without MPI)
    static uint32_t GetSize();
    /// \return whether \p node is simulated by this rank
    static bool IsLocal(Ptr<const Node> node);
    /**
     * \brief The file of this rank: "dir/x.csv" becomes "dir/x.rank1.csv" when several ranks
     * run (each writes its own; `./adc run --ranks` merges them), unchanged otherwise.
     * \param path a file name
     * \return the rank's file name
     */
    static std::string RankFileName(const std::string& path);
    /**
     * \brief Refuse several simulations in one distributed run: ns-3 3.37's MPI interface is
     * set up once per process and released by Simulator::Destroy().
     * \param program the program's name
     * \param option its option that lists the simulations, as given ("--variants=a,b")
     * \param count how many the option names
     * \param what what they are ("variants")
     * \throw AdcConfigError under MPI when \p count is not 1
     */
    static void CheckOneSimulation(const std::string& program,
                                   const std::string& option,
                                   std::size_t count,
                                   const std::string& what);
    /**
     * \brief Keep every application of a node on another rank from starting (start time past
     * any run, no stop event). Call after installing applications, before Simulator::Run().
     * \return how many applications were silenced
     */
    static uint32_t SilenceRemoteApplications();
    /**
     * \brief Sum counters over all ranks (MPI_Allreduce); unchanged on one rank.
     * \param values this rank's counters, replaced by the sums
     */
    static void Sum(std::vector<uint64_t>& values);
    /**
     * \brief Gather every rank's values on every rank (MPI_Allgatherv), in rank order.
     * \param values this rank's values, replaced by all ranks' values
     */
    static void Gather(std::vector<double>& values);
    /**
     * \brief Gather every rank's text on every rank, in rank order.
     * \param text this rank's text
     * \return all ranks' texts (just \p text on one rank)
     */
    static std::vector<std::string> GatherText(const std::string& text);
};

} // namespace ns3

#endif // ADC_MPI_H
