//! Building a book from games: filter, replay in parallel, aggregate every canonical position
//! and move, build the line trie, prune. The result does not depend on game order or threads.
//!
//! Aggregation sorts compact per-ply records into hash buckets instead of updating a shared
//! hash map: the table must end up sorted by hash anyway, buckets sort independently on every
//! core, and there is no per-position allocation or lock.

use crate::board::{Board, Color, Move, Position, Square, Symmetry};
use crate::book::data::{
    pos_entry, trie_from_sorted_lines, BookData, BookInfo, MoveEntry, NodeEntry, PosEntry, Source,
    ROOT_CODE,
};
use crate::book::games::GameTable;
use crate::book::key::{map_code, move_code, Canonical, Key};
use crate::book::options::{BuildOptions, GameFilter, PlayerColor};
use crate::book::stats::{Outcome, Stats};
use crate::book::BookError;
use crate::transcript::people::fold;
use crate::transcript::GameRecord;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Move code of a record for a position where the game stops (end or depth reached).
const NO_MOVE: u8 = 255;

/// What happened to the games given to [`build`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Games given.
    pub games_read: u64,
    /// Games used.
    pub games_used: u64,
    /// Games left out by the filters.
    pub filtered_out: u64,
    /// Games left out because they do not start from the standard position.
    pub other_start: u64,
}

/// One ply of one game: the canonical position, the move played there, the game's result.
/// 24 bytes: there are tens of millions of them.
#[derive(Clone, Copy)]
struct Rec {
    player: u64,
    opponent: u64,
    code: u8,
    /// 0 unknown result, 1 known (then `diff` is the mover's disc difference).
    known: u8,
    diff: i8,
}

impl Rec {
    fn stats(&self) -> Stats {
        if self.known == 0 {
            Outcome::Unknown.stats()
        } else {
            Outcome::Known(self.diff).stats()
        }
    }
}

impl GameFilter {
    /// Whether a game passes the filter.
    #[must_use]
    pub fn accepts(&self, g: &GameRecord) -> bool {
        self.accepts_parts(g.complete, g.year, |field| {
            let (name, pattern) = match field {
                NameField::Black => (&g.black, self.player()),
                NameField::White => (&g.white, self.player()),
                NameField::Event => (&g.event, self.event()),
            };
            match (name, pattern) {
                (Some(n), Some(p)) => name_matches(n, p),
                _ => false,
            }
        })
    }

