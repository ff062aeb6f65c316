//! Words and numbers: splitting a line into words with their columns, and reading integers, sizes and
//! durations exactly. Also [`ParseError`], which everything here reports.

use std::fmt;
use std::time::Duration;

/// A malformed scenario: where, what was expected there, and what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What the parser expected, e.g. "a duration such as `200us`".
    pub expected: String,
    /// What it found, e.g. "`200` (no unit)" or "end of line".
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {}",
            self.line, self.column, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseError {}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tok<'a> {
    pub text: &'a str,
    pub column: usize,
}

/// The words of one line and a cursor over them.
pub(super) struct Line<'a> {
    pub no: usize,
    pub toks: Vec<Tok<'a>>,
    pub pos: usize,
    pub end_column: usize,
}

impl<'a> Line<'a> {
    pub fn new(no: usize, text: &'a str) -> Line<'a> {
        let mut toks = Vec::new();
        let mut start: Option<(usize, usize)> = None; // (byte, column)
        let mut end_column = 1;
        for (i, (byte, ch)) in text.char_indices().enumerate() {
            let column = i + 1;
            if ch.is_whitespace() {
                if let Some((b, c)) = start.take() {
                    toks.push(Tok {
                        text: &text[b..byte],
                        column: c,
                    });
                }
            } else {
                end_column = column + 1;
                if start.is_none() {
                    start = Some((byte, column));
                }
            }
        }
        if let Some((b, c)) = start {
            toks.push(Tok {
                text: &text[b..],
                column: c,
            });
        }
        Line {
            no,
            toks,
            pos: 0,
            end_column,
        }
    }

    pub fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }

    pub fn error_at(
        &self,
        tok: Option<Tok<'_>>,
        expected: impl Into<String>,
        found: Option<String>,
    ) -> ParseError {
        let (column, default_found) = match tok {
            Some(t) => (t.column, format!("`{}`", t.text)),
            None => (self.end_column, "end of line".to_string()),
        };
        ParseError {
            line: self.no,
            column,
            expected: expected.into(),
            found: found.unwrap_or(default_found),
        }
    }

    pub fn next(&mut self, expected: &str) -> Result<Tok<'a>, ParseError> {
        match self.peek() {
            Some(t) => {
                self.pos += 1;
                Ok(t)
            }
            None => Err(self.error_at(None, expected, None)),
        }
    }

    pub fn finish(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.error_at(Some(t), "end of line", None)),
        }
    }

    /// Consumes `word` if it is next.
    pub fn eat(&mut self, word: &str) -> bool {
        if self.peek().is_some_and(|t| t.text == word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
}

pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An unsigned integer: decimal with optional `_` separators, or `0x` hex.
pub(super) fn parse_u64(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok();
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

pub(super) fn parse_i64(s: &str) -> Option<i64> {
    match s.strip_prefix('-') {
        Some(rest) => parse_u64(rest).and_then(|v| 0i64.checked_sub_unsigned(v)),
        None => parse_u64(s).and_then(|v| i64::try_from(v).ok()),
    }
}

/// Splits `12.5ms` into (`12.5`, `ms`).
fn split_number(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_'))
        .map_or(s.len(), |(i, _)| i);
    s.split_at(end)
}

/// A size: `4096`, `4KiB`, `1MiB`, `2GiB`, `16KB` (10³), `1MB`, `1GB`, `64B`.
pub(super) fn parse_size(s: &str) -> Option<u64> {
    if s.starts_with("0x") || s.starts_with("0X") {
        return parse_u64(s);
    }
    let (num, unit) = split_number(s);
    let n = parse_u64(num)?;
    let mult: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// A duration: a number (decimals allowed) and a unit: `ns`, `us`/`µs`, `ms`, `s`; exact to the nanosecond.
pub(super) fn parse_duration(s: &str) -> Option<Duration> {
    let (num, unit) = split_number(s);
    let unit_ns: u64 = match unit {
        "ns" => 1,
        "us" | "µs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        _ => return None,
    };
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    let int = if int.is_empty() && !frac.is_empty() {
        0
    } else {
        parse_u64(int)?
    };
    let mut ns = int.checked_mul(unit_ns)?;
    if !frac.is_empty() {
        if !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
            return None;
        }
        let digits: u64 = frac.parse().ok()?;
        let scale = 10u64.pow(frac.len() as u32);
        let part = digits.checked_mul(unit_ns)?;
        if part % scale != 0 {
            return None; // finer than a nanosecond
        }
        ns = ns.checked_add(part / scale)?;
    }
    Some(Duration::from_nanos(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("4KiB"), Some(4096));
        assert_eq!(parse_size("1_000"), Some(1000));
        assert_eq!(parse_size("2MB"), Some(2_000_000));
        assert_eq!(parse_size("0x10"), Some(16));
        assert_eq!(parse_size("99999999999GiB"), None);
        assert_eq!(parse_size("4 KiB"), None);
        assert_eq!(parse_duration("200us"), Some(Duration::from_micros(200)));
        assert_eq!(parse_duration("1.5ms"), Some(Duration::from_micros(1500)));
        assert_eq!(parse_duration("2µs"), Some(Duration::from_micros(2)));
        assert_eq!(parse_duration(".5us"), Some(Duration::from_nanos(500)));
        assert_eq!(parse_duration("1.0001us"), None);
        assert_eq!(parse_duration("200"), None);
        assert_eq!(parse_duration("1.2.3ms"), None);
    }
}
