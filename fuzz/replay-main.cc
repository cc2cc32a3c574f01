/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Replays fuzz inputs through a fuzz target without libFuzzer, so that gcc builds (and every
 * `./adc test`, under ASan and UBSan in the sanitize profile) run the seed corpus and the
 * regression inputs of each target.
 *
 * Usage: adc-fuzz-replay-NAME PATH...   (each PATH a folder, whose regular files are replayed
 * in name order, or a file). Fails when a PATH is missing or a folder holds no file; a
 * violated property aborts inside the target.
 */

#include "adc-fuzz.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace
{

/**
 * \param path a file
 * \param[out] bytes its content
 * \return true when it could be read
 */
bool
ReadFile(const fs::path& path, std::vector<uint8_t>& bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return false;
    }
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

/**
 * \param path a file to run through the target
 * \return true when it was read
 */
bool
RunOne(const fs::path& path)
{
    std::vector<uint8_t> bytes;
    if (!ReadFile(path, bytes))
    {
        std::cerr << "replay: cannot read " << path << "\n";
        return false;
    }
    // A heap block of exactly the input's size, as libFuzzer passes, so that ASan sees any
    // read past its end (a vector's capacity may be larger than its size).
    std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size() + (bytes.empty() ? 1 : 0)]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    LLVMFuzzerTestOneInput(exact.get(), bytes.size());
    return true;
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc < 2)
    {
        std::cerr << "usage: " << argv[0] << " FOLDER-OR-FILE...\n";
        return 2;
    }
    std::size_t total = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i)
    {
        const fs::path path(argv[i]);
        std::error_code ec;
        if (fs::is_regular_file(path, ec))
        {
            ok = RunOne(path) && ok;
            ++total;
            continue;
        }
        if (!fs::is_directory(path, ec))
        {
            std::cerr << "replay: " << path << " is missing\n";
            ok = false;
            continue;
        }
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(path, ec))
        {
            if (entry.is_regular_file())
            {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        if (files.empty())
        {
            std::cerr << "replay: " << path << " holds no input\n";
            ok = false;
            continue;
        }
        for (const auto& f : files)
        {
            ok = RunOne(f) && ok;
        }
        std::cout << "replay: " << files.size() << " inputs from " << path.string() << "\n";
        total += files.size();
    }
    std::cout << "replay: ran " << total << " inputs" << (ok ? "" : " (with errors)") << "\n";
    return ok ? 0 : 1;
}
