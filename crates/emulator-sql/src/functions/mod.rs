//! Built-in scalar functions: which names exist and how many arguments each takes
//! (ORA-00909 otherwise), the type each describes its result as, and evaluation (text
//! functions in `text.rs`, numeric in `num.rs`, datetime in `time.rs`, conversions in
//! `conv.rs`). Aggregates and analytic functions are not here (`agg.rs`, `window.rs`);
//! niladic functions (SYSDATE, USER …) and database functions with constant arguments are
//! folded to constants by the compiler.

mod conv;
mod num;
mod text;
mod time;

use crate::dtfmt::Model;
use crate::ex::{Cx, Ex};
use crate::numfmt::NumModel;
use crate::types::{family, text_length, varchar, Family};
use crate::{Datum, OraError, OraType};
use std::borrow::Cow;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Upper,
    Lower,
    Initcap,
    Length,
    Lengthb,
    Substr,
    Instr,
    Ltrim,
    Rtrim,
    /// TRIM(… FROM x): 'L', 'T' or 'B'; args: x, then the set if any.
    Trim(char),
    Lpad,
    Rpad,
    Replace,
    Translate,
    Concat,
    Chr,
    Ascii,
    /// UNISTR(x): `\XXXX` UTF-16 escapes and `\\` resolved, the result national text.
    Unistr,
    Nvl,
    Nvl2,
    Coalesce,
    Nullif,
    Decode,
    Greatest,
    Least,
    Mod,
    Trunc,
    Round,
    Abs,
    Sign,
    Floor,
    Ceil,
    Power,
    Bitand,
    ToChar,
    ToNumber,
    ToDate,
    ToTimestamp,
    ToTimestampTz,
    Chartorowid,
    Rowidtochar,
    Hextoraw,
    Rawtohex,
    ToClob,
    NumToDsInterval,
    NumToYmInterval,
    AddMonths,
    LastDay,
    MonthsBetween,
    SysExtractUtc,
    FromTz,
    /// EXTRACT(field FROM x).
    Extract(&'static str),
    /// JSON_SERIALIZE / VECTOR_SERIALIZE / XMLSERIALIZE: the value's text.
    Serialize,
}

/// A format model compiled once when it is a constant.
#[derive(Debug, Clone)]
pub enum Aux {
    None,
    Date(Arc<Model>),
    Num(Arc<NumModel>),
}

#[derive(Debug, Clone)]
pub struct FuncCall {
    pub f: Builtin,
    pub args: Vec<Ex>,
    /// The arguments' static types (text forms and precisions depend on them).
    pub hints: Vec<OraType>,
    pub aux: Aux,
    pub ty: OraType,
}

/// The built-in of a name and its argument count bounds.
pub fn lookup(name: &str) -> Option<(Builtin, usize, usize)> {
    use Builtin::*;
    const MANY: usize = 255;
    Some(match name {
        "UPPER" | "NLS_UPPER" => (Upper, 1, 1),
        "LOWER" | "NLS_LOWER" => (Lower, 1, 1),
        "INITCAP" => (Initcap, 1, 1),
        "LENGTH" | "LENGTHC" => (Length, 1, 1),
        "LENGTHB" => (Lengthb, 1, 1),
        "SUBSTR" | "SUBSTRC" => (Substr, 2, 3),
        "INSTR" | "INSTRC" => (Instr, 2, 4),
        "LTRIM" => (Ltrim, 1, 2),
        "RTRIM" => (Rtrim, 1, 2),
        "LPAD" => (Lpad, 2, 3),
        "RPAD" => (Rpad, 2, 3),
        "REPLACE" => (Replace, 2, 3),
        "TRANSLATE" => (Translate, 3, 3),
        "CONCAT" => (Concat, 2, 2),
        "CHR" => (Chr, 1, 1),
        "ASCII" => (Ascii, 1, 1),
        "UNISTR" => (Unistr, 1, 1),
        "NVL" => (Nvl, 2, 2),
        "NVL2" => (Nvl2, 3, 3),
        "COALESCE" => (Coalesce, 2, MANY),
        "NULLIF" => (Nullif, 2, 2),
        "DECODE" => (Decode, 3, MANY),
        "GREATEST" => (Greatest, 1, MANY),
        "LEAST" => (Least, 1, MANY),
        "MOD" => (Mod, 2, 2),
        "TRUNC" => (Trunc, 1, 2),
        "ROUND" => (Round, 1, 2),
        "ABS" => (Abs, 1, 1),
        "SIGN" => (Sign, 1, 1),
        "FLOOR" => (Floor, 1, 1),
        "CEIL" => (Ceil, 1, 1),
        "POWER" => (Power, 2, 2),
        "BITAND" => (Bitand, 2, 2),
        "TO_CHAR" | "TO_NCHAR" => (ToChar, 1, 3),
        "TO_NUMBER" => (ToNumber, 1, 3),
        "TO_DATE" => (ToDate, 1, 3),
        "TO_TIMESTAMP" => (ToTimestamp, 1, 3),
        "TO_TIMESTAMP_TZ" => (ToTimestampTz, 1, 3),
        "CHARTOROWID" => (Chartorowid, 1, 1),
        "ROWIDTOCHAR" | "ROWIDTONCHAR" => (Rowidtochar, 1, 1),
        "HEXTORAW" => (Hextoraw, 1, 1),
        "RAWTOHEX" | "RAWTONHEX" => (Rawtohex, 1, 1),
        "TO_CLOB" | "TO_NCLOB" => (ToClob, 1, 1),
        "NUMTODSINTERVAL" => (NumToDsInterval, 2, 2),
        "NUMTOYMINTERVAL" => (NumToYmInterval, 2, 2),
        "ADD_MONTHS" => (AddMonths, 2, 2),
        "LAST_DAY" => (LastDay, 1, 1),
        "MONTHS_BETWEEN" => (MonthsBetween, 2, 2),
        "SYS_EXTRACT_UTC" => (SysExtractUtc, 1, 1),
        "FROM_TZ" => (FromTz, 2, 2),
        _ => return None,
    })
}

