/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-config-error.h"

#include "adc-text.h"

#include <sstream>

namespace ns3
{

bool
AdcConfigOrigin::IsKnown() const
{
    return !file.empty();
}

std::string
AdcConfigOrigin::ToString() const
{
    if (!IsKnown())
    {
        return "";
    }
    return AdcText::Escape(file) + (line > 0 ? ":" + std::to_string(line) : "");
}

std::string
AdcConfigError::JoinAllowed(const std::vector<std::string>& allowed)
{
    std::ostringstream os;
    for (std::size_t i = 0; i < allowed.size(); ++i)
    {
        os << (i == 0 ? "" : ", ") << allowed[i];
    }
    return os.str();
}

std::vector<std::string>
AdcConfigError::SplitList(const std::string& text, char separator)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream is(text);
    while (std::getline(is, item, separator))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

AdcConfigError
AdcConfigError::NotOneOf(const std::string& owner,
                         const std::string& setting,
                         const std::string& value,
                         const std::vector<std::string>& allowed)
{
    return AdcConfigError(owner + ": " + setting + " '" + AdcText::Printable(value) +
                          "' is not one of " + JoinAllowed(allowed));
}

} // namespace ns3
