//! Datetime format models (`YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM`, `DD-MON-RR HH.MI.SSXFF AM`):
//! the model's elements (here), rendering a value with them (TO_CHAR, `render.rs`) and reading
//! text with them (TO_DATE, TO_TIMESTAMP, implicit conversion, `read.rs`).
//!
//! Elements follow the SQL Reference's "Datetime Format Elements" table. An element Oracle
//! does not have is ORA-01821; one it has that the emulator does not evaluate (spelled
//! years, other calendars' eras, the locale's long date) is ORA-03001 naming it.

mod read;
pub mod render;

pub use read::{read, Target};
pub use render::render;

use crate::OraError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum El {
    /// AD / BC; `dots`: A.D. / B.C.
    Era {
        dots: bool,
    },
    /// AM / PM; `dots`: A.M. / P.M.
    Meridian {
        dots: bool,
    },
    Cc {
        signed: bool,
    },
    D,
    Day,
    Dd,
    Ddd,
    Dy,
    /// FF (the value's precision) or FF1..FF9.
    Ff(u8),
    Hh12,
    Hh24,
    Iw,
    /// IYYY, IYY, IY, I: digits of the ISO year.
    Iy(u8),
    J,
    Mi,
    Mm,
    Mon,
    Month,
    Q,
    Rm,
    /// RR (2) / RRRR (4).
    Rr(u8),
    Ss,
    Sssss,
    Tzd,
    Tzh,
    Tzm,
    Tzr,
    W,
    Ww,
    /// The decimal character.
    X,
    /// Y, YY, YYY, YYYY: that many last digits of the year.
    Y(u8),
    /// Y,YYY.
    YComma,
    /// SYYYY.
    SignedYear,
}

/// How a text element is written, hence printed: `MON` → `JAN`, `Mon` → `Jan`, `mon` → `jan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Upper,
    Capital,
    Lower,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    El {
        el: El,
        case: Case,
        /// Fill mode (FM) is on: no padding blanks or leading zeros.
        fm: bool,
        /// Format exact (FX) is on: reading requires the exact shape.
        fx: bool,
    },
    /// Punctuation or quoted text, printed as is.
    Lit(String),
}

/// A parsed format model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub items: Vec<Item>,
}

impl Model {
    pub fn has(&self, f: impl Fn(El) -> bool) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i, Item::El { el, .. } if f(*el)))
    }

    /// Whether it names fractional seconds or a time zone (not allowed for a DATE).
    pub fn has_timestamp_parts(&self) -> bool {
        self.has(|e| matches!(e, El::Ff(_) | El::Tzh | El::Tzm | El::Tzr | El::Tzd))
    }

    pub fn has_zone(&self) -> bool {
        self.has(|e| matches!(e, El::Tzh | El::Tzm | El::Tzr | El::Tzd))
    }
}

pub fn not_recognized() -> OraError {
    OraError::new(1821, "date format not recognized")
}

/// Elements by their longest spelling first, so `DDD` is not read as `DD` + `D`.
const ELEMENTS: &[(&str, El)] = &[
    ("A.D.", El::Era { dots: true }),
    ("B.C.", El::Era { dots: true }),
    ("A.M.", El::Meridian { dots: true }),
    ("P.M.", El::Meridian { dots: true }),
    ("Y,YYY", El::YComma),
    ("SYYYY", El::SignedYear),
    ("SSSSS", El::Sssss),
    ("MONTH", El::Month),
    ("HH24", El::Hh24),
    ("HH12", El::Hh12),
    ("IYYY", El::Iy(4)),
    ("RRRR", El::Rr(4)),
    ("YYYY", El::Y(4)),
    ("SCC", El::Cc { signed: true }),
    ("DAY", El::Day),
    ("DDD", El::Ddd),
    ("IYY", El::Iy(3)),
    ("MON", El::Mon),
    ("TZD", El::Tzd),
    ("TZH", El::Tzh),
    ("TZM", El::Tzm),
    ("TZR", El::Tzr),
    ("YYY", El::Y(3)),
    ("AD", El::Era { dots: false }),
    ("BC", El::Era { dots: false }),
    ("AM", El::Meridian { dots: false }),
    ("PM", El::Meridian { dots: false }),
    ("CC", El::Cc { signed: false }),
    ("DD", El::Dd),
    ("DY", El::Dy),
    ("HH", El::Hh12),
    ("IW", El::Iw),
    ("IY", El::Iy(2)),
    ("MI", El::Mi),
    ("MM", El::Mm),
    ("RM", El::Rm),
    ("RR", El::Rr(2)),
    ("SS", El::Ss),
    ("WW", El::Ww),
    ("YY", El::Y(2)),
    ("D", El::D),
    ("I", El::Iy(1)),
    ("J", El::J),
    ("Q", El::Q),
    ("W", El::W),
    ("X", El::X),
    ("Y", El::Y(1)),
];

