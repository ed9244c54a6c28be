//! Little-endian numbers read from the book's fixed-width records.

/// Little-endian `u32` at `at` (zero if out of range: callers pass whole records).
#[inline]
#[must_use]
pub fn le32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// Little-endian `u64` at `at` (zero if out of range: callers pass whole records).
#[inline]
#[must_use]
pub fn le64(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}
