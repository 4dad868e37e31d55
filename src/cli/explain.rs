//! `oracle-cdc explain CODE`: a CDC-NNNN code's entry, or what the tool does with an Oracle
//! error (ORA-NNNNN, DPI-NNNN), read from the Oracle adapter's own error mapping.

use super::args::{ExplainArgs, TableFormat};
use super::Printer;
use crate::errors::{CdcError, Code, CodeInfo};
use crate::source::oracle::connect::{self, OraCode, OracleErrorHandling};
use std::process::ExitCode;

fn entry_json(info: &CodeInfo) -> serde_json::Value {
    serde_json::json!({
        "code": info.code,
        "title": info.title,
        "explanation": info.explanation,
        "remedy": info.remedy,
        "exit_code": info.exit.code(),
    })
}

/// Every code, in code order (the catalog groups them by area, not always by number).
fn sorted() -> Vec<&'static CodeInfo> {
    let mut all: Vec<&'static CodeInfo> = Code::ALL.iter().map(|c| c.info()).collect();
    all.sort_by_key(|i| i.code);
    all
}

/// `ORA-01555`, `ora-1555`, `DPI-1047` → the Oracle error.
fn oracle_code(text: &str) -> Option<OraCode> {
    let t = text.trim().to_ascii_uppercase();
    let (make, digits): (fn(i32) -> OraCode, &str) = if let Some(d) = t.strip_prefix("ORA-") {
        (OraCode::Ora, d)
    } else if let Some(d) = t.strip_prefix("DPI-") {
        (OraCode::Dpi, d)
    } else {
        return None;
    };
    if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(make)
}

fn oracle_name(c: OraCode) -> String {
    match c {
        OraCode::Ora(n) => format!("ORA-{n:05}"),
        OraCode::Dpi(n) => format!("DPI-{n:04}"),
    }
}

/// Where an error can come up and what it becomes there: (short and long wording, code).
fn handling_lines(h: &OracleErrorHandling) -> Vec<(String, String, Code)> {
    let mut out = Vec::new();
    if let Some(code) = h.at_login {
        out.push((
            "at login".to_string(),
            "when a login fails with it".to_string(),
            code,
        ));
    }
    for (code, qualifier) in &h.in_calls {
        out.push(match qualifier {
            Some(q) => (
                format!("in a call, with {q}"),
                format!(
                    "when a call on an open connection fails with it and the message names {q}"
                ),
                *code,
            ),
            None => (
                "in a call".to_string(),
                "when a call on an open connection fails with it".to_string(),
                *code,
            ),
        });
    }
    out
}

/// The general codes for what `h` does not cover: where the handling depends on the message
/// (a wrapper, an ORA-00600 argument, a PLS- line) or covers logins or calls only, the rest is
/// handled as any error without handling of its own.
fn otherwise(h: &OracleErrorHandling) -> serde_json::Value {
    let login = h.at_login.is_none();
    let calls = !h.in_calls.iter().any(|(_, qualifier)| qualifier.is_none());
    if !login && !calls {
        return serde_json::Value::Null;
    }
    let mut o = serde_json::Map::new();
    if login {
        o.insert("at_login".into(), Code::Cdc2006.info().code.into());
    }
    if calls {
        o.insert("in_calls".into(), Code::Cdc5006.info().code.into());
    }
    serde_json::Value::Object(o)
}

fn oracle_json(c: OraCode, h: &OracleErrorHandling) -> serde_json::Value {
    serde_json::json!({
        "oracle_error": oracle_name(c),
        "specific": h.is_specific(),
        "wrapper": h.wrapper,
        "becomes": handling_lines(h).iter().map(|(_, when, code)| serde_json::json!({
            "when": when,
            "code": code.info().code,
            "title": code.info().title,
            "explanation": code.info().explanation,
            "remedy": code.info().remedy,
        })).collect::<Vec<_>>(),
        "otherwise": otherwise(h),
    })
}

