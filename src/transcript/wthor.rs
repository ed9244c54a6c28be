//! WTHOR binary databases: `.wtb` games (16-byte header, 68-byte records), player names in
//! `WTHOR.JOU` and tournament names in `WTHOR.TRN` beside them. Reader (memory-mapped by the
//! caller) and writer.

use super::raw::{Parsed, RawGame, RawIssue, RawMove, RawResult};
use super::record::{GameRecord, Location};
use super::summary::SkipReason;
use crate::board::{Move, Position, Square};
use std::io;
use std::path::{Path, PathBuf};

/// Header size of every WTHOR file.
pub const HEADER: usize = 16;
/// Size of one game record.
pub const RECORD: usize = 68;
/// Size of one player name in `WTHOR.JOU`.
pub const PLAYER: usize = 20;
/// Size of one tournament name in `WTHOR.TRN`.
pub const TOURNAMENT: usize = 26;

/// The fields of a `.wtb` header that matter here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Header {
    pub games: u32,
    pub year: u16,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Whether the bytes look like a `.wtb` file (8x8 games, size consistent with the count,
/// possibly cut short).
pub(crate) fn looks_like_wtb(bytes: &[u8]) -> bool {
    if bytes.len() < HEADER || !matches!(bytes[12], 0 | 8) || bytes[13] != 0 {
        return false;
    }
    let n = u32_at(bytes, 4) as usize;
    let body = bytes.len() - HEADER;
    let have = body / RECORD;
    // Whole records as announced, or fewer than announced (a cut file, reported per record).
    (body.is_multiple_of(RECORD) && have == n) || have < n
}

/// Whether `path` names a WTHOR companion file (`WTHOR.JOU`, `WTHOR.TRN`), read with the
/// `.wtb` files beside it rather than on its own.
pub(crate) fn is_companion(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.eq_ignore_ascii_case("wthor.jou") || n.eq_ignore_ascii_case("wthor.trn"))
}

/// The header and the record area; records beyond what the file holds are reported by the
/// caller as truncated.
pub(crate) fn header(bytes: &[u8]) -> Result<Header, String> {
    if !looks_like_wtb(bytes) {
        return Err(if bytes.len() < HEADER {
            format!(
                "not a WTHOR .wtb file: {} bytes, shorter than the header",
                bytes.len()
            )
        } else {
            format!(
                "not a WTHOR .wtb file: header says {} games (board size {}, type {}) but the file has {} bytes",
                u32_at(bytes, 4),
                bytes[12],
                bytes[13],
                bytes.len()
            )
        });
    }
    Ok(Header {
        games: u32_at(bytes, 4),
        year: u16_at(bytes, 10),
    })
}

/// Player and tournament names for the `.wtb` files of one folder.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub players: Vec<String>,
    pub tournaments: Vec<String>,
}

impl Names {
    /// Reads `WTHOR.JOU` and `WTHOR.TRN` from `dir` (any case); missing files give no names.
    pub(crate) fn load(dir: &Path) -> Names {
        Names {
            players: find_beside(dir, "wthor.jou")
                .and_then(|p| read_names_file(&p, PLAYER).ok())
                .map_or_else(Vec::new, |b| read_names(&b, PLAYER)),
            tournaments: find_beside(dir, "wthor.trn")
                .and_then(|p| read_names_file(&p, TOURNAMENT).ok())
                .map_or_else(Vec::new, |b| read_names(&b, TOURNAMENT)),
        }
    }
}

/// The bytes of a names file, never more than its header's 16-bit count allows (a device or
/// pipe named like one must not be read forever).
fn read_names_file(path: &Path, size: usize) -> io::Result<Vec<u8>> {
    let most = (HEADER + usize::from(u16::MAX) * size) as u64;
    crate::bounded_read::read_capped(path, most).map_err(io::Error::other)
}

fn find_beside(dir: &Path, lower_name: &str) -> Option<PathBuf> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().to_ascii_lowercase() == lower_name)
        .map(|e| e.path())
}

fn read_names(bytes: &[u8], size: usize) -> Vec<String> {
    if bytes.len() < HEADER {
        return Vec::new();
    }
    let n = u16_at(bytes, 8) as usize;
    bytes[HEADER..]
        .chunks_exact(size)
        .take(n)
        .map(decode_name)
        .collect()
}

