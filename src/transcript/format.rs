//! Transcript formats: names, choice by file extension, and content sniffing.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A transcript file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// Logistello `.gam` lines: `+d3-c5...: -04 10`, or unsigned `d3c5...`.
    Gam,
    /// WTHOR binary `.wtb` (names from `WTHOR.JOU`/`WTHOR.TRN` beside it).
    Wthor,
    /// Generic Game Format `(;GM[Othello]...;)`.
    Ggf,
    /// Othello PGN.
    Pgn,
    /// One move string per line, optionally followed by a result.
    Moves,
    /// CSV with a moves column found by its header.
    Csv,
}

impl Format {
    /// Every format, in sniffing order.
    pub const ALL: [Format; 6] = [
        Format::Wthor,
        Format::Ggf,
        Format::Pgn,
        Format::Csv,
        Format::Gam,
        Format::Moves,
    ];

    /// The lowercase name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::Gam => "gam",
            Format::Wthor => "wthor",
            Format::Ggf => "ggf",
            Format::Pgn => "pgn",
            Format::Moves => "moves",
            Format::Csv => "csv",
        }
    }

    /// Whether the format is binary (no `.gz`, no lines).
    #[must_use]
    pub const fn is_binary(self) -> bool {
        matches!(self, Format::Wthor)
    }

    /// The format an extension names (`.gz` looked through), if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let ext = name.rsplit_once('.')?.1;
        Some(match ext {
            "gam" => Format::Gam,
            "wtb" => Format::Wthor,
            "ggf" => Format::Ggf,
            "pgn" => Format::Pgn,
            "csv" | "tsv" => Format::Csv,
            "txt" | "moves" | "lines" => Format::Moves,
            _ => return None,
        })
    }

    /// Whether `bytes` (decompressed, BOM removed) look like this format.
    #[must_use]
    pub fn looks_like(self, bytes: &[u8]) -> bool {
        match self {
            Format::Wthor => super::wthor::looks_like_wtb(bytes),
            Format::Ggf => find(head(bytes), b"(;").is_some(),
            Format::Pgn => first_line(bytes).is_some_and(|l| {
                let digits = l.iter().take_while(|b| b.is_ascii_digit()).count();
                l.starts_with(b"[") || (digits > 0 && l.get(digits) == Some(&b'.'))
            }),
            Format::Csv => first_line(bytes).is_some_and(|l| {
                let l = l.to_ascii_lowercase();
                (l.contains(&b',') || l.contains(&b'\t') || l.contains(&b';'))
                    && super::csv::MOVE_COLUMNS
                        .iter()
                        .any(|c| find(&l, c.as_bytes()).is_some())
            }),
            // One bad line must not disown a whole file: any of the first few lines will do.
            Format::Gam | Format::Moves => {
                let mut lines = content_lines(bytes).take(5).peekable();
                lines.peek().is_none()
                    || lines.any(|l| {
                        let l = l.strip_prefix(b"+").unwrap_or(l);
                        let l = l.strip_prefix(b"-").unwrap_or(l);
                        crate::board::Square::parse_prefix(l).is_some()
                    })
            }
        }
    }

    /// The format of `bytes` by content alone. A signed line (`+d3-c5`) or a `:` score says
    /// `.gam`; other move lines are `moves`.
    #[must_use]
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        let f = Format::ALL.into_iter().find(|f| f.looks_like(bytes))?;
        if f == Format::Gam {
            let gam = first_line(bytes).is_some_and(|l| l.starts_with(b"+") || l.contains(&b':'));
            return Some(if gam { Format::Gam } else { Format::Moves });
        }
        Some(f)
    }
}

fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(4096)]
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Lines near the start that are neither blank nor comments, trimmed.
fn content_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    head(bytes)
        .split(|&b| b == b'\n' || b == b'\r')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty() && !super::lines::is_comment(l))
}

/// The first line that is neither blank nor a comment, trimmed.
fn first_line(bytes: &[u8]) -> Option<&[u8]> {
    content_lines(bytes).next()
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown format name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}: use gam, wthor, ggf, pgn, moves or csv")]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "gam" => Format::Gam,
            "wthor" | "wtb" => Format::Wthor,
            "ggf" => Format::Ggf,
            "pgn" => Format::Pgn,
            "moves" | "txt" => Format::Moves,
            "csv" => Format::Csv,
            _ => return Err(ParseFormatError(s.to_string())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
            assert_eq!(f.to_string(), f.name());
        }
        assert!("xyz".parse::<Format>().is_err());
    }

    #[test]
    fn extensions() {
        assert_eq!(
            Format::from_path(Path::new("a/b.GAM.gz")),
            Some(Format::Gam)
        );
        assert_eq!(
            Format::from_path(Path::new("WTH_2001.wtb")),
            Some(Format::Wthor)
        );
        assert_eq!(Format::from_path(Path::new("x.pgn")), Some(Format::Pgn));
        assert_eq!(Format::from_path(Path::new("x")), None);
    }

    #[test]
    fn sniffing() {
        assert_eq!(Format::sniff(b"+d3-c5+f6: +02 10\n"), Some(Format::Gam));
        assert_eq!(Format::sniff(b"f5d6c3\n"), Some(Format::Moves));
        assert_eq!(Format::sniff(b"[Event \"x\"]\n1. F5"), Some(Format::Pgn));
        assert_eq!(Format::sniff(b"1 (;GM[Othello];)"), Some(Format::Ggf));
        assert_eq!(
            Format::sniff(b"id,winner,game_moves\n1,1,f5d6\n"),
            Some(Format::Csv)
        );
        assert_eq!(Format::sniff(b"hello world\n"), None);
        assert_eq!(Format::sniff(b"1. f5 d6 2. c3\n"), Some(Format::Pgn));
        assert_eq!(Format::sniff(b"junk line\nf5d6c3\n"), Some(Format::Moves));
    }
}
