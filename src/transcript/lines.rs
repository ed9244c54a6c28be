//! Lines of a text file whatever its line ends (LF, CRLF, CR alone), numbered from 1, and
//! splitting a file into chunks of whole lines for parallel parsing.

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
    let mut n = 0;
    let mut prev_cr = false;
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

/// Splits `bytes` into pieces of about `target` bytes that end after a line end, each with
/// the number of its first line. A CRLF pair is never split.
pub(crate) fn chunks(bytes: &[u8], target: usize, first_no: u64) -> Vec<(u64, &[u8])> {
    let mut cuts = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let mut end = (start + target).min(bytes.len());
        while end < bytes.len() && !is_cut(bytes, end) {
            end += 1;
        }
        cuts.push(&bytes[start..end]);
        start = end;
    }
    let counts: Vec<u64> = {
        use rayon::prelude::*;
        cuts.par_iter().map(|c| count_line_ends(c)).collect()
    };
    let mut no = first_no;
    cuts.into_iter()
        .zip(counts)
        .map(|(c, n)| {
            let here = no;
            no += n;
            (here, c)
        })
        .collect()
}

/// Whether a chunk may end just before `at`: right after a line end, not inside CRLF.
fn is_cut(bytes: &[u8], at: usize) -> bool {
    match bytes[at - 1] {
        b'\n' => true,
        b'\r' => bytes[at] != b'\n',
        _ => false,
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
    fn chunks_keep_line_numbers() {
        let text: Vec<u8> = (0..200)
            .flat_map(|i| format!("line{i}{}", ["\n", "\r\n", "\r"][i % 3]).into_bytes())
            .collect();
        let whole: Vec<(u64, Vec<u8>)> =
            Lines::new(&text, 1).map(|(n, l)| (n, l.to_vec())).collect();
        for target in [1, 7, 64, 10_000] {
            let pieces: Vec<(u64, Vec<u8>)> = chunks(&text, target, 1)
                .into_iter()
                .flat_map(|(no, c)| {
                    Lines::new(c, no)
                        .map(|(n, l)| (n, l.to_vec()))
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(pieces, whole, "target {target}");
        }
    }
}
