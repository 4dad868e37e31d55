//! Indexed reads against a brute-force scan of every version, under random inserts, updates
//! (including key updates and two changes of one row in one transaction), deletes and
//! rollbacks, at every SCN.

use super::super::redo::{Redo, Xid};
use super::super::schema::SchemaFile;
use super::super::store::{visible_version, Replica};
use crate::types::{compare_keys, Value};
use cdc_core::model::{BoundaryQuery, ChunkRange, FlashbackQuery, Scn};
use cdc_core::rowid::RowId;
use proptest::prelude::*;

fn schema(composite: bool) -> String {
    let pk = if composite { "[A, B]" } else { "[A]" };
    format!(
        r#"
database:
  start_scn: 100
  undo_retention: 900
tables:
  - name: T.K
    columns:
      - {{ name: A, type: NUMBER(5), nullable: false }}
      - {{ name: B, type: VARCHAR2(5), nullable: false }}
      - {{ name: V, type: VARCHAR2(10) }}
    primary_key: {pk}
    rows: 0
"#
    )
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u8, u8),
    /// Update the n-th live row (mod count) to key (a, b).
    Update(usize, u8, u8),
    /// Update the n-th live row's non-key column.
    Touch(usize),
    Delete(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..12, 0u8..3).prop_map(|(a, b)| Op::Insert(a, b)),
        2 => (any::<usize>(), 0u8..12, 0u8..3).prop_map(|(n, a, b)| Op::Update(n, a, b)),
        1 => any::<usize>().prop_map(Op::Touch),
        2 => any::<usize>().prop_map(Op::Delete),
    ]
}

fn row(a: u8, b: u8, v: u32) -> Vec<Value> {
    vec![
        Value::Number(a.to_string().into()),
        Value::Text(["x", "y", "z"][b as usize].into()),
        Value::Text(format!("v{v}").into()),
    ]
}

/// What the index must return: a scan of every row, filtered and stably sorted.
fn brute(
    r: &Replica,
    key: &[usize],
    scn: Scn,
    lower: Option<&[Value]>,
    upper: Option<&[Value]>,
) -> Vec<(Vec<Value>, String)> {
    let t = &r.tables[0];
    let mut out: Vec<(Vec<Value>, String)> = t
        .rows
        .iter()
        .filter_map(|(rid, v)| visible_version(v, scn).map(|row| (rid, row)))
        .map(|(rid, row)| {
            (
                key.iter().map(|&i| row[i].clone()).collect::<Vec<_>>(),
                rid.encode(),
            )
        })
        .filter(|(k, _)| lower.is_none_or(|l| !compare_keys(k, l).is_lt()))
        .filter(|(k, _)| upper.is_none_or(|u| compare_keys(k, u).is_lt()))
        .collect();
    out.sort_by(|a, b| compare_keys(&a.0, &b.0));
    out
}

