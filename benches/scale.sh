#!/usr/bin/env bash
# How the emulator's and an export's cost grow with the table: for each size, a database of one
# 5-column table (NUMBER key, VARCHAR2, VARCHAR2, NUMBER(9,2), DATE) made by `emulator init`,
# then `emulator status`, a full CSV export (`snapshot --format csv`), capture's initial snapshot
# (the README's main job: `capture --stop-at-scn` the current SCN, a fresh state and sink
# directory, record schemas off) and `emulator dump` (JSON lines), each under /usr/bin/time for
# wall time and peak RSS. Prints one table (markdown). Capture writes ~760 B of records a row.
#
#   benches/scale.sh                 1M and 10M rows (50M with SCALE_SIZES="1000000 10000000 50000000")
#   SCALE_DIR=/big/disk benches/scale.sh   where the databases go (default: a temp dir; ~380 B of disk a row, and
#                                    ~75 B a row more while init runs: its spilled rows)
#   SCALE_KEEP=1                     keep the databases
#   SCALE_NO_BUILD=1                 use target/release/oracle-cdc as it is (no cargo build first)
#
# Not a test: no goal fails it. Run it on a quiet machine, and say the load (it prints uptime).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -n "${SCALE_NO_BUILD:-}" ]] || cargo build --release --quiet
# Where cargo put it: CARGO_TARGET_DIR when set.
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/oracle-cdc"
sizes=(${SCALE_SIZES:-1000000 10000000})
dir="${SCALE_DIR:-$(mktemp -d)}"
mkdir -p "$dir"
echo "load before: $(uptime)" >&2

timed() { # prints "seconds KiB"
    /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
}

rows_table=()
for n in "${sizes[@]}"; do
    schema="$dir/s$n.yaml"
    cat > "$schema" <<YAML
seed: 7
database:
  name: SCALE
  dbid: 1234567
  multitenant: false
  undo_retention: 900
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
    rows: $n
