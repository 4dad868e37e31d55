//! connection.*: the driver, client libraries, login, version, CDB/PDB layout, role and open
//! mode.

use super::facts::{Connect, Facts, SourceKind};
use super::Finding;
use crate::errors::{CdcError, Code};
use crate::settings::DatabaseDriver;
use cdc_core::model::{dictionary_for, DatabaseRole, Dictionary, OpenMode};

pub(super) fn mining(f: &Facts) -> Finding {
    let Some(m) = &f.mining else {
        let mut found =
            "not used: LogMiner runs on the source (cdc.mining.database.url is not set)"
                .to_string();
        if f.streams() && f.settings.mining_dictionary == Dictionary::OnlineCatalog {
            // The online catalog knows only today's objects (stream::unknown).
            found.push_str("; with the online catalog a change mined after its table's DDL or DROP … PURGE can come as \"UNKNOWN\".\"OBJ# n\" with \"COL n\" names: read by object number and position where the types allow, else CDC-3050 (cdc.mining.dictionary=redo_logs decodes each change as of its SCN)");
        }
        return Finding::pass(found);
    };
    let remedy = Code::Cdc2202.info().remedy;
    let db = match &m.db {
        Ok(db) => db,
        Err(e) => {
            return Finding::fail(
                format!("the mining database {} cannot be used: {e}", m.target),
                "check cdc.mining.database.url, cdc.mining.database.user and cdc.mining.database.password (unset user/password: those of cdc.database.*)",
            )
        }
    };
    let logs = match &m.logs {
        Ok(l) => l,
        Err(e) => {
            return Finding::fail(
                format!("{}: the log list cannot be read: {e}", m.target),
                remedy,
            )
        }
    };
    let source = match &f.db {
        Ok(s) => s,
        Err(e) => return Finding::skip(format!("the source is unknown: {e}")),
    };
    // The source's logs of its current incarnation; other sources' beside them are fine (a
    // downstream may receive several databases' redo).
    let logs = &match crate::source::mining::received_from(
        logs.clone(),
        cdc_core::model::RedoSource::of(source),
        &m.target,
        f.settings.database_url(),
    ) {
        Ok(l) => l,
        Err(e @ CdcError::MiningOtherIncarnation { .. }) => {
            return Finding::fail(
                format!("{e} ({}, DBID {})", db.name, db.dbid),
                Code::Cdc2205.info().remedy,
            )
            .because(Code::Cdc2205.info().explanation)
        }
        Err(_) => {
            let others = crate::source::mining::foreign_dbids(logs, source.dbid);
            let list: Vec<String> = others.iter().map(u64::to_string).collect();
            return Finding::fail(
                format!(
                    "the mining database {} ({}, DBID {}) holds redo of DBID {}, not the source's ({}, DBID {})",
                    m.target, db.name, db.dbid, list.join(", "), source.name, source.dbid
                ),
                remedy,
            )
            .because(Code::Cdc2202.info().explanation);
        }
    };
    if logs.is_empty() {
        return Finding::warn(
            format!(
                "the mining database {} ({}, DBID {}) holds no redo of the source ({}, DBID {}) yet",
                m.target, db.name, db.dbid, source.name, source.dbid
            ),
            "check redo transport from the source (LOG_ARCHIVE_DEST_n SERVICE=… to the downstream, V$ARCHIVE_DEST_STATUS) and that the logs arrive; capture waits until they do",
        );
    }
    if logs.iter().all(|l| l.dbid.is_none()) {
        return Finding::warn(
            format!(
                "the mining database {} ({}, DBID {}) lists {} logs but not the DBID of the database that wrote them: doctor cannot tell they are the source's ({}, DBID {})",
                m.target, db.name, db.dbid, logs.len(), source.name, source.dbid
            ),
            "check on the downstream that the registered logs come from the source (V$STANDBY_LOG.DBID for real-time shipping)",
        );
    }
    if let Some(problem) = dictionary(f, m) {
        return problem;
    }
    let first = logs.iter().map(|l| l.first_scn).min().unwrap_or(0);
    let through = match &m.limit {
        Ok(Some(l)) => format!("up to SCN {l}"),
        _ => "up to the current log".to_string(),
    };
    let dict = match (&f.settings.mining_dictionary, &m.builds) {
        (Dictionary::RedoLogs, Ok(b)) => b
            .iter()
            .map(|b| b.end_next_scn)
            .max()
            .map(|n| format!("; the dictionary from the redo (newest build ends at SCN {n})"))
            .unwrap_or_default(),
        _ => String::new(),
    };
    Finding::pass(format!(
        "mining on {} ({}, DBID {}): {} logs of the source ({}, DBID {}) from SCN {first} {through}{dict}",
        m.target,
        db.name,
        db.dbid,
        logs.len(),
        source.name,
        source.dbid
    ))
}

