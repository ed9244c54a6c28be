//! Merging line tries front to back. An unpruned trie is the set of its games' lines: each
//! input is walked depth first (children by code), giving its lines in sorted order with
//! the games that ended on each; the lines of all inputs are merged in that order, and the
//! trie is built again from them as `trie_from_sorted_lines` builds it, one node at a time.
//! Nodes come out a depth at a time with their places counted within their depth; each
//! depth goes to its own file, and the final numbers are set when the book is written.

use super::control::Control;
use super::input::{Input, Region};
use super::temp::TempFile;
use crate::book::data::{NodeEntry, ROOT_CODE};
use crate::book::format::{get_node, node_bytes, NODE_SIZE};
use crate::book::stats::Stats;
use crate::book::BookError;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

fn add(a: &Stats, b: &Stats) -> Result<Stats, BookError> {
    a.checked_add(b)
        .ok_or_else(|| BookError::Merge("game counts overflow".into()))
}

/// The lines of one input's trie in sorted order, depth first.
struct Lines<'a> {
    input: &'a Input,
    plies: usize,
    /// Each depth's nodes, read in order, and the index of the next one.
    levels: Vec<(Region, u64)>,
    path: Vec<u8>,
    /// Open nodes: the node, children not visited yet, the games of those visited.
    stack: Vec<(NodeEntry, u32, Stats)>,
    started: bool,
}

impl<'a> Lines<'a> {
    fn new(input: &'a Input, buffer: usize) -> Lines<'a> {
        let l = &input.header.levels;
        let at = input.layout.nodes.start;
        let levels = l
            .windows(2)
            .map(|w| {
                let range = at + w[0] as usize * NODE_SIZE..at + w[1] as usize * NODE_SIZE;
                (input.region(range, buffer), w[0])
            })
            .collect();
        Lines {
            input,
            plies: usize::from(input.header.options.plies()),
            levels,
            path: Vec::new(),
            stack: Vec::new(),
            started: false,
        }
    }

    fn read(&mut self, depth: usize) -> Result<NodeEntry, BookError> {
        let damaged = || self.input.damaged("trie child range");
        let (region, next) = self.levels.get_mut(depth).ok_or_else(damaged)?;
        let node = region.next(NODE_SIZE)?.map(get_node).ok_or_else(damaged)?;
        *next += 1;
        Ok(node)
    }

    fn open(&mut self, node: NodeEntry) -> Result<(), BookError> {
        let depth = self.stack.len();
        if node.child_count > 0
            && self.levels.get(depth + 1).map(|l| l.1) != Some(u64::from(node.first_child))
        {
            return Err(self.input.damaged("trie child range"));
        }
        self.stack.push((node, node.child_count, Stats::default()));
        Ok(())
    }

    /// The next line (codes, padded with 255 to `plies`) and the games that ended on it.
    fn next(&mut self) -> Result<Option<(Vec<u8>, Stats)>, BookError> {
        if !self.started {
            self.started = true;
            if self.input.header.nodes > 0 {
                let root = self.read(0)?;
                self.open(root)?;
            }
        }
        while let Some(top) = self.stack.last_mut() {
            if top.1 > 0 {
                top.1 -= 1;
                let child = self.read(self.stack.len())?;
                let top = self
                    .stack
                    .last_mut()
                    .ok_or_else(|| self.input.damaged("trie"))?;
                top.2 = add(&top.2, &child.stats)?;
                if child.code > 64 || self.path.len() >= self.plies {
                    return Err(self.input.damaged("trie node"));
                }
                self.path.push(child.code);
                self.open(child)?;
                continue;
            }
            let Some((node, _, children)) = self.stack.pop() else {
                break;
            };
            let ended = node
                .stats
                .checked_sub(&children)
                .ok_or_else(|| self.input.damaged("trie counts"))?;
            let mut row = self.path.clone();
            row.resize(self.plies, ROOT_CODE);
            self.path.pop();
            if ended.games() > 0 {
                return Ok(Some((row, ended)));
            }
        }
        Ok(None)
    }
}

/// A node being built: its code, games so far, and the counts of kept nodes of the depths
/// around it when it opened (its parent's place, its first child's place).
struct Open {
    code: u8,
    stats: Stats,
    parent: u64,
    first_child: u64,
}

/// What the merged trie holds: the root's games, the kept nodes of each depth (index 0,
/// the root, unused) and the file of each depth's nodes (from depth 1).
pub(super) struct Trie {
    pub root: Stats,
    pub kept: Vec<u64>,
    pub files: Vec<TempFile>,
}

impl Trie {
    /// First node of each depth, then the node count (the header's `levels`).
    pub fn levels(&self) -> Vec<u64> {
        let mut levels = vec![0];
        let mut start = 1;
        for &k in self.kept.iter().skip(1).take_while(|&&k| k > 0) {
            levels.push(start);
            start += k;
        }
        levels.push(start);
        levels
    }