/// Names Oracle has that the emulator does not evaluate (ORA-03001 rather than ORA-00904).
pub fn known_unsupported(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "REGEXP_LIKE",
        "REGEXP_SUBSTR",
        "REGEXP_REPLACE",
        "REGEXP_INSTR",
        "REGEXP_COUNT",
        "LISTAGG",
        "XMLAGG",
        "XMLELEMENT",
        "JSON_VALUE",
        "JSON_QUERY",
        "JSON_OBJECT",
        "JSON_ARRAY",
        "JSON_EXISTS",
        "SQRT",
        "EXP",
        "LN",
        "LOG",
        "SIN",
        "COS",
        "TAN",
        "ATAN",
        "STDDEV",
        "VARIANCE",
        "MEDIAN",
        "LAG",
        "LEAD",
        "FIRST_VALUE",
        "LAST_VALUE",
        "NTILE",
        "PERCENT_RANK",
        "CUME_DIST",
        "RATIO_TO_REPORT",
        "DUMP",
        "VSIZE",
        "SOUNDEX",
        "ORA_HASH",
        "STANDARD_HASH",
        "SYS_GUID",
        "NEW_TIME",
        "NEXT_DAY",
        "TZ_OFFSET",
        "CARDINALITY",
        "COLLECT",
        "CORR",
        "COVAR_POP",
        "LNNVL",
        "NANVL",
        "WIDTH_BUCKET",
        "ASCIISTR",
        "COMPOSE",
        "DECOMPOSE",
        "EMPTY_CLOB",
        "EMPTY_BLOB",
        "UTL_RAW",
        "DBMS_LOB",
    ];
    NAMES.contains(&name)
}

/// The type `f` describes its result as, from its arguments' types.
pub fn result_type(f: Builtin, args: &[OraType], aux: &Aux) -> OraType {
    use Builtin::*;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(OraType::Varchar2(4000));
    let len = |i: usize| text_length(&arg(i));
    let numeric = |t: OraType| match t {
        OraType::BinaryFloat | OraType::BinaryDouble => t,
        _ => OraType::NUMBER,
    };
    match f {
        Upper | Lower | Initcap | Ltrim | Rtrim | Trim(_) | Substr | Translate => {
            if family(&arg(0)) == Family::Lob {
                arg(0)
            } else {
                varchar(len(0))
            }
        }
        Replace | Lpad | Rpad => varchar(4000),
        Concat => varchar(len(0).saturating_add(len(1))),
        Chr => OraType::Varchar2(1),
        // National text of as many characters as the argument at most (each escape is one).
        Unistr => OraType::NVarchar2(len(0).clamp(1, 16383)),
        Length | Lengthb | Instr | Ascii | MonthsBetween | Bitand | ToNumber => OraType::NUMBER,
        Mod | Abs | Sign | Floor | Ceil | Power => numeric(arg(0)),
        Trunc | Round => match family(&arg(0)) {
            Family::Date | Family::Ts | Family::Tstz => OraType::Date,
            _ => numeric(arg(0)),
        },
        Nvl | Coalesce | Greatest | Least | Nullif => args
            .iter()
            .find(|t| **t != OraType::Varchar2(0))
            .cloned()
            .unwrap_or_else(|| arg(0)),
        Nvl2 => arg(1),
        Decode => arg(2),
        ToChar => match aux {
            Aux::Date(m) => varchar(conv::model_width(m)),
            Aux::Num(_) => varchar(64),
            Aux::None => varchar(text_length(&arg(0)).max(1)),
        },
        ToDate | AddMonths | LastDay => OraType::Date,
        ToTimestamp => OraType::Timestamp(9),
        ToTimestampTz => OraType::TimestampTz(9),
        Chartorowid => OraType::Rowid,
        Rowidtochar => OraType::Varchar2(18),
        Hextoraw => OraType::Raw((len(0) / 2).max(1)),
        Rawtohex => varchar(len(0).saturating_mul(2)),
        ToClob | Serialize => OraType::Clob,
        NumToDsInterval => OraType::IntervalDs(9, 9),
        NumToYmInterval => OraType::IntervalYm(9),
        SysExtractUtc => match arg(0) {
            OraType::TimestampTz(p) | OraType::TimestampLtz(p) | OraType::Timestamp(p) => {
                OraType::Timestamp(p)
            }
            _ => OraType::Timestamp(6),
        },
        FromTz => match arg(0) {
            OraType::Timestamp(p) => OraType::TimestampTz(p),
            _ => OraType::TimestampTz(6),
        },
        Extract(field) => match field {
            "TIMEZONE_REGION" | "TIMEZONE_ABBR" => OraType::Varchar2(64),
            _ => OraType::NUMBER,
        },
    }
}

