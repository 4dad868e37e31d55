//! Which V$LOGMNR_CONTENTS rows a mining call returns besides its SCN range.
//!
//! V$LOGMNR_CONTENTS holds every schema's changes, SYS's and Oracle's internal DDL included
//! (oracle-facts §8, "Filtering"). A [`MiningFilter`] is one predicate with two renderings that
//! must agree: the Oracle adapter puts it into the query's WHERE clause with binds
//! (`oracle::sql::logmnr_contents`), and the emulator applies [`MiningFilter::keeps`] to each
//! row it renders, with SQL's semantics (NULLs, `UPPER`, `LIKE … ESCAPE '\'`), so both return
//! the same rows. Capture derives its filter from what it captures (`capture::filter`).

use crate::model::{op, LogMinerRow};

/// Schemas Oracle creates and maintains whose rows capture never needs: every one is
/// `ALL_USERS.ORACLE_MAINTAINED = 'Y'`, and the adapter's catalog (`sql::TABLES`) never lists an
/// Oracle-maintained owner's tables. The same names Debezium leaves out of its mining query
/// (`OracleConnectorConfig.EXCLUDED_SCHEMAS`), checked against its source.
pub const ORACLE_SCHEMAS: &[&str] = &[
    "APPQOSSYS",
    "AUDSYS",
    "CTXSYS",
    "DBSFWUSER",
    "DBSNMP",
    "DVSYS",
    "GGSHAREDCAP",
    "GSMADMIN_INTERNAL",
    "LBACSYS",
    "MDSYS",
    "OJVMSYS",
    "OLAPSYS",
    "ORDDATA",
    "ORDSYS",
    "OUTLN",
    "SYS",
    "SYSTEM",
    "VECSYS",
    "WMSYS",
    "XDB",
];

/// Whether `owner` is one of [`ORACLE_SCHEMAS`].
pub fn is_oracle_schema(owner: &str) -> bool {
    ORACLE_SCHEMAS.contains(&owner)
}

/// Materialized view logs are tables named `MLOG$_<master table>` in the master's schema;
/// capture never captures them (they are Oracle's record of the master's changes).
pub const MVIEW_LOG_PREFIX: &str = "MLOG$";

/// Whether `table` is a materialized view log (`TABLE_NAME LIKE 'MLOG$%'`).
pub fn is_mview_log(table: &str) -> bool {
    table.starts_with(MVIEW_LOG_PREFIX)
}

/// DDL rows of Oracle's own DDL carry INFO `INTERNAL DDL…`; user DDL `USER DDL (PlSql=0 RecDep=0)`
/// (oracle-facts §6).
pub const INTERNAL_DDL_PREFIX: &str = "INTERNAL DDL";

/// Whether a row is a DDL row of Oracle's own (`OPERATION_CODE = 5 AND INFO LIKE 'INTERNAL DDL%'`).
pub fn is_internal_ddl(row: &LogMinerRow) -> bool {
    row.operation_code == op::DDL
        && row
            .info
            .as_deref()
            .is_some_and(|i| i.starts_with(INTERNAL_DDL_PREFIX))
}

/// SEG_OWNER of a row whose object LogMiner's dictionary does not know (dictionary mismatch, an
/// object created after the dictionary build, mining the online catalog after DROP … PURGE):
/// TABLE_NAME is then `OBJ# <n>`, n the object number (DATA_OBJ#), and SQL_REDO names the
/// columns `"COL 1"`, `"COL 2"`, … (Utilities, "LogMiner Configuration"; oracle-facts §6).
pub const UNKNOWN_OWNER: &str = "UNKNOWN";

/// TABLE_NAME prefix of such a row (`OBJ# 45522`).
pub const UNKNOWN_TABLE_PREFIX: &str = "OBJ# ";

