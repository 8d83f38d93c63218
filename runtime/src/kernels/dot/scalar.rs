//! Portable reference versions of the dot micro-kernels ([`Scalar`]).

/// `acc[j] + sum_i x[i] * w[j][i]` for the four rows `w[j]` (each at least `x.len()` long),
/// wrapping.
#[inline(always)]
pub(crate) fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    for i in 0..n {
        let xv = x[i] as i32;
        a0 = a0.wrapping_add(xv * w0[i] as i32);
        a1 = a1.wrapping_add(xv * w1[i] as i32);
        a2 = a2.wrapping_add(xv * w2[i] as i32);
        a3 = a3.wrapping_add(xv * w3[i] as i32);
    }
    [a0, a1, a2, a3]
}

/// `acc + sum_i x[i] * w[i]` (`w` at least `x.len()` long), wrapping.
#[inline(always)]
pub(crate) fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
    let w = &w[..x.len()];
    x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
}

/// Four independent lanes: `acc[j] + x[j] * w[j]`, wrapping.
#[inline(always)]
pub(crate) fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
    core::array::from_fn(|j| acc[j].wrapping_add(x[j] as i32 * w[j] as i32))
}

/// [`dot4`] with `offset` added to every `x` first: `acc[j] + sum_i (x[i] + offset) * w[j][i]`
/// (`offset` is an input offset, `-128..=128`, so `x + offset` fits 9 bits).
#[inline(always)]
pub(crate) fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    for i in 0..n {
        let xv = x[i] as i32 + offset;
        a0 = a0.wrapping_add(xv * w0[i] as i32);
        a1 = a1.wrapping_add(xv * w1[i] as i32);
        a2 = a2.wrapping_add(xv * w2[i] as i32);
        a3 = a3.wrapping_add(xv * w3[i] as i32);
    }
    [a0, a1, a2, a3]
}

/// [`dot1`] with `offset` added to every `x` first.
#[inline(always)]
pub(crate) fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
    let w = &w[..x.len()];
    x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
}

/// [`mac4`] with `offset` added to every `x` first.
#[inline(always)]
pub(crate) fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    core::array::from_fn(|j| acc[j].wrapping_add((x[j] as i32 + offset) * w[j] as i32))
}

/// See [`super::Dot::widen4`].
#[inline(always)]
pub(crate) fn widen4(x: u32) -> [u32; 2] {
    let b = x.to_le_bytes();
    let lanes = |lo: u8, hi: u8| (lo as i8 as i16 as u16 as u32) | ((hi as i8 as i16 as u16 as u32) << 16);
    [lanes(b[0], b[2]), lanes(b[1], b[3])]
}

/// The int16 lanes of a [`widen4`] word, low first.
#[inline(always)]
fn lanes(v: u32) -> [i32; 2] {
    [v as u16 as i16 as i32, (v >> 16) as u16 as i16 as i32]
}

/// See [`super::Dot::dot_2x2`].
#[inline(always)]
pub(crate) fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    for (xg, wg) in x.chunks_exact(4).zip(w.chunks_exact(2)) {
        // Half h (0: taps 0 and 2, 1: taps 1 and 3): the lanes of pixel p are xg[2h + p],
        // the weights of channel j are bytes j and j + 2 of wg[h].
        for h in 0..2 {
            let wb = wg[h].to_le_bytes().map(|b| b as i8 as i32);
            let dot = |p: usize, j: usize| {
                let [t, u] = lanes(xg[2 * h + p]);
                (t * wb[j]).wrapping_add(u * wb[j + 2])
            };
            a0 = a0.wrapping_add(dot(0, 0));
            a1 = a1.wrapping_add(dot(0, 1));
            a2 = a2.wrapping_add(dot(1, 0));
            a3 = a3.wrapping_add(dot(1, 1));
        }
    }
    [a0, a1, a2, a3]
}

/// Nibble `k` (from the low one) of `v`, two's complement.
#[inline(always)]
fn nibble(v: u32, k: u32) -> i8 {
    (((v >> (4 * k)) as u8) << 4) as i8 >> 4
}

