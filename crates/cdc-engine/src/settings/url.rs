//! What `cdc.database.url` and `cdc.mining.database.url` name, parsed once: an emulated
//! database directory (`emulator:DIR`, `emulator:DIR?service=PDB`), a replay of a
//! V$LOGMNR_CONTENTS export (`replay:DIR`), or an Oracle database (anything else: an
//! EZConnect string, a TNS alias or a connect descriptor, handed to the driver as it is).
//!
//! The URL used to be a string that each command took apart again; the rules for its forms
//! (and their CDC-2007 errors) now live here alone, and the code that opens, checks or reports
//! a database matches on [`DatabaseUrl`].

use crate::errors::{CdcError, Code, Result};
use std::fmt;
use std::path::PathBuf;

/// The scheme of an emulated database.
const EMULATOR: &str = cdc_emulator::URL_PREFIX;
/// The scheme of a replay.
const REPLAY: &str = "replay:";

/// Which kind of database a URL names, whether or not the rest of it is well formed.
///
/// Some checks go by the kind alone and must still answer for a URL that [`DatabaseUrl::parse`]
/// refuses: `doctor` reports a malformed `emulator:` URL as an emulator that cannot be opened,
/// not as an Oracle database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Emulator,
    Replay,
    Oracle,
}

impl Scheme {
    /// The kind of `text`, by its scheme. The text is not trimmed: a URL that does not begin
    /// with `emulator:` or `replay:` is handed to the Oracle driver, as it always was.
    pub fn of(text: &str) -> Scheme {
        if text.starts_with(EMULATOR) {
            Scheme::Emulator
        } else if text.starts_with(REPLAY) {
            Scheme::Replay
        } else {
            Scheme::Oracle
        }
    }
}

/// A parsed `cdc.database.url` or `cdc.mining.database.url`.
///
/// `Display` gives the URL back in the form [`DatabaseUrl::parse`] reads; `Debug` shows an
/// Oracle connect string with any password in it redacted (see [`super::redact_url`]).
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// `emulator:DIR` or `emulator:DIR?service=NAME`: an emulated database directory, and the
    /// service the session logs in to (a PDB's name; `None`: the CDB's own, CDB$ROOT).
    Emulator {
        dir: PathBuf,
        service: Option<String>,
    },
    /// `replay:DIR`: a directory holding `logmnr.csv` and `schema.yaml`.
    Replay { dir: PathBuf },
    /// An Oracle database: the connect string as the driver takes it (trimmed; without spaces).
    Oracle { connect: String },
}

impl DatabaseUrl {
    /// Parse a URL. The errors are CDC-2007 and name `cdc.database.url` whichever key the text
    /// came from, as they always have.
    pub fn parse(text: &str) -> Result<Self> {
        if let Some(rest) = text.strip_prefix(EMULATOR) {
            let (dir, service) = parse_emulator(rest)?;
            return Ok(DatabaseUrl::Emulator { dir, service });
        }
        if let Some(dir) = text.strip_prefix(REPLAY) {
            if dir.is_empty() {
                return Err(CdcError::settings(
                    Code::Cdc2007,
                    "cdc.database.url `replay:` needs a directory holding logmnr.csv and schema.yaml, e.g. replay:./incident-42",
                ));
            }
            return Ok(DatabaseUrl::Replay {
                dir: PathBuf::from(dir),
            });
        }
        Ok(DatabaseUrl::Oracle {
            connect: Self::oracle_connect(text)?,
        })
    }

