//! Ridge least squares per phase by Jacobi-preconditioned conjugate gradients, with a weight
//! per position and a prior the weights are pulled toward (0 when there is none).

use super::samples::Samples;
use crate::engine::eval::geometry::{layout, INSTANCES, N_INSTANCES};
use crate::engine::SCALE;

/// Start of each instance's pattern inside a phase's representative weights.
pub(super) fn slot_offsets() -> [u32; N_INSTANCES] {
    let lay = layout();
    let mut o = [0u32; N_INSTANCES];
    for (slot, inst) in o.iter_mut().zip(INSTANCES.iter()) {
        *slot = lay.offsets[inst.pattern as usize] as u32;
    }
    o
}

/// Ridge least squares over one range of samples by Jacobi-preconditioned conjugate
/// gradients. Parameters: the representative weights, then two biases (even, odd empties).
pub(super) struct Fit<'a> {
    pub(super) s: &'a Samples,
    pub(super) range: std::ops::Range<usize>,
    pub(super) off: [u32; N_INSTANCES],
    pub(super) per: usize,
    pub(super) lambda: f64,
    /// Ridge penalty of the two biases.
    pub(super) lambda_bias: f64,
}

impl Fit<'_> {
    fn params(&self) -> usize {
        self.per + 2
    }

    /// The ridge penalty of parameter `i`.
    fn lambda_of(&self, i: usize) -> f64 {
        if i < self.per {
            self.lambda
        } else {
            self.lambda_bias
        }
    }

    /// Calls `f(row, feature ids)` for every sample; the ids are the sample's 46 pattern
    /// weights and its bias.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(usize, &[u32; N_INSTANCES + 1])) {
        let mut ids = [0u32; N_INSTANCES + 1];
        for j in self.range.clone() {
            let row = &self.s.feats[j * N_INSTANCES..(j + 1) * N_INSTANCES];
            for k in 0..N_INSTANCES {
                ids[k] = self.off[k] + u32::from(row[k]);
            }
            ids[N_INSTANCES] = (self.per + usize::from(self.s.empties[j] & 1)) as u32;
            f(j, &ids);
        }
    }

    /// `(AᵀWA + λ) v`, W the positions' weights.
    fn normal(&self, v: &[f64], out: &mut [f64]) {
        for (i, (o, x)) in out.iter_mut().zip(v).enumerate() {
            *o = self.lambda_of(i) * x;
        }
        self.for_each(|j, ids| {
            let t = f64::from(self.s.weight[j]) * ids.iter().map(|&i| v[i as usize]).sum::<f64>();
            for &i in ids {
                out[i as usize] += t;
            }
        });
    }

    /// Minimises Σ weight·(Aw - y)² + λ|w - prior|² (prior 0 when `None`), from `start`.
    pub(super) fn solve(
        &self,
        iterations: usize,
        start: &[f64],
        prior: Option<&[f64]>,
    ) -> (Vec<f64>, f64) {
        let n = self.params();
        let mut diag: Vec<f64> = (0..n).map(|i| self.lambda_of(i)).collect();
        let mut b = match prior {
            Some(w0) => w0.iter().zip(&diag).map(|(x, l)| l * x).collect(),
            None => vec![0.0; n],
        };
        self.for_each(|j, ids| {
            let c = f64::from(self.s.weight[j]);
            let y = c * f64::from(self.s.label[j]);
            for &i in ids {
                diag[i as usize] += c;
                b[i as usize] += y;
            }
        });
        let mut w = start.to_vec();
        let mut q = vec![0.0; n];
        self.normal(&w, &mut q);
        let mut r: Vec<f64> = b.iter().zip(&q).map(|(b, q)| b - q).collect();
        let b_norm = b.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-30);
        let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
        let mut p = z.clone();
        let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        for _ in 0..iterations {
            if rz <= 0.0 {
                break;
            }
            self.normal(&p, &mut q);
            let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
            if pq <= 0.0 {
                break;
            }
            let alpha = rz / pq;
            for i in 0..n {
                w[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                z[i] = r[i] / diag[i];
            }
            let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
            let beta = rz_new / rz;
            rz = rz_new;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        let residual = r.iter().map(|x| x * x).sum::<f64>().sqrt() / b_norm;
        (w, residual)
    }

    pub(super) fn predict(&self, w: &[f64], mut f: impl FnMut(usize, f64)) {
        self.for_each(|j, ids| f(j, ids.iter().map(|&i| w[i as usize]).sum()));
    }
}

pub(super) fn mean(sum: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Least-squares `label ≈ a · hand + c` (hand in discs) over a range of samples.
pub(super) fn fit_hand(s: &Samples, range: std::ops::Range<usize>) -> (f64, f64) {
    let n = range.len() as f64;
    if n < 2.0 {
        return (1.0, 0.0);
    }
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for j in range {
        let x = f64::from(s.hand[j]) / f64::from(SCALE);
        let y = f64::from(s.label[j]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let var = sxx - sx * sx / n;
    if var <= 1e-12 {
        return (0.0, sy / n);
    }
    let a = (sxy - sx * sy / n) / var;
    (a, (sy - a * sx) / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_fit_recovers_a_line() {
        let mut s = Samples::default();
        for h in [-300i16, -100, 0, 200, 500] {
            s.hand.push(h);
            s.label.push(2.0 * f32::from(h) / 100.0 + 3.0);
        }
        let (a, c) = fit_hand(&s, 0..5);
        assert!((a - 2.0).abs() < 1e-9 && (c - 3.0).abs() < 1e-9, "{a} {c}");
    }
}
