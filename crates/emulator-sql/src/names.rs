//! Names as Oracle shows them: result column names of unaliased expressions, object names,
//! and line/column positions of PL/SQL errors.

use crate::ast::Ident;
use crate::ObjectName;

/// The name Oracle gives an unaliased select-list expression: its text upper-cased with
/// every blank and comment removed, inside literals too, as Oracle's describe reports it
/// (`to_char(sysdate, 'dd-MON-YYYY hh24.MI.SS')` → `TO_CHAR(SYSDATE,'DD-MON-YYYYHH24.MI.SS')`,
/// `min( "k" )` → `MIN("K")`).
pub fn expression_name(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            if !c.is_whitespace() {
                out.extend(c.to_uppercase());
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                out.push(c);
            }
            '-' if chars.peek() == Some(&'-') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
            }
            c if c.is_whitespace() => {}
            c => out.extend(c.to_uppercase()),
        }
    }
    out
}

/// 1-based line and column of byte offset `at`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let at = crate::lex::char_offset(text, at);
    let mut line = 1;
    let mut column = 1;
    for c in text.chars().take(at) {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (line, column)
}

/// A table name as written (`[schema.]name`).
pub fn object_name(parts: &[Ident]) -> ObjectName {
    match parts {
        [schema, name] => ObjectName {
            schema: Some(schema.name.clone()),
            name: name.name.clone(),
        },
        [.., name] => ObjectName {
            schema: None,
            name: name.name.clone(),
        },
        [] => ObjectName {
            schema: None,
            name: String::new(),
        },
    }
}

/// `"S"."T"` or `"T"`, for error messages.
pub fn quoted_object(name: &ObjectName) -> String {
    match &name.schema {
        Some(s) => format!("\"{s}\".\"{}\"", name.name),
        None => format!("\"{}\"", name.name),
    }
}

/// `S.T.C` for ORA-00904-style messages naming a dotted identifier.
pub fn dotted_text(parts: &[Ident]) -> String {
    parts
        .iter()
        .map(|p| {
            if p.quoted {
                format!("\"{}\"", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expression_names_drop_every_blank() {
        assert_eq!(expression_name("min( \"k\" )"), "MIN(\"K\")");
        assert_eq!(
            expression_name("SYS_CONTEXT('USERENV', 'CON_NAME')"),
            "SYS_CONTEXT('USERENV','CON_NAME')"
        );
        assert_eq!(
            expression_name("to_char(sysdate, 'dd-MON-YYYY hh24.MI.SS')"),
            "TO_CHAR(SYSDATE,'DD-MON-YYYYHH24.MI.SS')"
        );
        assert_eq!(expression_name("count(*) /* c */"), "COUNT(*)");
    }

    #[test]
    fn lines_and_columns() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("abc", 0), (1, 1));
    }
}
