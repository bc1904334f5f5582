# Part of Benchmarks/swiftletmodel/compare.sh (see there): per test, the median over runs of
# each run's median on SwiftletModel and on Relata, their ratio, and in how many runs Relata was
# as fast or faster.
import collections, statistics, sys

runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, test_class, test, values = line.split(" ", 3)
    runs[(test_class, test, side)].append(statistics.median(float(v) for v in values.split(",")))

slower = 0
for test_class, test in sorted({(c, t) for c, t, _ in runs}):
    swiftletmodel, relata = runs[(test_class, test, "SwiftletModel")], runs[(test_class, test, "Relata")]
    if not swiftletmodel or not relata:
        continue
    s, r = statistics.median(swiftletmodel), statistics.median(relata)
    as_fast = sum(1 for a, b in zip(relata, swiftletmodel) if a <= b)
    if as_fast * 2 < min(len(relata), len(swiftletmodel)):
        slower += 1
    print(f"{test_class:31} {test:54} SwiftletModel {s * 1000:9.3f} ms  Relata {r * 1000:9.3f} ms  {r / s:5.2f}x"
          f"  (Relata as fast in {as_fast} of {min(len(relata), len(swiftletmodel))} runs)")
print(f"slower in most runs: {slower} test(s)")
