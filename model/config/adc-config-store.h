/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: the objects a configuration defines, by kind and name.
 */

#ifndef ADC_CONFIG_STORE_H
#define ADC_CONFIG_STORE_H

#include "ns3/adc-config-error.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The objects a configuration defines (services, service groups, virtual servers,
 * monitors, ILB rules, and what subjects add), found by kind and name, listed in the order they
 * were defined so that a configuration prints back in its own order.
 *
 * Kinds are the command languages' nouns ("service", "lb vserver", "ilb rule"); names are
 * case-sensitive, as NetScaler's and ilbadm's object names are. Objects are ns-3 Objects, so a
 * subject stores its own kinds without changing this class.
 *
 * Each object keeps its origin, the command that added it (the reader makes it the current
 * origin while a command runs), and the origins of later commands that changed an aspect of
 * it (a parameter set, a binding: SetOrigin), so that checks made after reading name the line.
 */
class AdcConfigStore
{
  public:
    AdcConfigStore();
    ~AdcConfigStore();
    AdcConfigStore(const AdcConfigStore&) = delete;
    AdcConfigStore& operator=(const AdcConfigStore&) = delete;

    /**
     * \param kind the object's kind
     * \param name its name
     * \param object the object
     * \return false (and nothing stored) when \p kind already has an object named \p name
     */
    bool Add(const std::string& kind, const std::string& name, Ptr<Object> object);

    /// \param kind a kind \param name a name \return the object, or null
    Ptr<Object> Find(const std::string& kind, const std::string& name) const;

    /// \param kind a kind \param name a name \return the object as a T, or null
    template <typename T>
    Ptr<T> Get(const std::string& kind, const std::string& name) const
    {
        return DynamicCast<T>(Find(kind, name));
    }

    /// \param kind a kind \param name a name \return false when absent (the object is disposed)
    bool Remove(const std::string& kind, const std::string& name);

    /// \param kind a kind \return the names of its objects, in the order they were added
    std::vector<std::string> GetNames(const std::string& kind) const;

    /// \param kind a kind \return its objects as T, in the order they were added
    template <typename T>
    std::vector<Ptr<T>> GetAll(const std::string& kind) const
    {
        std::vector<Ptr<T>> out;
        for (const std::string& name : GetNames(kind))
        {
            out.push_back(Get<T>(kind, name));
        }
        return out;
    }

    /// \return number of objects of every kind
    std::size_t GetSize() const;

    /**
     * \brief The command now running (AdcConfigReader sets it; objects Add stores get it).
     * \param origin the origin (an unknown one outside commands)
     */
    void SetCurrentOrigin(const AdcConfigOrigin& origin);

    /// \return the command now running (unknown outside commands)
    const AdcConfigOrigin& GetCurrentOrigin() const;

    /**
     * \param kind a kind \param name a name
     * \return the origin of the command that added the object (unknown when absent or added
     * outside a command)
     */
    AdcConfigOrigin GetOrigin(const std::string& kind, const std::string& name) const;

    /**
     * \brief Note where an aspect of an object was last set: a parameter ("-crPortRange"), a
     * binding ("bind CRS1"). Removing the object forgets its aspects.
     * \param kind the object's kind \param name its name \param aspect the aspect
     * \param origin the command that set it
     */
    void SetOrigin(const std::string& kind,
                   const std::string& name,
                   const std::string& aspect,
                   const AdcConfigOrigin& origin);

    /**
     * \param kind a kind \param name a name \param aspect an aspect
     * \return where the aspect was last set; else the object's own origin
     */
    AdcConfigOrigin GetOrigin(const std::string& kind,
                              const std::string& name,
                              const std::string& aspect) const;

    /// Dispose and forget every object.
    void Clear();

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< the table (Boost.MultiIndex, kept out of the header)
};

} // namespace ns3

#endif /* ADC_CONFIG_STORE_H */
