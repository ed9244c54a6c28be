//! Edax positions to othbook's book and back: boards made canonical, moves turned into
//! canonical codes, scores between discs (Edax) and hundredths of a disc (othbook), and the
//! level of a leaf as its search depth (docs/interop.md).

use super::edax::{self, EdaxBook, Link, NO_MOVE, PASS, SCORE_INF};
use super::fields::{self, MAX_LEVEL};
use super::{ExportReport, ImportReport};
use crate::board::{Board, Move};
use crate::book::data::{pos_entry, BookData, BookInfo, MoveEntry, NodeEntry};
use crate::book::data::{Source, NO_PARENT, ROOT_CODE};
use crate::book::eval::{EvalInfo, Leaf, Score, ValueKind, SCORE_SCALE};
use crate::book::key::{code_move, Canonical, Key};
use crate::book::negamax::{board_of, playable_moves, Graph};
use crate::book::options::BuildOptions;
use crate::book::stats::Stats;

/// Discs of the empties Edax solves from at `level` (60 − `get_book_depth(level)` in Edax's
/// book.c): the `n_empties` option of a book Edax makes at that level.
#[must_use]
pub fn solved_empties(level: u8) -> u8 {
    match level {
        0..=10 => 2 * level,
        11..=18 => 21,
        19..=24 => 24,
        25..=29 => 27,
        30..=35 => 30,
        36..=41 => level - 6,
        _ => 36,
    }
}

/// A move byte of a position record as an othbook move on `board`, if it is legal there.
fn legal_move(board: &Board, mv: u8) -> Option<Move> {
    let m = code_move(mv)?;
    board.play_move(m).ok().map(|_| m)
}

/// The othbook book of an Edax book: positions with their links as moves (no games), leaves
/// and values as the file gives them (values negamaxed only where it gives none), and what
/// `book fix` would change counted.
pub fn to_data(book: EdaxBook, name: &str) -> Result<(BookData, ImportReport), String> {
    let mut report = ImportReport {
        positions: book.positions.len() as u64,
        ..ImportReport::default()
    };
    let mut entries = Vec::with_capacity(book.positions.len());
    let mut seen = ahash::AHashMap::with_capacity(book.positions.len());
    let mut file_values = ahash::AHashMap::with_capacity(book.positions.len());
    for (i, p) in book.positions.iter().enumerate() {
        let at = |why: String| format!("position {}: {why}", i + 1);
        if p.player & p.opponent != 0 {
            return Err(at("a square holds discs of both sides".into()));
        }
        let board = Board::from_bits(p.player, p.opponent);
        let c = Canonical::of(&board);
        if let Some(first) = seen.insert(c.key, i) {
            return Err(at(format!("the same board as position {}", first + 1)));
        }
        report.not_canonical += u64::from(c.key != key_of(&board));
        let mut codes = Vec::with_capacity(p.links.len());
        for l in &p.links {
            let mv = legal_move(&board, l.mv)
                .ok_or_else(|| at(format!("link move {} is not legal", l.mv)))?;
            codes.push(c.code_of(mv));
            report.bad_link_scores += u64::from(fields::discs(i32::from(l.score)).is_none());
        }
        report.links += codes.len() as u64;
        codes.sort_unstable();
        codes.dedup();
        let mut entry = pos_entry(c.key, Stats::default(), 0, 0);
        entry.eval.leaf = leaf_of(&board, &c, p).map_err(at)?;
        match fields::discs(i32::from(p.value)) {
            Some(v) => {
                file_values.insert(c.key, i16::from(v) * SCORE_SCALE as i16);
            }
            None => report.uncompared += 1,
        }
        entries.push((entry, codes));
    }
    let EdaxBook {
        header,
        positions: records,
        bad_levels,
    } = book;
    drop(records);
    entries.sort_by_key(|(e, _)| (e.hash, e.key));
    let mut positions = Vec::with_capacity(entries.len());
    let mut moves = Vec::with_capacity(report.links as usize);
    for (mut e, codes) in entries {
        e.first_move = moves.len() as u32;
        e.move_count = codes.len() as u16;
        moves.extend(codes.into_iter().map(|code| MoveEntry {
            code,
            stats: Stats::default(),
        }));
        positions.push(e);
    }
    let mut bad_levels = bad_levels;
    let level = bad_levels.level(header.options.level);
    report.bad_levels = bad_levels;
    let mut data = BookData {
        info: BookInfo {
            created: created_of(&header.date),
            // No games, so no lines of games: `top` says the book holds lines of 0 plies.
            options: BuildOptions::without_lines(),
            games: 0,
            sources: vec![Source {
                name: name.to_string(),
                games_read: 0,
                games_used: 0,
            }],
            evaluation: Some(EvalInfo {
                depth: level,
                exact_from: solved_empties(level),
                ..EvalInfo::default()
            }),
        },
        positions,
        moves,
        nodes: vec![root_node()],
        games: None,
        game_index: false,
    };
    settle(&mut data, &file_values, &mut report);
    report.dangling_links = dangling(&data);
    Ok((data, report))
}

