//! The decoder's rows of values written apart from their statement's DML: LOB locators and
//! writes, XML documents and VARCHAR2 values over 4,000 bytes, merged into the change they
//! belong to.

use super::*;

impl Decoder {
    /// A LOB, XML or extended-string row of table `t`.
    pub(super) fn piece(
        &mut self,
        kind: PieceKind,
        row: LogMinerRow,
        t: &TableSchema,
        catalog: &Catalog,
    ) {
        let cols = t.columns_at(row.scn);
        let parse_err = |row: &LogMinerRow, xid: &str, e: crate::stream::parse::ParseError| {
            redo_error(row, t, xid, e.to_string())
        };
        let begin = match kind {
            PieceKind::LobLocator
            | PieceKind::LobWrite
            | PieceKind::LobTrim
            | PieceKind::LobErase => {
                let lob = match parse_lob_row(&row.sql_redo) {
                    Ok(l) => l,
                    Err(e) => {
                        self.fail_open(parse_err(&row, &self.xid.clone(), e), catalog);
                        return;
                    }
                };
                if let Some(locator) = lob.locator {
                    self.begin(&row, t, catalog, locator, |c, ty, base| {
                        Build::lob(c, ty, base)
                    });
                }
                if let Some(p) = lob.piece {
                    match self.open.as_mut().and_then(|o| o.build.as_mut()) {
                        Some(b) => b.lob_piece(&p),
                        None => {
                            self.orphan(&row, t, catalog, "a LOB row without its SEL_LOB_LOCATOR")
                        }
                    }
                }
                return;
            }
            PieceKind::XmlBegin => parse_xml_begin(&row.sql_redo).map(|l| (l, true)),
            PieceKind::ExtendedBegin => parse_extended_begin(&row.sql_redo).map(|l| (l, false)),
            PieceKind::XmlWrite => {
                match parse_xml_write(&row.sql_redo) {
                    Ok(p) => match self.open.as_mut().and_then(|o| o.build.as_mut()) {
                        Some(b) => b.xml_piece(p),
                        None => self.orphan(
                            &row,
                            t,
                            catalog,
                            "an XML DOC WRITE without its XML DOC BEGIN",
                        ),
                    },
                    Err(e) => self.fail_open(parse_err(&row, &self.xid.clone(), e), catalog),
                }
                return;
            }
            PieceKind::ExtendedWrite => {
                match parse_extended_write(&row.sql_redo) {
                    Ok(lit) => match self.open.as_mut().and_then(|o| o.build.as_mut()) {
                        Some(b) => b.extended_piece(lit),
                        None => self.orphan(&row, t, catalog, "a 32K_WRITE without its 32K_BEGIN"),
                    },
                    Err(e) => self.fail_open(parse_err(&row, &self.xid.clone(), e), catalog),
                }
                return;
            }
            PieceKind::XmlEnd | PieceKind::ExtendedEnd => {
                self.finish_build(catalog);
                return;
            }
        };
        match begin {
            Ok((locator, true)) => {
                let set = catalog.charsets.database;
                self.begin(&row, t, catalog, locator, |c, ty, _| Build::xml(c, ty, set))
            }
            Ok((locator, false)) => {
                self.begin(&row, t, catalog, locator, |c, ty, _| Build::extended(c, ty))
            }
            Err(e) => self.fail_open(parse_err(&row, &self.xid.clone(), e), catalog),
        }
        let _ = cols;
    }

