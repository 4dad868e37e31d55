//! Grouping: once a block's select list, HAVING and ORDER BY are compiled over its source
//! rows, a grouping block rewrites them over its group rows (GROUP BY expressions, then
//! aggregates), and ORA-00937 / ORA-00979 name a column outside both.

use super::same;
use crate::ex::{map_children, Ex};
use crate::OraError;

/// Rewrites an expression of the source rows into one of the group rows: GROUP BY
/// expressions and aggregates become their slots; any other column is an error.
pub(super) fn to_group(
    e: Ex,
    keys: &[Ex],
    nkeys: usize,
    code: u32,
    pos: usize,
) -> Result<Ex, OraError> {
    if let Some(i) = keys.iter().position(|k| same(k, &e)) {
        return Ok(Ex::Col(i));
    }
    match e {
        Ex::Agg(j) => Ok(Ex::Col(nkeys + j)),
        Ex::Col(_) => Err(OraError::new(
            code,
            if code == 937 {
                "not a single-group group function"
            } else {
                "not a GROUP BY expression"
            },
        )
        .at(pos)),
        other => map_children(other, &mut |c| to_group(c, keys, nkeys, code, pos)),
    }
}
