/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the experiment scaffold's checks of ns-3's own command-line arguments
 * (`--ns3::Type::Attribute=value`, global values such as `--RngRun`), made before ns-3 sees
 * them, because ns-3 aborts on some malformed values. Internal to adc-experiment.cc.
 */

#ifndef ADC_EXPERIMENT_NS3_H
#define ADC_EXPERIMENT_NS3_H

#include <string>

namespace ns3
{
namespace adcexperiment
{

/// \param text text \param v set to its value \return whether \p text is a whole number
bool ParseWhole(const std::string& text, long double* v);

/**
 * \brief Check a `--ns3::Type::Attribute=value` argument.
 * \param name "ns3::Type::Attribute" \param value the value \param who the message's start
 * \throws AdcConfigError for an unknown type or attribute, or a value ns-3 refuses
 */
void CheckAttributeArgument(const std::string& name,
                            const std::string& value,
                            const std::string& who);

/**
 * \brief Check an ns-3 global value argument (`--RngRun=2`).
 * \param name its name \param value the value \param who the message's start
 * \throws AdcConfigError for an unknown name or a value ns-3 refuses or would abort on later
 */
void CheckGlobalArgument(const std::string& name, const std::string& value, const std::string& who);

} // namespace adcexperiment
} // namespace ns3

#endif /* ADC_EXPERIMENT_NS3_H */
