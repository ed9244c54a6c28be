//! Stable discs (discs that can never be flipped): a lower bound used by the evaluation and by
//! the endgame solver's stability cutoffs.
//!
//! Edges are exact (a table over every edge configuration, computed once); the interior uses
//! full lines and contact with stable discs, as in the classic solvers. The result is always a
//! subset of the truly stable discs, which is what makes the cutoffs sound.

use std::sync::OnceLock;

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// `EDGE[p * 256 + o]`: the discs of `p` (bits 0-7 of one edge) stable along that edge.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // A disc is stable when it stays `p`'s in every position reachable by plays on the
        // edge. Children have one empty square fewer, so filling the table by increasing
        // number of empties makes each entry the intersection of finished ones.
        let mut t = vec![0u8; 65536];
        let mut states: Vec<(u8, u8)> = (0..256u32)
            .flat_map(|p| (0..256u32).map(move |o| (p as u8, o as u8)))
            .filter(|&(p, o)| p & o == 0)
            .collect();
        states.sort_by_key(|&(p, o)| (!(p | o)).count_ones());
        for (p, o) in states {
            let empty = !(p | o);
            let mut stable = p;
            for x in 0..8 {
                if empty >> x & 1 == 0 {
                    continue;
                }
                let (np, no) = play_line(p, o, x);
                stable &= t[usize::from(np) * 256 + usize::from(no)];
                let (no2, np2) = play_line(o, p, x);
                stable &= t[usize::from(np2) * 256 + usize::from(no2)];
            }
            t[usize::from(p) * 256 + usize::from(o)] = stable;
        }
        t
    })
}

/// Reference for the table: every sequence of plays explored explicitly (tests only).
#[cfg(test)]
fn find_edge_stable(p: u8, o: u8, stable: u8) -> u8 {
    let stable = stable & p;
    let empty = !(p | o);
    if stable == 0 || empty == 0 {
        return stable;
    }
    let mut stable = stable;
    for x in 0..8 {
        if empty >> x & 1 == 0 {
            continue;
        }
        let (np, no) = play_line(p, o, x);
        stable = find_edge_stable(np, no, stable);
        if stable == 0 {
            return 0;
        }
        let (no2, np2) = play_line(o, p, x);
        stable = find_edge_stable(np2, no2, stable);
        if stable == 0 {
            return 0;
        }
    }
    stable
}

/// One-dimensional play of `me` on square `x` of a line: returns (me, other) afterwards.
fn play_line(me: u8, other: u8, x: u32) -> (u8, u8) {
    let mut me = me | 1 << x;
    let mut other = other;
    let mut flips = 0u8;
    let mut y = x as i32 - 1;
    let mut run = 0u8;
    while y >= 0 && other >> y & 1 == 1 {
        run |= 1 << y;
        y -= 1;
    }
    if y >= 0 && me >> y & 1 == 1 {
        flips |= run;
    }
    let mut y = x + 1;
    let mut run = 0u8;
    while y < 8 && other >> y & 1 == 1 {
        run |= 1 << y;
        y += 1;
    }
    if y < 8 && me >> y & 1 == 1 {
        flips |= run;
    }
    me |= flips;
    other &= !flips;
    (me, other)
}

