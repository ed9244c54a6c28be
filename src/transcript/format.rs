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
}
