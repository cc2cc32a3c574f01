/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The expression tree of AdcPolicyExpression and the text utilities its parser
 * (adc-policy-expression-parser.cc) and its evaluator and printer (adc-policy-expression.cc)
 * share. Internal to the module's configuration front-end.
 */

#ifndef ADC_POLICY_EXPRESSION_NODE_H
#define ADC_POLICY_EXPRESSION_NODE_H

#include "adc-policy-expression.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// A node of the expression tree.
struct AdcPolicyExpression::Node
{
    /// What the node is.
    enum class Kind
    {
        CONST,         //!< true or false
        NOT,           //!< ! left
        AND,           //!< left && right
        OR,            //!< left || right
        TEXT,          //!< a text operation on a text source
        HEADER_EXISTS, //!< HTTP.REQ.HEADER(name).EXISTS
        COOKIE_EXISTS, //!< HTTP.REQ.COOKIE.EXISTS(name)
        HOSTNAME_EQ,   //!< HTTP.REQ.HOSTNAME.EQ(arg)
        IP_EQ,         //!< CLIENT.IP.SRC.EQ(addr)
        IP_IN_SUBNET,  //!< CLIENT.IP.SRC.IN_SUBNET(addr/prefix)
        RANDOM_CMP     //!< SYS.RANDOM[.MUL(mul)].cmp(rhs)
    };

    /// The text a TEXT node looks at.
    enum class Source
    {
        URL,         //!< HTTP.REQ.URL
        URL_PATH,    //!< HTTP.REQ.URL.PATH
        HEADER,      //!< HTTP.REQ.HEADER(name)
        COOKIE,      //!< HTTP.REQ.COOKIE
        COOKIE_VALUE //!< HTTP.REQ.COOKIE.VALUE(name)
    };

    /// A text operation.
    enum class TextOp
    {
        EQ,         //!< equal
        NE,         //!< not equal
        STARTSWITH, //!< prefix
        ENDSWITH,   //!< suffix
        CONTAINS    //!< substring
    };

    /// A number comparison.
    enum class Cmp
    {
        LT, //!< <
        LE, //!< <=
        GT, //!< >
        GE  //!< >=
    };

    Kind kind{Kind::CONST};            //!< the kind
    bool value{true};                  //!< CONST: the value
    std::shared_ptr<const Node> left;  //!< NOT, AND, OR: first operand
    std::shared_ptr<const Node> right; //!< AND, OR: second operand
    Source source{Source::URL};        //!< TEXT: the source
    std::string name;                  //!< header or cookie name
    bool ignoreCase{false};            //!< TEXT: SET_TEXT_MODE(IGNORECASE)
    TextOp textOp{TextOp::EQ};         //!< TEXT: the operation
    std::string arg;                   //!< TEXT, HOSTNAME_EQ: the string argument
    uint32_t addr{0};                  //!< IP_EQ, IP_IN_SUBNET: the address (host order)
    uint8_t prefix{32};                //!< IP_IN_SUBNET: the prefix length
    std::string mul;                   //!< RANDOM_CMP: MUL's number (canonical), or empty
    double mulValue{1.0};              //!< RANDOM_CMP: MUL's value
    Cmp cmp{Cmp::LT};                  //!< RANDOM_CMP: the comparison
    std::string rhs;                   //!< RANDOM_CMP: the compared number (canonical)
    double rhsValue{0.0};              //!< RANDOM_CMP: its value
};

namespace adcexpr
{

/// \param s a text \return \p s with ASCII letters upper-cased
std::string Upper(std::string s);
/// \param s a text \return true when \p s is an HTTP token (RFC 9110 tchar+)
bool IsToken(const std::string& s);
/// \param a a host-order IPv4 address \return its dotted-quad text
std::string Ipv4Text(uint32_t a);
/// \param prefix a prefix length (0..32) \return its network mask, host order
uint32_t MaskOf(uint8_t prefix);

/// A host and optional port, as written in a Host header or a HOSTNAME argument.
struct HostPort
{
    std::string host; //!< the host (an IPv6 literal keeps its brackets)
    std::string port; //!< the port digits, or empty
};

/// \param s "host[:port]" or "[v6][:port]" (lenient: used on request data) \return its parts
HostPort SplitHostPort(const std::string& s);

} // namespace adcexpr
} // namespace ns3

#endif /* ADC_POLICY_EXPRESSION_NODE_H */
