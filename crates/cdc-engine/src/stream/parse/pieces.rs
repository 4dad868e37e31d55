//! The SQL_REDO of the rows that carry LOB-like values (see `source::emulator::lob_redo` for
//! the forms and where each was checked): SEL_LOB_LOCATOR / LOB_WRITE / LOB_TRIM / LOB_ERASE
//! ([`parse_lob_row`]), XML DOC BEGIN / WRITE ([`parse_xml_begin`], [`parse_xml_write`]) and
//! 32K_BEGIN / 32K_WRITE ([`parse_extended_begin`], [`parse_extended_write`]).

use super::{decode_hex, find_byte, Cursor, Literal, ParseError};

/// The row a LOB, XML or extended-string value belongs to: its table, the column, and the
/// WHERE that identifies it (the logged columns' values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locator {
    pub owner: String,
    pub table: String,
    pub column: String,
    pub key: Vec<(String, Literal)>,
}

/// One DBMS_LOB call. Offsets are 1-based; amounts and offsets count characters (UTF-16
/// units) of a CLOB/NCLOB and bytes of a BLOB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobPiece {
    Write {
        data: Literal,
        amount: u64,
        offset: u64,
    },
    Trim {
        len: u64,
    },
    Erase {
        amount: u64,
        offset: u64,
    },
}

/// A LOB row: the `DECLARE … select … for update;` preamble (SEL_LOB_LOCATOR; some captures
/// put it in front of a LOB_WRITE too), then at most one DBMS_LOB call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LobRow {
    pub locator: Option<Locator>,
    pub piece: Option<LobPiece>,
    /// The kind of LOB the DBMS_LOB call's locator variable holds, where the row says: by the
    /// declaration of the variable in its preamble (`lob_1 CLOB;`), else by LogMiner's names
    /// (`loc_c` a CLOB, `loc_nc` an NCLOB, `loc_b` a BLOB). What a row without its
    /// SEL_LOB_LOCATOR (BASICFILE storage out of row) has to tell which column it writes.
    pub kind: Option<LobKind>,
}

/// The LOB type of a locator variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobKind {
    Clob,
    Nclob,
    Blob,
}

impl LobKind {
    fn of_type(t: &str) -> Option<LobKind> {
        let t = t.trim().to_ascii_uppercase();
        match t.as_str() {
            "CLOB" => Some(LobKind::Clob),
            "NCLOB" => Some(LobKind::Nclob),
            "BLOB" => Some(LobKind::Blob),
            _ => None,
        }
    }

    fn of_name(v: &str) -> Option<LobKind> {
        match v.to_ascii_lowercase().as_str() {
            "loc_c" => Some(LobKind::Clob),
            "loc_nc" => Some(LobKind::Nclob),
            "loc_b" => Some(LobKind::Blob),
            _ => None,
        }
    }
}

fn cursor(sql: &str) -> Cursor<'_> {
    Cursor {
        s: sql,
        b: sql.as_bytes(),
        pos: 0,
    }
}

