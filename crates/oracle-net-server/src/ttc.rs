//! Client requests after login: piggybacks, then one function call.
//!
//! A request is a sequence of TTC messages: any number of piggybacks (type 17: close cursors,
//! end-to-end attributes, free temporary LOBs, session state …), then one function (type 3)
//! such as execute (94), re-execute (4, 78), fetch (5), commit (14), rollback (15), LOB
//! operation (96), ping (147) or logoff (9). Bind values follow the function in the same
//! request; decoding them needs the cursor's bind metadata from an earlier execute, which the
//! [`ParseContext`] provides. A request may span packets: parsing an incomplete one says
//! `NeedMore`.

use crate::binds::{parse_meta, read_bind_row, BindMeta, BindValue};
use crate::lob::{parse_lob_op, LobOp, LobStore};
use crate::negotiate::{FIELD_VERSION_12_2, FIELD_VERSION_12_2_EXT1, FIELD_VERSION_23_1_EXT_1};
use crate::wire::{malformed, Reader, WireResult};

pub const MSG_FUNCTION: u8 = 3;
pub const MSG_PIGGYBACK: u8 = 17;

pub const FN_REEXECUTE: u8 = 4;
pub const FN_FETCH: u8 = 5;
pub const FN_LOGOFF: u8 = 9;
pub const FN_COMMIT: u8 = 14;
/// The server's version banner (JDBC's `getDatabaseProductVersion`).
pub const FN_VERSION: u8 = 59;
pub const FN_ROLLBACK: u8 = 15;
pub const FN_REEXECUTE_AND_FETCH: u8 = 78;
pub const FN_EXECUTE: u8 = 94;
pub const FN_LOB_OP: u8 = 96;
pub const FN_CLOSE_CURSORS: u8 = 105;
pub const FN_SET_END_TO_END: u8 = 135;
pub const FN_PING: u8 = 147;
pub const FN_SET_SCHEMA: u8 = 152;
pub const FN_SET_KEY_VALUE: u8 = 154;
pub const FN_SESSION_STATE: u8 = 176;
pub const FN_ALTER_SESSION: u8 = 204;

pub const OPT_PARSE: u32 = 0x01;
pub const OPT_DEFINE: u32 = 0x10;
pub const OPT_EXECUTE: u32 = 0x20;
pub const OPT_FETCH: u32 = 0x40;
pub const OPT_COMMIT: u32 = 0x100;
pub const OPT_NOT_PLSQL: u32 = 0x8000;
pub const OPT_DESCRIBE: u32 = 0x20000;
/// Re-execute option: commit afterwards (autocommit).
pub const REEXEC_OPT_COMMIT: u32 = 0x1;
/// Execute flag (al8i4[9]): return each row's count of an array DML.
pub const EXEC_FLAG_DML_ROWCOUNTS: u32 = 0x4000;

/// What the parser needs to know of the session.
pub struct ParseContext<'a> {
    pub field_version: u8,
    /// JDBC thin sends SQL text bare (its length is in the header), the thin drivers with a
    /// length byte.
    pub raw_sql: bool,
    /// JDBC thin sends SB1 values (a bind's scale) as universal integers.
    pub sb1_universal: bool,
    pub lobs: &'a LobStore,
    /// A cursor's bind metadata and whether it is PL/SQL.
    pub cursor_binds: &'a dyn Fn(u16) -> Option<(Vec<BindMeta>, bool)>,
}

#[derive(Debug)]
pub enum Piggyback {
    CloseCursors(Vec<u16>),
    FreeTempLobs(Vec<u8>),
    /// Understood and of no consequence here (end-to-end attributes, session state, …).
    Ignored(u8),
}

/// An execute (function 94).
#[derive(Debug)]
pub struct Execute {
    pub options: u32,
    pub cursor_id: u16,
    pub sql: Option<String>,
    pub prefetch_rows: u32,
    pub al8i4: Vec<u32>,
    pub defines: Vec<BindMeta>,
    pub bind_metas: Vec<BindMeta>,
    pub bind_rows: Vec<Vec<BindValue>>,
}

impl Execute {
    fn al8i4(&self, i: usize) -> u32 {
        self.al8i4.get(i).copied().unwrap_or(0)
    }

    pub fn is_query(&self) -> bool {
        self.al8i4(7) != 0
    }

    pub fn exec_count(&self) -> u32 {
        self.al8i4(1)
    }

    pub fn exec_flags(&self) -> u32 {
        self.al8i4(9)
    }

    /// Rows to send with the execute: the thin drivers put the count in the header, JDBC in
    /// the execution count.
    pub fn fetch_rows(&self) -> u32 {
        self.prefetch_rows.max(if self.is_query() {
            self.exec_count()
        } else {
            0
        })
    }
}

#[derive(Debug)]
pub enum Call {
    Execute(Execute),
    ReExecute {
        fetch: bool,
        cursor_id: u16,
        num_iters: u32,
        commit: bool,
        bind_rows: Vec<Vec<BindValue>>,
    },
    Fetch {
        cursor_id: u16,
        rows: u32,
    },
    Commit,
    Rollback,
    Logoff,
    Ping,
    Version,
    LobOp(LobOp),
    /// A function this server does not carry out (answered with an error).
    Unsupported(u8),
}

