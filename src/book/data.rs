//! The book in memory, as built or merged and before it is written: header facts, the
//! position table (sorted by stable hash), the moves of each position and the line trie.

use crate::book::eval::{EvalInfo, PosEval};
use crate::book::games::GameTable;
use crate::book::key::{stable_hash, Key};
use crate::book::options::{BuildOptions, MinGames};
use crate::book::stats::Stats;
use crate::book::BookError;

/// One input file and how many of its games were read and used.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, bincode::Encode, bincode::Decode)]
pub struct Source {
    /// The file as named on the command line.
    pub name: String,
    /// Games read from it that replayed correctly (skipped games are not counted).
    pub games_read: u64,
    /// Games that passed the filters and went into the book.
    pub games_used: u64,
}

/// Facts about a book that are not tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookInfo {
    /// When the data was made, seconds since 1970 (see docs/book-format.md: deterministic).
    pub created: u64,
    /// How it was built.
    pub options: BuildOptions,
    /// Games in the book.
    pub games: u64,
    /// Input files, sorted by name.
    pub sources: Vec<Source>,
    /// How the values were searched; `None` for a book without values.
    pub evaluation: Option<EvalInfo>,
}

/// A position of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PosEntry {
    /// `stable_hash(key)`: the table's sort key.
    pub hash: u64,
    /// Canonical board.
    pub key: Key,
    /// Games that reached it, from the side to move's view.
    pub stats: Stats,
    /// Index of its first move in the move table.
    pub first_move: u32,
    /// Number of moves.
    pub move_count: u16,
    /// Its leaf and value (all unknown in a book without values).
    pub eval: PosEval,
}

/// A move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// Canonical move code (see `key::Canonical::code_of`).
    pub code: u8,
    /// Games that played it, from the mover's view.
    pub stats: Stats,
}

/// A node of the line trie (breadth-first order: by depth, parent, move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeEntry {
    /// Index of the parent node (`u32::MAX` for the root).
    pub parent: u32,
    /// Move code in normalised coordinates (first move f5); 255 for the root.
    pub code: u8,
    /// Games that followed the line, from black's view.
    pub stats: Stats,
    /// Index of the first child.
    pub first_child: u32,
    /// Number of children.
    pub child_count: u32,
}

/// Parent index of the root node.
pub const NO_PARENT: u32 = u32::MAX;
/// Move code of the root node.
pub const ROOT_CODE: u8 = 255;

/// A complete book in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookData {
    /// Header facts.
    pub info: BookInfo,
    /// Positions sorted by `(hash, key)`.
    pub positions: Vec<PosEntry>,
    /// Moves, grouped by position, each group sorted by code.
    pub moves: Vec<MoveEntry>,
    /// Trie nodes, breadth first; node 0 is the root (the start position, all games).
    pub nodes: Vec<NodeEntry>,
    /// The games the statistics count (`None` for a book without a game table: one written
    /// before version 3, or imported from another program).
    pub games: Option<GameTable>,
    /// Write the index of the games with them (format version 5): set by `build`, `merge`
    /// and `add-games`, kept from the file by [`Book::to_data`](crate::book::Book::to_data),
    /// so a book of an older version is written back in its version.
    pub game_index: bool,
}

impl BookData {
    /// Index of the first node of each depth, then the node count.
    #[must_use]
    pub fn levels(&self) -> Vec<u64> {
        levels_of(&self.nodes)
    }