/// Parse a SEL_LOB_LOCATOR, LOB_WRITE, LOB_TRIM or LOB_ERASE row's SQL_REDO. Besides the
/// layout of `source::emulator::lob_redo`, the preamble may be the one-variable form
/// `DECLARE lob_1 CLOB; lob_1_f BOOLEAN; BEGIN select "C" into lob_1 from … for update; lob_1_f
/// := dbms_lob.isopen(lob_1) = 0; if lob_1_f then dbms_lob.open(lob_1, dbms_lob.lob_readwrite);
/// end if; END;` (redpanda-data/connect's `lob_parser_test.go`, "single variable declaration
/// (lob_1)"), whose opening and closing of the LOB change nothing.
pub fn parse_lob_row(sql: &str) -> Result<LobRow, ParseError> {
    let mut c = cursor(sql);
    // Variables the preamble declares, with their types.
    let mut declared: Vec<(String, String)> = Vec::new();
    let locator = if c.keyword("declare") {
        // The declarations (`loc_c CLOB;` …) matter only for the LOB type of a variable.
        while !c.keyword("begin") {
            match find_byte(&c.b[c.pos..], b';') {
                Some(i) => {
                    let decl = c.s[c.pos..c.pos + i].trim();
                    if let Some((name, ty)) = decl.split_once(char::is_whitespace) {
                        declared.push((name.to_ascii_lowercase(), ty.trim().to_string()));
                    }
                    c.pos += i + 1;
                }
                None => return c.fail(c.pos, "expected BEGIN"),
            }
        }
        c.expect_keyword("select")?;
        c.ws();
        let at = c.pos;
        let Some(column) = c.column()? else {
            return c.fail(at, "expected the LOB column");
        };
        c.expect_keyword("into")?;
        c.ident()?;
        c.expect_keyword("from")?;
        let (owner, table) = c.table()?;
        let key = if c.keyword("where") {
            c.conditions()?
        } else {
            Vec::new()
        };
        c.expect_keyword("for")?;
        c.expect_keyword("update")?;
        c.expect(b';')?;
        Some(Locator {
            owner,
            table,
            column,
            key,
        })
    } else {
        None
    };
    let (piece, var) = calls(&mut c)?;
    if locator.is_none() && piece.is_none() {
        return c.fail(0, "neither a LOB locator nor a DBMS_LOB call");
    }
    let kind = var.and_then(|v| {
        declared
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(v))
            .and_then(|(_, t)| LobKind::of_type(t))
            .or_else(|| LobKind::of_name(v))
    });
    Ok(LobRow {
        locator,
        piece,
        kind,
    })
}