/// Whether (SEG_OWNER, TABLE_NAME) name an object LogMiner's dictionary does not know
/// (`SEG_OWNER = 'UNKNOWN' AND TABLE_NAME LIKE 'OBJ# %'`).
pub fn is_unknown_object(owner: Option<&str>, table: Option<&str>) -> bool {
    owner == Some(UNKNOWN_OWNER) && table.is_some_and(|t| t.starts_with(UNKNOWN_TABLE_PREFIX))
}

/// One condition on a name column, compared upper-cased (`UPPER(col) = :v`, `UPPER(col) LIKE
/// :v ESCAPE '\'`): capture's table patterns match case-insensitively.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch {
    /// The name, upper case.
    Equals(String),
    /// A LIKE pattern, upper case, `\` escaping `%`, `_` and `\`.
    Like(String),
}

impl NameMatch {
    pub fn matches(&self, name: &str) -> bool {
        let upper;
        let name = if name
            .bytes()
            .any(|b| b.is_ascii_lowercase() || !b.is_ascii())
        {
            upper = name.to_uppercase();
            upper.as_str()
        } else {
            name
        };
        match self {
            NameMatch::Equals(v) => name == v,
            NameMatch::Like(p) => like(name, p),
        }
    }
}

/// Which SEG_OWNERs are kept (rows without one, START/COMMIT/ROLLBACK, always are).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Owners {
    /// No condition on the owner.
    #[default]
    All,
    /// Every owner but [`ORACLE_SCHEMAS`].
    NotOracle,
    /// Only owners matching one of these.
    Only(Vec<NameMatch>),
}

/// A predicate on V$LOGMNR_CONTENTS rows (see the module comment). `MiningFilter::default()`
/// keeps every row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MiningFilter {
    /// `OPERATION_CODE IN (…)`; empty: every code.
    pub operation_codes: Vec<u32>,
    /// Leave out DDL rows of Oracle's own DDL ([`is_internal_ddl`]).
    pub skip_internal_ddl: bool,
    /// Leave out rows of materialized view logs ([`is_mview_log`]).
    pub skip_mview_logs: bool,
    /// Keep INTERNAL rows (OPERATION_CODE 0) only with a ROW_ID other than
    /// `AAAAAAAAAAAAAAAAAA`: those that end a statement whose LOB rows came first (Debezium
    /// mines them the same way, `ROW_ID NOT LIKE '%AAAAAAAAAAAA'`, debezium/debezium#8076).
    pub internal_with_row_id: bool,
    /// The SEG_OWNER condition.
    pub owners: Owners,
    /// Keep rows of objects LogMiner's dictionary does not know ([`is_unknown_object`]) whatever
    /// the owner condition says: their owner is unknown, so only the decoder can tell by the
    /// object number whether they are a captured table's.
    pub unknown_objects: bool,
    /// Tables kept whatever the owner condition says, as (SEG_OWNER, TABLE_NAME) compared
    /// exactly: the signal table.
    pub tables: Vec<(String, String)>,
    /// `SRC_CON_NAME` conditions (a CDB's captured PDBs); `None`: every container.
    pub pdbs: Option<Vec<NameMatch>>,
}

impl MiningFilter {
    /// Whether the row passes, evaluated as the SQL rendering would be.
    pub fn keeps(&self, row: &LogMinerRow) -> bool {
        if self.internal_with_row_id
            && row.operation_code == op::INTERNAL
            && row.row_id == crate::rowid::LOB_ROWID
        {
            return false;
        }
        self.keeps_parts(
            row.operation_code,
            row.info.as_deref(),
            row.seg_owner.as_deref(),
            row.table_name.as_deref(),
            &row.src_con_name,
        )
    }

