//! LIKE patterns: `%` any run, `_` one character, ESCAPE making the next `%`, `_` or escape
//! character literal (ORA-01424 for anything else after it, ORA-01425 for an escape that is
//! not one character). Compiled once when the pattern is a constant.

use crate::OraError;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pat {
    Lit(char),
    One,
    Any,
}

/// The escape character of `ESCAPE x`: exactly one character.
pub fn escape_char(s: &str) -> Result<char, OraError> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(OraError::new(
            1425,
            "escape character must be character string of length 1",
        )),
    }
}

pub fn compile(p: &str, escape: Option<char>) -> Result<Vec<Pat>, OraError> {
    let mut out = Vec::with_capacity(p.len());
    let mut it = p.chars();
    while let Some(c) = it.next() {
        if Some(c) == escape {
            match it.next() {
                Some(n) if n == '%' || n == '_' || Some(n) == escape => out.push(Pat::Lit(n)),
                _ => {
                    return Err(OraError::new(
                        1424,
                        "missing or illegal character following the escape character",
                    ))
                }
            }
        } else if c == '%' {
            if out.last() != Some(&Pat::Any) {
                out.push(Pat::Any);
            }
        } else if c == '_' {
            out.push(Pat::One);
        } else {
            out.push(Pat::Lit(c));
        }
    }
    Ok(out)
}

/// Wildcard match by characters, backtracking only to the last `%`.
pub fn matches(s: &str, p: &[Pat]) -> bool {
    let (mut si, mut pi, mut star) = (0usize, 0usize, None::<(usize, usize)>);
    loop {
        let c = s[si..].chars().next();
        match (p.get(pi), c) {
            (Some(Pat::Any), _) => {
                pi += 1;
                star = Some((pi, si));
            }
            (Some(Pat::One), Some(ch)) => {
                pi += 1;
                si += ch.len_utf8();
            }
            (Some(Pat::Lit(x)), Some(ch)) if *x == ch => {
                pi += 1;
                si += ch.len_utf8();
            }
            (None, None) => return true,
            _ => {
                let Some((sp, ss)) = star else { return false };
                let Some(ch) = s[ss..].chars().next() else {
                    return false;
                };
                star = Some((sp, ss + ch.len_utf8()));
                pi = sp;
                si = ss + ch.len_utf8();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str, p: &str, e: Option<char>) -> bool {
        matches(s, &compile(p, e).unwrap())
    }

    #[test]
    fn wildcards_and_escape() {
        assert!(m("INTERNAL DDL (x)", "INTERNAL DDL%", None));
        assert!(!m("USER DDL", "INTERNAL DDL%", None));
        assert!(m("MLOG$_EMP", "MLOG$%", None));
        assert!(m("A_B", "A\\_B", Some('\\')));
        assert!(!m("AXB", "A\\_B", Some('\\')));
        assert!(m("100%", "100\\%", Some('\\')));
        assert!(m("abc", "a_c", None));
        assert!(m("", "%", None));
        assert!(m("aXbXc", "%b%c", None));
        assert_eq!(compile("a\\b", Some('\\')).unwrap_err().code, 1424);
        assert_eq!(escape_char("ab").unwrap_err().code, 1425);
    }
}