#[derive(Debug)]
pub struct Request {
    pub piggybacks: Vec<Piggyback>,
    pub call: Call,
    /// The function's sequence number, echoed in the closing status.
    pub seq: u8,
}

/// A function or piggyback header: (code, sequence number).
fn header(r: &mut Reader, ctx: &ParseContext) -> WireResult<(u8, u8)> {
    let code = r.u8()?;
    let seq = r.u8()?;
    if ctx.field_version >= FIELD_VERSION_23_1_EXT_1 {
        r.ub8()?; // token
    }
    Ok((code, seq))
}

/// An optional string announced by (pointer, length) and sent at the end; the thin drivers
/// disagree on whether an empty one is sent as a zero length byte, so one is skipped if there.
fn skip_announced(r: &mut Reader, announced: &[(bool, u32)]) -> WireResult<()> {
    for &(present, len) in announced {
        if !present {
            continue;
        }
        if len > 0 {
            r.clr()?;
        } else if !r.is_empty() && r.peek()? == 0 {
            r.u8()?;
        }
    }
    Ok(())
}

fn skip_pairs(r: &mut Reader, n: u32) -> WireResult<()> {
    for _ in 0..n {
        r.two_lengths()?;
        r.two_lengths()?;
        r.ub4()?;
    }
    Ok(())
}

fn parse_end_to_end(r: &mut Reader) -> WireResult<()> {
    r.u8()?; // pointer (cidnam)
    r.u8()?; // pointer (cidser)
    r.ub4()?; // flags
    let mut announced = Vec::new();
    for field in 0..8 {
        let present = r.u8()? != 0;
        let len = r.ub4()?;
        if field == 3 {
            r.u8()?; // cidcct
            r.ub4()?; // cidecs
        }
        // client identifier, module, action, client info and database operation carry text
        if matches!(field, 0 | 1 | 2 | 4 | 7) {
            announced.push((present, len));
        }
    }
    skip_announced(r, &announced)
}

fn parse_piggyback(r: &mut Reader, ctx: &ParseContext) -> WireResult<Piggyback> {
    let (code, _) = header(r, ctx)?;
    Ok(match code {
        FN_CLOSE_CURSORS => {
            r.u8()?; // pointer
            let n = r.ub4()?;
            let mut ids = Vec::new();
            for _ in 0..n {
                ids.push(u16::try_from(r.ub4()?).unwrap_or(0));
            }
            Piggyback::CloseCursors(ids)
        }
        FN_LOB_OP => Piggyback::FreeTempLobs(parse_lob_op(r)?.locator),
        FN_SET_END_TO_END => {
            parse_end_to_end(r)?;
            Piggyback::Ignored(code)
        }
        FN_SESSION_STATE => {
            r.ub8()?;
            Piggyback::Ignored(code)
        }
        FN_SET_SCHEMA => {
            r.u8()?;
            r.two_lengths()?;
            Piggyback::Ignored(code)
        }
        FN_SET_KEY_VALUE => {
            r.u8()?; // pointer (namespace)
            r.ub4()?; // namespace length
            r.u8()?; // pointer (pairs)
            let n = r.ub4()?;
            r.ub2()?; // flags
            r.u8()?;
            r.clr()?; // namespace
            skip_pairs(r, n)?;
            Piggyback::Ignored(code)
        }
        FN_ALTER_SESSION => {
            r.ub4()?; // flags
            r.u8()?; // pointer
            let n = r.ub4()?;
            skip_pairs(r, n)?;
            Piggyback::Ignored(code)
        }
        other => return malformed(format!("unknown piggyback {other}")),
    })
}

