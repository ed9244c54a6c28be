//! Whole-file reads of paths the user names, bounded: a device such as `/dev/zero` or an
//! endless pipe would otherwise be read until memory runs out.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The most a text input (a position list, an openings list) may hold. Such inputs may come
/// through a pipe, whose size is unknown until its end, so they are capped rather than refused.
pub const TEXT_LIMIT: u64 = 256 << 20;

/// Why a file cannot be read whole.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system refused to open or read it.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A device, folder or pipe where a file whose size is known beforehand is needed.
    #[error("{}: not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// More bytes than the input may have.
    #[error("{}: larger than {limit} bytes, the most this input may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// Text that is not UTF-8.
    #[error("{}: not UTF-8 text (byte {at})", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// Offset of the first bad byte.
        at: usize,
    },
}

/// The contents of `path`, which may be a pipe (read to its end), but never more than `limit`
/// bytes.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    if meta.is_file() && meta.len() > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    read_stream(file, path, limit)
}

/// What `reader` (named `path` in errors) holds, read to its end, but never more than `limit`
/// bytes: for standard input and other streams without a size.
pub fn read_stream(reader: impl Read, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    // One byte past the limit tells a stream at the limit from a longer one.
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// `bytes` of `path` as text.
pub fn text_of(bytes: Vec<u8>, path: &Path) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| ReadError::NotText {
        path: path.to_path_buf(),
        at: e.utf8_error().valid_up_to(),
    })
}

/// [`read_capped`] for text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    text_of(read_capped(path, limit)?, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_device_stops_at_the_limit() {
        let err = read_capped(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge { limit: 1000, .. }),
            "{err}"
        );
        assert!(err
            .to_string()
            .starts_with("/dev/zero: larger than 1000 bytes"));
    }

    #[test]
    fn files_up_to_the_limit_are_read_and_larger_ones_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.txt");
        std::fs::write(&p, "f5d6\n").unwrap();
        assert_eq!(read_text(&p, 5).unwrap(), "f5d6\n");
        assert!(matches!(
            read_text(&p, 4),
            Err(ReadError::TooLarge { limit: 4, .. })
        ));
        assert!(matches!(
            read_text(dir.path(), 5),
            Err(ReadError::NotRegular { .. })
        ));
        std::fs::write(&p, b"ab\xffc").unwrap();
        assert!(matches!(
            read_text(&p, 5),
            Err(ReadError::NotText { at: 2, .. })
        ));
    }
}
