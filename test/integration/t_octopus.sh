# t_octopus.sh - Octopus pods (topology.kind = "octopus") end to end: --check
# of the 4-port device, 8-port host pod (S(2,4,25): 25 hosts, 50 devices,
# all 300 pairs share a device) and of islands; a small pod runs with every
# request answered and every credit home, byte-identical on 1-4 ranks; cMPI
# all-to-all pairs hosts only through the devices they share; the pod's
# config errors are one line, exit 2.

test_octopus_check_25_host_pod() {
	cxl 1 --check "$CONFIGS/octopus.cfg" > out.txt || return 1
	cat out.txt
	grep -q 'switches 0, hosts 200, accelerators 0, memories 50, buses 200' out.txt ||
		fail "counts: $(grep buses out.txt)" || return 1
	grep -q 'octopus pod: 25 hosts, 50 devices, no switch; design radical S(2,4,25), a 2-(25,4,1) design; 1 island' out.txt ||
		fail "pod line: $(grep 'octopus pod' out.txt)" || return 1
	grep -q 'devices per host 8 (of 8 host ports.*hosts per device 4 (of 4 device ports)' out.txt ||
		fail "ports line" || return 1
	grep -q 'host pairs sharing a device: 300 of 300 (100.0%), each through 1 device; sharing none: 0$' out.txt ||
		fail "pairs: $(grep 'host pairs' out.txt)"
}

test_octopus_check_islands_and_designs() {
	cxl 1 --check "$CONFIGS/octopus.cfg" --set topology.hosts=60 > out.txt || return 1
	grep -q 'octopus pod: 60 hosts, 145 devices, .* 3 islands of up to 25 hosts' out.txt ||
		fail "islands: $(grep 'octopus pod' out.txt)" || return 1
	grep -q 'sharing a device: 645 of 1770 (36.4%), each through 1 device; sharing none: 1125 (host0-host25, host0-host26, host0-host27, host0-host28, ...)' out.txt ||
		fail "island pairs: $(grep 'host pairs' out.txt)" || return 1
	cxl 1 --check "$CONFIGS/octopus.cfg" --set topology.design=projective > p.txt || return 1
	grep -q 'octopus pod: 13 hosts, 13 devices, no switch; design projective PG(2,3), a 2-(13,4,1)' p.txt ||
		fail "projective: $(grep 'octopus pod' p.txt)" || return 1
	grep -q 'devices per host 4 (of 8 host ports' p.txt || fail "PG(2,3) uses 4 of 8 ports" || return 1
	cxl 1 --check "$CONFIGS/octopus.cfg" --set topology.design=full > f.txt || return 1
	grep -q 'octopus pod: 4 hosts, 8 devices, .* 2-(4,4,8)' f.txt || fail "full: $(grep 'octopus pod' f.txt)" || return 1
	grep -q '6 of 6 (100.0%), each through 8 devices' f.txt || fail "full pairs"
}

octopus_runs() {
	local n=$1
	cxl "$n" -q "$CONFIGS/octopus.cfg" -o "o$n" --set workload.requests=50 || fail "$n ranks: exit $?" || return 1
	conserved "o$n" 50 || return 1
	cmp -s <(results o1/stats.json) <(results "o$n/stats.json") || fail "results on $n ranks differ from 1 rank"
}

test_octopus_runs_conserved_identical_on_1_to_4_ranks() {
	each_rank_count octopus_runs || return 1
	# every device served its 4 host ports: 200 x 50 requests in all
	local dev
	dev=$(awk -F, '$2 == "memory" && ($4 == "reads" || $4 == "writes") { t += $5 } END { print t }' o1/components.csv)
	[ "$dev" = 10000 ] || fail "the devices saw $dev requests, not 10000" || return 1
	# islands and the metis partition give the same results on 3 ranks as on 1
	cxl 1 -q "$CONFIGS/octopus.cfg" -o i1 --set workload.requests=30 --set topology.hosts=30 || return 1
	cxl 3 -q "$CONFIGS/octopus.cfg" -o i3 --set workload.requests=30 --set topology.hosts=30 --partition metis || return 1
	conserved i3 30 || return 1
	cmp -s <(results i1/stats.json) <(results i3/stats.json) || fail "islands: 3 ranks differ"
}

