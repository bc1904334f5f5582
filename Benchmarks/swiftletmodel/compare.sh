#!/usr/bin/env bash
# Runs SwiftletModel's own performance tests on SwiftletModel itself and on Relata, one after
# the other, and prints each test's median on both sides (issue 41's target: Relata no slower).
#
#   bash Benchmarks/swiftletmodel/compare.sh [runs]
#
# SwiftletModel (commit a24c84e) and attaswift/BTree, its dependency, are read from
# $SWIFTLETMODEL_DIR and $BTREE_DIR (clones of their repositories), else cloned from GitHub into
# a scratch folder outside this repository ($SCRATCH, default /tmp/relata-swiftletmodel). BTree
# is pointed at by path and its `BridgedList.swift` (NSArray bridging, which Linux lacks)
# compiled out. Both test bundles are built in debug, as `swift test` runs XCTest's `measure`.
# Needs a few minutes for SwiftletModel's first build.
set -euo pipefail
cd "$(dirname "$0")/../.."
relata=$PWD
runs="${1:-3}"
scratch="${SCRATCH:-/tmp/relata-swiftletmodel}"
mkdir -p "$scratch"
if [ ! -d "$scratch/SwiftletModel" ]; then
  git clone -q "${SWIFTLETMODEL_DIR:-https://github.com/KazaiMazai/SwiftletModel}" "$scratch/SwiftletModel"
  git -C "$scratch/SwiftletModel" checkout -q a24c84e
  sed -i 's|.package(url: "https://github.com/attaswift/BTree", from: "4.0.0")|.package(path: "../BTree")|' "$scratch/SwiftletModel/Package.swift"
fi
if [ ! -d "$scratch/BTree" ]; then
  git clone -q "${BTREE_DIR:-https://github.com/attaswift/BTree}" "$scratch/BTree"
  bridged="$scratch/BTree/Sources/BridgedList.swift"
  { echo '#if canImport(ObjectiveC)'; cat "$bridged"; echo '#endif'; } > "$bridged.new" && mv "$bridged.new" "$bridged"
fi
(cd "$scratch/SwiftletModel" && swift build --build-tests > "$scratch/build.log" 2>&1) || { tail -20 "$scratch/build.log"; exit 1; }
swift build --build-tests > "$scratch/relata-build.log" 2>&1 || { tail -20 "$scratch/relata-build.log"; exit 1; }

swiftletmodel_tests="$scratch/SwiftletModel/.build/debug/SwiftletModelPackageTests.xctest"
relata_tests="$relata/.build/debug/RelataPackageTests.xctest"
results="$scratch/results.txt"
: > "$results"
for run in $(seq "$runs"); do
  for class in FilterPerformanceTests SortIndexPerformanceTests FullTextIndexPerformanceTests; do
    for side in SwiftletModel Relata; do
      tests=$swiftletmodel_tests
      [ "$side" = Relata ] && tests=$relata_tests
      # A line per test: side, class, test, its ten measured values. (XCTest fails a test whose
      # times spread more than 10% and 0.1 s: SwiftletModel's slower saves on a busy machine.)
      { "$tests" "SwiftletModelTests.$class" 2>&1 || true; } | grep -a "measured \[Time, seconds\]" \
        | sed -E "s/.*'[A-Za-z]+\.([A-Za-z_]+)' measured .* values: \[([^]]*)\].*/$side $class \1 \2/" >> "$results" || true
    done
  done
done
python3 Benchmarks/swiftletmodel/summary.py "$results"
