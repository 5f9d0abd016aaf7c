# test/integration/t_cxllat.sh - analysis/cxl-latency (seed 002's inputs):
# the idle CXL_LAT and CXL_ATOMIC_LAT behind 0-3 switches equal the sums of
# configs/cxl-latency.cfg's latencies and serialisations to the picosecond
# (with the fixed-latency DRAM), DDR_LAT likewise, and a loaded point is
# loaded: the loaders get what they offer and the probe waits longer, and
# the point's run gives the same results on 2-4 ranks.
# The default DDR5 DRAM in the loaded test, the simple one in the exact test.

root=$(cd "$CONFIGS/.." && pwd)
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
cxllat() { timeout "$TIMEOUT" "$PY" "$root/analysis/cxl-latency" "$@"; }

# ser BYTES : serialisation in ps on PCIe 6.0 x16, 64 GT/s per lane, 256-byte
# flits carrying 236 bytes of TLPs (models/link/README.md), rounded up
ser() { awk -v b="$1" 'BEGIN { x = b * 8 * 1e6 * 256 / (64000 * 16 * 236); y = int(x); if (y < x) y++; print y }'; }

# jfield FILE KEY FIELD : "FIELD" inside the object "KEY" of a point's JSON, in ps
jfield() { "$PY" -c 'import json, sys; v = json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]; print(round(v * 1000))' "$1" "$2" "$3"; }

# The config's numbers: host 10 ns, port 25 ns at each end of a bus, bus 1 ns,
# switch 20 ns, controller 40 ns, simple DRAM 40 ns after a channel's 64 B at
# 25.6 GB/s (2.5 ns), host cache 12 ns; a request or snoop is a 20-byte
# header, a line of data 64 + 20 bytes.
HOST=10000 PORT=25000 BUS=1000 SW=20000 CTRL=40000 DRAM=40000 CHAN=2500 CACHE=12000
# one bus both ways: four port crossings, the bus latency twice, a header one
# way and a line the other
bus_rt() { echo $(( 4 * PORT + 2 * BUS + $(ser 20) + $(ser 84) )); }

test_idle_latencies_are_the_configured_sums() {
	cxllat -o o --switches 0,1,2,3 --loads 0 --samples 10 --loaders 1 \
		--set memory.dram.preset=simple > log || { cat log; return 1; }
	local k f want rt
	rt=$(bus_rt)
	for k in 0 1 2 3; do
		f=o/k$k-load0.json
		[ -f "$f" ] || fail "no $f" || return 1
		# host0 -> k switches -> pool and back: k + 1 buses, 2k switch passes
		want=$(( HOST + (k + 1) * rt + 2 * k * SW + CTRL + CHAN + DRAM ))
		[ "$(jfield $f CXL_LAT_ns min)" = "$want" ] && [ "$(jfield $f CXL_LAT_ns max)" = "$want" ] ||
			fail "k=$k: CXL_LAT $(jfield $f CXL_LAT_ns min)..$(jfield $f CXL_LAT_ns max) ps, expected $want" || return 1
		# the atomic: the same read for ownership, plus the DCOH's back-invalidation
		# of host1 (BISnp, host1's latency, BIRsp with the dirty line: the same
		# path), the dirty line's write ahead of the read on the DRAM channel, and
		# the modify in host0's cache
		want=$(( want + HOST + (k + 1) * rt + 2 * k * SW + CHAN + CACHE ))
		[ "$(jfield $f CXL_ATOMIC_LAT_ns min)" = "$want" ] && [ "$(jfield $f CXL_ATOMIC_LAT_ns max)" = "$want" ] ||
			fail "k=$k: CXL_ATOMIC_LAT $(jfield $f CXL_ATOMIC_LAT_ns min)..$(jfield $f CXL_ATOMIC_LAT_ns max) ps, expected $want" || return 1
		[ "$(jfield $f CXL_LAT_ns count)" = 10000 ] || fail "k=$k: not 10 samples" || return 1
	done
	# DDR_LAT: the same DRAM on the host with 1 ps ports and a 0 ns bus
	want=$(( HOST + 4 + $(ser 20) + $(ser 84) + CTRL + CHAN + DRAM ))
	[ "$(jfield o/k0-load0.json DDR_LAT_ns p50)" = "$want" ] ||
		fail "DDR_LAT $(jfield o/k0-load0.json DDR_LAT_ns p50) ps, expected $want" || return 1
	grep -q "^| 3 | 0 |" o/summary.md || fail "summary.md has no row for 3 switches"
}

test_loaded_point_is_loaded() {
	cxllat -o o --switches 1 --loads 0,75 --samples 40 --loaders 2 > log || { cat log; return 1; }
	local f=o/k1-load75.json idle=o/k1-load0.json
	"$PY" - "$f" "$idle" <<'EOF' || return 1
import json, sys
p, i = (json.load(open(a)) for a in sys.argv[1:3])
b = p["bandwidth_GBps"]
assert abs(b["loaders"] / b["offered"] - 1) < 0.05, "loaders got %s of %s GB/s" % (b["loaders"], b["offered"])
assert abs(b["offered"] / b["saturation"] - 0.75) < 1e-3, b
for k in ("CXL_LAT_ns", "CXL_ATOMIC_LAT_ns"):
    # the median: an idle probe's mean carries its few refresh collisions
    assert p[k]["p50"] > i[k]["p50"], "%s: loaded p50 %s not above idle %s" % (k, p[k]["p50"], i[k]["p50"])
    assert p[k]["count"] == 40 and p[k]["p99"] >= p[k]["p50"] >= p[k]["min"], p[k]
assert p["DDR_LAT_ns"] == i["DDR_LAT_ns"]
EOF
	# the point's run again from the config it wrote, on more ranks: the same results
	local r
	for r in $MRANKS; do
		cxl "$r" -q o/runs/k1-load75/config.cfg -o "r$r" || return 1
		[ "$(results "r$r/stats.json")" = "$(results o/runs/k1-load75/stats.json)" ] ||
			fail "the loaded point on $r ranks differs from 1" || return 1
	done
}

test_cxl_latency_errors() {
	cxllat -o o --loads 120 2> err && fail "a 120% load ran" && return 1
	grep -q "^cxl-latency: error: --loads" err || { cat err; fail "no error line for --loads"; } || return 1
	cxllat -o o --switches x 2> err && fail "--switches x ran" && return 1
	grep -q "^cxl-latency: error: --switches" err || { cat err; fail "no error line for --switches"; }
}
