//! The weight file (`books/eval.bin`, embedded as the default weights): reading it with every
//! check, writing it atomically.
//!
//! Format (all integers little-endian), version [`FORMAT_VERSION`]:
//! - 8 bytes magic `OTHBEVAL`, `u32` version;
//! - `u32` pattern count, then each pattern's base mask as `u64` (must equal this build's);
//! - `u32` phase count `P`, then 61 bytes: the phase of each empty count 0..=60 (each < `P`);
//! - per phase: two `i16` biases (even, odd empty count), then the representative weights of
//!   every pattern in pattern order ([`PatternEval::weights_per_phase`] `i16`s per phase);
//! - the checksum of everything before it ([`crate::book::checksum`]), `u64`.

use super::file_error::EvalFileError;
use super::geometry::{N_PATTERNS, PATTERN_MASKS, PATTERN_NAMES};
use super::pattern::{PatternEval, PHASE_SLOTS};
use std::path::Path;

/// Weight file format version written and read by this build.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"OTHBEVAL";

fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], EvalFileError> {
    let end = *at + n;
    let s = bytes.get(*at..end).ok_or(EvalFileError::Truncated {
        expected: end,
        found: bytes.len(),
    })?;
    *at = end;
    Ok(s)
}

fn take_u32(bytes: &[u8], at: &mut usize) -> Result<u32, EvalFileError> {
    let s = take(bytes, at, 4)?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

impl PatternEval {
    /// Reads weights written by [`PatternEval::to_bytes`] / [`PatternEval::save`], checking
    /// magic, version, size, checksum, patterns and phase table.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, EvalFileError> {
        let mut at = 0;
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(EvalFileError::BadMagic);
        }
        at += MAGIC.len();
        let version = take_u32(bytes, &mut at)?;
        if version != FORMAT_VERSION {
            return Err(EvalFileError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let n_patterns = take_u32(bytes, &mut at)? as usize;
        if n_patterns != N_PATTERNS {
            return Err(EvalFileError::Patterns(format!(
                "{n_patterns} patterns, this build has {N_PATTERNS}"
            )));
        }
        let masks = take(bytes, &mut at, 8 * N_PATTERNS)?;
        let n_phases = take_u32(bytes, &mut at)? as usize;
        if n_phases == 0 || n_phases > 61 {
            return Err(EvalFileError::Phases(format!(
                "{n_phases} phases (use 1 to 61)"
            )));
        }
        let phase_at = at;
        let per = Self::weights_per_phase();
        let expected = phase_at + PHASE_SLOTS + n_phases * (2 + per) * 2 + 8;
        if bytes.len() < expected {
            return Err(EvalFileError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(EvalFileError::Trailing {
                extra: bytes.len() - expected,
            });
        }
        let body = &bytes[..expected - 8];
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[expected - 8..]);
        let stored = u64::from_le_bytes(stored);
        let computed = crate::book::checksum(body);
        if stored != computed {
            return Err(EvalFileError::Checksum { stored, computed });
        }
        for (i, (chunk, want)) in masks.chunks_exact(8).zip(PATTERN_MASKS).enumerate() {
            let mut m = [0u8; 8];
            m.copy_from_slice(chunk);
            let got = u64::from_le_bytes(m);
            if got != want {
                return Err(EvalFileError::Patterns(format!(
                    "pattern {i} ({}) has mask {got:#018x}, this build {want:#018x}",
                    PATTERN_NAMES[i]
                )));
            }
        }
        let mut phase_of = [0u8; PHASE_SLOTS];
        phase_of.copy_from_slice(take(bytes, &mut at, PHASE_SLOTS)?);
        let mut bias = Vec::with_capacity(n_phases);
        let mut weights = Vec::with_capacity(n_phases * per);
        let i16s = |s: &[u8]| -> Vec<i16> {
            s.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        for _ in 0..n_phases {
            let b = i16s(take(bytes, &mut at, 4)?);
            bias.push([b[0], b[1]]);
            weights.extend(i16s(take(bytes, &mut at, 2 * per)?));
        }
        PatternEval::from_parts(phase_of, bias, weights)
    }

    /// Reads a weight file.
    pub fn load(path: impl AsRef<Path>) -> Result<PatternEval, EvalFileError> {
        let path = path.as_ref();
        // The largest file the format allows (61 phases): more cannot be weights, and a device
        // such as /dev/zero must not be read forever.
        let most = MAGIC.len() + 8 + 8 * N_PATTERNS + 4 + PHASE_SLOTS;
        let most = most + 61 * (2 + Self::weights_per_phase()) * 2 + 8;
        let bytes = crate::bounded_read::read_capped(path, most as u64)?;
        PatternEval::from_bytes(&bytes).map_err(|e| EvalFileError::InFile {
            path: path.to_path_buf(),
            source: Box::new(e),
        })
    }

    /// The weight file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let per = Self::weights_per_phase();
        let weights = self.representatives();
        let bias = self.biases();
        let mut out = Vec::with_capacity(128 + weights.len() * 2 + bias.len() * 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(N_PATTERNS as u32).to_le_bytes());
        for m in PATTERN_MASKS {
            out.extend_from_slice(&m.to_le_bytes());
        }
        out.extend_from_slice(&(bias.len() as u32).to_le_bytes());
        out.extend_from_slice(self.phase_of());
        for (ph, b) in bias.iter().enumerate() {
            out.extend_from_slice(&b[0].to_le_bytes());
            out.extend_from_slice(&b[1].to_le_bytes());
            for w in &weights[ph * per..(ph + 1) * per] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = crate::book::checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the weight file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), EvalFileError> {
        let path = path.as_ref();
        let bytes = self.to_bytes();
        crate::atomic_file::replace(path, |f| std::io::Write::write_all(f, &bytes)).map_err(
            |source| EvalFileError::Io {
                path: path.to_path_buf(),
                source,
            },
        )
    }
}