    /// Merges books built with the same plies and filters, then prunes with `min_games`.
    /// The inputs must not be pruned (`min_games` 1): pruned counts cannot be added up.
    pub fn merge(books: &[BookData], min_games: MinGames) -> Result<BookData, BookError> {
        let options: Vec<&BuildOptions> = books.iter().map(|b| &b.info.options).collect();
        merged_options(&options, min_games)?;
        let overflow = || BookError::Merge("game counts overflow".into());
        let mut acc = books[0].clone();
        for b in &books[1..] {
            let (positions, moves) =
                merge_positions(&acc.positions, &acc.moves, &b.positions, &b.moves, 1)?;
            acc.nodes = merge_tries(&acc.nodes, &b.nodes, 1)?;
            acc.positions = positions;
            acc.moves = moves;
            acc.info.games = acc
                .info
                .games
                .checked_add(b.info.games)
                .ok_or_else(overflow)?;
            acc.info.created = acc.info.created.max(b.info.created);
            acc.info.sources = merge_sources(&acc.info.sources, &b.info.sources);
            acc.info.evaluation = acc.info.evaluation.or_else(|| b.info.evaluation.clone());
        }
        // The game table is the games of all the books; a book without one leaves the
        // merged book without one (its games are unknown).
        let tables: Option<Vec<&GameTable>> = books.iter().map(|b| b.games.as_ref()).collect();
        acc.games = tables.map(|t| GameTable::concat(&t));
        acc.game_index = acc.games.is_some();
        // Moves of one book may now lead into positions of another: an evaluated book's
        // leaves and values are checked and negamaxed again, before and after the pruning
        // (which keeps the values of the moves it drops).
        acc.prune_keeping_values(min_games)?;
        Ok(acc)
    }
}

/// The options of the merge at `min_games` of books built with `options`, checked before
/// any work: they can be added up (none pruned, since pruned counts cannot be added exactly,
/// and all with the first one's plies and filters) and `min_games` keeps the options' rules.
pub(crate) fn merged_options(
    options: &[&BuildOptions],
    min_games: MinGames,
) -> Result<BuildOptions, BookError> {
    let Some(first) = options.first() else {
        return Err(BookError::Merge("no books to merge".into()));
    };
    for (i, o) in options.iter().enumerate() {
        if o.min_games() > 1 {
            return Err(BookError::Merge(format!(
                "book {} was built with --min-games {}: pruned counts cannot be merged \
                 exactly; build the inputs with --min-games 1 and prune in merge",
                i + 1,
                o.min_games()
            )));
        }
        let differences = o.differences(first);
        if !differences.is_empty() {
            return Err(BookError::OptionsDiffer {
                book: i + 1,
                differences,
            });
        }
    }
    Ok(first.with_min_games(min_games))
}

/// The evaluation of a position found in two books: the deeper leaf (the first on a tie);
/// values are negamaxed again after merging.
fn combine_evals(a: &PosEval, b: &PosEval) -> PosEval {
    let leaf = match (a.leaf.score(), b.leaf.score()) {
        (Some(x), Some(y)) if y.deeper_than(&x) => b.leaf,
        (None, Some(_)) => b.leaf,
        _ if a.leaf.is_known() => a.leaf,
        _ => b.leaf,
    };
    PosEval {
        leaf,
        value: None,
        added: a.added && b.added,
    }
}

/// Sources of two books, same names added up, sorted by name.
#[must_use]
pub fn merge_sources(a: &[Source], b: &[Source]) -> Vec<Source> {
    let mut map = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for s in a.iter().chain(b) {
        let e = map.entry(s.name.clone()).or_default();
        e.0 += s.games_read;
        e.1 += s.games_used;
    }
    map.into_iter()
        .map(|(name, (games_read, games_used))| Source {
            name,
            games_read,
            games_used,
        })
        .collect()
}

fn add(a: &Stats, b: &Stats) -> Result<Stats, BookError> {
    a.checked_add(b)
        .ok_or_else(|| BookError::Merge("game counts overflow".into()))
}

