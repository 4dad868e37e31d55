#!/usr/bin/env bash
# Memory of a snapshot flood: peak RSS of `oracle-cdc capture` reading a ROWS-row table with
# cdc.snapshot.threads, chunk.rows and max.pending.chunks at their defaults while a workload keeps
# committing (streaming has to catch up before every wave), next to the same capture with no
# snapshot (cdc.snapshot.mode=none): the difference is what the snapshot's chunks cost. The
# emulator runs inside the capture process, so both include its copy of the table.
#
#   benches/flood.sh               1,000,000 rows
#   ROWS=200000 benches/flood.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${ROWS:-1000000}
cargo build --release --quiet
# Where cargo put it: CARGO_TARGET_DIR when set.
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/oracle-cdc"
work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/schema.yaml" <<YAML
tables:
  - name: BENCH.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(50) }
      - { name: AMOUNT, type: "NUMBER(10,2)" }
      - { name: CREATED, type: DATE }
      - { name: NOTE, type: VARCHAR2(50) }
    primary_key: [ID]
    rows: $rows
YAML
"$bin" emulator init "$work/db" --schema "$work/schema.yaml" >&2

# One capture (snapshot mode $1) under a running workload; prints its peak RSS in MiB.
peak_rss() {
    local mode=$1 dir="$work/run-$1"
    mkdir -p "$dir"
    "$bin" emulator workload "$work/db" --duration 600s --rate 0 --seed 1 >/dev/null 2>&1 &
    local workload=$!
    pids+=("$workload")
    "$bin" --set "cdc.database.url=emulator:$work/db" --set "cdc.state.dir=$dir/state" \
        --set cdc.sink.type=file --set "cdc.sink.dir=$dir/sink" \
        --set "cdc.snapshot.mode=$mode" capture 2>"$dir/stderr" &
    local capture=$!
    pids+=("$capture")
    # The snapshot is done (or, with none, streaming has run as long as the snapshot did).
    local waited=0
    while kill -0 "$capture" 2>/dev/null; do
        if [[ $mode == none ]]; then
            ((waited >= $(cat "$work/snapshot_secs" 2>/dev/null || echo 30))) && break
        elif grep -q "done, " "$dir/stderr"; then
            echo "$waited" >"$work/snapshot_secs"
            break
        fi
        sleep 1
        waited=$((waited + 1))
    done
    # Peak RSS (VmHWM) of the capture process, read before it is stopped.
    local hwm
    hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$capture/status" 2>/dev/null || echo 0)
    echo "${hwm:-0}" >"$dir/maxrss"
    kill -TERM "$capture" 2>/dev/null || true
    wait "$capture" 2>/dev/null || true
    kill -KILL "$workload" 2>/dev/null || true
    wait "$workload" 2>/dev/null || true
    echo "mode $mode: $(($(cat "$dir/maxrss") / 1024)) MiB peak RSS, after ${waited} s" >&2
    echo $(($(cat "$dir/maxrss") / 1024))
}

snap=$(peak_rss initial)
stream=$(peak_rss none)
echo "| Rows | Peak RSS with the snapshot | Stream only (mode none) | Snapshot's share |"
echo "|---|---|---|---|"
echo "| $rows | $snap MiB | $stream MiB | $((snap - stream)) MiB |"
