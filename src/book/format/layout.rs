//! The layout of a book file: its constants, the bincode header, where each table lies
//! ([`Layout`]), and the fixed-width records read back.

use crate::book::checksum::checksum;
use crate::book::data::{MoveEntry, NodeEntry, PosEntry, Source};
use crate::book::eval::{EvalInfo, EVAL_SIZE, FULL_WIDTH};
use crate::book::games::index::{GameIndexSize, CHECKPOINT_GAMES, POSTING_SIZE};
use crate::book::games::{GameTableSize, GAME_RECORD_SIZE};
use crate::book::key::Key;
use crate::book::le::{le32, le64};
use crate::book::options::BuildOptions;
use crate::book::stats::Stats;
use std::ops::Range;

/// First 8 bytes of every book.
pub const MAGIC: [u8; 8] = *b"OTHBOOK\x1a";
/// The newest format version, the newest one read: written for books with an index of their
/// games. Other books are written as version 4 (values searched with Multi-ProbCut, a
/// selectivity below 100%), 3 (game table), 2 (values) or 1, which older othbook reads too.
pub const VERSION: u32 = 5;
/// The version of books with selective values and no index of their games.
pub const VERSION_SELECTIVE: u32 = 4;
/// The version of books with a game table and full-width values (or none).
pub const VERSION_GAMES: u32 = 3;
/// The version of books with values and no game table.
pub const VERSION_VALUES: u32 = 2;
/// The version of books without values or game table.
pub const VERSION_NO_VALUES: u32 = 1;
/// Data blocks are 2^16 bytes, each with its own checksum.
pub const BLOCK_LOG2: u32 = 16;
/// Bytes before the header: magic, version, block size, file length, header length, checksum.
pub const PREAMBLE: usize = 40;
/// Offset of the meta checksum in the preamble.
pub const META_SUM_AT: usize = 32;
/// Largest header accepted.
pub const MAX_HEADER: u64 = 16 << 20;
/// Bytes per position record.
pub const POS_SIZE: usize = 48;
/// Bytes per move record.
pub const MOVE_SIZE: usize = 28;
/// Bytes per trie node record.
pub const NODE_SIZE: usize = 40;
/// Most bucket-index bits a book may use.
pub const MAX_BUCKET_BITS: u8 = 28;

/// The bincode-encoded header: its fields one after the other; then the evaluation
/// settings in version 2, or in version 3 the evaluation settings if any and the game
/// table's sizes, or in version 4 the evaluation settings with their selectivity and the
/// game table's sizes if any, or in version 5 those and the size of the index of the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Seconds since 1970 (deterministic: see the format document).
    pub created: u64,
    /// How the book was built.
    pub options: BuildOptions,
    /// Games in the book.
    pub games: u64,
    /// Input files.
    pub sources: Vec<Source>,
    /// Records in the position table.
    pub positions: u64,
    /// Records in the move table.
    pub moves: u64,
    /// Records in the trie table.
    pub nodes: u64,
    /// First trie node of each depth, then the node count.
    pub levels: Vec<u64>,
    /// The position index has `2^bucket_bits + 1` entries.
    pub bucket_bits: u8,
    /// How the values were searched (version 2 on; `None` in version 1): the file then has
    /// an evaluation record per position after the trie. Versions 2 and 3 hold no
    /// selectivity: their values are full width.
    pub evaluation: Option<EvalInfo>,
    /// Sizes of the game table (version 3, optional in 4; `None` before): the file then has
    /// the table after the evaluation records.
    pub game_table: Option<GameTableSize>,
    /// Size of the index of the games (version 5, which has a game table; `None` before):
    /// the file then has the index after the game table.
    pub game_index: Option<GameIndexSize>,
}

/// bincode configuration of the header: standard (varint, little endian), at most 16 MiB.
pub fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 16 << 20 }>()
}

