#!/usr/bin/env bash
# What Oracle Net costs: the same work in-process (cdc.database.url=emulator:DIR) and over the wire
# (`emulator serve DIR` on loopback, the adapter on the thin driver, cdc.database.url=host:port/DB),
# on one database of one 5-column table (NUMBER key, VARCHAR2, VARCHAR2, NUMBER(9,2), DATE):
#   - the export: `snapshot --format csv` of the whole table;
#   - capture's snapshot: `capture --stop-at-scn` of a fresh state directory (chunked snapshot);
#   - capture's stream: then `emulator workload --rate 0` of WIRE_TX transactions, and the
#     capture that streams them to --stop-at-scn.
# Each pair runs WIRE_RUNS times, alternating which side goes first; medians of wall time (the
# serving process's CPU is part of the wire's cost: it runs beside the client on the same cores).
# Prints one markdown table.
#
#   WIRE_ROWS=1000000 (default)   WIRE_TX=20000   WIRE_RUNS=3
#   WIRE_SDU=65536 (the server's DEFAULT_SDU_SIZE, `emulator serve --sdu`: a 23ai database's
#   default; WIRE_SDU=8192 is a 19c database's)
#   WIRE_DIR=/big/disk            WIRE_NO_BUILD=1 (use target/release/oracle-cdc as it is)
#
# Not a test: no goal fails it. Run it on a quiet machine, and say the load (it prints uptime).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -n "${WIRE_NO_BUILD:-}" ]] || cargo build --release --quiet
# Where cargo put it: CARGO_TARGET_DIR when set.
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/oracle-cdc"
rows=${WIRE_ROWS:-1000000}
ntx=${WIRE_TX:-20000}
runs=${WIRE_RUNS:-3}
sdu=${WIRE_SDU:-65536}
dir="${WIRE_DIR:-$(mktemp -d)}"
mkdir -p "$dir"
echo "load before: $(uptime)" >&2

cat > "$dir/schema.yaml" <<YAML
seed: 7
database: { name: WIRE, dbid: 1234567, multitenant: false, undo_retention: 3600 }
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(12), nullable: false }
      - { name: NAME, type: VARCHAR2(40), generate: { text: { min: 3, max: 12 } } }
      - { name: REGION, type: VARCHAR2(8), generate: { choice: [EMEA, APAC, AMER] } }
      - { name: AMOUNT, type: "NUMBER(9,2)", generate: { decimal: { min: 1, max: 9000, scale: 2 } } }
      - { name: CREATED, type: DATE }
    primary_key: [ID]
    supplemental_logging: all
    rows: $rows
YAML
db="$dir/db"
rm -rf "$db"
echo "== init $rows rows" >&2
"$bin" -q emulator init "$db" --schema "$dir/schema.yaml" >/dev/null

"$bin" emulator serve "$db" --listen 127.0.0.1:0 --sdu "$sdu" --format json >"$dir/serve.json" 2>"$dir/serve.log" &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q '}' "$dir/serve.json" 2>/dev/null && break; sleep 0.1; done
url=$(python3 -c "import json; print(json.load(open('$dir/serve.json'))['services'][0]['url'])")
export ORACLE_CDC_DATABASE_PASSWORD=emulator
local_db=(--set "cdc.database.url=emulator:$db" --set cdc.tables.include=APP.T)
wire_db=(--set "cdc.database.url=$url" --set cdc.database.user=CDC --set cdc.tables.include=APP.T)

wall() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

