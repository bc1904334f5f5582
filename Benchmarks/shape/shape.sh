#!/usr/bin/env bash
# Counts the source files of this package a point write and a cold nested resolve enter, the
# calls between files and the calls into a file entered before (issue 40's shape figures):
# every call into a function of Relata's modules made on the measured function's thread while it
# runs, recorded by gdb (a breakpoint on each function; the debug build, so nothing is inlined).
#
#   bash Benchmarks/shape/shape.sh [write|resolve] [-v]
#
# Needs gdb. The probes make their own small store (see `ShapeProbe`). About a minute each.
set -euo pipefail
cd "$(dirname "$0")/../.."
which="${1:-write}"
swift build --product relata-bench > /dev/null
binary=.build/debug/relata-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm "$binary" | awk '$2 ~ /^[tT]$/ && $3 ~ /^\$s(10RelataCore|12RelataSQLite|14RelataPostgres|6Relata|11RelataBench10ShapeProbe)/ {print $1, $3}' > "$work/symbols"
case "$which" in
    write) probe=shape-write; function=$(awk '/ShapeProbeO18measuredPointWrite/ && !/XEfU/ {print $2; exit}' "$work/symbols") ;;
    resolve) probe=shape-resolve; function=$(awk '/ShapeProbeO19measuredColdResolve/ && !/XEfU/ {print $2; exit}' "$work/symbols") ;;
    *) echo "usage: $0 [write|resolve] [-v]" >&2; exit 2 ;;
esac
SHAPE_OUT="$work/calls.json" SHAPE_FUNCTION="$function" SHAPE_SYMBOLS="$work/symbols" \
    gdb -q -batch -x Benchmarks/shape/record.py --args "$binary" --probe "$probe" --path "$work/store.sqlite" > "$work/gdb.log" 2>&1
python3 Benchmarks/shape/summary.py "$work/calls.json" "$PWD/Sources" ShapeProbe.swift "${2:-}"