/// See [`super::Dot::dot_2x2_int4`]: each group's word unpacked to the two int8 words
/// [`dot_2x2`] reads, then [`dot_2x2`].
#[inline(always)]
pub(crate) fn dot_2x2_int4(x: &[u32], w: &[u32], mut acc: [i32; 4]) -> [i32; 4] {
    for (xg, &v) in x.chunks_exact(4).zip(w) {
        let n = |k: u32| nibble(v, k);
        // Nibbles n0..n7 are a t0, a t1, b t0, b t1, a t2, a t3, b t2, b t3.
        let w0 = i32::from_le_bytes([n(0), n(2), n(4), n(6)].map(|b| b as u8));
        let w1 = i32::from_le_bytes([n(1), n(3), n(5), n(7)].map(|b| b as u8));
        acc = dot_2x2(xg, &[w0, w1], acc);
    }
    acc
}

/// The int4 weights of channel `lane` (0: `a`, 1: `b`) for taps `t0..t3` of a word in
/// [`super::Dot::dot_2x2_int4`]'s nibble order.
#[inline(always)]
fn int4_lane(v: u32, lane: u32) -> [i32; 4] {
    let n = |k: u32| i32::from(nibble(v, k));
    [n(2 * lane), n(2 * lane + 1), n(4 + 2 * lane), n(5 + 2 * lane)]
}

/// See [`super::Dot::dot4x4_row_int4`].
#[inline(always)]
pub(crate) fn dot4x4_row_int4(x: &[i8], w: &[u32], mut acc: [i32; 4]) -> [i32; 4] {
    for (xs, ws) in x.chunks_exact(4).zip(w.chunks_exact(2)) {
        for (j, a) in acc.iter_mut().enumerate() {
            let u = int4_lane(ws[j / 2], (j % 2) as u32);
            for (t, &xv) in xs.iter().enumerate() {
                *a = a.wrapping_add(i32::from(xv) * u[t]);
            }
        }
    }
    acc
}

/// See [`super::Dot::mac4x2_int4`].
#[inline(always)]
pub(crate) fn mac4x2_int4(x0: [i8; 4], x1: [i8; 4], w: u32, mut acc: [i32; 4]) -> [i32; 4] {
    let n = |k: u32| i32::from(nibble(w, k));
    // Nibble of channel c: tap t in bytes 0 (c 0, 1) and 2 (c 2, 3), tap u in bytes 1 and 3.
    let nib = |c: u32, tap: u32| n(2 * (2 * (c / 2) + tap) + c % 2);
    for (c, a) in acc.iter_mut().enumerate() {
        let sum = i32::from(x0[c]) * nib(c as u32, 0) + i32::from(x1[c]) * nib(c as u32, 1);
        *a = a.wrapping_add(16 * sum);
    }
    acc
}

/// See [`super::Dot::sum16_run`].
#[inline(always)]
pub(crate) fn sum16_run(x: &[i8], n: usize, step: usize, mut acc: [i32; 16]) -> [i32; 16] {
    for k in 0..n {
        let Some(cell) = x.get(k * step..k * step + 16) else { break };
        for (a, &v) in acc.iter_mut().zip(cell) {
            *a = a.wrapping_add(v as i32);
        }
    }
    acc
}

/// See [`super::Dot::permute_into`].
#[inline(always)]
pub(crate) fn permute_into(src: &[i8], dst: &mut [i8]) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&[s[0], s[2], s[1], s[3]]);
    }
}

/// See [`super::Dot::dot_2x2_bytes`].
#[inline(always)]
pub(crate) fn dot_2x2_bytes(x0: &[i8], x1: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    // Byte 2i of the pair's words is channel a's i-th tap, byte 2i + 1 channel b's.
    let n = x0.len().min(x1.len()).min(2 * w.len());
    for i in 0..n {
        let word = w[i / 2].to_le_bytes();
        let (wa, wb) = (word[2 * (i % 2)] as i8 as i32, word[2 * (i % 2) + 1] as i8 as i32);
        let (x, y) = (x0[i] as i32, x1[i] as i32);
        a0 = a0.wrapping_add(x * wa);
        a1 = a1.wrapping_add(x * wb);
        a2 = a2.wrapping_add(y * wa);
        a3 = a3.wrapping_add(y * wb);
    }
    [a0, a1, a2, a3]
}

