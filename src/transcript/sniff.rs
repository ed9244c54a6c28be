//! Telling a transcript's format from its content: what each format's first lines look like,
//! and the format to read a file as when its name claims one.

use super::format::Format;

impl Format {
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

/// The format to read `bytes` as: the claimed one if the content fits it, else by content.
pub(crate) fn choose(bytes: &[u8], claimed: Option<Format>) -> Result<Format, String> {
    match claimed {
        Some(f) if f.looks_like(bytes) => Ok(f),
        Some(f) => Err(match Format::sniff(bytes) {
            Some(other) => format!("not a {f} file (the content looks like {other})"),
            None => format!("not a {f} file"),
        }),
        None => Format::sniff(bytes)
            .ok_or_else(|| "unknown format: name it with an extension or --from".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