YAML
    db="$dir/db$n"
    rm -rf "$db" "$dir/out$n"
    echo "== $n rows: init" >&2
    read -r init_s init_kb < <(timed "$bin" emulator init "$db" --schema "$schema")
    echo "== $n rows: status" >&2
    read -r st_s st_kb < <(timed "$bin" emulator status "$db")
    echo "== $n rows: export" >&2
    read -r ex_s ex_kb < <(timed "$bin" snapshot --set "cdc.database.url=emulator:$db" \
        --set cdc.tables.include=APP.T --format csv --out "$dir/out$n")
    scn=$("$bin" -q emulator status "$db" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_scn"])')
    echo "== $n rows: capture's snapshot" >&2
    rm -rf "$dir/cap$n" "$dir/capstate$n"
    read -r cap_s cap_kb < <(timed "$bin" -q --set "cdc.database.url=emulator:$db" --set cdc.tables.include=APP.T \
        --set "cdc.sink.dir=$dir/cap$n" --set "cdc.state.dir=$dir/capstate$n" \
        --set cdc.key.converter.schemas.enable=false --set cdc.value.converter.schemas.enable=false \
        capture --stop-at-scn "$scn")
    rm -rf "$dir/cap$n" "$dir/capstate$n"
    echo "== $n rows: dump" >&2
    read -r dump_s dump_kb < <(timed "$bin" -q emulator dump "$db" --table APP.T)
    redo_mb=$(( $(stat -c %s "$db/redo.log") / 1048576 ))
    ckpt_mb=$(( $(stat -c %s "$db/checkpoint.dat") / 1048576 ))
    rows_table+=("$(python3 -c "
n=$n; i=$init_s; s=$st_s; e=$ex_s; c=$cap_s; d=$dump_s
print(f'| {n:,} | {i:.1f} s ({n/i/1e3:,.0f} k rows/s), {$init_kb/1024:,.0f} MiB | {s:.2f} s, {$st_kb/1024:,.0f} MiB | {e:.1f} s ({n/e/1e6:.2f} M rows/s), {$ex_kb/1024:,.0f} MiB | {c:.1f} s ({n/c/1e3:,.0f} k rows/s), {$cap_kb/1024:,.0f} MiB | {d:.1f} s, {$dump_kb/1024:,.0f} MiB | $redo_mb + $ckpt_mb MiB |')")")
    [[ -n "${SCALE_KEEP:-}" ]] || rm -rf "$db" "$dir/out$n"
done

echo "load after: $(uptime)" >&2
if (( ${#rows_table[@]} )); then
    echo "| rows | emulator init (time, rows/s, peak RSS) | emulator status (time, peak RSS) | CSV export (time, rows/s, peak RSS) | capture's snapshot, schemas off (time, rows/s, peak RSS) | emulator dump (time, peak RSS) | redo + checkpoint on disk |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows_table[@]}"
fi

# ---- Stream path: one big transaction (issue 23, h-stream) ------------------------------------
# One transaction of N changes of the stream bench's table (6 inserts, 3 updates, 1 delete in
# every 10; SQL_REDO from the emulator's renderer) through capture's transaction buffer at its
# default limit (cdc.stream.buffer.memory.bytes = 256 MiB; the rest spills to files), decode
# and Debezium-shaped records (JsonConverter schemas on, the default), into a sink that counts
# the bytes (the file sink's write is the stream bench's plain-write row: 3.8 KB a change, so
# 10M changes would be 38 GB of disk). `cargo bench --bench stream` with
# ORACLE_CDC_BENCH_BIG_TX=N, under /usr/bin/time for the peak RSS.
#   SCALE_TX_SIZES="1000 1000000 10000000" (default)   SCALE_TX_SIZES=none skips this table
#   SCALE_SIZES=" " skips the export table above
stream_tx_table() {
    local tx_sizes=(${SCALE_TX_SIZES:-1000 1000000 10000000})
    [[ "${tx_sizes[0]}" == none ]] && return
    local bench
    bench=$(cargo bench --bench stream --no-run --message-format=json 2>/dev/null \
        | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "stream" and m.get("executable"):
        print(m["executable"])' | tail -1)
    local rows=()
    for n in "${tx_sizes[@]}"; do
        echo "== stream: one transaction of $n changes" >&2
        local out
        out=$(ORACLE_CDC_BENCH_BIG_TX=$n /usr/bin/time -f "rss %M" "$bench" --bench 2>&1)
        read -r _ events lines bytes wall cpu generator < <(grep -E '^[0-9]+ ' <<<"$out" | tail -1)
        local kb
        kb=$(grep -E '^rss ' <<<"$out" | tail -1 | cut -d' ' -f2)
        rows+=("$(python3 -c "
n=$n; e=$events; w=$wall; c=$cpu; g=$generator; b=$bytes
rate = lambda t: f'{e/t/1e3:,.0f} k events/s' if t >= 0.05 else '(too short to time)'
size = f'{b/1e9:,.2f} GB' if b >= 1e9 else f'{b/1e6:,.1f} MB'
print(f'| {n:,} | {w:.2f} s | {c:.2f} s | {g:.2f} s | {rate(c - g)} | {size} | {$kb/1024:,.0f} MiB |')")")
    done
    echo
    echo "The generator renders each row's SQL_REDO as the buffer takes it (inside the clock); it is"
    echo "also timed alone, and the path's rate is of the CPU time without it."
    echo
    echo "| changes in the transaction | wall | CPU | of which the generator | events/s (CPU, path only) | record bytes | peak RSS |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
}
stream_tx_table

# ---- Capture's sinks and lag (issue 23, h-stream) ---------------------------------------------
# A database of one 5-column table (1,000 rows), captured once to its current SCN (snapshot and
# offsets in place), then `emulator workload --rate 0` (as fast as it writes); the capture that
# then streams the workload's changes to --stop-at-scn is timed (wall and CPU of the capture
# process, /usr/bin/time), once into the file sink and once into a local Kafka-compatible broker
# (tansu, in-memory storage, on loopback; as tests/all/kafka_sink.rs starts it). Records and bytes
# are the file sink's (the same changes give the same records in both).
# Lag: capture runs while the workload writes at a fixed rate for 20 s; per change record, the
# record's processing time (value ts_ms) minus its transaction's commit time (source
# commit_ts_ms: the host's DATE, whole seconds, so ±1 s), with cdc.stream.poll.ms at its default.
#   SCALE_SINK_TX=20000 (workload transactions)   SCALE_SINK_TX=none skips
#   SCALE_LAG_RATES="100 400" (transactions/s)    SCALE_LAG_RATES=none skips
sink_db() { # sink_db DIR: a fresh database of APP.T with 1,000 rows
    cat > "$1.yaml" <<YAML
seed: 7
database: { name: SCALE, dbid: 1234567, multitenant: false, undo_retention: 900 }
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
    rows: 1000
YAML
    rm -rf "$1"
    "$bin" -q emulator init "$1" --schema "$1.yaml" >/dev/null
}

scn_of() {
    "$bin" -q emulator status "$1" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_scn"])'
}

sink_table() {
    local ntx=${SCALE_SINK_TX:-20000}
    [[ "$ntx" == none ]] && return
    local tansu=${TANSU_BIN:-$(command -v tansu || echo "$HOME/.cargo/bin/tansu")}
    # Without a broker the Kafka capture would wait for one forever (delivery.timeout.ms=0).
    if [[ ! -x "$tansu" ]]; then
        echo "benches/scale.sh: no tansu at $tansu: the sink table is skipped (install it as .ci/run does:" \
            "cargo install tansu --version 0.6.0 --features dynostore --locked; or set TANSU_BIN)" >&2
        return
    fi
    local d="$dir/sinks" db="$dir/sinks/db"
    rm -rf "$d"; mkdir -p "$d"
    sink_db "$db"
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "$tansu" broker --listener-url "tcp://127.0.0.1:$port" --advertised-listener-url "tcp://127.0.0.1:$port" \
        --storage-engine memory://tansu/ >"$d/tansu.log" 2>&1 &
    local broker=$!
    local waited=0
    until python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do
        if ! kill -0 "$broker" 2>/dev/null || (( waited >= 30 )); then
            echo "benches/scale.sh: the broker did not start (see $d/tansu.log): the sink table is skipped" >&2
            kill "$broker" 2>/dev/null || true
            return
        fi
        sleep 1; waited=$((waited + 1))
    done
    local common=(--set "cdc.database.url=emulator:$db" --set cdc.tables.include=APP.T)
    local file=(--set cdc.sink.type=file --set "cdc.sink.dir=$d/out" --set "cdc.state.dir=$d/state-file")
    local kafka=(--set cdc.sink.type=kafka --set "cdc.sink.kafka.brokers=127.0.0.1:$port" --set "cdc.state.dir=$d/state-kafka")
    local start
    start=$(scn_of "$db")
    "$bin" -q "${common[@]}" "${file[@]}" capture --stop-at-scn "$start" >/dev/null
    "$bin" -q "${common[@]}" "${kafka[@]}" capture --stop-at-scn "$start" >/dev/null
    local before_lines before_bytes
    before_lines=$(cat "$d"/out/segment-*.jsonl | wc -l)
    before_bytes=$(cat "$d"/out/segment-*.jsonl | wc -c)
    echo "== sinks: workload of $ntx transactions" >&2
    "$bin" -q emulator workload "$db" --transactions "$ntx" --rate 0 --seed 7 >/dev/null
    local end
    end=$(scn_of "$db")
    echo "== sinks: file" >&2
    read -r f_wall f_user f_sys < <(/usr/bin/time -f "%e %U %S" "$bin" -q "${common[@]}" "${file[@]}" \
        capture --stop-at-scn "$end" 2>&1 >/dev/null | tail -1)
    echo "== sinks: kafka" >&2
    read -r k_wall k_user k_sys < <(/usr/bin/time -f "%e %U %S" "$bin" -q "${common[@]}" "${kafka[@]}" \
        capture --stop-at-scn "$end" 2>&1 >/dev/null | tail -1)
    kill "$broker" 2>/dev/null; wait "$broker" 2>/dev/null || true
    local lines bytes
    lines=$(( $(cat "$d"/out/segment-*.jsonl | wc -l) - before_lines ))
    bytes=$(( $(cat "$d"/out/segment-*.jsonl | wc -c) - before_bytes ))
    [[ -n "${SCALE_KEEP:-}" ]] || rm -rf "$d"
    echo
    echo "| sink | records | wall | CPU (user + sys) | records/s (wall) | MB/s (wall) |"
    echo "|---|---|---|---|---|---|"
    python3 -c "
n=$lines; b=$bytes
for name, w, u, s in (('file', $f_wall, $f_user, $f_sys), ('kafka (tansu, loopback)', $k_wall, $k_user, $k_sys)):
    print(f'| {name} | {n:,} | {w:.1f} s | {u+s:.1f} s | {n/w/1e3:,.1f} k | {b/w/1e6:,.1f} |')"
}

lag_table() {
    local rates=(${SCALE_LAG_RATES:-100 400})
    [[ "${rates[0]}" == none ]] && return
    local rows=()
    for r in "${rates[@]}"; do
        local d="$dir/lag$r" db="$dir/lag$r/db"
        rm -rf "$d"; mkdir -p "$d"
        sink_db "$db"
        local args=(--set "cdc.database.url=emulator:$db" --set cdc.tables.include=APP.T
            --set cdc.sink.type=file --set "cdc.sink.dir=$d/out" --set "cdc.state.dir=$d/state")
        "$bin" -q "${args[@]}" capture --stop-at-scn "$(scn_of "$db")" >/dev/null
        echo "== lag: workload at $r transactions/s for 20 s, capture running" >&2
        "$bin" -q "${args[@]}" capture >/dev/null 2>"$d/capture.err" &
        local cap=$!
        "$bin" -q emulator workload "$db" --duration 20s --rate "$r" --seed 7 >/dev/null
        local end
        end=$(scn_of "$db")
        # Caught up: the last record's SCN reaches the workload's end (or 60 s pass).
        for _ in $(seq 600); do
            if tail -c 20000 "$d"/out/segment-*.jsonl 2>/dev/null | python3 -c "
import json,sys
last=0
for l in sys.stdin:
    try: last=max(last,int(json.loads(l)['headers'].get('cdc.scn','0')))
    except Exception: pass
sys.exit(0 if last >= $end - 5 else 1)"; then break; fi
            sleep 0.1
        done
        kill "$cap" 2>/dev/null; wait "$cap" 2>/dev/null || true
        rows+=("$(cat "$d"/out/segment-*.jsonl | python3 -c "
import json,sys
lags=[]; n=0
for l in sys.stdin:
    r=json.loads(l); v=r.get('value')
    if not v: continue
    p=v.get('payload', v)
    if p.get('op') not in ('c','u','d'): continue
    n+=1
    lags.append(p['ts_ms'] - p['source']['commit_ts_ms'])
lags.sort()
q=lambda f: lags[min(len(lags)-1, int(f*len(lags)))] if lags else 0
print(f'| $r | {n:,} | {q(0.5):,} ms | {q(0.99):,} ms | {lags[-1] if lags else 0:,} ms |')")")
        [[ -n "${SCALE_KEEP:-}" ]] || rm -rf "$d"
    done
    echo
    echo "| workload (transactions/s) | change records | lag p50 | lag p99 | lag max |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
}
sink_table
lag_table
