#!/usr/bin/env bash
# traces/samples/make.sh - regenerate the sample traces in this directory.
#
# Usage: traces/samples/make.sh [OUTDIR]   (default: this directory)
# Uses $CXLFAB_TRACE, else bin/cxlfab-trace.  Deterministic: the same tool
# gives the same bytes, which test/integration/t_trace.sh checks.
#
#   stream.cxt   20000 records, stream over 1 MiB, 70% reads, one per 1 ns
#   random.cxt   20000 records, uniform over 64 MiB, 70% reads, one per 2 ns
#   hotcold.cxt  20000 records, 90% to the hot 10% of 16 MiB, 90% reads, one per 500 ps
#   esf-small.trace / .cxt        2000 records in ESF text (absolute 1 ns ticks)
#   dramsim3-small.trace / .cxt   2000 records in DRAMsim3 text (0.625 ns cycles)
#   csv-small.csv / .cxt          2000 records in CSV (time_ps,addr,op,size; mixed sizes)
#   lackey-small.cxt              lackey-small.log converted: the log itself is a real
#                                 valgrind lackey trace, recorded (not made here) from
#                                 lackey-prog.c as its header says
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
T=${CXLFAB_TRACE:-$root/bin/cxlfab-trace}
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$T" gen "$out/stream.cxt" --pattern stream --records 20000 --footprint 1M --read-ratio 0.7 \
	--interval 1ns --seed 1
"$T" gen "$out/random.cxt" --pattern random --records 20000 --footprint 64M --read-ratio 0.7 \
	--interval 2ns --seed 2
"$T" gen "$out/hotcold.cxt" --pattern hotcold --records 20000 --footprint 16M --read-ratio 0.9 \
	--hot-fraction 0.9 --hot-footprint 0.1 --interval 500ps --seed 3

"$T" gen "$tmp/e.cxt" --pattern hotcold --records 2000 --footprint 4M --read-ratio 0.8 \
	--interval 1ns --base 0x7f0000000000 --seed 4
"$T" cat --to esf "$tmp/e.cxt" > "$out/esf-small.trace"
"$T" gen "$tmp/d.cxt" --pattern random --records 2000 --footprint 256M --read-ratio 0.6 \
	--interval 1250ps --seed 5
"$T" cat --to dramsim3 --clock 625ps "$tmp/d.cxt" > "$out/dramsim3-small.trace"
"$T" gen "$tmp/c.cxt" --pattern stream --records 1000 --footprint 64K --interval 3ns --seed 6
"$T" gen "$tmp/c2.cxt" --pattern random --records 1000 --footprint 1M --size 128 --interval 3ns \
	--base 0x100000 --seed 7
# interleave the two CSV parts by time (sort is stable on the time column)
{ "$T" cat "$tmp/c.cxt"; "$T" cat "$tmp/c2.cxt" | tail -n +2; } |
	{ IFS= read -r head; echo "$head"; sort -t, -k1,1n -s; } > "$out/csv-small.csv"

"$T" convert -q "$out/esf-small.trace" "$out/esf-small.cxt"
"$T" convert -q --clock 625ps "$out/dramsim3-small.trace" "$out/dramsim3-small.cxt"
"$T" convert -q "$out/csv-small.csv" "$out/csv-small.cxt"
"$T" convert -q "$here/lackey-small.log" "$out/lackey-small.cxt"
