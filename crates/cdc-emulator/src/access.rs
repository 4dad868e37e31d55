//! Who an emulated session is and where it is: the database's users, its containers, and the
//! privilege checks every catalog, flashback and LogMiner call makes, with Oracle's errors.
//!
//! Oracle's rules reproduced here (oracle-facts §7 and §8):
//! - A connection names a service: the CDB's own (`emulator:DIR`) lands in CDB$ROOT, a PDB's
//!   (`emulator:DIR?service=PDB1`) in that PDB. A common user (`C##…`) may log in to either, a
//!   local user only to its own PDB; anyone else gets ORA-01017. An unknown service is
//!   ORA-12514, a PDB that is not open ORA-01109. Without CREATE SESSION: ORA-01045.
//! - `ALTER SESSION SET CONTAINER` needs SET CONTAINER (ORA-01031); a local user cannot leave
//!   its PDB (ORA-01031 too); an unknown PDB is ORA-65011; outside a CDB ORA-65090.
//! - A dictionary view (V$…, DBA_…) needs SELECT on it, SELECT_CATALOG_ROLE or SELECT ANY
//!   DICTIONARY; without any of them the view does not exist for the user: ORA-00942.
//! - A table needs SELECT (SELECT ANY TABLE, an object grant, or owning it) — without any
//!   privilege on it ORA-00942 — and, for `AS OF`, FLASHBACK (FLASHBACK ANY TABLE or an object
//!   grant): ORA-01031. An INSERT needs INSERT on it.
//! - DBMS_LOGMNR needs EXECUTE on it or EXECUTE_CATALOG_ROLE (PLS-00201 inside ORA-06550);
//!   V$LOGMNR_CONTENTS needs LOGMINING from 12c (SELECT ANY TRANSACTION before): ORA-01031.
//!
//! - Grants are common or local (Security Guide 19c, "Managing Commonly and Locally Granted
//!   Privileges"; "How the Oracle Multitenant Option Affects Privileges"): a user exercises its
//!   privileges "only within the current container", those granted commonly (`GRANT …
//!   CONTAINER=ALL`, in every container) and those granted locally there. A grant on a PDB's
//!   own object can only be local to that PDB ("a common privilege cannot be granted or revoked
//!   on a local object", ORA-65033), so SESSION_PRIVS and ALL_TAB_PRIVS in CDB$ROOT show neither
//!   a PDB's local grants nor grants on its tables. SET CONTAINER must be held "either commonly
//!   or in the container to which the user is attempting to switch"; CREATE SESSION where the
//!   login lands.
//!
//! In a schema file a common user's `privileges` are its common grants, except object grants
//! named with their PDB (`PDB1.HR.T:SELECT`), which are local to that PDB;
//! `local_privileges: { PDB1: [...] }` holds what was granted inside one container. A local
//! user's grants are all local to its PDB. A non-CDB has one container: everything holds there.

use super::schema::{PrivilegeSpec, SchemaFile, ALL_PRIVILEGES};
use crate::errors::{CdcError, Code, Result};
use crate::names::TableName;
use cdc_core::model::{GoldenGateGrant, Privileges};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The root container of a CDB.
pub const ROOT: &str = cdc_core::model::ROOT_CONTAINER;

/// One user of the emulated database (`database.users` in the schema file).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserSpec {
    /// The user name; a common user of a CDB starts with `C##`.
    pub name: String,
    /// The PDB a local user belongs to; unset: a common user (or a non-CDB's user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// `all` or a list, as `database.privileges`.
    #[serde(default = "all_privileges")]
    pub privileges: PrivilegeSpec,
    /// The password clients log in with over Oracle Net (`emulator serve`); unset: the
    /// documented default (`net::DEFAULT_PASSWORD`). `emulator init` keeps only its verifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// The 12c verifier of the password, as Oracle stores it (`T:` + the hash + the salt, in
    /// hex): what `emulator init` writes in place of `password`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_verifier: Option<String>,
    /// A common user's CONTAINER_DATA attribute: `all`, or the containers whose rows its V$
    /// views show in CDB$ROOT (`[PDB1]`); unset: the root's alone, as Oracle's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_data: Option<PrivilegeSpec>,
    /// A common user's grants made inside one container (`GRANT … CONTAINER=CURRENT` there),
    /// by container (`PDB1`, or `CDB$ROOT`): in effect in that container only.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub local_privileges: std::collections::BTreeMap<String, Vec<String>>,
    /// `DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE(grantee => the user, privilege_type => …,
    /// grant_select_privileges => TRUE, do_grants => TRUE, container => …)` run AS SYSDBA: in a
    /// local user's PDB (`'CURRENT'`), in every container for a common user (`'ALL'`).
    /// USER_GOLDENGATE_PRIVILEGES shows it; with GRANT_SELECT_PRIVILEGES the user holds
    /// SELECT_CATALOG_ROLE (Reference, ALL_GOLDENGATE_PRIVILEGES). The other privileges
    /// DO_GRANTS gives are not listed in the documentation: give them in `privileges`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goldengate: Option<GoldenGateSpec>,
    /// SESSIONS_PER_USER of the user's profile: at most that many sessions of the user at once
    /// in this database (a login past it fails with ORA-02391 while RESOURCE_LIMIT is TRUE, its
    /// default from 12.1.0.2); unset: UNLIMITED, as Oracle's DEFAULT profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions_per_user: Option<u32>,
    /// LOGICAL_READS_PER_CALL of the user's profile: a call of the user that reads more fails
    /// with ORA-02395, its statement undone and the session kept (while RESOURCE_LIMIT is
    /// TRUE). The emulator counts a row a flashback read hands over, or a redo record a mining
    /// window reads (every schema's), as one read, and a statement's whole reading as one call
    /// (Oracle counts blocks, and each fetch as a call of its own); unset: UNLIMITED.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical_reads_per_call: Option<u64>,
    /// The password is in its grace period (DBA_USERS.ACCOUNT_STATUS `EXPIRED(GRACE)`: its
    /// profile's PASSWORD_LIFE_TIME passed, PASSWORD_GRACE_TIME not yet): every login works
    /// and carries the warning ORA-28002 "the password will expire within N days", N this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_expires_in_days: Option<u32>,
    /// The password has expired (ACCOUNT_STATUS `EXPIRED`: the grace period is over too): a
    /// login with it fails with ORA-28001 "the password has expired".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub password_expired: bool,
}

/// PRIVILEGE_TYPE of a GoldenGate administrator grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldenGateSpec {
    Capture,
    Apply,
    /// `*`: both.
    Both,
}

impl GoldenGateSpec {
    /// USER_GOLDENGATE_PRIVILEGES.PRIVILEGE_TYPE.
    pub fn privilege_type(self) -> &'static str {
        match self {
            GoldenGateSpec::Capture => "CAPTURE",
            GoldenGateSpec::Apply => "APPLY",
            GoldenGateSpec::Both => "*",
        }
    }
}

