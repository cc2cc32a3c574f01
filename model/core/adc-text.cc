/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-text.h"

#include <cstdio>

namespace ns3
{

std::string
AdcText::ToUpper(std::string s)
{
    for (char& c : s)
    {
        if (c >= 'a' && c <= 'z')
        {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    return s;
}

std::string
AdcText::ToLower(std::string s)
{
    for (char& c : s)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return s;
}

std::string
AdcText::Trim(const std::string& s)
{
    const char* space = " \t\r\n";
    const std::size_t first = s.find_first_not_of(space);
    if (first == std::string::npos)
    {
        return "";
    }
    return s.substr(first, s.find_last_not_of(space) - first + 1);
}

bool
AdcText::EqualsNoCase(const std::string& a, const std::string& b)
{
    return a.size() == b.size() && ToUpper(a) == ToUpper(b);
}

bool
AdcText::Equals(const std::string& a, const std::string& b, Case rule)
{
    return rule == EXACT ? a == b : EqualsNoCase(a, b);
}

int
AdcText::Find(const std::string& word, const std::vector<std::string>& list, Case rule)
{
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        if (Equals(word, list[i], rule))
        {
            return static_cast<int>(i);
        }
    }
    return -1;
}

std::size_t
AdcText::FindControl(const std::string& s)
{
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        const auto c = static_cast<uint8_t>(s[i]);
        if (c < 0x20 || c == 0x7f)
        {
            return i;
        }
    }
    return std::string::npos;
}

std::string
AdcText::ShowByte(unsigned char c)
{
    if (c >= 0x20 && c < 0x7F)
    {
        return std::string("'") + static_cast<char>(c) + "'";
    }
    char buf[8];
    std::snprintf(buf, sizeof(buf), "0x%02x", c);
    return buf;
}

std::string
AdcText::Escape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char ch : text)
    {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7F)
        {
            out += ch;
            continue;
        }
        switch (c)
        {
        case 0x00:
            out += "\\0";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        default: {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", c);
            out += buf;
        }
        }
    }
    return out;
}

std::string
AdcText::Printable(const std::string& text, std::size_t max)
{
    if (text.size() <= max)
    {
        return Escape(text);
    }
    return Escape(text.substr(0, max)) + "...(" + std::to_string(text.size()) + " bytes)";
}

} // namespace ns3