/// Evaluates argument `i` (NULL when absent).
pub(crate) fn arg<'a>(f: &'a FuncCall, i: usize, cx: &Cx<'a>) -> Result<Cow<'a, Datum>, OraError> {
    match f.args.get(i) {
        Some(a) => a.eval(cx),
        None => Ok(Cow::Owned(Datum::Null)),
    }
}

/// Argument `i` as text (`None` for NULL).
pub(crate) fn text_arg(f: &FuncCall, i: usize, cx: &Cx<'_>) -> Result<Option<String>, OraError> {
    let v = arg(f, i, cx)?;
    Ok(crate::convert::to_text(&v, cx.env, f.hints.get(i))?.map(Cow::into_owned))
}

/// Argument `i` as an exact number (`None` for NULL).
pub(crate) fn dec_arg(
    f: &FuncCall,
    i: usize,
    cx: &Cx<'_>,
) -> Result<Option<crate::number::Dec>, OraError> {
    let v = arg(f, i, cx)?;
    crate::convert::to_dec(&v, cx.env)
}

/// Argument `i` truncated to an integer (`None` for NULL).
pub(crate) fn int_arg(f: &FuncCall, i: usize, cx: &Cx<'_>) -> Result<Option<i64>, OraError> {
    Ok(match dec_arg(f, i, cx)? {
        None => None,
        Some(d) => {
            let t = d.trunc();
            Some(match t.to_i128() {
                Some(v) => v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
                None if t.is_negative() => i64::MIN,
                None => i64::MAX,
            })
        }
    })
}

pub fn call(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    match f.f {
        Upper | Lower | Initcap | Length | Lengthb | Substr | Instr | Ltrim | Rtrim | Trim(_)
        | Lpad | Rpad | Replace | Translate | Concat | Chr | Ascii | Unistr => text::call(f, cx),
        Mod | Abs | Sign | Floor | Ceil | Power | Bitand => num::call(f, cx),
        Trunc | Round => {
            let v = arg(f, 0, cx)?;
            match v.as_ref() {
                Datum::Date(_) | Datum::Timestamp(_) | Datum::TimestampTz { .. } => {
                    time::trunc_round(f, &v, cx)
                }
                _ => num::call(f, cx),
            }
        }
        Nvl | Nvl2 | Coalesce | Nullif | Decode | Greatest | Least => conv::choice(f, cx),
        ToChar | ToNumber | ToDate | ToTimestamp | ToTimestampTz | Chartorowid | Rowidtochar
        | Hextoraw | Rawtohex | ToClob | Serialize | NumToDsInterval | NumToYmInterval => {
            conv::call(f, cx)
        }
        AddMonths | LastDay | MonthsBetween | SysExtractUtc | FromTz | Extract(_) => {
            time::call(f, cx)
        }
    }
}

/// Compiles a constant format argument once (TO_CHAR, TO_DATE …) so rows do not re-parse it.
pub fn precompile(f: Builtin, args: &[Ex], hints: &[OraType]) -> Result<Aux, OraError> {
    use Builtin::*;
    let Some(Ex::Const(Datum::Text(fmt))) = args.get(1) else {
        return Ok(Aux::None);
    };
    let datetime_arg = matches!(
        family(hints.first().unwrap_or(&OraType::Varchar2(1))),
        Family::Date | Family::Ts | Family::Tstz
    );
    Ok(match f {
        ToChar if datetime_arg => Aux::Date(Arc::new(crate::dtfmt::parse_model(fmt)?)),
        ToChar if matches!(family(&hints[0]), Family::Num | Family::Float) => {
            Aux::Num(Arc::new(crate::numfmt::parse_model(fmt)?))
        }
        ToDate | ToTimestamp | ToTimestampTz => {
            Aux::Date(Arc::new(crate::dtfmt::parse_model(fmt)?))
        }
        ToNumber => Aux::Num(Arc::new(crate::numfmt::parse_model(fmt)?)),
        _ => Aux::None,
    })
}
