"""python-oracledb (thin mode) over TCPS against `oracle-cdc emulator serve --tls-cert --tls-key`.

usage: emulator_python_tls.py tcps://HOST:PORT/SERVICE USER PASSWORD WALLET_DIR SCN

HOST must be a name the certificate holds as a DNS name (localhost): python-oracledb matches
the host against those, not against IP addresses.

First connects without a wallet (the test CA is no public one: the handshake must fail) and
prints {"untrusted": the error and its cause}; then with wallet_location=WALLET_DIR (its
ewallet.pem holds the CA certificate), checking the server's certificate names the host
(python-oracledb's ssl_server_dn_match, on by default), and prints V$DATABASE's name and the
IDs of HR.EMPLOYEES AS OF SCN, one JSON object per line. Exits non-zero on any other error.
"""
import json
import sys

import oracledb

dsn, user, password, wallet, scn = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
assert oracledb.is_thin_mode()
try:
    oracledb.connect(user=user, password=password, dsn=dsn)
    print(json.dumps({"untrusted": "connected"}))
except oracledb.Error as e:
    # DPY-6005 names no reason; the ssl module's error is its cause.
    print(json.dumps({"untrusted": " ".join(f"{e} {e.__cause__}".split())}))
conn = oracledb.connect(user=user, password=password, dsn=dsn, wallet_location=wallet)
cur = conn.cursor()
cur.execute("SELECT NAME FROM V$DATABASE")
print(json.dumps({"database": cur.fetchone()[0]}))
cur.execute("SELECT ID FROM HR.EMPLOYEES AS OF SCN :scn ORDER BY ID", scn=scn)
print(json.dumps({"ids": [int(r[0]) for r in cur]}))
conn.close()