    /// A value's rows begin: they belong to the open statement when it is this table's and
    /// the row's key matches; else to a change of their own (an UPDATE made through a locator,
    /// with no DML row), its before image the locator's key.
    pub(super) fn begin(
        &mut self,
        row: &LogMinerRow,
        t: &TableSchema,
        catalog: &Catalog,
        locator: crate::stream::parse::Locator,
        make: impl Fn(&str, &ColumnType, Option<&Value>) -> Build,
    ) {
        self.finish_build(catalog);
        let cols = t.columns_at(row.scn);
        let Some(col) = cols.iter().find(|c| c.name == locator.column) else {
            let message = format!(
                "column {} is not in the table's columns at this SCN",
                locator.column
            );
            self.fail_open(redo_error(row, t, &self.xid, message), catalog);
            return;
        };
        let ty = col.data_type.clone();
        let key: Vec<(String, Value)> = locator
            .key
            .iter()
            .filter_map(|(n, lit)| {
                let c = cols.iter().find(|c| &c.name == n)?;
                Some((
                    n.clone(),
                    to_value_in(lit, &c.data_type, self.charsets).ok()?,
                ))
            })
            .collect();
        let rid = row.row_id.clone();
        let same = self.open.as_ref().is_some_and(|o| o.table == t.name)
            && match self.pending.back() {
                Some(Ok(Event::Change(c))) => {
                    let image = c.after.as_ref().or(c.before.as_ref());
                    (rid != LOB_ROWID && c.row_id == rid)
                        || (!self.open.as_ref().is_some_and(|o| o.closed)
                            && key.iter().all(|(n, v)| {
                                image.is_none_or(|img| img.iter().all(|(m, w)| m != n || w == v))
                            }))
                }
                // The statement failed already: its later rows go with it.
                Some(Err(_)) => !self.open.as_ref().is_some_and(|o| o.closed),
                _ => false,
            };
        if !same {
            self.release(catalog);
            let change = self.locator_change(row, t, locator.key);
            let failed = change.is_err();
            self.pending.push_back(change.map(Event::Change));
            self.open = Some(Open {
                table: t.name.clone(),
                closed: rid != LOB_ROWID,
                build: None,
            });
            if failed {
                return;
            }
        }
        let base = match self.pending.back() {
            Some(Ok(Event::Change(c))) => {
                let current = c.after.as_ref().and_then(|a| {
                    a.iter()
                        .find(|(n, _)| *n == col.name)
                        .map(|(_, v)| v.clone())
                });
                match (c.op, current) {
                    (ChangeOp::Create, None) => Some(Value::Null),
                    (_, Some(v)) if v != unavailable(&ty) => Some(v),
                    _ => None,
                }
            }
            _ => return,
        };
        let build = make(&col.name, &ty, base.as_ref());
        if let Some(o) = self.open.as_mut() {
            o.build = Some(build);
        }
    }

    /// The change a locator's rows make when no DML row came before them: an UPDATE whose
    /// before image is the locator's WHERE (the logged columns) and the LOB-like columns'
    /// placeholders.
    pub(super) fn locator_change(
        &self,
        row: &LogMinerRow,
        t: &TableSchema,
        key: Vec<(String, Literal)>,
    ) -> Result<Change> {
        let cols = t.columns_at(row.scn);
        let mut seen = vec![false; cols.len()];
        let mut before = typed(t, cols, key, row, &self.xid, &mut seen, self.charsets)?;
        complete_before(t, cols, &seen, row, &self.xid, &mut before)?;
        Ok(Change {
            table: t.name.clone(),
            op: ChangeOp::Update,
            after: Some(before.clone()),
            before: Some(before),
            scn: row.scn,
            rs_id: row.rs_id.clone(),
            ssn: row.ssn,
            row_id: row.row_id.clone(),
            user: row.username.clone(),
            timestamp: row.timestamp.clone(),
        })
    }

    /// A row of a value without its first row (the transaction was seen from its middle, or
    /// the export lacks it): the value cannot be rebuilt.
    pub(super) fn orphan(
        &mut self,
        row: &LogMinerRow,
        t: &TableSchema,
        catalog: &Catalog,
        what: &str,
    ) {
        if matches!(self.pending.back(), Some(Err(_))) && self.open.is_some() {
            return;
        }
        self.release(catalog);
        self.pending.push_back(Err(CdcError::ValueNotInRedo {
            scn: row.scn,
            xid: self.xid.clone(),
            table: t.name.to_string(),
            column: "?".into(),
            message: format!("{what} (operation {})", row.operation),
        }));
    }
}