# cMPI all-to-all on the pod: hosts talk only through the device they share,
# on their ports to it; every one of the 300 host pairs exchanges, once each
# way, and the run is byte-identical on 1-4 ranks.
octopus_cmpi() {
	local n=$1
	cxl "$n" -q "$CONFIGS/octopus.cfg" -o "m$n" --set workload.pattern=cmpi \
		--set workload.cmpi.op=sendrecv --set workload.cmpi.peers=alltoall \
		--set workload.cmpi.min_size=1KiB --set workload.cmpi.max_size=1KiB \
		--set workload.cmpi.iterations=2 --set workload.cmpi.warmup=0 --set workload.cmpi.window=4 \
		--set host.cores=1 || fail "$n ranks: exit $?" || return 1
	cmp -s <(results m1/stats.json) <(results "m$n/stats.json") || fail "cmpi: $n ranks differ from 1"
}

test_octopus_cmpi_alltoall_through_shared_devices() {
	cxl 1 --check "$CONFIGS/octopus.cfg" > c.txt || return 1
	grep -q 'memory groups (requesters reaching the same devices; host programs talk within one): 50, of 4..4 requesters' c.txt ||
		fail "groups: $(grep 'memory groups' c.txt)" || return 1
	each_rank_count octopus_cmpi || return 1
	# each of the 200 ports sends 2 windows to each of its device's 3 other
	# heads: 1200 marks, 1200 x 4 KiB, and each device wrote and read every
	# byte it carried (cells of 1 KiB + 64 B header, twice: in, then out)
	python3 - m1/stats.json <<'PY' || fail "marks" || return 1
import json, sys
c = json.load(open(sys.argv[1]))["components"]
ports = [k for k in c if k.startswith("host") and "-" not in k]
assert len(ports) == 200, len(ports)
marks = sum(c[k]["mark_1KiB_count"] for k in ports)
nbytes = sum(c[k]["mark_1KiB_bytes"] for k in ports)
assert all(c[k]["mark_1KiB_count"] == 6 for k in ports), "every port marks 3 peers x 2 windows"
assert (marks, nbytes) == (1200, 1200 * 4 * 1024), (marks, nbytes)
print("marks", marks, "bytes", nbytes)
PY
}

octopus_errors() {
	local n=$1
	fab_error "$n" 'bad.cfg:2: topology.design: no affine design fits 2 host ports and 4 device ports' \
		'topology = { kind = "octopus"; design = "affine"; host_ports = 2; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.hosts: an octopus pod of 600 hosts with 8 ports each \(radical S\(2,4,25\)\) needs more than the 4096 endpoints' \
		'topology = { kind = "octopus"; hosts = 600; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.host_ports: an octopus pod of 3783 hosts' \
		'topology = { kind = "octopus"; host_ports = 64; device_ports = 64; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.iso_bisection: does not apply to topology.kind "octopus"' \
		'topology = { kind = "octopus"; iso_bisection = true; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.device_ports: does not apply to topology.kind "ring"' \
		'topology = { kind = "ring"; device_ports = 4; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.device_ports: 1 is out of range' \
		'topology = { kind = "octopus"; device_ports = 1; };'
}
test_octopus_errors_on_1_to_4_ranks() { each_rank_count octopus_errors; }

# fab_error N PATTERN CONFIG-TEXT : the config gives one error line, exit 2
fab_error() {
	local n=$1 pat=$2
	printf 'simulation = { end = "1us"; };\n%s\n' "$3" > bad.cfg
	expect_error "$n" "$pat" --check bad.cfg
}