/// Gives `data` the file's values (`file_values`, by key), negamaxing only those the file
/// lacks, and keeps its leaves; counts what `book fix` would change (leaves whose move
/// leads into the book, values that differ once negamaxed again) without changing it, so
/// that an import then export gives back every position with its values.
fn settle(data: &mut BookData, file_values: &ahash::AHashMap<Key, i16>, report: &mut ImportReport) {
    let graph = Graph::of(data);
    // `book fix` on the book itself, its values noted and its leaves then put back: a copy
    // of the book would double what an import holds.
    let leaves: Vec<_> = data.positions.iter().map(|p| p.eval.leaf).collect();
    report.stale = data.relink_with(&graph).stale;
    let fixed: Vec<Option<i16>> = data
        .positions
        .iter()
        .map(|p| p.eval.value.map(|s| s.score))
        .collect();
    for (p, leaf) in data.positions.iter_mut().zip(leaves) {
        p.eval.leaf = leaf;
    }
    data.fill_leaves(&graph);
    let given: Vec<Option<i16>> = data
        .positions
        .iter()
        .map(|p| file_values.get(&p.key).copied())
        .collect();
    (report.valued, _) = data.negamax_keeping(&graph, |i| given[i]);
    report.compared = file_values.len() as u64;
    report.value_differences = fixed
        .iter()
        .zip(&given)
        .filter(|(f, v)| v.is_some() && f != v)
        .count() as u64;
}

/// The trie of an imported book: the root alone (Edax books keep no lines of games).
fn root_node() -> NodeEntry {
    NodeEntry {
        parent: NO_PARENT,
        code: ROOT_CODE,
        stats: Stats::default(),
        first_child: 0,
        child_count: 0,
    }
}

fn key_of(board: &Board) -> Key {
    Key {
        player: board.player().0,
        opponent: board.opponent().0,
    }
}

/// Moves of the table whose position is not in the book (links to positions the file lacks).
fn dangling(data: &BookData) -> u64 {
    let index = data.key_index();
    let mut n = 0;
    for p in &data.positions {
        let board = board_of(p.key);
        let c = Canonical::of(&board);
        let start = p.first_move as usize;
        for m in &data.moves[start..start + p.move_count as usize] {
            let child = c
                .moves_of(m.code)
                .first()
                .and_then(|&mv| board.play_move(mv).ok());
            let known = child.is_some_and(|b| index.contains_key(&Canonical::of(&b).key));
            n += u64::from(!known);
        }
    }
    n
}

/// The leaf of a record: a legal move with a score, or none (move 65, or score −127).
fn leaf_of(board: &Board, c: &Canonical, p: &edax::Position) -> Result<Leaf, String> {
    let l = p.leaf;
    if i16::from(l.score) <= -SCORE_INF {
        return Ok(Leaf::Missing);
    }
    if fields::discs(i32::from(l.score)).is_none() {
        return Err(format!("leaf score {} is not a disc difference", l.score));
    }
    let score = Score {
        score: i16::from(l.score) * SCORE_SCALE as i16,
        depth: p.level,
        kind: ValueKind::Midgame,
    };
    if l.mv == NO_MOVE {
        // A score without its move, which Edax counts in the value as a leaf (a finished
        // game's score among them: relink makes those game-over leaves).
        return Ok(Leaf::ScoreOnly(score));
    }
    let mv = legal_move(board, l.mv).ok_or_else(|| format!("leaf move {} is not legal", l.mv))?;
    Ok(Leaf::Move {
        code: c.code_of(mv),
        score,
    })
}

/// Seconds since 1970 of the header's date, read as UTC (Edax writes local time without a
/// zone); 0 when the date is not a date.
fn created_of(d: &edax::Date) -> u64 {
    let [month, day, hour, minute, second] = d.rest;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || d.year < 1970 {
        return 0;
    }
    let days = days_from_civil(i64::from(d.year), month, day);
    let secs = days * 86_400
        + i64::from(hour.min(23)) * 3600
        + i64::from(minute.min(59)) * 60
        + i64::from(second.min(59));
    u64::try_from(secs).unwrap_or(0)
}

/// Days since 1970-01-01 of a date (Howard Hinnant's days-from-civil, the inverse of
/// [`crate::utc::civil_from_days`]).
fn days_from_civil(y: i64, m: u8, d: u8) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A score in hundredths of a disc rounded to whole discs, halves away from zero, so that
/// rounding commutes with negation (a link's score is exactly −(the child's value)).
#[must_use]
pub fn discs(score: i16) -> i8 {
    let s = i32::from(score);
    let half = SCORE_SCALE / 2;
    let r = if s >= 0 {
        (s + half) / SCORE_SCALE
    } else {
        (s - half) / SCORE_SCALE
    };
    r.clamp(-64, 64) as i8
}

