#!/usr/bin/env bash
# How the emulator's and an export's cost grow with the table: for each size, a database of one
# 5-column table (NUMBER key, VARCHAR2, VARCHAR2, NUMBER(9,2), DATE) made by `emulator init`,
# then `emulator status` and a full CSV export (`snapshot --format csv`), each under
# /usr/bin/time for wall time and peak RSS. Prints one table (markdown).
#
#   benches/scale.sh                 1M and 10M rows (50M with SCALE_SIZES="1000000 10000000 50000000")
#   SCALE_DIR=/big/disk benches/scale.sh   where the databases go (default: a temp dir; ~380 B of disk a row)
#   SCALE_KEEP=1                     keep the databases
#
# Not a test: no goal fails it. Run it on a quiet machine, and say the load (it prints uptime).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/oracle-cdc"
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
    redo_mb=$(( $(stat -c %s "$db/redo.log") / 1048576 ))
    ckpt_mb=$(( $(stat -c %s "$db/checkpoint.dat") / 1048576 ))
    rows_table+=("$(python3 -c "
n=$n; i=$init_s; s=$st_s; e=$ex_s
print(f'| {n:,} | {i:.1f} s ({n/i/1e3:,.0f} k rows/s), {$init_kb/1024:,.0f} MiB | {s:.2f} s, {$st_kb/1024:,.0f} MiB | {e:.1f} s ({n/e/1e6:.2f} M rows/s), {$ex_kb/1024:,.0f} MiB | $redo_mb + $ckpt_mb MiB |')")")
    [[ -n "${SCALE_KEEP:-}" ]] || rm -rf "$db" "$dir/out$n"
done

echo "load after: $(uptime)" >&2
echo "| rows | emulator init (time, rows/s, peak RSS) | emulator status (time, peak RSS) | CSV export (time, rows/s, peak RSS) | redo + checkpoint on disk |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows_table[@]}"

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
        read -r _ events lines bytes wall cpu < <(grep -E '^[0-9]+ ' <<<"$out" | tail -1)
        local kb
        kb=$(grep -E '^rss ' <<<"$out" | tail -1 | cut -d' ' -f2)
        rows+=("$(python3 -c "
n=$n; e=$events; w=$wall; c=$cpu; b=$bytes
print(f'| {n:,} | {w:.2f} s | {c:.2f} s | {e/c/1e3:,.0f} k events/s | {b/1e9:,.2f} GB | {$kb/1024:,.0f} MiB |')")")
    done
    echo
    echo "| changes in the transaction | wall | CPU | events/s (CPU) | record bytes | peak RSS |"
    echo "|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
}
stream_tx_table
