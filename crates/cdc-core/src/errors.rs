//! The one catalog of `CDC-NNNN` error codes and the engine's typed error.
//!
//! Every error the tool prints starts with its code; `oracle-cdc explain CODE` shows the entry.
//! Ranges: 1xxx settings and usage, 2xxx connecting, 3xxx decoding and types, 4xxx the embedded
//! emulator, 5xxx errors the database returned, 6xxx local files, 7xxx stored offsets,
//! 8xxx snapshots.

use std::fmt;
use std::path::PathBuf;

/// How the process exits for an error of this code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitKind {
    /// Exit code 1: the database, a file or the work itself failed.
    Failure,
    /// Exit code 2: the command line or the settings are wrong.
    Usage,
}

impl ExitKind {
    pub fn code(self) -> u8 {
        match self {
            ExitKind::Failure => 1,
            ExitKind::Usage => 2,
        }
    }
}

/// One catalog entry.
#[derive(Debug, Clone, Copy)]
pub struct CodeInfo {
    pub code: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
    pub remedy: &'static str,
    pub exit: ExitKind,
}

macro_rules! catalog {
    ($( $variant:ident = $code:literal, $exit:ident, $title:literal, $explanation:literal, $remedy:literal; )*) => {
        /// Every code the project defines.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            pub fn info(self) -> &'static CodeInfo {
                match self {
                    $( Code::$variant => &CodeInfo {
                        code: $code,
                        title: $title,
                        explanation: $explanation,
                        remedy: $remedy,
                        exit: ExitKind::$exit,
                    }, )*
                }
            }
        }
    };
}