impl Header {
    /// The header from its bytes, field by field so that damage is reported by the field it
    /// hit and in words (bincode's own errors name Rust types). Also returns the bytes used.
    pub fn decode(bytes: &[u8], version: u32) -> Result<(Header, usize), String> {
        let mut at = 0;
        let mut h = Header {
            created: field(bytes, &mut at, "creation time")?,
            options: field(bytes, &mut at, "build options")?,
            games: field(bytes, &mut at, "game count")?,
            sources: field(bytes, &mut at, "list of input files")?,
            positions: field(bytes, &mut at, "position count")?,
            moves: field(bytes, &mut at, "move count")?,
            nodes: field(bytes, &mut at, "trie node count")?,
            levels: field(bytes, &mut at, "trie levels")?,
            bucket_bits: field(bytes, &mut at, "index size")?,
            evaluation: None,
            game_table: None,
            game_index: None,
        };
        match version {
            1 => {}
            2 => {
                let e: FullWidthInfo = field(bytes, &mut at, "evaluation settings")?;
                h.evaluation = Some(e.into());
            }
            3 => {
                let e: Option<FullWidthInfo> = field(bytes, &mut at, "evaluation settings")?;
                h.evaluation = e.map(Into::into);
                h.game_table = Some(field(bytes, &mut at, "game table sizes")?);
            }
            _ => {
                let e: Option<EvalInfo> = field(bytes, &mut at, "evaluation settings")?;
                if e.as_ref()
                    .is_some_and(|e| !(1..=100).contains(&e.selectivity))
                {
                    return Err("the evaluation settings hold a selectivity outside 1-100%".into());
                }
                h.evaluation = e;
                h.game_table = field(bytes, &mut at, "game table sizes")?;
                if version >= VERSION {
                    h.game_index = Some(field(bytes, &mut at, "game index size")?);
                    if h.game_table.is_none() {
                        return Err("the header has an index of games but no game table".into());
                    }
                }
            }
        }
        Ok((h, at))
    }

    /// The format version of a book with this header.
    #[must_use]
    pub fn version(&self) -> u32 {
        if self.game_index.is_some() {
            VERSION
        } else if self.evaluation.as_ref().is_some_and(|e| !e.is_full_width()) {
            VERSION_SELECTIVE
        } else if self.game_table.is_some() {
            VERSION_GAMES
        } else if self.evaluation.is_some() {
            VERSION_VALUES
        } else {
            VERSION_NO_VALUES
        }
    }

    /// The header's bytes in the file.
    pub fn encode(&self) -> Result<Vec<u8>, bincode::error::EncodeError> {
        let mut out = Vec::new();
        let fixed = (
            self.created,
            &self.options,
            self.games,
            &self.sources,
            (self.positions, self.moves, self.nodes),
            &self.levels,
            self.bucket_bits,
        );
        out.extend(bincode::encode_to_vec(fixed, bincode_config())?);
        let full_width = self.evaluation.as_ref().map(FullWidthInfo::from);
        match (self.version(), &self.game_table, full_width) {
            (VERSION, g, _) => out.extend(bincode::encode_to_vec(
                (&self.evaluation, g, self.game_index.unwrap_or_default()),
                bincode_config(),
            )?),
            (VERSION_SELECTIVE, g, _) => out.extend(bincode::encode_to_vec(
                (&self.evaluation, g),
                bincode_config(),
            )?),
            (_, Some(g), e) => out.extend(bincode::encode_to_vec((e, g), bincode_config())?),
            (_, None, Some(e)) => out.extend(bincode::encode_to_vec(e, bincode_config())?),
            (_, None, None) => {}
        }
        Ok(out)
    }
}

/// The evaluation settings as versions 2 and 3 store them: no selectivity, so full width.
#[derive(bincode::Encode, bincode::Decode)]
struct FullWidthInfo {
    depth: u8,
    exact_from: u8,
}

impl From<FullWidthInfo> for EvalInfo {
    fn from(e: FullWidthInfo) -> EvalInfo {
        EvalInfo {
            depth: e.depth,
            exact_from: e.exact_from,
            selectivity: FULL_WIDTH,
        }
    }
}

impl From<&EvalInfo> for FullWidthInfo {
    fn from(e: &EvalInfo) -> FullWidthInfo {
        FullWidthInfo {
            depth: e.depth,
            exact_from: e.exact_from,
        }
    }
}

