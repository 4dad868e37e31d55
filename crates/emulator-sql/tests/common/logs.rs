//! Transaction, redo log, archive and thread views for the fixture (GV$TRANSACTION,
//! GV$INSTANCE, V$LOG, V$LOGFILE, V$ARCHIVED_LOG, V$ARCHIVE_DEST[_STATUS], V$LOG_HISTORY,
//! V$THREAD, V$RESOURCE_LIMIT).

use super::catalog::cols;
use super::*;

pub fn logs(db: &mut MemDb) {
    transactions(db);
    online(db);
    archives(db);
    threads(db);
}

/// Open transactions and the instances' redo threads.
fn transactions(db: &mut MemDb) {
    db.view(
        "GV$TRANSACTION",
        cols(&[
            ("INST_ID", 'N'),
            ("XIDUSN", 'N'),
            ("XIDSLOT", 'N'),
            ("XIDSQN", 'N'),
            ("START_SCNB", 'N'),
            ("START_SCNW", 'N'),
        ]),
        vec![
            vec![n(1), n(5), n(10), n(100), n(4000), n(0)],
            vec![n(2), n(7), n(3), n(55), n(100), n(1)],
            vec![n(1), n(2), n(1), n(9), n(3500), n(0)],
        ],
    );
    db.view(
        "GV$INSTANCE",
        cols(&[("INST_ID", 'N'), ("THREAD#", 'N')]),
        vec![vec![n(1), n(1)], vec![n(2), n(2)]],
    );
}

/// Online redo log groups and their members.
fn online(db: &mut MemDb) {
    db.view(
        "V$LOG",
        cols(&[
            ("GROUP#", 'N'),
            ("THREAD#", 'N'),
            ("SEQUENCE#", 'N'),
            ("FIRST_CHANGE#", 'N'),
            ("NEXT_CHANGE#", 'N'),
            ("STATUS", 'T'),
            ("BYTES", 'N'),
            ("MEMBERS", 'N'),
        ]),
        vec![
            vec![
                n(2),
                n(1),
                n(11),
                n(2000),
                num("18446744073709551615"),
                t("CURRENT"),
                n(52428800),
                n(2),
            ],
            vec![
                n(1),
                n(1),
                n(10),
                n(1000),
                n(2000),
                t("INACTIVE"),
                n(52428800),
                n(2),
            ],
            vec![n(3), n(1), n(0), n(0), n(0), t("UNUSED"), n(52428800), n(1)],
            vec![
                n(4),
                n(2),
                n(5),
                n(1500),
                n(2500),
                t("ACTIVE"),
                n(104857600),
                n(1),
            ],
        ],
    );
    db.view(
        "V$LOGFILE",
        cols(&[
            ("GROUP#", 'N'),
            ("MEMBER", 'T'),
            ("TYPE", 'T'),
            ("STATUS", 'T'),
        ]),
        vec![
            vec![n(1), t("/u01/redo01b.log"), t("ONLINE"), NULL],
            vec![n(1), t("/u01/redo01a.log"), t("ONLINE"), NULL],
            vec![n(2), t("/u01/redo02a.log"), t("ONLINE"), t("INVALID")],
            vec![n(2), t("/u01/redo02b.log"), t("ONLINE"), NULL],
            vec![n(3), t("/u01/redo03.log"), t("ONLINE"), NULL],
            vec![n(4), t("/u01/redo04.log"), t("ONLINE"), t("STALE")],
            vec![n(4), t("/u01/standby04.log"), t("STANDBY"), NULL],
        ],
    );
}