    /// [`MiningFilter::keeps`] on the columns it reads, for a caller that knows them before
    /// building the row.
    pub fn keeps_parts(
        &self,
        code: u32,
        info: Option<&str>,
        owner: Option<&str>,
        table: Option<&str>,
        container: &str,
    ) -> bool {
        if !self.operation_codes.is_empty() && !self.operation_codes.contains(&code) {
            return false;
        }
        if self.skip_internal_ddl
            && code == op::DDL
            && info.is_some_and(|i| i.starts_with(INTERNAL_DDL_PREFIX))
        {
            return false;
        }
        if self.skip_mview_logs && table.is_some_and(is_mview_log) {
            return false;
        }
        if let Some(owner) = owner {
            let owner_ok = match &self.owners {
                Owners::All => true,
                Owners::NotOracle => !is_oracle_schema(owner),
                Owners::Only(list) => list.iter().any(|m| m.matches(owner)),
            };
            let listed =
                || table.is_some_and(|t| self.tables.iter().any(|(o, n)| o == owner && n == t));
            let unknown = || self.unknown_objects && is_unknown_object(Some(owner), table);
            if !owner_ok && !listed() && !unknown() {
                return false;
            }
        }
        if let Some(pdbs) = &self.pdbs {
            if !pdbs.iter().any(|m| m.matches(container)) {
                return false;
            }
        }
        true
    }

    /// Whether it keeps every row (no condition at all).
    pub fn is_everything(&self) -> bool {
        self == &MiningFilter::default()
    }
}

/// SQL `LIKE` with `ESCAPE '\'`: `%` any run of characters, `_` one character.
pub fn like(text: &str, pattern: &str) -> bool {
    let t: Vec<char> = text.chars().collect();
    let mut p: Vec<(char, bool)> = Vec::new(); // (char, literal)
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => p.push((chars.next().unwrap_or('\\'), true)),
            c => p.push((c, false)),
        }
    }
    // Iterative matching with backtracking to the last `%`.
    let (mut ti, mut pi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(('%', false)) => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(('_', false)) => {
                ti += 1;
                pi += 1;
            }
            Some((c, _)) if *c == t[ti] => {
                ti += 1;
                pi += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&(c, lit)| c == '%' && !lit)
}

/// `text` as a LIKE literal: `%`, `_` and `\` escaped with `\`.
pub fn like_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_follows_sql() {
        assert!(like("APP1", "APP%"));
        assert!(like("APP", "APP%"));
        assert!(!like("AP", "APP%"));
        assert!(like("A_B", "A\\_B"));
        assert!(!like("AXB", "A\\_B"));
        assert!(like("AXB", "A_B"));
        assert!(like("MLOG$_EMP", "MLOG$%"));
        assert!(like("ab%cd", "ab\\%%"));
        assert!(!like("abcd", "ab\\%%"));
        assert!(like("xaybz", "%a%b%"));
        assert!(!like("xaybz", "%b%a%"));
        assert!(like("", "%"));
        assert!(!like("", "_"));
        assert_eq!(like_literal("A_B%\\"), "A\\_B\\%\\\\");
    }

    #[test]
    fn unknown_objects_pass_any_owner_condition_when_asked() {
        let only_hr = |unknown_objects| MiningFilter {
            owners: Owners::Only(vec![NameMatch::Equals("HR".into())]),
            unknown_objects,
            ..Default::default()
        };
        let keeps = |f: &MiningFilter, owner, table| {
            f.keeps_parts(op::INSERT, None, Some(owner), Some(table), "")
        };
        assert!(keeps(&only_hr(true), "UNKNOWN", "OBJ# 73001"));
        assert!(!keeps(&only_hr(false), "UNKNOWN", "OBJ# 73001"));
        // A schema really named UNKNOWN is an owner like any other.
        assert!(!keeps(&only_hr(true), "UNKNOWN", "ORDERS"));
        assert!(!keeps(&only_hr(true), "APP", "OBJ# 73001"));
        assert!(keeps(&only_hr(true), "HR", "EMP"));
    }

    #[test]
    fn names_compare_upper_cased() {
        assert!(NameMatch::Equals("HR".into()).matches("hr"));
        assert!(NameMatch::Equals("HR".into()).matches("HR"));
        assert!(!NameMatch::Equals("HR".into()).matches("HRX"));
        assert!(NameMatch::Like("APP%".into()).matches("app_2"));
    }
}