/// `T:` + 64-byte hash + 16-byte salt in upper-case hex, as Oracle's SPARE4 holds a 12c
/// verifier.
pub fn format_verifier(v: &oracle_net_server::Verifier) -> String {
    format!(
        "T:{}{}",
        crate::types::hex(&v.hash).to_ascii_uppercase(),
        crate::types::hex(&v.salt).to_ascii_uppercase()
    )
}

/// The reverse of [`format_verifier`].
pub fn parse_verifier(text: &str) -> std::result::Result<oracle_net_server::Verifier, String> {
    let hex = text
        .trim()
        .strip_prefix("T:")
        .ok_or_else(|| "a 12c verifier starts with `T:`".to_string())?;
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| "not hexadecimal".to_string())?;
    if bytes.len() != 80 || hex.len() != 160 {
        return Err(format!(
            "{} bytes where a 12c verifier has 80 (64 of hash, 16 of salt)",
            bytes.len()
        ));
    }
    let mut hash = [0u8; 64];
    hash.copy_from_slice(&bytes[..64]);
    Ok(oracle_net_server::Verifier {
        salt: bytes[64..].to_vec(),
        hash,
    })
}

/// Replace each user's password by its verifier (what a database directory stores).
pub fn seal_passwords(users: &mut [UserSpec]) {
    for u in users {
        if let Some(p) = u.password.take() {
            u.password_verifier = Some(format_verifier(&oracle_net_server::Verifier::new(&p)));
        }
    }
}

fn all_privileges() -> PrivilegeSpec {
    PrivilegeSpec::All(super::schema::AllWord::All)
}

/// A PDB declared in the schema file (`database.pdbs`): one with no tables, or one not open.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdbSpec {
    pub name: String,
    #[serde(default)]
    pub open_mode: PdbOpenMode,
    /// Opened RESTRICTED (`ALTER PLUGGABLE DATABASE … OPEN RESTRICTED`, V$PDBS.RESTRICTED
    /// `YES`): only a user holding RESTRICTED SESSION in it (commonly or granted there) may log
    /// in to its service or switch into it, others get ORA-01035.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restricted: bool,
    /// The PDB's own supplemental logging (12.2+, `ALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL
    /// LOG DATA …` run in the PDB; DBA_SUPPLEMENTAL_LOGGING there): levels on top of CDB$ROOT's
    /// for this PDB's tables. Absent: none of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplemental_logging: Option<super::schema::SupplementalSpec>,
    /// The PDB's own database character set (its NLS_CHARACTERSET), when it is not the CDB's:
    /// from 12.2 an AL32UTF8 CDB holds PDBs of other sets (plugged in from a CDB of that set;
    /// Installation Guide, "About Character Set Selection During Installation"); a CDB of
    /// another set takes only PDBs of its own (ORA-65116).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character_set: Option<crate::charset::Charset>,
    /// Accepted only as the CDB's own: a PDB's national character set is always the CDB's
    /// (ORA-65119).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub national_character_set: Option<crate::charset::Charset>,
}

/// V$PDBS.OPEN_MODE of an emulated PDB.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PdbOpenMode {
    #[default]
    ReadWrite,
    ReadOnly,
    Mounted,
}

impl PdbOpenMode {
    pub fn is_open(self) -> bool {
        self != PdbOpenMode::Mounted
    }
}

/// A user as the database knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub name: String,
    /// The PDB of a local user.
    pub local_to: Option<String>,
    /// Granted commonly (`CONTAINER=ALL`): in effect in every container. A local user's grants
    /// and a non-CDB's are all here. `container_data`, the CONTAINER_DATA attribute, is set for
    /// a common user of a CDB.
    pub common: Privileges,
    /// Granted locally, by container: in effect in that container only.
    pub local: BTreeMap<String, Privileges>,
    /// What is in effect in the container the session is in now ([`User::enter`]): what
    /// SESSION_PRIVS, SESSION_ROLES and ALL_TAB_PRIVS show there and every check uses.
    pub privileges: Privileges,
    /// Its profile's SESSIONS_PER_USER; `None`: UNLIMITED.
    pub session_limit: Option<u32>,
    /// Its profile's LOGICAL_READS_PER_CALL; `None`: UNLIMITED.
    pub reads_per_call: Option<u64>,
    /// What its password's expiry does to a login ([`UserSpec::password_expires_in_days`],
    /// [`UserSpec::password_expired`]).
    pub password: PasswordState,
}

/// Where a user's password is in its life (DBA_USERS.ACCOUNT_STATUS): a login as the user is
/// let in, let in with a warning, or refused.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PasswordState {
    #[default]
    Open,
    /// `EXPIRED(GRACE)`: ORA-28002 with the login, this many days left.
    Grace(u32),
    /// `EXPIRED`: ORA-28001, the login refused.
    Expired,
}

impl PasswordState {
    fn of(u: &UserSpec) -> PasswordState {
        match (u.password_expired, u.password_expires_in_days) {
            (true, _) => PasswordState::Expired,
            (false, Some(days)) => PasswordState::Grace(days),
            (false, None) => PasswordState::Open,
        }
    }

    /// The warning a login gets, as Oracle words it.
    pub fn login_warning(self) -> Option<String> {
        match self {
            PasswordState::Grace(days) => Some(format!(
                "ORA-28002: the password will expire within {days} days"
            )),
            _ => None,
        }
    }
}

impl User {
    fn new(
        name: String,
        local_to: Option<String>,
        common: Privileges,
        local: BTreeMap<String, Privileges>,
    ) -> User {
        let mut u = User {
            name,
            local_to,
            privileges: common.clone(),
            common,
            local,
            session_limit: None,
            reads_per_call: None,
            password: PasswordState::Open,
        };
        let home = u.local_to.clone();
        u.enter(home.as_deref().or(Some(ROOT)));
        u
    }

    /// A user holding nothing (the schema file's checks evaluate expressions as one).
    pub fn named(name: &str) -> User {
        User::new(name.into(), None, Privileges::default(), BTreeMap::new())
    }

    /// SESSIONS_PER_USER of its profile, as USER_RESOURCE_LIMITS shows it.
    pub fn sessions_per_user(&self) -> cdc_core::model::SessionsPerUser {
        match self.session_limit {
            Some(n) => cdc_core::model::SessionsPerUser::Limit(u64::from(n)),
            None => cdc_core::model::SessionsPerUser::Unlimited,
        }
    }

    /// The grants in effect in `container` (`None`: a non-CDB): the common ones and those
    /// granted locally there.
    pub fn in_container(&self, container: Option<&str>) -> Privileges {
        let mut p = self.common.clone();
        if let Some(l) = container.and_then(|c| self.local.get(c)) {
            p.system.extend(l.system.iter().cloned());
            p.roles.extend(l.roles.iter().cloned());
            p.objects.extend(l.objects.iter().cloned());
            if let Some(g) = &l.goldengate {
                p.goldengate
                    .get_or_insert_with(Vec::new)
                    .extend(g.iter().cloned());
            }
        }
        p
    }