export_l=(); export_w=(); snap_l=(); snap_w=()
for i in $(seq "$runs"); do
    for side in $( ((i % 2)) && echo "l w" || echo "w l"); do
        rm -rf "$dir/out-$side" "$dir/cap-$side" "$dir/state-$side" "$dir/state-cap-$side"
        if [[ $side == l ]]; then args=("${local_db[@]}"); else args=("${wire_db[@]}"); fi
        echo "== run $i: export ($side)" >&2
        t=$(wall "$bin" -q "${args[@]}" --set "cdc.state.dir=$dir/state-$side" snapshot --format csv --out "$dir/out-$side")
        if [[ $side == l ]]; then export_l+=("$t"); else export_w+=("$t"); fi
        scn=$("$bin" -q emulator status "$db" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_scn"])')
        echo "== run $i: capture's snapshot ($side)" >&2
        t=$(wall "$bin" -q "${args[@]}" --set "cdc.state.dir=$dir/state-cap-$side" --set "cdc.sink.dir=$dir/cap-$side" \
            --set cdc.key.converter.schemas.enable=false --set cdc.value.converter.schemas.enable=false \
            capture --stop-at-scn "$scn")
        if [[ $side == l ]]; then snap_l+=("$t"); else snap_w+=("$t"); fi
        [[ $i == "$runs" ]] || rm -rf "$dir/state-cap-$side" "$dir/cap-$side"
    done
done

echo "== workload of $ntx transactions" >&2
"$bin" -q emulator workload "$db" --transactions "$ntx" --rate 0 --seed 7 >/dev/null
end=$("$bin" -q emulator status "$db" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_scn"])')
before=$(cat "$dir"/cap-l/segment-*.jsonl | wc -l)
echo "== stream (l)" >&2
stream_l=$(wall "$bin" -q "${local_db[@]}" --set "cdc.state.dir=$dir/state-cap-l" --set "cdc.sink.dir=$dir/cap-l" \
    --set cdc.key.converter.schemas.enable=false --set cdc.value.converter.schemas.enable=false capture --stop-at-scn "$end")
echo "== stream (w)" >&2
stream_w=$(wall "$bin" -q "${wire_db[@]}" --set "cdc.state.dir=$dir/state-cap-w" --set "cdc.sink.dir=$dir/cap-w" \
    --set cdc.key.converter.schemas.enable=false --set cdc.value.converter.schemas.enable=false capture --stop-at-scn "$end")
events=$(( $(cat "$dir"/cap-l/segment-*.jsonl | wc -l) - before ))
same=$(cmp -s <(cat "$dir"/cap-l/segment-*.jsonl | python3 -c 'import sys,json
for l in sys.stdin:
    r=json.loads(l); v=r.get("value") or {}; v.pop("ts_ms",None); print(json.dumps([r.get("key"),v.get("after"),v.get("op")]))') \
    <(cat "$dir"/cap-w/segment-*.jsonl | python3 -c 'import sys,json
for l in sys.stdin:
    r=json.loads(l); v=r.get("value") or {}; v.pop("ts_ms",None); print(json.dumps([r.get("key"),v.get("after"),v.get("op")]))') && echo yes || echo NO)

echo "load after: $(uptime)" >&2
python3 - "$rows" "$events" "$(median "${export_l[@]}")" "$(median "${export_w[@]}")" \
    "$(median "${snap_l[@]}")" "$(median "${snap_w[@]}")" "$stream_l" "$stream_w" "$same" "$runs" "$sdu" <<'PY'
import sys
rows, events = int(sys.argv[1]), int(sys.argv[2])
el, ew, sl, sw, tl, tw = map(float, sys.argv[3:9])
same, runs = sys.argv[9], sys.argv[10]
def r(n, t, unit): return f"{t:.2f} s ({n/t/1e3:,.0f} k {unit}/s)"
print(f"| work ({rows:,} rows; {events:,} change events; server SDU {sys.argv[11]}) | in-process | over Oracle Net | wire / in-process |")
print("|---|---|---|---|")
print(f"| export, `snapshot --format csv` (median of {runs}) | {r(rows, el, 'rows')} | {r(rows, ew, 'rows')} | {ew/el:.2f}x |")
print(f"| capture's snapshot (median of {runs}) | {r(rows, sl, 'rows')} | {r(rows, sw, 'rows')} | {sw/sl:.2f}x |")
print(f"| capture's stream of the workload | {r(events, tl, 'events')} | {r(events, tw, 'events')} | {tw/tl:.2f}x |")
print()
print(f"Same records either way (key, after, op): {same}.")
PY
