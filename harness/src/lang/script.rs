//! The line-oriented script format: parse and print sequences of [`Op`]s.
//!
//! ## Grammar
//!
//! A script is bytes (UTF-8 is not required); lines end with `\n` (a final line may lack it).
//! Tokens are separated by spaces or tabs.
//!
//! ```text
//! script    = { line }
//! line      = ws [ statement ws ] [ "#" any-bytes ]        (a comment runs to end of line)
//! statement = limits | "repeat" NUMBER op | op
//! limits    = "limits" { KEY "=" NUMBER }                  (only before the first statement)
//! KEY       = "max_entries" | "max_content" | "max_table_rows" | "max_readdir"
//!           | "max_namespaces"
//! op        = "mkdir" STR        | "create" STR STR   | "symlink" STR STR | "listing" STR
//!           | "register" STR "[" [ row { "," row } ] "]" | "unregister" NUMBER
//!           | "stat" STR         | "lookup_at" NUMBER STR | "readdir" NUMBER NUMBER NUMBER
//!           | "remove" STR       | "remove_subtree" STR | "mark_permanent" STR
//!           | "open" SLOT STR    | "read" SLOT        | "close" SLOT      | "stats"
//!           | "opendir" SLOT STR | "readpage" SLOT NUMBER | "seek" SLOT NUMBER | "rewind" SLOT
//!           | "check"            | "dump"             | "bulk" STR STR COUNT
//!           | "read_at" SLOT NUMBER NUMBER | "write" SLOT STR | "generated" STR STR
//!           | "source_add" STR STR | "source_remove" STR STR
//!           | "chmod" STR MODE   | "chown" STR ID ID
//!           | "register_ns" NUMBER STR "[" … "]" | "ns_create" ID ID | "ns_destroy" NUMBER
//!           | "@" NUMBER op                     (a view, for stat, lookup_at, readdir, open,
//!                                                opendir, readpage, chmod, chown)
//! row       = ( "f" STR STR | "d" STR | "s" STR STR ) [ MODE ]
//!                                          (file name+content, dir name, name+source)
//! MODE      = "0" octal digits, fitting u32 (0644, 0000, 01000)
//! ID        = NUMBER fitting u32
//! NUMBER    = decimal digits, fitting u64 (usize for page sizes)
//! SLOT      = NUMBER in 0..=15
//! COUNT     = NUMBER in 0..=100000
//! STR       = '"' { raw | escape } '"'
//! raw       = any byte >= 0x20 except 0x7f, '"' and '\'
//! escape    = '\\' | '\"' | '\n' | '\t' | '\0' | '\x' HEX HEX
//! ```
//!
//! Keywords are lowercase. The `limits` directive sets the [`Limits`] the tree is built with;
//! keys not given keep their default, each key at most once, at most one `limits` line.
//!
//! ## Repeat
//!
//! `repeat N op` runs `op` N times (N at most [`MAX_REPEAT`]) for index `i = 0..N`, with
//! every byte string of `op` expanded by [`expand_template`](crate::lang::op::expand_template):
//! `{i}` becomes the decimal index, `{{` becomes `{`, anything else stays. So
//! `repeat 5000 create "/net/dev_snmp6/eth{i}" ""` creates `eth0` .. `eth4999`, and a literal
//! `{i}` in a repeated op is written `{{i}`. A `repeat` cannot contain a `repeat`.
//!
//! ## Canonical printing
//!
//! [`print_script`] writes one statement per line, single spaces, keywords as above, numbers
//! in plain decimal, strings with [`quote`]: printable ASCII (`0x20..=0x7e`) raw except `"`
//! and `\`; `\\`, `\"`, `\n`, `\t`, `\0`; every other byte `\xHH` (lowercase). Comments and
//! blank lines are not kept. For every [`Script`] `s`, `parse_script(print_script(&s)) == s`.
//!
//! ```
//! use pdtree_harness::lang::script::{parse_script, print_script};
//! let text = b"limits max_entries=16\n# a comment\nmkdir \"/a\"  # trailing\nrepeat 3 create \"/a/f{i}\" \"\\x00\"\nregister \"net/ipv4/conf/eth0\" [f \"forwarding\" \"0\", d \"neigh\"]\n";
//! let s = parse_script(text).unwrap();
//! assert_eq!(s.stmts.len(), 3);
//! assert_eq!(s.limits.unwrap().max_entries, 16);
//! let printed = print_script(&s);
//! assert!(printed.contains("repeat 3 create \"/a/f{i}\" \"\\0\""));
//! assert_eq!(parse_script(printed.as_bytes()).unwrap(), s);
//! ```

