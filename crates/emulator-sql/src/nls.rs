//! The session's NLS parameters and TIME_ZONE: their values as Oracle reports them, the
//! parsed format models the conversions use, and ALTER SESSION's validation of new values.
//!
//! Defaults are those of a fresh AMERICAN/AMERICA session. The emulator speaks only that
//! locale (English month and day names, `.` and `,`, BINARY collation): a parameter value
//! that would change what it computes in a way it cannot follow (another territory or
//! language, a linguistic sort, a named time zone region other than UTC when a value needs
//! its offset) is ORA-03001, never a silently different answer.

use crate::datetime::{offset_text, parse_offset, utc_alias};
use crate::dtfmt::{parse_model, Model};
use crate::OraError;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct Nls {
    date_format: String,
    timestamp_format: String,
    timestamp_tz_format: String,
    numeric_characters: String,
    sort: String,
    comp: String,
    time_zone: String,
    /// Minutes east of UTC, `None` for a region the emulator cannot resolve.
    tz_offset: Option<i16>,
    language: String,
    territory: String,
    date_language: String,
    length_semantics: String,
    currency: String,
    iso_currency: String,
    dual_currency: String,
    calendar: String,
    nchar_conv_excp: String,
    time_format: String,
    time_tz_format: String,
    date_model: Arc<Model>,
    ts_model: Arc<Model>,
    tstz_model: Arc<Model>,
}

const DATE_DEFAULT: &str = "DD-MON-RR";
const TS_DEFAULT: &str = "DD-MON-RR HH.MI.SSXFF AM";
const TSTZ_DEFAULT: &str = "DD-MON-RR HH.MI.SSXFF AM TZR";

fn model(text: &str) -> Arc<Model> {
    // The defaults are valid models; an empty model would print nothing rather than panic.
    Arc::new(parse_model(text).unwrap_or(Model { items: Vec::new() }))
}

impl Default for Nls {
    fn default() -> Self {
        Nls::new()
    }
}

fn invalid_environment() -> OraError {
    OraError::new(
        12705,
        "Cannot access NLS data files or invalid environment specified",
    )
}

impl Nls {
    pub fn new() -> Nls {
        Nls {
            date_format: DATE_DEFAULT.into(),
            timestamp_format: TS_DEFAULT.into(),
            timestamp_tz_format: TSTZ_DEFAULT.into(),
            numeric_characters: ".,".into(),
            sort: "BINARY".into(),
            comp: "BINARY".into(),
            time_zone: "+00:00".into(),
            tz_offset: Some(0),
            language: "AMERICAN".into(),
            territory: "AMERICA".into(),
            date_language: "AMERICAN".into(),
            length_semantics: "BYTE".into(),
            currency: "$".into(),
            iso_currency: "AMERICA".into(),
            dual_currency: "$".into(),
            calendar: "GREGORIAN".into(),
            nchar_conv_excp: "FALSE".into(),
            time_format: "HH.MI.SSXFF AM".into(),
            time_tz_format: "HH.MI.SSXFF AM TZR".into(),
            date_model: model(DATE_DEFAULT),
            ts_model: model(TS_DEFAULT),
            tstz_model: model(TSTZ_DEFAULT),
        }
    }

    pub fn date_format(&self) -> &str {
        &self.date_format
    }
    pub fn timestamp_format(&self) -> &str {
        &self.timestamp_format
    }
    pub fn timestamp_tz_format(&self) -> &str {
        &self.timestamp_tz_format
    }
    pub fn numeric_characters(&self) -> &str {
        &self.numeric_characters
    }
    pub fn sort(&self) -> &str {
        &self.sort
    }
    pub fn comp(&self) -> &str {
        &self.comp
    }
    /// TIME_ZONE as SESSIONTIMEZONE reports it (`+00:00`, `-05:30`, `UTC`).
    pub fn time_zone(&self) -> &str {
        &self.time_zone
    }
    pub fn language(&self) -> &str {
        &self.language
    }
    pub fn territory(&self) -> &str {
        &self.territory
    }
    pub fn length_semantics(&self) -> &str {
        &self.length_semantics
    }

    pub fn decimal(&self) -> char {
        self.numeric_characters.chars().next().unwrap_or('.')
    }

    pub fn group(&self) -> char {
        self.numeric_characters.chars().nth(1).unwrap_or(',')
    }

    pub fn date_model(&self) -> &Model {
        &self.date_model
    }
    pub fn ts_model(&self) -> &Model {
        &self.ts_model
    }
    pub fn tstz_model(&self) -> &Model {
        &self.tstz_model
    }

    /// The session time zone's offset; ORA-03001 for a region the emulator cannot resolve.
    pub fn offset(&self) -> Result<i16, OraError> {
        self.tz_offset.ok_or_else(|| {
            crate::unimplemented(&format!(
                "the time zone region {} (only offsets and UTC)",
                self.time_zone
            ))
        })
    }

    /// The session time zone's name when it is a UTC region (for TZR), else `None`.
    pub fn region(&self) -> Option<&str> {
        (!self.time_zone.starts_with(['+', '-'])).then_some(self.time_zone.as_str())
    }