/// What LogMiner decodes the shipped redo with: the online catalog cannot (CDC-5301); a
/// dictionary in the redo must be there, whole before where mining starts (CDC-5302).
fn dictionary(f: &Facts, m: &super::facts::MiningFacts) -> Option<Finding> {
    if !f.streams() {
        return None;
    }
    if f.settings.mining_dictionary == Dictionary::OnlineCatalog {
        let info = Code::Cdc5301.info();
        return Some(
            Finding::fail(
                format!(
                    "cdc.mining.dictionary is online_catalog: LogMiner on {} would decode the source's redo with its own dictionary (capture refuses it: CDC-5301)",
                    m.target
                ),
                info.remedy,
            )
            .because(info.explanation),
        );
    }
    let builds = match &m.builds {
        Ok(b) => b,
        Err(e) => {
            return Some(Finding::warn(
                format!("{}: the dictionary builds (V$ARCHIVED_LOG.DICTIONARY_BEGIN/END) cannot be read: {e}", m.target),
                "grant SELECT on V_$ARCHIVED_LOG on the mining database",
            ))
        }
    };
    // Where mining starts: the stored resume position, else now.
    let start = match (&f.offsets, &f.current_scn) {
        (Ok(Some(o)), _) if o.stream.is_some() => o.stream.as_ref().map(|s| s.resume_scn),
        (_, Ok(c)) => Some(*c),
        _ => None,
    }?;
    if dictionary_for(builds, start).is_some() {
        return None;
    }
    let info = Code::Cdc5302.info();
    let found = match builds.iter().map(|b| b.end_next_scn).max() {
        None => format!(
            "cdc.mining.dictionary is redo_logs but the redo {} holds has no LogMiner dictionary build (no archived log marked DICTIONARY_BEGIN/DICTIONARY_END)",
            m.target
        ),
        Some(newest) => format!(
            "cdc.mining.dictionary is redo_logs but no dictionary build in the redo {} holds ends by SCN {start}, where mining starts (the newest ends at SCN {newest})",
            m.target
        ),
    };
    Some(Finding::fail(found, info.remedy).because(info.explanation))
}

/// What the thin driver cannot do, as the driver check and CDC-2009 say it.
pub(crate) const THIN_CANNOT: &str = "native network encryption or checksumming that the \
server requires (SQLNET.ENCRYPTION_SERVER / CRYPTO_CHECKSUM_SERVER=REQUIRED), accounts with only \
an 11G password verifier, Kerberos, RADIUS or other external authentication, password-store \
wallets";