use std::fmt;

use pdtree::{Id, Limits, Mode, Row, RowKind};

use crate::lang::op::{FieldMut, Op, OpKind, Slot, MAX_COUNT, MAX_SLOT};

/// The largest repeat count accepted (a larger one is a parse error, so fuzzed scripts stay
/// bounded).
pub const MAX_REPEAT: u64 = 1_000_000;

/// One statement of a script: an op, or an op repeated with an index template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// Run the op once.
    Op(Op),
    /// `repeat COUNT OP`: run `op.expand(i)` for `i` in `0..count`.
    Repeat {
        /// How many iterations (at most [`MAX_REPEAT`]).
        count: u64,
        /// The template op; its byte strings are expanded per iteration.
        op: Op,
    },
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stmt::Op(op) => op.fmt(f),
            Stmt::Repeat { count, op } => write!(f, "repeat {count} {op}"),
        }
    }
}

/// A parsed script: optional limits and the statements in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Script {
    /// The `limits` directive, if the script had one (otherwise the defaults apply).
    pub limits: Option<Limits>,
    /// The statements in order.
    pub stmts: Vec<Stmt>,
}

/// A syntax error, located by 1-based line and 1-based byte column.
///
/// ```
/// use pdtree_harness::lang::script::parse_script;
/// let e = parse_script(b"mkdir\n").unwrap_err();
/// assert_eq!(e.to_string(), "line 1, column 6: expected a string, found end of line");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based byte column within the line.
    pub column: usize,
    /// What went wrong, usually `expected X, found Y`.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Quotes a byte string in the script syntax (canonical escapes, see the module docs).
///
/// ```
/// use pdtree_harness::lang::script::quote;
/// assert_eq!(quote(b"a\"b\\c\n\t\0\x7f\xff "), r#""a\"b\\c\n\t\0\x7f\xff ""#);
/// ```
pub fn quote(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0 => s.push_str("\\0"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                s.push_str("\\x");
                s.push(hex_digit(b >> 4));
                s.push(hex_digit(b & 15));
            }
        }
    }
    s.push('"');
    s
}

fn hex_digit(n: u8) -> char {
    char::from_digit(u32::from(n), 16).unwrap_or('?')
}

/// Prints a script canonically (see the module docs); every line ends with `\n`.
pub fn print_script(script: &Script) -> String {
    let mut out = String::new();
    if let Some(l) = &script.limits {
        out.push_str(&print_limits(l));
        out.push('\n');
    }
    for st in &script.stmts {
        out.push_str(&st.to_string());
        out.push('\n');
    }
    out
}

/// The canonical `limits` directive line (every key, no newline).
///
/// ```
/// let l = pdtree::Limits { max_entries: 16, max_content: 8, max_table_rows: 3, max_readdir: 4, max_namespaces: 2 };
/// assert_eq!(pdtree_harness::lang::script::print_limits(&l),
///            "limits max_entries=16 max_content=8 max_table_rows=3 max_readdir=4 max_namespaces=2");
/// ```
pub fn print_limits(l: &Limits) -> String {
    format!(
        "limits max_entries={} max_content={} max_table_rows={} max_readdir={} max_namespaces={}",
        l.max_entries, l.max_content, l.max_table_rows, l.max_readdir, l.max_namespaces
    )
}

/// Parses a whole script. Never panics, whatever the bytes.
pub fn parse_script(input: &[u8]) -> Result<Script, ParseError> {
    let mut script = Script::default();
    for (n, line) in lines(input) {
        match parse_line(line, n)? {
            None => {}
            Some(Line::Limits(l)) => {
                if script.limits.is_some() || !script.stmts.is_empty() {
                    return Err(err_at(
                        n,
                        1,
                        "`limits` must be the first statement and appear once",
                    ));
                }
                script.limits = Some(l);
            }
            Some(Line::Stmt(s)) => script.stmts.push(s),
        }
    }
    Ok(script)
}

