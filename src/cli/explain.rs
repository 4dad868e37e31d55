//! `oracle-cdc explain CODE`.

use super::args::{ExplainArgs, TableFormat};
use super::Printer;
use crate::errors::{CdcError, Code, CodeInfo};
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

pub fn run(args: &ExplainArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    if args.list {
        match args.format {
            TableFormat::Json => printer.json(&serde_json::Value::Array(
                Code::ALL.iter().map(|c| entry_json(c.info())).collect(),
            ))?,
            TableFormat::Table => printer.table(
                &["code", "title"],
                Code::ALL
                    .iter()
                    .map(|c| vec![c.info().code.to_string(), c.info().title.to_string()])
                    .collect(),
            )?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = args.code.clone().unwrap_or_default();
    let Some(code) = Code::lookup(&text) else {
        let list = Code::ALL
            .iter()
            .map(|c| format!("  {}  {}", c.info().code, c.info().title))
            .collect::<Vec<_>>()
            .join("\n");
        eprintln!("{}", CdcError::UnknownCode(text));
        eprintln!("known codes:\n{list}");
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