    /// [`DatabaseUrl::parse`] for a check that concerns one kind of database only: `None` for
    /// a URL of another kind, unparsed, so its faults (if any) are reported where it is opened,
    /// in the order they always were.
    pub fn parse_if(text: &str, scheme: Scheme) -> Result<Option<Self>> {
        if Scheme::of(text) == scheme {
            Self::parse(text).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The connect string of an Oracle URL, trimmed: refused when empty (the URL is not set)
    /// or when it holds spaces (no EZConnect string or alias does; a descriptor must be written
    /// without them). The Oracle adapter takes plain values through this too.
    pub fn oracle_connect(text: &str) -> Result<String> {
        cdc_oracle::connector::connect_string(text)
    }

    /// The kind of database this URL names.
    pub fn scheme(&self) -> Scheme {
        match self {
            DatabaseUrl::Emulator { .. } => Scheme::Emulator,
            DatabaseUrl::Replay { .. } => Scheme::Replay,
            DatabaseUrl::Oracle { .. } => Scheme::Oracle,
        }
    }

    /// The URL with any password in an Oracle connect string replaced by `<redacted>`, for
    /// messages and logs.
    pub fn redacted(&self) -> String {
        super::redact_url(&self.to_string())
    }
}

/// The part of an `emulator:` URL after the scheme: the directory, and the service of
/// `?service=NAME` (the one option). The messages quote `rest` as it was written.
fn parse_emulator(rest: &str) -> Result<(PathBuf, Option<String>)> {
    // The last `?` starts the options, so a directory may not hold one.
    let (dir, query) = match rest.rsplit_once('?') {
        Some((d, q)) => (d, Some(q)),
        None => (rest, None),
    };
    let mut service = None;
    for part in query.into_iter().flat_map(|q| q.split('&')) {
        match part.split_once('=') {
            // A second `service` is refused, not taken over the first: which PDB is captured
            // must not depend on the order of the parameters.
            Some(("service", _)) if service.is_some() => {
                return Err(CdcError::settings(
                    Code::Cdc2007,
                    format!("cdc.database.url `emulator:{rest}`: the parameter `service` is given more than once; give one ?service=PDB"),
                ))
            }
            Some(("service", v)) if !v.trim().is_empty() => service = Some(v.trim().to_string()),
            _ => {
                return Err(CdcError::settings(
                    Code::Cdc2007,
                    format!("cdc.database.url `emulator:{rest}`: `{part}` is not a connection option; the one option is ?service=PDB (the PDB's service; without it the session lands in CDB$ROOT)"),
                ))
            }
        }
    }
    if dir.is_empty() {
        return Err(CdcError::settings(
            Code::Cdc2007,
            "cdc.database.url `emulator:` needs a directory, e.g. emulator:./demo-db",
        ));
    }
    Ok((PathBuf::from(dir), service))
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseUrl::Emulator { dir, service } => {
                write!(f, "{EMULATOR}{}", dir.display())?;
                match service {
                    Some(s) => write!(f, "?service={s}"),
                    None => Ok(()),
                }
            }
            DatabaseUrl::Replay { dir } => write!(f, "{REPLAY}{}", dir.display()),
            DatabaseUrl::Oracle { connect } => f.write_str(connect),
        }
    }
}

