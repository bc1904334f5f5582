# Part of Benchmarks/shape/shape.sh (see there).
# Summarizes a recording: the source files of this package a path enters, the calls between
# files, and the calls into a file the path had entered before.
import json, re, sys, os
records = json.load(open(sys.argv[1]))
root = sys.argv[2].rstrip("/") + "/"
probe = sys.argv[3] if len(sys.argv) > 3 else "ShapeProbe.swift"
def short(f): return f[len(root):] if f and f.startswith(root) else None
# Value operations the compiler outlines or generates (copy, destroy, value witnesses) carry the
# location of some use, not a call the source makes: left out.
generated = re.compile(r"(WO[a-z]|w[a-z]{2}|Wl)$")
visited, order, calls, back, edges, back_edges = set(), [], 0, 0, set(), set()
for callee, callee_file, caller, caller_file in records:
    callee_file, caller_file = short(callee_file), short(caller_file)
    if callee_file is None or generated.search(callee or "") or callee_file.endswith(probe) or callee_file == caller_file:
        continue
    calls += 1
    edge = (caller, callee)
    if callee_file in visited:
        back += 1
        back_edges.add(edge)
    else:
        visited.add(callee_file)
        order.append(callee_file)
    edges.add(edge)
print(f"files entered: {len(visited)} (folders: {len({f.rsplit('/', 1)[0] for f in visited})})")
print(f"calls between files: {calls} ({len(edges)} distinct caller → callee pairs)")
print(f"calls into a file entered before: {back} ({len(back_edges)} distinct)")
print(f"functions of this package called: {sum(1 for r in records if short(r[1]) and not generated.search(r[0] or ''))}")
if "-v" in sys.argv:
    print("files, in the order first entered:")
    for f in order: print("  " + f)