/// Valid Oracle elements (and the TH / SP suffixes) the emulator does not evaluate.
const UNSUPPORTED: &[&str] = &["SYEAR", "YEAR", "DL", "DS", "TS", "EE", "E", "TH", "SP"];

/// Parse a datetime format model; ORA-01821 for text that is not one.
pub fn parse_model(fmt: &str) -> Result<Model, OraError> {
    let mut items: Vec<Item> = Vec::new();
    let (mut fm, mut fx) = (false, false);
    let upper = fmt.to_ascii_uppercase();
    let mut i = 0;
    if fmt.len() > 4000 {
        return Err(not_recognized());
    }
    while i < fmt.len() {
        let rest = &fmt[i..];
        let urest = &upper[i..];
        let Some(c) = rest.chars().next() else { break };
        if c == '"' {
            let n = rest[1..].find('"').ok_or_else(not_recognized)?;
            push_lit(&mut items, &rest[1..=n]);
            i += n + 2;
            continue;
        }
        if matches!(c, '-' | '/' | ',' | '.' | ';' | ':' | ' ') {
            push_lit(&mut items, &rest[..1]);
            i += 1;
            continue;
        }
        if urest.starts_with("FM") {
            fm = !fm;
            i += 2;
            continue;
        }
        if urest.starts_with("FX") {
            fx = !fx;
            i += 2;
            continue;
        }
        if urest.starts_with("FF") {
            let digit = rest[2..].chars().next().and_then(|d| d.to_digit(10));
            let (n, len) = match digit {
                Some(d @ 1..=9) => (d as u8, 3),
                _ => (0, 2),
            };
            items.push(Item::El {
                el: El::Ff(n),
                case: Case::Upper,
                fm,
                fx,
            });
            i += len;
            continue;
        }
        if let Some(word) = UNSUPPORTED.iter().find(|w| {
            urest.starts_with(*w)
                && !ELEMENTS
                    .iter()
                    .any(|(k, _)| urest.starts_with(k) && k.len() >= w.len())
        }) {
            return Err(crate::unimplemented(&format!(
                "the datetime format element {word}"
            )));
        }
        let Some((key, el)) = ELEMENTS.iter().find(|(k, _)| urest.starts_with(k)) else {
            return Err(not_recognized());
        };
        let written = &rest[..key.len()];
        let mut cs = written.chars().filter(|c| c.is_alphabetic());
        let case = match (cs.next(), cs.next()) {
            (Some(a), _) if a.is_lowercase() => Case::Lower,
            (Some(_), Some(b)) if b.is_lowercase() => Case::Capital,
            _ => Case::Upper,
        };
        items.push(Item::El {
            el: *el,
            case,
            fm,
            fx,
        });
        i += key.len();
    }
    Ok(Model { items })
}

fn push_lit(items: &mut Vec<Item>, s: &str) {
    if let Some(Item::Lit(prev)) = items.last_mut() {
        prev.push_str(s);
    } else {
        items.push(Item::Lit(s.to_string()));
    }
}

pub const MONTHS: [&str; 12] = [
    "JANUARY",
    "FEBRUARY",
    "MARCH",
    "APRIL",
    "MAY",
    "JUNE",
    "JULY",
    "AUGUST",
    "SEPTEMBER",
    "OCTOBER",
    "NOVEMBER",
    "DECEMBER",
];

pub const DAYS: [&str; 7] = [
    "SUNDAY",
    "MONDAY",
    "TUESDAY",
    "WEDNESDAY",
    "THURSDAY",
    "FRIDAY",
    "SATURDAY",
];

pub fn cased(s: &str, case: Case) -> String {
    match case {
        Case::Upper => s.to_string(),
        Case::Lower => s.to_lowercase(),
        Case::Capital => {
            let mut out = String::with_capacity(s.len());
            for (k, c) in s.chars().enumerate() {
                if k == 0 {
                    out.push(c);
                } else {
                    out.extend(c.to_lowercase());
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests;