    /// The session moved to `container`: its privileges are those in effect there.
    pub fn enter(&mut self, container: Option<&str>) {
        self.privileges = self.in_container(container);
    }
}

/// One entry of a privilege list: `NAME_ROLE` a role, `[[PDB.]OWNER.]OBJECT:PRIV` an object
/// grant (owner SYS when omitted), anything else a system privilege. Upper-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    System(String),
    Role(String),
    Object {
        /// The container a three-part name puts the grant in.
        pdb: Option<String>,
        owner: String,
        name: String,
        privilege: String,
    },
    /// More than three name parts.
    Malformed,
}

pub fn parse_grant(entry: &str) -> Grant {
    let up = entry.trim().to_ascii_uppercase();
    if let Some((object, privilege)) = up.split_once(':') {
        let parts: Vec<&str> = object.split('.').collect();
        let (pdb, owner, name) = match parts.as_slice() {
            [n] => (None, "SYS", *n),
            [o, n] => (None, *o, *n),
            [p, o, n] => (Some(p.to_string()), *o, *n),
            _ => return Grant::Malformed,
        };
        return Grant::Object {
            pdb,
            owner: owner.to_string(),
            name: name.to_string(),
            privilege: privilege.to_string(),
        };
    }
    if up.ends_with("_ROLE") {
        Grant::Role(up)
    } else {
        Grant::System(up)
    }
}

/// A common user's CONTAINER_DATA attribute from the schema file (`None`: the root's alone).
fn container_data(spec: Option<&PrivilegeSpec>) -> cdc_core::model::ContainerData {
    use cdc_core::model::ContainerData;
    match spec {
        Some(PrivilegeSpec::All(_)) => ContainerData {
            all: true,
            containers: Default::default(),
        },
        Some(PrivilegeSpec::List(l)) => ContainerData {
            all: false,
            containers: std::iter::once(ROOT.to_string())
                .chain(l.iter().map(|c| c.to_ascii_uppercase()))
                .collect(),
        },
        None => ContainerData {
            all: false,
            containers: [ROOT.to_string()].into_iter().collect(),
        },
    }
}

/// A privilege list's entries (`all` standing for every grant of [`ALL_PRIVILEGES`]).
fn entries(spec: &PrivilegeSpec) -> Vec<String> {
    let all = || ALL_PRIVILEGES.iter().map(|s| s.to_string());
    match spec {
        PrivilegeSpec::All(_) => all().collect(),
        // `all` in a list stands for every grant of ALL_PRIVILEGES, e.g. [all, "APP.T:INSERT"].
        PrivilegeSpec::List(l) => l
            .iter()
            .flat_map(|p| {
                if p.eq_ignore_ascii_case("all") {
                    all().collect()
                } else {
                    vec![p.clone()]
                }
            })
            .collect(),
    }
}

fn add(p: &mut Privileges, g: Grant) {
    match g {
        Grant::System(s) => {
            p.system.insert(s);
        }
        Grant::Role(r) => {
            p.roles.insert(r);
        }
        Grant::Object {
            owner,
            name,
            privilege,
            ..
        } => {
            p.objects.insert((owner, name, privilege));
        }
        Grant::Malformed => {}
    }
}

/// The grants a privilege list names, as SESSION_PRIVS / SESSION_ROLES / ALL_TAB_PRIVS show
/// them, split by where they hold: the common ones, and by container those a three-part object
/// name (`PDB1.HR.T:SELECT`) makes local there.
pub fn grants_of(spec: &PrivilegeSpec) -> (Privileges, BTreeMap<String, Privileges>) {
    let mut common = Privileges::default();
    let mut local: BTreeMap<String, Privileges> = BTreeMap::new();
    for item in entries(spec) {
        match parse_grant(&item) {
            g @ Grant::Object { pdb: Some(_), .. } => {
                if let Grant::Object { pdb: Some(c), .. } = &g {
                    let c = c.clone();
                    add(local.entry(c).or_default(), g);
                }
            }
            g => add(&mut common, g),
        }
    }
    (common, local)
}

/// The common grants of a privilege list (see [`grants_of`]).
pub fn privileges_of(spec: &PrivilegeSpec) -> Privileges {
    grants_of(spec).0
}

/// System privileges to write any table: known, but not in `all` (a capture user writes
/// nothing; an application user of `emulator serve` may be granted them).
pub const WRITE_PRIVILEGES: &[&str] = &["INSERT ANY TABLE", "UPDATE ANY TABLE", "DELETE ANY TABLE"];

/// The exemptions from VPD / Oracle Label Security and from Data Redaction
/// ([`crate::policies`]): known, but not in `all`: a DBA grants them deliberately, and a
/// capture user without them is what the snapshot's policy check is for.
pub const EXEMPT_PRIVILEGES: &[&str] = &[
    crate::policies::EXEMPT_ACCESS_POLICY,
    crate::policies::EXEMPT_REDACTION_POLICY,
];

/// SELECT on one Data Redaction view rather than SELECT_CATALOG_ROLE (Data Redaction Guide,
/// appendix C): known, but not in `all` (whose SELECT_CATALOG_ROLE covers them). A user holding
/// some of them and not the others is the case the adapter's policy check must not misread.
pub const REDACTION_VIEW_GRANTS: &[&str] = &[
    "SYS.REDACTION_POLICIES:SELECT",
    "SYS.REDACTION_COLUMNS:SELECT",
    "SYS.REDACTION_EXPRESSIONS:SELECT",
];

/// RESTRICTED SESSION: the way into a PDB open RESTRICTED ([`PdbSpec::restricted`]). Known, but
/// not in `all`: a capture user has no need of it, and a DBA grants it deliberately.
pub const RESTRICTED_SESSION: &str = "RESTRICTED SESSION";

/// Whether a privilege list entry is one the emulator knows: a name of [`ALL_PRIVILEGES`], `all`
/// (all of them), or an object grant `OWNER.OBJECT:PRIV` on a user table (SELECT, FLASHBACK,
/// INSERT, UPDATE, DELETE), either named with its container (`PDB1.OWNER.OBJECT:PRIV`,
/// `PDB1.SYS.V_$PDBS:SELECT`).
pub fn known_privilege(entry: &str) -> bool {
    let up = entry.trim().to_ascii_uppercase();
    if up == "ALL" {
        return true;
    }
    if ALL_PRIVILEGES.iter().any(|p| p.eq_ignore_ascii_case(&up))
        || WRITE_PRIVILEGES.contains(&up.as_str())
        || up == RESTRICTED_SESSION
        || EXEMPT_PRIVILEGES.contains(&up.as_str())
        || REDACTION_VIEW_GRANTS.contains(&up.as_str())
    {
        return true;
    }
    match parse_grant(&up) {
        Grant::Object {
            pdb: Some(_),
            owner,
            name,
            privilege,
        } => known_privilege(&format!("{owner}.{name}:{privilege}")),
        Grant::Object {
            pdb: None,
            owner,
            privilege,
            ..
        } => {
            owner != "SYS"
                && up.split_once(':').is_some_and(|(o, _)| o.contains('.'))
                && matches!(
                    privilege.as_str(),
                    "SELECT" | "FLASHBACK" | "INSERT" | "UPDATE" | "DELETE"
                )
        }
        _ => false,
    }
}