/// Merges two position tables (each sorted by `(hash, key)`), keeping positions and moves
/// with at least `min_games` games.
pub(crate) fn merge_positions(
    pa: &[PosEntry],
    ma: &[MoveEntry],
    pb: &[PosEntry],
    mb: &[MoveEntry],
    min_games: u32,
) -> Result<(Vec<PosEntry>, Vec<MoveEntry>), BookError> {
    let min = u64::from(min_games);
    let mut positions = Vec::with_capacity(pa.len().max(pb.len()));
    let mut moves = Vec::with_capacity(ma.len().max(mb.len()));
    let slice = |m: &'_ [MoveEntry], p: &PosEntry| -> Result<Vec<MoveEntry>, BookError> {
        let start = p.first_move as usize;
        m.get(start..start + p.move_count as usize)
            .map(<[MoveEntry]>::to_vec)
            .ok_or_else(|| BookError::Merge("move table out of range".into()))
    };
    let (mut i, mut j) = (0, 0);
    while i < pa.len() || j < pb.len() {
        let order = match (pa.get(i), pb.get(j)) {
            (Some(a), Some(b)) => (a.hash, a.key).cmp(&(b.hash, b.key)),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        let (entry, list) = match order {
            std::cmp::Ordering::Less => {
                i += 1;
                (pa[i - 1], slice(ma, &pa[i - 1])?)
            }
            std::cmp::Ordering::Greater => {
                j += 1;
                (pb[j - 1], slice(mb, &pb[j - 1])?)
            }
            std::cmp::Ordering::Equal => {
                let (a, b) = (pa[i], pb[j]);
                i += 1;
                j += 1;
                let (la, lb) = (slice(ma, &a)?, slice(mb, &b)?);
                let mut list = Vec::with_capacity(la.len() + lb.len());
                let (mut x, mut y) = (0, 0);
                while x < la.len() || y < lb.len() {
                    match (la.get(x), lb.get(y)) {
                        (Some(u), Some(v)) if u.code == v.code => {
                            list.push(MoveEntry {
                                code: u.code,
                                stats: add(&u.stats, &v.stats)?,
                            });
                            x += 1;
                            y += 1;
                        }
                        (Some(u), Some(v)) if u.code < v.code => {
                            list.push(*u);
                            x += 1;
                        }
                        (Some(u), None) => {
                            list.push(*u);
                            x += 1;
                        }
                        (_, Some(v)) => {
                            list.push(*v);
                            y += 1;
                        }
                        (None, None) => break,
                    }
                }
                let mut e = a;
                e.stats = add(&a.stats, &b.stats)?;
                e.eval = combine_evals(&a.eval, &b.eval);
                (e, list)
            }
        };
        // No game reached a position or move that `book deviate` added: min_games does not
        // apply to them.
        let kept = |games: u64| games >= min || games == 0;
        if !kept(entry.stats.games()) {
            continue;
        }
        let first_move = u32::try_from(moves.len())
            .map_err(|_| BookError::Merge("more than 2^32 moves".into()))?;
        let before = moves.len();
        moves.extend(list.into_iter().filter(|m| kept(m.stats.games())));
        positions.push(PosEntry {
            first_move,
            move_count: (moves.len() - before) as u16,
            ..entry
        });
    }
    Ok((positions, moves))
}

/// Merges two tries (breadth first, children sorted by code), keeping nodes with at least
/// `min_games` games; the root is always kept.
pub(crate) fn merge_tries(
    a: &[NodeEntry],
    b: &[NodeEntry],
    min_games: u32,
) -> Result<Vec<NodeEntry>, BookError> {
    let min = u64::from(min_games);
    let children = |t: &[NodeEntry], n: Option<usize>| -> Vec<usize> {
        n.and_then(|n| t.get(n))
            .map(|e| {
                let start = e.first_child as usize;
                let end = (start + e.child_count as usize).min(t.len());
                (start.min(end)..end).collect()
            })
            .unwrap_or_default()
    };
    let root = |t: &[NodeEntry]| (!t.is_empty()).then_some(0usize);
    let mut out: Vec<NodeEntry> = Vec::with_capacity(a.len().max(b.len()));
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::with_capacity(out.capacity());
    let stats_of = |t: &[NodeEntry], n: Option<usize>| n.and_then(|n| t.get(n)).map(|e| e.stats);
    let root_stats = match (stats_of(a, root(a)), stats_of(b, root(b))) {
        (Some(x), Some(y)) => add(&x, &y)?,
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => Stats::default(),
    };
    out.push(NodeEntry {
        parent: NO_PARENT,
        code: ROOT_CODE,
        stats: root_stats,
        first_child: 0,
        child_count: 0,
    });
    pairs.push((root(a), root(b)));
    let mut next = 0usize;
    while next < out.len() {
        let (na, nb) = pairs[next];
        let (ca, cb) = (children(a, na), children(b, nb));
        let first_child = out.len() as u32;
        let (mut x, mut y) = (0, 0);
        while x < ca.len() || y < cb.len() {
            let (ea, eb) = (ca.get(x).map(|&k| a[k]), cb.get(y).map(|&k| b[k]));
            let (code, stats, pair) = match (ea, eb) {
                (Some(u), Some(v)) if u.code == v.code => {
                    x += 1;
                    y += 1;
                    (
                        u.code,
                        add(&u.stats, &v.stats)?,
                        (Some(ca[x - 1]), Some(cb[y - 1])),
                    )
                }
                (Some(u), Some(v)) if u.code < v.code => {
                    x += 1;
                    (u.code, u.stats, (Some(ca[x - 1]), None))
                }
                (Some(u), None) => {
                    x += 1;
                    (u.code, u.stats, (Some(ca[x - 1]), None))
                }
                (_, Some(v)) => {
                    y += 1;
                    (v.code, v.stats, (None, Some(cb[y - 1])))
                }
                (None, None) => break,
            };
            if stats.games() >= min {
                out.push(NodeEntry {
                    parent: next as u32,
                    code,
                    stats,
                    first_child: 0,
                    child_count: 0,
                });
                pairs.push(pair);
            }
        }
        out[next].first_child = first_child;
        out[next].child_count = out.len() as u32 - first_child;
        next += 1;
    }
    normalize_leaves(&mut out);
    Ok(out)
}