catalog! {
    Cdc1001 = "CDC-1001", Usage, "Unknown setting key",
        "The settings name a key that oracle-cdc does not know. Every setting starts with `cdc.`; per-table settings end in PDB.OWNER.TABLE or OWNER.TABLE.",
        "Fix the spelling (the message suggests the closest known key) or remove the key. `oracle-cdc --print-settings` lists every effective key.";
    Cdc1002 = "CDC-1002", Usage, "Invalid setting value",
        "A setting has a value of the wrong type or outside what the key allows.",
        "Set the key the message names to what it says the key takes (one of its allowed values, a number in its range, or the name it needs); `oracle-cdc --print-settings` shows where each value came from, and the settings reference (commands/settings.md) documents each key.";
    Cdc1003 = "CDC-1003", Usage, "Settings file is not valid YAML",
        "The settings file could not be parsed as YAML; the message gives the file, line and column.",
        "Fix the YAML at the position shown. Keys are flat (`cdc.snapshot.chunk.rows: 1000`) or nested maps.";
    Cdc1004 = "CDC-1004", Usage, "Settings file cannot be read",
        "The settings file named with --config does not exist or cannot be read.",
        "Check the path and its permissions.";
    Cdc1005 = "CDC-1005", Usage, "Secret reference cannot be resolved",
        "A secret written as ${env:NAME} or ${file:PATH} names a variable that is unset or a file that cannot be read.",
        "Set the environment variable, or create the file readable by this user (mode 0600 is recommended).";
    Cdc1006 = "CDC-1006", Usage, "Invalid command-line argument",
        "An argument given on the command line is not valid for the command.",
        "See the command's --help for the accepted forms.";
    Cdc1007 = "CDC-1007", Usage, "Unknown error code",
        "`oracle-cdc explain` was given a code that is not in the catalog.",
        "Run `oracle-cdc explain --list` to see every code.";
    Cdc1008 = "CDC-1008", Usage, "Setting value too long",
        "A setting's value is longer than oracle-cdc accepts (1 MiB): a file pasted into `--set` or an environment variable, most likely. Such a value would also make `--print-settings` and the checks slow.",
        "Shorten the value; for a long list of tables use patterns (`cdc.tables.include: [HR.*]`).";
    Cdc1009 = "CDC-1009", Usage, "Settings file too large or too deeply nested",
        "The settings file is larger than 16 MiB, or its maps and lists nest more than 64 levels deep. Settings keys need a few levels at most; the file is refused before it is parsed (a deeply nested one took the YAML parser half a minute).",
        "Write keys flat (`cdc.snapshot.chunk.rows: 1000`) or in a few nested maps; the message names the line where the nesting got too deep.";
    Cdc2001 = "CDC-2001", Failure, "Oracle Client libraries not found (DPI-1047)",
        "With cdc.database.driver=thick, connecting to a real Oracle database needs the Oracle Client libraries (Instant Client) at run time; oracle-cdc could not load libclntsh. The default thin driver (cdc.database.driver=thin) needs no client libraries; the binary itself builds and runs without them: only thick-mode connections need them.",
        "Either use the thin driver (cdc.database.driver=thin, the default), or install Oracle Instant Client (Basic or Basic Light, 19c or later) and make it findable: on Linux unzip it, e.g. to /opt/oracle/instantclient_23_5, then `sudo sh -c 'echo /opt/oracle/instantclient_23_5 > /etc/ld.so.conf.d/oracle-instantclient.conf' && sudo ldconfig` (or set LD_LIBRARY_PATH); on macOS set DYLD_LIBRARY_PATH or put it in ~/lib; on Windows add its folder to PATH. Instant Client also needs libaio (Debian: `apt-get install libaio1`). To try oracle-cdc without a database, use `cdc.database.url: emulator:DIR`.";
    Cdc2002 = "CDC-2002", Failure, "Invalid username or password (ORA-01017)",
        "The database rejected the capture user's credentials.",
        "Check cdc.database.user and cdc.database.password (for example ${env:ORACLE_CDC_PASSWORD}); remember that passwords are case-sensitive.";
    Cdc2003 = "CDC-2003", Failure, "No listener at the address (ORA-12541)",
        "Nothing accepted the connection at the host and port in cdc.database.url.",
        "Check host and port (EZConnect: host[:port]/service_name; the default port is 1521) and that the listener runs (`lsnrctl status` on the database host).";
    Cdc2004 = "CDC-2004", Failure, "Unknown service name (ORA-12514)",
        "The listener answered but does not know the service named in cdc.database.url.",
        "Use a service the listener serves (`lsnrctl services`); for a PDB name the PDB's service, e.g. host:1521/ORCLPDB1.";
    Cdc2005 = "CDC-2005", Failure, "Account locked (ORA-28000)",
        "The capture user's account is locked, usually after too many failed logins.",
        "Ask a DBA to run ALTER USER <user> ACCOUNT UNLOCK and check the password in the settings.";
    Cdc2006 = "CDC-2006", Failure, "Cannot connect to the database",
        "The connection failed for a reason without a more specific code; the message carries the database's own error.",
        "Read the ORA-/DPI- error in the message; check the URL, network and database state.";
    Cdc2007 = "CDC-2007", Usage, "Invalid database URL",
        "cdc.database.url must be an EZConnect string (host[:port]/service), a TNS alias, emulator:DIR or replay:DIR.",
        "Set cdc.database.url, e.g. `db.example.com:1521/ORCLPDB1` or `emulator:./demo-db`.";
    Cdc2008 = "CDC-2008", Usage, "A replay holds no table data",
        "cdc.database.url is replay:DIR: a CSV export of V$LOGMNR_CONTENTS and a schema file. It has the LogMiner rows only, no table rows, so nothing can be read AS OF SCN: a snapshot (cdc.snapshot.mode initial or snapshot_only, a snapshot signal, `oracle-cdc snapshot`, `plan-chunks`) cannot run on it.",
        "Replay the change stream only: set cdc.snapshot.mode=none (e.g. `--set cdc.snapshot.mode=none capture --stop-at-scn N`), and use a fresh cdc.state.dir without an unfinished snapshot in its offsets.";
    Cdc2009 = "CDC-2009", Failure, "The thin driver cannot connect to this database",
        "The thin driver (cdc.database.driver=thin, the default) speaks Oracle Net itself and does not support everything Oracle's client libraries do: a database (sqlnet.ora) that requires native network encryption or checksumming, an account that has only an 11G password verifier (no 12C verifier), Kerberos, RADIUS or other external authentication, password-store wallets, and database releases before 12.1. The driver stopped at such a feature during the login (it gives up on them; oracle-cdc catches that and reports it here).",
        "Set cdc.database.driver=thick and install Oracle Instant Client (19c or later; `oracle-cdc explain CDC-2001` has the steps): thick mode supports all of these. Or change the database side: give the account a 12C verifier (ALTER USER … IDENTIFIED BY … with SQLNET.ALLOWED_LOGON_VERSION_SERVER=12 or higher), use TLS (tcps) instead of native network encryption, or a password instead of external authentication. `oracle-cdc doctor --check connection.driver` names what thin cannot do.";
    Cdc2010 = "CDC-2010", Failure, "The database is not accepting connections now",
        "The listener answered but the database refused the session for a reason that passes: it is starting or shutting down (ORA-01033 initialization or shutdown in progress, ORA-01089 immediate shutdown in progress, ORA-01034 ORACLE not available), its dispatchers or handlers are busy or blocked (ORA-12516, ORA-12520, ORA-12528), or the connection was closed or timed out on the way (ORA-12537, ORA-12547, ORA-12170, ORA-03113, ORA-03114, ORA-03135). oracle-cdc retries these: a first connect cdc.database.connect.retries times, a connection that worked and was lost for up to cdc.database.reconnect.max.ms, with cdc.database.connect.backoff.ms doubling up to cdc.database.connect.backoff.max.ms between tries; this error means the database stayed unavailable that long.",
        "Check the database and listener (`lsnrctl status`, the alert log) and start the database if it is down; if outages last longer where you run (a patching window), raise cdc.database.reconnect.max.ms (and cdc.database.connect.retries for the first connect). Capture resumes from its offsets when started again.";
    Cdc2011 = "CDC-2011", Failure, "Session limit reached (ORA-02391, ORA-00018, ORA-00020)",
        "The database refused one more session: the capture user's profile allows fewer at once (ORA-02391 exceeded simultaneous SESSIONS_PER_USER limit; CIS-hardened databases often set 10), or the instance has no session or process left (ORA-00018 maximum number of sessions exceeded, ORA-00020 maximum number of processes exceeded). A capture holds one session for mining and, while it snapshots, cdc.snapshot.threads reading sessions plus two more; other programs logged in as the same user count towards SESSIONS_PER_USER too. It is not retried, as waiting does not free the sessions that hold the room, except by a login that replaces a session whose connection was lost: the database may count the lost session until dead connection detection notices its client gone (SQLNET.EXPIRE_TIME in the server's sqlnet.ora, in minutes; unset, only TCP keepalive), so the mining session's and the catalog's replacements are retried for cdc.database.reconnect.max.ms. A snapshot makes do with fewer: refused a reading session, it gives up the one that takes each next wave's SCN, then one reader at a time (each a warning and a snapshot-readers-reduced ops event), waits like the mining session only when it has none left to give up and the refused login replaces a lost one, and stops with this error when not even one reader beside its coordinating session is let in (a signal snapshot ends signal-failed with it, and streaming goes on); capture stops with it when the mining session is refused. The chunks already read are kept and the next start resumes.",
        "Run `oracle-cdc doctor --check settings.sessions`: it compares the sessions this job needs with the user's SESSIONS_PER_USER (USER_RESOURCE_LIMITS) and the instance's free SESSIONS and PROCESSES. Then lower cdc.snapshot.threads, or have a DBA give the user room: `CREATE PROFILE cdc_profile LIMIT SESSIONS_PER_USER 20; ALTER USER <user> PROFILE cdc_profile;` (for a common user of a CDB, in CDB$ROOT: `CREATE PROFILE C##CDC_PROFILE LIMIT SESSIONS_PER_USER 20 CONTAINER=ALL; ALTER USER C##… PROFILE C##CDC_PROFILE CONTAINER=ALL;`), or ALTER PROFILE on the user's profile; for ORA-00018 / ORA-00020 raise SESSIONS / PROCESSES. After a lost connection, have the DBA set SQLNET.EXPIRE_TIME (1 or 2 minutes) in the database server's sqlnet.ora so a vanished client's session is found sooner, or raise cdc.database.reconnect.max.ms.";
    Cdc2012 = "CDC-2012", Failure, "TLS (tcps) connection failed",
        "cdc.database.url is a tcps:// address (or a descriptor with PROTOCOL=TCPS) and the TLS handshake before the login failed: the server's certificate is not signed by a CA the client trusts (the thin driver trusts the public web CAs and the certificates in ewallet.pem of cdc.database.wallet.location; a database's own or a company CA is in neither until it is put there), the certificate does not name the host of the URL (its subjectAltName must hold that DNS name or IP address), it has expired, the wallet cannot be read or its key not decrypted (cdc.database.wallet.password), or the server asked for a client certificate the wallet does not hold. Oracle's client libraries (thick mode) report these as ORA-29024 (certificate validation failure), ORA-28759 (failure to open file), ORA-28860 (fatal SSL error), ORA-28862 (SSL connection failed), ORA-28791 (certificate verification failure), ORA-28868 (peer certificate chain check failed), ORA-29002 and ORA-29003 (invalid, obsolete or mismatched server certificate), ORA-29106 (cannot import PKCS #12 wallet), ORA-29113 (cannot access attributes from a PKCS #12 key bag). It is not retried: the next try would fail the same way. (A tcps:// URL at a port that speaks plain TCP is a closed connection instead, CDC-2010.)",
        "Put the CA certificate that signed the database's certificate into the wallet and set cdc.database.wallet.location to its directory: for thin mode a PEM file ewallet.pem there (a wallet from `orapki` or Oracle's cloud console already has one), for thick mode an auto-login cwallet.sso. Thin mode and mutual TLS: when ewallet.pem holds the client's private key, the driver (oracledb 26.0.0-beta.5) uses its certificates as the client's chain only and trusts the public CAs alone for the server, so a database certificate from a private CA together with a client certificate needs cdc.database.driver=thick. An encrypted key needs cdc.database.wallet.password (`${env:NAME}`). Use the host name the certificate names in cdc.database.url, check the port is the TCPS one (2484 by convention), and `openssl s_client -connect host:port -showcerts` shows what the server presents.";
    Cdc2013 = "CDC-2013", Failure, "The capture user's password has expired (ORA-28001)",
        "The database refused the login because the user's password has expired: its profile's PASSWORD_LIFE_TIME passed and then the PASSWORD_GRACE_TIME after it (ORA-28001 \"the password has expired\"; ORA-28002, the grace period's warning, refused as an error, is taken the same way). During the grace period every login still works with ORA-28002 \"the password will expire within N days\": the Oracle adapter logs a warning naming the user and the days (once a process for each text), capture writes a `password-expiring` ops event when it starts, and `oracle-cdc doctor` WARNs connection.password. The account is not locked (that is ORA-28000, CDC-2005). It is not retried: nothing changes until the password does.",
        "Have a DBA set a new password for the capture user (`ALTER USER <user> IDENTIFIED BY <new password>`; for a common user in CDB$ROOT, with CONTAINER=ALL) and put it in cdc.database.password (e.g. ${env:ORACLE_CDC_PASSWORD}). So that it does not happen again, give the capture user a profile whose passwords do not expire: `CREATE PROFILE cdc_profile LIMIT PASSWORD_LIFE_TIME UNLIMITED; ALTER USER <user> PROFILE cdc_profile;` (for a common user of a CDB, in CDB$ROOT: `CREATE PROFILE C##CDC_PROFILE LIMIT PASSWORD_LIFE_TIME UNLIMITED CONTAINER=ALL; ALTER USER C##… PROFILE C##CDC_PROFILE CONTAINER=ALL;`), or ALTER PROFILE on its profile, or rotate the password before the grace period ends (USER_USERS.EXPIRY_DATE says when).";
    Cdc2101 = "CDC-2101", Failure, "Cannot serve metrics on the address",
        "cdc.metrics.listen names an address capture cannot listen on: another process holds the port, the address is not one of this host's, or the port needs privileges.",
        "Pick a free port on a local address (e.g. `127.0.0.1:9464`; `ss -ltn` shows the ports in use), or leave cdc.metrics.listen unset to serve no metrics.";
    Cdc2301 = "CDC-2301", Failure, "Table is in a container this session cannot reach",
        "In a multitenant database (CDB) every PDB's tables are read from a session inside that PDB. A capture user connected to a PDB's service (a local user, per-PDB mode) reaches only that PDB; a PDB that does not exist or is not open (ORA-65011, ORA-01109) cannot be entered at all, nor one open RESTRICTED by a user without RESTRICTED SESSION there (ORA-01035). In root mode only the PDBs cdc.tables.include can match are entered: one a pattern names stops capture with this error, one reached only by a wildcard (`PDB*.HR.*`, `HR.*`, no patterns) is left out with a warning.",
        "To capture tables of several PDBs, connect a common user (C##…) to the CDB's root service and grant it SET CONTAINER (CONTAINER=ALL); otherwise limit cdc.tables.include to the PDB the session is in. Open the PDB (ALTER PLUGGABLE DATABASE … OPEN); lift a PDB's restricted mode (in it: ALTER SYSTEM DISABLE RESTRICTED SESSION) or grant the capture user RESTRICTED SESSION there. `oracle-cdc doctor --check connection.multitenant` shows the mode.";
    Cdc2302 = "CDC-2302", Failure, "LogMiner cannot run in this PDB (ORA-65040)",
        "Before Oracle 19c, DBMS_LOGMNR and V$LOGMNR_CONTENTS work only in CDB$ROOT: a session inside a PDB gets ORA-65040. From 19c a PDB can be mined on its own (per-PDB mode: START_LOGMNR by SCN range, no ADD_LOGFILE), returning only that PDB's redo.",
        "Connect a common user (C##…) to the CDB's root service (root mode, every release), or upgrade to 19c or later for per-PDB mining.";
    Cdc2303 = "CDC-2303", Failure, "The capture user sees no PDB from CDB$ROOT (CONTAINER_DATA)",
        "In CDB$ROOT, V$PDBS, V$TRANSACTION and the other container data objects show a common user only the rows of the containers its CONTAINER_DATA attribute names, and by default that is the root alone: capture in root mode then finds no PDB and so no table, and would miss the transactions open in the PDBs when it starts (their first changes lost).",
        "As a DBA in CDB$ROOT: ALTER USER C##CDC SET CONTAINER_DATA=ALL CONTAINER=CURRENT; (or name the captured PDBs: CONTAINER_DATA=(CDB$ROOT, PDB1, PDB2)). `oracle-cdc doctor --check privileges.multitenant` checks it. Or capture one PDB in per-PDB mode, connected to its service (19c and later).";
    Cdc2401 = "CDC-2401", Failure, "The capture user lacks a privilege",
        "The database refused a call for want of a grant: ORA-01031 (insufficient privileges), ORA-00942 (a view or table the user may not see, or that does not exist), PLS-00201 (a package the user may not execute) or ORA-01045 (no CREATE SESSION). The message names the call and what it needed.",
        "Run `oracle-cdc doctor --check privileges`: it lists every grant the configured features need, with the GRANT statement for each one missing (in a CDB, for a common user, with CONTAINER=ALL).";
    Cdc3001 = "CDC-3001", Failure, "Column type has no record mapping",
        "A captured table has a column whose Oracle type oracle-cdc cannot turn into a record value, so the table cannot be snapshotted or streamed faithfully.",
        "Exclude the column with cdc.columns.exclude, or set cdc.on.decode.error=dlq to skip the table with a snapshot-complete event that names the reason.";
    Cdc3002 = "CDC-3002", Failure, "SQL_REDO cannot be decoded",
        "A V$LOGMNR_CONTENTS row's SQL_REDO text (or a value in it) could not be parsed, or text it holds as bytes (HEXTORAW storage bytes, an XML_REDO document) is not text of the database's character set (NLS_CHARACTERSET, NLS_NCHAR_CHARACTERSET for national columns): never read with a replacement character; the message gives the SCN, the transaction (XID), the table and the position in the text, or the set and the byte. A NUMBER value that does not fit its column's declared type (beyond Oracle's range, 1E-130 to below 1E126, or more digits than NUMBER(p,s) holds: ORA-01438) is refused the same way, naming the column and the value: Oracle never writes one, so it is never published under a schema it breaks. A date or timestamp in Oracle's default NLS formats (`TO_DATE('15-MAY-21', 'DD-MON-RR')`, `TO_TIMESTAMP('15-MAY-21 01.02.03.123456 PM')`) comes from a LogMiner session that did not set capture's formats: the century, and a DATE's time of day, are not in the text, and the message names the NLS parameter to set.",
        "Report it with the row (oracle-cdc can replay an export of V$LOGMNR_CONTENTS: replay:DIR); a NUMBER that does not fit its column in a replay export means the export (or its schema.yaml) was damaged or edited: make it again. For a default-NLS date, mine (or export a replay) from a session that ran ALTER SESSION SET NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS' NLS_TIMESTAMP_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9' NLS_TIMESTAMP_TZ_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM', as capture's own session does. To keep streaming meanwhile, set cdc.on.decode.error=dlq: such rows go to the dead-letter output.";
    Cdc3003 = "CDC-3003", Failure, "LogMiner wrote a captured table's change as UNSUPPORTED",
        "V$LOGMNR_CONTENTS holds an OPERATION_CODE 255 (UNSUPPORTED) row for a captured table: LogMiner could not build the change and the row carries none of its values. It does so for every change of a table with a column of a type it does not support: BFILE (\"the entire table is ignored by LogMiner\", Utilities), BOOLEAN and VECTOR (23ai), native JSON while ENABLE_GOLDENGATE_REPLICATION is FALSE, collections and objects with nested tables or REFs. The message names the table, the SCN, the transaction and the ROW_ID. `oracle-cdc doctor` FAILs tables.column-types for such a table when capture streams. Each one is counted (metric stream_unsupported_total) and logged as an `unsupported-redo` ops event.",
        "Capture such tables by snapshot only (`cdc.snapshot.mode: snapshot_only`, or re-snapshot them with `signal send execute-snapshot`), exclude them from streaming (`cdc.tables.exclude`), set ENABLE_GOLDENGATE_REPLICATION=TRUE for JSON columns, or keep the value in a supported type (a BFILE's directory and name in VARCHAR2 columns). To keep streaming meanwhile, cdc.on.unsupported.redo=dlq writes each such change to the dead-letter output (skip: only counted and logged).";
    Cdc3004 = "CDC-3004", Failure, "LogMiner reports missing redo (MISSING_SCN)",
        "V$LOGMNR_CONTENTS holds a MISSING_SCN row (OPERATION_CODE 34): LogMiner found a gap in the redo it was given, so changes in that SCN range may be missing from the stream (most often not every log of the range was added to the mining session). The message gives the SCN range the row covers.",
        "Check that every archived log of the range is present and minable (`oracle-cdc doctor --check redo`), then re-snapshot the captured tables (`signal send execute-snapshot`) so their rows are whole again. cdc.on.unsupported.redo=skip or dlq goes on past the gap (counted in stream_unsupported_total, an `unsupported-redo` ops event).";
    Cdc3005 = "CDC-3005", Failure, "A change's value is not in the redo",
        "LogMiner wrote a change of a captured table without a value capture needs: a LOB changed piece by piece (DBMS_LOB.WRITE at an offset, ERASE, TRIM) whose earlier content is not in the transaction, a LOB row without its SEL_LOB_LOCATOR (BASICFILE storage out of row) whose column the table does not settle or that no INSERT or UPDATE of its table follows, a native JSON column whose document never followed its INSERT's `/* JSON */ EMPTY_BLOB()`, or `Unsupported Type` in place of a column's value. Publishing the change would put a wrong or missing value in the record; the message names the table, the column, the SCN and the transaction.",
        "Re-snapshot the table (`signal send execute-snapshot`) to read the current value; exclude the column (`cdc.columns.exclude`) if its value is not needed. cdc.on.unsupported.redo=dlq writes such changes to the dead-letter output and goes on (skip: only counted and logged).";
    Cdc3006 = "CDC-3006", Failure, "An operation code capture does not know",
        "A V$LOGMNR_CONTENTS row of a captured table carries an OPERATION_CODE that Oracle does not document and capture has no decision for (see commands/capture.md, \"LogMiner rows\"); what it changed is unknown. Capture's mining query asks only for the codes it knows, so this comes from a source that hands every row over (a replay export).",
        "Report the row (with its OPERATION and SQL_REDO). cdc.on.unsupported.redo=skip or dlq goes on past such rows (counted in stream_unsupported_total, an `unsupported-redo` ops event).";
    Cdc3007 = "CDC-3007", Failure, "A captured table cannot be streamed",
        "A table capture streams has a column of a type LogMiner writes no change for (BFILE, BOOLEAN, VECTOR, native JSON without ENABLE_GOLDENGATE_REPLICATION; see commands/types.md): its snapshot is complete, but every later change arrives as an UNSUPPORTED row (CDC-3003). Or it has a LONG or LONG RAW column that is captured: capture does not stream those types, and every change of the table is CDC-3008. Capture says so when it starts (a `table-not-streamable` ops event) and doctor FAILs tables.column-types.",
        "Snapshot the table only (cdc.snapshot.mode: snapshot_only, or periodic `signal send execute-snapshot`), exclude it from capture (cdc.tables.exclude), or change the column's type; for JSON columns set ENABLE_GOLDENGATE_REPLICATION=TRUE; for a LONG or LONG RAW column exclude the column (cdc.columns.exclude) and the rest of the table streams.";
    Cdc3008 = "CDC-3008", Failure, "A captured column's type is not streamed",
        "A change of a captured table was mined while the table has a column of a type capture does not stream: LONG or LONG RAW. LogMiner writes such a value in the statement only while it is short; past a size threshold it writes the text 'LONG DATA' in its place and the data in operations of their own (Debezium DBZ-3605), so a published value could be that text instead of the data. Debezium's Oracle connector does not capture these types either. The message names the table, the column, the SCN and the transaction. `oracle-cdc doctor` lists the column under \"snapshot only\" (tables.column-types) and capture names it when it starts (CDC-3007). Each one is counted (metric stream_unsupported_total) and logged as an `unsupported-redo` ops event.",
        "Exclude the column (cdc.columns.exclude: [OWNER.TABLE.COLUMN]): the rest of the table then streams. Or capture the table by snapshot only (cdc.snapshot.mode: snapshot_only, or re-snapshot it with `signal send execute-snapshot`), or convert the column to a LOB, which LogMiner writes in full (ALTER TABLE \"O\".\"T\" MODIFY (\"C\" CLOB), BLOB for LONG RAW). To keep streaming meanwhile, cdc.on.unsupported.redo=dlq writes each such change to the dead-letter output (skip: only counted and logged).";
    Cdc3009 = "CDC-3009", Failure, "The thin driver cannot decode the database's answer",
        "The thin driver (cdc.database.driver=thin, the default) declares AL32UTF8 as its character set and decodes every character value strictly (NVARCHAR2 and NCHAR as AL16UTF16): a VARCHAR2, CHAR, LONG or CLOB value whose bytes are not valid in that set cannot be read. Such a value was stored without conversion (a client whose NLS_LANG named the database's character set sent bytes of another, or the data was damaged); an AL32UTF8 database hands it to the client as stored, so every read of the row fails alike and it is not retried. The same code covers an answer the driver cannot parse (an unknown message, an integer wider than the protocol allows, a VECTOR or JSON image it cannot decode). The driver stops reading the answer there, and before 23ai the rest of it is still on the connection: the session is given up rather than read from again (its next call is CDC-5007, and capture reconnects). The message names the call.",
        "Repair the value: the message names the call (a snapshot chunk names its table); `SELECT ROWID, DUMP(col, 1016) FROM …` shows a value's bytes, and Oracle's Database Migration Assistant for Unicode (DMU) finds the values a table holds that are invalid in its character set. Or read with thick mode (cdc.database.driver=thick and Oracle Instant Client, `oracle-cdc explain CDC-2001`), which reads such a VARCHAR2 or CHAR value with each invalid byte replaced by U+FFFD (the record then carries that character, not the stored byte). An answer the thin driver cannot parse: use thick mode, and report it with the statement.";
    Cdc3010 = "CDC-3010", Failure, "LogMiner wrote a change with no transaction",
        "V$LOGMNR_CONTENTS holds a change (or DDL) row of a mined table whose XID is all zeros: no transaction, so no COMMIT or ROLLBACK will ever end it. LogMiner has been seen writing START rows with such an XID (Debezium dbz#2683, where each one opened a transaction that never ended and held the connector's restart position back); capture passes over those, as over a COMMIT or ROLLBACK with it, since they carry no change. A change with it cannot be placed in any transaction: publishing it could publish what was rolled back, dropping it could lose a committed change, and buffering it would hold the restart position back for good. The message names the table, the SCN, the ROW_ID and the statement.",
        "Look at the row in V$LOGMNR_CONTENTS (its SCN, RS_ID, SSN) and at the table's rows the statement names, then re-snapshot the table (`oracle-cdc signal send execute-snapshot`) so its rows are whole again; report it with the row (an export of V$LOGMNR_CONTENTS replays: replay:DIR). To keep streaming meanwhile, cdc.on.unsupported.redo=dlq writes each such change to the dead-letter output (skip: only counted and logged).";
    Cdc3011 = "CDC-3011", Failure, "A NUMBER holds an infinity",
        "A NUMBER value read from a table is +infinity or -infinity (SQL*Plus prints them `~` and `-~`; DUMP shows Typ=2 Len=2: 255,101 and Typ=2 Len=1: 0). The encodings are kept from Oracle version 5: a NUMBER made from its bytes (UTL_RAW.CAST_TO_NUMBER, or a client that sends NUMBER bytes itself) or data imported from old exports can hold them, and Oracle warns that infinite NUMBER values are not well defined (PLW-06018). No record value can carry one: a decimal has no infinity, and each driver's decoder turns it into a finite number (ODPI-C, thick: 1E126 and -1E126; the thin driver: 1E125 and a minus sign with no digits), so it is refused rather than published as a number. The thin driver reads +infinity and the NUMBER 1E125 itself alike, so it refuses a value of exactly 1E125 too, saying so. The message names the call, the table and the column.",
        "Find the rows: SELECT ROWID FROM t WHERE DUMP(col) IN ('Typ=2 Len=2: 255,101', 'Typ=2 Len=1: 0'); and give them a value the application means (or NULL). Or exclude the column (cdc.columns.exclude). If the thin driver refused a column that really holds 1E125, read with thick mode (cdc.database.driver=thick and Oracle Instant Client), which tells the two apart.";
    Cdc3020 = "CDC-3020", Failure, "Unescaped quotes make a change ambiguous",
        "LogMiner wrote a string value of the change with its quotes not doubled (a known LogMiner fault, seen with MAX_STRING_SIZE=EXTENDED; Debezium DBZ-8034, DBZ-8200), and the statement can be read more than one way that fits the table's columns and types: e.g. a value holding `', '` could end at either quote. Capture does not guess. (Where exactly one reading fits, capture reads it, with a `redo-recovered` ops event and a count in oracle_cdc_stream_recovered_changes_total.)",
        "The row's value is in the table: set cdc.on.decode.error=dlq to dead-letter this change and go on, then send an execute-snapshot signal for the table (with a filter on the row's key) so its current row is published again. The message names the SCN and XID; `V$LOGMNR_CONTENTS` at that SCN shows the statement.";
    Cdc3021 = "CDC-3021", Failure, "LogMiner's dictionary does not match the table",
        "LogMiner decoded a change with a dictionary that does not know this version of the table (STATUS 2, INFO 'Dictionary Mismatch' in V$LOGMNR_CONTENTS: a DDL its dictionary did not track). It then names the columns \"COL 1\", \"COL 2\", … by position and writes the values as their storage bytes (HEXTORAW), or writes no statement at all ('Dictionary Version Mismatch'). Capture maps the positions onto the columns its schema history has at the change's SCN and reads the bytes by type (a `redo-recovered` ops event); this change could not be read so: the message says why (no statement, a position past the table's columns, an INSERT of another column count, a type whose storage bytes are not read).",
        "Mine with a dictionary that follows the table's DDL: cdc.mining.dictionary=redo_logs with a LogMiner dictionary built into the redo before this SCN (EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS); LogMiner then applies the DDL it mines, DDL_DICT_TRACKING). With the online catalog, changes made before a DDL cannot be decoded once the DDL is done. To go on meanwhile, set cdc.on.decode.error=dlq and re-snapshot the table (execute-snapshot signal) once capture is past the SCN.";
    Cdc3050 = "CDC-3050", Failure, "LogMiner's dictionary does not know the object",
        "LogMiner wrote a change with SEG_OWNER 'UNKNOWN' and TABLE_NAME 'OBJ# n': its dictionary does not know the object (mining the online catalog after the table was dropped and purged or its definition changed, a dictionary built into the redo before the table existed, a dictionary mismatch). Without the dictionary it names the columns \"COL 1\", \"COL 2\", … by position and writes every value as HEXTORAW of its storage bytes, or writes no statement ('Dictionary Version Mismatch'). Capture resolves the object number (DATA_OBJ#) to the captured table or partition with that data object id, and reads the positions with the columns its schema history has at the change's SCN (a `redo-recovered` ops event); this change could not be read so, and the message says why. Rows of an object number that is no captured table's are not published: they are counted in oracle_cdc_stream_unknown_object_rows_total{outcome=\"not-captured\"}.",
        "Mine with a dictionary that knows the object at the change's SCN: cdc.mining.dictionary=redo_logs with a LogMiner dictionary built into the redo after the table was created and before this SCN (EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS); DICT_FROM_REDO_LOGS + DDL_DICT_TRACKING then follows later DDL). To go on meanwhile, set cdc.on.decode.error=dlq (the change goes to the dead-letter output with its SCN, XID and object number) and re-snapshot the table (execute-snapshot signal) once capture is past the SCN.";
    Cdc3201 = "CDC-3201", Failure, "Change lacks columns (no ALL COLUMNS logging)",
        "A change of a captured table was mined whose SQL_REDO holds neither a new value (SET) nor an old value (WHERE) for some of the table's columns. An UPDATE's redo carries the changed columns, and the unchanged ones only as supplemental logging adds them: all of them with (ALL) COLUMNS logging, only the key with PRIMARY KEY logging, none without. The record would silently lack those columns, so capture stops at the change instead; the message names the table, the SCN, the transaction and the columns. (LOB, LONG, XMLTYPE and JSON columns are never supplementally logged: an UPDATE that leaves them alone is published with the unavailable-value placeholder for them, see commands/capture.md.) `oracle-cdc doctor` FAILs supplemental.table for every captured table without ALL COLUMNS logging.",
        "Turn on ALL COLUMNS logging for the table: ALTER TABLE \"OWNER\".\"TABLE\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS; (in a CDB first ALTER SESSION SET CONTAINER = the PDB), or for every table ALTER DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS. That helps only redo written afterwards: to move past the incomplete changes already written, start capture once with cdc.on.decode.error=dlq (each goes to the dead-letter output), then re-snapshot the table (`signal send execute-snapshot`, or `oracle-cdc offsets edit reset-table`).";
    Cdc3202 = "CDC-3202", Failure, "Redo written without minimal supplemental logging",
        "LogMiner marked a change of a captured table STATUS 3 with INFO 'no supplemental log data found': the redo was written while database-level minimal supplemental logging was off, so LogMiner built its SQL_REDO from today's dictionary and does not guarantee it is accurate (chained rows, index-organised tables, the columns of an UPDATE). Capture stops rather than publish it; the message names the table, the SCN and the transaction. `oracle-cdc doctor` FAILs supplemental.database while minimal supplemental logging is off.",
        "ALTER DATABASE ADD SUPPLEMENTAL LOG DATA; (in CDB$ROOT for a container database), and ALL COLUMNS logging on the captured tables (see CDC-3201). That helps only redo written afterwards: to move past the changes already written, start capture once with cdc.on.decode.error=dlq (each goes to the dead-letter output), then re-snapshot the tables (`signal send execute-snapshot`, or a fresh state directory).";
    Cdc2201 = "CDC-2201", Usage, "Invalid mining database settings",
        "cdc.mining.database.url names a mining (downstream) database that cannot be used: a `replay:` URL, the same URL as cdc.database.url, or an emulated directory that is not an emulated downstream database.",
        "Set cdc.mining.database.url to the downstream database that receives the source's redo (an EZConnect string, a TNS alias, or `emulator:DIR` made by `oracle-cdc emulator create --downstream-of`), or remove it to mine on the source itself.";
    Cdc2202 = "CDC-2202", Failure, "Mining database holds another database's redo",
        "The redo logs registered at the mining database (cdc.mining.database.url) come from a database whose DBID differs from the source's (V$DATABASE.DBID on cdc.database.url). Changes mined there would not be the source's changes.",
        "Point cdc.mining.database.url at the downstream database that receives this source's redo (check the source's LOG_ARCHIVE_DEST_n SERVICE), or cdc.database.url at the database whose redo is shipped. `oracle-cdc doctor` shows both DBIDs.";
    Cdc2203 = "CDC-2203", Usage, "Invalid emulated topology",
        "An emulated standby or downstream directory (its topology.yaml) cannot be used: the file is not valid, or the primary directory it names is not an emulated primary database.",
        "Create it again with `oracle-cdc emulator create --standby-of PRIMARY_DIR` or `--downstream-of PRIMARY_DIR` (commands/emulator.md, \"Topologies\"); the primary must be a directory made by `oracle-cdc emulator init`.";
    Cdc2204 = "CDC-2204", Failure, "An emulated downstream database takes no transactions",
        "A write (a workload, a signal row) was sent to an emulated downstream mining database. It models only the redo shipped to it from its source; the source's tables are not there.",
        "Write to the source database (the directory the downstream was created from); mine on the downstream with cdc.mining.database.url.";
    Cdc2205 = "CDC-2205", Failure, "Mining database holds only another incarnation's redo",
        "The logs the mining (downstream) database received from the source (V$FOREIGN_ARCHIVED_LOG, with the source's DBID) all belong to another incarnation of it: their RESETLOGS_CHANGE# is not the source's V$DATABASE.RESETLOGS_CHANGE#. The source was opened with RESETLOGS (a point-in-time recovery, a flashback database, an activated standby) after they were written, or the downstream receives a database cloned from the source with the same DBID. Redo of another incarnation is a different history: capture never mines it. Logs of an older incarnation beside the current one's are left out silently.",
        "Check that redo transport runs from the source's current incarnation (the source's LOG_ARCHIVE_DEST_n, V$ARCHIVE_DEST_STATUS on both sides) and that cdc.database.url names the database whose redo is shipped. After a RESETLOGS of the source the stored offsets belong to the old incarnation too: start from a fresh snapshot (a new state directory).";
    Cdc2206 = "CDC-2206", Failure, "A row access policy would filter the snapshot",
        "A captured table has an enabled Virtual Private Database or Oracle Label Security policy that applies to queries (ALL_POLICIES: SEL = 'YES', ENABLE = 'YES'), and the capture user lacks the system privilege EXEMPT ACCESS POLICY. Oracle adds the policy's predicate to every query of the user, flashback queries (AS OF SCN) included, while LogMiner's change stream carries every row: the snapshot would silently lack the rows the policy hides, and a consumer would never converge to the table. A column-level policy (DBMS_RLS.ADD_POLICY with sec_relevant_cols; ALL_SEC_RELEVANT_COLS) applies only to a query that references one of its security-relevant columns: one whose columns the snapshot never references (all in cdc.columns.exclude, none a key column or named in the table's cdc.snapshot.select.override) does not stop it. Created with sec_relevant_cols_opt => DBMS_RLS.ALL_ROWS (COLUMN_OPTION ALL_ROWS) it returns every row but its columns as NULL where the predicate is false: the snapshot would hold those NULLs instead. The snapshot of the table is refused before anything of it is read. The policy function is not called here (the capture user needs no EXECUTE on it, and Oracle runs it with its owner's rights), so a policy whose function returns no predicate for the capture user counts too. Where ALL_SEC_RELEVANT_COLS cannot be read, every policy counts as applying to every query.",
        "Exempt the capture user from row access policies (Utilities, \"Security Considerations for Direct Path Exports\": SYS and users granted EXEMPT ACCESS POLICY, directly or through a role, are exempt from VPD and Oracle Label Security): `GRANT EXEMPT ACCESS POLICY TO <cdc.database.user>;` (in a CDB, as a common grant `CONTAINER=ALL`, or in the table's PDB). Or, knowing the snapshot then holds only the rows the policies let the user see, set cdc.snapshot.access.policies=allow. Where every such policy is column-level and the snapshot only reads its columns (they are not the key nor in the table's cdc.snapshot.select.override), leaving them out with cdc.columns.exclude stops the policies applying; the message names them then. `oracle-cdc doctor` (check tables.access-policies) lists the tables and policies.";
    Cdc2207 = "CDC-2207", Failure, "A Data Redaction policy would mask the snapshot",
        "A captured table has an enabled Oracle Data Redaction policy (REDACTION_POLICIES: ENABLE = 'YES') and the capture user lacks the system privilege EXEMPT REDACTION POLICY. Oracle masks the redacted columns in the results of the user's queries (full redaction: 0 for numbers, a single space for character types), while LogMiner's change stream carries the true values: the snapshot would silently hold masked values. The snapshot of the table is refused before anything of it is read. A policy masks a column only in a session where the column's expression (its named policy expression, else the policy's; REDACTION_EXPRESSIONS, REDACTION_POLICIES) is TRUE: the expressions are evaluated in the capture user's session first, and a policy whose expressions are all FALSE there (one that exempts the capture user with SYS_CONTEXT('USERENV','SESSION_USER'), say) does not stop the snapshot. An expression that cannot be evaluated there counts as TRUE.",
        "Exempt the capture user from Data Redaction (Advanced Security Guide, \"Exemption of Users from Oracle Data Redaction Policies\"): `GRANT EXEMPT REDACTION POLICY TO <cdc.database.user>;` (in a CDB, as a common grant `CONTAINER=ALL`, or in the table's PDB). Or have the policy's expressions exempt the capture user (DBMS_REDACT.ALTER_POLICY with action => DBMS_REDACT.MODIFY_EXPRESSION, e.g. expression => 'SYS_CONTEXT(''USERENV'',''SESSION_USER'') != ''<user>'''). Or, knowing the snapshot then holds the masked values, set cdc.snapshot.access.policies=allow. `oracle-cdc doctor` (check tables.access-policies) lists the tables and policies.";
    Cdc4001 = "CDC-4001", Failure, "Emulator database not found",
        "The directory given as an emulated database does not hold one (no schema.yaml / redo).",
        "Create it with `oracle-cdc emulator init DIR --schema FILE`, or fix the path in cdc.database.url or cdc.mining.database.url (emulator:DIR).";
    Cdc4002 = "CDC-4002", Usage, "Emulator schema file is invalid",
        "The emulator schema file has an error; the message names the table, column or key at fault.",
        "Fix the schema file; examples/emulator-schema.yaml documents every field.";
    Cdc4003 = "CDC-4003", Failure, "Emulator database is busy",
        "Another process holds the emulated database's writer lock (one writer at a time, like a database instance).",
        "Stop the other `emulator workload` (the message names its pid) or wait for it to finish (`emulator workload --wait` waits, then runs); readers need no lock.";
    Cdc4004 = "CDC-4004", Failure, "Emulator redo is damaged",
        "A record in the emulated database's redo file cannot be read or does not match the checksum that ends its line (the message names the line), or a page of rows in its checkpoint (checkpoint.dat) does not match its checksum (the message names the file, the table and the bytes). A torn last line from a killed writer is ignored; damage elsewhere is not, and damaged rows are never served.",
        "Restore the directory from a copy, or create a new database with `oracle-cdc emulator init`. A damaged checkpoint.dat alone can be removed: the next open replays the whole redo instead.";
    Cdc4005 = "CDC-4005", Usage, "Unknown table",
        "A command named a table that the database does not have.",
        "Use a table name as PDB.OWNER.TABLE or OWNER.TABLE; `oracle-cdc emulator status DIR` lists the tables of an emulated database.";
    Cdc4006 = "CDC-4006", Usage, "Workload options are invalid",
        "The emulator workload options cannot be run as given (for example a mix that sums to zero).",
        "See `oracle-cdc emulator workload --help`.";
    Cdc4007 = "CDC-4007", Usage, "Emulator size beyond its limits",
        "An emulator schema asks for more than the emulator is built for: more initial rows per table, tables, columns or redo log size than its limits (the message names the field and the limit). It would take hours and all the disk before failing.",
        "Lower the value in the schema file (examples/emulator-schema.yaml documents each field); the emulator is for tests and demos, not volume.";
    Cdc4008 = "CDC-4008", Failure, "Emulated redo is behind what was read",
        "The emulated database's redo file is shorter than what its readers (LogMiner sessions, capture) already read: it was cut or replaced while in use. A database never loses redo it wrote, so the database would now be behind what capture published.",
        "Put the redo file back (or create the database again with `emulator init` and start capture with a fresh state directory); do not edit an emulated database's files by hand.";
    Cdc4009 = "CDC-4009", Failure, "SCN goes backwards in the emulated redo",
        "A record of the emulated redo file has a lower SCN than the record before it. The one writer hands SCNs out in order, so the file was changed by something else.",
        "Restore the redo file, or create the database again with `emulator init`.";
    Cdc5001 = "CDC-5001", Failure, "Snapshot too old (ORA-01555)",
        "A read AS OF SCN needed undo that the database no longer keeps.",
        "Reduce cdc.snapshot.chunk.rows so each read is shorter, or raise UNDO_RETENTION (ALTER SYSTEM SET UNDO_RETENTION = 3600) and consider RETENTION GUARANTEE on the undo tablespace.";
    Cdc5002 = "CDC-5002", Failure, "Not a valid SCN (ORA-08181)",
        "The SCN asked for is older than the database's flashback history or newer than the current SCN.",
        "Use an SCN between the oldest flashback point and the current SCN; `oracle-cdc emulator status` shows both for an emulated database.";
    Cdc5003 = "CDC-5003", Failure, "Table definition has changed (ORA-01466)",
        "A read AS OF SCN asked for a table whose definition changed (DDL) after that SCN.",
        "Read at an SCN after the table's last DDL. A snapshot does so itself: the chunk (or the key boundaries of the next chunks) is read again at a fresh SCN, up to cdc.snapshot.chunk.ddl.retries times, each a snapshot-chunk-retry ops event; only a blocking snapshot, whose chunks are all read at the SCN streaming paused at, cannot (send its signal again).";
    Cdc5004 = "CDC-5004", Failure, "Redo log needed for mining is missing (ORA-01291)",
        "LogMiner needs a redo log that is not available. Older than the oldest log still there (an archive deleted, an online log overwritten): the stream cannot go on from here and capture stops at once. Within the logs but missing from the list (a gap in a thread's sequences, a log being archived while the list was read, an archiver or redo transport lagging): capture lists the logs again and mines the window again, with the backoff of cdc.database.connect.backoff.ms, up to 10 times in a row; this error then means the gap stayed.",
        "For a gap, check the archiver (the alert log, V$ARCHIVE_DEST_STATUS) and that no job deletes archives in the middle of the sequence. Restore the archived logs from backup if possible; otherwise the stream cannot resume here: take a new snapshot (`oracle-cdc offsets edit reset-table`, or start with a fresh state directory).";
    Cdc5005 = "CDC-5005", Failure, "Database is read-only (ORA-16000)",
        "A write was sent to a database open read-only (e.g. a physical standby).",
        "Nothing should write to a read-only database: use the file signal channel and read-only settings.";
    Cdc5006 = "CDC-5006", Failure, "Database error",
        "The database returned an error without a more specific code; the message carries it.",
        "Read the ORA- error in the message.";
    Cdc5007 = "CDC-5007", Failure, "Connection lost",
        "The connection to the database dropped during a call: ORA-03113 / ORA-03114 / ORA-03135 (the network or the server process went away), ORA-00028 (the session was killed) and ORA-01012 after it, ORA-01089 (the instance is shutting down), ORA-02396 (the profile's IDLE_TIME ended an idle session), a call over cdc.database.call.timeout.ms. Capture reconnects and makes the call again (a mining window is mined again from its start, a snapshot chunk read again; nothing from the failed call is published), each retry an ops event `source-retry` and a count in oracle_cdc_source_retries_total; while the database is down it keeps trying for cdc.database.reconnect.max.ms. This error means the connection kept dropping (10 calls in a row) or the database stayed away that long.",
        "Check the network and the database's alert log (a restart, killed sessions); for an IDLE_TIME profile limit give the capture user a profile without one (ALTER PROFILE … LIMIT IDLE_TIME UNLIMITED) or keep it, capture reconnects; raise cdc.database.reconnect.max.ms if outages last longer.";
    Cdc5008 = "CDC-5008", Failure, "Invalid SCN range for mining (ORA-01281)",
        "The LogMiner window's end SCN is not after its start SCN.",
        "This points at a bug in the caller; report it with the SCNs in the message.";
    Cdc5009 = "CDC-5009", Failure, "Redo log overwritten while mined (ORA-00310, ORA-01368)",
        "An online redo log was archived and reused while LogMiner read it (ORA-00310: archived log contains sequence N; sequence M required; ORA-01368: redo log file header mismatch, the file now holds a later sequence). Capture starts a new LogMiner session on the current log list and mines the window again, up to 10 times in a row; this error means it kept happening.",
        "Add redo log groups or make them larger so a log stays online longer than a mining window (fewer log switches), or lower cdc.stream.window.scn; check the archive destinations are reachable (`oracle-cdc doctor`).";
    Cdc5010 = "CDC-5010", Failure, "Redo log cannot be opened (ORA-01284, ORA-00308)",
        "A redo log file LogMiner was given could not be opened while the window was mined: ORA-01284 (file cannot be opened: it no longer exists where V$LOG / V$ARCHIVED_LOG said, or is not accessible) at ADD_LOGFILE or START_LOGMNR, or ORA-00308 (cannot open archived log) part-way through the query, typically an archived log deleted (RMAN, a retention job) or an online log switched and archived between listing the logs and reading them. Capture starts a new LogMiner session on the log list as it is now and mines the window again from its start, up to 10 times in a row, publishing nothing from the failed attempt; this error means it kept happening.",
        "Keep archived logs until capture has mined them (an RMAN deletion policy or retention job that runs behind the stored resume position: `oracle-cdc offsets inspect` shows it), check the archive destination's files are readable by the database (ASM or NFS paths included) and that the archiver keeps up; `oracle-cdc doctor` checks the destinations and the retained logs. If the log is gone for good, restore it from backup (RMAN> RESTORE ARCHIVELOG …).";
    Cdc5011 = "CDC-5011", Failure, "No LogMiner session is active (ORA-01307)",
        "V$LOGMNR_CONTENTS was queried without an active LogMiner session: the session was ended under the query (END_LOGMNR from another call, a session reset by the database, a killed or recycled session). Capture starts a new LogMiner session and mines the window again from its start, up to 10 times in a row, publishing nothing from the failed attempt; this error means it kept happening.",
        "Check that nothing else ends the capture user's LogMiner sessions (another tool on the same connection pool, a script calling DBMS_LOGMNR.END_LOGMNR, a resource manager plan killing long sessions) and the database's alert log for session terminations.";
    Cdc5012 = "CDC-5012", Failure, "LOB snapshot too old (ORA-22924)",
        "A snapshot chunk read AS OF SCN needed an older version of a LOB value that was already overwritten: old LOB versions live in the LOB segment itself (its RETENTION, or PCTVERSION for BasicFiles), not in undo. The chunk is retried like an ORA-01555 (CDC-5001): halved down to 1,000 rows, then the snapshot stops with CDC-8001.",
        "Keep old LOB versions longer: for BasicFiles LOBs ALTER TABLE \"O\".\"T\" MODIFY LOB (\"C\") (PCTVERSION 20) or (RETENTION); SecureFiles LOBs follow UNDO_RETENTION (ALTER SYSTEM SET UNDO_RETENTION = 3600). Or read smaller chunks (cdc.snapshot.chunk.rows) while the LOBs are updated less, or exclude the column (cdc.columns.exclude).";
    Cdc5013 = "CDC-5013", Failure, "LogMiner found corruption in the redo stream (ORA-01343)",
        "LogMiner stopped at redo it could not read while the window was mined (ORA-01343: LogMiner encountered corruption in the logstream). A damaged log gives it; so does a log list that lacks a log LogMiner needs, which Debezium met on RAC with another thread's logs missing from its list (DBZ-4850, after which it retries the error). Oracle's message names no log; the error gives the window's SCNs. Capture starts a new LogMiner session on the log list as it is now (every thread's logs covering the window) and mines the window again from its start, up to 10 times in a row, publishing nothing from the failed attempt; this error means it kept happening, so a log of the window is likely damaged.",
        "Find the logs that cover the window's SCNs (V$ARCHIVED_LOG and V$LOG: FIRST_CHANGE# to NEXT_CHANGE#, for every THREAD#) and check them: the alert log names corrupt blocks, and `ALTER SYSTEM DUMP LOGFILE '<file>' VALIDATE;` reads one whole. Restore a damaged archived log from a backup (RMAN> RESTORE ARCHIVELOG …) and start capture again; capture never mines with SKIP_CORRUPTION, which would drop the changes in the skipped blocks.";
    Cdc5014 = "CDC-5014", Failure, "The database ran out of memory for a call (ORA-04030, ORA-04036)",
        "A call failed for lack of memory on the database side: ORA-04030 (out of process memory: the server process could not grow its private memory, an operating-system or ulimit limit) or ORA-04036 (the instance's PGA use passed PGA_AGGREGATE_LIMIT and the calls using the most untunable memory were ended; sessions it then ends are a lost connection, CDC-5007). A LogMiner session is the usual one to meet it on a busy database, as Debezium's documentation on ORA-04036 says. A mining window is mined again on a new session (the old one given up, so its memory is freed), up to 10 times in a row; a snapshot chunk is read again on a new session, up to cdc.snapshot.chunk.retries times (then the snapshot stops with CDC-8001, naming this error). Capture stops with this error when a window kept failing, or at once when another call (the current SCN, the log list, a catalog read) meets it.",
        "Give the database more process memory: raise PGA_AGGREGATE_LIMIT (ALTER SYSTEM SET PGA_AGGREGATE_LIMIT = 8G; 0 removes the limit) or the server processes' memory limits, and check V$PROCESS_MEMORY and the alert log for what holds it. Mining smaller windows needs less (cdc.stream.window.scn); so do fewer snapshot readers (cdc.snapshot.threads). Starting capture again resumes from the offsets.";
    Cdc5015 = "CDC-5015", Failure, "A LogMiner dictionary build could not lock the dictionary (ORA-01327)",
        "DBMS_LOGMNR_D.BUILD needs the system dictionary locked exclusively while it writes the dictionary into the redo, and fails with ORA-01327 (failed to exclusively lock system dictionary as required BUILD) while DDL holds it: another session creating, altering or dropping objects, or a long-running DDL. Debezium retries it (DBZ-4010, also nested under another error: DBZ-6610). Capture's own builds at log switches (cdc.mining.dictionary.build=log_switch) do not stop for it: the build is left to the next log switch, a `dictionary-build-deferred` ops event, and windows meanwhile read from the newest build there is. It only shows as an error where a build was asked for at once.",
        "Nothing to do when it passes. If every build meets it, find the DDL holding the dictionary (V$SESSION: the sessions running DDL, their wait events and BLOCKING_SESSION; DBA_DDL_LOCKS where catblock.sql has created it) and let it finish: any DDL on the database blocks a build, not only in the captured schemas. Or build at a quiet time (`EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS);` in CDB$ROOT).";
    Cdc5016 = "CDC-5016", Failure, "LogMiner's internal error known to pass (ORA-00600 [krvrdGetUID], [krvrdccs10], [krvrdccs30])",
        "LogMiner stopped a window with an internal error naming an argument Debezium's error handler retries because a new LogMiner session gets past it: ORA-00600 [krvrdGetUID] (an object's identifier changed under LogMiner, as by a schema change while mined) or [krvrdccs10] / [krvrdccs30]. Capture starts a new LogMiner session and mines the window again from its start, up to 10 times in a row, publishing nothing from the failed attempt; this error means it kept happening. Any other ORA-00600 is an internal error capture does not retry (CDC-5006).",
        "Look the error's arguments up in My Oracle Support (the ORA-00600 lookup tool) for the database's release, and check the alert log and the trace file it names; a DDL on a captured table while it was mined is the usual cause of [krvrdGetUID]. Starting capture again resumes from the offsets; if the window keeps failing, apply the patch the lookup names.";
    Cdc5017 = "CDC-5017", Failure, "A call passed a per-call resource limit (ORA-02393, ORA-02395, ORA-00040, ORA-56722, ORA-56733, ORA-07455)",
        "The database ended one call (a parse, execute or fetch) of the capture user for passing a limit on a single call, rolled back its statement and kept the session: the user's profile's CPU_PER_CALL (ORA-02393, hundredths of a second) or LOGICAL_READS_PER_CALL (ORA-02395, blocks), enforced while RESOURCE_LIMIT is TRUE, or a Resource Manager plan's per-call limits for the user's consumer group with SWITCH_GROUP CANCEL_SQL: SWITCH_TIME (ORA-00040), SWITCH_IO_REQS (ORA-56722), SWITCH_IO_LOGICAL (ORA-56733), or MAX_EST_EXEC_TIME refusing a statement estimated to run longer (ORA-07455). A call's cost grows with what it reads, so capture reads less at a time: a snapshot chunk is read again in halves (as after ORA-01555), down to 1,000 rows, then the snapshot stops with CDC-8001 naming this error; a mining window is mined again in halves (the windows after it keep that size until 16 in a row have passed, then double back towards cdc.stream.window.scn), down to one SCN, then capture stops with this error. The limits that end the session instead (ORA-00041, ORA-56723, ORA-56734, and the profile's per-session limits) are a lost connection (CDC-5007).",
        "Ask the DBA to lift the limit for the capture user: a profile of its own with CPU_PER_CALL and LOGICAL_READS_PER_CALL UNLIMITED (CREATE PROFILE cdc_profile LIMIT CPU_PER_CALL UNLIMITED LOGICAL_READS_PER_CALL UNLIMITED; ALTER USER <user> PROFILE cdc_profile), or a consumer group without per-call switches (DBMS_RESOURCE_MANAGER.SET_CONSUMER_GROUP_MAPPING). Until then smaller reads pass more often: cdc.snapshot.chunk.rows for the snapshot, cdc.stream.window.scn for mining; a chunk of 1,000 rows or a window of one SCN that still passes the limit cannot be read under it.";
    Cdc5201 = "CDC-5201", Failure, "Mining database lacks a redo log the offsets need",
        "Mining runs on a downstream database (cdc.mining.database.url), and the redo the stored position (or the snapshot's start) needs is not there (ORA-01291): the log was never shipped from the source, was deleted on the downstream, or a sequence is missing in the middle (a gap in redo transport). The message gives the SCN, the thread and sequence when known, and the oldest SCN the downstream has.",
        "Ship the missing archived logs to the downstream (resolve the gap: check V$ARCHIVE_GAP and the source's LOG_ARCHIVE_DEST_n status, or copy the archives and register them) and start capture again; `oracle-cdc doctor` lists what the downstream holds. If the logs are gone everywhere the stream cannot resume here: take a new snapshot (fresh state directory, or `oracle-cdc offsets edit reset-table`).";
    Cdc5202 = "CDC-5202", Failure, "Stopped while waiting for minable redo",
        "Capture was told to stop (Ctrl-C, SIGTERM) while it waited for the redo a snapshot chunk's position needs to become minable: LogMiner returns only redo the log writer has written (V$THREAD.LAST_REDO_CHANGE# of every open thread), and a downstream mining database only the redo shipped to it. Capture ends cleanly (exit 0): the chunks not published yet are read again at the next start. This code shows only in logs.",
        "Nothing to do; if capture keeps waiting, check V$THREAD (an open RAC instance that writes no redo holds the bound back) and, on a downstream, redo transport (with archived-log shipping, redo arrives only after each log switch).";
    Cdc5203 = "CDC-5203", Failure, "A redo thread's logs do not cover the mining window",
        "On RAC every instance writes its own redo thread, and a mining window needs the logs of every thread that has redo in it: an open thread's from the window's first SCN on (or from its ENABLE_CHANGE#, if it was enabled later), a closed thread's up to its last redo (V$THREAD). For one thread they are not all there: its oldest available log starts after the window's first SCN (the logs before were deleted or never archived where capture reads them), a sequence is missing in between, or the thread has no log at all. Mining on without them would skip that instance's changes without a word (Debezium's consistency check, DBZ-6013, refuses the same). The message names the thread, the SCN and what is missing.",
        "Make that thread's archived logs available again (restore them with RMAN: RESTORE ARCHIVELOG FROM SEQUENCE n THREAD t, or fix the archive destination every instance writes to, so V$ARCHIVED_LOG lists them with STATUS 'A' on a VALID LOCAL destination) and start capture again; `oracle-cdc doctor` (redo.retention) lists what each thread holds. Keep archived logs of every thread until capture has mined past them. If they are gone for good the stream cannot resume here: take a new snapshot (a fresh state directory, or `oracle-cdc offsets edit reset-table`).";
    Cdc5301 = "CDC-5301", Usage, "Downstream mining needs the dictionary in the redo",
        "Mining runs on a downstream database (cdc.mining.database.url) with cdc.mining.dictionary=online_catalog. LogMiner's online catalog is the mining database's own dictionary, and Oracle's Utilities says that with it \"you must mine the redo log files in the same database that generated them\": on another database the source's object numbers decode to nothing (\"UNKNOWN\".\"OBJ# n\") or to the wrong tables, so changes would be lost without a word. Capture refuses before it mines anything.",
        "Extract the dictionary into the redo on the source (as a user with EXECUTE_CATALOG_ROLE, in CDB$ROOT on a CDB): `EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS);` then `ALTER SYSTEM ARCHIVE LOG CURRENT;` so the build reaches an archived log the downstream receives (emulator: `oracle-cdc emulator build-dictionary SOURCE_DIR`), and set cdc.mining.dictionary=redo_logs. Or mine on the source: remove cdc.mining.database.url.";
    Cdc5302 = "CDC-5302", Failure, "No LogMiner dictionary in the redo for the window",
        "cdc.mining.dictionary=redo_logs, and the mining database holds no dictionary build (an archived log V$ARCHIVED_LOG marks DICTIONARY_BEGIN/DICTIONARY_END) that ends at or before the window's first SCN: LogMiner fails with ORA-01371 (complete LogMiner dictionary not found), ORA-01333 or ORA-01321 (no dictionary for the requested start SCN). The message gives the window's SCN and the builds it holds.",
        "On the source run `EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS);` and `ALTER SYSTEM ARCHIVE LOG CURRENT;` (emulator: `oracle-cdc emulator build-dictionary SOURCE_DIR`), make sure its logs reach (and stay on) the mining database, and start capture again; a resume position before every build needs an older build, or a new snapshot. After this first build capture makes its own at each log switch (cdc.mining.dictionary.build=log_switch, the default), so keep the archived logs of a few log switches; with `never` rebuild now and then, since with DDL_DICT_TRACKING LogMiner reads all redo from the build on.";
    Cdc6001 = "CDC-6001", Failure, "File I/O error",
        "A local file or directory could not be read or written; the message names it.",
        "Check the path, free space and permissions.";
    Cdc6002 = "CDC-6002", Usage, "Replay export is invalid",
        "The V$LOGMNR_CONTENTS export of a replay:DIR source (DIR/logmnr.csv) cannot be read: the message gives the file, the line and the column (or field number) at fault — an unknown OPERATION_CODE, a value that is not a number, a COMMIT_SCN below the row's own SCN (a transaction commits after its changes), an unterminated quoted field, a row with more or fewer fields than the header, or a header without SCN, OPERATION_CODE or XID.",
        "Fix the export at the position shown, or make it again as commands/capture.md (\"Replay a production export\") describes: SQL*Plus `SET MARKUP CSV ON QUOTE ON` or SQLcl `SET SQLFORMAT CSV`, with a header row and the column names of the view.";
    Cdc6101 = "CDC-6101", Failure, "Value does not fit its Parquet column",
        "A value cannot be written in the Arrow type its Oracle column maps to in a Parquet export (commands/snapshot.md, \"Parquet\"): a TIMESTAMP(7..9) outside 1677-09-21..2262-04-11 (nanoseconds since 1970 overflow 64 bits), a number with more digits than its NUMBER(p,s) declares, or a value of another type than the column's. The message names the table, the column and the value.",
        "Exclude the column (cdc.columns.exclude), or export the table as JSON lines or CSV (--format jsonl or csv), which keep such values as text.";
    Cdc6102 = "CDC-6102", Failure, "Parquet file cannot be written or read back",
        "Writing a Parquet file failed, or a resumed export could not read the row groups of an unfinished Parquet file back (neither its `.footer` sidecar nor its own footer can be read). The message names the file.",
        "Check free space and the file named. To export the table again from the start, move the export directory away and rerun the command.";
    Cdc6103 = "CDC-6103", Usage, "Parquet column name taken",
        "A Parquet export writes a TIMESTAMP WITH TIME ZONE column COL as the UTC instant COL plus its offset from UTC in minutes as COL_TZ_OFFSET; the table already has a column of that name.",
        "Exclude one of the two columns (cdc.columns.exclude), or export the table as JSON lines or CSV.";
    Cdc6201 = "CDC-6201", Usage, "Invalid Kafka sink setting",
        "A cdc.sink.kafka.* setting cannot be used: no brokers, a broker address that is not host:port (an IPv6 address in brackets, `[::1]:9092`; a non-empty host; a port from 1 to 65535), or a cdc.sink.kafka.producer.* key the built-in producer does not understand (or a value it cannot honour, such as acks other than all). The message names the key and what is allowed.",
        "Fix the key or value as the message says; commands/capture.md (\"Kafka sink\") lists every Kafka setting and the producer keys that are understood.";
    Cdc6202 = "CDC-6202", Failure, "Kafka broker unreachable",
        "No broker of cdc.sink.kafka.brokers could be reached, or the connection broke, for longer than cdc.sink.kafka.producer.delivery.timeout.ms (default 120000, Kafka's); or, at start, none of the bootstrap brokers' names resolves (as Kafka's client refuses \"No resolvable bootstrap urls\"). Until the timeout capture waits (`paused-for-flow-control`) and retries with backoff; the message counts the attempts and the brokers of the last pass (not resolved, refused or timed out). Nothing acknowledged is lost and nothing is reordered. A stop while it waits ends capture as a stop (exit 0).",
        "Check that the broker runs and that its name resolves and its address is reachable from this host (advertised listeners included), or raise cdc.sink.kafka.producer.delivery.timeout.ms. Restarting capture resumes from the stored offsets.";
    Cdc6203 = "CDC-6203", Failure, "Kafka broker rejected a request",
        "The broker answered a request with an error that retrying cannot fix (for example TOPIC_AUTHORIZATION_FAILED, INVALID_TOPIC_EXCEPTION, MESSAGE_TOO_LARGE, or a transaction the broker aborted). The message names the request, the topic or transaction and the broker's error.",
        "Fix what the broker's error names (topic rights, topic name, max.message.bytes, transaction timeout). Restarting capture resumes from the stored offsets: records not acknowledged are sent again.";
    Cdc6204 = "CDC-6204", Failure, "Kafka protocol mismatch",
        "The broker does not support a version of a request the producer needs (ApiVersions gave no common version), or a response could not be decoded.",
        "Use a broker that supports Kafka protocol 2.x requests (Produce v3+ with record batches v2, and for cdc.sink.kafka.transactional.id the transaction requests). The message names the request and the versions each side supports.";
    Cdc6205 = "CDC-6205", Failure, "Kafka producer fenced",
        "Another producer started with the same cdc.sink.kafka.transactional.id (a second capture on the same settings?), so the broker fenced this one. This capture stops; its open transaction is aborted, so nothing is published twice.",
        "Run one capture per transactional id. Give each capture (each state directory) its own cdc.sink.kafka.transactional.id.";
    Cdc6206 = "CDC-6206", Failure, "Kafka position does not match the stored offsets",
        "With transactions, each Kafka transaction carries the offsets that capture stores after it in the offsets topic. On start the last committed ones are compared with the local offsets file: the file may be one transaction behind (a crash between the two writes; the Kafka copy is taken), but here the Kafka copy is further ahead, or behind, which means another capture wrote to the topics or the offsets file was replaced.",
        "Point the capture at its own state directory and offsets topic (cdc.sink.kafka.topic.offsets), or start afresh with a new state directory, a new transactional id and new topics.";
    Cdc6207 = "CDC-6207", Failure, "Kafka TLS handshake failed",
        "With cdc.sink.kafka.security.protocol=SSL the connection to a broker is TLS, and its handshake failed in a way a retry cannot fix: the broker's certificate is not signed by a CA of cdc.sink.kafka.ssl.ca.location (or, unset, of the Mozilla roots publicly trusted brokers use), is expired, or is not for the broker's name as listed in cdc.sink.kafka.brokers or advertised by the broker (its advertised.listeners); or the listener does not speak TLS (a PLAINTEXT port). The message names the broker and the TLS error. A connection lost during the handshake is CDC-6202 and retried.",
        "Point cdc.sink.kafka.ssl.ca.location at the PEM file of the CA that signed the brokers' certificates (ssl.truststore in a Java client's settings: `keytool -exportcert -rfc` gives the PEM), list the brokers by a name their certificates hold, or use the listener's port for SSL. `openssl s_client -connect HOST:PORT -showcerts` shows what the broker presents.";
    Cdc6208 = "CDC-6208", Failure, "Kafka SASL authentication failed",
        "With cdc.sink.kafka.security.protocol=SASL_PLAINTEXT or SASL_SSL every connection to a broker authenticates (SaslHandshake, then SaslAuthenticate) with cdc.sink.kafka.sasl.mechanism as cdc.sink.kafka.sasl.username, and the broker refused it in a way a retry cannot fix: the user does not exist or the password is wrong (SASL_AUTHENTICATION_FAILED; for SCRAM, the user has no credential for this mechanism: SCRAM-SHA-256 and SCRAM-SHA-512 credentials are separate), the broker does not enable the mechanism (UNSUPPORTED_SASL_MECHANISM, with the ones it offers), the listener is not a SASL one, or with SCRAM the broker's final signature is wrong (it does not know the password: not the broker it claims to be, or brokers with different credentials). The message names the broker and mechanism, never the password. A connection lost during the exchange is CDC-6202 and retried.",
        "Check the user and password the broker's administrator gave (kafka-configs --describe --entity-type users shows a user's SCRAM mechanisms; Confluent Cloud's API key and secret are the user and password with PLAIN over SASL_SSL), set the mechanism the broker enables, and point cdc.sink.kafka.brokers at its SASL listener. Passing the password as ${env:NAME} or ${file:PATH} keeps it out of the process list.";
    Cdc6301 = "CDC-6301", Failure, "Path is a symbolic link",
        "State, spool, spill, sink, export and emulator paths are never opened through a symbolic link: a link planted at `capture.lock`, `spill`, a segment or the directory itself could make oracle-cdc truncate, chmod or delete a file elsewhere. The message names the link and where it points.",
        "Remove the link (`rm PATH` removes the link, not its target) and name the real directory in the setting (`readlink -f PATH` shows where the link leads).";
    Cdc6302 = "CDC-6302", Failure, "Directory belongs to another user",
        "A state, sink, export or emulator directory that already exists belongs to a user other than the one running oracle-cdc (and not to root). Its owner could plant links or files in it before capture runs, as ssh's StrictModes guards against.",
        "`chown USER DIR` if the directory is yours, or point the setting (cdc.state.dir, cdc.sink.dir, --out) at a directory of your own; oracle-cdc creates a missing one with mode 0700.";
    Cdc6303 = "CDC-6303", Failure, "Directory is writable by other users",
        "A state, sink, export or emulator directory is writable by its group or by others: they could plant links or files in it. oracle-cdc refuses it, as ssh's StrictModes does.",
        "`chmod go-w DIR` (or `chmod 700 DIR`), or let oracle-cdc create the directory (mode 0700, 0750 with cdc.files.group.readable=true).";
    Cdc6304 = "CDC-6304", Failure, "Not a regular file or directory",
        "Where oracle-cdc reads or writes a file it found a directory, FIFO, socket or device (or a file where it needs a directory). It does not open it: a FIFO would block capture, a device would be written to.",
        "Remove the entry the message names (it is not one oracle-cdc wrote), then run again.";
    Cdc6305 = "CDC-6305", Failure, "File too large",
        "A file oracle-cdc reads whole (a signal file in the spool) is larger than it may be; it is not read. A signal is a small JSON document.",
        "Remove the file from the spool; send the signal again with `oracle-cdc signal send`.";
    Cdc6306 = "CDC-6306", Failure, "Two tables map to one file name",
        "Export and offsets file names are made from table names by one escaping rule that keeps every name apart, also on case-insensitive file systems; only names longer than a file name may be are shortened with a hash, and two of those collided.",
        "Export the two tables into separate directories (`--tables`), or report it.";
    Cdc6401 = "CDC-6401", Failure, "Sink directory belongs to another capture",
        "A file sink directory (cdc.sink.dir) belongs to one capture. Its first start claims it with a random id kept in its offsets (`sink_owner`) and in `.sink-owner.json` in the directory (with its state directory and database), and a running capture holds `.sink.lock` there. Another capture (another cdc.state.dir, whose offsets hold another id or none) would acknowledge the same segment files, and a restart of either would cut back records the other had acknowledged; so it is refused before anything is written or cut: the lock is held (the message names the process), or the owner is another capture (the message names its state directory). A state and sink directory moved or restored together keep their id and stay one capture's.",
        "Give each capture its own cdc.sink.dir. If the owner record is damaged, or this capture's offsets were restored from a copy older than its claim and its offsets are the ones that wrote these segments, stop every capture on the directory, remove `.sink-owner.json` from it and start this capture: it claims the directory anew.";
    Cdc6402 = "CDC-6402", Failure, "The stdout sink's reader went away",
        "With cdc.sink.type=stdout, the process reading capture's standard output closed it (a pipe whose reader exited). Records written after the last acknowledgement may not have been read; capture stops with this error instead of exiting as if it had finished. The message says how many records were acknowledged (flushed to the reader) and whether the snapshot was finished. A pipe holds what was flushed until its reader reads it: records a reader that died had not read yet are not known to capture, so they count as acknowledged.",
        "Start the reader again and then capture: it resumes after the acknowledged records (the stdout sink is at-least-once: records written after the last acknowledgement are written again). For output that survives its reader, use the file sink (cdc.sink.type=file) or Kafka.";
    Cdc7001 = "CDC-7001", Failure, "Offsets belong to another database",
        "The stored offsets were written for a database with another DBID or incarnation (RESETLOGS). Resuming from them would skip or repeat changes.",
        "Point the settings at the database the offsets belong to, or start from scratch with a fresh state directory (or a new --out directory for exports).";
    Cdc7002 = "CDC-7002", Failure, "Offsets file is damaged",
        "The offsets file cannot be read as oracle-cdc offsets JSON; the message names the file and the position.",
        "Restore the timestamped backup next to it (offsets.json.bak-*), or move the file away to start from scratch.";
    Cdc7003 = "CDC-7003", Failure, "Offsets file is from a newer oracle-cdc",
        "The offsets file has a format version this oracle-cdc does not know; it was written by a newer release.",
        "Run the newer oracle-cdc, or restore an older offsets file.";
    Cdc7004 = "CDC-7004", Failure, "State directory is in use",
        "A running capture holds the state directory's lock; its offsets must not change under it.",
        "Stop the capture (the message names its process id) and try again.";
    Cdc7005 = "CDC-7005", Failure, "No offsets to edit",
        "`oracle-cdc offsets edit` found no offsets file in the state directory, so there is nothing to change. Capture (or `oracle-cdc snapshot`) writes it on its first start.",
        "Check cdc.state.dir (or --dir); `oracle-cdc offsets inspect` shows which file is read. To start streaming at an SCN before the first start, run `offsets edit set-scn` with the database reachable: it creates the offsets.";
    Cdc7006 = "CDC-7006", Usage, "Offsets edit would skip data",
        "The edit moves the offsets past data that was never published: changes committed between two stream positions, transactions skipped by XID, snapshot rows not read yet, a signal snapshot that is not finished, or a sink or schema-history position. The message names what would be lost; nothing was written.",
        "Check the list in the message. If losing exactly that is what you want, run the same command again with --force; `--dry-run` shows the change without writing it.";
    Cdc7007 = "CDC-7007", Failure, "SCN is outside the retained logs",
        "The SCN given to `offsets edit set-scn` (or the resume SCN it leads to) is older than the oldest redo log still available for mining, or newer than the database's current SCN. Capture could not start there.",
        "Choose an SCN between the oldest retained log's first SCN and the current SCN (both are in the message; `oracle-cdc offsets inspect` shows them too). If the logs you need are gone, restore the archived logs or re-snapshot with `oracle-cdc offsets edit reset-table`.";
    Cdc7008 = "CDC-7008", Usage, "Invalid offsets edit",
        "The edit names something the offsets or the settings do not have (a table that is not captured, a table or signal the offsets do not hold), or the edited offsets are not valid: the message names the field or table at fault and why. Nothing was written.",
        "Fix what the message names: table names as PDB.OWNER.TABLE or OWNER.TABLE of a captured table (`oracle-cdc offsets inspect` lists the ones in the offsets), or the field in the edited JSON (commands/offsets.md documents every field).";
    Cdc7009 = "CDC-7009", Failure, "Offsets position is past the database's current SCN",
        "The stored stream position (stream.commit_scn or stream.resume_scn) is after the SCN the database is at now. Capture never writes such a position: the offsets were edited by hand, or belong to another copy of the database with the same DBID (a restore). Capture would wait for SCNs that do not come and publish nothing while transactions commit, so it refuses to start. On a standby the check is not made: its current SCN lags the primary's.",
        "If this is the right database, `oracle-cdc offsets edit set-scn SCN` with the SCN the message names (the current one) or an older one; otherwise point cdc.database.url at the database the offsets belong to. `oracle-cdc offsets inspect` shows the position and the current SCN.";
    Cdc7010 = "CDC-7010", Failure, "Sink position does not end on a record",
        "The acknowledged length of the current sink segment (sink.bytes in the offsets) does not end on a record: the byte before it is not the newline that ends every record. Capture writes only whole records, so the offsets were edited by hand; cutting the segment there would leave a torn record (or delete acknowledged records).",
        "`oracle-cdc offsets edit set-sink BYTES` with a length the message names: the next record end keeps every record in the segment (nothing is cut), an earlier one cuts records and needs --force. `--segment NAME` names another segment.";
    Cdc7011 = "CDC-7011", Failure, "Offsets name an unknown table",
        "The offsets (snapshot progress, a signal snapshot) name a table that is not a table name, or that the database does not have and capture never captured (it is not in the schema history). Capture never writes such a name: the offsets were edited by hand. A table that was captured and then dropped is not an error.",
        "`oracle-cdc offsets edit forget-table NAME` removes it (quote names with lower-case letters or dots: 'HR.\"emp\"'); a name that does not parse is fixed with `oracle-cdc offsets edit --interactive`.";
    Cdc7012 = "CDC-7012", Failure, "Malformed transaction id in the offsets",
        "stream.commit_xids lists the transactions already published at the stream's commit SCN, each as V$LOGMNR_CONTENTS.XID shows it (16 hex digits). One is not a transaction id, so it matches nothing and the transaction it was meant to skip would be published again unnoticed, or a real one would be missing.",
        "`oracle-cdc offsets edit set-scn SCN` with the commit SCN the message names: the transactions committed there are published again (add --skip-xid XID for each one known to be published).";
    Cdc7013 = "CDC-7013", Failure, "Topic naming differs from the stored one",
        "Record topics are named PREFIX.OWNER.TABLE or PREFIX.PDB.OWNER.TABLE (cdc.sink.topic.prefix, cdc.topic.include.pdb). The naming is chosen at the first start and stored in the offsets (`topics`), and kept: under cdc.topic.include.pdb=auto, adding a second PDB's tables keeps the topics as they were. The settings now ask for another prefix, or explicitly for the PDB in the topic (or not): every table would move to another topic without a word, and consumers of the old topics would stop receiving changes. Capture refuses to start.",
        "To keep the topics, put the settings back (the message names the stored naming). To move to the new topics on purpose, move the consumers too and run `oracle-cdc offsets edit set-topic-naming` with the new settings: it stores the naming they ask for, and the next start publishes there.";
    Cdc8001 = "CDC-8001", Failure, "Snapshot chunk cannot be read",
        "A snapshot chunk kept failing: its undo was gone (ORA-01555 or ORA-08181, or a LOB's old version: ORA-22924) even after halving the chunk down to 1,000 rows, or it failed more than cdc.snapshot.chunk.retries times, or its table's definition changed under every read at a fresh SCN more than cdc.snapshot.chunk.ddl.retries times (ORA-01466: ADD / DROP COLUMN while the table is read), or under a blocking snapshot, whose chunks are all read at one SCN. The message names the error of the last read.",
        "Undo gone (ORA-01555, ORA-08181, ORA-22924): raise UNDO_RETENTION (and consider RETENTION GUARANTEE), lower the load on the source while snapshotting, or lower cdc.snapshot.threads. Table definition changed (ORA-01466): hold DDL on the table until its snapshot is done, or raise cdc.snapshot.chunk.ddl.retries; a blocking snapshot's signal is sent again. The chunks already read are kept and the next start resumes at this chunk.";
    Cdc8002 = "CDC-8002", Failure, "Table has no usable key",
        "A captured table has no primary key (or cdc.key.* choice) whose columns are all NOT NULL and of a chunkable type, and cdc.key.missing=fail.",
        "Name a NOT NULL unique key with cdc.key.PDB.OWNER.TABLE, set cdc.key.missing=rowid (heap tables) or skip, or exclude the table.";
    Cdc8006 = "CDC-8006", Usage, "Chosen key is not unique",
        "The columns `cdc.key.PDB.OWNER.TABLE` names do not identify one row: no primary key, unique key or unique index of the table lies within them, or one of them is nullable. Every record of the table would be keyed by them, so a consumer that keeps the latest record per key (a compacted topic, an upsert) would keep one row for all the rows that share a key and lose the others without an error. Capture, the snapshot export and doctor (tables.keys) refuse such a key.",
        "Name columns a primary key, unique key or unique index covers (the message lists the table's), make them NOT NULL (ALTER TABLE … MODIFY (COL NOT NULL)) or add a unique index (CREATE UNIQUE INDEX … ON … (COLS)). If the columns are unique and NOT NULL in fact and you stand by it, list the table in cdc.key.unchecked: doctor then reads a sample of the keys and FAILs on a duplicate it finds.";
    Cdc8007 = "CDC-8007", Failure, "Table columns changed during a CSV export",
        "An ADD, DROP or RENAME COLUMN on a table while `oracle-cdc snapshot --format csv` exported it: the chunks read since have other columns than the header row of the table's file, and a CSV file has one header. The export stopped before writing such a chunk; the file holds the chunks read before the change, each consistent at its SCN. (JSON lines and records exports carry the columns in every row and go on; a Parquet export starts the table's next file with the new schema.)",
        "Export the table again into a new --out directory (`oracle-cdc snapshot --tables PDB.OWNER.TABLE --out NEW`), or use --format jsonl or parquet, which follow the change.";
    Cdc8008 = "CDC-8008", Failure, "Two captured tables publish to one topic",
        "A topic name joins PREFIX, the PDB (when topics name it), the owner and the table with dots, and replaces the characters Kafka refuses with `_` (Debezium's naming), so `A.\"B.C\"` and `\"A.B\".C`, or `HR.\"A$B\"` and `HR.\"A#B\"`, give one topic, and a PDB's table can meet another PDB's of the same name when topics leave the PDB out. Their records would be mixed in one topic under keys that may collide. Capture refuses to start, naming both tables (or stops at the CREATE TABLE of the second, before publishing any of its changes).",
        "Exclude one of the two tables (cdc.tables.exclude), or, when they are in two PDBs, name the PDB in topics (cdc.topic.include.pdb=true, then `oracle-cdc offsets edit set-topic-naming` if capture has published already).";
    Cdc8009 = "CDC-8009", Failure, "Table's segment moved during its ROWID snapshot",
        "A table read by ROWID ranges (no usable key) got a new segment while its snapshot was read: ALTER TABLE … MOVE, MOVE / SPLIT / MERGE / EXCHANGE PARTITION or TRUNCATE gave it a new DATA_OBJECT_ID, and a ROWID carries the data object number of its segment, so every row has a new ROWID and the ranges planned from the old extents hold nothing any more. A MOVE logs no row change, so the change stream would not bring those rows either. Before any chunk of the table was published, and in capture at any time (each chunk it publishes is a read of the table at its SCN), the snapshot plans the table again from its new extents and goes on, up to cdc.snapshot.chunk.ddl.retries times. An export cannot once chunks of the table are written: the rows still to read cannot be told apart from the rows written already (the table has no key, and the move keeps no map from old ROWIDs to new), so the table stops here instead of finishing short. The chunks published before are each right for their SCN.",
        "Hold ALTER TABLE … MOVE and partition maintenance on the table until its snapshot is done, or give it a key (a NOT NULL unique key named with cdc.key.PDB.OWNER.TABLE), whose chunks are key ranges, not ROWIDs. Export: export the table again into a new --out directory (resumed in the same one it stops with CDC-8009 again: the new segment read whole would write the rows written before the move twice). Capture (moves kept coming past the retries): start it again; the table's snapshot resumes in the new segment, whose rows are all read again (rows published before the move come again as reads, each right for its SCN).";
    Cdc8010 = "CDC-8010", Failure, "Key probe does not advance",
        "Planning a table's snapshot chunks asks the database for the keys of every Nth row from a lower bound on (ROW_NUMBER() OVER (ORDER BY key) … AS OF SCN); a boundary it answers must come after that bound. One did not: the database compared another bound than the one sent, so each probe would start over from the same place and planning would never end. The known cause was an NCHAR or NVARCHAR2 key bound as VARCHAR2 in a database whose character set lacks the key's characters (they became '¿'); oracle-cdc binds such bounds as UNISTR of escaped ASCII since, so this means another conversion of a key value between the database and oracle-cdc. The message names the table, the lower bound and the boundary answered.",
        "Choose another key for the table (cdc.key.PDB.OWNER.TABLE: a NOT NULL unique key, such as a NUMBER one) or exclude it (cdc.tables.exclude); and report it with the message: the two key values show the conversion.";
    Cdc8003 = "CDC-8003", Usage, "No table to capture",
        "cdc.tables.include / cdc.tables.exclude (or --tables) select no table of the database.",
        "Check the patterns against the tables the database has (`oracle-cdc plan-chunks` lists what is captured; `oracle-cdc emulator status` lists an emulated database's tables).";
    Cdc8005 = "CDC-8005", Usage, "Output directory holds another export",
        "The --out directory already holds an export of other tables, another format or another database, so it cannot be resumed.",
        "Use a new --out directory, or rerun with the same --tables and --format as the export there.";
    Cdc8101 = "CDC-8101", Usage, "Invalid signal",
        "A signal (from `signal send`, a file in the signal spool, or a row of the signal table) is not in Debezium's shape {\"id\", \"type\", \"data\"}, has an unknown type, a bad id, an empty or unsafe additional-conditions filter, or names a table badly. The message names the field at fault. A capture that receives one records a signal-rejected ops event and moves the file to signals/rejected/.",
        "Fix the field the message names; commands/signal.md shows every signal type. Filters are one SQL condition (no `;`, comments or bind variables, balanced quotes and parentheses).";
    Cdc8102 = "CDC-8102", Usage, "Signal names a table that is not captured",
        "A snapshot signal names a table the database does not have, or one that cdc.tables.include / cdc.tables.exclude leave out, so no capture would ever read it.",
        "Name captured tables as PDB.OWNER.TABLE or OWNER.TABLE (`oracle-cdc plan-chunks` lists them), or add the table to cdc.tables.include first (capture streams it from its next start).";
    Cdc8103 = "CDC-8103", Usage, "Signal id already used",
        "Signal ids are unique: this id is already in the signal spool (waiting, processed or rejected) or in the offsets' signal history, so a second signal with it could be mistaken for the first.",
        "Leave --id out (a fresh id is made) or pick a new one.";
    Cdc8104 = "CDC-8104", Failure, "No state directory to signal",
        "Signals go to a capture through its state directory (cdc.state.dir), and there is none at the path: no capture has run with these settings.",
        "Point cdc.state.dir at the running capture's state directory (the same settings file), or start capture first.";
    Cdc8105 = "CDC-8105", Usage, "Signal channel cannot be used",
        "The signal was sent on a channel that is not enabled (cdc.signal.enabled.channels), or on the source channel without a signal table (cdc.signal.data.collection), or on the source channel while the database is read-only (a standby, or cdc.database.read.only=true).",
        "Use the file channel (the default; it writes nothing to the database), or enable the source channel and name its table.";
    Cdc8106 = "CDC-8106", Failure, "Gave up waiting for the signal",
        "`signal send --wait` saw no outcome for the signal (accepted, rejected, done) in the ops events within --timeout: capture may not be running, or the snapshot is still going.",
        "Check that capture runs with this state directory (`oracle-cdc offsets inspect` shows running signal snapshots); the signal stays in the spool and is picked up when capture runs.";
    Cdc8107 = "CDC-8107", Usage, "Snapshot filter refused by the database",
        "A filter of a snapshot's reads was refused by the database: an execute-snapshot signal's (additional-conditions, `signal send --filter`) or `cdc.snapshot.select.override`'s. Either the database refused to parse it against its table — a column the table does not have (ORA-00904), a syntax error, or (on the emulator) something it cannot evaluate (ORA-03001): `signal send` does not send such a signal, and capture checks the filters of every signal (also of the source channel's) the same way and rejects it with the reason — or it parsed, and a row's value fails a conversion the condition makes while the rows are read: ORA-01722 (invalid number) where a character column is compared with a number, as in `CODE = 10` on a row holding 'ten' (Oracle converts every CODE to a number), or a text that is no date (ORA-01858, ORA-01861 …) where one is compared with a date. Reading again cannot help (the same row is read), so it is not retried: a signal's snapshot ends with `signal-failed` (capture goes on streaming and runs the next signal); a cdc.snapshot.select.override stops capture or the export.",
        "Fix the condition: name columns as the table has them (`oracle-cdc doctor --check tables` lists them; quoted names keep their case), and compare a column with a literal of its own type — a character column with quoted text (`CODE = '10'`, not `CODE = 10`), a date column with TO_DATE('2024-01-31', 'YYYY-MM-DD'). Then send the signal again, or correct cdc.snapshot.select.override and start again (the chunks already read are kept).";
    Cdc8140 = "CDC-8140", Usage, "Signal pattern is not a regular expression",
        "A data-collections entry (or an additional-conditions data-collection) that is not a plain table name is read as a regular expression, as Debezium reads it (Java's Pattern syntax, matched against the whole name), and this one does not compile: an unbalanced group or bracket, a dangling quantifier, or a construct the regular expression engine does not have (look-around, back-references).",
        "Fix the pattern (escape the dots of a name: `SALES\\.ORD.*`), or name the tables one by one (`oracle-cdc plan-chunks` lists them).";
    Cdc8141 = "CDC-8141", Usage, "Signal pattern matches no captured table",
        "A regular expression in a signal's data-collections matches none of the captured tables (Debezium's DATABASE.SCHEMA.TABLE or PDB.SCHEMA.TABLE name, or SCHEMA.TABLE), or an additional-conditions pattern matches none of the signal's tables. Debezium would keep such an entry as a table name and snapshot nothing for it; here the signal is refused, so a typo never passes for a finished snapshot.",
        "Check the pattern against the captured tables (`oracle-cdc plan-chunks` lists them); patterns match the whole name and are case-sensitive (Oracle's names are upper case unless quoted); additional-conditions patterns ignore case.";
    Cdc8142 = "CDC-8142", Usage, "Signal filter SELECT reads another table",
        "A blocking execute-snapshot signal's filter is a whole SELECT (as Debezium allows), and its FROM names a table other than the additional-conditions entry's data-collection. The snapshot reads the entry's table in chunks AS OF SCN; a statement over another table would give that table's rows under this table's topic.",
        "Make the FROM name the entry's table (`SELECT * FROM SCHEMA.TABLE WHERE …`), or give the condition alone (the WHERE clause without `WHERE`).";
    Cdc8143 = "CDC-8143", Usage, "Signal filter SELECT is not a plain filter",
        "A signal's filter is a whole SELECT that is not `SELECT * FROM SCHEMA.TABLE WHERE condition`: a column list, an alias, a join, GROUP BY, ORDER BY, a set operator or no WHERE; or it is in an incremental snapshot's signal, whose filter Debezium takes as a condition only. The snapshot reads whole rows in chunks by key, so only the condition of such a statement can be used; anything else would be dropped without a word.",
        "Give `SELECT * FROM SCHEMA.TABLE WHERE condition` in a BLOCKING signal, or the condition alone (the WHERE clause without `WHERE`) in either kind.";
    Cdc9001 = "CDC-9001", Failure, "Simulated crash",
        "A fault drill (the deterministic simulation, `cargo run --example sim`) stopped the engine at a named crash point, as if the process had been killed there. Only what was durably written before the point survives.",
        "Nothing to fix: restart. This error appears only while a simulation has armed a crash point; a production run never arms one.";
    Cdc9002 = "CDC-9002", Failure, "Change stream overtook a snapshot chunk",
        "Capture's ordering rule: a snapshot chunk read AS OF SCN s is published after every change committed before s and before every change committed after it, so a consumer that keeps the latest record per key ends with each row's newest version. Before publishing a wave of chunks, the stream had already published changes committed after the wave's SCN; the chunks' older rows would then have overwritten them at such a consumer until each row changed again. This is a defect of oracle-cdc, not of the database or the settings: capture stops before publishing the chunks.",
        "Start capture again: the chunks are read again at a new SCN after the stream, and nothing published is lost. Report it with the message (the two SCNs) and the run's ops events (ops.jsonl in cdc.state.dir).";
}