/// Which driver connects (informational: PASS), and what the thin one cannot do; FAIL when the
/// thin driver met one of those at login (CDC-2009).
pub(super) fn driver(f: &Facts) -> Finding {
    let url = f.settings.database_url();
    if f.kind == SourceKind::Emulator
        || crate::settings::Scheme::of(url) == crate::settings::Scheme::Replay
    {
        return Finding::pass(
            "no database driver: the embedded emulator (or a replay) is read directly; cdc.database.driver applies to Oracle URLs only",
        );
    }
    let mining = if f.settings.mining_url().is_some() {
        "; the mining database (cdc.mining.database.url) is reached with the same driver"
    } else {
        ""
    };
    let transport = transport(f);
    match (f.settings.database_driver, &f.connect) {
        (_, Connect::Failed(e)) if e.code() == Code::Cdc2009 => {
            let info = Code::Cdc2009.info();
            Finding::fail(
                e.to_string(),
                "cdc.database.driver: thick\ninstall Oracle Instant Client (19c or later) and make the loader find it (oracle-cdc explain CDC-2001)",
            )
            .because(info.explanation)
            .on(vec!["cdc.database.driver".into()])
        }
        (DatabaseDriver::Thin, _) => {
            let found = format!(
                "thin (cdc.database.driver=thin, the default): the pure-Rust oracledb driver speaks Oracle Net itself, no client libraries needed{mining}. {transport} It cannot do: {THIN_CANNOT} — for those set cdc.database.driver=thick and install Oracle Instant Client"
            );
            match client_key_wallet(f) {
                Some(why) => Finding::warn(
                    format!("{found}. {why}"),
                    "a database certificate from a public CA (as Oracle's cloud databases have) works as it is; for one from your own CA with client certificates set cdc.database.driver=thick (Oracle Instant Client reads cwallet.sso)",
                )
                .on(vec!["cdc.database.wallet.location".into()]),
                None => Finding::pass(found),
            }
        }
        (DatabaseDriver::Thick, _) => Finding::pass(format!(
            "thick (cdc.database.driver=thick): the oracle crate through ODPI-C and Oracle Instant Client, loaded at run time (see connection.client){mining}. {transport}"
        )),
    }
}

/// What is wrong with the wallet's ewallet.pem for the thin driver on a tcps URL, if it holds
/// a private key: then the driver trusts no certificate of the file for the server (oracledb
/// 26.0.0-beta.5, transport.rs), and a key not in PKCS#8 form it ignores.
fn client_key_wallet(f: &Facts) -> Option<String> {
    if !crate::source::oracle::connect::is_tcps(f.settings.database_url()) {
        return None;
    }
    let file = f.settings.wallet_location.as_ref()?.join("ewallet.pem");
    let text = std::fs::read_to_string(&file).ok()?;
    // The PKCS#8 forms the driver loads (oracledb transport.rs); an RSA or EC key in its own
    // form it ignores, and then trusts the file's certificates as CAs and presents none.
    let pkcs8 = [
        "-----BEGIN PRIVATE KEY-----",
        "-----BEGIN ENCRYPTED PRIVATE KEY-----",
    ];
    let other = [
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----BEGIN EC PRIVATE KEY-----",
    ];
    if pkcs8.iter().any(|h| text.contains(h)) {
        Some(format!("{} holds a private key (mutual TLS): the thin driver then uses its certificates as the client's chain only and trusts the public CAs alone for the database's certificate, so one signed by a private CA fails with CDC-2012 (UnknownIssuer)", file.display()))
    } else if other.iter().any(|h| text.contains(h)) {
        Some(format!("{} holds an RSA or EC private key in its own form, which the thin driver ignores (it loads PKCS#8 keys only: convert with `openssl pkcs8 -topk8 -in key.pem`): it presents no client certificate, and a database that asks for one refuses the handshake (CDC-2012)", file.display()))
    } else {
        None
    }
}

