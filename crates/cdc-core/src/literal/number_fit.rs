//! Whether a NUMBER value read from the redo can be a value of its column: Oracle stores only
//! finite numbers of magnitude below 1E126 and at least 1E-130, and a NUMBER(p,s) column only
//! values whose digits fit p and s (it refuses more with ORA-01438 and rounds to s places). A
//! value outside that never came from Oracle's redo: a damaged or hand-made export, which must
//! be refused (CDC-3002, so `cdc.on.decode.error=dlq` applies) rather than published as text
//! under a schema that promises, say, an int64.

use crate::types::ColumnType;

/// Exponents (of ten) of the largest and the smallest magnitude a NUMBER holds.
const HIGHEST_DIGIT: i64 = 125;
const LOWEST_DIGIT: i64 = -130;

/// The powers of ten of the highest and lowest non-zero digit of a number in the canonical
/// text (`-12.5`, `.15`, `1E999999`, `1.5E-7`); `None` for zero, `Err` for an exponent beyond
/// any range.
fn digit_span(text: &str) -> Result<Option<(i64, i64)>, ()> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], &body[i + 1..]),
        None => (body, "0"),
    };
    let exponent: i64 = exponent
        .strip_prefix('+')
        .unwrap_or(exponent)
        .parse()
        .map_err(|_| ())?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = int.bytes().chain(frac.bytes());
    let (mut first, mut last) = (None, None);
    for (k, d) in digits.enumerate() {
        if d != b'0' {
            first.get_or_insert(k as i64);
            last = Some(k as i64);
        }
    }
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(None);
    };
    // The digit at index k stands for 10^(len(int) - 1 - k + exponent).
    let place = |k: i64| (int.len() as i64 - 1 - k).checked_add(exponent).ok_or(());
    Ok(Some((place(first)?, place(last)?)))
}

/// `Err` with why when `text` (a number as [`super`] prints it) cannot be a value of a
/// column of type `ty` (NUMBER or FLOAT).
pub fn check(text: &str, ty: &ColumnType) -> Result<(), String> {
    let out_of_range = || {
        format!("`{text}` is not a finite Oracle NUMBER (magnitudes from 1E-130 to below 1E126)")
    };
    let Some((high, low)) = digit_span(text).map_err(|_| out_of_range())? else {
        return Ok(());
    };
    if !(LOWEST_DIGIT..=HIGHEST_DIGIT).contains(&high) {
        return Err(out_of_range());
    }
    if let ColumnType::Number { precision, scale } = ty {
        // NUMBER(p) is NUMBER(p,0); NUMBER alone has no precision and no scale.
        let scale = match (precision, scale) {
            (_, Some(s)) => i64::from(*s),
            (Some(_), None) => 0,
            (None, None) => return Ok(()),
        };
        // The type's name only for a message: every NUMBER value of the stream passes here.
        if low < -scale {
            return Err(format!(
                "`{text}` does not fit {}: it has digits below 1E{} (ORA-01438: Oracle rounds to the scale)",
                ty.sql_name(),
                -scale
            ));
        }
        if let Some(p) = precision {
            let top = i64::from(*p) - scale;
            if high >= top {
                return Err(format!(
                    "`{text}` does not fit {}: ORA-01438, value larger than specified precision allowed for this column (below 1E{top})",
                    ty.sql_name()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(p: Option<u8>, s: Option<i8>) -> ColumnType {
        ColumnType::Number {
            precision: p,
            scale: s,
        }
    }

    #[test]
    fn values_oracle_can_hold_fit() {
        let n10 = number(Some(10), Some(0));
        for v in ["0", "1", "-9999999999", "1000000000"] {
            assert_eq!(check(v, &n10), Ok(()), "{v}");
        }
        let n52 = number(Some(5), Some(2));
        for v in ["999.99", "-.01", ".5", "12"] {
            assert_eq!(check(v, &n52), Ok(()), "{v}");
        }
        // Negative scale: rounded to hundreds; scale beyond precision: small fractions.
        assert_eq!(check("123400", &number(Some(4), Some(-2))), Ok(()));
        assert_eq!(check(".00123", &number(Some(3), Some(5))), Ok(()));
        let any = number(None, None);
        for v in [
            "1E125",
            "9.99E+125",
            "1E-130",
            "-1.5E-7",
            "12345678901234567890123",
        ] {
            assert_eq!(check(v, &any), Ok(()), "{v}");
        }
    }

    #[test]
    fn values_oracle_cannot_hold_are_refused() {
        let n10 = number(Some(10), Some(0));
        for v in [
            "1E999999",
            "10000000000",
            "1.5",
            "-12345678901",
            "1E99999999999999999999",
        ] {
            assert!(check(v, &n10).is_err(), "{v}");
        }
        let any = number(None, None);
        for v in ["1E126", "-1E999999", "1E-131"] {
            let e = check(v, &any).unwrap_err();
            assert!(e.contains(v) && e.contains("finite"), "{e}");
        }
        assert!(check("1000", &number(Some(5), Some(2))).is_err());
        assert!(check("123450", &number(Some(4), Some(-2))).is_err());
        assert!(check(".0123", &number(Some(3), Some(5))).is_err());
        assert!(check("1E200", &ColumnType::Float { precision: 126 }).is_err());
    }
}
