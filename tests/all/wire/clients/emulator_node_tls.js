// node oracledb (thin mode) over TCPS against `oracle-cdc emulator serve --tls-cert --tls-key`.
// usage: node emulator_node_tls.js tcps://HOST:PORT/SERVICE USER PASSWORD SCN
// Connects, the server's certificate checked against the host, and prints V$DATABASE's name and
// the IDs of HR.EMPLOYEES AS OF SCN as JSON lines; a failed connection prints {"error": …}.
// One-way TLS trusts the CA named by NODE_EXTRA_CA_CERTS, as node-oracledb's documentation
// says: its walletLocation wants a wallet with a client key (it loads the file as certificate,
// key and CA at once).
const oracledb = require('oracledb');
const [dsn, user, password, scn] = process.argv.slice(2);
(async () => {
  if (!oracledb.thin) throw new Error('not in thin mode');
  oracledb.fetchAsString = [oracledb.NUMBER];
  let conn;
  try {
    conn = await oracledb.getConnection({ user, password, connectString: dsn });
  } catch (e) {
    console.log(JSON.stringify({ error: e.message.replace(/\s+/g, ' ') }));
    return;
  }
  let r = await conn.execute('SELECT NAME FROM V$DATABASE');
  console.log(JSON.stringify({ database: r.rows[0][0] }));
  r = await conn.execute('SELECT ID FROM HR.EMPLOYEES AS OF SCN :scn ORDER BY ID', { scn: Number(scn) });
  console.log(JSON.stringify({ ids: r.rows.map(([id]) => Number(id)) }));
  await conn.close();
})().catch((e) => { console.error('FAILED', e.message); process.exit(1); });
