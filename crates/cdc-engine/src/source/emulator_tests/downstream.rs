//! Downstream capture (`source::mining::DownstreamConnector`) over an emulated downstream
//! mining database: SCNs and reads from the source, mining where the logs were shipped.

use crate::source::emulator::testing::{downstream_of, mine, primary_with_logs, read};
use crate::source::mining::DownstreamConnector;
use crate::source::Connector;

#[test]
fn the_downstream_connector_reads_at_the_source_and_mines_downstream() {
    let db = primary_with_logs();
    let mut p = db.connector().connect().unwrap();
    let source = p.database().unwrap();
    let (conn, _) = downstream_of(&db, vec![4]);
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
    assert_eq!(
        read(&mut *d, "HR.EMP", limit).unwrap().len(),
        read(&mut *p, "HR.EMP", limit).unwrap().len()
    );
    assert_eq!(d.logs().unwrap(), logs);
    assert_eq!(d.mining_limit(0).unwrap(), Some(limit));
    assert_eq!(
        d.mine(limit, limit + 2, &Default::default(), &mut |_| Ok(()))
            .unwrap_err()
            .code(),
        crate::errors::Code::Cdc5201
    );
}

/// Every catalog answer is the source's, PDB-level supplemental logging too (the connector
/// once forwarded each method by hand and left this one on its default, `None`, which reads
/// as "V$DATABASE says all" to doctor).
#[test]
fn the_downstream_connector_answers_the_whole_catalog_from_the_source() {
    let db = crate::source::emulator::testing::Db::new(
        r#"
seed: 3
database: { multitenant: true, undo_retention: 900 }
tables:
  - name: PDB1.APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    supplemental_logging: all
    rows: 3
"#,
    );
    let (conn, _) = downstream_of(&db, vec![]);
    let split = DownstreamConnector::new(
        Box::new(db.connector()),
        Box::new(conn),
        std::time::Duration::from_secs(300),
    );
    let mut d = split.connect().unwrap();
    let mut p = db.connector().connect().unwrap();
    d.set_container("PDB1").unwrap();
    p.set_container("PDB1").unwrap();
    let want = p.pdb_supplemental_logging().unwrap();
    assert!(want.is_some(), "a PDB reports its own supplemental logging");
    assert_eq!(d.pdb_supplemental_logging().unwrap(), want);
    assert_eq!(d.container().unwrap(), p.container().unwrap());
    assert_eq!(d.host_utc_offset().unwrap(), p.host_utc_offset().unwrap());
    assert_eq!(
        d.table_charsets(&"PDB1.APP.T".parse().unwrap()).unwrap(),
        p.table_charsets(&"PDB1.APP.T".parse().unwrap()).unwrap()
    );
}
