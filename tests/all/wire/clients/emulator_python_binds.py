"""python-oracledb (thin mode): how `oracle-cdc emulator serve` takes character binds.

usage: emulator_python_binds.py HOST:PORT/SERVICE USER PASSWORD TEXT

Selects TEXT back bound as VARCHAR2 (python-oracledb's default for str: the database character
set), bound as NVARCHAR2 (setinputsizes DB_TYPE_NVARCHAR: the national set), as UNISTR of its
escapes, and written in the statement as a literal and as an N'' literal (the statement text is
converted to the database character set, literals and all); prints one JSON object with the
five answers. Exits non-zero on any error.
"""
import json
import sys

import oracledb

dsn, user, password, text = sys.argv[1:5]
assert oracledb.is_thin_mode()
conn = oracledb.connect(user=user, password=password, dsn=dsn)
cur = conn.cursor()
cur.execute("SELECT :1 FROM DUAL", [text])
(varchar,) = cur.fetchone()
cur.setinputsizes(oracledb.DB_TYPE_NVARCHAR)
cur.execute("SELECT :1 FROM DUAL", [text])
(nvarchar,) = cur.fetchone()


def escape(c):
    if c == "\\":
        return "\\\\"
    if c.isascii():
        return c
    b = c.encode("utf-16-be")
    return "".join("\\%04X" % int.from_bytes(b[i : i + 2], "big") for i in range(0, len(b), 2))


escaped = "".join(escape(c) for c in text)
cur.execute("SELECT UNISTR(:1) FROM DUAL", [escaped])
(unistr,) = cur.fetchone()
quoted = text.replace("'", "''")
cur.execute(f"SELECT '{quoted}', N'{quoted}' FROM DUAL")
literal, nliteral = cur.fetchone()
print(
    json.dumps(
        {
            "varchar": varchar,
            "nvarchar": nvarchar,
            "unistr": unistr,
            "literal": literal,
            "nliteral": nliteral,
        }
    )
)
