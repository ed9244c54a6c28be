//! The merged tables, held in temporary files while the header is made, written after it:
//! the position index and records, the moves, the line trie with its places made node
//! numbers, and the game table with the index of its games.

use super::temp::{to_io, TempFile};
use super::{games, index, trie};
use crate::book::data::{NodeEntry, NO_PARENT, ROOT_CODE};
use crate::book::format::{get_node, node_bytes, write_index, Header, NODE_SIZE, POS_SIZE};
use crate::book::key::{stable_hash, Key};
use std::io::{Read, Write};
use std::sync::atomic::AtomicBool;

/// The merged tables, in their temporary files, to be written after the header.
pub(super) struct Parts {
    pub(super) positions: TempFile,
    pub(super) moves: TempFile,
    pub(super) trie: trie::Trie,
    pub(super) games: Option<games::Games>,
    pub(super) index: Option<index::MergedIndex>,
}

impl Parts {
    pub(super) fn write(
        &mut self,
        w: &mut impl Write,
        header: &Header,
        stop: &AtomicBool,
    ) -> std::io::Result<()> {
        let mut positions = std::io::BufReader::new(self.positions.reopen().map_err(to_io)?);
        let hashes = std::iter::from_fn(|| {
            let mut rec = [0u8; POS_SIZE];
            match positions.read_exact(&mut rec) {
                Ok(()) => {
                    let key = Key {
                        player: u64::from_le_bytes(rec[0..8].try_into().unwrap_or_default()),
                        opponent: u64::from_le_bytes(rec[8..16].try_into().unwrap_or_default()),
                    };
                    Some(Ok(stable_hash(key)))
                }
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => None,
                Err(e) => Some(Err(e)),
            }
        });
        write_index(w, hashes, header.positions as usize, header.bucket_bits)?;
        std::io::copy(&mut self.positions.reopen().map_err(to_io)?, w)?;
        std::io::copy(&mut self.moves.reopen().map_err(to_io)?, w)?;
        self.write_nodes(w)?;
        if let Some(g) = &mut self.games {
            std::io::copy(&mut g.records.reopen().map_err(to_io)?, w)?;
            std::io::copy(&mut g.moves.reopen().map_err(to_io)?, w)?;
            let mut at = 0u32;
            w.write_all(&at.to_le_bytes())?;
            for n in &g.names {
                at += n.len() as u32;
                w.write_all(&at.to_le_bytes())?;
            }
            for n in &g.names {
                w.write_all(n.as_bytes())?;
            }
            if let Some(index) = &mut self.index {
                let names = g.names.len();
                index.write(&mut g.records, g.size.games, names, stop, w)?;
            }
        }
        Ok(())
    }

    /// The root, then each depth's nodes with their places made node numbers.
    fn write_nodes(&mut self, w: &mut impl Write) -> std::io::Result<()> {
        let t = &mut self.trie;
        let root = NodeEntry {
            parent: NO_PARENT,
            code: ROOT_CODE,
            stats: t.root,
            first_child: if t.kept[1] > 0 { 1 } else { 0 },
            child_count: t.kept[1] as u32,
        };
        w.write_all(&node_bytes(&root))?;
        let starts: Vec<u64> = (0..t.kept.len() + 1).map(|d| t.start_of(d)).collect();
        for d in 1..t.kept.len() - 1 {
            if t.kept[d] == 0 {
                break;
            }
            let mut r = std::io::BufReader::new(t.files[d - 1].reopen().map_err(to_io)?);
            let mut rec = [0u8; NODE_SIZE];
            for _ in 0..t.kept[d] {
                r.read_exact(&mut rec)?;
                let mut n = get_node(&rec);
                n.parent = (starts[d - 1] + u64::from(n.parent)) as u32;
                n.first_child = if n.child_count > 0 {
                    (starts[d + 1] + u64::from(n.first_child)) as u32
                } else {
                    0
                };
                w.write_all(&node_bytes(&n))?;
            }
        }
        Ok(())
    }
}
