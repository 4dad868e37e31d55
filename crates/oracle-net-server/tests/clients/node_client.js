// node-oracledb (thin mode) against the toy backend of oracle-net-server's tests.
//
// Usage: node node_client.js HOST:PORT/SERVICE USER PASSWORD   (with TZ=UTC)
// Selects every type and compares with the expected values, reads LOBs as Lob objects and as
// strings/buffers, binds each type, runs PL/SQL with OUT binds, inserts with binds and commits,
// checks errors and a call timeout. Exits non-zero on any mismatch.
'use strict';
const oracledb = require('oracledb');
const assert = require('assert');

const [dsn, user, password] = process.argv.slice(2);
const failures = [];

function check(what, got, want) {
  try {
    assert.deepStrictEqual(got, want);
  } catch (e) {
    failures.push(what);
    const show = (v) => String(Buffer.isBuffer(v) ? v.toString('hex') : JSON.stringify(v)).slice(0, 200);
    console.log(`MISMATCH ${what}: got ${show(got)}, want ${show(want)}`);
  }
}

async function expectError(what, fn, prefix) {
  try {
    await fn();
  } catch (e) {
    if (prefix && !String(e.message).startsWith(prefix)) check(`${what} message`, e.message, prefix);
    return e;
  }
  check(what, 'no error', 'an error');
  return null;
}

const date = (s) => new Date(s);
const expected = [
  {
    ID: 1, NUM: '12345678901234567890.123456789012345678', V: 'héllo wörld ✓', C: 'abc       ',
    NV: 'ñandú 日本', NC: 'xy   ', BF: 1.5, BD: Math.PI,
    D: date('2026-12-04T10:05:09.000Z'), TS: date('2026-12-04T10:05:09.123Z'),
    TSTZ: date('2026-12-04T04:35:09.500Z'), TSLTZ: date('2026-01-02T03:04:05.250Z'),
    IYM: {years: 1, months: 2}, IDS: {days: 1, hours: 2, minutes: 3, seconds: 4, fseconds: 500000000},
    R: Buffer.from('deadbeef', 'hex'), RID: 'AAAR3sAAEAAAACXAAA', B: 1, CL: 'clob ✓ text',
    BL: Buffer.from([1, 2, 3, 255]), NCL: 'nclob ü',
  },
  null,
  {
    ID: 3, NUM: '-99999999999999999999999999999999999999', V: 'x'.repeat(100), C: 'z         ',
    NV: '€', NC: '€    ', BF: Infinity, BD: NaN,
    D: date('1901-01-01T00:00:00.000Z'), TS: date('9999-12-31T23:59:59.999Z'),
    TSTZ: date('2000-03-01T07:30:00.000Z'), TSLTZ: date('1970-01-01T00:00:00.000Z'),
    IYM: {years: -1, months: -2}, IDS: {days: -1, hours: -2, minutes: -3, seconds: -4, fseconds: -500000000},
    R: Buffer.alloc(16), RID: 'AAABBBAACAAAADDAAE', B: 0, CL: 'x'.repeat(40000),
    BL: Buffer.from(Array.from({length: 70000}, (_, i) => i % 251)), NCL: 'ü'.repeat(5000),
  },
];

function plain(v) {
  // Interval and other driver objects compare by their fields.
  if (v && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v)) return {...v};
  return v;
}

async function selectAllTypes(conn) {
  const r = await conn.execute('SELECT * FROM ALL_TYPES', [], {
    outFormat: oracledb.OUT_FORMAT_OBJECT,
    fetchInfo: {NUM: {type: oracledb.STRING}},
  });
  check('rows', r.rows.length, 3);
  check('BOOLEAN as NUMBER', r.metaData[16].dbType, oracledb.DB_TYPE_NUMBER);
  for (let i = 0; i < r.rows.length; i++) {
    const row = r.rows[i];
    for (const [k, v] of Object.entries(row)) {
      let value = v;
      if (value && typeof value.getData === 'function') value = await value.getData();
      const want = expected[i] === null ? (k === 'ID' ? 2 : null) : expected[i][k];
      if (typeof want === 'number' && Number.isNaN(want)) {
        check(`row ${i + 1} ${k}`, Number.isNaN(value), true);
      } else {
        check(`row ${i + 1} ${k}`, plain(value), want);
      }
    }
  }
}

function bigClob() {
  const unit = '0123456789abcdefghijklmnopqrstuvwxyzé✓\n';
  const n = 5 * 1024 * 1024;
  const parts = [];
  let size = 0;
  while (size < n) {
    parts.push(unit);
    size += Buffer.byteLength(unit);
  }
  return parts.join('');
}

async function bigLobs(conn) {
  const blob = Buffer.from(Array.from({length: 5 * 1024 * 1024}, (_, i) => i % 251));
  let r = await conn.execute('SELECT ID, C, B FROM BIG_LOBS');
  check('5 MB CLOB via LOB reads', (await r.rows[0][1].getData()) === bigClob(), true);
  check('5 MB BLOB via LOB reads', blob.equals(await r.rows[0][2].getData()), true);
  r = await conn.execute('SELECT ID, C, B FROM BIG_LOBS WHERE 1 = 1', [], {
    fetchInfo: {C: {type: oracledb.STRING}, B: {type: oracledb.BUFFER}},
  });
  check('5 MB CLOB as a string', r.rows[0][1] === bigClob(), true);
  check('5 MB BLOB as a buffer', blob.equals(r.rows[0][2]), true);
}