/// How the connection travels: TLS with the trust it has, or plain TCP.
fn transport(f: &Facts) -> String {
    let raw = f.settings.database_url().trim();
    let tcps = crate::source::oracle::connect::is_tcps(raw);
    if !tcps && !raw.starts_with('(') && !raw.contains('/') {
        return "The TNS alias says whether it connects over TLS (tnsnames.ora), and sqlnet.ora \
                which wallet it trusts."
            .into();
    }
    if !tcps {
        return "Over plain TCP: the login protects the password, not the data (a tcps:// URL \
                encrypts everything, unless the database requires native network encryption)."
            .into();
    }
    match (f.settings.database_driver, &f.settings.wallet_location) {
        (DatabaseDriver::Thin, Some(dir)) => format!(
            "Over TLS (tcps), trusting the public CAs and the certificates in {}/ewallet.pem \
             (cdc.database.wallet.location).",
            dir.display()
        ),
        (DatabaseDriver::Thin, None) => "Over TLS (tcps), trusting the public CAs only: a \
             database certificate signed by its own or a company CA needs that CA in ewallet.pem \
             in cdc.database.wallet.location (CDC-2012)."
            .into(),
        (DatabaseDriver::Thick, Some(dir)) => format!(
            "Over TLS (tcps), trusting the certificates of the wallet in {} (cwallet.sso, \
             cdc.database.wallet.location).",
            dir.display()
        ),
        (DatabaseDriver::Thick, None) => "Over TLS (tcps), trusting the wallet sqlnet.ora names \
             (WALLET_LOCATION): without one Oracle's client libraries trust no CA, and \
             cdc.database.wallet.location names one."
            .into(),
    }
}

pub(super) fn client(f: &Facts) -> Finding {
    if f.kind == SourceKind::Emulator {
        return Finding::pass("embedded emulator: no Oracle Client libraries needed");
    }
    if f.settings.database_driver == DatabaseDriver::Thin {
        return Finding::pass(
            "not needed: the thin driver (cdc.database.driver=thin) uses no Oracle Client libraries",
        );
    }
    match &f.connect {
        Connect::Connected => Finding::pass("Oracle Client libraries loaded"),
        Connect::Failed(e) if e.code() == Code::Cdc2001 => {
            let info = Code::Cdc2001.info();
            // The message repeats the remedy after the driver's text: the fix column has it.
            let mut found = e.to_string();
            if let Some(end) = found.find("); ") {
                found.truncate(end + 1);
            }
            Finding::fail(found, info.remedy).because(info.explanation)
        }
        Connect::Failed(_) => Finding::pass(
            "Oracle Client libraries loaded (the connection failed after that: see connection.login)",
        ),
        Connect::NotTried(e) => Finding::skip(format!("not tried: {e}")),
    }
}

pub(super) fn login(f: &Facts) -> Finding {
    match &f.connect {
        Connect::Connected => Finding::pass(format!("connected to {}", f.target)),
        Connect::Failed(e) if e.code() == Code::Cdc2001 => Finding::skip(
            "not tried: the Oracle Client libraries could not be loaded (see connection.client)",
        ),
        Connect::Failed(e) if e.code() == Code::Cdc2009 => {
            Finding::skip("the thin driver cannot log in to this database (see connection.driver)")
        }
        Connect::Failed(e) | Connect::NotTried(e) => {
            Finding::fail(e.to_string(), e.code().info().remedy)
        }
    }
}

