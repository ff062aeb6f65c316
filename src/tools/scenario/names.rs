//! The names a scenario declares, with their kinds, checked while it is parsed (`parse.rs`).

use std::collections::BTreeMap;

use super::ast::{Name, StreamRef, Target, Vendor};
use super::lex::{Line, ParseError, Tok, is_identifier};
use super::parse::*;

/// What a declared name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Process,
    Stream,
    Event,
    Device,
    Pinned,
    Pageable,
    EventHandle,
    Context,
    Notify,
    Graph,
    GraphExec,
    Pool,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Process => "a process",
            Kind::Stream => "a stream",
            Kind::Event => "an event",
            Kind::Device => "a device buffer",
            Kind::Pinned => "a pinned host buffer",
            Kind::Pageable => "a pageable host buffer",
            Kind::EventHandle => "an IPC event handle",
            Kind::Context => "a context",
            Kind::Notify => "a notify",
            Kind::Graph => "a graph",
            Kind::GraphExec => "an executable graph (ACL: a model)",
            Kind::Pool => "a memory pool",
        }
    }
}

#[derive(Default)]
pub(super) struct Names {
    pub(super) declared: BTreeMap<String, (Kind, usize)>,
    /// The dialect given so far (CUDA until a `dialect` line says otherwise).
    pub(super) vendor: Vendor,
}

/// `found` for a word that exists in another dialect only.
pub(super) fn other_dialect(t: Tok<'_>, vendor: Vendor, why: &str) -> Option<String> {
    Some(format!(
        "`{}`, which dialect {} does not have ({why})",
        t.text,
        vendor.keyword()
    ))
}

impl Names {
    /// The dialect given so far.
    pub(super) fn vendor(&self) -> Vendor {
        self.vendor
    }

    fn name_tok(&self, line: &mut Line<'_>, expected: &str) -> Result<Name, ParseError> {
        let t = line.next(expected)?;
        if !is_identifier(t.text) || RESERVED.contains(&t.text) {
            return Err(line.error_at(Some(t), expected, None));
        }
        Ok(Name {
            text: t.text.to_string(),
            line: line.no,
            column: t.column,
        })
    }

    /// `NAME` that this statement declares. A name is declared once: a second declaration (of any kind) is
    /// refused with both lines. A process is the exception: `process A` again switches back to it.
    pub(super) fn declare(&mut self, line: &mut Line<'_>, kind: Kind) -> Result<Name, ParseError> {
        let expected = format!("a name for {} (letters, digits, `_`)", kind.describe());
        let name = self.name_tok(line, &expected)?;
        match self.declared.get(&name.text) {
            Some(&(Kind::Process, _)) if kind == Kind::Process => return Ok(name),
            Some(&(k, at)) => {
                return Err(ParseError {
                    line: name.line,
                    column: name.column,
                    expected: format!("a new name for {}", kind.describe()),
                    found: format!(
                        "`{}`, already declared on line {at} as {} (line {}: a second declaration; \
                         give it another name)",
                        name.text,
                        k.describe(),
                        line.no
                    ),
                });
            }
            None => {}
        }
        self.declared.insert(name.text.clone(), (kind, line.no));
        Ok(name)
    }

    /// `NAME` that must already be declared with one of `kinds`.
    pub(super) fn use_name(&self, line: &mut Line<'_>, kinds: &[Kind]) -> Result<Name, ParseError> {
        let what = kinds
            .iter()
            .map(|k| k.describe())
            .collect::<Vec<_>>()
            .join(" or ");
        let expected = format!("the name of {what}");
        let name = self.name_tok(line, &expected)?;
        self.check(&name, kinds, &expected)?;
        Ok(name)
    }

    fn check(&self, name: &Name, kinds: &[Kind], expected: &str) -> Result<Kind, ParseError> {
        let err = |found: String| ParseError {
            line: name.line,
            column: name.column,
            expected: expected.to_string(),
            found,
        };
        match self.declared.get(&name.text) {
            None => Err(err(format!(
                "`{}`, which is not declared on an earlier line",
                name.text
            ))),
            Some(&(k, at)) if !kinds.contains(&k) => Err(err(format!(
                "`{}`, which is {} (line {at})",
                name.text,
                k.describe()
            ))),
            Some(&(k, _)) => Ok(k),
        }
    }

    pub(super) fn stream(&self, line: &mut Line<'_>) -> Result<StreamRef, ParseError> {
        if let Some(t) = line.peek()
            && self.vendor.is_acl()
            && ["legacy", "per-thread"].contains(&t.text)
        {
            return Err(line.error_at(
                Some(t),
                "a stream (a declared stream name or `default`)",
                other_dialect(
                    t,
                    self.vendor,
                    "`default` is the current context's default stream",
                ),
            ));
        }
        match line.peek().map(|t| t.text) {
            Some("default") => {
                line.pos += 1;
                Ok(StreamRef::Default)
            }
            Some("legacy") => {
                line.pos += 1;
                Ok(StreamRef::Legacy)
            }
            Some("per-thread") => {
                line.pos += 1;
                Ok(StreamRef::PerThread)
            }
            _ => {
                let expected =
                    "a stream (a declared stream name, `default`, `legacy` or `per-thread`)";
                let name = self.name_tok(line, expected)?;
                self.check(&name, &[Kind::Stream], expected)?;
                Ok(StreamRef::Named(name))
            }
        }
    }

    /// `on STREAM` if present, else the default stream.
    pub(super) fn on_stream(&self, line: &mut Line<'_>) -> Result<StreamRef, ParseError> {
        if line.eat("on") {
            self.stream(line)
        } else {
            Ok(StreamRef::Default)
        }
    }

    /// `stream S`, `event E`, `device` (if allowed), or a bare stream/event name.
    pub(super) fn target(&self, line: &mut Line<'_>, device: bool) -> Result<Target, ParseError> {
        let expected = if device {
            "`stream S`, `event E`, `device`, or a stream or event name"
        } else {
            "`stream S`, `event E`, or a stream or event name"
        };
        let Some(t) = line.peek() else {
            return Err(line.error_at(None, expected, None));
        };
        // `stream` and `event` are keywords when a name follows, otherwise names (`query stream`).
        let keyword = line.toks.len() > line.pos + 1;
        match t.text {
            "stream" if keyword => {
                line.pos += 1;
                Ok(Target::Stream(self.stream(line)?))
            }
            "event" if keyword => {
                line.pos += 1;
                Ok(Target::Event(self.use_name(line, &[Kind::Event])?))
            }
            "device" if device => {
                line.pos += 1;
                Ok(Target::Device)
            }
            "default" | "legacy" | "per-thread" => Ok(Target::Stream(self.stream(line)?)),
            _ => {
                let name = self.name_tok(line, expected)?;
                match self.check(&name, &[Kind::Stream, Kind::Event], expected)? {
                    Kind::Stream => Ok(Target::Stream(StreamRef::Named(name))),
                    _ => Ok(Target::Event(name)),
                }
            }
        }
    }
}
