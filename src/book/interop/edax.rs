//! Edax's binary book, `book.dat` (format version 4, any release), read and written byte for
//! byte as Edax's `book_load` and `book_save` do: a 42-byte little-endian header, then one
//! variable-length record per position (see docs/interop.md).

use super::fields::{self, BadLevels};

/// First four bytes, "XADE" (0x45444158 little-endian).
pub const MAGIC_EDAX: u32 = 0x4544_4158;
/// Next four bytes, "KOOB" (0x424f4f4b little-endian).
pub const MAGIC_BOOK: u32 = 0x424f_4f4b;
/// The only format version Edax writes and reads.
pub const VERSION: u8 = 4;
/// Release byte written by the exporter (Edax 4.4 and later write 4; the reader takes any).
pub const RELEASE: u8 = 4;
/// Bytes before the first position.
pub const HEADER_LEN: usize = 42;
/// Fixed bytes of a position record, before its links.
pub const FIXED_LEN: usize = 40;
/// Move byte of a pass.
pub const PASS: u8 = 64;
/// Move byte of "no move" (a leaf that is not there).
pub const NO_MOVE: u8 = 65;
/// Edax's infinite score (`SCORE_INF`): the leaf score of "no leaf" is its negation.
pub const SCORE_INF: i16 = 127;

/// The book's settings as Edax keeps them (`Book.options`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Search level of the leaves.
    pub level: i32,
    /// Empties from which Edax solves (the book's depth limit).
    pub n_empties: i32,
    /// Error allowed in midgame values (bounds).
    pub midgame_error: i32,
    /// Error allowed in endgame-cut values (bounds).
    pub endcut_error: i32,
    /// Edax's verbosity while building.
    pub verbosity: i32,
}

/// The header date (local time of the machine that saved the book, as Edax writes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Date {
    /// Year.
    pub year: i16,
    /// Month, day, hour, minute, second.
    pub rest: [u8; 5],
    /// The padding byte of Edax's C struct (kept so a read file writes back the same bytes).
    pub pad: u8,
}

/// The header of a `book.dat`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Release byte (minor version of Edax that wrote it).
    pub release: u8,
    /// When it was saved.
    pub date: Date,
    /// Build settings.
    pub options: Options,
}

/// A move and its score in discs for the side to move: a link (into the book) or a leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    /// Score for the side to move, in discs.
    pub score: i8,
    /// Square 0 (a1) … 63 (h8), [`PASS`] or [`NO_MOVE`].
    pub mv: u8,
}

/// One position record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Discs of the side to move (bit 0 = a1).
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Wins, draws, losses of the side to move, and lines through the position.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Lines (Edax: leaves counted by its negamax).
    pub lines: u32,
    /// Value: max(link scores, leaf score).
    pub value: i16,
    /// Lower bound of the value.
    pub lower: i16,
    /// Upper bound of the value.
    pub upper: i16,
    /// Search level of the leaf.
    pub level: u8,
    /// Moves into the book, score = −(child's value).
    pub links: Vec<Link>,
    /// The best move out of the book.
    pub leaf: Link,
}

/// A whole `book.dat`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdaxBook {
    /// Header.
    pub header: Header,
    /// Positions in file order.
    pub positions: Vec<Position>,
    /// Record levels outside 0 to 60 that reading repaired to 0 (not written).
    pub bad_levels: BadLevels,
}

/// Reads little-endian fields from a byte slice, failing with the offset on a short read.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "truncated: the file ends inside {what} (byte {} of {})",
                self.at,
                self.bytes.len()
            ));
        };
        let out = self.bytes[self.at..end].try_into().expect("N bytes");
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take::<1>(what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(what)?))
    }

    fn i32(&mut self, what: &str) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(what)?))
    }

    fn i16(&mut self, what: &str) -> Result<i16, String> {
        Ok(i16::from_le_bytes(self.take(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(what)?))
    }

    fn link(&mut self, what: &str) -> Result<Link, String> {
        let [score, mv] = self.take::<2>(what)?;
        Ok(Link {
            score: score as i8,
            mv,
        })
    }
}

/// Whether `bytes` start with Edax's book signature.
#[must_use]
pub fn is_edax(bytes: &[u8]) -> bool {
    bytes.len() >= 8
        && bytes[..4] == MAGIC_EDAX.to_le_bytes()
        && bytes[4..8] == MAGIC_BOOK.to_le_bytes()
}

/// Parses a `book.dat`; the error says what is wrong and where, in words.
pub fn parse(bytes: &[u8]) -> Result<EdaxBook, String> {
    if !is_edax(bytes) {
        return Err("not an Edax book (no EDAX BOOK signature at the start)".into());
    }
    let mut c = Cursor { bytes, at: 8 };
    let version = c.u8("the header")?;
    if version != VERSION {
        return Err(format!(
            "Edax book format version {version} is not known (only version {VERSION} is)"
        ));
    }
    let release = c.u8("the header")?;
    let year = c.i16("the header")?;
    let rest = c.take::<5>("the header")?;
    let pad = c.u8("the header")?;
    let mut o = [0i32; 5];
    for v in &mut o {
        *v = c.i32("the header")?;
    }
    let declared = c.i32("the header")?;
    let header = Header {
        release,
        date: Date { year, rest, pad },
        options: Options {
            level: o[0],
            n_empties: o[1],
            midgame_error: o[2],
            endcut_error: o[3],
            verbosity: o[4],
        },
    };
    // Each position takes at least 42 bytes.
    let declared = fields::count(declared, bytes.len() - HEADER_LEN, FIXED_LEN + 2)?;
    let mut positions = Vec::with_capacity(declared);
    let mut bad_levels = BadLevels::default();
    while c.at < bytes.len() {
        let what = format!("position {}", positions.len() + 1);
        let mut p = position(&mut c, &what)?;
        p.level = bad_levels.level(i32::from(p.level));
        positions.push(p);
    }
    if positions.len() != declared {
        return Err(format!(
            "the header claims {declared} positions, the file holds {}",
            positions.len()
        ));
    }
    Ok(EdaxBook {
        header,
        positions,
        bad_levels,
    })
}

