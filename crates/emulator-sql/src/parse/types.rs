//! Type names as CAST and the *SERIALIZE functions take them (`NUMBER(10,2)`,
//! `VARCHAR2(20 CHAR)`, `TIMESTAMP(3) WITH TIME ZONE`, `INTERVAL DAY(2) TO SECOND(6)`).

use super::Parser;
use crate::ast::TypeName;
use crate::lex::Tok;
use crate::OraError;
use oracle_datum::OraType;

fn invalid(pos: usize) -> OraError {
    OraError::new(902, "invalid datatype").at(pos)
}

fn small(v: Option<i64>, default: u8) -> u8 {
    v.and_then(|x| u8::try_from(x).ok()).unwrap_or(default)
}

impl Parser<'_> {
    /// A type name as CAST and the *SERIALIZE functions take it.
    pub(super) fn type_name(&mut self) -> Result<TypeName, OraError> {
        let pos = self.pos();
        let word = match self.tok() {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err(902, "invalid datatype")),
        };
        self.advance();
        let ora = match word.as_str() {
            "NUMBER" | "NUMERIC" | "DECIMAL" | "DEC" => self.number_type(pos)?,
            "INTEGER" | "INT" | "SMALLINT" => OraType::Number {
                precision: 38,
                scale: 0,
            },
            "FLOAT" => OraType::Float(small(self.precision()?.first().copied(), 126)),
            "BINARY_FLOAT" => OraType::BinaryFloat,
            "BINARY_DOUBLE" => OraType::BinaryDouble,
            "VARCHAR2" | "VARCHAR" | "NVARCHAR2" | "RAW" | "CHAR" | "NCHAR" => {
                self.sized_type(&word, pos)?
            }
            "DATE" => OraType::Date,
            "TIMESTAMP" => self.timestamp_type()?,
            "INTERVAL" => self.interval_type(pos)?,
            "CLOB" => OraType::Clob,
            "NCLOB" => OraType::NClob,
            "BLOB" => OraType::Blob,
            "ROWID" => OraType::Rowid,
            "UROWID" => {
                self.skip_precision()?;
                OraType::Urowid
            }
            "BOOLEAN" => OraType::Boolean,
            "LONG" if self.eat_word("RAW") => OraType::LongRaw,
            "LONG" => OraType::Long,
            _ => return Err(invalid(pos)),
        };
        Ok(TypeName { ora, pos })
    }

    fn number_type(&mut self, pos: usize) -> Result<OraType, OraError> {
        let p = self.precision()?;
        let precision = match p.first() {
            None => 0,
            Some(&x) => u8::try_from(x)
                .ok()
                .filter(|x| (1..=38).contains(x))
                .ok_or_else(|| {
                    OraError::new(
                        1727,
                        "numeric precision specifier is out of range (1 to 38)",
                    )
                    .at(pos)
                })?,
        };
        let scale = match p.get(1) {
            Some(&s) => i8::try_from(s)
                .ok()
                .filter(|s| (-84..=127).contains(s))
                .ok_or_else(|| {
                    OraError::new(1728, "numeric scale specifier is out of range (-84 to 127)")
                        .at(pos)
                })?,
            None if precision == 0 => -127,
            None => 0,
        };
        Ok(OraType::Number { precision, scale })
    }

    /// VARCHAR2(n), NVARCHAR2(n), RAW(n) (length required) and CHAR[(n)], NCHAR[(n)].
    fn sized_type(&mut self, word: &str, pos: usize) -> Result<OraType, OraError> {
        let fixed = matches!(word, "CHAR" | "NCHAR");
        if !fixed && !self.is_op("(") {
            return Err(self.err(906, "missing left parenthesis"));
        }
        let p = self.precision()?;
        let n = u32::try_from(p.first().copied().unwrap_or(1)).unwrap_or(0);
        if n == 0 || n > 32767 {
            return Err(OraError::new(910, "specified length too long for its datatype").at(pos));
        }
        Ok(match word {
            "CHAR" => OraType::Char(n),
            "NCHAR" => OraType::NChar(n),
            "NVARCHAR2" => OraType::NVarchar2(n),
            "RAW" => OraType::Raw(n),
            _ => OraType::Varchar2(n),
        })
    }

    fn timestamp_type(&mut self) -> Result<OraType, OraError> {
        let p = self.precision()?;
        let fs = small(p.first().copied(), 6).min(9);
        if !self.eat_word("WITH") {
            return Ok(OraType::Timestamp(fs));
        }
        let local = self.eat_word("LOCAL");
        self.expect_word("TIME", 905, "missing keyword")?;
        self.expect_word("ZONE", 905, "missing keyword")?;
        Ok(if local {
            OraType::TimestampLtz(fs)
        } else {
            OraType::TimestampTz(fs)
        })
    }

    fn interval_type(&mut self, pos: usize) -> Result<OraType, OraError> {
        let lead = match self.tok() {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err(902, "invalid datatype")),
        };
        self.advance();
        let p = self.precision()?;
        self.expect_word("TO", 905, "missing keyword")?;
        self.advance();
        let q = self.precision()?;
        let lead_p = small(p.first().copied(), 2);
        match lead.as_str() {
            "YEAR" => Ok(OraType::IntervalYm(lead_p)),
            "DAY" => Ok(OraType::IntervalDs(lead_p, small(q.first().copied(), 6))),
            _ => Err(invalid(pos)),
        }
    }
}