fn explain_oracle(c: OraCode, format: TableFormat, printer: &Printer) -> anyhow::Result<()> {
    let h = connect::handling_of(c);
    if format == TableFormat::Json {
        printer.json(&oracle_json(c, &h))?;
        return Ok(());
    }
    let name = oracle_name(c);
    let lines = handling_lines(&h);
    if h.wrapper {
        printer.line(&format!(
            "{name}: a wrapper: Oracle's own SQL run for the call (dictionary reads, LogMiner's \
             internal statements, a logon trigger) failed, and the error it met follows in the \
             message. oracle-cdc handles the error as the first other ORA- code under it: \
             `oracle-cdc explain ORA-NNNNN` with that code says what it does. With nothing \
             under it, a login stops with {} and a call with {}.",
            Code::Cdc2006,
            Code::Cdc5006,
        ))?;
        return Ok(());
    }
    if lines.is_empty() {
        printer.line(&format!(
            "{name}: oracle-cdc has no handling of its own for this error.\n\n\
             A login that fails with it stops with {} ({}), a failed call on an open connection with {} ({}); \
             the message carries Oracle's text. Look the error up in Oracle's Database Error Messages.",
            Code::Cdc2006,
            Code::Cdc2006.info().title,
            Code::Cdc5006,
            Code::Cdc5006.info().title,
        ))?;
        return Ok(());
    }
    printer.line(&format!("{name}: what oracle-cdc does with it\n"))?;
    for (i, (_, when, code)) in lines.iter().enumerate() {
        let info = code.info();
        if i > 0 {
            printer.line("")?;
        }
        printer.line(&format!("{when}: {} {}\n", info.code, info.title))?;
        printer.line(&format!("{}\n", info.explanation))?;
        printer.line(&format!("Remedy: {}", info.remedy))?;
    }
    Ok(())
}

pub fn run(args: &ExplainArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    if args.oracle {
        let all = connect::handled_codes();
        match args.format {
            TableFormat::Json => printer.json(&serde_json::Value::Array(
                all.iter().map(|(c, h)| oracle_json(*c, h)).collect(),
            ))?,
            TableFormat::Table => printer.table(
                &["Oracle error", "when", "becomes"],
                all.iter()
                    .flat_map(|(c, h)| {
                        let wrapper = h.wrapper.then(|| {
                            vec![
                                oracle_name(*c),
                                "anywhere".to_string(),
                                "what the Oracle error under it becomes".to_string(),
                            ]
                        });
                        wrapper.into_iter().chain(handling_lines(h).into_iter().map(
                            move |(when, _, code)| {
                                vec![
                                    oracle_name(*c),
                                    when,
                                    format!("{} {}", code.info().code, code.info().title),
                                ]
                            },
                        ))
                    })
                    .collect(),
            )?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.list {
        match args.format {
            TableFormat::Json => printer.json(&serde_json::Value::Array(
                sorted().into_iter().map(entry_json).collect(),
            ))?,
            TableFormat::Table => printer.table(
                &["code", "title"],
                sorted()
                    .into_iter()
                    .map(|i| vec![i.code.to_string(), i.title.to_string()])
                    .collect(),
            )?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = args.code.clone().unwrap_or_default();
    if let Some(c) = oracle_code(&text) {
        explain_oracle(c, args.format, printer)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(code) = Code::lookup(&text) else {
        let list = sorted()
            .into_iter()
            .map(|i| format!("  {}  {}", i.code, i.title))
            .collect::<Vec<_>>()
            .join("\n");
        crate::cli::stderr::line(&CdcError::UnknownCode(text).to_string());
        crate::cli::stderr::line(&format!("known codes (and Oracle errors: oracle-cdc explain ORA-NNNNN, --oracle lists those handled):\n{list}"));
        return Ok(ExitCode::from(2));
    };
    let info = code.info();
    match args.format {
        TableFormat::Json => printer.json(&entry_json(info))?,
        TableFormat::Table => {
            printer.line(&format!("{}: {}\n", info.code, info.title))?;
            printer.line(&format!("{}\n", info.explanation))?;
            printer.line(&format!("Remedy: {}", info.remedy))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_list_in_code_order() {
        let codes: Vec<&str> = sorted().iter().map(|i| i.code).collect();
        let mut expected = codes.clone();
        expected.sort();
        assert_eq!(codes, expected);
        assert_eq!(codes.len(), Code::ALL.len());
    }

    #[test]
    fn oracle_codes_parse() {
        assert_eq!(oracle_code("ORA-01555"), Some(OraCode::Ora(1555)));
        assert_eq!(oracle_code("ora-1555"), Some(OraCode::Ora(1555)));
        assert_eq!(oracle_code("DPI-1047"), Some(OraCode::Dpi(1047)));
        assert_eq!(oracle_code("ORA-"), None);
        assert_eq!(oracle_code("ORA-123456"), None);
        assert_eq!(oracle_code("CDC-8001"), None);
    }
}
