# t_profile.sh - the rank profile (--profile-ranks, core/profile.c): its
# replay of the windowed execution on P ranks gives exactly the counts of
# real runs oversubscribed on this machine (windows, events per rank, remote
# events per rank) for fabrics (metis, block) and PHOLD (global lookahead:
# every rank a neighbour, no collective; ring links: sparse neighbours),
# including idle stretches; the profile run's own results are those of a
# plain run; bad options are one-line errors.  Timing is compared in
# make bench (test/bench/run.sh), never here.

# The rank counts compared: 4, 8 and 16 (each run stays well under 30 s on
# 2 busy cores); under the sanitizers 2 and 4.
if [ -n "${SANITIZE:-}" ]; then PRANKS="2 4"; else PRANKS="4 8 16"; fi

# same_counts PROFILE_DIR RUN_DIR N : the profile's result for N ranks has the
# real run's windows, events, lookahead, edge cut, per-rank events and remote events
same_counts() {
	python3 - "$1/profile.json" "$2/stats.json" "$3" <<'PY'
import json, sys
prof, run, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["run"], int(sys.argv[3])
p = [r for r in prof["results"] if r["ranks"] == n]
if len(p) != 1:
    sys.exit("no profile result for %d ranks" % n)
p = p[0]
pairs = [("windows", "windows"), ("events", "events"), ("remote_events", "remote_events"),
         ("lookahead_ps", "lookahead_ps"), ("edge_cut", "edge_cut"),
         ("events_per_rank", "events_per_rank"),
         ("remote_events_per_rank", "remote_events_per_rank")]
bad = ["%s: profile %s, run %s" % (k, p[k], run[r]) for k, r in pairs if p[k] != run[r]]
if bad:
    sys.exit("%d ranks: " % n + "; ".join(str(b)[:300] for b in bad))
print("%d ranks: %d windows, %d remote events, equal" % (n, p["windows"], p["remote_events"]))
PY
}

# profile_vs_runs CONFIG [ARGS...] : profile for $PRANKS, then a real run at each
profile_vs_runs() {
	local cfg=$1; shift
	local list
	list=$(echo "1 $PRANKS" | tr ' ' ',')
	cxl 1 -q "$cfg" "$@" --profile-ranks "$list" -o prof || fail "profile run failed" || return 1
	for n in $PRANKS; do
		cxl "$n" -q "$cfg" "$@" -o "r$n" || fail "$n-rank run failed" || return 1
		same_counts prof "r$n" "$n" || fail "$cfg $*: the profile's counts differ from the $n-rank run's" || return 1
		results prof/stats.json | cmp -s - <(results "r$n/stats.json") || fail "$n ranks: results differ" || return 1
	done
}

test_fabric_metis_counts_equal_real_runs() {
	profile_vs_runs "$CONFIGS/spine_leaf.cfg" --set workload.requests=600
}

test_fabric_block_counts_equal_real_runs() {
	profile_vs_runs "$CONFIGS/tree.cfg" --partition block --set workload.requests=300
}

# Requests far apart: most of the run is idle, and windows skip it.
test_idle_stretches_counts_equal_real_runs() {
	profile_vs_runs "$CONFIGS/spine_leaf.cfg" --set workload.requests=20 \
		--set workload.queue=1 --set workload.issue_interval=3us || return 1
	python3 - prof/profile.json <<'PY' || fail "windows do not skip idle time"
import json, sys
p = [r for r in json.load(open(sys.argv[1]))["results"] if r["ranks"] > 1][0]
span = json.load(open(sys.argv[1]))["stop_ps"]
# without skipping, the run would need about span / lookahead windows
assert p["windows"] * 4 < span / p["lookahead_ps"], (p["windows"], span / p["lookahead_ps"])
PY
}

phold_cfg() {
	cat > phold.cfg <<CFG
simulation = { end = "200ns"; seed = 5; };
phold = { lps = 256; start_events = 2; remote = 0.5; lookahead = "100ps"; mean = "1ns";
          neighbours = "$1"; };
CFG
}

test_phold_global_lookahead_counts_equal_real_runs() {
	phold_cfg all
	profile_vs_runs phold.cfg --partition roundrobin || return 1
	grep -q '"collective": false' prof/profile.json || fail "PHOLD: every rank neighbours every other, so no collective"
}

test_phold_ring_counts_equal_real_runs() {
	phold_cfg ring
	profile_vs_runs phold.cfg --partition block
}

# min_cross_delay_ps, the smallest delay of a cross-rank send an event made,
# is a witness for the lookahead: never below it (the engine's window rule
# is sound for every partition), and on a fabric equal to it (a switch, host
# or memory forwards onto a cut link with no delay of its own, so no model
# delay can be added to the link latency: core/README.md, "Rank profile").
test_lookahead_witnessed_by_cross_delays() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --set workload.requests=600 --set switch.slices=2 \
		--profile-ranks 2,4,8,64 -o prof || return 1
	python3 - prof/profile.json <<'PY' || fail "a cross-rank send below the lookahead, or slack on a fabric"
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    d, l = r["min_cross_delay_ps"], r["lookahead_ps"]
    assert d is not None and l is not None, r["ranks"]
    assert d == l, (r["ranks"], d, l)
PY
	phold_cfg ring
	cxl 1 -q phold.cfg --partition block --profile-ranks 1,2,4,8 -o prof2 || return 1
	python3 - prof2/profile.json <<'PY' || fail "PHOLD: a cross-rank send below the lookahead"
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    d, l = r["min_cross_delay_ps"], r["lookahead_ps"]
    if r["ranks"] == 1:
        assert d is None and l is None, (d, l)
    else:
        assert d >= l, (r["ranks"], d, l)
