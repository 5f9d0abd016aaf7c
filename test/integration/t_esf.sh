# test/integration/t_esf.sh - configs/esf/ (ESF's artifact, issue 21):
# every config runs and gives byte-identical results on 1 rank and on 2, 3
# or 4 (each group of configs on all three; with partitions that cut its
# 1 ps links: METIS would keep them on one rank), shortened; the
# ESF-compatible bus keys are off by default and do what models/link/README.md says; so does switch.esf_port_busy
# (models/switch/README.md), and a fig11 config checkpoints and restarts.

# esf_same CFG SETS... : CFG (shortened by SETS) on 1 rank and on the next
# count of $MRANKS (2, 3, 4 in turn from one call to the next; all of them
# with ESF_ALL=1), round-robin partition, results identical to 1 rank's.
# Each config runs in well under a second; its multi-rank runs cost mpirun's
# start and the windows of its 1 ps links, so most configs are compared on
# one count, the counts taking turns: every group of configs (fig10, fig11,
# fig1516, fig13 + fig14, fig12 + fig17) is still compared on 2, 3 and 4
# ranks, and so is every ESF key (bus.esf_frame: fig10, fig12; port busy:
# fig11; the half-duplex drain and write turns: fig1516-half, their only
# config, on all three); the engine's determinism on 1-4 and 8 ranks is
# t_determinism's.
ESF_TURN=0
esf_same() {
	local cfg=$1; shift
	local sets=() counts=($MRANKS)
	for s in "$@"; do sets+=(--set "$s"); done
	cxl 1 -q "$CONFIGS/esf/$cfg" -o r1 "${sets[@]}" || fail "$cfg: 1 rank failed" || return 1
	results r1/stats.json > ref
	local n=${counts[ESF_TURN % ${#counts[@]}]}
	ESF_TURN=$((ESF_TURN + 1))
	[ -z "${ESF_ALL:-}" ] || n=$MRANKS
	for n in $n; do
		cxl "$n" -q "$CONFIGS/esf/$cfg" -o "r$n" "${sets[@]}" --partition roundrobin ||
			fail "$cfg: $n ranks failed" || return 1
		results "r$n/stats.json" | cmp -s ref - || fail "$cfg: $n ranks differ from 1" || return 1
		[ "$(json_num "r$n/stats.json" edge_cut)" != 0 ] || fail "$cfg: $n ranks cut nothing" || return 1
	done
	rm -rf r1 ref r[0-9]*
}

test_esf_fig10_identical_across_ranks() {
	for t in chain tree ring spineleaf full; do
		esf_same "fig10-$t-16.cfg" workload.requests=40 || return 1
	done
}

# fig11: switches whose ports are busy per packet (switch.esf_port_busy),
# joined by near-ideal buses.
test_esf_fig11_identical_across_ranks() {
	for t in chain tree ring spineleaf full; do
		esf_same "fig11-$t.cfg" workload.requests=60 || return 1
	done
}

# A fig11 system checkpointed mid-run (packets waiting for busy ports)
# restarts on other rank counts with the uninterrupted results: port_free
# is in the switch's checkpoint hook.
test_esf_fig11_checkpoint_restart() {
	ckpt_same "$CONFIGS/esf/fig11-full.cfg" "300ns 1us" --set workload.requests=60
}

# switch.esf_port_busy: one packet per switch.latency at each output.  In
# fig11-full (delay 16 ns) every port is busy exactly its packets x 16 ns,
# and the default pipeline (the key off) is faster under the same load.
test_esf_port_busy_rule() {
	local c="$CONFIGS/esf/fig11-full.cfg"
	cxl 1 -q "$c" -o a --set workload.requests=200 || fail "run failed" || return 1
	cxl 1 -q "$c" -o b --set workload.requests=200 --set switch.esf_port_busy=false ||
		fail "run without the key failed" || return 1
	python3 - a/stats.json b/stats.json <<'PY' || fail "port occupancy rule broken"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ports = 0
for name, c in a["components"].items():
    if not name.startswith("sw"):
        continue
    for k, v in c.items():
        if k.endswith("_esf_busy_ps"):
            pk = c[k[:-len("_esf_busy_ps")] + "_pkts"]
            assert v == pk * 16000, (name, k, v, pk)
            ports += 1
assert ports == 16 * 17, ports
assert not any(k.endswith("_esf_busy_ps") for n, c in b["components"].items() for k in c)
assert b["summary"]["latency_ns"]["mean"] < a["summary"]["latency_ns"]["mean"]
PY
}

test_esf_fig1516_identical_across_ranks() {
	ESF_ALL=1 esf_same fig1516-half.cfg workload.requests=300 workload.read_ratio=0.5 || return 1
	for v in full1 full8 full16 full32 full64; do
		esf_same "fig1516-$v.cfg" workload.requests=300 workload.read_ratio=0.5 || return 1
	done
}

test_esf_fig13_fig14_identical_across_ranks() {
	for p in fifo lru lfi lifo mru; do
		esf_same "fig13-$p.cfg" workload.requests=600 || return 1
	done
	for b in 0 1 2 3; do
		esf_same "fig14-burst$b.cfg" workload.requests=600 || return 1
	done
}

# fig12 and fig17 replay a trace given with --set workload.trace (ESF's are not in
# the repository): a generated one, 8 hosts each replaying it.
test_esf_fig12_fig17_identical_across_ranks() {
	local tr=${CXLFAB_TRACE:-$(dirname "$CXLFAB")/cxlfab-trace}
	case $tr in /*) ;; *) tr=$(cd "$CONFIGS/.." && pwd)/$tr ;; esac # make passes it relative
	"$tr" gen t.cxt --pattern random --records 150 --read-ratio 0.7 > /dev/null ||
		fail "trace gen failed" || return 1
	for k in chain tree ring spineleaf full; do
		esf_same "fig12-$k.cfg" workload.trace="$T/t.cxt" || return 1
	done
	for d in full half; do
		esf_same "fig17-$d.cfg" workload.trace="$T/t.cxt" || return 1
	done
}

# Every config of configs/esf/ is covered by one of the tests above (a new
# one must be added there).
test_esf_every_config_covered() {
	local f
	for f in "$CONFIGS"/esf/*.cfg; do
		case $(basename "$f") in
		fig10-*-16.cfg | fig11-*.cfg | fig1516-*.cfg | fig13-*.cfg | fig14-burst*.cfg | fig12-*.cfg | fig17-*.cfg) ;;
		*) grep -q "$(basename "$f")" "$(dirname "${BASH_SOURCE[0]}")/t_esf.sh" ||
			fail "$(basename "$f") is not run by t_esf.sh" || return 1 ;;
		esac
	done
}

# ESF's frames (bus.esf_frame f, bus.esf_width 8 B, 8 B per ns): one idle
# read costs ceil(f/8) ns for its request and ceil((64/f + 1) f / 8) ns for
# its answer: 1 + 9 ns at f = 1 (and 8), 2 + 10 at 16, 4 + 12 at 32, 8 + 16
# at 64; everything else on the path is the same, so the latencies differ
# by exactly 0, 2, 6 and 14 ns from f = 1.
test_esf_frame_timing() {
	local v lat1 want
	for v in full1 full8 full16 full32 full64; do
		cxl 1 -q "$CONFIGS/esf/fig1516-$v.cfg" -o "$v" --set workload.requests=1 \
			--set workload.queue=1 || fail "$v: run failed" || return 1
	done
	lat1=$(json_num full1/stats.json mean)
	for v in full8:0 full16:2 full32:6 full64:14; do
		want=$(awk -v a="$lat1" -v d="${v#*:}" 'BEGIN { print a + d }')
		near "$(json_num "${v%:*}/stats.json" mean)" "$want" 0.0005 ||
			fail "${v%:*}: $(json_num "${v%:*}/stats.json" mean) ns, expected $want" || return 1
	done
}

# ESF's half duplex: the completion of a write turns the bus; with
# bus.esf_write_turnaround that turn costs 2 x 20 ns instead of 20 ns.
test_esf_write_turnaround() {
	local c="$CONFIGS/esf/fig1516-half.cfg" a b
	cxl 1 -q "$c" -o a --set workload.requests=1 --set workload.read_ratio=0 ||
		fail "run failed" || return 1
	cxl 1 -q "$c" -o b --set workload.requests=1 --set workload.read_ratio=0 \
		--set bus.esf_write_turnaround=false || fail "run failed" || return 1
	a=$(json_num a/stats.json mean); b=$(json_num b/stats.json mean)
	near "$a" "$(awk -v b="$b" 'BEGIN { print b + 20 }')" 0.0005 ||
		fail "write: $a ns with, $b ns without (expected 20 ns more)"
}

# The keys are off by default: the ESF keys at their defaults change nothing.
test_esf_keys_off_by_default() {
	cxl 1 -q "$CONFIGS/chain.cfg" -o a --set workload.requests=200 || fail "run failed" || return 1
	cxl 1 -q "$CONFIGS/chain.cfg" -o b --set workload.requests=200 --set bus.esf_frame=0B \
		--set bus.esf_width=0B --set bus.esf_half_drain=false \
		--set bus.esf_write_turnaround=false --set switch.esf_port_busy=false ||
		fail "run with defaults failed" || return 1
	results a/stats.json | cmp -s - <(results b/stats.json) || fail "explicit defaults differ"
	"$CXLFAB" --help-config 2>&1 | grep -q 'bus.esf_frame' || fail "bus.esf_frame not in --help-config" || return 1
	"$CXLFAB" --help-config 2>&1 | grep -q 'switch.esf_port_busy' ||
		fail "switch.esf_port_busy not in --help-config"
}

test_esf_key_errors() {
	expect_error 1 ".*bus.esf_width.*esf_frame" "$CONFIGS/chain.cfg" --set bus.esf_width=8B || return 1
	expect_error 1 ".*bus.esf_frame.*replay_buffer" "$CONFIGS/chain.cfg" --set bus.esf_frame=64B \
		--set bus.replay_buffer=4 || return 1
	expect_error 1 ".*switch.esf_port_busy.*slices" "$CONFIGS/chain.cfg" --set switch.esf_port_busy=true \
		--set switch.slices=2 || return 1
}
