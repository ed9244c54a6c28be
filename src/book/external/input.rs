//! The books a streaming merge reads: each table read front to back through a small
//! buffer (`pread`, not a memory map, so what was read does not stay in the process's
//! memory), and a book given by the user checked block by block before it is used.

use crate::book::checksum::checksum;
use crate::book::format::{le64, Header, Layout, BLOCK_LOG2};
use crate::book::{Book, BookError};
use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::Arc;

/// An opened input book: its header and layout (checked), and the file.
pub(crate) struct Input {
    pub name: Arc<str>,
    pub file: Arc<File>,
    pub header: Header,
    pub layout: Layout,
}

impl Input {
    /// Opens `path`, checking its preamble, header and layout; with `verify`, every data
    /// block's checksum too (read once, front to back).
    pub fn open(path: &Path, verify: bool) -> Result<Input, BookError> {
        let book = Book::open_lazy(path)?;
        let name: Arc<str> = Arc::from(path.display().to_string());
        let io = |e: std::io::Error| BookError::Io {
            path: name.to_string(),
            source: e,
        };
        let input = Input {
            file: Arc::new(File::open(path).map_err(io)?),
            header: book.header().clone(),
            layout: book.layout().clone(),
            name: name.clone(),
        };
        drop(book);
        if verify {
            input.verify()?;
        }
        Ok(input)
    }

    fn verify(&self) -> Result<(), BookError> {
        let l = &self.layout;
        let mut sums = vec![0u8; l.sums.len()];
        self.read_at(&mut sums, l.sums.start as u64)?;
        let mut block = vec![0u8; 1 << BLOCK_LOG2];
        for b in 0..l.blocks() {
            let r = l.block(b);
            let buf = &mut block[..r.len()];
            self.read_at(buf, r.start as u64)?;
            if checksum(buf) != le64(&sums, 8 * b) {
                return Err(BookError::Invalid {
                    path: self.name.to_string(),
                    reason: format!(
                        "checksum mismatch in data block {b} (bytes {}..{}): the file is damaged",
                        r.start, r.end
                    ),
                });
            }
        }
        Ok(())
    }

    fn read_at(&self, buf: &mut [u8], at: u64) -> Result<(), BookError> {
        self.file.read_exact_at(buf, at).map_err(|e| BookError::Io {
            path: self.name.to_string(),
            source: e,
        })
    }

    /// A reader of `range` of the file, `buffer` bytes at a time.
    pub fn region(&self, range: Range<usize>, buffer: usize) -> Region {
        Region {
            name: self.name.clone(),
            file: self.file.clone(),
            at: range.start as u64,
            end: range.end as u64,
            buf: Vec::with_capacity(buffer.max(64)),
            pos: 0,
            cap: buffer.max(64),
        }
    }

    /// The whole of `range`, read into memory.
    pub fn read(&self, range: Range<usize>) -> Result<Vec<u8>, BookError> {
        let mut v = vec![0u8; range.len()];
        self.read_at(&mut v, range.start as u64)?;
        Ok(v)
    }

    pub fn damaged(&self, what: &str) -> BookError {
        BookError::Invalid {
            path: self.name.to_string(),
            reason: format!("inconsistent tables: {what}"),
        }
    }
}

/// Part of a file read front to back.
pub(crate) struct Region {
    name: Arc<str>,
    file: Arc<File>,
    at: u64,
    end: u64,
    buf: Vec<u8>,
    pos: usize,
    cap: usize,
}

impl Region {
    /// The next `size` bytes, or `None` at the end of the region.
    pub fn next(&mut self, size: usize) -> Result<Option<&[u8]>, BookError> {
        if self.buf.len() - self.pos < size {
            self.buf.drain(..self.pos);
            self.pos = 0;
            let want = (self.cap.max(size) - self.buf.len()) as u64;
            let take = want.min(self.end - self.at) as usize;
            let old = self.buf.len();
            self.buf.resize(old + take, 0);
            self.file
                .read_exact_at(&mut self.buf[old..], self.at)
                .map_err(|e| BookError::Io {
                    path: self.name.to_string(),
                    source: e,
                })?;
            self.at += take as u64;
            if self.buf.len() < size {
                return Ok(None);
            }
        }
        let s = &self.buf[self.pos..self.pos + size];
        self.pos += size;
        Ok(Some(s))
    }
}
