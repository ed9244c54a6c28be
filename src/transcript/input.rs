//! Opening input files: memory-mapped, gzip unpacked (any format), byte-order mark removed.

use flate2::read::MultiGzDecoder;
use memmap2::Mmap;
use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::Path;

/// The bytes of a file: mapped when read as is, owned when unpacked.
pub(crate) enum Data {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Deref for Data {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

/// Opens `path`; a gzip file (by its magic bytes) is unpacked. The error is a message for
/// the summary.
pub(crate) fn open(path: &Path) -> Result<Data, String> {
    let file = File::open(path).map_err(|e| format!("cannot open: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read: {e}"))?
        .len();
    if len == 0 {
        // Mapping an empty file fails on some systems; there is nothing to map anyway.
        return Ok(Data::Owned(Vec::new()));
    }
    if !file.metadata().map(|m| m.is_file()).unwrap_or(false) {
        return Err("not a regular file".into());
    }
    // SAFETY: the map is read-only and private to this process. Another process truncating
    // the file while we read it could fault (SIGBUS), the usual caveat for mapped input; the
    // files here are inputs that nothing should be rewriting during an ingest.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| format!("cannot map: {e}"))?;
    if map.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(map.len().saturating_mul(7));
        MultiGzDecoder::new(&map[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("bad gzip data: {e}"))?;
        return Ok(Data::Owned(out));
    }
    Ok(Data::Mapped(map))
}

/// `bytes` without a UTF-8 byte-order mark.
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes)
}

/// Unpacks gzip data held in memory (for callers that have bytes, not files).
pub(crate) fn gunzip_if_needed(bytes: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .map_err(|e| format!("bad gzip data: {e}"))?;
        Ok(std::borrow::Cow::Owned(out))
    } else {
        Ok(std::borrow::Cow::Borrowed(bytes))
    }
}