impl Code {
    /// Look a code up by its text, accepting `CDC-8001`, `cdc-8001` and `8001`.
    pub fn lookup(text: &str) -> Option<Code> {
        let t = text.trim().to_ascii_uppercase();
        let t = t.strip_prefix("CDC-").unwrap_or(&t);
        Code::ALL.iter().copied().find(|c| &c.info().code[4..] == t)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().code)
    }
}

/// The engine's error. Display starts with the CDC code.
#[derive(Debug, thiserror::Error)]
pub enum CdcError {
    #[error("{code}: {message}")]
    Settings { code: Code, message: String },

    #[error("CDC-1006: {0}")]
    Argument(String),

    #[error("CDC-1007: unknown error code `{0}`")]
    UnknownCode(String),

    #[error("{code}: {message}")]
    Connect { code: Code, message: String },

    /// A snapshot's own login refused at the session limit (CDC-2011), with none of its
    /// sessions left to give up: told apart from the mining session's, so a signal snapshot
    /// ends alone while a refused mining session stops capture.
    #[error("CDC-2011: {0}")]
    SnapshotSessionRefused(String),

    #[error(
        "CDC-3001: table {table} column {column} has type {data_type}, which has no record mapping"
    )]
    UnsupportedType {
        table: String,
        column: String,
        data_type: String,
    },

    #[error("CDC-3003: {table} changed at SCN {scn} (XID {xid}, ROW_ID {row_id}), but LogMiner wrote the change as UNSUPPORTED (OPERATION_CODE 255) without its values{reason}")]
    UnsupportedRow {
        scn: u64,
        xid: String,
        table: String,
        row_id: String,
        /// `: why` (the table's column type LogMiner ignores), or empty.
        reason: String,
    },

    #[error("CDC-3004: LogMiner reports missing redo at SCN {scn} (MISSING_SCN, thread {thread}): changes in that range may be missing")]
    MissingScn { scn: u64, thread: u32 },

    /// `row`: the row's XID, ROW_ID, operation and statement, as the message gives them.
    #[error("CDC-3010: LogMiner wrote a change of {table} at SCN {scn} with no transaction, which no COMMIT can end: {row}")]
    NoTransaction {
        scn: u64,
        table: String,
        row: String,
    },

    #[error("CDC-3005: {table} changed at SCN {scn} (XID {xid}), and the redo does not hold the value of {column}: {message}")]
    ValueNotInRedo {
        scn: u64,
        xid: String,
        table: String,
        column: String,
        message: String,
    },

    #[error("CDC-3008: {table} changed at SCN {scn} (XID {xid}), and its column {column} is {data_type}, which capture does not stream: {reason}; exclude the column (cdc.columns.exclude) to stream the rest of the table")]
    ColumnNotStreamed {
        scn: u64,
        xid: String,
        table: String,
        column: String,
        data_type: &'static str,
        reason: &'static str,
    },

    #[error("CDC-3006: {table} has a row with OPERATION_CODE {code} ({operation}) at SCN {scn} (XID {xid}), which capture does not know")]
    UnknownOperation {
        scn: u64,
        xid: String,
        table: String,
        code: u32,
        operation: String,
    },

    #[error("CDC-3002: cannot decode SQL_REDO at SCN {scn} (XID {xid}, {table}): {message}")]
    RedoParse {
        scn: u64,
        xid: String,
        table: String,
        message: String,
    },

    #[error("CDC-3020: {table} changed at SCN {scn} (XID {xid}): LogMiner wrote a string value with its quotes not doubled, and the statement reads {readings} that fit the table's columns: `{excerpt}`; set cdc.on.decode.error=dlq to dead-letter it, then re-snapshot the row (execute-snapshot signal)")]
    AmbiguousQuotes {
        scn: u64,
        xid: String,
        table: String,
        /// `2 ways`, or more than are tried.
        readings: String,
        excerpt: String,
    },

    #[error("CDC-3021: {table} changed at SCN {scn} (XID {xid}): LogMiner's dictionary does not match this version of the table (STATUS {status}, INFO '{info}'): {reason}; mine with cdc.mining.dictionary=redo_logs and a dictionary built into the redo before SCN {scn}")]
    DictionaryMismatch {
        scn: u64,
        xid: String,
        table: String,
        status: i32,
        info: String,
        reason: String,
    },

    #[error("CDC-3050: {table} (LogMiner's \"UNKNOWN\".\"OBJ# {object}\") changed at SCN {scn} (XID {xid}), and LogMiner's dictionary does not know the object: {reason}; mine with cdc.mining.dictionary=redo_logs and a dictionary built into the redo after the table was created and before SCN {scn}")]
    UnknownObject {
        scn: u64,
        xid: String,
        table: String,
        /// The object number (DATA_OBJ#, TABLE_NAME `OBJ# n`).
        object: u64,
        reason: String,
    },

    #[error("CDC-3201: {table} changed at SCN {scn} (XID {xid}) and the redo holds no value for {columns}: the table has no ALL COLUMNS supplemental logging")]
    IncompleteChange {
        scn: u64,
        xid: String,
        table: String,
        /// The columns without a value, comma-separated.
        columns: String,
    },

    #[error("CDC-3202: {table} changed at SCN {scn} (XID {xid}), and LogMiner marks it STATUS {status} ({info}): the redo was written without minimal supplemental logging")]
    NoSupplementalLogging {
        scn: u64,
        xid: String,
        table: String,
        status: i32,
        info: String,
    },

    #[error("CDC-4001: {} is not an emulated database: {reason}", path.display())]
    EmulatorNotFound { path: PathBuf, reason: String },

    #[error("CDC-4002: emulator schema {}: {message}", path.display())]
    EmulatorSchema { path: PathBuf, message: String },

    #[error("CDC-4003: emulated database {} is held by another writer (pid {pid})", path.display())]
    EmulatorBusy { path: PathBuf, pid: String },

    #[error("CDC-4004: redo file {} line {line}: {message}", path.display())]
    RedoDamaged {
        path: PathBuf,
        line: u64,
        message: String,
    },

    #[error("CDC-4004: emulator checkpoint {}: {message}", path.display())]
    CheckpointDamaged { path: PathBuf, message: String },

    #[error("CDC-4005: unknown table {table}{hint}")]
    UnknownTable { table: String, hint: String },

    #[error("CDC-4006: {0}")]
    Workload(String),

    #[error("CDC-5001: ORA-01555: snapshot too old: reading {table} AS OF SCN {scn} needs undo that is no longer kept")]
    SnapshotTooOld { table: String, scn: u64 },

    #[error("CDC-5002: ORA-08181: specified number is not a valid system change number: {scn} ({reason})")]
    InvalidScn { scn: u64, reason: String },

    #[error("CDC-5003: ORA-01466: unable to read data - table definition has changed: {table} changed after SCN {scn}{}", ddl_scn.map(|d| format!(" (DDL at SCN {d})")).unwrap_or_default())]
    TableDefinitionChanged {
        table: String,
        scn: u64,
        /// When the database says (the emulator does; Oracle does not).
        ddl_scn: Option<u64>,
    },

    #[error("CDC-5004: ORA-01291: missing log file: mining from SCN {scn} {}", missing_log_detail(*scn, *oldest))]
    MissingLogFile { scn: u64, oldest: u64 },

    #[error("CDC-5201: the mining database {mining} lacks redo the capture needs: ORA-01291: missing log file{}: mining from SCN {scn}{}", sequence.map(|(t, q)| format!(" (thread {t} sequence {q})")).unwrap_or_default(), oldest.map(|o| format!("; the oldest SCN it has is {o}")).unwrap_or_default())]
    MiningLogMissing {
        mining: String,
        scn: u64,
        /// (THREAD#, SEQUENCE#) of the missing log when known.
        sequence: Option<(u32, u64)>,
        oldest: Option<u64>,
    },

    #[error("CDC-2202: the mining database {mining} holds redo of DBID {mining_dbid}, the source {source_url} is DBID {source_dbid}")]
    MiningOtherDatabase {
        mining: String,
        mining_dbid: u64,
        source_url: String,
        source_dbid: u64,
    },

    #[error("CDC-5203: redo thread {thread} lacks logs for mining from SCN {scn}: {reason}")]
    ThreadLogsMissing {
        thread: u32,
        scn: u64,
        reason: String,
    },

    /// A captured table's rows are filtered for the capture user by row access policies
    /// (VPD / OLS) it is not exempt from, or (column-level policies with ALL_ROWS, `nulling`)
    /// their hidden values read as NULL.
    #[error("CDC-2206: the snapshot of {table} {}: the enabled row access {} {} {} to the queries of {user}, who lacks EXEMPT ACCESS POLICY (GRANT EXEMPT ACCESS POLICY TO {user}; or cdc.snapshot.access.policies=allow to read only what the policies let {user} see{})", row_access_effect(policies, nulling), if policies.len() == 1 { "policy" } else { "policies" }, policies.join(", "), if policies.len() == 1 { "applies" } else { "apply" }, exclude_remedy(excludable))]
    RowAccessPolicy {
        table: String,
        user: String,
        policies: Vec<String>,
        /// Those of `policies` that null columns rather than leave rows out.
        nulling: Vec<String>,
        /// When every policy is column-level and the snapshot references their columns only
        /// by reading them: those columns (`TABLE.COLUMN`), whose exclusion would stop them
        /// applying.
        excludable: Vec<String>,
    },

    /// A captured table's columns are masked for the capture user by Data Redaction policies it
    /// is not exempt from.
    #[error("CDC-2207: the snapshot of {table} would hold masked values: the enabled Data Redaction {} {} {} to the queries of {user}, who lacks EXEMPT REDACTION POLICY (GRANT EXEMPT REDACTION POLICY TO {user}; or cdc.snapshot.access.policies=allow to read the masked values)", if policies.len() == 1 { "policy" } else { "policies" }, policies.join(", "), if policies.len() == 1 { "applies" } else { "apply" })]
    RedactionPolicy {
        table: String,
        user: String,
        policies: Vec<String>,
    },

    #[error("CDC-2205: the mining database {mining} holds the source's redo (DBID {dbid}) only of another incarnation: its logs have RESETLOGS_CHANGE# {}, the source's is {source_resetlogs}", found.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))]
    MiningOtherIncarnation {
        mining: String,
        dbid: u64,
        source_resetlogs: u64,
        found: Vec<u64>,
    },

    #[error("CDC-5301: the mining database {mining} is a downstream of the source and cdc.mining.dictionary is online_catalog: LogMiner's online catalog decodes only redo of the database that generated it")]
    DownstreamOnlineCatalog { mining: String },

    #[error("CDC-5302: {mining}: no LogMiner dictionary in the redo for mining from SCN {scn} (ORA-01371: complete LogMiner dictionary not found){}", if builds.is_empty() { "; it holds no dictionary build".to_string() } else { format!("; its builds end at SCN {}", builds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")) })]
    NoDictionaryInRedo {
        mining: String,
        scn: u64,
        /// NEXT_CHANGE# of the logs the builds it holds end in.
        builds: Vec<u64>,
    },

    #[error("CDC-5202: stopped while waiting for minable redo up to SCN {needed} (LogMiner can see redo up to SCN {have}: what LGWR has written on every open thread, and on a downstream what was shipped there)")]
    StoppedWaitingForRedo { needed: u64, have: u64 },

    #[error("CDC-2203: {} is not a usable emulated standby or downstream: {reason}", path.display())]
    EmulatorTopology { path: PathBuf, reason: String },

    #[error("CDC-2204: {} is an emulated downstream mining database: {operation} is refused (it holds only the redo shipped from its source)", path.display())]
    DownstreamNoWrites { path: PathBuf, operation: String },

    #[error("CDC-5005: ORA-16000: database or pluggable database open for read-only access: {operation}")]
    ReadOnly { operation: String },

    #[error("CDC-5006: {0}")]
    Database(String),

    /// A grant is missing (ORA-01031, ORA-00942, PLS-00201, ORA-01045).
    #[error("CDC-2401: {operation}: {message}")]
    Privilege { operation: String, message: String },

    /// The table's PDB is not the session's and cannot be entered.
    #[error("CDC-2301: {0}")]
    ContainerUnreachable(String),

    /// ORA-65040: LogMiner from inside a PDB (before 19c).
    #[error("CDC-2302: {0}")]
    PdbMining(String),

    /// Root mode without a CONTAINER_DATA attribute that shows the PDBs.
    #[error("CDC-2303: {0}")]
    ContainerData(String),

    #[error("CDC-5007: connection lost: {0}")]
    ConnectionLost(String),

    #[error("CDC-5008: ORA-01281: SCN range specified is invalid: start {start}, end {end}")]
    InvalidScnRange { start: u64, end: u64 },

    #[error("CDC-2008: replay:{} holds no table data: cannot {operation}; a replay has only LogMiner rows, so set cdc.snapshot.mode=none", source_dir.display())]
    ReplayHasNoData {
        source_dir: PathBuf,
        operation: String,
    },

    #[error("CDC-2101: cannot serve metrics on {address}: {reason}")]
    MetricsListen { address: String, reason: String },

    #[error("CDC-6002: {} line {line} column {column}: {message}", path.display())]
    ReplayFormat {
        path: PathBuf,
        line: u64,
        column: String,
        message: String,
    },

    #[error("CDC-6001: {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("CDC-6101: {table}.{column}: {message}")]
    ParquetValue {
        table: String,
        column: String,
        message: String,
    },

    #[error("CDC-6102: {}: {message}", path.display())]
    Parquet { path: PathBuf, message: String },

    #[error("CDC-6103: {table}: the Parquet export writes the offset of {column} as {taken}, but the table has a column {taken}")]
    ParquetColumnTaken {
        table: String,
        column: String,
        taken: String,
    },

    /// Capture was told to stop while the Kafka sink waited for a broker: a clean stop (the
    /// offsets name only what the broker acknowledged), which capture ends as such.
    #[error("CDC-6202: stopped while waiting for the Kafka broker ({waiting}); what it had not acknowledged is sent again at the next start")]
    StoppedWaitingForKafka { waiting: String },

    /// Capture was told to stop while it waited for a lost database connection to come back: a
    /// clean stop (the offsets are as last saved), which capture ends as such.
    #[error("CDC-5007: stopped while reconnecting to the database ({waiting}); capture reads on from its saved offsets at the next start")]
    StoppedReconnecting { waiting: String },

    /// A Kafka sink error (CDC-6201..CDC-6206); the message never holds a secret.
    #[error("{code}: {message}")]
    Kafka { code: Code, message: String },

    /// A local path refused (CDC-6301..CDC-6306): a link, another user's directory, …
    #[error("{code}: {}: {message}", path.display())]
    LocalPath {
        code: Code,
        path: PathBuf,
        message: String,
    },

    /// An error whose code says it all (the hardening checks: settings limits, offsets checks,
    /// signals, the emulator's redo checks).
    #[error("{code}: {message}")]
    Coded { code: Code, message: String },

    #[error("CDC-7001: offsets {} belong to database DBID {found_dbid} incarnation {found_incarnation}, not the connected DBID {dbid} incarnation {incarnation}", path.display())]
    OffsetsOtherDatabase {
        path: PathBuf,
        found_dbid: u64,
        found_incarnation: u64,
        dbid: u64,
        incarnation: u64,
    },

    #[error("CDC-7002: offsets file {} is damaged: {message}", path.display())]
    OffsetsDamaged { path: PathBuf, message: String },

    #[error("CDC-7003: offsets file {} has format version {found}; this oracle-cdc reads up to version {supported}", path.display())]
    OffsetsTooNew {
        path: PathBuf,
        found: u32,
        supported: u32,
    },

    #[error("CDC-7004: state directory {} is held by a running capture (pid {pid})", path.display())]
    StateBusy { path: PathBuf, pid: String },

    #[error("CDC-7005: no offsets to edit at {}", path.display())]
    NoOffsets { path: PathBuf },

    #[error("CDC-7006: {0}")]
    EditSkipsData(String),

    #[error("CDC-7007: {0}")]
    ScnNotRetained(String),

    #[error("CDC-7008: {0}")]
    InvalidEdit(String),

    #[error("CDC-8002: table {table} has no usable key ({reason}) and cdc.key.missing=fail")]
    NoUsableKey { table: String, reason: String },

    #[error("CDC-8006: setting `cdc.key.{table}` ({}) is not a unique key: {reason}; {fix}", columns.join(","))]
    KeyNotUnique {
        table: String,
        columns: Vec<String>,
        reason: String,
        fix: String,
    },

    #[error("CDC-8007: the columns of {table} changed during its CSV export: a chunk read at SCN {scn} has ({}), the header of {} has ({})", after.join(", "), file.display(), before.join(", "))]
    ExportLayoutChanged {
        table: String,
        scn: crate::model::Scn,
        file: PathBuf,
        before: Vec<String>,
        after: Vec<String>,
    },

    #[error("CDC-8003: no table to capture: {0}")]
    NoTables(String),

    /// A snapshot read's filter (`cdc.snapshot.select.override`, a signal's
    /// additional-conditions) cannot be evaluated on a row: a value it converts does not
    /// convert (ORA-01722 invalid number; a text that is no date). A retry reads the same row.
    #[error("CDC-8107: {table}: a row fails the snapshot's filter: {message}{}", filter.as_deref().map(|f| format!(" (the filter read: `{}`; cdc.snapshot.select.override and a signal's additional-conditions, ANDed)", shown(f, 200))).unwrap_or_default())]
    FilterFailed {
        table: String,
        filter: Option<String>,
        message: String,
    },

    #[error("CDC-8005: {} holds another export: {reason}", path.display())]
    OtherExport { path: PathBuf, reason: String },

    #[error("CDC-5009: a redo log changed under LogMiner while mined (a new session mines the window again): {0}")]
    LogOverwritten(String),

    /// ORA-00600 [krvrdGetUID] / [krvrdccs10] / [krvrdccs30]: LogMiner's internal errors a new
    /// session gets past.
    #[error("CDC-5016: LogMiner stopped with an internal error a new session gets past (a new session mines the window again): {0}")]
    LogMinerInternal(String),

    /// ORA-01327: a dictionary build could not lock the dictionary (DDL holds it).
    #[error("CDC-5015: a LogMiner dictionary build could not lock the dictionary (DDL holds it; capture builds at the next log switch): {0}")]
    DictionaryLocked(String),

    /// ORA-01343: LogMiner found redo it could not read (a damaged log, or a log list that
    /// lacks a log it needs).
    #[error("CDC-5013: LogMiner found corruption in the redo stream (a new session mines the window again): {0}")]
    LogStreamCorrupt(String),

    /// ORA-02393, ORA-02395, ORA-00040, ORA-56722, ORA-56733, ORA-07455: one call passed a
    /// per-call limit of the user's profile or consumer group; the session goes on.
    #[error("CDC-5017: the database ended the call at a per-call resource limit (capture reads less at a time): {0}")]
    CallLimit(String),

    /// ORA-04030 / ORA-04036: the database ran out of memory for a call.
    #[error(
        "CDC-5014: the database ran out of memory for the call (a new session makes it again): {0}"
    )]
    OutOfCallMemory(String),

    /// ORA-01284 / ORA-00308: a log file could not be opened while mined.
    #[error("CDC-5010: a redo log could not be opened while mined: {0}")]
    LogUnavailable(String),

    #[error("CDC-5011: ORA-01307: no LogMiner session is currently active: {0}")]
    NoLogMinerSession(String),

    #[error("CDC-5012: ORA-22924: snapshot too old: a LOB of {table} read AS OF SCN {scn} needs a version that is no longer kept")]
    LobSnapshotTooOld { table: String, scn: u64 },

    #[error("CDC-8101: invalid signal: {0}")]
    InvalidSignal(String),

    #[error("CDC-8102: {0}")]
    SignalTable(String),

    #[error("CDC-8103: signal id `{0}` is already used")]
    SignalIdUsed(String),

    #[error("CDC-8104: no state directory at {}: no capture has run with these settings", path.display())]
    NoStateDir { path: PathBuf },

    #[error("CDC-8105: {0}")]
    SignalChannel(String),

    #[error("CDC-8106: {0}")]
    SignalWait(String),
    #[error("CDC-9001: simulated crash at crash point {point}")]
    SimulatedCrash { point: String },

    #[error("CDC-8009: snapshot of {table} stopped: its segment was moved (data objects {planned} planned, {now} now: ALTER TABLE … MOVE, partition maintenance or TRUNCATE gave it a new DATA_OBJECT_ID, so every row has a new ROWID) after chunks of it were published; the rows left cannot be told from those published (no key)")]
    SegmentsMoved {
        table: String,
        planned: String,
        now: String,
    },

    #[error("CDC-8001: snapshot of {table} stopped: chunk {chunk} failed: {reason}")]
    ChunkFailed {
        table: String,
        chunk: String,
        reason: String,
    },
}

