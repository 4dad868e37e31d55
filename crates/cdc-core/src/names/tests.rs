//! The canonical text and the file-name mapping, over every character Oracle allows in a quoted
//! identifier (all but `"` and NUL).

use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// Every ASCII character Oracle allows in a quoted identifier, and a few others.
fn characters() -> Vec<char> {
    let mut c: Vec<char> = (1u8..=127).map(char::from).filter(|&c| c != '"').collect();
    c.extend([
        'é', 'É', 'ß', 'ẞ', '中', '\u{00a0}', '\u{200b}', '€', '😀', '\u{fffd}', 'ı', 'K',
    ]);
    c
}

/// Names that must all stay apart: single characters, pairs, case variants, the probe's cases.
fn names() -> Vec<TableName> {
    let mut out = Vec::new();
    let chars = characters();
    for &c in &chars {
        out.push(TableName::new(None, "HR", &c.to_string()));
        out.push(TableName::new(None, &c.to_string(), "T"));
        out.push(TableName::new(None, "HR", &format!("A{c}B")));
        out.push(TableName::new(Some("P"), "HR", &format!("{c}{c}")));
    }
    for t in [
        ("A", "B.C"),
        ("A.B", "C"),
        ("HR", "EMP"),
        ("HR", "emp"),
        ("HR", "Emp"),
        ("hr", "EMP"),
        ("/tmp/x", "T"),
        ("HR", "x/y"),
        ("HR", "..\\..\\x"),
        ("HR", ".."),
        ("..", ".."),
        ("HR", "."),
        ("CON", "T"),
        ("con", "T"),
        ("HR", "NUL"),
        ("COM1", "LPT9"),
        ("HR", "CON.txt"),
        ("HR", "trailing."),
        ("HR", "trailing "),
        ("HR", " leading"),
        ("HR", "%41"),
        ("HR", "A"),
        ("HR", "a~b"),
        ("HR", "percent%"),
    ] {
        out.push(TableName::new(None, t.0, t.1));
    }
    out.push(TableName::new(Some("A"), "B", "C"));
    out.push(TableName::new(None, "A", "B.C"));
    out.push(TableName::new(None, "A.B", "C"));
    // 128-byte identifiers (the longest Oracle allows) that escape to far more than a file name.
    for c in ['a', 'b', '.', 'é'] {
        let long: String = std::iter::repeat_n(c, 128 / c.len_utf8()).collect();
        out.push(TableName::new(None, &long, &long));
        out.push(TableName::new(
            None,
            &long,
            &format!("{}x", &long[..long.len() - c.len_utf8()]),
        ));
    }
    let mut seen = BTreeSet::new();
    out.retain(|t| seen.insert(t.clone()));
    out
}

#[test]
fn the_text_of_every_name_parses_back_to_it_and_no_two_share_one() {
    let mut texts = BTreeMap::new();
    for t in names() {
        let text = t.to_string();
        let back: TableName = text.parse().unwrap_or_else(|e| panic!("{t:?}: {e}"));
        assert_eq!(back, t, "{text}");
        // Serialized (offsets, signals) the same way.
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<TableName>(&json).unwrap(), t);
        if let Some(other) = texts.insert(text.clone(), t.clone()) {
            panic!("{other:?} and {t:?} share {text}");
        }
    }
    let two = |o: &str, t: &str| TableName::new(None, o, t).to_string();
    assert_eq!(two("HR", "EMP"), "HR.EMP");
    assert_eq!(two("A", "B.C"), "A.\"B.C\"");
    assert_eq!(two("A.B", "C"), "\"A.B\".C");
    assert_eq!(two("HR", "emp"), "HR.\"emp\"");
    assert_eq!(two("HR", "q\"q"), "HR.\"q\"\"q\"");
    assert_eq!("HR.\"q\"\"q\"".parse::<TableName>().unwrap().table, "q\"q");
}

#[test]
fn file_stems_are_injective_even_ignoring_case_and_safe_on_every_os() {
    let mut folded: BTreeMap<String, TableName> = BTreeMap::new();
    for t in names() {
        let stem = file_stem(&t);
        // Case-insensitive file systems (macOS, Windows) see one file for names differing in case.
        if let Some(other) = folded.insert(stem.to_ascii_lowercase(), t.clone()) {
            panic!("{other:?} and {t:?} share the file name {stem}");
        }
        assert!(stem.len() <= 240, "{stem}");
        assert!(!stem.is_empty());
        for c in stem.chars() {
            assert!(
                c.is_ascii_uppercase()
                    || c.is_ascii_digit()
                    || matches!(c, '_' | '$' | '#' | '.' | '%' | '~'),
                "{t:?} → {stem}: `{c}`"
            );
        }
        assert!(
            !stem.starts_with('.') && !stem.ends_with('.') && !stem.contains(".."),
            "{stem}"
        );
        // Windows: the part before the first dot must not be a device name.
        let first = stem.split('.').next().unwrap_or("");
        assert!(
            !RESERVED.iter().any(|r| r.eq_ignore_ascii_case(first)),
            "{t:?} → {stem}"
        );
        let path = std::path::Path::new("/out").join(format!("{stem}.jsonl"));
        assert_eq!(path.parent(), Some(std::path::Path::new("/out")), "{stem}");
    }
    let stem = |o: &str, t: &str| file_stem(&TableName::new(None, o, t));
    assert_eq!(stem("HR", "EMP"), "HR.EMP");
    assert_eq!(stem("A", "B.C"), "A.B%2EC");
    assert_eq!(stem("A.B", "C"), "A%2EB.C");
    assert_eq!(stem("HR", "emp"), "HR.%65%6D%70");
    assert_eq!(stem("/tmp/x", "T"), "%2F%74%6D%70%2F%78.T");
    assert_eq!(stem("CON", "T"), "%43ON.T");
    assert_eq!(
        file_stem(&TableName::new(Some("PDB1"), "HR", "EMP")),
        "PDB1.HR.EMP"
    );
}

#[test]
fn patterns_match_the_names_as_they_are() {
    let p = TablePatterns::new(&["hr.emp*".into()]).unwrap();
    assert!(p.matches(&TableName::new(None, "HR", "emp")));
    assert!(p.matches(&TableName::new(None, "HR", "EMP_X")));
}
