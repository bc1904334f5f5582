#!/bin/bash
# Rebuilds relata-bench in release after library changes without rebuilding the dependencies:
# drops only the objects of this project's own modules (SwiftPM sometimes keeps stale objects
# that inlined an older version of RelataCore).
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in .build/release .build/x86_64-unknown-linux-gnu/release .build/aarch64-unknown-linux-gnu/release; do
  [ -d "$dir" ] || continue
  rm -rf "$dir"/{RelataCore,RelataSQLite,RelataPostgres,Relata,ChatExample,RelataDemo,RelataBench,RelataWorker}.build "$dir"/Modules/{RelataCore,RelataSQLite,RelataPostgres,Relata,ChatExample}.swiftmodule
done
rm -f .build/release.yaml
swift build -c release --product relata-bench