/// The remedy of leaving column-level policies' columns out of the snapshot, if it applies.
fn exclude_remedy(excludable: &[String]) -> String {
    match excludable.is_empty() {
        true => String::new(),
        false => format!(
            "; or, where consumers need not them, add {} to cdc.columns.exclude: the policies apply only to queries that reference them",
            excludable.join(",")
        ),
    }
}

/// What row access policies do to a snapshot: leave rows out, and / or (column-level policies
/// with ALL_ROWS, `nulling`) show the values they hide as NULL.
fn row_access_effect(policies: &[String], nulling: &[String]) -> String {
    match (nulling.len(), policies.len()) {
        (0, _) => "would lack rows".into(),
        (n, all) if n == all => format!(
            "would hold NULL for values {} hides",
            if n == 1 { "the policy" } else { "the policies" }
        ),
        _ => format!(
            "would lack rows, and hold NULL for values {} hides",
            nulling.join(", ")
        ),
    }
}

impl CdcError {
    /// A change LogMiner did not give in full (CDC-3003 … CDC-3006, CDC-3008, CDC-3010): what
    /// `cdc.on.unsupported.redo` decides about.
    pub fn is_unsupported_redo(&self) -> bool {
        matches!(
            self,
            CdcError::UnsupportedRow { .. }
                | CdcError::MissingScn { .. }
                | CdcError::NoTransaction { .. }
                | CdcError::ValueNotInRedo { .. }
                | CdcError::UnknownOperation { .. }
                | CdcError::ColumnNotStreamed { .. }
        )
    }