/// The next header field (bincode encodes a struct as its fields one after the other).
fn field<T: bincode::Decode<()>>(bytes: &[u8], at: &mut usize, name: &str) -> Result<T, String> {
    let (value, used) = bincode::decode_from_slice(&bytes[*at..], bincode_config())
        .map_err(|e| format!("the {name} cannot be read: {}", decode_problem(&e)))?;
    *at += used;
    Ok(value)
}

/// What a bincode decoding error means for a header written by othbook.
fn decode_problem(e: &bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as E;
    match e {
        E::UnexpectedEnd { .. } => "the header ends inside it".into(),
        E::LimitExceeded | E::OutsideUsizeRange(_) => "it claims an impossible size".into(),
        E::InvalidIntegerType { .. } => "a number in it is damaged".into(),
        E::UnexpectedVariant { found, .. } => {
            format!("a choice in it holds {found}, which othbook never writes")
        }
        E::Utf8 { .. } | E::InvalidCharEncoding(_) => "a text in it is not valid UTF-8".into(),
        E::InvalidBooleanValue(v) => format!("a yes/no value in it holds {v}"),
        // A rule of the value broken (see `book::options`), in its own words.
        E::OtherString(reason) => reason.clone(),
        _ => "its bytes are not a value of this book format".into(),
    }
}

/// Where everything is in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Start of the tables (after the header, 8-aligned).
    pub data_start: usize,
    /// Position index: `u32` per bucket, plus one.
    pub index: Range<usize>,
    /// Position records.
    pub positions: Range<usize>,
    /// Move records.
    pub moves: Range<usize>,
    /// Trie node records.
    pub nodes: Range<usize>,
    /// Evaluation records, one per position (empty in a book without values).
    pub evals: Range<usize>,
    /// Game records (version 3; empty before).
    pub games: Range<usize>,
    /// Move bytes of the games.
    pub game_moves: Range<usize>,
    /// Name offsets: `u32` per name, plus one.
    pub name_offsets: Range<usize>,
    /// Name bytes.
    pub name_bytes: Range<usize>,
    /// Index of the games (version 5; empty before): posting offsets, `u64` per position,
    /// plus one.
    pub posting_offsets: Range<usize>,
    /// Posting entries.
    pub postings: Range<usize>,
    /// Where the moves of every 64th game start, `u64` each.
    pub checkpoints: Range<usize>,
    /// What each name is used as, a byte per name.
    pub name_uses: Range<usize>,
    /// End of the checksummed data (the end of the last table).
    pub data_end: usize,
    /// Block checksums, one `u64` per block of `data_start..data_end`.
    pub sums: Range<usize>,
    /// Whole file.
    pub file_len: usize,
}

impl Layout {
    /// The layout for a header of `header_len` bytes; `None` if sizes overflow.
    #[must_use]
    pub fn new(header_len: u64, h: &Header) -> Option<Layout> {
        let at = |start: usize, count: u64, size: usize| -> Option<Range<usize>> {
            let len = usize::try_from(count).ok()?.checked_mul(size)?;
            Some(start..start.checked_add(len)?)
        };
        if h.bucket_bits > MAX_BUCKET_BITS {
            return None;
        }
        let data_start =
            (PREAMBLE.checked_add(usize::try_from(header_len).ok()?)?).checked_add(7)? & !7;
        let index = at(data_start, (1u64 << h.bucket_bits) + 1, 4)?;
        let positions = at(index.end, h.positions, POS_SIZE)?;
        let moves = at(positions.end, h.moves, MOVE_SIZE)?;
        let nodes = at(moves.end, h.nodes, NODE_SIZE)?;
        let evaluated = if h.evaluation.is_some() {
            h.positions
        } else {
            0
        };
        let evals = at(nodes.end, evaluated, EVAL_SIZE)?;
        let g = h.game_table.unwrap_or_default();
        let games = at(evals.end, g.games, GAME_RECORD_SIZE)?;
        let game_moves = at(games.end, g.move_bytes, 1)?;
        let offsets = if h.game_table.is_some() {
            g.names.checked_add(1)?
        } else {
            0
        };
        let name_offsets = at(game_moves.end, offsets, 4)?;
        let name_bytes = at(name_offsets.end, g.name_bytes, 1)?;
        let (offsets, postings, checkpoints, uses) = match h.game_index {
            Some(i) => (
                h.positions.checked_add(1)?,
                i.postings,
                g.games.div_ceil(CHECKPOINT_GAMES as u64),
                g.names,
            ),
            None => (0, 0, 0, 0),
        };
        let posting_offsets = at(name_bytes.end, offsets, 8)?;
        let postings = at(posting_offsets.end, postings, POSTING_SIZE)?;
        let checkpoints = at(postings.end, checkpoints, 8)?;
        let name_uses = at(checkpoints.end, uses, 1)?;
        let data_end = name_uses.end;
        let blocks = (data_end - data_start).div_ceil(1 << BLOCK_LOG2);
        let sums = at(data_end, blocks as u64, 8)?;
        Some(Layout {
            data_start,
            index,
            positions,
            moves,
            nodes,
            evals,
            games,
            game_moves,
            name_offsets,
            name_bytes,
            posting_offsets,
            postings,
            checkpoints,
            name_uses,
            data_end,
            file_len: sums.end,
            sums,
        })
    }

