#!/usr/bin/env python3
"""analysis/trace_bound.py - how small can an ESF trace get?  An estimate.

Usage: analysis/trace_bound.py TRACE.trace [...]   (ESF text: 0xADDR R|W DELAY)

Prints, per trace, the size of `gzip -9` of the text and the size an
arithmetic coder would reach with adaptive models richer than any .cxt
block uses: per record the cheaper of
  near  one of the 16 previous lines (adaptive choice of 16), the bit length
        k of the zigzag delta (adaptive over 65), and k-1 raw bits;
  far   the line through a binary context tree: each of its top D bits coded
        with counts learnt per prefix (all earlier lines teach it where the
        memory lies), the page offset (6 bits) as one of the 8 most recent
        offsets or raw, the bits in between raw;
plus the choice (adaptive) and the op (adaptive).  Costs are -log2 of the
adaptive probabilities, which an arithmetic coder reaches within bytes; the
encoder's choice is paid for by the coded choice flag, so this is a real
code, not an entropy of hindsight.  Delays are ignored (the ESF traces have
none).

It also prints a floor for the 4 KiB page numbers alone.  Call an access
non-local when its page is not among the 16 records before it, and count
the non-local accesses whose page was seen earlier: if pages were drawn
independently from one distribution, repeats/pairs estimates the sum of
p^2, whose -log2 (the collision entropy H2) is at most the Shannon entropy.
So each non-local access needs at least H2 bits for its page, whatever the
coder; the column gives that times the non-local accesses, in bytes.  The
assumption (no order between far jumps) is what the traces look like, not
a theorem.  It is an estimate of what stronger modelling buys, used in
traces/README.md to show where the 0.5x-gzip target stands; it is slow
(pure Python, about 2 s per 50 000 records and depth).
"""
import math
import subprocess
import sys

LOG2 = math.log2
REFS = 16
LINE_BITS = 34  # ESF addresses are below 2^40: lines below 2^34


class Adaptive:
    """Counts over a symbol alphabet of size @nsym with a 0.5 prior."""

    def __init__(self, nsym):
        self.nsym, self.count, self.total = nsym, {}, 0

    def cost(self, sym):
        return -LOG2((self.count.get(sym, 0) + 0.5) / (self.total + 0.5 * self.nsym))

    def update(self, sym):
        self.count[sym] = self.count.get(sym, 0) + 1
        self.total += 1


class BitTree:
    """The top @depth bits of a @nbits value, each coded given its prefix."""

    def __init__(self, nbits, depth):
        self.nbits, self.depth, self.nodes = nbits, depth, {}

    def cost(self, v, learn):
        bits = 0.0
        for i in range(self.depth):
            b = (v >> (self.nbits - 1 - i)) & 1
            key = (i, v >> (self.nbits - i))
            c = self.nodes.get(key)
            if c is None:
                c = self.nodes[key] = [0.4, 0.4]
            bits -= LOG2(c[b] / (c[0] + c[1]))
            if learn:
                c[b] += 1
        return bits + (self.nbits - self.depth)


def zigzag(d):
    return 2 * d if d >= 0 else -2 * d - 1


def estimate(lines, ops, depth):
    tree = BitTree(LINE_BITS - 6, depth)
    choice, refm, cls, opm, offm = (Adaptive(2), Adaptive(REFS), Adaptive(65),
                                    Adaptive(2), Adaptive(9))
    ring, recent_off, total = [0] * REFS, [], 0.0
    for line, op in zip(lines, ops):
        near = None
        for r in range(REFS):
            k = zigzag(line - ring[r]).bit_length()
            c = refm.cost(r) + cls.cost(k) + max(k - 1, 0)
            if near is None or c < near[0]:
                near = (c, r, k)
        off = line & 63
        osym = recent_off.index(off) if off in recent_off else 8
        far = tree.cost(line >> 6, False) + offm.cost(osym) + (6 if osym == 8 else 0)
        if near[0] + choice.cost(0) <= far + choice.cost(1):
            total += near[0] + choice.cost(0)
            choice.update(0)
            refm.update(near[1])
            cls.update(near[2])
        else:
            total += far + choice.cost(1)
            choice.update(1)
            offm.update(osym)
        tree.cost(line >> 6, True)
        if off in recent_off:
            recent_off.remove(off)
        recent_off = [off] + recent_off[:7]
        total += opm.cost(op)
        opm.update(op)
        ring = [line] + ring[:-1]
    return total / 8


def page_floor(lines):
    """Bytes that the pages of non-local accesses need at least (see above)."""
    last, nonlocal_n, repeats = {}, 0, 0
    for i, line in enumerate(lines):
        page = line >> 6
        j = last.get(page)
        if j is None or i - j > REFS:
            nonlocal_n += 1
            repeats += j is not None
        last[page] = i
    pairs = nonlocal_n * (nonlocal_n - 1) / 2
    h2 = -LOG2(repeats / pairs) if repeats else 0.0
    return nonlocal_n, h2, nonlocal_n * h2 / 8


def main(paths):
    if not paths:
        sys.exit(__doc__)
    print("| trace | records | gzip -9 | estimate (bytes) | estimate / gzip "
          "| non-local accesses | H2 bits | page floor (bytes) | floor / gzip |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        lines, ops = [], []
        with open(path) as f:
            for ln in f:
                a, o = ln.split()[:2]
                lines.append(int(a, 16) >> 6)
                ops.append(o.upper().startswith("W"))
        if max(lines) >> LINE_BITS:
            sys.exit(f"{path}: addresses above 2^40; raise LINE_BITS")
        gz = len(subprocess.run(["gzip", "-9", "-c", path], check=True,
                                capture_output=True).stdout)
        best = min(estimate(lines, ops, d) for d in (10, 14))
        nl, h2, floor = page_floor(lines)
        print(f"| {path.split('/')[-1]} | {len(lines)} | {gz} | {best:.0f} | {best / gz:.3f} "
              f"| {nl} | {h2:.1f} | {floor:.0f} | {floor / gz:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