/// Redacted: a connect string may carry a password (`user/secret@host/svc`).
impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({})", self.redacted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        match DatabaseUrl::parse(text) {
            Err(e) => {
                assert_eq!(e.code(), Code::Cdc2007, "{text:?}: {e}");
                e.to_string()
            }
            Ok(u) => panic!("{text:?} was accepted as {u:?}"),
        }
    }

    fn emulator(dir: &str, service: Option<&str>) -> DatabaseUrl {
        DatabaseUrl::Emulator {
            dir: PathBuf::from(dir),
            service: service.map(str::to_string),
        }
    }

    #[test]
    fn an_emulator_url_is_a_directory_and_maybe_a_service() {
        assert_eq!(
            DatabaseUrl::parse("emulator:./demo-db").unwrap(),
            emulator("./demo-db", None)
        );
        assert_eq!(
            DatabaseUrl::parse("emulator:/d/db?service=PDB1").unwrap(),
            emulator("/d/db", Some("PDB1"))
        );
        // The service's value is trimmed; the directory is taken as written.
        assert_eq!(
            DatabaseUrl::parse("emulator: db ?service= PDB1 ").unwrap(),
            emulator(" db ", Some("PDB1"))
        );
        // Only the last `?` starts the options.
        assert_eq!(
            DatabaseUrl::parse("emulator:a?b?service=P").unwrap(),
            emulator("a?b", Some("P"))
        );
    }

    #[test]
    fn a_malformed_emulator_url_is_refused_with_cdc_2007() {
        let e = refused("emulator:");
        assert!(e.contains("`emulator:` needs a directory"), "{e}");
        let e = refused("emulator:?service=PDB1");
        assert!(e.contains("`emulator:` needs a directory"), "{e}");
        let e = refused("emulator:db?service=A&service=B");
        assert!(
            e.contains("`emulator:db?service=A&service=B`: the parameter `service` is given more than once"),
            "{e}"
        );
        let e = refused("emulator:db?user=x");
        assert!(
            e.contains("`emulator:db?user=x`: `user=x` is not a connection option"),
            "{e}"
        );
        let e = refused("emulator:db?service=");
        assert!(e.contains("`service=` is not a connection option"), "{e}");
        let e = refused("emulator:db?");
        assert!(e.contains("`` is not a connection option"), "{e}");
    }

    #[test]
    fn a_replay_url_needs_a_directory() {
        assert_eq!(
            DatabaseUrl::parse("replay:./incident-42").unwrap(),
            DatabaseUrl::Replay {
                dir: PathBuf::from("./incident-42")
            }
        );
        let e = refused("replay:");
        assert!(
            e.contains(
                "cdc.database.url `replay:` needs a directory holding logmnr.csv and schema.yaml"
            ),
            "{e}"
        );
    }

    #[test]
    fn anything_else_is_an_oracle_connect_string_trimmed() {
        for (text, connect) in [
            ("db.example.com:1521/ORCLPDB1", "db.example.com:1521/ORCLPDB1"),
            ("  ORCL\n", "ORCL"),
            (
                "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=S)))",
                "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=S)))",
            ),
            // The scheme is matched before trimming, as it always was: this one goes to the
            // driver, which will not find it.
            (" emulator:db", "emulator:db"),
            ("EMULATOR:db", "EMULATOR:db"),
        ] {
            assert_eq!(
                DatabaseUrl::parse(text).unwrap(),
                DatabaseUrl::Oracle {
                    connect: connect.into()
                },
                "{text:?}"
            );
        }
        for text in ["", "   "] {
            let e = refused(text);
            assert!(e.contains("cdc.database.url is not set"), "{e}");
        }
        let e = refused(" db:1521/X Y ");
        assert!(
            e.contains("cdc.database.url `db:1521/X Y` contains spaces"),
            "{e}"
        );
    }

    #[test]
    fn the_scheme_is_known_even_when_the_rest_is_refused() {
        assert_eq!(Scheme::of("emulator:db?bad"), Scheme::Emulator);
        assert_eq!(Scheme::of("replay:"), Scheme::Replay);
        assert_eq!(Scheme::of(" replay:x"), Scheme::Oracle);
        assert_eq!(Scheme::of("db:1521/X"), Scheme::Oracle);
        for text in ["emulator:db", "replay:r", "db:1521/X"] {
            let url = DatabaseUrl::parse(text).unwrap();
            assert_eq!(url.scheme(), Scheme::of(text), "{text}");
        }
    }

    #[test]
    fn parse_if_parses_only_the_kind_asked_for() {
        assert_eq!(
            DatabaseUrl::parse_if("emulator:db", Scheme::Emulator).unwrap(),
            Some(emulator("db", None))
        );
        assert!(DatabaseUrl::parse_if("emulator:", Scheme::Emulator).is_err());
        // Another kind is not looked into, so not refused here even when malformed.
        assert_eq!(
            DatabaseUrl::parse_if("replay:", Scheme::Emulator).unwrap(),
            None
        );
        assert_eq!(DatabaseUrl::parse_if("", Scheme::Emulator).unwrap(), None);
        assert_eq!(
            DatabaseUrl::parse_if("replay:r", Scheme::Replay).unwrap(),
            Some(DatabaseUrl::Replay {
                dir: PathBuf::from("r")
            })
        );
    }

    #[test]
    fn display_gives_the_url_back() {
        for text in [
            "emulator:./demo-db",
            "emulator:/d/db?service=PDB1",
            "emulator:a?b?service=P",
            "replay:./incident-42",
            "db.example.com:1521/ORCLPDB1",
            "cdc/secret@db:1521/S",
        ] {
            let url = DatabaseUrl::parse(text).unwrap();
            assert_eq!(url.to_string(), text);
            assert_eq!(DatabaseUrl::parse(&url.to_string()).unwrap(), url);
        }
        // Normalised forms come back normalised, and parse to the same value.
        let url = DatabaseUrl::parse("emulator:db?service= P ").unwrap();
        assert_eq!(url.to_string(), "emulator:db?service=P");
        assert_eq!(DatabaseUrl::parse(&url.to_string()).unwrap(), url);
        assert_eq!(DatabaseUrl::parse(" ORCL ").unwrap().to_string(), "ORCL");
    }

    #[test]
    fn a_password_in_a_connect_string_stays_out_of_debug_and_redacted() {
        let url = DatabaseUrl::parse("cdc/Very-Secret-1@db:1521/S").unwrap();
        assert_eq!(url.redacted(), "cdc/<redacted>@db:1521/S");
        let shown = format!("{url:?}");
        assert!(!shown.contains("Very-Secret-1"), "{shown}");
        assert!(shown.contains("db:1521/S"), "{shown}");
        assert_eq!(
            DatabaseUrl::parse("emulator:db").unwrap().redacted(),
            "emulator:db"
        );
    }
}
