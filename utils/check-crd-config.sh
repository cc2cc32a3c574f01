#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The CRD topology's shipped ns.conf files (examples/crd-upper-*.ns.conf, crd-lower-*.ns.conf):
#   print  CRD-COMPARE EXAMPLES WORK: the files the C++ configuration prints (crd-compare
#          --printConfig) are the shipped files, byte for byte, and no more or fewer;
#   run    CRD-COMPARE EXAMPLES WORK [OPTIONS...]: a run configured from the shipped files gives
#          the same per-request results and summary as the C++-configured run.
set -eu
mode=$1
bin=$2
examples=$3
work=$4
shift 4
variant=two-tier-ROUNDROBIN # the variant the shipped files are printed from
rm -rf "$work"
mkdir -p "$work"
case $mode in
print)
    "$bin" --variants=$variant --accessNets=1 --clientsPerNet=1 --printConfig="$work/printed"
    printed=$(ls "$work/printed" | wc -l)
    shipped=$(ls "$examples"/crd-upper-*.ns.conf "$examples"/crd-lower-*.ns.conf | wc -l)
    if [ "$printed" -ne "$shipped" ] || [ "$printed" -eq 0 ]; then
        echo "printed $printed files, $shipped shipped" >&2
        exit 1
    fi
    for f in "$work"/printed/*; do
        cmp "$f" "$examples/$(basename "$f")" || exit 1
    done
    echo "the $printed shipped files are what the C++ configuration prints"
    ;;
run)
    "$bin" --variants=$variant --pcap=false --outputDir="$work/cpp" "$@"
    "$bin" --variants=$variant --pcap=false --outputDir="$work/files" --configDir="$examples" "$@"
    for f in requests-$variant.csv summary.csv load-$variant.csv; do
        cmp "$work/cpp/$f" "$work/files/$f" || exit 1
    done
    rows=$(($(wc -l < "$work/files/requests-$variant.csv") - 1))
    if [ "$rows" -lt 1 ]; then
        echo "no request in the run" >&2
        exit 1
    fi
    echo "$rows requests: identical results from the shipped files and from C++"
    ;;
*)
    echo "usage: $0 print|run CRD-COMPARE EXAMPLES WORK [OPTIONS...]" >&2
    exit 2
    ;;
esac