/// `buf := …;` assignments, then one `dbms_lob.write|trim|erase(…);`, then an optional `END;`;
/// with the DBMS_LOB call's locator variable. Statements that change no content are skipped:
/// `dbms_lob.open|close(…)`, an assignment of something else than a value (`lob_1_f :=
/// dbms_lob.isopen(lob_1) = 0;`), an `if … end if;`.
fn calls<'a>(c: &mut Cursor<'a>) -> Result<(Option<LobPiece>, Option<&'a str>), ParseError> {
    let mut vars: Vec<(&'a str, Literal)> = Vec::new();
    let mut piece = None;
    let mut var = None;
    loop {
        c.ws();
        if c.pos >= c.b.len() || c.keyword("end") {
            break;
        }
        if c.keyword("if") {
            // `if … then …; end if;`: as far as its `end if;`.
            loop {
                match find_byte(&c.b[c.pos..], b';') {
                    Some(i) => c.pos += i + 1,
                    None => return c.fail(c.pos, "expected `end if;`"),
                }
                let before = c.s[..c.pos - 1].trim_end();
                let ends = before.len() >= 6
                    && before.is_char_boundary(before.len() - 6)
                    && before[before.len() - 6..].eq_ignore_ascii_case("end if");
                if ends {
                    break;
                }
            }
            continue;
        }
        let at = c.pos;
        let (name, _) = c.ident()?;
        if c.eat(b'.') {
            let (proc_name, _) = c.ident()?;
            if !name.eq_ignore_ascii_case("dbms_lob") {
                return c.fail(at, "expected dbms_lob");
            }
            let is = |p: &str| proc_name.eq_ignore_ascii_case(p);
            if is("open") || is("close") {
                match find_byte(&c.b[c.pos..], b';') {
                    Some(i) => c.pos += i + 1,
                    None => return c.fail(c.pos, "expected `;`"),
                }
                continue;
            }
            if piece.is_some() {
                return c.fail(at, "more than one DBMS_LOB call in a row");
            }
            c.expect(b'(')?;
            var = Some(c.ident()?.0); // the locator
            c.expect(b',')?;
            piece = Some(if is("write") {
                let amount = c.unsigned()?;
                c.expect(b',')?;
                let offset = c.unsigned()?;
                c.expect(b',')?;
                let data = argument(c, &mut vars)?;
                LobPiece::Write {
                    data,
                    amount,
                    offset,
                }
            } else if is("trim") {
                LobPiece::Trim {
                    len: number_argument(c, &vars)?,
                }
            } else if is("erase") {
                let amount = number_argument(c, &vars)?;
                c.expect(b',')?;
                LobPiece::Erase {
                    amount,
                    offset: c.unsigned()?,
                }
            } else {
                return c.fail(at, "expected dbms_lob.write, trim or erase");
            });
            c.expect(b')')?;
        } else {
            c.ws();
            if !c.b[c.pos..].starts_with(b":=") {
                return c.fail(c.pos, "expected `:=`");
            }
            c.pos += 2;
            c.ws();
            let value_at = c.pos;
            // A value (a buffer, an amount), or an expression of no content (`dbms_lob.isopen(…)
            // = 0`): skipped to its `;`.
            let value = match c.literal() {
                Ok(lit) if c.peek_after_ws() == Some(b';') => Some(lit),
                _ => None,
            };
            match value {
                Some(lit) => vars.push((name, lit)),
                None => {
                    c.pos = value_at;
                    match find_byte(&c.b[c.pos..], b';') {
                        Some(i) => c.pos += i,
                        None => return c.fail(value_at, "expected `;`"),
                    }
                }
            }
        }
        c.expect(b';')?;
    }
    c.end()?;
    Ok((piece, var))
}

/// The data argument of dbms_lob.write: a buffer assigned before, or a literal.
fn argument<'a>(
    c: &mut Cursor<'a>,
    vars: &mut Vec<(&'a str, Literal)>,
) -> Result<Literal, ParseError> {
    c.ws();
    let save = c.pos;
    if let Ok((v, _)) = c.ident() {
        if let Some(i) = vars.iter().position(|(n, _)| n.eq_ignore_ascii_case(v)) {
            return Ok(vars.swap_remove(i).1);
        }
    }
    c.pos = save;
    match c.literal()? {
        Literal::Bare(_) => c.fail(save, "unknown LOB buffer"),
        lit => Ok(lit),
    }
}

/// A whole number, or a variable assigned one (`e_len := 10; … erase(loc, e_len, 1)`).
fn number_argument(c: &mut Cursor, vars: &[(&str, Literal)]) -> Result<u64, ParseError> {
    c.ws();
    let at = c.pos;
    if c.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
        let (v, _) = c.ident()?;
        let value = vars
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(v))
            .map(|(_, l)| l);
        return match value {
            Some(Literal::Bare(t) | Literal::Str(t)) => t
                .trim()
                .parse()
                .or_else(|_| c.fail(at, "expected a whole number")),
            _ => c.fail(at, "unknown amount variable"),
        };
    }
    c.unsigned()
}

/// Parse an XML DOC BEGIN row: `XML DOC BEGIN:  select "C" from "O"."T" where …` (binary XML)
/// or `update "O"."T" a set a."C" = XMLType(:1)  where a."K" = '1';` (XML stored as CLOB).
pub fn parse_xml_begin(sql: &str) -> Result<Locator, ParseError> {
    let mut c = cursor(sql);
    if c.keyword("xml") {
        c.expect_keyword("doc")?;
        c.expect_keyword("begin")?;
        c.expect(b':')?;
        c.expect_keyword("select")?;
        c.ws();
        let at = c.pos;
        let Some(column) = c.column()? else {
            return c.fail(at, "expected the XMLTYPE column");
        };
        c.expect_keyword("from")?;
        let (owner, table) = c.table()?;
        let key = if c.keyword("where") {
            c.conditions()?
        } else {
            Vec::new()
        };
        c.end()?;
        return Ok(Locator {
            owner,
            table,
            column,
            key,
        });
    }
    c.expect_keyword("update")?;
    let (owner, table) = c.table()?;
    c.expect_keyword("set")?;
    c.ws();
    let at = c.pos;
    let Some(column) = c.column()? else {
        return c.fail(at, "expected the XMLTYPE column");
    };
    c.expect(b'=')?;
    c.literal()?; // XMLType(:1)
    let key = if c.keyword("where") {
        c.conditions()?
    } else {
        Vec::new()
    };
    c.end()?;
    Ok(Locator {
        owner,
        table,
        column,
        key,
    })
}