/// One NUL-padded Latin-1 name record as text.
fn decode_name(rec: &[u8]) -> String {
    let end = rec.iter().position(|&b| b == 0).unwrap_or(rec.len());
    // Latin-1: every byte is the code point of the same value.
    rec[..end]
        .iter()
        .map(|&b| b as char)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Decodes one 68-byte record (1-based `index`).
pub(crate) fn parse_record(rec: &[u8], index: u64, names: &Names, year: u16) -> Parsed {
    let location = Location::Record(index);
    if rec.len() < RECORD {
        return Err(RawIssue::syntax(
            location,
            format!("record has {} of {RECORD} bytes", rec.len()),
        )
        .with_reason(SkipReason::Truncated));
    }
    let mut game = RawGame::new(location);
    let mut ended = false;
    game.moves.reserve(60);
    for (k, &b) in rec[8..RECORD].iter().enumerate() {
        if b == 0 {
            ended = true;
            continue;
        }
        let (row, col) = (b / 10, b % 10);
        let sq = (1..=8)
            .contains(&row)
            .then(|| Square::from_coords(col.wrapping_sub(1), row - 1))
            .flatten();
        match sq {
            Some(sq) if !ended => game.moves.push(RawMove::new(Move::Play(sq))),
            _ => {
                return Err(RawIssue {
                    ply: Some(k + 1),
                    mv: Some(b.to_string()),
                    ..RawIssue::syntax(
                        location,
                        if ended {
                            format!("move byte {b} after the end marker 0")
                        } else {
                            format!("move byte {b} is not a square (11..88)")
                        },
                    )
                })
            }
        }
    }
    let (real, theoretical) = (rec[6], rec[7]);
    if real > 64 {
        return Err(RawIssue::syntax(
            location,
            format!("real score {real} is above 64"),
        ));
    }
    game.result = Some(RawResult {
        disc_diff: 2 * i32::from(real) - 64,
        raw: format!("{real}/{theoretical}"),
        winner_only: false,
    });
    let name =
        |list: &[String], i: u16| list.get(usize::from(i)).filter(|s| !s.is_empty()).cloned();
    game.event = name(&names.tournaments, u16_at(rec, 0));
    game.black = name(&names.players, u16_at(rec, 2));
    game.white = name(&names.players, u16_at(rec, 4));
    if year != 0 {
        game.year = Some(year);
    }
    Ok(game)
}

/// The theoretical score kept in a WTHOR `raw` result (`real/theoretical`), if any.
fn theoretical(raw: &str) -> Option<u8> {
    let (a, b) = raw.split_once('/')?;
    a.parse::<u8>().ok()?;
    b.parse().ok().filter(|t| *t <= 64)
}

fn latin1(s: &str, size: usize) -> Vec<u8> {
    let mut out: Vec<u8> = s
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .take(size - 1)
        .collect();
    out.resize(size, 0);
    out
}

fn header_bytes(n1: u32, n2: u16, year: u16, depth: u8) -> [u8; HEADER] {
    let (y, m, d) = today();
    let mut h = [0u8; HEADER];
    h[0] = (y / 100) as u8;
    h[1] = (y % 100) as u8;
    h[2] = m;
    h[3] = d;
    h[4..8].copy_from_slice(&n1.to_le_bytes());
    h[8..10].copy_from_slice(&n2.to_le_bytes());
    h[10..12].copy_from_slice(&year.to_le_bytes());
    h[12] = 8;
    h[14] = depth;
    h
}

/// Today's date (UTC) as (year, month, day), for the header's creation date.
fn today() -> (u32, u8, u8) {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = crate::utc::civil_from_days(days);
    (y as u32, m, d)
}

/// Why a game cannot be written as WTHOR, if so.
pub(crate) fn unwritable(g: &GameRecord) -> Option<&'static str> {
    if g.start != Position::START {
        Some("WTHOR holds only games from the standard start")
    } else if g.moves.iter().filter(|m| !m.is_pass()).count() > 60 {
        Some("more than 60 moves")
    } else {
        None
    }
}

/// A names file (`WTHOR.JOU` or `WTHOR.TRN`) as it will be written: the records already in
/// the folder's file, kept byte for byte so that the `.wtb` files beside it keep their names,
/// and the names this write adds after them.
struct NameList {
    path: PathBuf,
    size: usize,
    /// The existing file's records (without its header).
    existing: Vec<u8>,
    added: Vec<String>,
    index: std::collections::HashMap<String, u16>,
}

