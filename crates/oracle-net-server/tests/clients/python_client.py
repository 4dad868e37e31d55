"""python-oracledb (thin mode) against the toy backend of oracle-net-server's tests.

Usage: python_client.py HOST:PORT/SERVICE USER PASSWORD
Selects every type and compares with the expected values, reads LOBs both as locators and as
whole values, binds each type, runs PL/SQL with OUT binds, inserts with binds and commits,
checks errors, a call timeout and a killed session. Exits non-zero on any mismatch.
"""
import datetime
import decimal
import math
import sys
import time

import oracledb

DSN, USER, PASSWORD = sys.argv[1], sys.argv[2], sys.argv[3]
FAILURES = []


def check(what, got, want):
    same = got == want or (
        isinstance(want, float) and isinstance(got, float) and math.isnan(want) and math.isnan(got)
    )
    if not same:
        FAILURES.append(what)
        print(f"MISMATCH {what}: got {repr(got)[:200]}, want {repr(want)[:200]}", flush=True)


def expect_error(what, fn, code=None, text=None):
    try:
        fn()
    except oracledb.Error as e:
        err = e.args[0]
        if code is not None:
            check(f"{what} code", getattr(err, "code", None), code)
        if text is not None and text not in str(err):
            check(f"{what} message", str(err), text)
        return err
    check(what, "no error", "an error")
    return None


def read_lob(value):
    return value.read() if hasattr(value, "read") else value


D = decimal.Decimal
ALL_TYPES = [
    [
        1, D("12345678901234567890.123456789012345678"), "héllo wörld ✓", "abc       ",
        "ñandú 日本", "xy   ", 1.5, math.pi,
        datetime.datetime(2026, 12, 4, 10, 5, 9),
        datetime.datetime(2026, 12, 4, 10, 5, 9, 123456),
        datetime.datetime(2026, 12, 4, 10, 5, 9, 500000),
        datetime.datetime(2026, 1, 2, 3, 4, 5, 250000),
        oracledb.IntervalYM(1, 2),
        datetime.timedelta(days=1, hours=2, minutes=3, seconds=4.5),
        b"\xde\xad\xbe\xef", "AAAR3sAAEAAAACXAAA", 1, "clob ✓ text", b"\x01\x02\x03\xff", "nclob ü",
    ],
    [2] + [None] * 19,
    [
        3, D("-99999999999999999999999999999999999999"), "x" * 100, "z         ", "€", "€    ",
        math.inf, math.nan,
        datetime.datetime(1901, 1, 1),
        datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
        datetime.datetime(2000, 2, 29, 23, 30),
        datetime.datetime(1970, 1, 1),
        oracledb.IntervalYM(-1, -2),
        -datetime.timedelta(days=1, hours=2, minutes=3, seconds=4.5),
        bytes(16), "AAABBBAACAAAADDAAE", 0, "x" * 40000,
        bytes(i % 251 for i in range(70000)), "ü" * 5000,
    ],
]
COLUMNS = ["ID", "NUM", "V", "C", "NV", "NC", "BF", "BD", "D", "TS", "TSTZ", "TSLTZ", "IYM", "IDS",
           "R", "RID", "B", "CL", "BL", "NCL"]


def big_clob():
    unit = "0123456789abcdefghijklmnopqrstuvwxyzé✓\n"
    n = 5 * 1024 * 1024
    out, size = [], 0
    while size < n:
        out.append(unit)
        size += len(unit.encode())
    return "".join(out)