/// Archived logs and archive destinations.
fn archives(db: &mut MemDb) {
    let arch = |name: Datum,
                thread: i64,
                seq: i64,
                first: i64,
                next: i64,
                status: &str,
                standby: &str,
                reset: i64,
                dest: i64,
                db: &str,
                de: &str| {
        vec![
            name,
            n(thread),
            n(seq),
            n(first),
            n(next),
            t(status),
            t(standby),
            n(reset),
            date("2025-01-01 00:00:00"),
            n(dest),
            t(db),
            t(de),
        ]
    };
    db.view(
        "V$ARCHIVED_LOG",
        cols(&[
            ("NAME", 'T'),
            ("THREAD#", 'N'),
            ("SEQUENCE#", 'N'),
            ("FIRST_CHANGE#", 'N'),
            ("NEXT_CHANGE#", 'N'),
            ("STATUS", 'T'),
            ("STANDBY_DEST", 'T'),
            ("RESETLOGS_CHANGE#", 'N'),
            ("RESETLOGS_TIME", 'D'),
            ("DEST_ID", 'N'),
            ("DICTIONARY_BEGIN", 'T'),
            ("DICTIONARY_END", 'T'),
        ]),
        vec![
            arch(
                t("/arch/2_3.arc"),
                2,
                3,
                200,
                400,
                "A",
                "NO",
                1,
                1,
                "YES",
                "YES",
            ),
            arch(
                t("/arch/1_8.arc"),
                1,
                8,
                300,
                500,
                "A",
                "NO",
                1,
                1,
                "NO",
                "NO",
            ),
            arch(
                t("/arch2/1_8.arc"),
                1,
                8,
                300,
                500,
                "A",
                "NO",
                1,
                2,
                "NO",
                "NO",
            ),
            arch(
                t("/arch/1_7.arc"),
                1,
                7,
                100,
                300,
                "D",
                "NO",
                1,
                1,
                "YES",
                "NO",
            ),
            arch(NULL, 1, 6, 50, 100, "A", "NO", 1, 1, "NO", "NO"),
            arch(
                t("/arch/1_5.arc"),
                1,
                5,
                10,
                50,
                "A",
                "NO",
                0,
                1,
                "NO",
                "NO",
            ),
            arch(
                t("/arch/1_9.arc"),
                1,
                9,
                500,
                1000,
                "A",
                "YES",
                1,
                1,
                "NO",
                "NO",
            ),
        ],
    );
    db.view(
        "V$ARCHIVE_DEST_STATUS",
        cols(&[
            ("DEST_ID", 'N'),
            ("DEST_NAME", 'T'),
            ("STATUS", 'T'),
            ("TYPE", 'T'),
        ]),
        vec![
            vec![n(3), t("LOG_ARCHIVE_DEST_3"), t("INACTIVE"), t("LOCAL")],
            vec![n(2), t("LOG_ARCHIVE_DEST_2"), t("VALID"), t("PHYSICAL")],
            vec![n(1), t("LOG_ARCHIVE_DEST_1"), t("VALID"), t("LOCAL")],
        ],
    );
    db.view(
        "V$ARCHIVE_DEST",
        cols(&[("DEST_ID", 'N'), ("DESTINATION", 'T')]),
        vec![
            vec![n(1), t("/arch")],
            vec![n(2), t("standby_db")],
            vec![n(3), NULL],
        ],
    );
}

/// Log history, redo threads and resource limits.
fn threads(db: &mut MemDb) {
    db.view(
        "V$LOG_HISTORY",
        cols(&[("THREAD#", 'N'), ("FIRST_TIME", 'D')]),
        vec![
            vec![n(1), date("2026-12-04 09:10:00")],
            vec![n(1), date("2026-12-04 09:55:00")],
            vec![n(1), date("2026-12-04 08:00:00")],
            vec![n(2), date("2026-12-04 09:30:00")],
            vec![n(1), date("2026-12-03 09:00:00")],
            vec![n(1), date("2026-12-03 23:59:59")],
        ],
    );
    db.view(
        "V$THREAD",
        cols(&[
            ("THREAD#", 'N'),
            ("STATUS", 'T'),
            ("ENABLED", 'T'),
            ("SEQUENCE#", 'N'),
            ("LAST_REDO_CHANGE#", 'N'),
            ("LAST_REDO_TIME", 'D'),
        ]),
        vec![
            vec![
                n(2),
                t("OPEN"),
                t("PUBLIC"),
                n(5),
                n(2400),
                date("2026-12-04 10:04:00"),
            ],
            vec![
                n(1),
                t("OPEN"),
                t("PUBLIC"),
                n(11),
                n(4990),
                date("2026-12-04 10:05:08"),
            ],
        ],
    );
    db.view(
        "V$RESOURCE_LIMIT",
        cols(&[
            ("RESOURCE_NAME", 'T'),
            ("CURRENT_UTILIZATION", 'N'),
            ("LIMIT_VALUE", 'T'),
        ]),
        vec![
            vec![t("processes"), n(50), t("       300")],
            vec![t("sessions"), n(60), t("       472")],
            vec![t("transactions"), n(1), t("UNLIMITED")],
        ],
    );
}
