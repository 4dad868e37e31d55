"""python-oracledb (thin mode) against `oracle-cdc emulator serve`.

usage: emulator_python.py HOST:PORT/SERVICE USER PASSWORD SCN FIRST_ID

Prints V$DATABASE's name and CURRENT_SCN, then every row of HR.EMPLOYEES AS OF SCN, one JSON
object per line in `emulator dump`'s encoding (DATE as epoch ms, TIMESTAMP as epoch µs, NUMBER
with a scale as text), then inserts two rows from FIRST_ID with binds and commits, and prints
`inserted N`. Exits non-zero on any error.
"""
import datetime
import decimal
import json
import sys

import oracledb

dsn, user, password, scn, first_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
assert oracledb.is_thin_mode()
oracledb.defaults.fetch_decimals = True
conn = oracledb.connect(user=user, password=password, dsn=dsn)
cur = conn.cursor()
cur.execute("SELECT NAME, CURRENT_SCN FROM V$DATABASE")
name, current = cur.fetchone()
print(json.dumps({"database": name, "current_scn": int(current)}))

EPOCH = datetime.datetime(1970, 1, 1)


def encode(v):
    if v is None:
        return None
    if isinstance(v, decimal.Decimal):
        return int(v) if v == v.to_integral_value() and v.as_tuple().exponent >= 0 else str(v)
    if isinstance(v, datetime.datetime):
        return v - EPOCH
    return v


cur.arraysize = 50
cur.execute(
    "SELECT ID, NAME, EMAIL, REGION, SALARY, HIRED, UPDATED_AT FROM HR.EMPLOYEES AS OF SCN :scn ORDER BY ID",
    scn=scn,
)
names = [d[0] for d in cur.description]
for row in cur:
    out = {}
    for n, v in zip(names, row):
        if n == "HIRED" and v is not None:
            out[n] = int((v - EPOCH).total_seconds()) * 1000
        elif n == "UPDATED_AT" and v is not None:
            d = v - EPOCH
            out[n] = (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds
        elif n == "SALARY" and v is not None:
            out[n] = format(v, "f")
        elif isinstance(v, decimal.Decimal):
            out[n] = int(v)
        else:
            out[n] = v
    print(json.dumps(out))

rows = [
    (first_id, "py-one", decimal.Decimal("1234.50"), datetime.datetime(2024, 2, 29, 13, 14, 15)),
    (first_id + 1, "py-two", decimal.Decimal("-0.01"), datetime.datetime(1999, 12, 31, 23, 59, 59)),
]
cur.executemany(
    "INSERT INTO HR.EMPLOYEES (ID, NAME, SALARY, HIRED) VALUES (:1, :2, :3, :4)", rows
)
conn.commit()
print(f"inserted {len(rows)}")
conn.close()