    /// The value of one NLS parameter by name (as NLS_SESSION_PARAMETERS lists them).
    pub fn parameter(&self, name: &str) -> Option<&str> {
        Some(match name {
            "NLS_DATE_FORMAT" => &self.date_format,
            "NLS_TIMESTAMP_FORMAT" => &self.timestamp_format,
            "NLS_TIMESTAMP_TZ_FORMAT" => &self.timestamp_tz_format,
            "NLS_NUMERIC_CHARACTERS" => &self.numeric_characters,
            "NLS_SORT" => &self.sort,
            "NLS_COMP" => &self.comp,
            "TIME_ZONE" => &self.time_zone,
            "NLS_LANGUAGE" => &self.language,
            "NLS_TERRITORY" => &self.territory,
            "NLS_DATE_LANGUAGE" => &self.date_language,
            "NLS_LENGTH_SEMANTICS" => &self.length_semantics,
            "NLS_CURRENCY" => &self.currency,
            "NLS_ISO_CURRENCY" => &self.iso_currency,
            "NLS_DUAL_CURRENCY" => &self.dual_currency,
            "NLS_CALENDAR" => &self.calendar,
            "NLS_NCHAR_CONV_EXCP" => &self.nchar_conv_excp,
            "NLS_TIME_FORMAT" => &self.time_format,
            "NLS_TIME_TZ_FORMAT" => &self.time_tz_format,
            _ => return None,
        })
    }

    /// The parameters NLS_SESSION_PARAMETERS lists, in its order.
    pub const SESSION_PARAMETERS: [&'static str; 17] = [
        "NLS_LANGUAGE",
        "NLS_TERRITORY",
        "NLS_CURRENCY",
        "NLS_ISO_CURRENCY",
        "NLS_NUMERIC_CHARACTERS",
        "NLS_CALENDAR",
        "NLS_DATE_FORMAT",
        "NLS_DATE_LANGUAGE",
        "NLS_SORT",
        "NLS_TIME_FORMAT",
        "NLS_TIMESTAMP_FORMAT",
        "NLS_TIME_TZ_FORMAT",
        "NLS_TIMESTAMP_TZ_FORMAT",
        "NLS_DUAL_CURRENCY",
        "NLS_COMP",
        "NLS_LENGTH_SEMANTICS",
        "NLS_NCHAR_CONV_EXCP",
    ];

    /// Whether ALTER SESSION's `name` is this module's.
    pub fn owns(name: &str) -> bool {
        name == "TIME_ZONE" || name.starts_with("NLS_")
    }

