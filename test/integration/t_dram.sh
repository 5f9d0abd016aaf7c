# t_dram.sh - the detailed DRAM model (memory.dram.preset = DDR4-3200 /
# DDR5-4800 / DDR4-2400) end to end: results byte-identical on 1-4 ranks, every request
# answered and every credit home; the idle latency to the picosecond;
# streaming beats random on configs/dram-stream.cfg; the statistics add up;
# configuration errors; the simple model stays the default.
#
# Run alone: test/integration/t_dram.sh (or run.sh t_dram); it prints
# "N passed, N failed" like every integration test file.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" t_dram
fi

# (csv_sum, csv_count, conserved: lib.sh)
# mem_sum FILE STAT : sum of STAT over the memory devices
mem_sum() { awk -F, -v s="$2" '$2 == "memory" && $4 == s { t += $5 } END { print t + 0 }' "$1"; }
# mean_ps FILE : summary mean latency in ps
mean_ps() { grep -o '"latency_ns": {[^}]*}' "$1" | head -1 | grep -o '"mean": [0-9.]*' |
	awk '{ printf "%.0f", $2 * 1000 }'; }

test_dram_identical_on_1_to_4_ranks() {
	local variants=("memory.dram.preset=DDR4-3200 workload.read_ratio=0.5"
		"memory.dram.preset=DDR5-4800 memory.dram.page=closed memory.dram.ranks=2 workload.read_ratio=0.7"
		"memory.dram.preset=DDR4-3200 workload.pattern=stream workload.interleave=256 memory.dram.queue=4")
	local v=0
	for set in "${variants[@]}"; do
		v=$((v + 1))
		local args=()
		for s in $set; do args+=(--set "$s"); done
		for n in $RANKS; do
			cxl "$n" -q "$CONFIGS/esf-validation.cfg" -o "v$v.$n" --set workload.requests=4000 "${args[@]}" ||
				fail "variant $v on $n ranks: exit $?" || return 1
			conserved "v$v.$n" 4000 || return 1
			results "v$v.$n/stats.json" > "v$v.$n.res"
			cmp -s "v$v.1.res" "v$v.$n.res" || fail "variant $v: $n ranks differ from 1" || return 1
		done
		echo "variant $v ($set): identical on 1-4 ranks, row hits $(mem_sum "v$v.1/components.csv" row_hits)" \
			"of $(json_num "v$v.1/stats.json" requests), refreshes $(csv_sum "v$v.1/components.csv" refreshes)"
	done
}

test_dram_identical_across_partitioners() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o ref --set workload.requests=300 --set workload.read_ratio=0.5 \
		--set memory.dram.preset=DDR5-4800 || return 1
	results ref/stats.json > ref.res
	for p in block roundrobin metis; do
		cxl 3 -q "$CONFIGS/spine_leaf.cfg" -o "$p" --partition "$p" --set workload.requests=300 \
			--set workload.read_ratio=0.5 --set memory.dram.preset=DDR5-4800 || return 1
		results "$p/stats.json" | cmp -s ref.res - || fail "$p on 3 ranks differs" || return 1
	done
}

# ps to serialise BYTES on gen 5 x16 (128b/130b): ceil(B*8e6*65 / (32000*16*64))
ser5x16() { awk -v b="$1" 'BEGIN { x = b * 8e6 * 65; y = 32000 * 16 * 64; printf "%d", int((x + y - 1) / y) }'; }

# The one request of an idle run: it reaches the DRAM at a (ps), is seen at
# the next clock edge v, ACT at v, RD at v + tRCD, data ends at v + tRCD +
# CL + BL; the response goes back the way the request came.
test_dram_idle_latency_exact() {
	local to back a
	to=$(( 10000 + 4 * 25000 + 2 * 1000 + 2 * $(ser5x16 20) + 20000 ))
	back=$(( 4 * 25000 + 2 * 1000 + 2 * $(ser5x16 84) + 20000 ))
	a=$(( to + 40000 ))
	# DDR4-3200: tCK 625 ps, tRCD 22 + CL 22 + BL 4; DDR5-4800: tCK 1250/3 ps, 34 + 34 + 8;
	# DDR4-2400: tCK 5000/6 ps, 16 + 16 + 4 (cycle c starts at ceil(c * tCK))
	local w4 w5 w2
	w4=$(( ((a / 625) + 1 + 48) * 625 + back ))
	w5=$(( ((a * 3 / 1250) + 1 + 76) * 1250 / 3 + back ))
	[ $(( ((a * 3 / 1250) + 1 + 76) * 1250 % 3 )) = 0 ] || w5=$(( w5 + 1 ))
	w2=$(( (((a * 6 / 5000) + 1 + 36) * 5000 + 5) / 6 + back ))
	for pw in "DDR4-3200 $w4" "DDR5-4800 $w5" "DDR4-2400 $w2"; do
		set -- $pw
		cxl 1 -q "$CONFIGS/esf-validation.cfg" -o "$1" --set workload.requests=1 --set workload.queue=1 \
			--set memory.dram.preset="$1" || return 1
		local got
		got=$(mean_ps "$1/stats.json")
		echo "$1 idle read latency $got ps (expected $2)"
		[ "$got" = "$2" ] || fail "$1: idle latency $got ps, expected $2" || return 1
	done
}