impl NameList {
    /// The names file `file_name` in `dir`, read if it exists (any case).
    fn open(dir: &Path, file_name: &str, size: usize) -> io::Result<NameList> {
        let found = find_beside(dir, &file_name.to_ascii_lowercase());
        let mut list = NameList {
            path: found.clone().unwrap_or_else(|| dir.join(file_name)),
            size,
            existing: Vec::new(),
            added: Vec::new(),
            index: std::collections::HashMap::new(),
        };
        let Some(path) = found else {
            return Ok(list);
        };
        let bytes = read_names_file(&path, size)?;
        let n = (bytes.len() >= HEADER).then(|| usize::from(u16_at(&bytes, 8)));
        let Some(n) = n.filter(|n| bytes.len() >= HEADER + n * size) else {
            return Err(io::Error::other(format!(
                "{} is not a WTHOR names file ({} bytes); it names the players or tournaments \
                 of the .wtb files beside it, so it is left as it is and nothing is written",
                path.display(),
                bytes.len()
            )));
        };
        list.existing = bytes[HEADER..HEADER + n * size].to_vec();
        for (i, name) in read_names(&bytes, size).into_iter().enumerate() {
            // `n` came from a u16, so every index fits.
            list.index.entry(name).or_insert(i as u16);
        }
        Ok(list)
    }

    /// The index of `name` (`?` when unknown), added if the file does not have it yet.
    fn intern(&mut self, name: Option<&str>) -> io::Result<u16> {
        // Compare names as the file will hold them (Latin-1, cut to the record size).
        let key = decode_name(&latin1(name.unwrap_or("?"), self.size));
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        let i = u16::try_from(self.existing.len() / self.size + self.added.len())
            .map_err(|_| io::Error::other("more than 65,535 names: WTHOR cannot index them"))?;
        self.index.insert(key.clone(), i);
        self.added.push(key);
        Ok(i)
    }

    /// The file's new contents, or `None` when this write adds nothing to an existing file.
    fn contents(&self) -> Option<Vec<u8>> {
        if self.added.is_empty() && !self.existing.is_empty() {
            return None;
        }
        let count = self.existing.len() / self.size + self.added.len();
        let mut out = Vec::with_capacity(HEADER + (count * self.size));
        // `intern` hands out at most 65,536 indices, so the count fits.
        out.extend_from_slice(&header_bytes(0, count as u16, 0, 0));
        out.extend_from_slice(&self.existing);
        for n in &self.added {
            out.extend_from_slice(&latin1(n, self.size));
        }
        Some(out)
    }
}

