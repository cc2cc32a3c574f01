/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-config-store.h"

#include <boost/multi_index/composite_key.hpp>
#include <boost/multi_index/hashed_index.hpp>
#include <boost/multi_index/member.hpp>
#include <boost/multi_index/sequenced_index.hpp>
#include <boost/multi_index_container.hpp>
#include <boost/tuple/tuple.hpp>
#include <map>
#include <tuple>

namespace ns3
{

namespace
{

/// One object of the store.
struct Entry
{
    std::string kind;       //!< its kind
    std::string name;       //!< its name
    Ptr<Object> object;     //!< the object
    AdcConfigOrigin origin; //!< the command that added it
};

namespace mi = boost::multi_index;

/// Definition order (what Show prints in) and a unique (kind, name) key (what lookups use).
using Table = mi::multi_index_container<
    Entry,
    mi::indexed_by<
        mi::sequenced<>,
        mi::hashed_unique<mi::composite_key<Entry,
                                            mi::member<Entry, std::string, &Entry::kind>,
                                            mi::member<Entry, std::string, &Entry::name>>>>>;

} // namespace

/// The store's table.
struct AdcConfigStore::Impl
{
    Table table;             //!< every object
    AdcConfigOrigin current; //!< the command now running
    /// (kind, name, aspect) -> where it was last set
    std::map<std::tuple<std::string, std::string, std::string>, AdcConfigOrigin> aspects;

    /// Forget the aspects of (kind, name).
    void Forget(const std::string& kind, const std::string& name)
    {
        auto it = aspects.lower_bound({kind, name, ""});
        while (it != aspects.end() && std::get<0>(it->first) == kind &&
               std::get<1>(it->first) == name)
        {
            it = aspects.erase(it);
        }
    }
};

AdcConfigStore::AdcConfigStore()
    : m_impl(std::make_unique<Impl>())
{
}

AdcConfigStore::~AdcConfigStore()
{
    Clear();
}

bool
AdcConfigStore::Add(const std::string& kind, const std::string& name, Ptr<Object> object)
{
    return m_impl->table.push_back(Entry{kind, name, object, m_impl->current}).second;
}

Ptr<Object>
AdcConfigStore::Find(const std::string& kind, const std::string& name) const
{
    const auto& byKey = m_impl->table.get<1>();
    const auto it = byKey.find(boost::make_tuple(kind, name));
    return it == byKey.end() ? nullptr : it->object;
}

bool
AdcConfigStore::Remove(const std::string& kind, const std::string& name)
{
    auto& byKey = m_impl->table.get<1>();
    const auto it = byKey.find(boost::make_tuple(kind, name));
    if (it == byKey.end())
    {
        return false;
    }
    const Ptr<Object> object = it->object;
    byKey.erase(it);
    m_impl->Forget(kind, name);
    object->Dispose();
    return true;
}

std::vector<std::string>
AdcConfigStore::GetNames(const std::string& kind) const
{
    std::vector<std::string> names;
    for (const Entry& e : m_impl->table)
    {
        if (e.kind == kind)
        {
            names.push_back(e.name);
        }
    }
    return names;
}

std::size_t
AdcConfigStore::GetSize() const
{
    return m_impl->table.size();
}

void
AdcConfigStore::Clear()
{
    // Dispose first: objects refer to each other (bindings, backups) and must let go.
    for (const Entry& e : m_impl->table)
    {
        e.object->Dispose();
    }
    m_impl->table.clear();
    m_impl->aspects.clear();
}

void
AdcConfigStore::SetCurrentOrigin(const AdcConfigOrigin& origin)
{
    m_impl->current = origin;
}

const AdcConfigOrigin&
AdcConfigStore::GetCurrentOrigin() const
{
    return m_impl->current;
}

AdcConfigOrigin
AdcConfigStore::GetOrigin(const std::string& kind, const std::string& name) const
{
    const auto& byKey = m_impl->table.get<1>();
    const auto it = byKey.find(boost::make_tuple(kind, name));
    return it == byKey.end() ? AdcConfigOrigin{} : it->origin;
}

void
AdcConfigStore::SetOrigin(const std::string& kind,
                          const std::string& name,
                          const std::string& aspect,
                          const AdcConfigOrigin& origin)
{
    m_impl->aspects[{kind, name, aspect}] = origin;
}

AdcConfigOrigin
AdcConfigStore::GetOrigin(const std::string& kind,
                          const std::string& name,
                          const std::string& aspect) const
{
    const auto it = m_impl->aspects.find({kind, name, aspect});
    return it != m_impl->aspects.end() ? it->second : GetOrigin(kind, name);
}

} // namespace ns3