/// The capture user's password: expired (the login refused with ORA-28001, CDC-2013), in its
/// grace period (ORA-28002 with the login: logins work until the days are up, then capture
/// stops), or neither as far as the login says.
pub(super) fn password(f: &Facts) -> Finding {
    let user = f.settings.database_user().unwrap_or("the capture user");
    let info = Code::Cdc2013.info();
    let warning = match (&f.connect, &f.login_warning) {
        (Connect::Failed(e), _) if e.code() == Code::Cdc2013 => {
            return Finding::fail(e.to_string(), info.remedy).because(info.explanation)
        }
        (Connect::Failed(_), _) => return Finding::skip("not logged in (see connection.login)"),
        (Connect::NotTried(e), _) => return Finding::skip(format!("not tried: {e}")),
        (Connect::Connected, Err(e)) => {
            return Finding::skip(format!("the login's warning is unknown: {e}"))
        }
        (Connect::Connected, Ok(w)) => w,
    };
    match warning {
        None => Finding::pass(format!(
            "the login of {user} gave no warning (no ORA-28002): its password is not in its grace period"
        )),
        Some(w) if w.password_expiring() => {
            let when = w
                .days_left()
                .map(|d| format!("in {d} days"))
                .unwrap_or_else(|| "soon".into());
            // A common user's profile is a common one, made in CDB$ROOT.
            let profile = if user.to_ascii_uppercase().starts_with("C##") {
                format!("in CDB$ROOT: CREATE PROFILE C##CDC_PROFILE LIMIT PASSWORD_LIFE_TIME UNLIMITED CONTAINER=ALL; ALTER USER {user} PROFILE C##CDC_PROFILE CONTAINER=ALL;")
            } else {
                format!("CREATE PROFILE cdc_profile LIMIT PASSWORD_LIFE_TIME UNLIMITED; ALTER USER {user} PROFILE cdc_profile;")
            };
            Finding::warn(
                format!(
                    "the password of {user} expires {when} ({}): then every login fails with ORA-28001 and capture stops with CDC-2013",
                    w.message
                ),
                format!(
                    "ALTER USER {user} IDENTIFIED BY <new password>; and the new password in cdc.database.password\nso that it does not expire again, a profile with PASSWORD_LIFE_TIME UNLIMITED: {profile}"
                ),
            )
            .because(info.explanation)
            .on(vec!["cdc.database.password".into()])
        }
        Some(w) => Finding::warn(
            format!("the login of {user} gave a warning: {}", w.message),
            "look the ORA- number up in Oracle's Database Error Messages",
        ),
    }
}

pub(super) fn version(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    let compatible = f
        .config
        .as_ref()
        .ok()
        .and_then(|c| c.compatible.clone())
        .map(|c| format!(", COMPATIBLE {c}"))
        .unwrap_or_default();
    let found = format!(
        "Oracle Database {} {}{compatible}{}",
        db.version,
        db.edition,
        clock(f)
    );
    match f.major_version() {
        Some(v) if v < 12 => Finding::fail(
            format!("{found}: older than 12.1"),
            "upgrade the database to 19c or later",
        ),
        Some(v) if v < 19 => Finding::warn(
            format!("{found}: older than 19c, which oracle-cdc is built and tested against"),
            "upgrade the database to 19c or later",
        ),
        Some(_) => Finding::pass(found),
        None => Finding::warn(
            format!("{found}: the release number cannot be read"),
            "check V$VERSION / PRODUCT_COMPONENT_VERSION; oracle-cdc needs 19c or later",
        ),
    }
}

