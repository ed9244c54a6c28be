//! Games kept on disk between the two passes of a build that filters out positions seen
//! once: each game written whole (start, moves, result, names, where it was read), in the
//! order given, and read back in batches. File names are written once each and then by
//! number.

use super::temp::{spill_error, TempFile};
use crate::board::{Board, Color, Move, Position, Square};
use crate::book::BookError;
use crate::transcript::{GameRecord, GameResult, Location, SourceRef};
use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// Games written to a temporary file.
pub(super) struct Spool {
    file: TempFile,
    files: HashMap<Arc<str>, u32>,
    games: u64,
    buf: Vec<u8>,
}

/// Tag of a file named for the first time (its name follows), and of a known one.
const NEW_FILE: u8 = 1;
const KNOWN_FILE: u8 = 0;

impl Spool {
    pub fn create(folder: &Path) -> Result<Spool, BookError> {
        Ok(Spool {
            file: TempFile::create(folder, "read-games.tmp", "the games read")?,
            files: HashMap::new(),
            games: 0,
            buf: Vec::with_capacity(1 << 12),
        })
    }

    /// Games written so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn put(&mut self, g: &GameRecord) -> Result<(), BookError> {
        let b = &mut self.buf;
        b.clear();
        match self.files.get(&g.source.file) {
            Some(&n) => {
                b.push(KNOWN_FILE);
                b.extend_from_slice(&n.to_le_bytes());
            }
            None => {
                let n = self.files.len() as u32;
                self.files.insert(g.source.file.clone(), n);
                b.push(NEW_FILE);
                put_str(b, &g.source.file);
            }
        }
        let (tag, at) = match g.source.location {
            Location::Line(n) => (0u8, n),
            Location::Record(n) => (1, n),
        };
        b.push(tag);
        b.extend_from_slice(&at.to_le_bytes());
        b.extend_from_slice(&g.start.board.player().0.to_le_bytes());
        b.extend_from_slice(&g.start.board.opponent().0.to_le_bytes());
        b.push(u8::from(g.start.side == Color::White));
        b.extend_from_slice(&(g.moves.len() as u32).to_le_bytes());
        b.extend(g.moves.iter().map(|m| m.square().map_or(64, Square::index)));
        match &g.result {
            Some(r) => {
                b.push(1);
                b.extend_from_slice(&r.disc_diff.to_le_bytes());
                put_str(b, &r.raw);
            }
            None => b.push(0),
        }
        for name in [&g.black, &g.white, &g.event, &g.place, &g.date] {
            match name {
                Some(n) => {
                    b.push(1);
                    put_str(b, n);
                }
                None => b.push(0),
            }
        }
        match g.year {
            Some(y) => {
                b.push(1);
                b.extend_from_slice(&y.to_le_bytes());
            }
            None => b.push(0),
        }
        b.push(u8::from(g.complete));
        self.games += 1;
        let bytes = std::mem::take(&mut self.buf);
        let result = self.file.put(&bytes);
        self.buf = bytes;
        result
    }

    /// The games written, read back from the start.
    pub fn reader(&mut self) -> Result<SpoolReader, BookError> {
        let path = self.file.path.clone();
        Ok(SpoolReader {
            input: BufReader::with_capacity(super::temp::IO_BUFFER, self.file.reopen()?),
            files: Vec::new(),
            left: self.games,
            fail: Box::new(move |e| spill_error(&path, "the games read", e)),
        })
    }
}

fn put_str(b: &mut Vec<u8>, s: &str) {
    b.extend_from_slice(&(s.len() as u32).to_le_bytes());
    b.extend_from_slice(s.as_bytes());
}

/// Reads the games of a [`Spool`] in the order written.
pub(super) struct SpoolReader {
    input: BufReader<std::fs::File>,
    files: Vec<Arc<str>>,
    left: u64,
    fail: Box<dyn Fn(std::io::Error) -> BookError + Send>,
}

