//! LIKE: which columns it takes, patterns with ESCAPE, and matching.
use super::typing::column_ty;
use super::unimpl;
use crate::types::ColumnType;

/// Why LIKE cannot take this column, if it cannot (LIKE reads it as text: TO_CHAR for numbers
/// and datetimes, the LOB itself for CLOB).
pub(super) fn like_refusal(t: &ColumnType) -> Option<String> {
    match t {
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. }
        | ColumnType::Number { .. }
        | ColumnType::Float { .. }
        | ColumnType::Date
        | ColumnType::Timestamp { .. }
        | ColumnType::TimestampTz { .. }
        | ColumnType::Clob
        | ColumnType::Nclob => None,
        ColumnType::Blob
        | ColumnType::Bfile
        | ColumnType::Xmltype
        | ColumnType::Long
        | ColumnType::LongRaw
        | ColumnType::Json
        | ColumnType::Vector { .. } => column_ty(t).err(),
        other => Some(unimpl(&format!("LIKE on {} columns", other.sql_name()))),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Pat {
    Lit(char),
    One,
    Any,
}

pub(super) fn like_pattern(
    p: &str,
    escape: Option<char>,
) -> std::result::Result<Vec<Pat>, &'static str> {
    let mut out = Vec::new();
    let mut it = p.chars();
    while let Some(c) = it.next() {
        if Some(c) == escape {
            match it.next() {
                Some(n) if n == '%' || n == '_' || Some(n) == escape => out.push(Pat::Lit(n)),
                _ => {
                    return Err(
                        "ORA-01424: missing or illegal character following the escape character",
                    )
                }
            }
        } else if c == '%' {
            if out.last() != Some(&Pat::Any) {
                out.push(Pat::Any);
            }
        } else {
            out.push(if c == '_' { Pat::One } else { Pat::Lit(c) });
        }
    }
    Ok(out)
}

/// Wildcard match by characters, backtracking only to the last `%`.
pub(super) fn like(s: &str, p: &[Pat]) -> bool {
    let (mut si, mut pi, mut star) = (0, 0, None);
    loop {
        let c = s[si..].chars().next();
        match (p.get(pi), c) {
            (Some(Pat::Any), _) => {
                pi += 1;
                star = Some((pi, si));
            }
            (Some(Pat::One), Some(ch)) => (pi, si) = (pi + 1, si + ch.len_utf8()),
            (Some(Pat::Lit(x)), Some(ch)) if *x == ch => (pi, si) = (pi + 1, si + ch.len_utf8()),
            (None, None) => return true,
            _ => {
                let Some((sp, ss)) = star else { return false };
                let Some(ch) = s[ss..].chars().next() else {
                    return false;
                };
                star = Some((sp, ss + ch.len_utf8()));
                (pi, si) = (sp, ss + ch.len_utf8());
            }
        }
    }
}