/// `UTC+05:30` for an offset in seconds.
fn utc(secs: i32) -> String {
    let (sign, a) = if secs < 0 { ('-', -secs) } else { ('+', secs) };
    format!("UTC{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
}

/// TIME_AT_DBTIMEZONE (23c and later) and the clock capture reads LogMiner's times in: with
/// USER_SQL, SYSDATE and SYSTIMESTAMP follow the database time zone while LogMiner's DATEs keep
/// the host's clock; with DATABASE every time does (Reference 26ai, TIME_AT_DBTIMEZONE).
fn clock(f: &Facts) -> String {
    let parameter = f
        .config
        .as_ref()
        .ok()
        .and_then(|c| c.time_at_dbtimezone.clone());
    let offset = match &f.clock {
        Ok(Some(secs)) => utc(*secs),
        Ok(None) => "UTC (unknown)".into(),
        Err(e) => format!("unknown ({e})"),
    };
    match parameter.as_deref().map(str::trim) {
        None => format!("; LogMiner's times in {offset} (the host's clock)"),
        Some(p) if p.eq_ignore_ascii_case("OFF") => {
            format!("; TIME_AT_DBTIMEZONE=OFF, LogMiner's times in {offset} (the host's clock)")
        }
        Some(p) if p.eq_ignore_ascii_case("USER_SQL") => format!(
            "; TIME_AT_DBTIMEZONE=USER_SQL: SYSDATE and SYSTIMESTAMP in the database time zone, LogMiner's times in the host's clock, {offset} (measured with SCN_TO_TIMESTAMP)"
        ),
        Some(p) => format!(
            "; TIME_AT_DBTIMEZONE={p}: LogMiner's times too in the database time zone, {offset} (measured with SCN_TO_TIMESTAMP)"
        ),
    }
}

/// The database and national character sets capture decodes text written as bytes with, and
/// orders text keys by (`crate::charset`).
pub(super) fn character_sets(f: &Facts) -> Finding {
    use crate::charset::Charset;
    let config = match &f.config {
        Ok(c) => c,
        Err(e) => return Finding::skip(format!("the instance configuration is unknown: {e}")),
    };
    let (Some(db), Some(nat)) = (
        config.character_set.as_deref(),
        config.national_character_set.as_deref(),
    ) else {
        return Finding::skip(
            "NLS_DATABASE_PARAMETERS could not be read: capture takes AL32UTF8 and AL16UTF16, Oracle's defaults",
        );
    };
    let mut found = format!("NLS_CHARACTERSET {db}, NLS_NCHAR_CHARACTERSET {nat}");
    let cs = config.charsets();
    let mut unsupported: Vec<String> = [(cs.database, db), (cs.national, nat)]
        .into_iter()
        .filter(|(c, _)| *c == Charset::Unsupported)
        .map(|(_, n)| n.to_string())
        .collect();
    // Root mode: a captured PDB of another database set (an AL32UTF8 CDB holds any): its rows
    // are decoded, and its keys chunked, in its own set.
    let mut single = cs.database.is_single_byte();
    let own: Vec<String> = f
        .pdb_charsets
        .iter()
        .filter_map(|(pdb, sets)| match sets {
            Ok(s) if s.database != cs.database => {
                single |= s.database.is_single_byte();
                if s.database == Charset::Unsupported {
                    unsupported.push(format!("{pdb}'s database character set"));
                    return Some(format!("{pdb}'s NLS_CHARACTERSET is another"));
                }
                Some(format!("{pdb}'s NLS_CHARACTERSET {}", s.database))
            }
            Ok(_) => None,
            Err(e) => Some(format!("{pdb}'s sets could not be read ({e})")),
        })
        .collect();
    if !own.is_empty() {
        found = format!(
            "{found} in CDB$ROOT; {} (a PDB's rows are decoded in its own set)",
            own.join(", ")
        );
    }
    if !unsupported.is_empty() {
        return Finding::warn(
            format!(
                "{found}: capture does not decode {}: text LogMiner writes as bytes (HEXTORAW storage bytes, XML_REDO documents) stops capture with CDC-3002, and text keys are chunked in AL32UTF8's byte order",
                unsupported.join(" or ")
            ),
            "avoid what makes LogMiner write text as bytes: mine with cdc.mining.dictionary: redo_logs (no dictionary mismatch, no unknown objects); keep text keys out of snapshots in this database (cdc.key naming a NUMBER column), or migrate the database to AL32UTF8",
        );
    }
    let single = if single {
        ": a single-byte set; text written as bytes is decoded in it and key chunks follow its byte order"
    } else {
        ""
    };
    Finding::pass(format!("{found}{single}"))
}

/// The PDBs `cdc.tables.include` names literally (three-part patterns without a wildcard in
/// the PDB part).
fn named_pdbs(f: &Facts) -> Vec<String> {
    crate::source::container::named_pdbs(&f.settings)
}

/// The mode the session's container gives (`source::container`), what it needs, and whether the
/// PDBs the settings name can be reached.
pub(super) fn multitenant(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    if !db.cdb {
        return Finding::pass("not a container database (non-CDB): no containers to switch");
    }
    // A PDB open RESTRICTED admits only users with RESTRICTED SESSION there (ORA-01035).
    let pdbs = if db.pdbs.is_empty() {
        "none listed".to_string()
    } else {
        db.pdbs
            .iter()
            .map(|p| match db.restricted_pdbs.contains(p) {
                true => format!("{p} (RESTRICTED)"),
                false => p.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let container = match &f.config {
        Ok(c) => c.container.clone(),
        Err(e) => return Finding::skip(format!("a container database; {e}")),
    };
    let named = named_pdbs(f);
    match container.as_deref() {
        Some(cdc_core::model::ROOT_CONTAINER) => {
            let closed: Vec<&String> = named.iter().filter(|p| !db.pdbs.contains(p)).collect();
            let found = format!(
                "root mode: connected to CDB$ROOT, mining there; each PDB's catalog and reads after ALTER SESSION SET CONTAINER; open PDBs: {pdbs}"
            );
            if closed.is_empty() {
                return Finding::pass(found);
            }
            Finding::fail(
                format!(
                    "{found}; cdc.tables.include names {}, not an open PDB: its tables cannot be read (CDC-2301)",
                    closed.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
                ),
                format!(
                    "ALTER PLUGGABLE DATABASE {} OPEN;  -- or correct cdc.tables.include",
                    closed[0]
                ),
            )
        }
        Some(pdb) => {
            let others: Vec<&String> = named.iter().filter(|p| p.as_str() != pdb).collect();
            let found = format!("per-PDB mode: connected to PDB {pdb}, every call inside it");
            if !others.is_empty() {
                return Finding::fail(
                    format!(
                        "{found}; cdc.tables.include names {} as well, which a session in {pdb} cannot reach (CDC-2301)",
                        others.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                    format!(
                        "-- capture several PDBs as a common user in the root (in CDB$ROOT):\nCREATE USER C##CDC IDENTIFIED BY <password> CONTAINER=ALL;\nGRANT SET CONTAINER TO C##CDC CONTAINER=ALL;\ncdc.database.url: HOST:PORT/<CDB service>\ncdc.database.user: C##CDC\nor limit cdc.tables.include to {pdb}'s tables"
                    ),
                );
            }
            if !f.streams() {
                return Finding::pass(format!("{found} ({} does not mine redo)", f.mode()));
            }
            // The same rule capture refuses to start by (`container::check_pdb_mining`).
            match crate::source::container::logminer_runs_in_pdb(f.major_version()) {
                // Oracle documents per-PDB mining with START_LOGMNR by SCN range and the online
                // catalog (19c Utilities 23.12.1); nothing says such a session reaches back to a
                // dictionary build in the redo, which capture's own builds cannot make in a PDB
                // before 21c either (ORA-65040). Unproven: a WARN, never a silent bet.
                true if f.settings.mining_dictionary == cdc_core::model::Dictionary::RedoLogs => Finding::warn(
                    format!(
                        "{found}; cdc.mining.dictionary=redo_logs: Oracle documents LogMiner inside a PDB with the online catalog only; a dictionary from the redo in a per-PDB session is not documented (it may fail at START_LOGMNR, ORA-01371 / CDC-5302), and capture cannot build one inside {pdb}"
                    ),
                    "cdc.mining.dictionary: online_catalog  -- or capture as a common user in CDB$ROOT (root mode), where the dictionary in the redo is documented",
                ),
                true => Finding::pass(format!(
                    "{found}; LogMiner mines {pdb}'s own redo (19c and later: START_LOGMNR by SCN range, no ADD_LOGFILE)"
                )),
                false => Finding::fail(
                    format!("{found}: before 19c LogMiner cannot run inside a PDB (ORA-65040, CDC-2302)"),
                    {
                        let user = if f.grantee().starts_with("C##") { f.grantee() } else { "C##CDC".into() };
                        format!(
                            "-- connect a common user to the root container (in CDB$ROOT):\nCREATE USER {user} IDENTIFIED BY <password> CONTAINER=ALL;\ncdc.database.url: HOST:PORT/<service of CDB$ROOT>\ncdc.database.user: {user}"
                        )
                    },
                ),
            }
        }
        None => Finding::skip(format!(
            "a container database, but the session's container is unknown; open PDBs: {pdbs}"
        )),
    }
}

pub(super) fn role(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    let found = format!("{}, {}", db.role.as_oracle(), db.open_mode.as_oracle());
    match (db.role, db.open_mode) {
        (DatabaseRole::Primary, OpenMode::ReadWrite) => Finding::pass(found),
        (_, OpenMode::Mounted) => Finding::fail(
            format!("{found}: not open, so nothing can be queried"),
            "ALTER DATABASE OPEN;  -- a physical standby: ALTER DATABASE OPEN READ ONLY;",
        ),
        (DatabaseRole::PhysicalStandby, _) if f.settings.mining_url().is_none() => {
            let switches = f
                .config
                .as_ref()
                .ok()
                .and_then(|c| c.log_switches.as_deref())
                .map_or_else(
                    || "V$LOG_HISTORY cannot be read to tell how often they switch".to_string(),
                    least_switching,
                );
            Finding::warn(
                format!("{found}: capture will run read-only; nothing is written to this database; the stream mines the archived logs only, so a change is published after the primary's next log switch: {switches}"),
                "nothing to change if read-only capture is intended (signals go through the file spool); to use a signal table, point cdc.database.url at the primary. To bound how long a change waits for its log switch, on the primary: ALTER SYSTEM SET ARCHIVE_LAG_TARGET = 300 SCOPE = BOTH;  -- seconds, a switch at least that often",
            )
        }
        _ => Finding::warn(
            format!("{found}: capture will run read-only; nothing is written to this database"),
            "nothing to change if read-only capture is intended (signals go through the file spool); to use a signal table, point cdc.database.url at the primary",
        ),
    }
}

/// How often the least busy redo thread switched logs in the last 24 hours (V$LOG_HISTORY, by
/// thread and clock hour): on a standby the stream's end is the lowest over the threads, so
/// that thread's switches bound how long a change waits. Counts, not an average: the history
/// may be shorter than the day.
fn least_switching(hours: &[cdc_core::model::SwitchHour]) -> String {
    // Switches and clock hours with one, per thread.
    let mut per_thread = std::collections::BTreeMap::<u32, (u64, usize)>::new();
    for h in hours.iter().filter(|h| h.switches > 0) {
        let t = per_thread.entry(h.thread).or_default();
        t.0 += h.switches;
        t.1 += 1;
    }
    let several = per_thread.len() > 1;
    match per_thread.into_iter().min_by_key(|(t, (n, _))| (*n, *t)) {
        None => "no log switch in the last 24 hours".to_string(),
        Some((thread, (n, with))) => format!(
            "thread {thread}{} switched logs {n} time{} in the last 24 hours, in {with} of its 24 clock hours",
            if several { ", the least busy," } else { "" },
            if n == 1 { "" } else { "s" },
        ),
    }
}

#[cfg(test)]
mod switch_tests {
    use super::least_switching;
    use cdc_core::model::SwitchHour;

    fn hour(thread: u32, hour: &str, switches: u64) -> SwitchHour {
        SwitchHour {
            thread,
            hour: hour.into(),
            switches,
        }
    }

    #[test]
    fn the_least_switching_thread_bounds_a_standbys_stream() {
        assert_eq!(least_switching(&[]), "no log switch in the last 24 hours");
        assert_eq!(
            least_switching(&[hour(1, "2026-12-07 10", 3), hour(1, "2026-12-07 11", 3)]),
            "thread 1 switched logs 6 times in the last 24 hours, in 2 of its 24 clock hours"
        );
        assert_eq!(
            least_switching(&[
                hour(1, "2026-12-07 10", 30),
                hour(2, "2026-12-07 10", 1),
                hour(1, "2026-12-07 11", 30),
            ]),
            "thread 2, the least busy, switched logs 1 time in the last 24 hours, in 1 of its 24 clock hours"
        );
        assert_eq!(
            least_switching(&[hour(1, "2026-12-07 10", 0)]),
            "no log switch in the last 24 hours"
        );
    }
}