impl SpoolReader {
    /// The next game, `None` after the last.
    pub fn next(&mut self) -> Result<Option<GameRecord>, BookError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.game().map(Some).map_err(|e| (self.fail)(e))
    }

    fn game(&mut self) -> std::io::Result<GameRecord> {
        let file = match self.u8()? {
            NEW_FILE => {
                let name: Arc<str> = Arc::from(self.string()?);
                self.files.push(name.clone());
                name
            }
            _ => {
                let n = u32::from_le_bytes(self.array()?) as usize;
                self.files
                    .get(n)
                    .cloned()
                    .ok_or_else(|| damaged("file number"))?
            }
        };
        let location = match (self.u8()?, u64::from_le_bytes(self.array()?)) {
            (0, n) => Location::Line(n),
            (_, n) => Location::Record(n),
        };
        let player = u64::from_le_bytes(self.array()?);
        let opponent = u64::from_le_bytes(self.array()?);
        if player & opponent != 0 {
            return Err(damaged("board"));
        }
        let side = if self.u8()? == 1 {
            Color::White
        } else {
            Color::Black
        };
        let n = u32::from_le_bytes(self.array()?) as usize;
        let mut codes = vec![0u8; n];
        self.input.read_exact(&mut codes)?;
        let moves = codes
            .iter()
            .map(|&c| match c {
                64 => Ok(Move::Pass),
                c => Square::from_index(c)
                    .map(Move::Play)
                    .ok_or_else(|| damaged("move")),
            })
            .collect::<std::io::Result<Vec<Move>>>()?;
        let result = match self.u8()? {
            0 => None,
            _ => Some(GameResult {
                disc_diff: i32::from_le_bytes(self.array()?),
                raw: self.string()?,
            }),
        };
        let mut names: [Option<String>; 5] = Default::default();
        for name in &mut names {
            if self.u8()? == 1 {
                *name = Some(self.string()?);
            }
        }
        let year = match self.u8()? {
            0 => None,
            _ => Some(u16::from_le_bytes(self.array()?)),
        };
        let complete = self.u8()? == 1;
        let [black, white, event, place, date] = names;
        Ok(GameRecord {
            start: Position {
                board: Board::from_bits(player, opponent),
                side,
            },
            moves,
            result,
            black,
            white,
            event,
            place,
            date,
            year,
            source: SourceRef { file, location },
            complete,
        })
    }

    fn u8(&mut self) -> std::io::Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn array<const N: usize>(&mut self) -> std::io::Result<[u8; N]> {
        let mut a = [0u8; N];
        self.input.read_exact(&mut a)?;
        Ok(a)
    }

    fn string(&mut self) -> std::io::Result<String> {
        let n = u32::from_le_bytes(self.array()?) as usize;
        let mut v = vec![0u8; n];
        self.input.read_exact(&mut v)?;
        String::from_utf8(v).map_err(|_| damaged("text"))
    }
}

fn damaged(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("the temporary file of games is damaged ({what})"),
    )
}

#[cfg(test)]
mod tests {
    use super::Spool;
    use crate::board::{Move, Position};
    use crate::book::tests::random_game;
    use crate::transcript::{GameResult, Location};

    /// Every field of a game comes back as written: names, result, passes, where it was
    /// read, a set-up start.
    #[test]
    fn games_come_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut games: Vec<_> = (0..20u64)
            .map(|s| random_game(s, 60, ["a.gam", "b.wtb"][(s % 2) as usize]))
            .collect();
        games[1].black = Some("Éric Pétré".into());
        games[1].white = Some(String::new());
        games[1].event = Some("Open".into());
        games[1].place = Some("Paris".into());
        games[1].date = Some("1999-05-01".into());
        games[1].year = Some(1999);
        games[1].complete = true;
        games[2].result = Some(GameResult {
            disc_diff: -64,
            raw: "0-64".into(),
        });
        games[6].result = None;
        games[3].moves.push(Move::Pass);
        games[4].source.location = Location::Record(7);
        games[5].start = Position::START.play(games[5].moves[0]).unwrap();
        let mut spool = Spool::create(dir.path()).unwrap();
        for g in &games {
            spool.put(g).unwrap();
        }
        let mut r = spool.reader().unwrap();
        let mut back = Vec::new();
        while let Some(g) = r.next().unwrap() {
            back.push(g);
        }
        assert_eq!(back, games);
    }
}