def select_all_types(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM ALL_TYPES")
        check("column names", [d[0] for d in cur.description], COLUMNS)
        check("NUMBER(10) precision", (cur.description[0][4], cur.description[0][5]), (10, 0))
        check("BOOLEAN as NUMBER", cur.description[16][1], oracledb.DB_TYPE_NUMBER)
        check("CLOB type", cur.description[17][1], oracledb.DB_TYPE_CLOB)
        check("NCLOB type", cur.description[19][1], oracledb.DB_TYPE_NCLOB)
        rows = [[read_lob(v) for v in row] for row in cur]
    check("ALL_TYPES rows", len(rows), 3)
    for r, (got, want) in enumerate(zip(rows, ALL_TYPES)):
        for name, g, w in zip(COLUMNS, got, want):
            check(f"row {r + 1} {name}", g, w)


def lobs_as_values(conn):
    # New statement texts: python-oracledb keeps a cached statement's fetch types.
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM ALL_TYPES WHERE 1 = 1")
        rows = cur.fetchall()
    check("CLOB as str", rows[2][17], "x" * 40000)
    check("BLOB as bytes", rows[2][18], bytes(i % 251 for i in range(70000)))
    check("NCLOB as str", rows[0][19], "nclob ü")
    with conn.cursor() as cur:
        cur.execute("SELECT ID, C, B FROM BIG_LOBS WHERE 1 = 1")
        _, c, b = cur.fetchone()
    check("5 MB CLOB as str", c == big_clob(), True)
    check("5 MB BLOB as bytes", b == bytes(i % 251 for i in range(5 * 1024 * 1024)), True)


def big_lobs_as_locators(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT ID, C, B FROM BIG_LOBS")
        _, c, b = cur.fetchone()
        check("5 MB CLOB size", c.size(), len(big_clob()))
        check("5 MB CLOB via LOB reads", c.read() == big_clob(), True)
        check("CLOB partial read", c.read(11, 5), "abcde")
        check("5 MB BLOB via LOB reads", b.read() == bytes(i % 251 for i in range(5 * 1024 * 1024)), True)


def numbers_and_rows(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT N FROM BIG_NUMBERS")
        got = [r[0] for r in cur]
    check("SCN", got[0], D("12345678901234567890123"))
    check("38 nines", got[1], D("99999999999999999999999999999999999999"))
    check("tiny", got[3], D("1E-36"))
    with conn.cursor() as cur:
        cur.arraysize = 500
        cur.execute("SELECT ID, NAME FROM MANY")
        n = 0
        for row in cur:
            n += 1
            if row != (n, f"row-{n}"):
                check(f"MANY row {n}", row, (n, f"row-{n}"))
                break
    check("MANY rows", n, 10000)
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM LONG_TYPES")
        check("LONG and UROWID", cur.fetchall(), [(1, "long text", "AAAR3sAAEAAAACXAAA"), (2, "l" * 100000, None)])
        cur.execute("SELECT * FROM LONG_RAWS")
        check("LONG RAW", cur.fetchall(), [(1, b"\x07" * 300)])


def binds(conn):
    when = datetime.datetime(2024, 2, 29, 13, 14, 15, 123000)
    values = [42, D("-12345678901234567890.5"), "héllo", b"\x01\x02\x03", -2.5, when,
              datetime.timedelta(days=5, seconds=3600, microseconds=7), True, None, "é" * 20000]
    sql = "SELECT ECHO(" + ", ".join(f":{i + 1}" for i in range(len(values))) + ") FROM DUAL"
    with conn.cursor() as cur:
        cur.execute(sql, values)
        row = [read_lob(v) for v in cur.fetchone()]
    want = list(values)
    want[5] = when.replace(microsecond=0)  # a datetime binds as DATE: no fractional seconds
    want[7] = 1  # BOOLEAN comes back as NUMBER 1 from a 19c server
    for i, (g, w) in enumerate(zip(row, want)):
        check(f"bind {i + 1}", g, w)
    with conn.cursor() as cur:
        cur.execute("SELECT ECHO(:a, :b, :a) FROM DUAL", a=7, b="x")
        check("repeated named binds", cur.fetchone(), (7, "x", 7))
    with conn.cursor() as cur:
        # National character set, BINARY_FLOAT and TIMESTAMP WITH TIME ZONE binds.
        nv = cur.var(oracledb.DB_TYPE_NVARCHAR)
        nv.setvalue(0, "ñandú 日本")
        bf = cur.var(oracledb.DB_TYPE_BINARY_FLOAT)
        bf.setvalue(0, 0.5)
        tz = cur.var(oracledb.DB_TYPE_TIMESTAMP_TZ)
        tz.setvalue(0, datetime.datetime(2026, 7, 1, 12, 0, 0, 250000))
        ym = cur.var(oracledb.DB_TYPE_INTERVAL_YM)
        ym.setvalue(0, oracledb.IntervalYM(-3, -4))
        cur.execute("SELECT ECHO(:1, :2, :3, :4) FROM DUAL", [nv, bf, tz, ym])
        check("NVARCHAR bind type", cur.description[0][1], oracledb.DB_TYPE_NVARCHAR)
        check("typed binds", cur.fetchone(), ("ñandú 日本", 0.5, datetime.datetime(2026, 7, 1, 12, 0, 0, 250000),
                                             oracledb.IntervalYM(-3, -4)))
        cur.parse("SELECT * FROM ALL_TYPES")
        check("parse describes", [d[0] for d in cur.description][:3], ["ID", "NUM", "V"])


def plsql(conn):
    with conn.cursor() as cur:
        y = cur.var(int)
        z = cur.var(str)
        z.setvalue(0, "abc")
        cur.execute("BEGIN TOY_PROC(:1, :2, :3); END;", [21, y, z])
        check("OUT bind", y.getvalue(), 42)
        check("IN OUT bind", z.getvalue(), "abc!")
        cur.execute("BEGIN TOY_PROC(:1, :2, :3); END;", [5, y, z])
        check("OUT bind again", y.getvalue(), 10)
        # Past 32K a PL/SQL string travels as a temporary CLOB (created, written, bound).
        big = cur.var(str, 100000)
        big.setvalue(0, "w" * 50000)
        cur.execute("BEGIN TOY_PROC(:1, :2, :3); END;", [1, y, big])
        check("IN OUT CLOB bind", big.getvalue(), "w" * 50000 + "!")


def dml(conn):
    with conn.cursor() as cur:
        cur.execute("INSERT INTO T (ID, NAME) VALUES (:1, :2)", [1, "one"])
        check("insert rowcount", cur.rowcount, 1)
        cur.executemany("INSERT INTO T (ID, NAME) VALUES (:1, :2)", [(2, "two"), (3, "three")],
                        arraydmlrowcounts=True)
        check("executemany rowcount", cur.rowcount, 2)
        check("array DML row counts", cur.getarraydmlrowcounts(), [1, 1])
        conn.commit()
        cur.execute("INSERT INTO T (ID, NAME) VALUES (:1, :2)", [4, "four"])
        conn.rollback()
        cur.execute("SELECT COUNT(*) FROM T")
        check("committed rows", cur.fetchone()[0], 3)
        cur.execute("UPDATE T SET NAME = NAME")
        check("update rowcount", cur.rowcount, 3)


def errors(conn):
    with conn.cursor() as cur:
        err = expect_error("missing table", lambda: cur.execute("SELECT * FROM NOPE"), 942)
        if err is not None:
            check("error offset", err.offset, 14)
        cur.arraysize = 2
        cur.prefetchrows = 2
        cur.execute("SELECT FAIL FROM MIDWAY")
        got = []
        expect_error("mid-fetch error", lambda: got.extend(cur), 1722)
        check("rows before the error", 2 <= len(got) <= 5, True)
        cur.execute("SELECT DBTIMEZONE FROM DUAL")
        check("session goes on", cur.fetchone()[0], "+00:00")


def call_timeout(conn):
    conn.call_timeout = 500
    started = time.monotonic()
    with conn.cursor() as cur:
        expect_error("call timeout", lambda: cur.execute("SELECT SLOW FROM DUAL"), text="DPY-4024")
    elapsed = time.monotonic() - started
    check("timeout returned before the statement ended", elapsed < 2.5, True)
    conn.call_timeout = 0
    with conn.cursor() as cur:
        cur.execute("SELECT DBTIMEZONE FROM DUAL")
        check("usable after a timeout", cur.fetchone()[0], "+00:00")


def killed(conn):
    with conn.cursor() as cur:
        expect_error("killed session", lambda: cur.execute("SELECT KILL FROM DUAL"), 28)
    check("dead after kill", conn.is_healthy(), False)


def main():
    expect_error("wrong password", lambda: oracledb.connect(user=USER, password="wrong", dsn=DSN), 1017)
    conn = oracledb.connect(user=USER, password=PASSWORD, dsn=DSN)
    check("thin mode", conn.thin, True)
    # End-to-end attributes ride along the next call as a piggyback.
    conn.module = "oracle-net-test"
    conn.client_identifier = "tester"
    conn.action = ""
    check("server version", conn.version, "19.22.0.0.0")
    oracledb.defaults.fetch_decimals = True
    select_all_types(conn)
    big_lobs_as_locators(conn)
    oracledb.defaults.fetch_lobs = False
    lobs_as_values(conn)
    oracledb.defaults.fetch_lobs = True
    numbers_and_rows(conn)
    binds(conn)
    plsql(conn)
    dml(conn)
    errors(conn)
    call_timeout(conn)
    conn.ping()
    killed(conn)
    if FAILURES:
        print(f"FAILED: {len(FAILURES)} mismatches", flush=True)
        sys.exit(1)
    print("python-oracledb client: ok", flush=True)


if __name__ == "__main__":
    main()