    pub fn code(&self) -> Code {
        match self {
            CdcError::Settings { code, .. }
            | CdcError::Connect { code, .. }
            | CdcError::Kafka { code, .. }
            | CdcError::LocalPath { code, .. }
            | CdcError::Coded { code, .. } => *code,
            CdcError::SnapshotSessionRefused(_) => Code::Cdc2011,
            CdcError::Argument(_) => Code::Cdc1006,
            CdcError::UnknownCode(_) => Code::Cdc1007,
            CdcError::UnsupportedType { .. } => Code::Cdc3001,
            CdcError::RedoParse { .. } => Code::Cdc3002,
            CdcError::UnsupportedRow { .. } => Code::Cdc3003,
            CdcError::MissingScn { .. } => Code::Cdc3004,
            CdcError::NoTransaction { .. } => Code::Cdc3010,
            CdcError::ValueNotInRedo { .. } => Code::Cdc3005,
            CdcError::UnknownOperation { .. } => Code::Cdc3006,
            CdcError::ColumnNotStreamed { .. } => Code::Cdc3008,
            CdcError::IncompleteChange { .. } => Code::Cdc3201,
            CdcError::AmbiguousQuotes { .. } => Code::Cdc3020,
            CdcError::DictionaryMismatch { .. } => Code::Cdc3021,
            CdcError::UnknownObject { .. } => Code::Cdc3050,
            CdcError::NoSupplementalLogging { .. } => Code::Cdc3202,
            CdcError::EmulatorNotFound { .. } => Code::Cdc4001,
            CdcError::EmulatorSchema { .. } => Code::Cdc4002,
            CdcError::EmulatorBusy { .. } => Code::Cdc4003,
            CdcError::RedoDamaged { .. } | CdcError::CheckpointDamaged { .. } => Code::Cdc4004,
            CdcError::UnknownTable { .. } => Code::Cdc4005,
            CdcError::Workload(_) => Code::Cdc4006,
            CdcError::SnapshotTooOld { .. } => Code::Cdc5001,
            CdcError::InvalidScn { .. } => Code::Cdc5002,
            CdcError::TableDefinitionChanged { .. } => Code::Cdc5003,
            CdcError::MissingLogFile { .. } => Code::Cdc5004,
            CdcError::MiningLogMissing { .. } => Code::Cdc5201,
            CdcError::MiningOtherDatabase { .. } => Code::Cdc2202,
            CdcError::MiningOtherIncarnation { .. } => Code::Cdc2205,
            CdcError::RowAccessPolicy { .. } => Code::Cdc2206,
            CdcError::RedactionPolicy { .. } => Code::Cdc2207,
            CdcError::ThreadLogsMissing { .. } => Code::Cdc5203,
            CdcError::EmulatorTopology { .. } => Code::Cdc2203,
            CdcError::StoppedWaitingForRedo { .. } => Code::Cdc5202,
            CdcError::StoppedWaitingForKafka { .. } => Code::Cdc6202,
            CdcError::StoppedReconnecting { .. } => Code::Cdc5007,
            CdcError::DownstreamOnlineCatalog { .. } => Code::Cdc5301,
            CdcError::NoDictionaryInRedo { .. } => Code::Cdc5302,
            CdcError::DownstreamNoWrites { .. } => Code::Cdc2204,
            CdcError::ReadOnly { .. } => Code::Cdc5005,
            CdcError::Database(_) => Code::Cdc5006,
            CdcError::Privilege { .. } => Code::Cdc2401,
            CdcError::ContainerUnreachable(_) => Code::Cdc2301,
            CdcError::PdbMining(_) => Code::Cdc2302,
            CdcError::ContainerData(_) => Code::Cdc2303,
            CdcError::ConnectionLost(_) => Code::Cdc5007,
            CdcError::InvalidScnRange { .. } => Code::Cdc5008,
            CdcError::Io { .. } => Code::Cdc6001,
            CdcError::ReplayHasNoData { .. } => Code::Cdc2008,
            CdcError::MetricsListen { .. } => Code::Cdc2101,
            CdcError::ReplayFormat { .. } => Code::Cdc6002,
            CdcError::ChunkFailed { .. } => Code::Cdc8001,
            CdcError::SegmentsMoved { .. } => Code::Cdc8009,
            CdcError::OffsetsOtherDatabase { .. } => Code::Cdc7001,
            CdcError::OffsetsDamaged { .. } => Code::Cdc7002,
            CdcError::OffsetsTooNew { .. } => Code::Cdc7003,
            CdcError::NoUsableKey { .. } => Code::Cdc8002,
            CdcError::StateBusy { .. } => Code::Cdc7004,
            CdcError::NoOffsets { .. } => Code::Cdc7005,
            CdcError::EditSkipsData(_) => Code::Cdc7006,
            CdcError::ScnNotRetained(_) => Code::Cdc7007,
            CdcError::InvalidEdit(_) => Code::Cdc7008,
            CdcError::NoTables(_) => Code::Cdc8003,
            CdcError::FilterFailed { .. } => Code::Cdc8107,
            CdcError::KeyNotUnique { .. } => Code::Cdc8006,
            CdcError::ExportLayoutChanged { .. } => Code::Cdc8007,
            CdcError::OtherExport { .. } => Code::Cdc8005,
            CdcError::LogOverwritten(_) => Code::Cdc5009,
            CdcError::LogStreamCorrupt(_) => Code::Cdc5013,
            CdcError::OutOfCallMemory(_) => Code::Cdc5014,
            CdcError::DictionaryLocked(_) => Code::Cdc5015,
            CdcError::LogMinerInternal(_) => Code::Cdc5016,
            CdcError::CallLimit(_) => Code::Cdc5017,
            CdcError::LogUnavailable(_) => Code::Cdc5010,
            CdcError::NoLogMinerSession(_) => Code::Cdc5011,
            CdcError::LobSnapshotTooOld { .. } => Code::Cdc5012,
            CdcError::InvalidSignal(_) => Code::Cdc8101,
            CdcError::SignalTable(_) => Code::Cdc8102,
            CdcError::SignalIdUsed(_) => Code::Cdc8103,
            CdcError::NoStateDir { .. } => Code::Cdc8104,
            CdcError::SignalChannel(_) => Code::Cdc8105,
            CdcError::SignalWait(_) => Code::Cdc8106,
            CdcError::ParquetValue { .. } => Code::Cdc6101,
            CdcError::Parquet { .. } => Code::Cdc6102,
            CdcError::ParquetColumnTaken { .. } => Code::Cdc6103,
            CdcError::SimulatedCrash { .. } => Code::Cdc9001,
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.code().info().exit.code()
    }

    pub fn settings(code: Code, message: impl Into<String>) -> Self {
        CdcError::Settings {
            code,
            message: message.into(),
        }
    }

    pub fn kafka(code: Code, message: impl Into<String>) -> Self {
        CdcError::Kafka {
            code,
            message: message.into(),
        }
    }

    pub fn coded(code: Code, message: impl Into<String>) -> Self {
        CdcError::Coded {
            code,
            message: message.into(),
        }
    }

    /// ORA-01291 for redo within the retained logs: a hole in the log list (a log being
    /// archived or shipped while the list was read), which a later list may fill; redo older
    /// than the oldest log is gone for good.
    pub fn is_log_gap(&self) -> bool {
        matches!(self, CdcError::MissingLogFile { scn, oldest } if *oldest > 0 && scn >= oldest)
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CdcError::Io {
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = CdcError> = std::result::Result<T, E>;

/// What CDC-5004 says of a missing log: purged (older than the oldest log still there), or a
/// gap in the list within the retained logs (retried: see [`CdcError::is_log_gap`]).
fn missing_log_detail(scn: u64, oldest: u64) -> String {
    if scn < oldest || oldest == 0 {
        format!("needs redo older than the oldest retained log (first SCN {oldest})")
    } else {
        format!(
            "needs a log that is not in the log list: a gap in a thread's sequences, or a log not \
             archived (or shipped) yet; the oldest retained log starts at SCN {oldest}"
        )
    }
}

/// `text` for a message: at most `max` characters, with how long it really is when cut, so
/// an oversized value (a signal's, a setting's) is never echoed whole into events and logs.
pub fn shown(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
    }
}

/// At most `max_items` of `items`, each [`shown`] to `width` characters, and a last line
/// saying how many more there were: lists in messages stay bounded whatever the input holds.
pub fn shown_items(items: &[String], max_items: usize, width: usize) -> Vec<String> {
    let mut out: Vec<String> = items
        .iter()
        .take(max_items)
        .map(|i| shown(i, width))
        .collect();
    if items.len() > max_items {
        out.push(format!("… and {} more", items.len() - max_items));
    }
    out
}

/// Whether a failed connect may succeed if tried again: a lost connection, no listener (yet,
/// as while the database host restarts: ORA-12541, CDC-2003), or a database starting, shutting
/// down or busy (CDC-2010: the ORA codes in the Oracle adapter's `connect::TRANSIENT_AT_LOGIN`).
/// Classed by the code the login error got from its ORA code, never by its text.
pub fn is_transient(e: &CdcError) -> bool {
    match e {
        CdcError::ConnectionLost(_) => true,
        CdcError::Connect { code, .. } => matches!(code, Code::Cdc2003 | Code::Cdc2010),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_complete_unique_entry() {
        let mut seen = std::collections::BTreeSet::new();
        for code in Code::ALL {
            let info = code.info();
            assert!(
                info.code.starts_with("CDC-") && info.code.len() == 8,
                "{}",
                info.code
            );
            assert!(seen.insert(info.code), "duplicate {}", info.code);
            assert!(!info.title.is_empty() && !info.explanation.is_empty());
            assert!(!info.remedy.is_empty(), "{} has no remedy", info.code);
            assert_eq!(Code::lookup(info.code), Some(*code));
        }
    }

    #[test]
    fn display_starts_with_the_variant_code() {
        let samples = [
            CdcError::Argument("x".into()),
            CdcError::UnknownCode("CDC-9".into()),
            CdcError::SnapshotTooOld {
                table: "HR.EMP".into(),
                scn: 5,
            },
            CdcError::ChunkFailed {
                table: "HR.EMP".into(),
                chunk: "3".into(),
                reason: "r".into(),
            },
            CdcError::io("/x", std::io::Error::other("boom")),
            CdcError::settings(Code::Cdc1002, "bad"),
        ];
        for e in samples {
            assert!(e.to_string().starts_with(e.code().info().code), "{e}");
        }
    }

    #[test]
    fn lookup_accepts_loose_forms() {
        assert_eq!(Code::lookup("cdc-8001"), Some(Code::Cdc8001));
        assert_eq!(Code::lookup("3001"), Some(Code::Cdc3001));
        assert_eq!(Code::lookup("CDC-9999"), None);
    }
}