PY
}

# The profile run is a plain one-rank run (same results), its 1-rank
# prediction is its own loop, and the ceiling never beats the rank count.
test_profile_outputs() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o plain || return 1
	cxl 1 "$CONFIGS/spine_leaf.cfg" --profile-ranks 1,2,64 -o prof > stdout || return 1
	results plain/stats.json | cmp -s - <(results prof/stats.json) || fail "profile run changed results" || return 1
	grep -q '^rank profile: ' stdout || fail "no summary printed" || return 1
	for f in profile.json profile_windows.csv profile_ranks.csv profile_pairs.csv; do
		[ -s "prof/$f" ] || fail "no $f" || return 1
	done
	python3 - prof/profile.json prof/profile_windows.csv prof/profile_ranks.csv <<'PY' || fail "profile outputs inconsistent"
import csv, json, sys
prof = json.load(open(sys.argv[1]))
res = {r["ranks"]: r for r in prof["results"]}
assert sorted(res) == [1, 2, 64]
one = res[1]
assert one["windows"] == 1 and one["remote_events"] == 0 and one["lookahead_ps"] is None
# c comes from a plain run made before the logged one (logging slows the loop)
assert prof["plain_loop_s"] > 0 and prof["loop_s"] > 0
assert abs(prof["event_ns"] - 1e9 * prof["plain_loop_s"] / prof["events"]) <= 1e-6 * prof["event_ns"]
assert abs(one["predicted"]["loop_s"] - prof["plain_loop_s"]) <= 1e-9 * max(1, prof["plain_loop_s"])
for n, r in res.items():
    assert 1 <= r["ceiling_speedup"] <= n + 1e-9, (n, r["ceiling_speedup"])
    # a lazy credit (core/sim_lazy.c) is an event only where its link is cut
    assert sum(r["events_per_rank"]) == r["events"]
    assert prof["events"] <= r["events"] <= prof["events"] + prof["lazy_events"]
    assert (r["events"] == prof["events"]) == (n == 1)
    assert sum(r["remote_events_per_rank"]) == r["remote_events"]
    assert 0 < r["predicted"]["efficiency"] <= 1.0 + 1e-9 or n == 1
win = list(csv.DictReader(open(sys.argv[2])))
ranks = list(csv.DictReader(open(sys.argv[3])))
for n, r in res.items():
    w = [x for x in win if int(x["ranks"]) == n]
    assert len(w) == r["windows"] + 1
    assert sum(int(x["events"]) for x in w) == r["events"]
    assert sum(int(x["remote_events"]) for x in w) == r["remote_events"]
    c = [x for x in ranks if int(x["ranks"]) == n]
    assert sum(int(x["events"]) for x in c) == r["events"]
    assert sum(int(x["remote_out"]) for x in c) == r["remote_events"]
    assert sum(int(x["remote_in"]) for x in c) == r["remote_events"]
PY
}

# --profile-net's fourth field replaces the measured per-event cost.
test_profile_event_cost_given() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --profile-ranks 1,4 --profile-net 1us,10GB/s,1us,100ns -o prof || return 1
	python3 - prof/profile.json <<'PY' || fail "the given event cost is not used"
import json, sys
p = json.load(open(sys.argv[1]))
assert abs(p["event_ns"] - 100) < 1e-9, p["event_ns"]
assert p["plain_loop_s"] is None  # no plain run when the cost is given
assert p["event_ns_measured"] is None
one = [r for r in p["results"] if r["ranks"] == 1][0]
assert abs(one["predicted"]["loop_s"] - 100e-9 * p["events"]) < 1e-12
four = [r for r in p["results"] if r["ranks"] == 4][0]
assert abs(four["predicted"]["compute_s"] - 100e-9 * four["busiest_sum"]) < 1e-12
PY
}

test_profile_errors() {
	local cfg=$CONFIGS/spine_leaf.cfg
	expect_error 1 '--profile-ranks 0,4: expected a comma-separated list' "$cfg" --profile-ranks 0,4 || return 1
	expect_error 1 '--profile-ranks 4,,8: expected' "$cfg" --profile-ranks 4,,8 || return 1
	expect_error 1 '--profile-ranks x: expected' "$cfg" --profile-ranks x || return 1
	expect_error 1 '--profile-net: only with --profile-ranks' "$cfg" --profile-net 1us,1GB/s,1us || return 1
	expect_error 1 "--profile-net 1us,1GB,1us: bandwidth '1GB'" "$cfg" --profile-ranks 4 --profile-net 1us,1GB,1us || return 1
	expect_error 1 '--profile-net 1us: expected LATENCY,BANDWIDTH,STEP\[,EVENT\]' "$cfg" --profile-ranks 4 --profile-net 1us || return 1
	expect_error 1 "--profile-net 1,1GB/s,1us: message latency '1'" "$cfg" --profile-ranks 4 --profile-net 1,1GB/s,1us || return 1
	expect_error 1 "--profile-net 1us,1GB/s,1us,x: event cost 'x'" "$cfg" --profile-ranks 4 --profile-net 1us,1GB/s,1us,x || return 1
	expect_error 1 '--profile-ranks: only with a run' "$cfg" --profile-ranks 4 --check || return 1
	expect_error 2 '--profile-ranks: the profile runs on one rank' "$cfg" --profile-ranks 4 || return 1
	cxl 1 --help | grep -q -- '--profile-ranks LIST' || fail "--help does not document --profile-ranks"
}