fn bound(composite: bool, a: Option<u8>, b: u8) -> Option<Vec<Value>> {
    a.map(|a| {
        let r = row(a, b, 0);
        if composite && b != 3 {
            r[..2].to_vec()
        } else {
            r[..1].to_vec()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn indexed_reads_equal_a_scan(
        composite in any::<bool>(),
        txs in prop::collection::vec((prop::collection::vec(op(), 1..5), prop::bool::weighted(0.85)), 1..25),
        bounds in prop::collection::vec((prop::option::of(0u8..13), 0u8..4, prop::option::of(0u8..13), 0u8..4), 1..6),
    ) {
        let schema = SchemaFile::parse("s.yaml".as_ref(), &schema(composite)).unwrap();
        let defs = schema.tables("s.yaml".as_ref()).unwrap();
        let mut r = Replica::new(schema, defs);
        let obj = r.tables[0].data_object_id;
        let mut scn: Scn = 100;
        let mut live: Vec<(RowId, Vec<Value>)> = Vec::new();
        let mut next_block = 0u32;
        let mut counter = 0u32;
        let mut scns = vec![scn];
        for (i, (ops, commit)) in txs.iter().enumerate() {
            let xid = Xid { usn: 1, slot: i as u16, sqn: i as u32 + 1 };
            scn += 1;
            r.apply(Redo::Begin { scn, xid, thread: 1, ts: scn as i64, user: None }).unwrap();
            let before_tx = live.clone();
            for o in ops {
                scn += 1;
                counter += 1;
                let ts = scn as i64;
                let redo = match *o {
                    Op::Insert(a, b) => {
                        next_block += 1;
                        let rid = RowId { data_object: obj, relative_fno: 1, block: next_block, slot: 0 };
                        live.push((rid, row(a, b, counter)));
                        Redo::Insert { scn, xid, tab: 0, rid: rid.encode(), after: row(a, b, counter), ts }
                    }
                    Op::Update(_, _, _) | Op::Touch(_) | Op::Delete(_) if live.is_empty() => continue,
                    Op::Update(n, a, b) => {
                        let n = n % live.len();
                        let (rid, before) = live[n].clone();
                        let after = row(a, b, counter);
                        live[n].1 = after.clone();
                        Redo::Update { scn, xid, tab: 0, rid: rid.encode(), before, after, cols: vec![], lob_ops: vec![], ts }
                    }
                    Op::Touch(n) => {
                        let n = n % live.len();
                        let (rid, before) = live[n].clone();
                        let mut after = before.clone();
                        after[2] = Value::Text(format!("t{counter}").into());
                        live[n].1 = after.clone();
                        Redo::Update { scn, xid, tab: 0, rid: rid.encode(), before, after, cols: vec![], lob_ops: vec![], ts }
                    }
                    Op::Delete(n) => {
                        let (rid, before) = live.remove(n % live.len());
                        Redo::Delete { scn, xid, tab: 0, rid: rid.encode(), before, ts }
                    }
                };
                r.apply(redo).unwrap();
            }
            scn += 1;
            if *commit {
                r.apply(Redo::Commit { scn, xids: vec![xid], ts: scn as i64 }).unwrap();
            } else {
                r.apply(Redo::Rollback { scn, xid, ts: scn as i64 }).unwrap();
                live = before_tx;
            }
            scns.push(scn);
        }
        let now = scn as i64;
        let key: Vec<usize> = if composite { vec![0, 1] } else { vec![0] };
        let key_columns: Vec<String> = key.iter().map(|&i| ["A", "B"][i].to_string()).collect();
        let name: crate::names::TableName = "T.K".parse().unwrap();
        for &at in &scns {
            for (la, lb, ua, ub) in &bounds {
                let lower = bound(composite, *la, *lb % 3);
                let upper = bound(composite, *ua, *ub % 3);
                let range = if la.is_none() && ua.is_none() && *lb == 3 {
                    ChunkRange::Whole
                } else {
                    ChunkRange::Key { lower: lower.clone(), upper: upper.clone() }
                };
                let q = FlashbackQuery {
                    table: name.clone(),
                    columns: vec!["A".into(), "B".into(), "V".into()],
                    key_columns: key_columns.clone(),
                    scn: at,
                    range,
                    filter: None,
                    row_ids: true,
                };
                let got: Vec<(Vec<Value>, String)> = r
                    .read_as_of(&q, now)
                    .unwrap()
                    .into_iter()
                    .map(|f| (key.iter().map(|&i| f.values[i].clone()).collect(), f.rowid.to_string()))
                    .collect();
                prop_assert_eq!(&got, &brute(&r, &key, at, lower.as_deref(), upper.as_deref()), "read at {}", at);
                // Index boundary probes from `lower`.
                let bq = BoundaryQuery {
                    table: name.clone(),
                    key_columns: key_columns.clone(),
                    scn: at,
                    lower: lower.clone(),
                    step: 2,
                    count: 100,
                };
                let probes = r.key_boundaries(&bq, now).unwrap();
                let want: Vec<Vec<Value>> = brute(&r, &key, at, lower.as_deref(), None)
                    .into_iter()
                    .map(|(k, _)| k)
                    .skip(2)
                    .step_by(2)
                    .collect();
                prop_assert_eq!(probes, want);
            }
            let all = brute(&r, &[0], at, None, None);
            let want = all.first().map(|f| f.0[0].clone()).zip(all.last().map(|l| l.0[0].clone()));
            prop_assert_eq!(r.key_range(&name, "A", at, now).unwrap(), want);
        }
    }
}

/// Logical ROWIDs print as the thin drivers print a UROWID's bytes, so one read over Oracle
/// Net gives back the text the emulator made (rust-oracledb's `convert_logical_rowid`).
#[test]
fn logical_rowids_are_canonical_rowid_base64() {
    use super::logical_rowid_text;
    assert_eq!(logical_rowid_text(&[4]), "*BA");
    assert_eq!(logical_rowid_text(&[4, 1]), "*BAE");
    assert_eq!(logical_rowid_text(&[4, 1, 0x2c]), "*BAEs");
    assert_eq!(logical_rowid_text(&[0xff, 0xff, 0xff, 0]), "*////AA");
}