/// Parses one op (no `repeat`, no `limits`), with optional surrounding blanks and a trailing
/// comment. Errors are reported on line 1.
///
/// ```
/// use pdtree_harness::{lang::script::parse_op, Op};
/// assert_eq!(parse_op(b"  readpage 3 10 # next").unwrap(), Op::ReadPage { view: 0, slot: 3, max: 10 });
/// assert_eq!(parse_op(b"@1 readpage 3 10").unwrap(), Op::ReadPage { view: 1, slot: 3, max: 10 });
/// ```
pub fn parse_op(line: &[u8]) -> Result<Op, ParseError> {
    let mut c = Cursor::new(line, 1);
    c.skip_ws();
    let op = c.op()?;
    c.end()?;
    Ok(op)
}

/// Splits input into `(1-based line number, line bytes without '\n')`.
pub(crate) fn lines(input: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        parts.pop();
    }
    parts.into_iter().enumerate().map(|(i, l)| (i + 1, l))
}

/// What one script line holds.
pub(crate) enum Line {
    /// A `limits` directive.
    Limits(Limits),
    /// A statement.
    Stmt(Stmt),
}

/// Parses one script line: `None` for a blank or comment-only line.
pub(crate) fn parse_line(line: &[u8], n: usize) -> Result<Option<Line>, ParseError> {
    let mut c = Cursor::new(line, n);
    c.skip_ws();
    if c.at_end() {
        return Ok(None);
    }
    let start = c.pos;
    let word = c.word();
    let item = match word {
        b"limits" => Line::Limits(c.limits()?),
        b"repeat" => {
            c.ws1()?;
            let count_at = c.pos;
            let count = c.number("a repeat count")?;
            if count > MAX_REPEAT {
                return Err(c.err_col(
                    count_at,
                    format!("repeat count {count} is over the limit {MAX_REPEAT}"),
                ));
            }
            c.ws1()?;
            let op = c.op()?;
            Line::Stmt(Stmt::Repeat { count, op })
        }
        _ => {
            c.pos = start;
            Line::Stmt(Stmt::Op(c.op()?))
        }
    };
    c.end()?;
    Ok(Some(item))
}

fn err_at(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        column,
        message: message.into(),
    }
}