    /// Index of the first node of depth `d` (any depth).
    pub fn start_of(&self, d: usize) -> u64 {
        if d == 0 {
            0
        } else {
            1 + self.kept[1..d.min(self.kept.len())].iter().sum::<u64>()
        }
    }
}

struct Builder {
    min: u64,
    open: Vec<Open>,
    trie: Trie,
}

impl Builder {
    fn close(&mut self) -> Result<(), BookError> {
        let Some(n) = self.open.pop() else {
            return Ok(());
        };
        let depth = self.open.len() + 1;
        if n.stats.games() < self.min {
            return Ok(());
        }
        self.trie.kept[depth] += 1;
        let node = NodeEntry {
            parent: n.parent as u32,
            code: n.code,
            stats: n.stats,
            first_child: n.first_child as u32,
            child_count: (self.trie.kept[depth + 1] - n.first_child) as u32,
        };
        self.trie.files[depth - 1].put(&node_bytes(&node))
    }

    fn push(&mut self, row: &[u8], stats: &Stats) -> Result<(), BookError> {
        let depth = row
            .iter()
            .position(|&c| c == ROOT_CODE)
            .unwrap_or(row.len());
        let common = self
            .open
            .iter()
            .zip(&row[..depth])
            .take_while(|(o, &c)| o.code == c)
            .count();
        while self.open.len() > common {
            self.close()?;
        }
        for &code in &row[common..depth] {
            let d = self.open.len() + 1;
            self.open.push(Open {
                code,
                stats: Stats::default(),
                parent: self.trie.kept[d - 1],
                first_child: self.trie.kept[d + 1],
            });
        }
        self.trie.root = add(&self.trie.root, stats)?;
        for o in &mut self.open {
            o.stats = add(&o.stats, stats)?;
        }
        Ok(())
    }
}

/// Merges the tries of `inputs` (unpruned) into per-depth files in `folder`, keeping the
/// nodes with at least `min_games` games.
pub(super) fn merge(
    inputs: &[Input],
    plies: usize,
    min_games: u32,
    buffer: usize,
    folder: &Path,
    control: &Control<'_>,
) -> Result<Trie, BookError> {
    let files = (1..=plies)
        .map(|d| TempFile::create(folder, &format!("nodes-{d}.tmp"), "the merged line trie"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut b = Builder {
        min: u64::from(min_games),
        open: Vec::new(),
        trie: Trie {
            root: Stats::default(),
            kept: vec![0; plies + 2],
            files,
        },
    };
    let mut lines: Vec<Lines> = inputs.iter().map(|i| Lines::new(i, buffer)).collect();
    let mut heads: Vec<Option<Stats>> = vec![None; lines.len()];
    let mut heap = BinaryHeap::new();
    for (i, l) in lines.iter_mut().enumerate() {
        if let Some((row, s)) = l.next()? {
            heads[i] = Some(s);
            heap.push(Reverse((row, i)));
        }
    }
    let mut n = 0u64;
    while let Some(Reverse((row, i))) = heap.pop() {
        let s = heads[i].take().unwrap_or_default();
        b.push(&row, &s)?;
        if let Some((next, s)) = lines[i].next()? {
            if next < row {
                return Err(inputs[i].damaged("trie children out of order"));
            }
            heads[i] = Some(s);
            heap.push(Reverse((next, i)));
        }
        n += 1;
        if n.is_multiple_of(1 << 16) {
            control.check()?;
        }
    }
    while !b.open.is_empty() {
        b.close()?;
    }
    Ok(b.trie)
}
