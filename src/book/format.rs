//! The book file format (docs/book-format.md): preamble, bincode header, fixed-width
//! little-endian tables, per-block checksums; and the writer, which replaces files atomically.

mod layout;
mod writer;
pub use crate::book::le::{le32, le64};
#[cfg(test)]
pub use layout::VERSION_GAMES;
pub use layout::{
    bucket_bits_for, bucket_of, get_move, get_node, get_pos, meta_checksum, Header, Layout,
    BLOCK_LOG2, MAGIC, MAX_HEADER, META_SUM_AT, MOVE_SIZE, NODE_SIZE, POS_SIZE, PREAMBLE, VERSION,
};
pub use writer::{encode, encode_with, write_book};
pub(crate) use writer::{move_bytes, node_bytes, pos_bytes, write_file, write_index, write_plain};

#[cfg(test)]
mod tests;