/// Builds the trie from game lines: `rows` holds `stride` codes per game (255 after the end
/// of a shorter game), `order` sorts the rows, `prefix[i]` is the sum of the stats of the
/// first `i` games in that order.
#[must_use]
pub fn trie_from_sorted_lines(
    rows: &[u8],
    stride: usize,
    order: &[u32],
    prefix: &[Stats],
    min_games: u32,
) -> Vec<NodeEntry> {
    let min = u64::from(min_games);
    let diff = |a: usize, b: usize| sub(&prefix[b], &prefix[a]);
    let n = order.len();
    let mut nodes = vec![NodeEntry {
        parent: NO_PARENT,
        code: ROOT_CODE,
        stats: diff(0, n),
        first_child: 0,
        child_count: 0,
    }];
    let mut ranges = vec![(0usize, n)];
    let mut depth_start = 0;
    for depth in 0..stride {
        let depth_end = nodes.len();
        for i in depth_start..depth_end {
            let (a, b) = ranges[i];
            let first_child = nodes.len() as u32;
            let code_at = |k: usize| rows[order[k] as usize * stride + depth];
            let mut j = a;
            while j < b {
                let code = code_at(j);
                let mut k = j + 1;
                while k < b && code_at(k) == code {
                    k += 1;
                }
                if code != ROOT_CODE && (k - j) as u64 >= min {
                    nodes.push(NodeEntry {
                        parent: i as u32,
                        code,
                        stats: diff(j, k),
                        first_child: 0,
                        child_count: 0,
                    });
                    ranges.push((j, k));
                }
                j = k;
            }
            nodes[i].first_child = first_child;
            nodes[i].child_count = nodes.len() as u32 - first_child;
        }
        depth_start = depth_end;
    }
    normalize_leaves(&mut nodes);
    nodes
}

/// Gives every childless node `first_child` 0, so equal tries have equal bytes however
/// they were made.
fn normalize_leaves(nodes: &mut [NodeEntry]) {
    for node in nodes {
        if node.child_count == 0 {
            node.first_child = 0;
        }
    }
}

/// Index of the first node of each depth, then the node count (nodes breadth first).
#[must_use]
pub fn levels_of(nodes: &[NodeEntry]) -> Vec<u64> {
    let mut depth = vec![0u32; nodes.len()];
    let mut levels = vec![0u64];
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let d = depth.get(n.parent as usize).map_or(0, |d| d + 1);
        depth[i] = d;
        if d as usize >= levels.len() {
            levels.push(i as u64);
        }
    }
    levels.push(nodes.len() as u64);
    levels
}

/// `a - b` for prefix sums (`b` is a prefix of `a`, so nothing underflows).
#[must_use]
pub fn sub(a: &Stats, b: &Stats) -> Stats {
    Stats {
        wins: a.wins - b.wins,
        draws: a.draws - b.draws,
        losses: a.losses - b.losses,
        unknown: a.unknown - b.unknown,
        disc_sum: a.disc_sum - b.disc_sum,
    }
}

/// A position entry for `key` with its hash filled in.
#[must_use]
pub fn pos_entry(key: Key, stats: Stats, first_move: u32, move_count: u16) -> PosEntry {
    PosEntry {
        hash: stable_hash(key),
        key,
        stats,
        first_move,
        move_count,
        eval: PosEval::default(),
    }
}
