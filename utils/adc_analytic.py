# SPDX-License-Identifier: GPL-2.0-only
"""Analytic models the checks and the validation compare the simulator with."""
import math


def che(probabilities, k):
    """LRU hit ratio of a cache of k objects by Che's approximation (Che, Tung and Wang, IEEE
    JSAC 20(7), 2002; Fricker, Robert and Roberts, ITC 2012), under independent requests with
    the given probabilities (summing to 1): the characteristic time T solves
    sum_i (1 - exp(-p_i T)) = k, and the hit ratio is sum_i p_i (1 - exp(-p_i T))."""
    if len(probabilities) <= k:
        return 1.0
    lo, hi = 0.0, 1e12
    for _ in range(200):
        t = (lo + hi) / 2
        if sum(1 - math.exp(-p * t) for p in probabilities) < k:
            lo = t
        else:
            hi = t
    return sum(p * (1 - math.exp(-p * lo)) for p in probabilities)


def zipf(n, s):
    """The probabilities of ranks 1..n under Zipf's law with exponent s."""
    w = [i ** -s for i in range(1, n + 1)]
    total = sum(w)
    return [x / total for x in w]


def partitioned_lru(p, k, caches):
    """(one LRU over the whole catalogue, C LRUs over a rank-interleaved C-way partition): the
    hit ratios of round robin and of a hash-partitioned cache tier, each cache holding k."""
    parts = [[p[i] for i in range(len(p)) if i % caches == c] for c in range(caches)]
    return che(p, k), sum(sum(part) * che([q / sum(part) for q in part], k) for part in parts)
