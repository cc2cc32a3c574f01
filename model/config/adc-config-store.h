/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: the objects a configuration defines, by kind and name.
 */

#ifndef ADC_CONFIG_STORE_H
#define ADC_CONFIG_STORE_H

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

    /// Dispose and forget every object.
    void Clear();

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< the table (Boost.MultiIndex, kept out of the header)
};

} // namespace ns3

#endif /* ADC_CONFIG_STORE_H */