fn parse_execute(r: &mut Reader, ctx: &ParseContext) -> WireResult<Execute> {
    let options = r.ub4()?;
    let cursor_id = u16::try_from(r.ub4()?).or_else(|_| malformed("cursor id out of range"))?;
    let has_sql = r.u8()? != 0;
    let sql_len = r.ub4()?;
    r.u8()?; // pointer (al8i4)
    let al8i4_len = r.ub4()?;
    r.u8()?; // pointer (al8o4)
    r.u8()?; // pointer (al8o4l)
    r.ub4()?; // prefetch buffer size
    let prefetch_rows = r.ub4()?;
    r.ub4()?; // maximum LONG size
    r.u8()?; // pointer (binds)
    let num_binds = r.ub4()?;
    r.skip(5)?; // pointers: al8app, al8txn, al8txl, al8kv, al8kvl
    r.u8()?; // pointer (defines)
    let num_defines = r.ub4()?;
    r.ub4()?; // registration id (low)
    r.skip(3)?; // pointers: al8objlist, al8objlen, al8blv
    r.ub4()?; // al8blvl
    r.u8()?; // pointer (al8dnam)
    r.ub4()?; // al8dnaml
    r.ub4()?; // registration id (high)
    r.u8()?; // pointer (DML row counts)
    r.ub4()?; // DML row counts length
    r.u8()?; // pointer (DML row counts length)
    if ctx.field_version >= FIELD_VERSION_12_2 {
        r.u8()?;
        r.ub4()?; // SQL signature
        r.u8()?;
        r.ub4()?; // SQL id
        r.u8()?;
    }
    if ctx.field_version >= FIELD_VERSION_12_2_EXT1 {
        r.u8()?;
        r.ub4()?; // chunk ids
    }
    let sql = if has_sql && sql_len > 0 {
        let bytes = if ctx.raw_sql {
            r.bytes(sql_len as usize)?.to_vec()
        } else {
            r.clr_bytes()?
        };
        Some(String::from_utf8(bytes).or_else(|_| malformed("SQL is not UTF-8"))?)
    } else {
        None
    };
    if al8i4_len > 64 || num_binds > 65535 || num_defines > 65535 {
        return malformed("execute counts out of range");
    }
    let mut al8i4 = Vec::with_capacity(al8i4_len as usize);
    for _ in 0..al8i4_len {
        al8i4.push(r.ub4()?);
    }
    let mut exec = Execute {
        options,
        cursor_id,
        sql,
        prefetch_rows,
        al8i4,
        defines: Vec::new(),
        bind_metas: Vec::new(),
        bind_rows: Vec::new(),
    };
    if options & OPT_DEFINE != 0 {
        for _ in 0..num_defines {
            exec.defines
                .push(parse_meta(r, ctx.field_version, ctx.sb1_universal)?);
        }
        return Ok(exec);
    }
    for _ in 0..num_binds {
        exec.bind_metas
            .push(parse_meta(r, ctx.field_version, ctx.sb1_universal)?);
    }
    if num_binds > 0 {
        let plsql = options & OPT_NOT_PLSQL == 0;
        let rows = if exec.is_query() {
            1
        } else {
            exec.exec_count().max(1)
        };
        for _ in 0..rows {
            exec.bind_rows
                .push(read_bind_row(r, &exec.bind_metas, plsql, ctx.lobs)?);
        }
    }
    Ok(exec)
}

fn parse_reexecute(r: &mut Reader, ctx: &ParseContext, fetch: bool) -> WireResult<Call> {
    let cursor_id = u16::try_from(r.ub4()?).or_else(|_| malformed("cursor id out of range"))?;
    let num_iters = r.ub4()?;
    r.ub4()?; // options
    let commit = r.ub4()? & REEXEC_OPT_COMMIT != 0;
    let mut bind_rows = Vec::new();
    if let Some((metas, plsql)) = (ctx.cursor_binds)(cursor_id) {
        if !metas.is_empty() {
            let rows = if fetch { 1 } else { num_iters.max(1) };
            for _ in 0..rows {
                bind_rows.push(read_bind_row(r, &metas, plsql, ctx.lobs)?);
            }
        }
    }
    Ok(Call::ReExecute {
        fetch,
        cursor_id,
        num_iters,
        commit,
        bind_rows,
    })
}

fn parse_call(r: &mut Reader, ctx: &ParseContext, code: u8) -> WireResult<Call> {
    Ok(match code {
        FN_EXECUTE => Call::Execute(parse_execute(r, ctx)?),
        FN_REEXECUTE => parse_reexecute(r, ctx, false)?,
        FN_REEXECUTE_AND_FETCH => parse_reexecute(r, ctx, true)?,
        FN_FETCH => Call::Fetch {
            cursor_id: u16::try_from(r.ub4()?).or_else(|_| malformed("cursor id out of range"))?,
            rows: r.ub4()?,
        },
        FN_COMMIT => Call::Commit,
        FN_ROLLBACK => Call::Rollback,
        FN_LOGOFF => Call::Logoff,
        FN_PING => Call::Ping,
        FN_VERSION => {
            r.u8()?; // pointer (banner buffer)
            r.sb4()?; // banner buffer length
            r.u8()?; // pointer (banner length)
            r.u8()?; // pointer (version number)
            if ctx.field_version >= 11 {
                r.ub4()?;
            }
            Call::Version
        }
        FN_LOB_OP => Call::LobOp(parse_lob_op(r)?),
        other => Call::Unsupported(other),
    })
}

/// Parses a whole request.
pub fn parse_request(payload: &[u8], ctx: &ParseContext) -> WireResult<Request> {
    let mut r = Reader::new(payload);
    let mut piggybacks = Vec::new();
    loop {
        match r.u8()? {
            MSG_PIGGYBACK => piggybacks.push(parse_piggyback(&mut r, ctx)?),
            MSG_FUNCTION => {
                let (code, seq) = header(&mut r, ctx)?;
                let call = parse_call(&mut r, ctx, code)?;
                return Ok(Request {
                    piggybacks,
                    call,
                    seq,
                });
            }
            other => return malformed(format!("unexpected message type {other}")),
        }
    }
}