test_dram_stream_beats_random() {
	for pp in "DDR4-3200 25.6" "DDR5-4800 19.2" "DDR4-2400 19.2"; do
		set -- $pp
		local pr=$1 peak=$2 bw=() hits=()
		for pat in stream random; do
			cxl 1 -q "$CONFIGS/dram-stream.cfg" -o "$pr.$pat" --set memory.dram.preset="$pr" \
				--set workload.pattern=$pat || return 1
			local csv="$pr.$pat/components.csv" b n h
			b=$(json_num "$pr.$pat/stats.json" bandwidth_GBps)
			n=$(( $(mem_sum "$csv" reads) + $(mem_sum "$csv" writes) ))
			h=$(awk -v a="$(mem_sum "$csv" row_hits)" -v n="$n" 'BEGIN { printf "%.3f", a / n }')
			echo "$pr $pat: $b GB/s over 2 channels ($(awk -v b="$b" -v p="$peak" \
				'BEGIN { printf "%.1f%%", 100 * b / (2 * p) }') of 2 x $peak), row-hit rate $h"
			bw+=("$b"); hits+=("$h")
		done
		awk -v s="${bw[0]}" -v p="$peak" 'BEGIN { exit !(s >= 0.85 * 2 * p && s <= 2 * p) }' ||
			fail "$pr: streaming ${bw[0]} GB/s not near 2 x $peak" || return 1
		awk -v s="${bw[0]}" -v r="${bw[1]}" 'BEGIN { exit !(r < 0.75 * s) }' ||
			fail "$pr: random ${bw[1]} GB/s not below streaming ${bw[0]}" || return 1
		awk -v s="${hits[0]}" -v r="${hits[1]}" 'BEGIN { exit !(s > 0.95 && r < 0.05) }' ||
			fail "$pr: row-hit rates stream ${hits[0]}, random ${hits[1]}" || return 1
	done
}

test_dram_statistics_add_up() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o st --set workload.requests=3000 --set workload.read_ratio=0.6 \
		--set memory.dram.preset=DDR4-3200 --set memory.dram.channels=3 || return 1
	awk -F, '$2 == "memory" { v[$1, $4] = $5; m[$1] = 1; if ($4 ~ /^ch[0-9]+_busy_ps$/) ch[$1] += $5 }
		END { for (d in m) {
			n = v[d, "reads"] + v[d, "writes"]
			if (v[d, "row_hits"] + v[d, "row_misses"] + v[d, "row_conflicts"] != n) { print d, "classes"; exit 1 }
			if (v[d, "read_bytes"] != 64 * v[d, "reads"] || v[d, "write_bytes"] != 64 * v[d, "writes"]) { print d, "bytes"; exit 1 }
			if (ch[d] != v[d, "busy_ps"] || ch[d] != n * 2500) { print d, "busy", ch[d], v[d, "busy_ps"], n; exit 1 }
			if (v[d, "activates"] < v[d, "row_misses"] + v[d, "row_conflicts"]) { print d, "activates"; exit 1 }
		} }' st/components.csv || fail "memory statistics do not add up"
}

test_dram_config_errors() {
	expect_error 1 '--set memory.dram.tRCD=30: memory.dram.tRCD: applies to a DDR preset only' \
		"$CONFIGS/esf-validation.cfg" --set memory.dram.tRCD=30 || return 1
	sed 's/^memory = {/memory = { dram = { tFAW = 40; };/' "$CONFIGS/esf-validation.cfg" > bad.cfg
	expect_error 1 'bad.cfg:[0-9]+: memory.dram.tFAW: applies to a DDR preset only' bad.cfg || return 1
	expect_error 1 '--set memory.channels=4: memory.channels: applies to the simple DRAM model only' \
		"$CONFIGS/esf-validation.cfg" --set memory.dram.preset=DDR4-3200 --set memory.channels=4 || return 1
	expect_error 2 '--set memory.dram.mapping=row:col: memory.dram.mapping: "row:col" is not a mapping' \
		"$CONFIGS/esf-validation.cfg" --set memory.dram.preset=DDR4-3200 --set memory.dram.mapping=row:col || return 1
	expect_error 1 '--set memory.dram.tRCDD=1: unknown key "memory.dram.tRCDD" \(did you mean "memory.dram.tRCD"\?\)' \
		"$CONFIGS/esf-validation.cfg" --set memory.dram.tRCDD=1 || return 1
	expect_error 1 '.*memory.dram.preset: .*DDR3' \
		"$CONFIGS/esf-validation.cfg" --set memory.dram.preset=DDR3
}

test_dram_simple_is_default() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o a --set workload.requests=500 || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o b --set workload.requests=500 --set memory.dram.preset=simple || return 1
	results a/stats.json > a.res
	results b/stats.json | cmp -s a.res - || fail "explicit simple differs from the default" || return 1
	! grep -q row_hits a/components.csv || fail "simple model reports row statistics"
}

test_dram_per_device_override() {
	for n in 1 3; do
		cxl "$n" -q "$CONFIGS/esf-validation.cfg" -o "o$n" --set workload.requests=2000 \
			--set 'memory[mem1].dram.preset=DDR5-4800' --set 'memory[mem1].dram.page=closed' || return 1
		results "o$n/stats.json" > "o$n.res"
	done
	cmp -s o1.res o3.res || fail "per-device preset: 3 ranks differ from 1" || return 1
	[ "$(grep -c ',row_hits,' o1/components.csv)" = 1 ] && grep -q '^mem1,memory,.*,row_hits,' o1/components.csv ||
		fail "only mem1 should run the DDR model"
}
