//! Lines of a text file whatever its line ends (LF, CRLF, CR alone), numbered from 1.

/// Iterator over `(line number, line without its end)`.
pub(crate) struct Lines<'a> {
    rest: &'a [u8],
    next_no: u64,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(bytes: &'a [u8], first_no: u64) -> Self {
        Lines {
            rest: bytes,
            next_no: first_no,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let no = self.next_no;
        self.next_no += 1;
        match self.rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let line = &self.rest[..i];
                let skip = if self.rest[i] == b'\r' && self.rest.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.rest = &self.rest[i + skip..];
                Some((no, line))
            }
            None => {
                let line = self.rest;
                self.rest = &[];
                Some((no, line))
            }
        }
    }
}

/// Number of line ends in `bytes` (CRLF counted once).
pub(crate) fn count_line_ends(bytes: &[u8]) -> u64 {
    count_line_ends_after(false, bytes)
}

/// [`count_line_ends`] of a piece that follows a CR (`after_cr`): a leading LF then ends no
/// line of its own.
fn count_line_ends_after(after_cr: bool, bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut prev_cr = after_cr;
    for &b in bytes {
        if b == b'\n' {
            if !prev_cr {
                n += 1;
            }
            prev_cr = false;
        } else if b == b'\r' {
            n += 1;
            prev_cr = true;
        } else {
            prev_cr = false;
        }
    }
    n
}

/// The line numbers of positions in one text. Each question scans only from the previous
/// one, so a parser that asks at every token as it advances reads the text once instead of
/// once per token.
pub(crate) struct LineCounter<'a> {
    text: &'a [u8],
    /// Offset up to which line ends are counted.
    at: usize,
    /// Number of the line holding `at`.
    line: u64,
    first_no: u64,
}

impl<'a> LineCounter<'a> {
    /// A counter for `text`, whose first line is number `first_no`.
    pub(crate) fn new(text: &'a [u8], first_no: u64) -> Self {
        LineCounter {
            text,
            at: 0,
            line: first_no,
            first_no,
        }
    }

    /// Number of the line holding byte `offset` of the text (the last line for offsets past
    /// its end).
    pub(crate) fn line_at(&mut self, offset: usize) -> u64 {
        let offset = offset.min(self.text.len());
        if offset < self.at {
            // Parsers only go forward; going back costs a recount, never a wrong answer.
            self.at = 0;
            self.line = self.first_no;
        }
        let after_cr = self.at > 0 && self.text[self.at - 1] == b'\r';
        self.line += count_line_ends_after(after_cr, &self.text[self.at..offset]);
        self.at = offset;
        self.line
    }

    /// Number of the line holding the start of `rest`, a tail of the text.
    pub(crate) fn line_of(&mut self, rest: &[u8]) -> u64 {
        self.line_at(self.text.len() - rest.len())
    }
}

/// Comment lines in line-per-game formats: `#`, `%`, `;` or `//` first.
pub(crate) fn is_comment(line: &[u8]) -> bool {
    matches!(line.first(), Some(b'#' | b'%' | b';')) || line.starts_with(b"//")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_line_ends() {
        let text = b"a\r\nb\rc\n\nd";
        let got: Vec<(u64, &[u8])> = Lines::new(text, 1).collect();
        assert_eq!(
            got,
            vec![(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b""), (5, b"d")]
        );
        assert_eq!(count_line_ends(text), 4);
    }

    #[test]
    fn line_counter_agrees_with_counting_from_the_start() {
        let text = b"a\r\nb\rc\n\r\n\nd\r";
        for step in 1..4 {
            let mut c = LineCounter::new(text, 7);
            // Every offset, CRLF pairs split between two questions included.
            for at in (0..=text.len()).step_by(step) {
                assert_eq!(c.line_at(at), 7 + count_line_ends(&text[..at]), "{at}");
            }
            assert_eq!(c.line_at(2), 8, "going back");
        }
    }
}