    /// Apply `name = value`; `db_time_zone` resolves `TIME_ZONE = DBTIMEZONE`.
    pub fn set(&mut self, name: &str, value: &str, db_time_zone: &str) -> Result<(), OraError> {
        let upper = value.trim().to_ascii_uppercase();
        match name {
            "NLS_DATE_FORMAT" => {
                let m = parse_model(value)?;
                if m.has_timestamp_parts() {
                    return Err(crate::dtfmt::not_recognized());
                }
                self.date_format = value.into();
                self.date_model = Arc::new(m);
            }
            "NLS_TIMESTAMP_FORMAT" => {
                let m = parse_model(value)?;
                if m.has_zone() {
                    return Err(crate::dtfmt::not_recognized());
                }
                self.timestamp_format = value.into();
                self.ts_model = Arc::new(m);
            }
            "NLS_TIMESTAMP_TZ_FORMAT" => {
                self.tstz_model = Arc::new(parse_model(value)?);
                self.timestamp_tz_format = value.into();
            }
            "NLS_NUMERIC_CHARACTERS" => {
                let cs: Vec<char> = value.chars().collect();
                let ok = cs.len() == 2
                    && cs[0] != cs[1]
                    && cs
                        .iter()
                        .all(|c| c.is_ascii() && !c.is_ascii_digit() && !"+-<>".contains(*c));
                if !ok {
                    return Err(invalid_environment());
                }
                self.numeric_characters = value.into();
            }
            "NLS_SORT" => match upper.as_str() {
                "BINARY" => self.sort = upper,
                _ if upper.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                    return Err(crate::unimplemented(&format!(
                        "NLS_SORT={upper} (the emulator sorts BINARY only)"
                    )))
                }
                _ => return Err(invalid_environment()),
            },
            // With NLS_SORT=BINARY every NLS_COMP compares binary.
            "NLS_COMP" => match upper.as_str() {
                "BINARY" | "ANSI" | "LINGUISTIC" => self.comp = upper,
                _ => return Err(invalid_environment()),
            },
            "TIME_ZONE" => self.set_time_zone(value, db_time_zone)?,
            "NLS_LANGUAGE" => match upper.as_str() {
                "AMERICAN" | "ENGLISH" => {
                    self.language = upper.clone();
                    self.date_language = upper;
                    self.sort = "BINARY".into();
                }
                _ => return Err(unsupported_locale(name, &upper)),
            },
            "NLS_DATE_LANGUAGE" => match upper.as_str() {
                "AMERICAN" | "ENGLISH" => self.date_language = upper,
                _ => return Err(unsupported_locale(name, &upper)),
            },
            "NLS_TERRITORY" => match upper.as_str() {
                // Setting the territory resets the parameters it implies.
                "AMERICA" => {
                    let (language, date_language, tz, off) = (
                        self.language.clone(),
                        self.date_language.clone(),
                        self.time_zone.clone(),
                        self.tz_offset,
                    );
                    *self = Nls::new();
                    self.language = language;
                    self.date_language = date_language;
                    self.time_zone = tz;
                    self.tz_offset = off;
                }
                _ => return Err(unsupported_locale(name, &upper)),
            },
            "NLS_LENGTH_SEMANTICS" => match upper.as_str() {
                "BYTE" | "CHAR" => self.length_semantics = upper,
                _ => return Err(invalid_environment()),
            },
            "NLS_CALENDAR" => match upper.as_str() {
                "GREGORIAN" => self.calendar = upper,
                _ => return Err(unsupported_locale(name, &upper)),
            },
            "NLS_NCHAR_CONV_EXCP" => match upper.as_str() {
                "TRUE" | "FALSE" => self.nchar_conv_excp = upper,
                _ => return Err(invalid_environment()),
            },
            "NLS_CURRENCY" => self.currency = value.into(),
            "NLS_ISO_CURRENCY" => self.iso_currency = upper,
            "NLS_DUAL_CURRENCY" => self.dual_currency = value.into(),
            // Obsolete parameters Oracle still accepts and lists.
            "NLS_TIME_FORMAT" => self.time_format = value.into(),
            "NLS_TIME_TZ_FORMAT" => self.time_tz_format = value.into(),
            _ => return Err(OraError::new(2248, "invalid option for ALTER SESSION")),
        }
        Ok(())
    }

    fn set_time_zone(&mut self, value: &str, db_time_zone: &str) -> Result<(), OraError> {
        let v = value.trim();
        let upper = v.to_ascii_uppercase();
        if upper == "LOCAL" {
            // The client's operating system zone is not known to the server: UTC.
            self.time_zone = "+00:00".into();
            self.tz_offset = Some(0);
            return Ok(());
        }
        if upper == "DBTIMEZONE" {
            return self.set_time_zone(db_time_zone, "+00:00");
        }
        if let Some(off) = parse_offset(v) {
            self.time_zone = offset_text(off);
            self.tz_offset = Some(off);
            return Ok(());
        }
        if v.starts_with(['+', '-']) || v.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Err(OraError::new(
                1874,
                "time zone hour must be between -15 and 15",
            ));
        }
        if utc_alias(v) {
            self.time_zone = v.to_string();
            self.tz_offset = Some(0);
            return Ok(());
        }
        let region_like = v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '+'))
            && v.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if !region_like {
            return Err(OraError::new(1882, "timezone region not found"));
        }
        // A region Oracle may know: accepted, its offset unknown until a value needs it.
        self.time_zone = v.to_string();
        self.tz_offset = None;
        Ok(())
    }
}

fn unsupported_locale(name: &str, value: &str) -> OraError {
    crate::unimplemented(&format!(
        "{name}={value} (the emulator speaks AMERICAN/AMERICA only)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_settings() {
        let mut n = Nls::new();
        assert_eq!(n.date_format(), "DD-MON-RR");
        assert_eq!(n.time_zone(), "+00:00");
        n.set("NLS_DATE_FORMAT", "YYYY-MM-DD HH24:MI:SS", "+00:00")
            .unwrap();
        assert_eq!(n.date_format(), "YYYY-MM-DD HH24:MI:SS");
        assert_eq!(
            n.set("NLS_DATE_FORMAT", "YYYY-FF", "").unwrap_err().code,
            1821
        );
        assert_eq!(n.set("NLS_DATE_FORMAT", "ABC", "").unwrap_err().code, 1821);
        n.set("TIME_ZONE", "00:00", "").unwrap();
        assert_eq!(n.time_zone(), "+00:00");
        n.set("TIME_ZONE", "-05:30", "").unwrap();
        assert_eq!(n.offset().unwrap(), -330);
        n.set("TIME_ZONE", "Europe/Paris", "").unwrap();
        assert_eq!(n.offset().unwrap_err().code, 3001);
        assert_eq!(n.set("TIME_ZONE", "+99:00", "").unwrap_err().code, 1874);
        n.set("NLS_NUMERIC_CHARACTERS", ",.", "").unwrap();
        assert_eq!((n.decimal(), n.group()), (',', '.'));
        assert_eq!(
            n.set("NLS_NUMERIC_CHARACTERS", "..", "").unwrap_err().code,
            12705
        );
        assert_eq!(n.set("NLS_SORT", "GERMAN", "").unwrap_err().code, 3001);
        assert_eq!(n.set("NLS_FOO", "x", "").unwrap_err().code, 2248);
        n.set("NLS_TERRITORY", "AMERICA", "").unwrap();
        assert_eq!(n.date_format(), "DD-MON-RR");
        assert_eq!(n.numeric_characters(), ".,");
    }
}
