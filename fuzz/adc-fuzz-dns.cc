/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "dns": AdcDnsMessage::Parse (RFC 1035 messages) of any bytes, and the TCP
 * framer (AdcDnsTcpFramer) fed the same bytes whole and in two pieces.
 *
 * Parsing never crashes and reports a failure only as a result with a reason naming a byte
 * offset; a message that parses serializes (names compressed, RDATA names expanded) to bytes
 * that parse back to an equal message, whose serialization is byte-identical (a fixed
 * point), unless expansion makes it exceed 65535 bytes (AdcConfigError saying so); every
 * name parsed reads back through AdcDnsName to the same labels; the truncated UDP form of
 * the message parses, keeps the ID and question and is at most 512 bytes. The framer's
 * messages never depend on the split.
 */

// REQ: GSLB-02 (ADNS answers are real DNS), GSLB-06 (DNS replies to probes are parsed)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"

#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string error;
    const auto m = AdcDnsMessage::Parse(data, size, &error);
    ADC_FUZZ_CHECK(m.has_value() == error.empty());
    if (!m)
    {
        ADC_FUZZ_CHECK(error.rfind("AdcDnsMessage: byte ", 0) == 0);
    }
    else
    {
        for (const auto& q : m->questions)
        {
            ADC_FUZZ_CHECK(AdcDnsName::Canonical(q.name) == q.name);
            ADC_FUZZ_CHECK(AdcDnsName::Equal(q.name, q.name));
        }
        std::vector<uint8_t> wire;
        try
        {
            wire = m->Serialize();
        }
        catch (const AdcConfigError& e)
        {
            ADC_FUZZ_CHECK(std::string(e.what()).find("65535") != std::string::npos);
            return 0;
        }
        std::string again;
        const auto back = AdcDnsMessage::Parse(wire, &again);
        ADC_FUZZ_CHECK(back.has_value());
        ADC_FUZZ_CHECK(*back == *m);
        ADC_FUZZ_CHECK(back->Serialize() == wire);
        try
        {
            const auto udp = m->SerializeTruncated();
            ADC_FUZZ_CHECK(udp.size() <= AdcDnsMessage::kMaxUdpBytes);
            const auto t = AdcDnsMessage::Parse(udp);
            ADC_FUZZ_CHECK(t && t->id == m->id && t->questions == m->questions);
            ADC_FUZZ_CHECK(t->answers.size() <= m->answers.size());
            ADC_FUZZ_CHECK(udp == wire || t->tc || t->additional.size() < m->additional.size());
        }
        catch (const AdcConfigError& e)
        {
            ADC_FUZZ_CHECK(std::string(e.what()).find("header and question") != std::string::npos);
        }
    }

    // TCP framing: the same messages whether the stream arrives whole or in two pieces.
    AdcDnsTcpFramer whole;
    const auto all = whole.Feed(data, size);
    const std::size_t cut = size == 0 ? 0 : data[0] % (size + 1);
    AdcDnsTcpFramer split;
    auto parts = split.Feed(data, cut);
    const auto rest = split.Feed(data + cut, size - cut);
    parts.insert(parts.end(), rest.begin(), rest.end());
    ADC_FUZZ_CHECK(parts == all);
    ADC_FUZZ_CHECK(whole.HasError() == split.HasError());
    ADC_FUZZ_CHECK(whole.HasPartial() == split.HasPartial());
    std::size_t framed = 0;
    for (const auto& f : all)
    {
        ADC_FUZZ_CHECK(f.size() >= AdcDnsMessage::kHeaderBytes);
        ADC_FUZZ_CHECK(AdcDnsTcpFrame(f).size() == f.size() + 2);
        framed += f.size() + 2;
    }
    ADC_FUZZ_CHECK(framed <= size);
    return 0;
}
