//! Opening game inputs as byte streams: regular files, pipes, FIFOs and standard input (`-`)
//! alike, gzip unpacked on the fly (any format), so that no input is ever held whole.

use flate2::read::MultiGzDecoder;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// The path that names standard input.
pub const STDIN: &str = "-";

/// How an input file is shown in messages: its path, or `<stdin>` for `-`.
#[must_use]
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == STDIN {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// An opened input: the unpacked bytes as a stream.
pub(crate) struct Opened {
    pub reader: Box<dyn Read + Send>,
    /// The input is a regular file (it has a folder, a size, and can be named again).
    pub regular: bool,
}

/// Counts the raw bytes read from the source (before unpacking), for progress reports.
struct Counting<R> {
    inner: R,
    progress: std::sync::Arc<dyn Fn(u64) + Send + Sync>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.progress)(n as u64);
        Ok(n)
    }
}

/// Opens `path` (`-` for standard input) as a stream; gzip data (by its magic bytes) is
/// unpacked as it is read. Directories and devices are refused: reading `/dev/zero` would
/// never end. The error is a message for the summary.
pub(crate) fn open(
    path: &Path,
    progress: std::sync::Arc<dyn Fn(u64) + Send + Sync>,
) -> Result<Opened, String> {
    let (raw, regular): (Box<dyn Read + Send>, bool) = if path.as_os_str() == STDIN {
        (Box::new(io::stdin()), false)
    } else {
        let file = File::open(path).map_err(|e| format!("cannot open: {e}"))?;
        let meta = file.metadata().map_err(|e| format!("cannot read: {e}"))?;
        let kind = meta.file_type();
        if kind.is_dir() {
            return Err("is a folder, not a game file".into());
        }
        if !meta.is_file() && !is_stream(&kind) {
            return Err("is a device, not a file or a pipe: it is not read".into());
        }
        (Box::new(file), meta.is_file())
    };
    let mut counted = Counting {
        inner: raw,
        progress,
    };
    // The first two bytes say whether it is gzip; a pipe may deliver them one at a time.
    let mut magic = [0u8; 2];
    let mut have = 0;
    while have < 2 {
        match counted.read(&mut magic[have..]) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read: {e}")),
        }
    }
    let whole = io::Cursor::new(magic[..have].to_vec()).chain(counted);
    let buffered = BufReader::with_capacity(1 << 16, whole);
    let reader: Box<dyn Read + Send> = if magic[..have] == [0x1f, 0x8b] {
        Box::new(GzipMessages(MultiGzDecoder::new(buffered)))
    } else {
        Box::new(buffered)
    };
    Ok(Opened { reader, regular })
}

/// Names gzip failures as such, so the summary says why a `.gz` stopped.
struct GzipMessages<R>(R);

impl<R: Read> Read for GzipMessages<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("bad gzip data: {e}")))
    }
}

#[cfg(unix)]
fn is_stream(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_fifo() || kind.is_socket()
}

#[cfg(not(unix))]
fn is_stream(_kind: &std::fs::FileType) -> bool {
    false
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
