#!/usr/bin/env python3
"""Finds circles of files inside a directory of src/: file A calls a function or reads data
defined in file B of the same directory, and B, directly or through others there, calls back
into A. A family of files calls downward only: the helpers its files share live in a file at
its bottom (docs/architecture.md, "Files by responsibility"). Reads the symbols of the built
objects (nm), so it sees calls, not includes. Prints each circle with the calls that make it;
exits 1 if there is any, 2 when there are no objects to read.
usage: check-circles.py [BUILD]   (default: build; the objects are BUILD/obj/src/*/*.o)"""
import collections
import glob
import os
import subprocess
import sys

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
objs = sorted(glob.glob(os.path.join(build, 'obj', 'src', '*', '*.o')))
if not objs:
    print(f'check-circles: no objects under {build}/obj/src: build first', file=sys.stderr)
    sys.exit(2)
out = subprocess.run(['nm', '-A'] + objs, capture_output=True, text=True, check=True).stdout
prefix = os.path.join(build, 'obj') + os.sep
defs, uses = {}, collections.defaultdict(set)
for line in out.splitlines():
    name, _, rest = line.partition(':')
    src = name[len(prefix):-2] + '.c'
    parts = rest.split()
    if len(parts) == 3 and parts[1] in 'TDRBC':
        defs[parts[2]] = src
    elif len(parts) == 2 and parts[0] == 'U':
        uses[src].add(parts[1])
edges = collections.defaultdict(dict)
for f, syms in uses.items():
    for s in syms:
        g = defs.get(s)
        if g and g != f and os.path.dirname(g) == os.path.dirname(f):
            edges[f].setdefault(g, []).append(s)

# Tarjan's strongly connected components, iteratively.
index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
for root in sorted(edges):
    if root in index:
        continue
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = counter[0]; counter[0] += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = counter[0]; counter[0] += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges.get(w, {})))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))
for comp in comps:
    print('circle: ' + ' '.join(comp))
    for f in comp:
        for g in sorted(edges[f]):
            if g in comp:
                print(f'  {f} -> {g}: {", ".join(sorted(edges[f][g]))}')
sys.exit(1 if comps else 0)