/// One XML DOC WRITE row's part of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XmlPiece {
    /// `XML_REDO := NULL`: the document is NULL.
    Null,
    /// `XML_REDO := HEXTORAW('…'):len`: document bytes (the database character set; AL32UTF8
    /// here), or `XML_REDO := '…':len`: text kept in the row.
    Bytes(Vec<u8>),
    /// Text-storage XML: the SQL_REDO is the document text itself.
    Text(String),
}

const XML_REDO: &str = "XML_REDO := ";

/// Parse an XML DOC WRITE row. The HEXTORAW form may lack its closing quote (Debezium's
/// XmlWriteParser compensates for the same quirk of real output).
pub fn parse_xml_write(sql: &str) -> Result<XmlPiece, ParseError> {
    let c = cursor(sql);
    let Some(rest) = sql.strip_prefix(XML_REDO) else {
        return Ok(XmlPiece::Text(sql.to_string()));
    };
    let at = XML_REDO.len();
    if rest.trim_end().eq_ignore_ascii_case("NULL") {
        return Ok(XmlPiece::Null);
    }
    // The length after the last colon: checked to be a number, the data carries its own.
    let body = match rest.rfind(':') {
        Some(i) if rest[i + 1..].trim().bytes().all(|b| b.is_ascii_digit()) => &rest[..i],
        _ => return c.fail(at, "expected `:length` after the XML data"),
    };
    if let Some(hex) = body.strip_prefix("HEXTORAW('") {
        let hex = hex.strip_suffix(')').unwrap_or(hex);
        let hex = hex.strip_suffix('\'').unwrap_or(hex);
        return decode_hex(hex)
            .map(XmlPiece::Bytes)
            .or_else(|m| c.fail(at + 10, m));
    }
    let mut q = cursor(body);
    if q.peek() == Some(b'\'') {
        let text = q.quoted().map_err(|e| ParseError {
            offset: e.offset + at,
            ..e
        })?;
        if q.pos == body.len() {
            return Ok(XmlPiece::Bytes(text.into_bytes()));
        }
    }
    c.fail(at, "expected HEXTORAW('…') or a quoted document")
}

/// Parse a 32K_BEGIN row: the quoted `Stmt := 'update … set a."C" = :C where …;';`.
pub fn parse_extended_begin(sql: &str) -> Result<Locator, ParseError> {
    let c = cursor(sql);
    let Some(i) = sql.find("Stmt := '") else {
        return c.fail(0, "expected `Stmt := '…'` in a 32K_BEGIN row");
    };
    let mut q = cursor(&sql[i + 8..]);
    let inner = q.quoted().map_err(|e| ParseError {
        offset: e.offset + i + 8,
        ..e
    })?;
    let mut u = cursor(&inner);
    u.expect_keyword("update")?;
    let (owner, table) = u.table()?;
    u.expect_keyword("set")?;
    u.ws();
    let at = u.pos;
    let Some(column) = u.column()? else {
        return u.fail(at, "expected the column");
    };
    u.expect(b'=')?;
    u.expect(b':')?;
    u.ident()?;
    let key = if u.keyword("where") {
        u.conditions()?
    } else {
        Vec::new()
    };
    u.end()?;
    Ok(Locator {
        owner,
        table,
        column,
        key,
    })
}

/// Parse a 32K_WRITE row: `buf_c := '…';` (then the WriteAppend, ignored).
pub fn parse_extended_write(sql: &str) -> Result<Literal, ParseError> {
    let mut c = cursor(sql);
    c.ident()?;
    c.ws();
    if !c.b[c.pos..].starts_with(b":=") {
        return c.fail(c.pos, "expected `:=`");
    }
    c.pos += 2;
    let lit = c.literal()?;
    c.expect(b';')?;
    Ok(lit)
}
