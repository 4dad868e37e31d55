//! Downstream capture (`source::mining::DownstreamConnector`) over an emulated downstream
//! mining database: SCNs and reads from the source, mining where the logs were shipped.

use crate::source::emulator::testing::{mine, primary_with_logs};
use crate::source::emulator::{topology, EmulatorConnector, Faults};
use crate::source::mining::DownstreamConnector;
use crate::source::{ChunkRange, Connector, Dictionary, FlashbackQuery, Session};
use std::sync::Arc;

fn read_all(s: &mut dyn Session, limit: u64) -> u64 {
    let q = FlashbackQuery {
        table: "HR.EMP".parse().unwrap(),
        columns: vec!["ID".into()],
        key_columns: vec!["ID".into()],
        scn: limit,
        range: ChunkRange::Whole,
        filter: None,
    };
    s.read_as_of(&q, &mut |_| Ok(())).unwrap()
}

#[test]
fn the_downstream_connector_reads_at_the_source_and_mines_downstream() {
    let db = primary_with_logs();
    let ds = db.dir.path().join("ds");
    let mut p = db.connector().connect().unwrap();
    let source = p.database().unwrap();
    topology::create(
        &ds,
        &topology::TopologyFile::Downstream {
            source: db.path(),
            name: "DOWN".into(),
            dbid: 7,
            scn: 1,
            shipping: topology::Shipping::Archived,
            from_sequence: 1,
            missing_sequences: vec![4],
        },
    )
    .unwrap();
    let conn =
        EmulatorConnector::open_with_clock(&ds, Faults::default(), Arc::new(db.clock.clone()))
            .unwrap();
    conn.set_dictionary(Dictionary::RedoLogs).unwrap();
    let mut s = conn.connect().unwrap();
    let logs = s.logs().unwrap();
    let limit = s.mining_limit(0).unwrap().unwrap();
    assert!(!mine(&mut *s, logs[1].first_scn, limit).is_empty());

    // Through the downstream connector: SCNs and reads from the source, mining downstream.
    let split = DownstreamConnector::new(
        Box::new(db.connector()),
        Box::new(conn.clone()),
        std::time::Duration::from_secs(300),
    );
    let mut d = split.connect().unwrap();
    assert_eq!(d.current_scn().unwrap(), p.current_scn().unwrap());
    assert_eq!(d.database().unwrap().dbid, source.dbid);
    assert_eq!(read_all(&mut *d, limit), read_all(&mut *p, limit));
    assert_eq!(d.logs().unwrap(), logs);
    assert_eq!(d.mining_limit(0).unwrap(), Some(limit));
    assert_eq!(
        d.mine(limit, limit + 2, &Default::default(), &mut |_| Ok(()))
            .unwrap_err()
            .code(),
        crate::errors::Code::Cdc5201
    );
}