/// A position in one line.
struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
    line: usize,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Cursor<'a> {
    fn new(s: &'a [u8], line: usize) -> Self {
        Cursor { s, pos: 0, line }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// At end of line or at a comment, after blanks.
    fn at_end(&mut self) -> bool {
        matches!(self.peek(), None | Some(b'#'))
    }

    /// Describes what is at `pos`, for "found ..." messages.
    fn found(&self) -> String {
        match self.peek() {
            None => "end of line".into(),
            Some(b'#') => "a comment".into(),
            Some(b'"') => "a string".into(),
            Some(b' ' | b'\t') => "a blank".into(),
            Some(b) if is_word_byte(b) => {
                let end = self.s[self.pos..]
                    .iter()
                    .position(|&b| !is_word_byte(b))
                    .map_or(self.s.len(), |e| self.pos + e);
                let w = &self.s[self.pos..end];
                let shown = if w.len() > 40 { &w[..40] } else { w };
                format!("`{}`", String::from_utf8_lossy(shown))
            }
            Some(b) if (0x21..=0x7e).contains(&b) => format!("`{}`", b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        }
    }

    fn err_col(&self, pos: usize, message: impl Into<String>) -> ParseError {
        err_at(self.line, pos + 1, message)
    }

    fn expected(&self, what: &str) -> ParseError {
        self.err_col(self.pos, format!("expected {what}, found {}", self.found()))
    }

    /// Blanks, then end of line or a comment.
    fn end(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("end of line"))
        }
    }

    /// At least one blank, or the end of line (so the next parser reports what is missing).
    fn ws1(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            Some(b' ' | b'\t') => {
                self.skip_ws();
                Ok(())
            }
            None => Ok(()),
            _ => Err(self.expected("a blank")),
        }
    }

    fn word(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }

    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos || self.peek().is_some_and(is_word_byte) {
            self.pos = start;
            return Err(self.expected(what));
        }
        let mut n: u64 = 0;
        for &d in &self.s[start..self.pos] {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(d - b'0')))
                .ok_or_else(|| self.err_col(start, format!("{what} does not fit in 64 bits")))?;
        }
        Ok(n)
    }

    fn usize_number(&mut self, what: &str) -> Result<usize, ParseError> {
        let start = self.pos;
        let n = self.number(what)?;
        usize::try_from(n).map_err(|_| self.err_col(start, format!("{what} is too large")))
    }

    fn count_field(&mut self) -> Result<usize, ParseError> {
        let start = self.pos;
        let n = self.usize_number("a count")?;
        if n > MAX_COUNT {
            return Err(self.err_col(start, format!("count {n} is over the limit {MAX_COUNT}")));
        }
        Ok(n)
    }

    /// Octal digits with a leading `0` (`0644`), fitting 32 bits.
    fn mode(&mut self) -> Result<Mode, ParseError> {
        let start = self.pos;
        let digits = self.word();
        let octal = digits.len() > 1
            && digits[0] == b'0'
            && digits.iter().all(|b| (b'0'..=b'7').contains(b));
        if !octal {
            self.pos = start;
            return Err(self.expected("a mode (octal with a leading 0, as 0644)"));
        }
        let text = std::str::from_utf8(digits).expect("octal digits are ASCII");
        Mode::from_str_radix(text, 8)
            .map_err(|_| self.err_col(start, "the mode does not fit in 32 bits".to_string()))
    }

    /// A user or group id: a decimal number fitting 32 bits.
    fn id(&mut self) -> Result<Id, ParseError> {
        let start = self.pos;
        let n = self.number("an id")?;
        Id::try_from(n).map_err(|_| self.err_col(start, format!("id {n} does not fit in 32 bits")))
    }

    /// A row's optional mode: after a blank, a token starting with `0`.
    fn row_mode(&mut self) -> Result<Option<Mode>, ParseError> {
        let at = self.pos;
        self.skip_ws();
        if self.peek() == Some(b'0') {
            return self.mode().map(Some);
        }
        self.pos = at;
        Ok(None)
    }

    fn slot(&mut self) -> Result<Slot, ParseError> {
        let start = self.pos;
        let n = self.number("a slot number")?;
        if n > u64::from(MAX_SLOT) {
            return Err(self.err_col(start, format!("slot {n} is out of range 0..={MAX_SLOT}")));
        }
        Ok(n as Slot)
    }

    fn string(&mut self) -> Result<Vec<u8>, ParseError> {
        if self.peek() != Some(b'"') {
            return Err(self.expected("a string"));
        }
        let open = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => {
                    let msg = format!(
                        "expected `\"` closing the string opened at column {}, found end of line",
                        open + 1
                    );
                    return Err(self.err_col(self.pos, msg));
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(b) if b < 0x20 || b == 0x7f => {
                    let msg = format!(
                        "expected a printable byte or an escape in a string, found byte 0x{b:02x}"
                    );
                    return Err(self.err_col(self.pos, msg));
                }
                Some(b) => {
                    self.pos += 1;
                    out.push(b);
                }
            }
        }
    }

    /// One escape, at its `\`: the byte it stands for.
    fn escape(&mut self) -> Result<u8, ParseError> {
        let esc = self.pos;
        self.pos += 1;
        let b = match self.peek() {
            Some(b'\\') => b'\\',
            Some(b'"') => b'"',
            Some(b'n') => b'\n',
            Some(b't') => b'\t',
            Some(b'0') => 0,
            Some(b'x') => {
                let hex = |b: Option<u8>| b.and_then(|b| (b as char).to_digit(16));
                let digits = (
                    hex(self.s.get(self.pos + 1).copied()),
                    hex(self.s.get(self.pos + 2).copied()),
                );
                let (Some(h), Some(l)) = digits else {
                    return Err(self.err_col(esc, "expected two hex digits after `\\x`"));
                };
                self.pos += 2;
                (h * 16 + l) as u8
            }
            _ => {
                let msg = format!(
                    "expected an escape (\\\\ \\\" \\n \\t \\0 \\xHH), found `\\` then {}",
                    self.found()
                );
                return Err(self.err_col(esc, msg));
            }
        };
        self.pos += 1;
        Ok(b)
    }

    fn limits(&mut self) -> Result<Limits, ParseError> {
        let mut l = Limits::default();
        let mut seen = [false; 5];
        loop {
            self.skip_ws();
            if self.at_end() {
                return Ok(l);
            }
            let at = self.pos;
            let key = self.word();
            let idx = match key {
                b"max_entries" => 0,
                b"max_content" => 1,
                b"max_table_rows" => 2,
                b"max_readdir" => 3,
                b"max_namespaces" => 4,
                _ => {
                    self.pos = at;
                    return Err(self.expected(
                        "a limit (max_entries, max_content, max_table_rows, max_readdir, max_namespaces)",
                    ));
                }
            };
            if seen[idx] {
                return Err(self.err_col(at, "this limit is given twice"));
            }
            seen[idx] = true;
            if self.peek() != Some(b'=') {
                return Err(self.expected("`=`"));
            }
            self.pos += 1;
            match idx {
                0 => l.max_entries = self.number("a number")?,
                1 => l.max_content = self.usize_number("a number")?,
                2 => l.max_table_rows = self.usize_number("a number")?,
                3 => l.max_readdir = self.usize_number("a number")?,
                _ => l.max_namespaces = self.number("a number")?,
            }
            if !matches!(self.peek(), None | Some(b' ' | b'\t' | b'#')) {
                return Err(self.expected("a blank"));
            }
        }
    }

    /// Blank, then a string.
    fn arg_string(&mut self) -> Result<Vec<u8>, ParseError> {
        self.ws1()?;
        self.string()
    }

    /// A keyword, then each of its fields after a blank, parsed by role.
    /// `[@V ]KEYWORD FIELDS`: an optional view prefix (SPEC §10), the keyword, its fields.
    fn op(&mut self) -> Result<Op, ParseError> {
        let view = self.view_prefix()?;
        let start = self.pos;
        let Some(kind) = OpKind::from_keyword(self.word()) else {
            self.pos = start;
            return Err(self.expected("an operation"));
        };
        let mut op = kind.blank();
        let mut took_view = false;
        for field in op.fields_mut() {
            if let FieldMut::View(v) = field {
                *v = view.unwrap_or(0);
                took_view = true;
                continue;
            }
            self.ws1()?;
            self.field(field)?;
        }
        if view.is_some() && !took_view {
            return Err(self.err_col(start, format!("`{}` takes no view", kind.keyword())));
        }
        Ok(op)
    }

    /// `@V` and a blank, or nothing.
    fn view_prefix(&mut self) -> Result<Option<u64>, ParseError> {
        if self.peek() != Some(b'@') {
            return Ok(None);
        }
        self.pos += 1;
        let v = self.number("a view (a namespace id)")?;
        self.ws1()?;
        Ok(Some(v))
    }

    fn field(&mut self, field: FieldMut<'_>) -> Result<(), ParseError> {
        match field {
            FieldMut::Path(b)
            | FieldMut::NewPath(b)
            | FieldMut::Name(b)
            | FieldMut::Data(b)
            | FieldMut::Source(b) => *b = self.string()?,
            FieldMut::Offset(n) => *n = self.number("an offset")?,
            FieldMut::Len(n) => *n = self.number("a length")?,
            FieldMut::Mode(m) => *m = self.mode()?,
            FieldMut::Id(n) => *n = self.id()?,
            FieldMut::Ns(n) => *n = self.number("a namespace id")?,
            FieldMut::View(_) => unreachable!("the view is the op's prefix"),
            FieldMut::Rows(rows) => *rows = self.rows()?,
            FieldMut::Ino(n) => *n = self.number("an inode number")?,
            FieldMut::Pos(n) => *n = self.number("a position")?,
            FieldMut::Header(n) => *n = self.number("a header id")?,
            FieldMut::PageSize(n) => *n = self.usize_number("a page size")?,
            FieldMut::Slot(n) => *n = self.slot()?,
            FieldMut::Count(n) => *n = self.count_field()?,
        }
        Ok(())
    }

    /// `[` [ row { `,` row } ] `]`, blanks allowed around every token.
    fn rows(&mut self) -> Result<Vec<Row>, ParseError> {
        if self.peek() != Some(b'[') {
            return Err(self.expected("`[` starting the table"));
        }
        self.pos += 1;
        let mut rows = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(rows);
        }
        loop {
            self.skip_ws();
            let at = self.pos;
            let kind = self.word();
            let (name, kind) = match kind {
                b"f" => (self.arg_string()?, RowKind::File(self.arg_string()?)),
                b"d" => (self.arg_string()?, RowKind::Dir),
                b"s" => (self.arg_string()?, RowKind::Gen(self.arg_string()?)),
                _ => {
                    self.pos = at;
                    return Err(self.expected(
                        "a row (`f NAME CONTENT`, `d NAME` or `s NAME SOURCE`, then an optional MODE)",
                    ));
                }
            };
            let mode = self.row_mode()?;
            rows.push(Row { name, kind, mode });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(rows);
                }
                _ => return Err(self.expected("`,` or `]`")),
            }
        }
    }
}

