// node oracledb (thin mode) against `oracle-cdc emulator serve`.
// usage: node emulator_node.js HOST:PORT/SERVICE USER PASSWORD SCN FIRST_ID
// Prints V$DATABASE's name, then ID, NAME, SALARY (text) and HIRED (epoch ms) of every row of
// HR.EMPLOYEES AS OF SCN as JSON lines, inserts two rows from FIRST_ID and commits. Run with
// TZ=UTC so DATEs read as UTC (node-oracledb maps them through JavaScript's local time).
const oracledb = require('oracledb');
const [dsn, user, password, scn, firstId] = process.argv.slice(2);
(async () => {
  if (!oracledb.thin) throw new Error('not in thin mode');
  oracledb.fetchAsString = [oracledb.NUMBER];
  const conn = await oracledb.getConnection({ user, password, connectString: dsn });
  let r = await conn.execute('SELECT NAME, CURRENT_SCN FROM V$DATABASE');
  console.log(JSON.stringify({ database: r.rows[0][0], current_scn: Number(r.rows[0][1]) }));
  r = await conn.execute(
    'SELECT ID, NAME, SALARY, HIRED FROM HR.EMPLOYEES AS OF SCN :scn ORDER BY ID',
    { scn: Number(scn) },
    { fetchArraySize: 40, prefetchRows: 40 });
  for (const [id, name, salary, hired] of r.rows) {
    console.log(JSON.stringify({ ID: Number(id), NAME: name, SALARY: salary, HIRED: hired === null ? null : hired.getTime() }));
  }
  const first = Number(firstId);
  await conn.execute('INSERT INTO HR.EMPLOYEES (ID, NAME, SALARY) VALUES (:id, :name, :salary)',
    { id: first, name: 'node-one', salary: '77.7' });
  await conn.execute('INSERT INTO HR.EMPLOYEES (ID, NAME, SALARY) VALUES (:id, :name, :salary)',
    { id: first + 1, name: 'node-two', salary: '-5' });
  await conn.commit();
  console.log('inserted 2');
  await conn.close();
})().catch((e) => { console.error('FAILED', e.message); process.exit(1); });