    /// The filter's decision for a game played to the end or not, in `year`, whose names
    /// are tested by `matches` (whether the game's name in that field contains the filter's
    /// text for it: `player` for black and white, `event` for the event). The one place the
    /// filter's rules live: building tests game records, queries test a book's game table.
    pub fn accepts_parts(
        &self,
        complete: bool,
        year: Option<u16>,
        matches: impl Fn(NameField) -> bool,
    ) -> bool {
        if self.complete_only() && !complete {
            return false;
        }
        if let Some(years) = self.years() {
            if !year.is_some_and(|y| years.contains(y)) {
                return false;
            }
        }
        if self.event().is_some() && !matches(NameField::Event) {
            return false;
        }
        if self.player().is_some() {
            let ok = match self.player_color() {
                PlayerColor::Black => matches(NameField::Black),
                PlayerColor::White => matches(NameField::White),
                PlayerColor::Either => matches(NameField::Black) || matches(NameField::White),
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// A name of a game that a [`GameFilter`] looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameField {
    /// Black's name.
    Black,
    /// White's name.
    White,
    /// The event's name.
    Event,
}

/// Whether `name` contains `pattern`, case and accents ignored (`Petre` finds `Éric Pétré`).
#[must_use]
pub fn name_matches(name: &str, pattern: &str) -> bool {
    fold(name).contains(&fold(pattern))
}

/// Builds a book from `games`. `created` is stored as the book's date (pass a value derived
/// from the inputs, not the clock, to keep builds reproducible). `progress` is called with
/// the number of games just processed.
pub fn build(
    games: &[GameRecord],
    options: &BuildOptions,
    created: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(BookData, BuildReport), BookError> {
    build_kept(games, options, created, progress, &|_| true)
}

/// Which positions a build may keep, by their stable hash: the others, known to fall short
/// of `--min-games` over the whole input, are left out, and each game's line ends before the
/// first of them (no longer line through it can reach the minimum either).
pub(crate) type Keep<'a> = &'a (dyn Fn(u64) -> bool + Sync);

/// [`build`] with the positions left out that `keep` rejects (see [`Keep`]).
pub(crate) fn build_kept(
    games: &[GameRecord],
    options: &BuildOptions,
    created: u64,
    progress: &(dyn Fn(u64) + Sync),
    keep: Keep<'_>,
) -> Result<(BookData, BuildReport), BookError> {
    let plies = usize::from(options.plies());
    let (used, sources, report) = choose_games(games, options)?;
    // Lines for the trie and per-ply records for the position table, per part of the input.
    let expected: usize = used.iter().map(|g| g.moves.len().min(plies) + 1).sum();
    let bucket_bits = (expected / 16384).max(1).ilog2().min(12);
    let parts = replay_parts(&used, (plies, keep), bucket_bits, progress)?;
    let (positions, moves) = position_table(&parts, 1 << bucket_bits, options.min_games())?;
    let nodes = line_trie(parts, used.len(), plies, options.min_games())?;
    let info = BookInfo {
        created,
        options: options.clone(),
        games: report.games_used,
        sources,
        evaluation: None,
    };
    Ok((
        BookData {
            info,
            positions,
            moves,
            nodes,
            games: Some(GameTable::from_records(used.iter().copied())),
            game_index: true,
        },
        report,
    ))
}

/// The games a book of `options` uses, in their order; the games read and used from each
/// input file; and what happened to the games.
fn choose_games<'a>(
    games: &'a [GameRecord],
    options: &BuildOptions,
) -> Result<(Vec<&'a GameRecord>, Vec<Source>, BuildReport), BookError> {
    let mut report = BuildReport {
        games_read: games.len() as u64,
        ..BuildReport::default()
    };
    let mut sources = BTreeMap::<&str, (u64, u64)>::new();
    let mut used: Vec<&GameRecord> = Vec::with_capacity(games.len());
    for g in games {
        let entry = sources.entry(&g.source.file).or_default();
        entry.0 += 1;
        if g.start != Position::START {
            report.other_start += 1;
        } else if !options.filter().accepts(g) {
            report.filtered_out += 1;
        } else {
            entry.1 += 1;
            used.push(g);
        }
    }
    report.games_used = used.len() as u64;
    if used.len() > u32::MAX as usize {
        return Err(BookError::Options("more than 2^32 games".into()));
    }
    let sources = sources
        .into_iter()
        .map(|(name, (games_read, games_used))| Source {
            name: name.to_string(),
            games_read,
            games_used,
        })
        .collect();
    Ok((used, sources, report))
}

/// What replaying one part of the games gives: each bucket's records, each game's line
/// (`plies` codes) and each game's outcome.
type Part = (Vec<Vec<Rec>>, Vec<u8>, Vec<Outcome>);

/// Replays `used` in parts, in parallel, up to `plies` and the first position `keep`
/// rejects: the records of every position, sorted into `2^bucket_bits` buckets by hash, and
/// every game's line and outcome.
fn replay_parts(
    used: &[&GameRecord],
    (plies, keep): (usize, Keep<'_>),
    bucket_bits: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Part>, BookError> {
    let buckets = 1usize << bucket_bits;
    let parts = (rayon::current_num_threads() * 4).clamp(1, used.len().max(1));
    let part_len = used.len().div_ceil(parts).max(1);
    used.par_chunks(part_len)
        .map(|chunk| -> Result<Part, BookError> {
            let count: usize = chunk.iter().map(|g| g.moves.len().min(plies) + 1).sum();
            let per_bucket = count / buckets + count / buckets / 8 + 16;
            let mut recs: Vec<Vec<Rec>> = (0..buckets)
                .map(|_| Vec::with_capacity(per_bucket))
                .collect();
            let mut rows = vec![ROOT_CODE; chunk.len() * plies];
            let mut outcomes = Vec::with_capacity(chunk.len());
            for (gi, g) in chunk.iter().enumerate() {
                let outcome = Outcome::from_disc_diff(g.result.as_ref().map(|r| r.disc_diff));
                outcomes.push(outcome);
                walk(
                    g,
                    (plies, keep),
                    outcome,
                    bucket_bits,
                    &mut recs,
                    &mut rows[gi * plies..],
                )?;
                if gi % 1024 == 1023 {
                    progress(1024);
                }
            }
            progress(chunk.len() as u64 % 1024);
            Ok((recs, rows, outcomes))
        })
        .collect()
}

/// The position and move tables: each bucket's records from every part aggregated in
/// parallel, moves of fewer than `min` games left out, the buckets in hash order.
fn position_table(
    parts: &[Part],
    buckets: usize,
    min: u32,
) -> Result<(Vec<PosEntry>, Vec<MoveEntry>), BookError> {
    let tables: Vec<(Vec<PosEntry>, Vec<MoveEntry>)> = (0..buckets)
        .into_par_iter()
        .map(|b| {
            let total: usize = parts.iter().map(|p| p.0[b].len()).sum();
            let mut recs = Vec::with_capacity(total);
            for p in parts {
                recs.extend_from_slice(&p.0[b]);
            }
            aggregate(recs, min)
        })
        .collect();
    let mut positions = Vec::with_capacity(tables.iter().map(|t| t.0.len()).sum());
    let mut moves = Vec::with_capacity(tables.iter().map(|t| t.1.len()).sum());
    for (ps, ms) in tables {
        let offset = u32::try_from(moves.len())
            .map_err(|_| BookError::Options("more than 2^32 moves".into()))?;
        positions.extend(ps.into_iter().map(|mut p| {
            p.first_move += offset;
            p
        }));
        moves.extend(ms);
    }
    Ok((positions, moves))
}

/// The line trie of the `games` games' lines (`plies` codes each): the lines sorted, each
/// prefix's statistics summed, lines of fewer than `min` games left out.
fn line_trie(
    parts: Vec<Part>,
    games: usize,
    plies: usize,
    min: u32,
) -> Result<Vec<NodeEntry>, BookError> {
    let mut rows = Vec::with_capacity(games * plies);
    let mut outcomes = Vec::with_capacity(games);
    for (_, r, o) in parts {
        rows.extend(r);
        outcomes.extend(o);
    }
    let mut order: Vec<u32> = (0..games as u32).collect();
    order.par_sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize * plies, b as usize * plies);
        rows[a..a + plies].cmp(&rows[b..b + plies])
    });
    let mut prefix = Vec::with_capacity(order.len() + 1);
    let mut sum = Stats::default();
    prefix.push(sum);
    for &i in &order {
        sum = sum
            .checked_add(&outcomes[i as usize].stats())
            .ok_or_else(|| BookError::Options("game counts overflow".into()))?;
        prefix.push(sum);
    }
    Ok(trie_from_sorted_lines(&rows, plies, &order, &prefix, min))
}

/// Replays one game: one record per position up to `plies`, and its normalised line.
fn walk(
    g: &GameRecord,
    (plies, keep): (usize, Keep<'_>),
    outcome: Outcome,
    bucket_bits: u32,
    recs: &mut [Vec<Rec>],
    row: &mut [u8],
) -> Result<(), BookError> {
    let n = g.moves.len().min(plies);
    let norm = match g.moves.first() {
        Some(Move::Play(first)) => Symmetry::START
            .into_iter()
            .find(|s| s.square(*first) == Square::F5)
            .unwrap_or(Symmetry::Identity),
        _ => Symmetry::Identity,
    };
    let mut board = Board::START;
    let mut side = Color::Black;
    let mut line = true;
    // No position can repeat within a game: discs only increase, and a pass cannot lead to a
    // symmetric image of the same board (the image would have no move for either side). So
    // each game is counted once per position without checking.
    #[allow(clippy::needless_range_loop)] // `i` also indexes `g.moves` and ends at n inclusive
    for i in 0..=n {
        let c = Canonical::of(&board);
        let code = if i < n {
            c.code_of(g.moves[i])
        } else {
            NO_MOVE
        };
        let mover = if side == Color::Black {
            outcome
        } else {
            outcome.flipped()
        };
        let Key { player, opponent } = c.key;
        let hash = crate::book::key::stable_hash(c.key);
        if !keep(hash) {
            // The line ends before this position: the move that led here is taken back.
            if line && i > 0 {
                row[i - 1] = ROOT_CODE;
            }
            line = false;
        } else {
            let bucket = if bucket_bits == 0 {
                0
            } else {
                (hash >> (64 - bucket_bits)) as usize
            };
            recs[bucket].push(Rec {
                player,
                opponent,
                code,
                known: u8::from(mover != Outcome::Unknown),
                diff: match mover {
                    Outcome::Known(d) => d,
                    Outcome::Unknown => 0,
                },
            });
        }
        if i < n {
            let mv = g.moves[i];
            if line {
                row[i] = map_code(norm, move_code(mv));
            }
            board = board.play_move(mv).map_err(|reason| BookError::Game {
                game: g.source.to_string(),
                ply: i + 1,
                reason: format!("{mv} is illegal: {reason}"),
            })?;
            side = side.opposite();
        }
    }
    Ok(())
}

/// Sorts one bucket's records and sums them into positions and moves, pruned at `min`;
/// positions come out sorted by `(hash, key)`.
fn aggregate(mut recs: Vec<Rec>, min: u32) -> (Vec<PosEntry>, Vec<MoveEntry>) {
    recs.sort_unstable_by(|a, b| {
        (a.player, a.opponent, a.code).cmp(&(b.player, b.opponent, b.code))
    });
    let min = u64::from(min);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < recs.len() {
        let r = recs[i];
        let mut j = i;
        while j < recs.len() && recs[j].player == r.player && recs[j].opponent == r.opponent {
            j += 1;
        }
        // Records of one position: fold them into the position and its moves.
        if (j - i) as u64 >= min {
            let first_move = moves.len() as u32;
            let mut total = Stats::default();
            let mut k = i;
            while k < j {
                let code = recs[k].code;
                let mut s = Stats::default();
                while k < j && recs[k].code == code {
                    s = s.plus(&recs[k].stats());
                    k += 1;
                }
                total = total.plus(&s);
                if code != NO_MOVE && s.games() >= min {
                    moves.push(MoveEntry { code, stats: s });
                }
            }
            let key = Key {
                player: r.player,
                opponent: r.opponent,
            };
            let count = (moves.len() as u32 - first_move) as u16;
            positions.push(pos_entry(key, total, first_move, count));
        }
        i = j;
    }
    drop(recs);
    positions.sort_unstable_by_key(|p| (p.hash, p.key));
    let mut sorted_moves = Vec::with_capacity(moves.len());
    for p in &mut positions {
        let start = p.first_move as usize;
        p.first_move = sorted_moves.len() as u32;
        sorted_moves.extend_from_slice(&moves[start..start + p.move_count as usize]);
    }
    (positions, sorted_moves)
}
