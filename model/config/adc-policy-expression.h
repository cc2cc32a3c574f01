/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: the NetScaler advanced ("default syntax") policy expressions that content
 * switching policies carry (`add cs policy <name> -rule <expression> -action <a>`), parsed into
 * a tree, evaluated against a request head and the client address, and printed back.
 */

#ifndef ADC_POLICY_EXPRESSION_H
#define ADC_POLICY_EXPRESSION_H

#include "ns3/adc-config-error.h"
#include "ns3/adc-flow-key.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace ns3
{

class AdcHttpMessage;

/**
 * \ingroup adc
 * \brief A policy expression that cannot be parsed: the message says where and what was
 * expected; GetColumn() gives the 1-based column (byte offset + 1) of the first bad character.
 */
class AdcPolicyExpressionError : public AdcConfigError
{
  public:
    /**
     * \param what the full message
     * \param column the 1-based column of the error
     */
    AdcPolicyExpressionError(const std::string& what, std::size_t column);

    /// \return the 1-based column of the error in the expression text
    std::size_t GetColumn() const;

  private:
    std::size_t m_column; //!< 1-based column
};

/**
 * \ingroup adc
 * \brief What a policy expression looks at: the request head, the client address and a
 * source of random draws for percentage splits.
 *
 * Random draws come from \c randomSource when it is set (called once per SYS.RANDOM that is
 * evaluated) and otherwise are the fixed \c randomDraw; either way a draw is clamped into
 * [0, 1), so evaluation is deterministic and testable.
 */
struct AdcPolicyContext
{
    /// The request head; nullptr evaluates every HTTP.REQ text as empty.
    const AdcHttpMessage* request{nullptr};
    /// The client's (source) address; CLIENT.IP.SRC tests are false unless it is IPv4.
    AdcIpAddress clientIp;
    /// The draw used when randomSource is empty, in [0, 1).
    double randomDraw{0.0};
    /// When set, called for each draw; should return a value in [0, 1).
    std::function<double()> randomSource;

    /// \return the next random draw, clamped into [0, 1)
    double DrawRandom() const;
};

/**
 * \ingroup adc
 * \brief A NetScaler advanced policy expression, the subset a CS canary needs.
 *
 * Grammar (words are case-insensitive, as on the appliance; whitespace is allowed around
 * operators, parentheses and arguments):
 * \verbatim
 *   expr    := and ( "||" and )*
 *   and     := unary ( "&&" unary )*
 *   unary   := "!" unary | "(" expr ")" | test
 *   test    := TRUE | FALSE
 *            | HTTP.REQ.URL [.PATH] textop
 *            | HTTP.REQ.HEADER("name") ( .EXISTS | textop )
 *            | HTTP.REQ.COOKIE ( .VALUE("name") textop | .EXISTS("name") | textop )
 *            | HTTP.REQ.HOSTNAME.EQ("host[:port]")
 *            | CLIENT.IP.SRC ( .EQ(a.b.c.d) | .IN_SUBNET(a.b.c.d/n) )
 *            | SYS.RANDOM [.MUL(number)] ( .LT | .LE | .GT | .GE ) (number)
 *   textop  := [.SET_TEXT_MODE(IGNORECASE | NOIGNORECASE)]
 *              ( .EQ | .NE | .STARTSWITH | .ENDSWITH | .CONTAINS ) ("string")
 * \endverbatim
 * Precedence as in NetScaler (and C): ! binds tightest, then &&, then ||; && and || are
 * left-associative and short-circuit. Strings are double-quoted; inside them \" is a quote and
 * \\ a backslash (no other escapes). Numbers are unsigned decimals (digits, optional
 * fraction). An expression is at most 1499 characters (NetScaler's limit).
 *
 * Semantics: text comparisons are case-sensitive unless SET_TEXT_MODE(IGNORECASE) precedes
 * them. URL is the request target (origin form; an absolute-form target loses its
 * scheme://authority); URL.PATH is the URL before the first '?'. HEADER("h") is the last
 * instance of header h (name case-insensitive); COOKIE is the Cookie header text (several
 * Cookie fields joined by "; "), COOKIE.VALUE("c") the value of the first cookie named c
 * (names case-sensitive, RFC 6265). A missing header, cookie or request is the empty text.
 * HOSTNAME is the authority of an absolute-form target, else the Host header; it is compared
 * case-insensitively, without the port unless the argument names one. SYS.RANDOM is a
 * draw in [0, 1), so SYS.RANDOM.MUL(100).LT(10) is true for 10% of draws.
 *
 * ToString() prints the canonical form: upper-case words, lower-case true/false, no
 * SET_TEXT_MODE(NOIGNORECASE) (the default), no whitespace outside strings (so the canonical
 * text is never longer than any text it was parsed from and stays within the length limit),
 * parentheses only where the tree needs them. Parse(ToString()) gives an equal expression.
 */
class AdcPolicyExpression
{
  public:
    struct Node; //!< a node of the expression tree (defined in the .cc)

    static constexpr std::size_t kMaxLength = 1499; //!< NetScaler's expression length limit
    static constexpr std::size_t kMaxDepth = 64;    //!< nesting limit of (, ! (no deep recursion)

    /// The expression "true" (matches every request).
    AdcPolicyExpression();

    /**
     * \brief Parse an expression.
     * \param text the expression, e.g. HTTP.REQ.URL.STARTSWITH("/v2") && SYS.RANDOM.MUL(100).LT(10)
     * \return the expression
     * \throw AdcPolicyExpressionError (an AdcConfigError) naming the expression, the 1-based
     *        column and what is allowed there
     */
    static AdcPolicyExpression Parse(const std::string& text);

    /**
     * \param context the request, client address and random draws
     * \return whether the expression holds
     */
    bool Evaluate(const AdcPolicyContext& context) const;

    /// \return the canonical text, which parses back to an equal expression
    std::string ToString() const;

    /**
     * \param other another expression
     * \return true when both trees are the same (same tests, arguments and structure)
     */
    bool operator==(const AdcPolicyExpression& other) const;
    /// \param other another expression \return !(*this == other)
    bool operator!=(const AdcPolicyExpression& other) const;

  private:
    /// \param root the tree
    explicit AdcPolicyExpression(std::shared_ptr<const Node> root);

    std::shared_ptr<const Node> m_root; //!< the tree (immutable, shared by copies)
};

} // namespace ns3

#endif /* ADC_POLICY_EXPRESSION_H */