fn position(c: &mut Cursor<'_>, what: &str) -> Result<Position, String> {
    let mut p = Position {
        player: c.u64(what)?,
        opponent: c.u64(what)?,
        wins: c.u32(what)?,
        draws: c.u32(what)?,
        losses: c.u32(what)?,
        lines: c.u32(what)?,
        value: c.i16(what)?,
        lower: c.i16(what)?,
        upper: c.i16(what)?,
        ..Position::default()
    };
    let n_link = c.u8(what)?;
    p.level = c.u8(what)?;
    p.links = (0..n_link)
        .map(|_| c.link(what))
        .collect::<Result<_, _>>()?;
    p.leaf = c.link(what)?;
    Ok(p)
}

/// The bytes of a `book.dat`, as Edax's `book_save` writes them.
#[must_use]
pub fn encode(book: &EdaxBook) -> Vec<u8> {
    let links: usize = book.positions.iter().map(|p| p.links.len()).sum();
    let mut out = Vec::with_capacity(HEADER_LEN + book.positions.len() * 42 + links * 2);
    let h = &book.header;
    out.extend(MAGIC_EDAX.to_le_bytes());
    out.extend(MAGIC_BOOK.to_le_bytes());
    out.extend([VERSION, h.release]);
    out.extend(h.date.year.to_le_bytes());
    out.extend(h.date.rest);
    out.push(h.date.pad);
    let o = &h.options;
    for v in [
        o.level,
        o.n_empties,
        o.midgame_error,
        o.endcut_error,
        o.verbosity,
    ] {
        out.extend(v.to_le_bytes());
    }
    out.extend((book.positions.len() as i32).to_le_bytes());
    for p in &book.positions {
        out.extend(p.player.to_le_bytes());
        out.extend(p.opponent.to_le_bytes());
        for v in [p.wins, p.draws, p.losses, p.lines] {
            out.extend(v.to_le_bytes());
        }
        for v in [p.value, p.lower, p.upper] {
            out.extend(v.to_le_bytes());
        }
        out.extend([p.links.len() as u8, p.level]);
        for l in p.links.iter().chain(std::iter::once(&p.leaf)) {
            out.extend([l.score as u8, l.mv]);
        }
    }
    out
}

/// A move as Edax's `move_to_string` writes it for the side shown as X: `F5`, `PA` (pass),
/// `--` (no move).
fn move_text(mv: u8) -> String {
    match mv {
        0..=63 => format!("{}{}", (b'A' + mv % 8) as char, mv / 8 + 1),
        PASS => "PA".into(),
        _ => "--".into(),
    }
}

/// Edax's text form of a book (`book export`): per position, the 64 squares (X = side to
/// move, O = the other, - = empty), ` X`, then `,level,leaf move,leaf score`; positions in
/// the book's order. Edax's `book import` reads it and relinks.
#[must_use]
pub fn encode_text(book: &EdaxBook) -> String {
    let mut out = String::with_capacity(book.positions.len() * 80);
    for p in &book.positions {
        for sq in 0..64 {
            out.push(if p.player >> sq & 1 == 1 {
                'X'
            } else if p.opponent >> sq & 1 == 1 {
                'O'
            } else {
                '-'
            });
        }
        out.push_str(&format!(
            " X,{},{},{}\n",
            p.level,
            move_text(p.leaf.mv),
            p.leaf.score
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> EdaxBook {
        EdaxBook {
            header: Header {
                release: 4,
                date: Date {
                    year: 2024,
                    rest: [11, 17, 12, 34, 45],
                    pad: 0,
                },
                options: Options {
                    level: 1,
                    n_empties: 2,
                    midgame_error: 2,
                    endcut_error: 1,
                    verbosity: 0,
                },
            },
            positions: vec![Position {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
                lines: 3,
                value: -4,
                lower: -6,
                upper: -2,
                level: 1,
                links: vec![Link { score: -4, mv: 19 }],
                leaf: Link { score: -5, mv: 26 },
                ..Position::default()
            }],
            ..EdaxBook::default()
        }
    }

    #[test]
    fn encode_then_parse_is_the_identity() {
        let b = sample();
        let bytes = encode(&b);
        assert_eq!(bytes.len(), HEADER_LEN + FIXED_LEN + 4);
        assert_eq!(parse(&bytes).unwrap(), b);
    }

    #[test]
    fn text_lines_are_edax_export_lines() {
        // d4 and e5 are the opponent's (O), e4 and d5 the side to move's (X).
        let text = encode_text(&sample());
        let want = format!(
            "{}OX{}XO{} X,1,C4,-5\n",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        );
        assert_eq!(text, want);
        assert_eq!(
            (move_text(PASS), move_text(NO_MOVE), move_text(0)),
            ("PA".into(), "--".into(), "A1".into())
        );
    }

    #[test]
    fn damage_is_named() {
        let bytes = encode(&sample());
        let short = parse(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(
            short.contains("truncated") && short.contains("position 1"),
            "{short}"
        );
        let mut v5 = bytes.clone();
        v5[8] = 5;
        assert!(parse(&v5).unwrap_err().contains("version 5"));
        assert!(parse(b"EDAXBOOK").unwrap_err().contains("signature"));
        let mut count = bytes;
        count[38] = 0;
        assert!(parse(&count).unwrap_err().contains("claims 0 positions"));
    }
}