/// Bits 0,8,..,56 of `x` (file A) packed into a byte, row 1 in bit 0.
#[inline]
fn pack_file_a(x: u64) -> u64 {
    ((x & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Inverse of [`pack_file_a`].
#[inline]
fn unpack_file_a(b: u64) -> u64 {
    static TABLE: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut b = 0;
        while b < 256 {
            let mut i = 0;
            while i < 8 {
                if b >> i & 1 == 1 {
                    t[b] |= 1u64 << (8 * i);
                }
                i += 1;
            }
            b += 1;
        }
        t
    };
    TABLE[b as usize & 255]
}

/// Discs of `p` stable along the four edges (exact for each edge taken alone).
#[inline]
#[must_use]
pub fn edge_stable(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let idx = |pp: u64, oo: u64| (pp as usize) * 256 + oo as usize;
    let top = u64::from(t[idx(p & 0xFF, o & 0xFF)]);
    let bottom = u64::from(t[idx(p >> 56, o >> 56)]) << 56;
    let a = unpack_file_a(u64::from(t[idx(pack_file_a(p), pack_file_a(o))]));
    let h = unpack_file_a(u64::from(t[idx(pack_file_a(p >> 7), pack_file_a(o >> 7))])) << 7;
    top | bottom | a | h
}

/// Discs of `p` joined to an own corner by an unbroken run of own discs along an edge: always
/// stable, and much cheaper than [`edge_stable`] (for the evaluation).
#[inline]
#[must_use]
pub fn corner_anchored(p: u64) -> u64 {
    const ROWS_1_8: u64 = 0xFF00_0000_0000_00FF;
    const FILES_A_H: u64 = 0x8181_8181_8181_8181;
    let corners = p & 0x8100_0000_0000_0081;
    if corners == 0 {
        return 0;
    }
    // Occluded fills from the corners: east and west along rows 1 and 8, south and north
    // along files a and h.
    let fill = |shift: fn(u64, u32) -> u64, step: u32, prop: u64| {
        let mut g = corners;
        let mut pr = prop;
        g |= pr & shift(g, step);
        pr &= shift(pr, step);
        g |= pr & shift(g, 2 * step);
        pr &= shift(pr, 2 * step);
        g |= pr & shift(g, 4 * step);
        g
    };
    let shl = |x: u64, n: u32| x << n;
    let shr = |x: u64, n: u32| x >> n;
    let east = fill(shl, 1, p & ROWS_1_8 & 0xFEFE_FEFE_FEFE_FEFE);
    let west = fill(shr, 1, p & ROWS_1_8 & 0x7F7F_7F7F_7F7F_7F7F);
    let south = fill(shl, 8, p & FILES_A_H);
    let north = fill(shr, 8, p & FILES_A_H);
    east | west | south | north
}

/// Full lines of `occ` in the four directions: (horizontal, vertical, a1-h8 diagonal,
/// h1-a8 diagonal). A square is set when its whole line in that direction is occupied.
#[inline]
fn full_lines(occ: u64) -> [u64; 4] {
    // Horizontal: a row is full when all 8 bits are set.
    let mut h = occ & (occ >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    h &= h >> 2;
    h &= h >> 4;
    h &= FILE_A;
    let h = h * 0xFF;

    let mut v = occ;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);

    [
        h,
        v,
        diag_full(occ, 9, 0xFF80_8080_8080_8080, 0x0101_0101_0101_01FF),
        diag_full(occ, 7, 0xFF01_0101_0101_0101, 0x8080_8080_8080_80FF),
    ]
}

/// Squares whose diagonal is fully occupied. `s` is the index step along it, `last` the
/// squares with no next square toward higher indices, `first` those with none toward lower.
/// Each direction marks the squares with an empty square at or beyond them by an occluded
/// fill that doubles its reach each step (1, 2, then 4 squares): 3 steps instead of 7.
#[inline]
fn diag_full(occ: u64, s: u32, last: u64, first: u64) -> u64 {
    let empty = !occ;
    let mut pro = !last;
    let mut up = empty;
    up |= pro & (up >> s);
    pro &= pro >> s;
    up |= pro & (up >> (2 * s));
    pro &= pro >> (2 * s);
    up |= pro & (up >> (4 * s));
    let mut pro = !first;
    let mut down = empty;
    down |= pro & (down << s);
    pro &= pro << s;
    down |= pro & (down << (2 * s));
    pro &= pro << (2 * s);
    down |= pro & (down << (4 * s));
    !(up | down)
}

/// Discs of `p` that can never be flipped (a subset of them: edges exactly, interior by full
/// lines and contact).
#[must_use]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let occ = p | o;
    let mut stable = edge_stable(p, o);
    let [h, v, d9, d7] = full_lines(occ);
    let all_full = h & v & d9 & d7;
    stable |= p & all_full;
    if stable == 0 {
        return 0;
    }
    // A disc is stable when, in each of the four directions, its line is full or one of its
    // two neighbours on the line is a stable disc of the same colour (or the border).
    loop {
        let old = stable;
        let sh = (stable >> 1) & 0x7F7F_7F7F_7F7F_7F7F
            | (stable << 1) & 0xFEFE_FEFE_FEFE_FEFE
            | 0x8181_8181_8181_8181
            | h;
        let sv = stable >> 8 | stable << 8 | 0xFF00_0000_0000_00FF | v;
        let sd9 = (stable >> 9) & 0x007F_7F7F_7F7F_7F7F
            | (stable << 9) & 0xFEFE_FEFE_FEFE_FE00
            | 0xFF81_8181_8181_81FF
            | d9;
        let sd7 = (stable >> 7) & 0x00FE_FEFE_FEFE_FEFE
            | (stable << 7) & 0x7F7F_7F7F_7F7F_7F00
            | 0xFF81_8181_8181_81FF
            | d7;
        stable |= p & sh & sv & sd9 & sd7;
        if stable == old {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_packing_round_trips() {
        for b in 0..256u64 {
            let x = unpack_file_a(b);
            assert_eq!(x & !FILE_A, 0);
            assert_eq!(pack_file_a(x), b);
            assert_eq!(pack_file_a(x | 0xFEFE_FEFE_FEFE_FEFE), b);
        }
    }

    /// Squares whose line in each direction is full, square by square.
    fn full_reference(occ: u64) -> [u64; 4] {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)];
        let mut out = [0u64; 4];
        for (k, &(dc, dr)) in dirs.iter().enumerate() {
            for sq in 0..64 {
                let (c, r) = (sq % 8, sq / 8);
                let mut full = true;
                for sign in [-1, 1] {
                    let (mut cc, mut rr) = (c + sign * dc, r + sign * dr);
                    while (0..8).contains(&cc) && (0..8).contains(&rr) {
                        if occ >> (rr * 8 + cc) & 1 == 0 {
                            full = false;
                        }
                        cc += sign * dc;
                        rr += sign * dr;
                    }
                }
                if full && occ >> sq & 1 == 1 {
                    out[k] |= 1 << sq;
                }
            }
        }
        out
    }

    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn full_lines_match_reference() {
        let mut next = rng(0x1234_5678_9ABC_DEF1);
        for _ in 0..20000 {
            let occ = next() | next() | next();
            let got = full_lines(occ);
            let want = full_reference(occ);
            for k in 0..4 {
                assert_eq!(got[k] & occ, want[k], "dir {k} occ={occ:#x}");
            }
        }
    }

    /// Stability must be sound: no disc called stable is ever flipped in random playouts.
    #[test]
    fn stable_discs_are_never_flipped() {
        use crate::board::movegen::{flips, moves};
        let mut next = rng(0xDEAD_BEEF_1234_5679);
        for _ in 0..300 {
            // Random game from the start to a random ply, then random playouts.
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let plies = 20 + next() % 40;
            for _ in 0..plies {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                let mut bits = m;
                for _ in 0..(next() % u64::from(m.count_ones())) {
                    bits &= bits - 1;
                }
                let sq = bits.trailing_zeros() as u8;
                let f = flips(p, o, sq);
                (p, o) = (o & !f, p | f | 1 << sq);
            }
            let sp = stable_discs(p, o);
            let so = stable_discs(o, p);
            assert_eq!(sp & !p, 0);
            assert_eq!(so & !o, 0);
            for _ in 0..20 {
                let (mut a, mut b) = (p, o);
                let mut a_is_p = true;
                loop {
                    let m = moves(a, b);
                    if m == 0 {
                        if moves(b, a) == 0 {
                            break;
                        }
                        std::mem::swap(&mut a, &mut b);
                        a_is_p = !a_is_p;
                        continue;
                    }
                    let mut bits = m;
                    for _ in 0..(next() % u64::from(m.count_ones())) {
                        bits &= bits - 1;
                    }
                    let sq = bits.trailing_zeros() as u8;
                    let f = flips(a, b, sq);
                    (a, b) = (b & !f, a | f | 1 << sq);
                    a_is_p = !a_is_p;
                    let (pp, oo) = if a_is_p { (a, b) } else { (b, a) };
                    assert_eq!(sp & !pp, 0, "a stable disc of p was flipped");
                    assert_eq!(so & !oo, 0, "a stable disc of o was flipped");
                }
            }
        }
    }

    #[test]
    fn edge_table_matches_explicit_search() {
        let t = edge_table();
        for p in 0..256u32 {
            for o in (0..256u32).step_by(3) {
                if p & o == 0 {
                    assert_eq!(
                        t[(p * 256 + o) as usize],
                        find_edge_stable(p as u8, o as u8, p as u8),
                        "p={p:08b} o={o:08b}"
                    );
                }
            }
        }
    }

    #[test]
    fn anchored_edges_are_stable() {
        let mut next = rng(0xABCD_EF01_2345_6789);
        for _ in 0..20000 {
            let occ = next() | next();
            let p = occ & next();
            let o = occ & !p;
            let a = corner_anchored(p);
            assert_eq!(a & !stable_discs(p, o), 0, "p={p:#x} o={o:#x}");
        }
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = 0x0F0F_0F0F_0F0F_0F0Fu64;
        assert_eq!(stable_discs(p, !p), p);
        assert_eq!(edge_stable(0x81, 0), 0x81);
    }
}