async function numbersAndRows(conn) {
  let r = await conn.execute('SELECT N FROM BIG_NUMBERS', [], {fetchInfo: {N: {type: oracledb.STRING}}});
  check('SCN', r.rows[0][0], '12345678901234567890123');
  check('38 nines', r.rows[1][0], '99999999999999999999999999999999999999');
  r = await conn.execute('SELECT ID, NAME FROM MANY', [], {fetchArraySize: 500, prefetchRows: 500});
  check('MANY rows', r.rows.length, 10000);
  check('MANY last', r.rows[9999], [10000, 'row-10000']);
  r = await conn.execute('SELECT * FROM LONG_TYPES');
  check('LONG and UROWID', r.rows, [[1, 'long text', 'AAAR3sAAEAAAACXAAA'], [2, 'l'.repeat(100000), null]]);
  r = await conn.execute('SELECT * FROM LONG_RAWS');
  check('LONG RAW', r.rows, [[1, Buffer.alloc(300, 7)]]);
}

async function binds(conn) {
  const when = new Date('2024-02-29T13:14:15.123Z');
  const values = [42, 'héllo', Buffer.from([1, 2, 3]), -2.5, when, true, null, 'é'.repeat(20000)];
  const sql = 'SELECT ECHO(' + values.map((_, i) => `:${i + 1}`).join(', ') + ') FROM DUAL';
  const r = await conn.execute(sql, values, {fetchInfo: {B8: {type: oracledb.STRING}}});
  const row = r.rows[0];
  check('bind NUMBER', row[0], 42);
  check('bind VARCHAR2', row[1], 'héllo');
  check('bind RAW', row[2], Buffer.from([1, 2, 3]));
  check('bind number', row[3], -2.5);
  check('bind TIMESTAMP', row[4], when);
  check('bind BOOLEAN', row[5], 1);
  check('bind NULL', row[6], null);
  let big = row[7];
  if (big && typeof big.getData === 'function') big = await big.getData();
  check('bind long string', big, 'é'.repeat(20000));
  const again = await conn.execute('SELECT ECHO(:a, :b, :a) FROM DUAL', {a: 7, b: 'x'});
  check('repeated named binds', again.rows[0], [7, 'x', 7]);
}

async function plsql(conn) {
  const r = await conn.execute('BEGIN TOY_PROC(:x, :y, :z); END;', {
    x: 21,
    y: {dir: oracledb.BIND_OUT, type: oracledb.NUMBER},
    z: {dir: oracledb.BIND_INOUT, val: 'abc', type: oracledb.STRING, maxSize: 100},
  });
  check('OUT bind', r.outBinds.y, 42);
  check('IN OUT bind', r.outBinds.z, 'abc!');
}

async function dml(conn) {
  let r = await conn.execute('INSERT INTO T (ID, NAME) VALUES (:1, :2)', [1, 'one']);
  check('insert rowsAffected', r.rowsAffected, 1);
  r = await conn.executeMany('INSERT INTO T (ID, NAME) VALUES (:1, :2)', [[2, 'two'], [3, 'three']]);
  check('executeMany rowsAffected', r.rowsAffected, 2);
  await conn.commit();
  await conn.execute('INSERT INTO T (ID, NAME) VALUES (:1, :2)', [4, 'four']);
  await conn.rollback();
  r = await conn.execute('SELECT COUNT(*) FROM T');
  check('committed rows', r.rows[0][0], 3);
}

async function errors(conn) {
  const e = await expectError('missing table', () => conn.execute('SELECT * FROM NOPE'), 'ORA-00942');
  if (e) check('error offset', e.offset, 14);
  await expectError('mid-fetch error', () => conn.execute('SELECT FAIL FROM MIDWAY', [], {fetchArraySize: 2}), 'ORA-01722');
  const r = await conn.execute('SELECT DBTIMEZONE FROM DUAL');
  check('session goes on', r.rows[0][0], '+00:00');
}

async function callTimeout(conn) {
  conn.callTimeout = 500;
  const started = Date.now();
  await expectError('call timeout', () => conn.execute('SELECT SLOW FROM DUAL'), 'NJS-123');
  check('timeout returned before the statement ended', Date.now() - started < 2500, true);
  conn.callTimeout = 0;
  const r = await conn.execute('SELECT DBTIMEZONE FROM DUAL');
  check('usable after a timeout', r.rows[0][0], '+00:00');
}

(async () => {
  const bad = await expectError('wrong password',
    () => oracledb.getConnection({user, password: 'wrong', connectString: dsn}), 'ORA-01017');
  if (bad) check('wrong password code', bad.errorNum, 1017);
  const conn = await oracledb.getConnection({user, password, connectString: dsn});
  check('thin mode', oracledb.thin, true);
  check('server version', conn.oracleServerVersionString, '19.22.0.0.0');
  await selectAllTypes(conn);
  await bigLobs(conn);
  await numbersAndRows(conn);
  await binds(conn);
  await plsql(conn);
  await dml(conn);
  await errors(conn);
  await callTimeout(conn);
  await conn.ping();
  await conn.close();
  if (failures.length) {
    console.log(`FAILED: ${failures.length} mismatches`);
    process.exit(1);
  }
  console.log('node-oracledb client: ok');
})().catch((e) => {
  console.log('FAILED', e);
  process.exit(1);
});