/// What a privilege list entry may name where it is granted: in a CDB a grant on a PDB's
/// table names its PDB (`PDB1.HR.T:SELECT`, a grant local to PDB1: ORA-65033 forbids granting
/// it commonly), a local user's grants are in its own PDB, a non-CDB has no PDB. `home`: the
/// container every grant of the list is in (a local user's PDB, a `local_privileges` key).
fn check_grant(
    entry: &str,
    multitenant: bool,
    home: Option<&str>,
    containers: &[String],
) -> std::result::Result<(), String> {
    let Grant::Object { pdb, owner, .. } = parse_grant(entry) else {
        return Ok(());
    };
    match (pdb, multitenant, home) {
        (Some(_), false, _) => Err(format!(
            "`{entry}` names a container, but the database is not multitenant: write OWNER.TABLE:PRIVILEGE"
        )),
        (Some(p), true, Some(h)) if !p.eq_ignore_ascii_case(h) => Err(format!(
            "`{entry}` names {p}, but these grants are made in {h}"
        )),
        (Some(p), true, _) if !containers.iter().any(|c| c.eq_ignore_ascii_case(&p)) => Err(
            format!("`{entry}` names {p}, which is not a container of this database"),
        ),
        (None, true, None) if owner != "SYS" => Err(format!(
            "`{entry}` names no PDB: in a CDB a table is a PDB's own object and a grant on it is local to that PDB (granted commonly it is ORA-65033); write PDB.{}",
            entry.trim()
        )),
        _ => Ok(()),
    }
}

/// The checks of [`check_grant`] on every entry of a list.
fn check_list(
    who: &str,
    list: &[String],
    multitenant: bool,
    home: Option<&str>,
    containers: &[String],
) -> std::result::Result<(), String> {
    for e in list {
        if !known_privilege(e) {
            return Err(format!(
                "{who}: unknown privilege `{e}`; known: {}, {}, {RESTRICTED_SESSION} and [PDB.]OWNER.TABLE:SELECT|FLASHBACK|INSERT|UPDATE|DELETE",
                ALL_PRIVILEGES.join(", "),
                WRITE_PRIVILEGES.join(", ")
            ));
        }
        check_grant(e, multitenant, home, containers).map_err(|m| format!("{who}: {m}"))?;
    }
    Ok(())
}

/// The users of a schema: `database.users`, or one user holding `database.privileges` named
/// `C##CDC` in a CDB and `CDC` outside one.
pub fn users(schema: &SchemaFile) -> Vec<User> {
    let d = &schema.database;
    if d.users.is_empty() {
        // The one implicit user is set up as commands/capture.md's setup makes the capture
        // user: in a CDB with CONTAINER_DATA=ALL.
        let (mut common, local) = grants_of(&d.privileges);
        common.container_data = d
            .multitenant
            .then(|| container_data(Some(&PrivilegeSpec::All(super::schema::AllWord::All))));
        let name = if d.multitenant { "C##CDC" } else { "CDC" };
        return vec![User::new(name.to_string(), None, common, local)];
    }
    d.users
        .iter()
        .map(|u| {
            let local_to = u.container.as_ref().map(|c| c.to_ascii_uppercase());
            let (mut common, mut local) = grants_of(&u.privileges);
            for (c, list) in &u.local_privileges {
                let (granted, _) = grants_of(&PrivilegeSpec::List(list.clone()));
                let held = local.entry(c.to_ascii_uppercase()).or_default();
                held.system.extend(granted.system);
                held.roles.extend(granted.roles);
                held.objects.extend(granted.objects);
            }
            if let Some(g) = u.goldengate {
                // GRANT_SELECT_PRIVILEGES => TRUE: a full privilege administrator, with
                // SELECT_CATALOG_ROLE; CONTAINER => 'CURRENT' for a local user (its grants are
                // all in its PDB), 'ALL' for a common one.
                common.goldengate = Some(vec![GoldenGateGrant {
                    privilege_type: g.privilege_type().to_string(),
                    select_privileges: true,
                }]);
                common.roles.insert("SELECT_CATALOG_ROLE".into());
            }
            if let Some(home) = &local_to {
                // A local user exists in its PDB alone: everything it holds is there.
                if let Some(l) = local.remove(home) {
                    common.system.extend(l.system);
                    common.roles.extend(l.roles);
                    common.objects.extend(l.objects);
                }
                local.clear();
            }
            common.container_data = (d.multitenant && u.container.is_none())
                .then(|| container_data(u.container_data.as_ref()));
            User {
                session_limit: u.sessions_per_user,
                reads_per_call: u.logical_reads_per_call,
                password: PasswordState::of(u),
                ..User::new(u.name.to_ascii_uppercase(), local_to, common, local)
            }
        })
        .collect()
}

/// Every PDB of the schema (named by tables or declared) with its open mode, in name order.
pub fn pdbs(schema: &SchemaFile) -> Vec<(String, PdbOpenMode)> {
    let mut out: std::collections::BTreeMap<String, PdbOpenMode> = Default::default();
    for t in &schema.tables {
        if let Ok(name) = t.name.parse::<TableName>() {
            if let Some(p) = name.pdb {
                out.entry(p).or_default();
            }
        }
    }
    for p in &schema.database.pdbs {
        out.insert(p.name.to_ascii_uppercase(), p.open_mode);
    }
    out.into_iter().collect()
}

/// The PDBs declared MOUNTED (not open).
pub fn closed_pdbs(schema: &SchemaFile) -> Vec<String> {
    schema
        .database
        .pdbs
        .iter()
        .filter(|p| !p.open_mode.is_open())
        .map(|p| p.name.to_ascii_uppercase())
        .collect()
}

/// The open PDBs declared RESTRICTED.
pub fn restricted_pdbs(schema: &SchemaFile) -> Vec<String> {
    schema
        .database
        .pdbs
        .iter()
        .filter(|p| p.restricted && p.open_mode.is_open())
        .map(|p| p.name.to_ascii_uppercase())
        .collect()
}

/// ORA-01035 for `user` in `pdb` when the PDB is open RESTRICTED and the grants in effect there
/// (`privileges`) lack RESTRICTED SESSION.
fn restricted_refusal(
    schema: &SchemaFile,
    pdb: &str,
    user: &str,
    privileges: &Privileges,
) -> Option<String> {
    let restricted = restricted_pdbs(schema)
        .iter()
        .any(|p| p.eq_ignore_ascii_case(pdb));
    (restricted && !privileges.system.contains(RESTRICTED_SESSION)).then(|| {
        format!(
            "ORA-01035: ORACLE only available to users with RESTRICTED SESSION privilege (PDB {pdb} is open RESTRICTED; {user} lacks RESTRICTED SESSION there)"
        )
    })
}

