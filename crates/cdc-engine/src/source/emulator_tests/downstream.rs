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
