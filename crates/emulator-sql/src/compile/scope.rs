//! Name resolution: which source of a query block (and which slot of its rows) a column
//! reference means, ROWID and ROWNUM, and references to an enclosing query's columns, which
//! become the parameters of a correlated subquery.

use crate::ast::Ident;
use crate::ex::Ex;
use crate::{Column, ObjectName, OraError, OraType};
use std::cell::RefCell;

/// One FROM item as the block's expressions see it.
#[derive(Debug, Clone)]
pub struct SourceInfo {
    pub alias: Option<String>,
    /// The table's name (None for an inline view).
    pub table: Option<ObjectName>,
    pub columns: Vec<Column>,
    /// Its first slot in the block's rows.
    pub offset: usize,
    /// The slot of its ROWID (tables only).
    pub rowid: Option<usize>,
    /// How that ROWID is described (ROWID, or UROWID for logical ROWIDs).
    pub rowid_type: OraType,
}

impl SourceInfo {
    pub fn width(&self) -> usize {
        self.columns.len() + usize::from(self.rowid.is_some())
    }

    /// Whether `q` names this source: its alias, or its table name when it has none.
    pub fn named(&self, q: &Ident) -> bool {
        match (&self.alias, &self.table) {
            (Some(a), _) => *a == q.name,
            (None, Some(t)) => t.name == q.name,
            _ => false,
        }
    }

    pub fn named_full(&self, schema: &Ident, name: &Ident) -> bool {
        self.alias.is_none()
            && self
                .table
                .as_ref()
                .is_some_and(|t| t.name == name.name && t.schema.as_deref() == Some(&schema.name))
    }
}

/// The sources of one query block, and its enclosing block's scope.
pub struct Scope<'p> {
    pub sources: Vec<SourceInfo>,
    pub rownum: Option<usize>,
    pub parent: Option<&'p Scope<'p>>,
    /// References to enclosing blocks, as expressions in the parent's slots, with their types.
    pub params: RefCell<Vec<(Ex, OraType)>>,
}

pub fn ambiguous(pos: usize) -> OraError {
    OraError::new(918, "column ambiguously defined").at(pos)
}

pub fn invalid_identifier(parts: &[Ident]) -> OraError {
    let text: Vec<String> = parts.iter().map(|p| format!("\"{}\"", p.name)).collect();
    let pos = parts.first().map_or(0, |p| p.pos);
    OraError::new(904, format!("{}: invalid identifier", text.join("."))).at(pos)
}

impl<'p> Scope<'p> {
    pub fn empty() -> Scope<'static> {
        Scope {
            sources: Vec::new(),
            rownum: None,
            parent: None,
            params: RefCell::new(Vec::new()),
        }
    }

    /// A column of this block: its slot and type; Err for an ambiguous or missing column of a
    /// named source.
    fn local(&self, parts: &[Ident]) -> Result<Option<(usize, OraType)>, OraError> {
        let col = |s: &SourceInfo, name: &Ident| -> Option<(usize, OraType)> {
            if !name.quoted && name.name == "ROWID" {
                return s.rowid.map(|slot| (slot, s.rowid_type.clone()));
            }
            s.columns
                .iter()
                .position(|c| c.name == name.name)
                .map(|i| (s.offset + i, s.columns[i].ora_type.clone()))
        };
        match parts {
            [name] => {
                let mut found = None;
                for s in &self.sources {
                    if let Some(hit) = col(s, name) {
                        if found.is_some() {
                            return Err(ambiguous(name.pos));
                        }
                        found = Some(hit);
                    }
                }
                Ok(found)
            }
            [q, name] => {
                let named: Vec<&SourceInfo> = self.sources.iter().filter(|s| s.named(q)).collect();
                match named.as_slice() {
                    [] => Ok(None),
                    [s] => col(s, name)
                        .map(Some)
                        .ok_or_else(|| invalid_identifier(parts)),
                    _ => Err(ambiguous(q.pos)),
                }
            }
            [schema, t, name] => match self.sources.iter().find(|s| s.named_full(schema, t)) {
                None => Ok(None),
                Some(s) => col(s, name)
                    .map(Some)
                    .ok_or_else(|| invalid_identifier(parts)),
            },
            _ => Ok(None),
        }
    }

    /// Resolve a column reference here or in an enclosing block (a correlated reference).
    pub fn resolve(&self, parts: &[Ident]) -> Result<Option<(Ex, OraType)>, OraError> {
        if let [name] = parts {
            if !name.quoted && name.name == "ROWID" {
                return self.rowid(name.pos).map(|(s, t)| Some((Ex::Col(s), t)));
            }
            if !name.quoted && name.name == "ROWNUM" {
                return Ok(self.rownum.map(|s| (Ex::Col(s), OraType::NUMBER)));
            }
        }
        if let Some((slot, ty)) = self.local(parts)? {
            return Ok(Some((Ex::Col(slot), ty)));
        }
        let Some(parent) = self.parent else {
            return Ok(None);
        };
        let Some((ex, ty)) = parent.resolve(parts)? else {
            return Ok(None);
        };
        let key = format!("{ex:?}");
        let mut params = self.params.borrow_mut();
        if let Some(i) = params.iter().position(|(e, _)| format!("{e:?}") == key) {
            return Ok(Some((Ex::Param(i), ty)));
        }
        params.push((ex, ty.clone()));
        Ok(Some((Ex::Param(params.len() - 1), ty)))
    }

    /// Unqualified ROWID: the block's one table's.
    fn rowid(&self, pos: usize) -> Result<(usize, OraType), OraError> {
        let tables: Vec<(usize, &OraType)> = self
            .sources
            .iter()
            .filter_map(|s| s.rowid.map(|r| (r, &s.rowid_type)))
            .collect();
        match tables.as_slice() {
            [(slot, ty)] => Ok((*slot, (*ty).clone())),
            [] => Err(OraError::new(
                1445,
                "cannot select ROWID from, or sample, a join view without a key-preserved table",
            )
            .at(pos)),
            _ => Err(ambiguous(pos)),
        }
    }

    /// The source index a slot belongs to.
    pub fn source_of(&self, slot: usize) -> Option<usize> {
        self.sources
            .iter()
            .position(|s| slot >= s.offset && slot < s.offset + s.width())
    }

    /// The static type of a slot.
    pub fn slot_type(&self, slot: usize) -> Option<OraType> {
        let s = &self.sources[self.source_of(slot)?];
        if Some(slot) == s.rowid {
            return Some(s.rowid_type.clone());
        }
        s.columns.get(slot - s.offset).map(|c| c.ora_type.clone())
    }

    pub fn slot_column(&self, slot: usize) -> Option<&Column> {
        let s = &self.sources[self.source_of(slot)?];
        s.columns.get(slot - s.offset)
    }
}