/// The open mode of a PDB (READ WRITE unless declared otherwise).
pub fn pdb_mode(schema: &SchemaFile, pdb: &str) -> PdbOpenMode {
    schema
        .database
        .pdbs
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(pdb))
        .map_or(PdbOpenMode::ReadWrite, |p| p.open_mode)
}

/// A PDB's character sets as plugging it in would take them: its database set must be the CDB's,
/// or any set when the CDB's is AL32UTF8, the superset of them all (ORA-65116 "incompatible
/// database character set": the CDB's set was not a superset of the PDB's); its national set
/// must be the CDB's (ORA-65119 "incompatible national character set").
fn check_pdb_charsets(
    d: &super::schema::DatabaseSpec,
    p: &PdbSpec,
) -> std::result::Result<(), String> {
    use crate::charset::Charset;
    let name = p.name.to_ascii_uppercase();
    if let Some(cs) = p.character_set {
        if cs == Charset::Al16Utf16 {
            return Err(format!(
                "database.pdbs: {name}: character_set cannot be AL16UTF16 (a national character set only); use AL32UTF8, UTF8, WE8MSWIN1252 or WE8ISO8859P1"
            ));
        }
        if cs != d.character_set && d.character_set != Charset::Al32Utf8 {
            return Err(format!(
                "database.pdbs: {name}: ORA-65116: incompatible database character set: the CDB's set {} is not a superset of {cs}; only an AL32UTF8 CDB holds PDBs of another database character set",
                d.character_set
            ));
        }
    }
    if let Some(n) = p.national_character_set {
        if n != d.national_character_set {
            return Err(format!(
                "database.pdbs: {name}: ORA-65119: incompatible national character set: a PDB's national character set is the CDB's ({}), not {n}",
                d.national_character_set
            ));
        }
    }
    Ok(())
}

