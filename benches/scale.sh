#!/usr/bin/env bash
# How the emulator's and an export's cost grow with the table: for each size, a database of one
# 5-column table (NUMBER key, VARCHAR2, VARCHAR2, NUMBER(9,2), DATE) made by `emulator init`,
# then `emulator status` and a full CSV export (`snapshot --format csv`), each under
# /usr/bin/time for wall time and peak RSS. Prints one table (markdown).
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