/// See [`super::Dot::dot_4x4`]: the raw-byte layout of four pixels per group.
#[inline(always)]
pub(crate) fn dot_4x4(x: &[u32], wa: &[i32], wb: &[i32], mut acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
    let x: &[i8] = bytemuck::cast_slice(x);
    let (wa, wb): (&[i8], &[i8]) = (bytemuck::cast_slice(wa), bytemuck::cast_slice(wb));
    for ((x, wa), wb) in x.chunks_exact(16).zip(wa.chunks_exact(8)).zip(wb.chunks_exact(8)) {
        // Tap t of pixel p is byte 4p + t; its weights are the byte pair at 0, 4, 2, 6
        // (taps t0, t1, t2, t3) of each pair's group.
        for (t, wo) in [0, 4, 2, 6].into_iter().enumerate() {
            for (pair, w) in [wa, wb].into_iter().enumerate() {
                for ch in 0..2 {
                    let wv = i32::from(w[wo + ch]);
                    for px in 0..4 {
                        let a = &mut acc[2 * (px / 2) + pair][2 * (px % 2) + ch];
                        *a = a.wrapping_add(i32::from(x[4 * px + t]) * wv);
                    }
                }
            }
        }
    }
    acc
}

/// See [`super::Dot::doubling_high_mul`]: `m2 as u32` is `2m`, so the 64-bit product is
/// `x * 2m` (within `(-2^63, 2^63)`) and the result `floor((x * m + 2^30) / 2^31)`.
#[inline(always)]
pub(crate) fn doubling_high_mul(x: i32, m2: i32) -> i32 {
    ((x as i64).wrapping_mul(m2 as u32 as i64).wrapping_add(1 << 31) >> 32) as i32
}

/// See [`super::Dot::shift_right`].
#[inline(always)]
pub(crate) fn shift_right(x: i32, e: i32) -> i32 {
    x >> (e & 31)
}

/// See [`super::Dot::pack4_halved`].
#[inline(always)]
pub(crate) fn pack4_halved(v: [i32; 4], lo: i8, hi: i8) -> u32 {
    u32::from_le_bytes(v.map(|v| (v >> 1).max(lo as i32).min(hi as i32) as i8 as u8))
}

/// The portable implementation, always compiled: the reference of every other one.
pub(crate) struct Scalar;

impl super::Dot for Scalar {
    const NAME: &'static str = "scalar";
    #[inline(always)]
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
        dot4(x, w, acc)
    }
    #[inline(always)]
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
        dot1(x, w, acc)
    }
    #[inline(always)]
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
        mac4(x, w, acc)
    }
    #[inline(always)]
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        dot4_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        dot1_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        mac4_offset(x, w, offset, acc)
    }
}

/// [`Scalar`] with Helium's driver choices ([`super::Dot::GEMM_BYTES`], 72-group chunks,
/// block requantization, [`super::Dot::SUM16`] pools): the host suites run the drivers'
/// paths with it that the Helium micro-kernels take on the target only.
#[cfg(test)]
pub(crate) struct ScalarBytes;

#[cfg(test)]
impl super::Dot for ScalarBytes {
    const NAME: &'static str = "scalar-bytes";
    const GEMM_BYTES: bool = true;
    const CHUNKED_GROUPS: usize = 72;
    const BLOCK_REQUANT: bool = true;
    const SUM16: bool = true;
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
        dot4(x, w, acc)
    }
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
        dot1(x, w, acc)
    }
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
        <Scalar as super::Dot>::mac4(x, w, acc)
    }
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        <Scalar as super::Dot>::dot4_offset(x, w, offset, acc)
    }
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        <Scalar as super::Dot>::dot1_offset(x, w, offset, acc)
    }
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        <Scalar as super::Dot>::mac4_offset(x, w, offset, acc)
    }
}
