//! Reading a protocol peer's lines with a bound: the longest line either side takes, and a
//! reader that skips a longer one instead of growing without end.

use std::io::{self, BufRead};

/// The longest line a protocol session takes (an NBoard `set game` of a long game is a few
/// hundred kilobytes); a longer one is skipped, so no input can make memory grow without end.
pub const MAX_LINE: usize = 16 << 20;

/// A line read from a protocol peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireLine {
    /// The line without its end, bytes that are not UTF-8 replaced.
    Text(String),
    /// A line longer than [`MAX_LINE`], skipped to its end.
    TooLong,
}

/// The next line of `input` without its line end, bytes that are not UTF-8 replaced (a bad
/// byte spoils one command, not the session); `None` at the end of input.
pub fn read_line_lossy(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> io::Result<Option<WireLine>> {
    buf.clear();
    let limit = MAX_LINE as u64 + 1;
    if io::Read::take(&mut *input, limit).read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
        // Skip to the end of the line without keeping it.
        loop {
            buf.clear();
            let n = io::Read::take(&mut *input, 1 << 16).read_until(b'\n', buf)?;
            if n == 0 || buf.last() == Some(&b'\n') {
                break;
            }
        }
        buf.clear();
        return Ok(Some(WireLine::TooLong));
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(WireLine::Text(
        String::from_utf8_lossy(buf).into_owned(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_an_endless_line_grew_memory_without_bound() {
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nname\n");
        let mut input = io::Cursor::new(long);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_lossy(&mut input, &mut buf).unwrap(),
            Some(WireLine::TooLong)
        );
        assert!(buf.capacity() <= 2 * (MAX_LINE + 1));
        assert_eq!(
            read_line_lossy(&mut input, &mut buf).unwrap(),
            Some(WireLine::Text("name".into()))
        );
        assert_eq!(read_line_lossy(&mut input, &mut buf).unwrap(), None);
    }
}