/// Check `database.users` and `database.pdbs` as `CREATE USER` / `CREATE PLUGGABLE DATABASE`
/// would; the message names the entry at fault.
pub fn validate(schema: &SchemaFile) -> std::result::Result<(), String> {
    let d = &schema.database;
    if !d.multitenant && !d.pdbs.is_empty() {
        return Err("database.pdbs needs database.multitenant: true".into());
    }
    let pdbs = pdbs(schema);
    // Where a grant can be made: the root and every PDB.
    let containers: Vec<String> = std::iter::once(ROOT.to_string())
        .chain(pdbs.iter().map(|(p, _)| p.clone()))
        .collect();
    if let PrivilegeSpec::List(list) = &d.privileges {
        // The implicit user: common in a CDB (C##CDC).
        check_list(
            "database.privileges",
            list,
            d.multitenant,
            None,
            &containers,
        )?;
    }
    for p in &d.pdbs {
        if p.name.eq_ignore_ascii_case(ROOT) || p.name.eq_ignore_ascii_case("PDB$SEED") {
            return Err(format!("database.pdbs: `{}` is not a PDB name", p.name));
        }
        // As Oracle refuses the ALTER PLUGGABLE DATABASE that would have set it: a PDB adds
        // levels only on top of minimal logging in CDB$ROOT (Utilities 12.1, "Enabling
        // Supplemental Logging in a CDB"; ORA-31541), and only in local undo mode (ORA-60518),
        // which 12.2 introduced: the emulator's 12.2+ CDBs are in local undo mode, its 12.1
        // ones cannot be.
        if p.supplemental_logging.as_ref().is_some_and(|s| s.minimal()) {
            let name = p.name.to_ascii_uppercase();
            if !d.supplemental_logging.minimal() {
                return Err(format!(
                    "database.pdbs: {name}: supplemental_logging needs minimal supplemental logging in CDB$ROOT (database.supplemental_logging); Oracle refuses ALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA with ORA-31541: Supplemental logging is not enabled in CDB$ROOT."
                ));
            }
            if super::schema::release(&d.version) < (12, 2) {
                return Err(format!(
                    "database.pdbs: {name}: supplemental_logging needs release 12.2 or later (version {}); Oracle refuses ALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA with ORA-60518: cannot enable per PDB supplemental logging without local undo enabled",
                    d.version
                ));
            }
        }
        check_pdb_charsets(d, p)?;
    }
    let mut seen = std::collections::BTreeSet::new();
    for u in &d.users {
        let name = u.name.to_ascii_uppercase();
        if name.is_empty() || name.contains('"') {
            return Err(format!("database.users: `{}` is not a user name", u.name));
        }
        if !seen.insert(name.clone()) {
            return Err(format!("database.users: `{name}` is declared twice"));
        }
        // EXPIRED and EXPIRED(GRACE) are two states of one account: one of them.
        if u.password_expired && u.password_expires_in_days.is_some() {
            return Err(format!(
                "database.users: `{name}`: password_expired and password_expires_in_days are two states of the password (ACCOUNT_STATUS EXPIRED, EXPIRED(GRACE)): give one"
            ));
        }
        let common = name.starts_with("C##");
        let home = u.container.as_deref().filter(|_| d.multitenant);
        if let PrivilegeSpec::List(list) = &u.privileges {
            check_list(
                &format!("database.users: {name}: privileges"),
                list,
                d.multitenant,
                home,
                &containers,
            )?;
        }
        if !u.local_privileges.is_empty() && (!d.multitenant || u.container.is_some()) {
            return Err(format!(
                "database.users: {name}: local_privileges are a common user's grants made inside one container of a CDB; {}",
                if d.multitenant { "a local user's privileges are all local to its PDB already" } else { "the database is not multitenant" }
            ));
        }
        for (c, list) in &u.local_privileges {
            if !containers.iter().any(|x| x.eq_ignore_ascii_case(c)) {
                return Err(format!(
                    "database.users: {name}: local_privileges names `{c}`, which is not a container of this database"
                ));
            }
            check_list(
                &format!(
                    "database.users: {name}: local_privileges of {}",
                    c.to_ascii_uppercase()
                ),
                list,
                true,
                Some(c),
                &containers,
            )?;
        }
        if let Some(PrivilegeSpec::List(list)) = &u.container_data {
            if let Some(bad) = list.iter().find(|c| {
                !c.eq_ignore_ascii_case(ROOT)
                    && !pdbs.iter().any(|(p, _)| p.eq_ignore_ascii_case(c))
            }) {
                return Err(format!(
                    "database.users: {name}: container_data names `{bad}`, which is not a container of this database"
                ));
            }
        }
        if u.container_data.is_some() && (!d.multitenant || u.container.is_some()) {
            return Err(format!(
                "database.users: {name}: container_data is a common user's attribute in a CDB (ORA-65056 for a local user)"
            ));
        }
        match (&u.container, d.multitenant) {
            (Some(_), false) => {
                return Err(format!(
                    "database.users: {name}: `container` needs database.multitenant: true"
                ))
            }
            (None, true) if !common => {
                // ORA-65096: a common user's name must start with the common user prefix.
                return Err(format!(
                    "database.users: {name}: a common user's name starts with C## (ORA-65096); give a local user `container: PDB`"
                ));
            }
            (Some(c), true) => {
                if common {
                    return Err(format!(
                        "database.users: {name}: a local user's name cannot start with C## (ORA-65094)"
                    ));
                }
                if !pdbs.iter().any(|(p, _)| p.eq_ignore_ascii_case(c)) {
                    return Err(format!(
                        "database.users: {name}: container `{c}` is not a PDB of this database"
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The session a login opens: the user and the container it lands in (`None` outside a CDB).
#[derive(Debug, Clone)]
pub struct Login {
    pub user: User,
    pub container: Option<String>,
}

fn connect_error(code: Code, message: String) -> CdcError {
    CdcError::Connect { code, message }
}

/// Log `user` in to `service` (unset: the database's own service). With `database.users` the
/// user must be one of them (unset: the first); without, the one implicit user takes the name
/// given (unset: `C##CDC` in a CDB, `CDC` outside) and, in a CDB, is a common user when the
/// name starts with `C##` and else a local user of the PDB whose service it connects to.
pub fn login(schema: &SchemaFile, user: Option<&str>, service: Option<&str>) -> Result<Login> {
    let d = &schema.database;
    // Names are case-insensitive unless quoted; a quoted one keeps its case.
    let wanted = user.map(str::trim).filter(|u| !u.is_empty()).map(|u| {
        match u.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            Some(q) => q.to_string(),
            None => u.to_ascii_uppercase(),
        }
    });
    let all = users(schema);
    let user = match (&wanted, d.users.is_empty()) {
        (None, _) => all.first().cloned(),
        (Some(w), false) => all.iter().find(|x| &x.name == w).cloned(),
        (Some(w), true) => {
            let local_to = (d.multitenant && !w.starts_with("C##"))
                .then(|| service.map(|s| s.trim().to_ascii_uppercase()))
                .map(|s| s.unwrap_or_else(|| ROOT.to_string()));
            all.first().cloned().map(|mut u| {
                // A local user has no CONTAINER_DATA attribute.
                if local_to.is_some() {
                    u.common.container_data = None;
                }
                User {
                    name: w.clone(),
                    local_to,
                    ..u
                }
            })
        }
    };
    let denied = || {
        connect_error(
            Code::Cdc2002,
            "ORA-01017: invalid username/password; logon denied".into(),
        )
    };
    let Some(user) = user else {
        return Err(denied());
    };
    let container = match service.map(str::trim).filter(|s| !s.is_empty()) {
        None => d.multitenant.then(|| ROOT.to_string()),
        Some(s) if s.eq_ignore_ascii_case(&d.name) || s.eq_ignore_ascii_case(ROOT) => {
            d.multitenant.then(|| ROOT.to_string())
        }
        Some(s) => {
            let found = pdbs(schema)
                .into_iter()
                .find(|(p, _)| p.eq_ignore_ascii_case(s));
            match found {
                None => {
                    return Err(connect_error(
                        Code::Cdc2004,
                        format!("ORA-12514: TNS:listener does not currently know of service requested in connect descriptor (service {s})"),
                    ))
                }
                Some((_, mode)) if !mode.is_open() => {
                    return Err(connect_error(
                        Code::Cdc2006,
                        format!("ORA-01109: database not open (PDB {s} is MOUNTED)"),
                    ))
                }
                Some((p, _)) => Some(p),
            }
        }
    };
    // A local user exists only in its PDB.
    if let Some(local) = &user.local_to {
        // CDB$ROOT has common users only.
        if local == ROOT || container.as_deref() != Some(local.as_str()) {
            return Err(denied());
        }
    }
    // The password checked out (a wrong one is ORA-01017 before this): past its grace period
    // it is refused all the same, before any privilege is looked at.
    if user.password == PasswordState::Expired {
        return Err(connect_error(
            Code::Cdc2013,
            "ORA-28001: the password has expired".into(),
        ));
    }
    let mut user = user;
    user.enter(container.as_deref());
    // CREATE SESSION held where the session lands (commonly, or granted there).
    if !user.privileges.system.contains("CREATE SESSION") {
        return Err(CdcError::Privilege {
            operation: "logon".into(),
            message: format!(
                "ORA-01045: user {} lacks CREATE SESSION privilege; logon denied",
                user.name
            ),
        });
    }
    // A PDB open RESTRICTED admits only users with RESTRICTED SESSION there.
    if let Some(pdb) = container.as_deref().filter(|c| *c != ROOT) {
        if let Some(refusal) = restricted_refusal(schema, pdb, &user.name, &user.privileges) {
            return Err(connect_error(Code::Cdc2006, refusal));
        }
    }
    Ok(Login { user, container })
}

/// SYS AS SYSDBA: every privilege, in CDB$ROOT (or the non-CDB).
pub fn sysdba(schema: &SchemaFile) -> Login {
    let mut privileges = privileges_of(&all_privileges());
    // SYS sees every container's rows (its CONTAINER_DATA cannot be changed: ORA-65041).
    privileges.container_data = schema
        .database
        .multitenant
        .then(|| container_data(Some(&all_privileges())));
    Login {
        user: User::new("SYS".into(), None, privileges, BTreeMap::new()),
        container: schema.database.multitenant.then(|| ROOT.to_string()),
    }
}

/// What a call needs; each check returns Oracle's error for a missing grant.
impl User {
    fn has_system(&self, p: &str) -> bool {
        self.privileges.system.contains(p)
    }

    fn has_role(&self, r: &str) -> bool {
        self.privileges.roles.contains(r)
    }

    fn has_object(&self, owner: &str, object: &str, privilege: &str) -> bool {
        self.privileges
            .objects
            .contains(&(owner.into(), object.into(), privilege.into()))
    }

    fn owns(&self, table: &TableName) -> bool {
        table.owner == self.name
    }

    /// SELECT on a dictionary view (`V_$DATABASE`, `DBA_EXTENTS`).
    pub fn may_read_dictionary(&self, view: &str) -> bool {
        self.has_object("SYS", view, "SELECT")
            || self.has_role("SELECT_CATALOG_ROLE")
            || self.has_system("SELECT ANY DICTIONARY")
    }

    /// [`User::may_read_dictionary`], or ORA-00942 naming `shown` (as the statement names it).
    pub fn read_dictionary(&self, view: &str, operation: &str) -> Result<()> {
        if self.may_read_dictionary(view) {
            return Ok(());
        }
        Err(CdcError::Privilege {
            operation: operation.into(),
            message: format!(
                "ORA-00942: table or view does not exist ({} is not visible to {})",
                view.replacen("_$", "$", 1),
                self.name
            ),
        })
    }

    /// Any privilege on the table: what makes it visible (ALL_TABLES, a SELECT's name resolution).
    pub fn sees_table(&self, table: &TableName) -> bool {
        self.owns(table)
            || self.has_system("SELECT ANY TABLE")
            || ["SELECT", "FLASHBACK", "INSERT"]
                .iter()
                .any(|p| self.has_object(&table.owner, &table.table, p))
    }

    fn may_select(&self, table: &TableName) -> bool {
        self.owns(table)
            || self.has_system("SELECT ANY TABLE")
            || self.has_object(&table.owner, &table.table, "SELECT")
    }

    /// `SELECT … FROM t`: SELECT on the table (or SELECT ANY TABLE, or owning it).
    pub fn select(&self, table: &TableName) -> Result<()> {
        if !self.may_select(table) {
            return Err(self.no_table(table, &format!("read of {}", table.owner_table())));
        }
        Ok(())
    }

    /// `SELECT … FROM t AS OF SCN`: SELECT and FLASHBACK on the table.
    pub fn flashback(&self, table: &TableName) -> Result<()> {
        let operation = format!("flashback read of {}", table.owner_table());
        if !self.may_select(table) {
            return Err(self.no_table(table, &operation));
        }
        if !(self.owns(table)
            || self.has_system("FLASHBACK ANY TABLE")
            || self.has_object(&table.owner, &table.table, "FLASHBACK"))
        {
            return Err(CdcError::Privilege {
                operation,
                message: format!(
                    "ORA-01031: insufficient privileges (FLASHBACK on {} for {})",
                    table.quoted(),
                    self.name
                ),
            });
        }
        Ok(())
    }

    /// `INSERT INTO t`: INSERT on the table.
    pub fn insert(&self, table: &TableName) -> Result<()> {
        self.write(table, "INSERT", "insert into")
    }

    /// `UPDATE t`: UPDATE on the table.
    pub fn update(&self, table: &TableName) -> Result<()> {
        self.write(table, "UPDATE", "update of")
    }

    /// `DELETE FROM t`: DELETE on the table.
    pub fn delete(&self, table: &TableName) -> Result<()> {
        self.write(table, "DELETE", "delete from")
    }

    /// A DML privilege: owning the table, `<PRIV> ANY TABLE`, or the object grant; without any
    /// privilege on the table it does not exist for the user (ORA-00942), else ORA-01031.
    fn write(&self, table: &TableName, privilege: &str, verb: &str) -> Result<()> {
        let operation = format!("{verb} {}", table.owner_table());
        if self.owns(table)
            || self.has_system(&format!("{privilege} ANY TABLE"))
            || self.has_object(&table.owner, &table.table, privilege)
        {
            return Ok(());
        }
        if !self.sees_table(table) {
            return Err(self.no_table(table, &operation));
        }
        Err(CdcError::Privilege {
            operation,
            message: format!(
                "ORA-01031: insufficient privileges ({privilege} on {} for {})",
                table.quoted(),
                self.name
            ),
        })
    }

    fn no_table(&self, table: &TableName, operation: &str) -> CdcError {
        CdcError::Privilege {
            operation: operation.into(),
            message: format!(
                "ORA-00942: table or view does not exist ({} for {})",
                table.quoted(),
                self.name
            ),
        }
    }

    /// DBMS_LOGMNR and V$LOGMNR_CONTENTS: EXECUTE on the package, LOGMINING (12c and later;
    /// SELECT ANY TRANSACTION before) and SELECT on the view.
    pub fn logmining(&self, version_major: u32) -> Result<()> {
        let operation = "LogMiner START_LOGMNR";
        if !(self.has_object("SYS", "DBMS_LOGMNR", "EXECUTE")
            || self.has_role("EXECUTE_CATALOG_ROLE"))
        {
            return Err(CdcError::Privilege {
                operation: operation.into(),
                message: "ORA-06550: line 1, column 7: PLS-00201: identifier 'SYS.DBMS_LOGMNR' must be declared".into(),
            });
        }
        let mining = if version_major >= 12 {
            "LOGMINING"
        } else {
            "SELECT ANY TRANSACTION"
        };
        if !self.has_system(mining) {
            return Err(CdcError::Privilege {
                operation: operation.into(),
                message: format!(
                    "ORA-01031: insufficient privileges ({} lacks {mining})",
                    self.name
                ),
            });
        }
        self.read_dictionary("V_$LOGMNR_CONTENTS", "reading V$LOGMNR_CONTENTS")
    }

    /// DBMS_LOGMNR_D.BUILD: EXECUTE on the package (or EXECUTE_CATALOG_ROLE), else the
    /// PLS-00201 a call of an unknown package gets.
    pub fn build_dictionary(&self) -> Result<()> {
        if self.has_object("SYS", "DBMS_LOGMNR_D", "EXECUTE")
            || self.has_role("EXECUTE_CATALOG_ROLE")
        {
            return Ok(());
        }
        Err(CdcError::Privilege {
            operation: "DBMS_LOGMNR_D.BUILD".into(),
            message: "ORA-06550: line 1, column 7: PLS-00201: identifier 'SYS.DBMS_LOGMNR_D' must be declared".into(),
        })
    }

    /// `ALTER SESSION SET CONTAINER = target` into PDB `target` open RESTRICTED (`schema`'s
    /// [`PdbSpec::restricted`]): refused (ORA-01035) unless the user holds RESTRICTED SESSION
    /// there. Checked after [`User::set_container`], as Oracle checks SET CONTAINER first.
    pub fn enter_restricted(&self, schema: &SchemaFile, target: &str) -> Result<()> {
        let held = self.in_container(Some(target));
        match restricted_refusal(schema, target, &self.name, &held) {
            Some(refusal) => Err(CdcError::ContainerUnreachable(format!(
                "{refusal} (ALTER SESSION SET CONTAINER = {target})"
            ))),
            None => Ok(()),
        }
    }

    /// `ALTER SESSION SET CONTAINER = target`.
    pub fn set_container(&self, target: &str) -> Result<()> {
        let refuse = |why: &str| {
            Err(CdcError::Privilege {
                operation: format!("ALTER SESSION SET CONTAINER = {target}"),
                message: format!("ORA-01031: insufficient privileges ({why})"),
            })
        };
        // SET CONTAINER granted commonly, or locally in the container switched to.
        if !self
            .in_container(Some(target))
            .system
            .contains("SET CONTAINER")
        {
            return refuse(&format!("{} lacks SET CONTAINER in {target}", self.name));
        }
        if let Some(local) = &self.local_to {
            if !local.eq_ignore_ascii_case(target) {
                return refuse(&format!(
                    "{} is a local user of {local} and cannot leave it",
                    self.name
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(yaml: &str) -> SchemaFile {
        match SchemaFile::parse(std::path::Path::new("t.yaml"), yaml) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    const CDB: &str = r#"
database:
  multitenant: true
  pdbs: [{ name: PDB3, open_mode: mounted }]
  users:
    - { name: C##CDC }
    - { name: c##nobody, privileges: [SET CONTAINER] }
    - { name: LOCAL1, container: PDB1, privileges: [CREATE SESSION, LOGMINING, "APP.T:SELECT"] }
tables:
  - name: PDB1.APP.T
    columns: [{ name: ID, type: NUMBER, nullable: false }]
  - name: PDB2.APP.T
    columns: [{ name: ID, type: NUMBER, nullable: false }]
"#;

    fn code(r: Result<Login>) -> String {
        match r {
            Ok(l) => format!("ok {:?}", l.container),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_login_lands_where_its_service_says_and_only_where_the_user_exists() {
        let s = schema(CDB);
        assert_eq!(code(login(&s, None, None)), "ok Some(\"CDB$ROOT\")");
        assert_eq!(
            code(login(&s, Some("c##cdc"), Some("pdb2"))),
            "ok Some(\"PDB2\")"
        );
        assert_eq!(
            code(login(&s, Some("local1"), Some("PDB1"))),
            "ok Some(\"PDB1\")"
        );
        // A local user does not exist in the root or in another PDB.
        for service in [None, Some("PDB2")] {
            let e = code(login(&s, Some("LOCAL1"), service));
            assert!(e.starts_with("CDC-2002") && e.contains("ORA-01017"), "{e}");
        }
        assert!(code(login(&s, Some("SCOTT"), None)).contains("ORA-01017"));
        let e = code(login(&s, None, Some("NOPE")));
        assert!(e.starts_with("CDC-2004") && e.contains("ORA-12514"), "{e}");
        let e = code(login(&s, None, Some("PDB3")));
        assert!(e.contains("ORA-01109"), "{e}");
        let e = code(login(&s, Some("C##NOBODY"), None));
        assert!(e.starts_with("CDC-2401") && e.contains("ORA-01045"), "{e}");
    }

    #[test]
    fn without_a_user_list_the_one_user_is_common_by_its_name() {
        let s = schema(
            "database: { multitenant: true }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
        );
        assert_eq!(code(login(&s, Some("c##x"), None)), "ok Some(\"CDB$ROOT\")");
        // Not C##: a local user, which exists only in a PDB.
        assert!(code(login(&s, Some("CDC"), None)).contains("ORA-01017"));
        assert_eq!(
            code(login(&s, Some("CDC"), Some("PDB1"))),
            "ok Some(\"PDB1\")"
        );
        let l = login(&s, Some("CDC"), Some("PDB1")).ok().map(|l| l.user);
        assert_eq!(l.and_then(|u| u.local_to).as_deref(), Some("PDB1"));
    }

    #[test]
    fn set_container_needs_the_grant_and_a_common_user() {
        let s = schema(CDB);
        let all = users(&s);
        let common = &all[0];
        let local = &all[2];
        assert!(common.set_container("PDB2").is_ok());
        let e = local.set_container("CDB$ROOT").err().map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("ORA-01031")),
            "{e:?}"
        );
        let no_grant = User {
            common: privileges_of(&PrivilegeSpec::List(vec!["CREATE SESSION".into()])),
            ..common.clone()
        };
        let e = no_grant.set_container("PDB1").err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|e| e.starts_with("CDC-2401") && e.contains("SET CONTAINER")),
            "{e:?}"
        );
    }

    #[test]
    fn reads_need_select_then_flashback() {
        let s = schema(CDB);
        let local = &users(&s)[2];
        let t = TableName::new(Some("PDB1"), "APP", "T");
        // SELECT without FLASHBACK: the table is visible, AS OF is refused.
        let e = local.flashback(&t).err().map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("ORA-01031")),
            "{e:?}"
        );
        let other = TableName::new(Some("PDB1"), "HR", "EMP");
        let e = local.flashback(&other).err().map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("ORA-00942")),
            "{e:?}"
        );
        assert!(users(&s)[0].flashback(&other).is_ok());
        let e = local.logmining(19).err().map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("PLS-00201")),
            "{e:?}"
        );
        assert!(!local.may_read_dictionary("V_$DATABASE"));
    }

    #[test]
    fn schema_users_are_checked_as_create_user_would() {
        for (yaml, want) in [
            (
                "database: { multitenant: true, users: [{ name: CDC }] }\ntables: []",
                "ORA-65096",
            ),
            (
                "database: { multitenant: true, users: [{ name: C##X, container: PDB1 }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "ORA-65094",
            ),
            (
                "database: { multitenant: true, users: [{ name: X, container: PDB9 }] }\ntables: []",
                "not a PDB",
            ),
            (
                "database: { users: [{ name: X, privileges: [DROP ANY TABLE] }] }\ntables: []",
                "unknown privilege",
            ),
            (
                "database: { multitenant: true, users: [{ name: C##X, container_data: [PDB7] }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "not a container of this database",
            ),
            (
                "database: { multitenant: true, users: [{ name: X, container: PDB1, container_data: all }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "ORA-65056",
            ),
            // A grant on a PDB's table names its PDB; it cannot be common (ORA-65033).
            (
                "database: { multitenant: true, users: [{ name: C##X, privileges: [CREATE SESSION, \"A.T:SELECT\"] }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "C##X: privileges: `A.T:SELECT` names no PDB",
            ),
            (
                "database: { multitenant: true, privileges: [all, \"A.T:INSERT\"] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "database.privileges: `A.T:INSERT` names no PDB",
            ),
            (
                "database: { multitenant: true, users: [{ name: C##X, privileges: [\"PDB7.A.T:SELECT\"] }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "`PDB7.A.T:SELECT` names PDB7, which is not a container",
            ),
            (
                "database: { users: [{ name: X, privileges: [\"PDB1.A.T:SELECT\"] }] }\ntables: [{ name: A.T, columns: [{ name: C, type: NUMBER }] }]",
                "X: privileges: `PDB1.A.T:SELECT` names a container, but the database is not multitenant",
            ),
            (
                "database: { multitenant: true, users: [{ name: X, container: PDB1, privileges: [\"PDB2.A.T:SELECT\"] }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }, { name: PDB2.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "`PDB2.A.T:SELECT` names PDB2, but these grants are made in PDB1",
            ),
            (
                "database: { multitenant: true, users: [{ name: X, container: PDB1, local_privileges: { PDB1: [LOGMINING] } }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "local_privileges are a common user's",
            ),
            (
                "database: { multitenant: true, users: [{ name: C##X, local_privileges: { PDB7: [LOGMINING] } }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "local_privileges names `PDB7`",
            ),
            (
                "database: { multitenant: true, users: [{ name: C##X, local_privileges: { PDB1: [\"PDB2.A.T:SELECT\"] } }] }\ntables: [{ name: PDB1.A.T, columns: [{ name: C, type: NUMBER }] }, { name: PDB2.A.T, columns: [{ name: C, type: NUMBER }] }]",
                "local_privileges of PDB1: `PDB2.A.T:SELECT` names PDB2",
            ),
        ] {
            match SchemaFile::parse(std::path::Path::new("t.yaml"), yaml) {
                Ok(_) => panic!("accepted {yaml}"),
                Err(e) => assert!(e.to_string().contains(want), "{yaml}: {e}"),
            }
        }
    }
}