/// A script's ops, for tests: every statement must be an op.
#[cfg(test)]
pub(crate) fn ops_of(script: &str) -> Vec<Op> {
    let parsed = parse_script(script.as_bytes()).expect("parses");
    parsed
        .stmts
        .into_iter()
        .map(|s| match s {
            Stmt::Op(op) => op,
            other => panic!("not an op: {other}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Script, ParseError> {
        parse_script(s.as_bytes())
    }

    fn err(s: &str) -> String {
        p(s).unwrap_err().to_string()
    }

    #[test]
    fn escapes_parse() {
        let s = p(r#"create "/a" "\\ \" \n \t \0 \x7F \xff é""#).unwrap();
        let Stmt::Op(Op::Create { content, .. }) = &s.stmts[0] else {
            panic!()
        };
        assert_eq!(content, &b"\\ \" \n \t \0 \x7f \xff \xc3\xa9".to_vec());
    }

    #[test]
    fn errors_have_line_and_column() {
        let cases = [
            ("\n\nmkdir \"/a\" x", "line 3, column 12: expected end of line, found `x`"),
            ("frob", "line 1, column 1: expected an operation, found `frob`"),
            ("  mkdir", "line 1, column 8: expected a string, found end of line"),
            ("mkdir \"/a", "line 1, column 10: expected `\"` closing the string opened at column 7, found end of line"),
            ("mkdir \"\\q\"", "line 1, column 8: expected an escape (\\\\ \\\" \\n \\t \\0 \\xHH), found `\\` then `q`"),
            ("mkdir \"\\x4\"", "line 1, column 8: expected two hex digits after `\\x`"),
            ("read 16", "line 1, column 6: slot 16 is out of range 0..=15"),
            ("unregister 99999999999999999999", "line 1, column 12: a header id does not fit in 64 bits"),
            ("register \"a\" [f \"x\" \"1\" d \"y\"]", "line 1, column 25: expected `,` or `]`, found `d`"),
            ("register \"a\" [x]", "line 1, column 15: expected a row (`f NAME CONTENT`, `d NAME` or `s NAME SOURCE`, then an optional MODE), found `x`"),
            ("mkdir\"a\"", "line 1, column 6: expected a blank, found a string"),
            ("stat \"\x01\"", "line 1, column 7: expected a printable byte or an escape in a string, found byte 0x01"),
            ("mkdir \"a\"\nlimits max_entries=3", "line 2, column 1: `limits` must be the first statement and appear once"),
            ("limits max_entries=3 max_entries=4", "line 1, column 22: this limit is given twice"),
            ("repeat 1000001 stats", "line 1, column 8: repeat count 1000001 is over the limit 1000000"),
            ("repeat 2 repeat 2 stats", "line 1, column 10: expected an operation, found `repeat`"),
            ("readdir 1 2x 3", "line 1, column 11: expected a position, found `2x`"),
            ("\u{ff}", "line 1, column 1: expected an operation, found byte 0xc3"),
        ];
        for (input, expected) in cases {
            assert_eq!(err(input), expected, "{input:?}");
        }
    }

    #[test]
    fn comments_blanks_and_register() {
        let s = p("# only a comment\n\n\t \nregister \"n\" [ f \"a\" \"1\" ,d \"b\" ]  # c\nregister \"m\" []\n").unwrap();
        assert_eq!(
            s.stmts,
            vec![
                Stmt::Op(Op::Register {
                    dir: b"n".to_vec(),
                    rows: vec![Row::file("a", "1"), Row::dir("b")]
                }),
                Stmt::Op(Op::Register {
                    dir: b"m".to_vec(),
                    rows: vec![]
                }),
            ]
        );
        assert_eq!(
            print_script(&s),
            "register \"n\" [f \"a\" \"1\", d \"b\"]\nregister \"m\" []\n"
        );
    }

    /// Every byte value, in every string position, round-trips.
    #[test]
    fn round_trip_tricky_bytes() {
        let all: Vec<u8> = (0..=255u8).collect();
        let mut stmts = tricky_stmts(&all);
        stmts.extend(fixed_ops(&all).into_iter().map(Stmt::Op));
        let script = Script {
            limits: Some(Limits {
                max_entries: u64::MAX,
                max_content: 0,
                max_table_rows: 1,
                max_readdir: 2,
                max_namespaces: 65_536,
            }),
            stmts,
        };
        let text = print_script(&script);
        assert!(text.is_ascii());
        let back = parse_script(text.as_bytes()).unwrap();
        assert_eq!(back, script);
        assert_eq!(print_script(&back), text);
    }

    /// Each tricky byte string as a path, a content, a row name, a template and a name.
    fn tricky_stmts(all: &[u8]) -> Vec<Stmt> {
        let tricky: Vec<Vec<u8>> = vec![
            vec![],
            all.to_vec(),
            b"\"".to_vec(),
            b"\\".to_vec(),
            b"\\\"".to_vec(),
            b"\n\n".to_vec(),
            b"\0".to_vec(),
            b"\xff\xfe\x80".to_vec(),
            b"{i}{{i}}{".to_vec(),
            b"# not a comment".to_vec(),
            b"a b\tc".to_vec(),
        ];
        let mut stmts = Vec::new();
        for t in &tricky {
            stmts.push(Stmt::Op(Op::Create {
                path: t.clone(),
                content: t.clone(),
            }));
            stmts.push(Stmt::Op(Op::Register {
                dir: t.clone(),
                rows: vec![Row::file(t, t), Row::dir(t)],
            }));
            stmts.push(Stmt::Repeat {
                count: 3,
                op: Op::Symlink {
                    path: t.clone(),
                    target: t.clone(),
                },
            });
            stmts.push(Stmt::Op(Op::LookupAt {
                view: 0,
                dir: u64::MAX,
                name: t.clone(),
            }));
        }
        stmts
    }

    /// One op of every other kind, numbers at their extremes.
    fn fixed_ops(all: &[u8]) -> Vec<Op> {
        let mut ops = vec![Op::Readdir {
            view: 0,
            dir: 0,
            pos: u64::MAX,
            max: usize::MAX,
        }];
        ops.extend([
            Op::Stats,
            Op::Check,
            Op::Dump,
            Op::Open {
                view: 0,
                slot: 15,
                path: b"/x".to_vec(),
            },
            Op::Read { slot: 0 },
            Op::Close { slot: 1 },
            Op::OpenDir {
                view: 0,
                slot: 2,
                path: vec![],
            },
            Op::ReadPage {
                view: 0,
                slot: 3,
                max: 0,
            },
            Op::Seek { slot: 4, pos: 9 },
            Op::Rewind { slot: 5 },
            Op::Unregister { header: 0 },
            Op::Mkdir { path: all.to_vec() },
            Op::Listing { path: all.to_vec() },
            Op::Stat {
                view: 0,
                path: all.to_vec(),
            },
            Op::Remove { path: all.to_vec() },
            Op::RemoveSubtree { path: all.to_vec() },
            Op::MarkPermanent { path: all.to_vec() },
            Op::Bulk {
                dir: all.to_vec(),
                prefix: all.to_vec(),
                count: 100_000,
            },
        ]);
        ops
    }

    #[test]
    fn canonical_print_normalises() {
        let s = p("  limits max_readdir=4\t# x\nmkdir\t\"\\x41\\x0a\"\nreadpage 00 007").unwrap();
        assert_eq!(
            print_script(&s),
            "limits max_entries=16777216 max_content=65536 max_table_rows=1024 max_readdir=4 max_namespaces=65536\nmkdir \"A\\n\"\nreadpage 0 7\n"
        );
    }

    /// A cheap deterministic fuzz: the parser never panics on random or mutated input.
    #[test]
    fn never_panics() {
        let seeds: &[&[u8]] = &[
            b"register \"a\" [f \"x\" \"\\x00\", d \"y\"]\nrepeat 3 mkdir \"/{i}\"\nlimits max_entries=1",
            b"\"\\x\\",
            b"readdir 1 2 3\nreadpage 15 1\n",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for seed in seeds {
            for _ in 0..3000 {
                let mut v = seed.to_vec();
                for _ in 0..(next() % 6) {
                    let r = next();
                    let i = (r as usize / 7) % (v.len() + 1);
                    match r % 3 {
                        0 if i < v.len() => {
                            v.remove(i);
                        }
                        1 => v.insert(i, (r >> 32) as u8),
                        _ if i < v.len() => v[i] = (r >> 40) as u8,
                        _ => {}
                    }
                }
                if let Ok(s) = parse_script(&v) {
                    assert_eq!(parse_script(print_script(&s).as_bytes()).unwrap(), s);
                }
            }
        }
    }
}
