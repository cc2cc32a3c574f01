/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc fuzz targets: what every target shares.
 */

#ifndef ADC_FUZZ_H
#define ADC_FUZZ_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

/**
 * \ingroup adc
 * \brief Check a property of a fuzz target; a violation aborts.
 *
 * libFuzzer reports an abort as a crash and keeps the input; the gcc replay runner
 * (replay-main.cc) fails. Unlike assert() it stays on under -DNDEBUG (the optimized profile).
 */
#define ADC_FUZZ_CHECK(cond)                                                                       \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            ns3::AdcFuzzFail(__FILE__, __LINE__, #cond);                                           \
        }                                                                                          \
    } while (false)

namespace ns3
{

/**
 * \brief Print the violated property and abort.
 * \param file source file
 * \param line source line
 * \param what the property's text
 */
[[noreturn]] inline void
AdcFuzzFail(const char* file, int line, const char* what)
{
    std::fprintf(stderr, "%s:%d: fuzz property violated: %s\n", file, line, what);
    std::fflush(stderr);
    std::abort();
}

/**
 * \param data fuzzer bytes
 * \param size their number
 * \return the bytes as a string (may hold NUL and any other byte)
 */
inline std::string
AdcFuzzString(const uint8_t* data, std::size_t size)
{
    return size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

/**
 * \brief Feed a stream parser \p data in pieces: whole when \p seed is 0, else in pieces whose
 * sizes a cheap deterministic generator seeded by \p seed draws (mostly 0..7 bytes, sometimes
 * up to 299), so that every split point of a framer is reached.
 * \param data the stream \param size its length \param seed 0 or the generator's seed
 * \param feed called with each piece, in order (pieces may be empty)
 */
template <typename Feed>
void
AdcFuzzFeedInPieces(const uint8_t* data, std::size_t size, uint32_t seed, Feed&& feed)
{
    std::size_t at = 0;
    uint32_t x = seed;
    do
    {
        std::size_t n = size - at;
        if (seed != 0)
        {
            x = x * 1664525U + 1013904223U; // LCG: cheap and deterministic
            const uint32_t r = x >> 16;
            n = std::min<std::size_t>(n, (r % 4 == 0) ? (r >> 2) % 300 : (r >> 2) % 8);
        }
        feed(data + at, n);
        at += n;
    } while (at < size);
}

} // namespace ns3

/// The entry point every target defines (libFuzzer's, also called by replay-main.cc).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

#endif /* ADC_FUZZ_H */