    /// Number of checksummed data blocks.
    #[must_use]
    pub fn blocks(&self) -> usize {
        (self.sums.end - self.sums.start) / 8
    }

    /// Byte range of data block `b`.
    #[must_use]
    pub fn block(&self, b: usize) -> Range<usize> {
        let start = self.data_start + (b << BLOCK_LOG2);
        start..(start + (1 << BLOCK_LOG2)).min(self.data_end)
    }
}

/// Index bits for `n` positions: about four positions per bucket.
#[must_use]
pub fn bucket_bits_for(n: usize) -> u8 {
    if n < 16 {
        0
    } else {
        (n.ilog2() - 2).min(u32::from(MAX_BUCKET_BITS)) as u8
    }
}

/// Bucket of a hash with `bits` index bits.
#[inline]
#[must_use]
pub const fn bucket_of(hash: u64, bits: u8) -> usize {
    if bits == 0 {
        0
    } else {
        (hash >> (64 - bits as u32)) as usize
    }
}

/// Reads the 24-byte statistics at the start of `b`.
#[must_use]
pub fn get_stats(b: &[u8]) -> Stats {
    Stats {
        wins: le32(b, 0),
        draws: le32(b, 4),
        losses: le32(b, 8),
        unknown: le32(b, 12),
        disc_sum: le64(b, 16) as i64,
    }
}

/// Decodes a position record.
#[must_use]
pub fn get_pos(b: &[u8]) -> PosEntry {
    let key = Key {
        player: le64(b, 0),
        opponent: le64(b, 8),
    };
    crate::book::data::pos_entry(
        key,
        get_stats(&b[16.min(b.len())..]),
        le32(b, 40),
        le32(b, 44) as u16,
    )
}

/// Decodes a move record.
#[must_use]
pub fn get_move(b: &[u8]) -> MoveEntry {
    MoveEntry {
        code: b.first().copied().unwrap_or(u8::MAX),
        stats: get_stats(&b[4.min(b.len())..]),
    }
}

/// Decodes a trie node record.
#[must_use]
pub fn get_node(b: &[u8]) -> NodeEntry {
    NodeEntry {
        parent: le32(b, 0),
        code: b.get(4).copied().unwrap_or(u8::MAX),
        stats: get_stats(&b[8.min(b.len())..]),
        first_child: le32(b, 32),
        child_count: le32(b, 36),
    }
}

/// Checksum of everything outside the data blocks: preamble (without the checksum itself),
/// header, padding and the block checksum table.
#[must_use]
pub fn meta_checksum(file: &[u8], layout: &Layout) -> u64 {
    let mut meta = Vec::with_capacity(layout.data_start + layout.sums.len());
    meta.extend_from_slice(&file[..META_SUM_AT]);
    meta.extend_from_slice(&file[PREAMBLE..layout.data_start]);
    meta.extend_from_slice(&file[layout.sums.clone()]);
    checksum(&meta)
}