/// Writes `games` (all writable, see [`unwritable`]) as a `.wtb` at `path`. Player and
/// tournament names go to `WTHOR.JOU` and `WTHOR.TRN` in the same folder: names those files
/// already hold keep their index, new ones are added at the end, so the other `.wtb` files of
/// the folder keep their names. Returns notes on what the format could not hold exactly.
pub(crate) fn write(games: &[&GameRecord], path: &Path) -> io::Result<Vec<String>> {
    let dir = path.parent().unwrap_or(Path::new(""));
    // Names are read, added to and written back: another writer in the same folder meanwhile
    // would lose its names or give ours its indices.
    let _names_lock = crate::output_lock::lock(&dir.join("WTHOR.JOU"))?;
    let mut players = NameList::open(dir, "WTHOR.JOU", PLAYER)?;
    let mut tournaments = NameList::open(dir, "WTHOR.TRN", TOURNAMENT)?;
    let mut records = Vec::with_capacity(games.len() * RECORD);
    let mut years = std::collections::BTreeMap::<u16, usize>::new();
    let mut all_theoretical = true;
    let (mut unknown, mut odd) = (0, 0);
    for g in games {
        let t = tournaments.intern(g.event.as_deref())?;
        let b = players.intern(g.black.as_deref())?;
        let w = players.intern(g.white.as_deref())?;
        let real = match &g.result {
            Some(r) => {
                // Black's discs can only give an even margin: an odd one (a winner-only or
                // resigned result) is widened by one disc so that the winner stays the same.
                let d = r.disc_diff.clamp(-64, 64);
                odd += usize::from(d % 2 != 0);
                ((d + d % 2 + 64) / 2) as u8
            }
            None => {
                // WTHOR has no "unknown": a finished game gets the board's score, an
                // unfinished one a draw (32) rather than a made-up margin.
                let end = g.start.replay(g.moves.iter().copied()).map(|r| r.end);
                match end {
                    Ok(end) if g.complete => ((end.final_score_black() + 64) / 2) as u8,
                    _ => {
                        unknown += 1;
                        32
                    }
                }
            }
        };
        let theo = g.result.as_ref().and_then(|r| theoretical(&r.raw));
        all_theoretical &= theo.is_some();
        records.extend_from_slice(&t.to_le_bytes());
        records.extend_from_slice(&b.to_le_bytes());
        records.extend_from_slice(&w.to_le_bytes());
        records.push(real);
        records.push(theo.unwrap_or(real));
        let mut mv = [0u8; 60];
        for (k, sq) in g.moves.iter().filter_map(|m| m.square()).enumerate() {
            mv[k] = 10 * (sq.row() + 1) + sq.column() + 1;
        }
        records.extend_from_slice(&mv);
        if let Some(y) = g.year {
            *years.entry(y).or_default() += 1;
        }
    }
    // One year per file in WTHOR: the most common one.
    let year = years.iter().max_by_key(|(_, n)| **n).map_or(0, |(y, _)| *y);
    let n1 = u32::try_from(games.len()).map_err(|_| io::Error::other("too many games"))?;
    let mut wtb = Vec::with_capacity(HEADER + records.len());
    wtb.extend_from_slice(&header_bytes(
        n1,
        0,
        year,
        if all_theoretical { 24 } else { 0 },
    ));
    wtb.extend_from_slice(&records);
    drop(records);
    let (jou, trn) = (players.contents(), tournaments.contents());
    // All three files or none: names without their games (a full disk) would be left over,
    // and games without their names would show the wrong players.
    let mut files: Vec<(&Path, &[u8])> = Vec::with_capacity(3);
    if let Some(bytes) = &jou {
        files.push((&players.path, bytes));
    }
    if let Some(bytes) = &trn {
        files.push((&tournaments.path, bytes));
    }
    files.push((path, &wtb));
    crate::atomic_file::replace_all(&files)?;
    let mut notes = Vec::new();
    if unknown > 0 {
        notes.push(format!(
            "{unknown} unfinished game{} without a result written as draws (32-32): WTHOR \
             has no unknown result",
            plural(unknown)
        ));
    }
    if odd > 0 {
        notes.push(format!(
            "{odd} result{} with an odd margin (winner only, or resigned) widened by one disc: \
             WTHOR stores disc counts",
            plural(odd)
        ));
    }
    if years.len() > 1 {
        notes.push(format!(
            "games of {} years labelled {year}: a WTHOR file has one year",
            years.len()
        ));
    }
    Ok(notes)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_decoding() {
        let mut rec = [0u8; RECORD];
        rec[2] = 1;
        rec[6] = 36;
        rec[7] = 34;
        rec[8] = 56; // f5: row 5, column 6
        rec[9] = 64; // d6
        let names = Names {
            players: vec!["a".into(), "b".into()],
            tournaments: vec!["t".into()],
        };
        let g = parse_record(&rec, 3, &names, 2021).unwrap();
        assert_eq!(g.moves[0].mv, Move::Play(Square::F5));
        assert_eq!(g.moves[1].mv, Move::Play(Square::D6));
        assert_eq!(g.result.as_ref().unwrap().disc_diff, 8);
        assert_eq!(g.result.unwrap().raw, "36/34");
        assert_eq!(
            (g.black.as_deref(), g.white.as_deref()),
            (Some("b"), Some("a"))
        );
        assert_eq!(g.event.as_deref(), Some("t"));
        rec[10] = 19;
        assert!(parse_record(&rec, 3, &names, 2021).is_err());
        rec[10] = 0;
        rec[11] = 11;
        assert!(parse_record(&rec, 3, &names, 2021).is_err());
    }

    #[test]
    fn date_is_plausible() {
        let (y, m, d) = today();
        assert!(y >= 2024 && (1..=12).contains(&m) && (1..=31).contains(&d));
    }
}