/// The Edax book of `data`'s positions that have a value; the others are counted.
#[must_use]
pub fn from_data(data: &BookData) -> (EdaxBook, ExportReport) {
    let depth = data.info.evaluation.as_ref().map_or(0, |e| e.depth);
    let level = depth.min(MAX_LEVEL);
    let index = data.key_index();
    let value_of = |b: &Board| {
        index
            .get(&Canonical::of(b).key)
            .and_then(|&i| data.positions[i].eval.value)
    };
    let mut report = ExportReport::default();
    let mut positions = Vec::with_capacity(data.positions.len());
    for p in &data.positions {
        let Some(own) = p.eval.value else {
            report.without_value += 1;
            continue;
        };
        let board = board_of(p.key);
        let leaf = export_leaf(&board, p.eval.leaf);
        let mut links = Vec::new();
        // Every legal move into the book is a link, symmetric ones too, as Edax's
        // `position_link` makes them; but the leaf's, when an imported book's leaf leads into
        // the book (kept until `book fix`).
        for mv in playable_moves(&board) {
            let child = board.play_move(mv).expect("a legal move");
            if edax_move(mv) == leaf.mv {
                continue;
            }
            if let Some(v) = value_of(&child) {
                links.push(Link {
                    score: discs(-v.score),
                    mv: edax_move(mv),
                });
            }
        }
        // Best first, as Edax sorts them; equal scores by square.
        links.sort_by_key(|l| (-l.score, l.mv));
        // The book's value: max(link scores, leaf score) of the written numbers for a book
        // whose values are negamaxed (rounding keeps the order), an imported book's own value
        // where it differs.
        let value = i16::from(discs(own.score));
        let leaf_depth = p.eval.leaf.score().map_or(depth, |s| s.depth);
        report.capped += u64::from(leaf_depth > MAX_LEVEL);
        let s = &p.stats;
        positions.push(edax::Position {
            player: p.key.player,
            opponent: p.key.opponent,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            lines: u32::try_from(s.games()).unwrap_or(u32::MAX),
            value,
            lower: value,
            upper: value,
            level: leaf_depth.min(MAX_LEVEL),
            links,
            leaf,
        });
        report.positions += 1;
    }
    // Edax hashes positions as it loads them: any order is read alike; by board here, so
    // that the same book always gives the same bytes.
    positions.sort_by_key(|p| (p.player, p.opponent));
    let header = edax::Header {
        release: edax::RELEASE,
        date: date_of(data.info.created),
        options: edax::Options {
            level: i32::from(level),
            n_empties: i32::from(solved_empties(level)),
            midgame_error: 2,
            endcut_error: 1,
            verbosity: 0,
        },
    };
    let book = EdaxBook {
        header,
        positions,
        ..EdaxBook::default()
    };
    (book, report)
}

fn edax_move(mv: Move) -> u8 {
    match mv {
        Move::Play(sq) => sq as u8,
        Move::Pass => PASS,
    }
}

/// The leaf record: the leaf move (a square of the key board) and its score in discs; a
/// finished game's score with no move; (−127, no move) when there is no leaf.
fn export_leaf(board: &Board, leaf: Leaf) -> Link {
    let none = Link {
        score: -SCORE_INF as i8,
        mv: NO_MOVE,
    };
    match leaf {
        Leaf::Move { code, score } => {
            let c = Canonical::of(board);
            let mv = c
                .moves_of(code)
                .into_iter()
                .find(|&m| board.play_move(m).is_ok());
            match mv.map(edax_move) {
                Some(mv) => Link {
                    score: discs(score.score),
                    mv,
                },
                None => none,
            }
        }
        // Edax takes a leaf score above −127 as a value even without its move.
        Leaf::GameOver(score) | Leaf::ScoreOnly(score) => Link {
            score: discs(score.score),
            mv: NO_MOVE,
        },
        Leaf::Missing | Leaf::InBook => none,
    }
}

/// Edax's header date of a time in seconds since 1970 (UTC).
fn date_of(secs: u64) -> edax::Date {
    let (y, m, d) = crate::utc::civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    edax::Date {
        year: i16::try_from(y).unwrap_or(i16::MAX),
        rest: [m, d, (t / 3600) as u8, (t / 60 % 60) as u8, (t % 60) as u8],
        pad: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn rounding_commutes_with_negation() {
        for s in -6400i16..=6400 {
            assert_eq!(discs(-s), -discs(s), "{s}");
        }
        assert_eq!((discs(249), discs(250), discs(-250)), (2, 3, -3));
    }

    #[test]
    fn dates_survive_the_header() {
        for secs in [0u64, 1_640_995_200, 1_731_846_885] {
            let d = date_of(secs);
            assert_eq!(created_of(&d), secs);
        }
    }

    #[test]
    fn solved_empties_follow_edax() {
        assert_eq!(
            [1, 10, 11, 21, 27, 33, 40, 60].map(solved_empties),
            [2, 20, 21, 24, 27, 30, 34, 36]
        );
    }

    #[test]
    fn a_square_is_not_a_legal_move_when_occupied() {
        assert_eq!(legal_move(&Board::START, Square::D4 as u8), None);
        assert!(legal_move(&Board::START, Square::F5 as u8).is_some());
        assert_eq!(legal_move(&Board::START, PASS), None);
        assert_eq!(legal_move(&Board::START, NO_MOVE), None);
    }
}
