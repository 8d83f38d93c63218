//! An on-target check of the selected dot micro-kernels ([`crate::isa::Dot`]) against the
//! scalar reference, for implementations the host suites cannot execute (Helium: the
//! firmware runs it under `qemu-system-arm -cpu cortex-m55`, `examples/firmware/run.sh
//! --m55`). `no_std` and no allocation: the operands live in fixed stack buffers.
//!
//! Pseudo-random operands (SplitMix64, over-representing -128 and 127) and accumulators
//! (including the wrap points), every length `0..=MAX_LEN` (the lane tails 0..=17 of the
//! 16-lane loops among them), the int8 rows starting at random byte offsets `0..4` (odd
//! addresses), offsets -128..=128; every method of [`Dot`] whose result is a value is
//! compared with [`Scalar`]'s bit for bit. It is a regression check, not a proof: the
//! host suites' `kernel_tests!` are the full suite for the implementations they can run.

use super::scalar::Scalar;
use super::Dot;

/// The longest int8 row tried (three 16-lane vectors and a tail).
const MAX_LEN: usize = 71;
/// The most groups of four taps tried for `dot_2x2` / `mac4x4_row` (odd and even counts).
const MAX_GROUPS: usize = 11;

/// SplitMix64, as the host suites' `Rng`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn i8(&mut self) -> i8 {
        match self.next() % 8 {
            0 => i8::MIN,
            1 => i8::MAX,
            _ => self.next() as i8,
        }
    }

    fn i32(&mut self) -> i32 {
        match self.next() % 6 {
            0 => i32::MAX,
            1 => i32::MIN,
            2 => 0,
            _ => self.next() as i32,
        }
    }

    fn fill(&mut self, b: &mut [i8]) {
        b.iter_mut().for_each(|v| *v = self.i8());
    }
}

/// Counts of one self-test run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfTest {
    /// Results compared.
    pub checks: u32,
    /// Results that differed from the scalar reference.
    pub failures: u32,
}

impl SelfTest {
    fn cmp(&mut self, what: &'static str, len: usize, got: &[i32], want: &[i32], fail: &mut dyn FnMut(&'static str, usize, i32, i32)) {
        for (&g, &w) in got.iter().zip(want) {
            self.checks += 1;
            if g != w {
                self.failures += 1;
                fail(what, len, g, w);
            }
        }
    }
}

/// Runs every micro-kernel of `D` against [`Scalar`] over `rounds` seeds; `fail(kernel,
/// length, got, want)` for each differing result.
pub(crate) fn run<D: Dot>(rounds: u32, fail: &mut dyn FnMut(&'static str, usize, i32, i32)) -> SelfTest {
    let mut t = SelfTest::default();
    let mut rng = Rng(0x7f1c_0055);
    for _ in 0..rounds {
        // int8 rows: x and four weight rows, each with 3 bytes of slack for the start offset.
        let mut xb = [0i8; MAX_LEN + 3];
        let mut wb = [[0i8; MAX_LEN + 3]; 4];
        rng.fill(&mut xb);
        wb.iter_mut().for_each(|w| rng.fill(w));
        for len in 0..=MAX_LEN {
            let (ox, ow) = ((rng.next() % 4) as usize, (rng.next() % 4) as usize);
            let x = &xb[ox..ox + len];
            let w: [&[i8]; 4] = core::array::from_fn(|j| &wb[j][(ow + j) % 4..][..len]);
            let acc: [i32; 4] = core::array::from_fn(|_| rng.i32());
            let offset = (rng.next() % 257) as i32 - 128;
            t.cmp("dot4", len, &D::dot4(x, w, acc), &Scalar::dot4(x, w, acc), fail);
            t.cmp("dot1", len, &[D::dot1(x, w[1], acc[0])], &[Scalar::dot1(x, w[1], acc[0])], fail);
            t.cmp("dot4_offset", len, &D::dot4_offset(x, w, offset, acc), &Scalar::dot4_offset(x, w, offset, acc), fail);
            t.cmp("dot1_offset", len, &[D::dot1_offset(x, w[2], offset, acc[1])], &[Scalar::dot1_offset(x, w[2], offset, acc[1])], fail);
            // dot4x4_row: the weight words interleaved from the rows (any words will do).
            let mut ww = [0i32; MAX_LEN + 3];
            for (k, v) in ww[..len].iter_mut().enumerate() {
                *v = i32::from_le_bytes(core::array::from_fn(|b| w[k % 4][(4 * (k / 4) + b) % len.max(1)] as u8));
            }
            let wl = &ww[..len / 4 * 4];
            t.cmp("dot4x4_row", len, &D::dot4x4_row(x, wl, acc), &Scalar::dot4x4_row(x, wl, acc), fail);
            // Four blocks over the same x: the block weights at different offsets of `ww`.
            let rows: [&[i32]; 4] = core::array::from_fn(|b| &ww[b..][..len / 4 * 4]);
            let acc4: [[i32; 4]; 4] = core::array::from_fn(|b| core::array::from_fn(|j| acc[j].wrapping_add(b as i32)));
            let (got, want) = (D::dot16x4_row(x, rows, acc4), Scalar::dot16x4_row(x, rows, acc4));
            t.cmp("dot16x4_row", len, got.as_flattened(), want.as_flattened(), fail);
            // widen_into: both slots, into a `dst` one group short when there is room to be
            // short; the words past it stay as they were (the layout itself is the
            // implementation's, checked through its `dot_2x2` below).
            for slot in 0..2 {
                let groups = (len / 4).saturating_sub(len % 2);
                let mut got = [0x5a5a_5a5au32; 4 * (MAX_LEN / 4 + 1)];
                let want = got;
                D::widen_into(x, &mut got[..4 * groups], slot);
                let (got, want): (&[i32], &[i32]) = (bytemuck::cast_slice(&got[4 * groups..]), bytemuck::cast_slice(&want[4 * groups..]));
                t.cmp("widen_into", len, got, want, fail);
            }
            if len >= 4 {
                let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[3][0], w[3][1], w[3][2], w[3][3]]);
                t.cmp("mac4", len, &D::mac4(xa, wa, acc), &Scalar::mac4(xa, wa, acc), fail);
                t.cmp("mac4_ref", len, &D::mac4_ref(&xa, &wa, acc), &Scalar::mac4_ref(&xa, &wa, acc), fail);
                t.cmp("mac4_offset", len, &D::mac4_offset(xa, wa, offset, acc), &Scalar::mac4_offset(xa, wa, offset, acc), fail);
                let word = u32::from_le_bytes([x[0] as u8, x[1] as u8, x[2] as u8, x[3] as u8]);
                // The int16 lanes, or the word as it is where the implementation reads the
                // taps as bytes ([`Dot::RAW_WIDE_TAPS`]).
                let [a, b] = D::widen4(word);
                let [c, d] = if D::RAW_WIDE_TAPS { [word, 0] } else { Scalar::widen4(word) };
                t.cmp("widen4", len, &[a as i32, b as i32], &[c as i32, d as i32], fail);
                let v = acc.map(|a| a >> 20);
                let (lo, hi) = (x[0].min(x[1]), x[0].max(x[1]));
                t.cmp("clamp4", len, &D::clamp4(v, lo, hi).map(i32::from), &Scalar::clamp4(v, lo, hi).map(i32::from), fail);
                t.cmp("pack4_halved", len, &[D::pack4_halved(v, lo, hi) as i32], &[Scalar::pack4_halved(v, lo, hi) as i32], fail);
            }
        }
        // The blocked forms: two pixels' taps widened by each implementation's own
        // `widen_into` (the words its `dot_2x2` reads: int16 lanes, or RV32's raw bytes) and
        // packed weights, 0..=MAX_GROUPS groups.
        let mut raw = [[0i8; 4 * MAX_GROUPS]; 2];
        let (mut xd, mut xr) = ([0u32; 4 * MAX_GROUPS], [0u32; 4 * MAX_GROUPS]);
        let mut pw = [0i32; 4 * MAX_GROUPS];
        let (mut wide, mut wide_ref) = ([[0u32; 2]; MAX_GROUPS], [[0u32; 2]; MAX_GROUPS]);
        for groups in 0..=MAX_GROUPS {
            for (slot, px) in raw.iter_mut().enumerate() {
                rng.fill(px);
                D::widen_into(px, &mut xd, slot);
                Scalar::widen_into(px, &mut xr, slot);
            }
            pw.iter_mut().for_each(|v| *v = rng.next() as i32);
            // The same taps widened by each implementation's own `widen4` (the words its
            // `mac4x4_row` reads) and by the reference's.
            for (v, r) in wide.iter_mut().zip(wide_ref.iter_mut()) {
                let b: [i8; 4] = core::array::from_fn(|_| rng.i8());
                let word = u32::from_le_bytes(b.map(|v| v as u8));
                (*v, *r) = (D::widen4(word), Scalar::widen4(word));
            }
            let acc: [i32; 4] = core::array::from_fn(|_| rng.i32());
            let (x, xs, w) = (&xd[..4 * groups], &xr[..4 * groups], &pw[..2 * groups]);
            t.cmp("dot_2x2", groups, &D::dot_2x2(x, w, acc), &Scalar::dot_2x2(xs, w, acc), fail);
            // Longer slices than the groups need: the kernel reads only whole groups of both.
            let wx = &pw[..(2 * groups + 1).min(pw.len())];
            t.cmp("dot_2x2+", groups, &D::dot_2x2(x, wx, acc), &Scalar::dot_2x2(xs, wx, acc), fail);
            // Taps as bytes (`GEMM_BYTES`): the permutation, then the byte dot over the
            // same packed words, on slices longer than the groups need too.
            {
                let mut bytes = [[0i8; 4 * MAX_GROUPS]; 2];
                for (px, out) in raw.iter().zip(bytes.iter_mut()) {
                    let mut want = [0i8; 4 * MAX_GROUPS];
                    D::permute_into(&px[..4 * groups], out);
                    Scalar::permute_into(&px[..4 * groups], &mut want);
                    t.cmp("permute_into", groups, &out.map(i32::from), &want.map(i32::from), fail);
                }
                let (x0, x1) = (&bytes[0][..4 * groups], &bytes[1][..4 * groups]);
                t.cmp("dot_2x2_bytes", groups, &D::dot_2x2_bytes(x0, x1, w, acc), &Scalar::dot_2x2_bytes(x0, x1, w, acc), fail);
                let (y0, y1) = (&bytes[0][..], &bytes[1][..]);
                t.cmp("dot_2x2_bytes+", groups, &D::dot_2x2_bytes(y0, y1, w, acc), &Scalar::dot_2x2_bytes(y0, y1, w, acc), fail);
            }
            // int4 pair words (any nibbles) over the portable widened taps.
            {
                let w4: &[u32] = bytemuck::cast_slice(&pw[..groups]);
                let xs = &xr[..4 * groups];
                t.cmp("dot_2x2_int4", groups, &D::dot_2x2_int4(xs, w4, acc), &Scalar::dot_2x2_int4(xs, w4, acc), fail);
                let (x4, w8): (&[i8], &[u32]) = (&raw[1][..4 * groups], bytemuck::cast_slice(&pw[..2 * groups]));
                t.cmp("dot4x4_row_int4", groups, &D::dot4x4_row_int4(x4, w8, acc), &Scalar::dot4x4_row_int4(x4, w8, acc), fail);
                let (xa, xb): ([i8; 4], [i8; 4]) = (core::array::from_fn(|i| raw[0][i]), core::array::from_fn(|i| raw[1][i]));
                let wv = pw[groups] as u32;
                t.cmp("mac4x2_int4", groups, &D::mac4x2_int4(xa, xb, wv, acc), &Scalar::mac4x2_int4(xa, xb, wv, acc), fail);
            }
            // The pool's sixteen-channel sums: up to `groups` cells 4..=16 bytes apart.
            {
                let x = &raw[0][..];
                let step = 4 + 4 * (groups % 4);
                let n = groups.min((x.len() - 16) / step + 1);
                let acc16: [i32; 16] = core::array::from_fn(|_| rng.i32());
                t.cmp("sum16_run", n, &D::sum16_run(x, n, step, acc16), &Scalar::sum16_run(x, n, step, acc16), fail);
            }
            if D::GEMM_QUADS {
                // Four pixels: `widen_into` puts pixel s's taps as they are at bytes 4s..4s + 4
                // of each group, and `dot_4x4` reads that layout.
                let mut quad = [0u32; 4 * MAX_GROUPS];
                let mut want_x = [0u32; 4 * MAX_GROUPS];
                for slot in 0..4 {
                    let mut px = [0i8; 4 * MAX_GROUPS];
                    rng.fill(&mut px);
                    D::widen_into(&px[..4 * groups], &mut quad, slot);
                    for (g, w) in px[..4 * groups].chunks_exact(4).enumerate() {
                        want_x[4 * g + slot] = u32::from_le_bytes([w[0] as u8, w[1] as u8, w[2] as u8, w[3] as u8]);
                    }
                }
                let (got_x, want_x): (&[i32], &[i32]) = (bytemuck::cast_slice(&quad[..4 * groups]), bytemuck::cast_slice(&want_x[..4 * groups]));
                t.cmp("widen_into quads", groups, got_x, want_x, fail);
                let q = &quad[..4 * groups];
                // Two pairs: the second pair's weights start `groups` words into the first's.
                let (wa, wb) = (&pw[..2 * groups], &pw[groups..(3 * groups).min(pw.len())]);
                let acc4 = [acc, core::array::from_fn(|_| rng.i32()), core::array::from_fn(|_| rng.i32()), core::array::from_fn(|_| rng.i32())];
                let (got, want) = (D::dot_4x4(q, wa, wb, acc4), Scalar::dot_4x4(q, wa, wb, acc4));
                t.cmp("dot_4x4", groups, got.as_flattened(), want.as_flattened(), fail);
            }
            let (xs, xr, ws) = (&wide[..groups], &wide_ref[..groups], &pw[..4 * groups]);
            t.cmp("mac4x4_row", groups, &D::mac4x4_row(xs, ws, acc), &Scalar::mac4x4_row(xr, ws, acc), fail);
            // Two groups over the same window: the second group's weights `groups` words on.
            let (wa, wb) = (&pw[..4 * groups], &pw[groups..5 * groups.min(8)]);
            let acc2 = [acc, core::array::from_fn(|_| rng.i32())];
            let (got, want) = (D::mac8x4_row(xs, wa, wb, acc2), Scalar::mac8x4_row(xr, wa, wb, acc2));
            t.cmp("mac8x4_row", groups, got.as_flattened(), want.as_flattened(), fail);
            // Gemm's block requantization: `groups` pairs with heads `pw` = 5 + 2 words apart,
            // multipliers m2 = 2m - 2^32 for m in [2^30, 2^31) or 0, shifts e - 1 in 0..=21.
            {
                let pw = 7;
                let mut heads = [0i32; 7 * (MAX_GROUPS + 1)];
                let mut accs = [[0i32; 4]; MAX_GROUPS + 1];
                for (j, acc) in accs.iter_mut().enumerate() {
                    *acc = core::array::from_fn(|_| (rng.next() as i32) >> 2);
                    let m = |r: &mut Rng| if r.next().is_multiple_of(8) { 0 } else { ((r.next() as u32 | 0x4000_0000) & 0x7fff_ffff).wrapping_mul(2) as i32 };
                    heads[j * pw + 2] = m(&mut rng);
                    heads[j * pw + 3] = m(&mut rng);
                    heads[j * pw + 4] = ((rng.next() % 22) | (rng.next() % 22) << 8) as i32;
                    // A channel with multiplier 0 accumulates 0 (`gemm::pack` zeroes it).
                    for (c, a) in acc.iter_mut().enumerate() {
                        if heads[j * pw + 2 + c % 2] == 0 {
                            *a = 0;
                        }
                    }
                }
                let c1 = 2 * ((rng.next() % 256) as i32 - 128) + 1;
                let (a, b) = (rng.i8(), rng.i8());
                let (lo, hi) = (a.min(b), a.max(b));
                let n = groups + 1;
                let hl = &heads[..(n - 1) * pw + 5];
                let (mut g0, mut g1, mut w0, mut w1) = ([0i8; 2 * (MAX_GROUPS + 1)], [0i8; 2 * (MAX_GROUPS + 1)], [0i8; 2 * (MAX_GROUPS + 1)], [0i8; 2 * (MAX_GROUPS + 1)]);
                D::requant_pairs(&accs[..n], hl, pw, c1, lo, hi, &mut g0, &mut g1);
                Scalar::requant_pairs(&accs[..n], hl, pw, c1, lo, hi, &mut w0, &mut w1);
                t.cmp("requant_pairs", n, &g0.map(i32::from), &w0.map(i32::from), fail);
                t.cmp("requant_pairs", n, &g1.map(i32::from), &w1.map(i32::from), fail);
            }
            // Requantization: |acc| < 2^30, m >= 0, e in 1..=22.
            let a = (rng.next() as i32) >> 2;
            let m = (rng.next() as i32) & i32::MAX;
            let e = 1 + (rng.next() % 22) as u32;
            let k = 2 * ((rng.next() % 256) as i32 - 128) + 1;
            t.cmp("requant_lane", groups, &[D::requant_lane(a, m, e, k)], &[Scalar::requant_lane(a, m, e, k)], fail);
            let m2 = ((rng.next() as u32) | 0x8000_0000) as i32;
            t.cmp("doubling_high_mul", groups, &[D::doubling_high_mul(a, m2)], &[Scalar::doubling_high_mul(a, m2)], fail);
            let s = (rng.next() % 32) as i32 | ((rng.next() as i32) & !255);
            t.cmp("shift_right", groups, &[D::shift_right(a, s)], &[Scalar::shift_right(a, s)], fail);
        }
        // Depthwise sixteen-channel taps: 0..=25 taps, each at its own odd or even start
        // in one input buffer, four groups of `taps + 9` words (the packed layout's stride).
        let mut xin = [0i8; 26 * 16 + 3];
        rng.fill(&mut xin);
        let mut gw = [0i32; 4 * (25 + 9)];
        for taps in 0..=25usize {
            gw.iter_mut().for_each(|v| *v = rng.next() as i32);
            let stride = taps + 9;
            let ptrs: [*const i8; 25] = core::array::from_fn(|_| xin[(rng.next() % (xin.len() as u64 - 32)) as usize..].as_ptr());
            let offset = (rng.next() % 17) as usize;
            let g = &gw[..4 * stride];
            // SAFETY: every pointer starts at least 32 bytes before the end of `xin`, so 16
            // bytes from it plus `offset` (< 17) are inside `xin`; `g` holds
            // 4 * stride >= 3 * stride + taps words.
            let (got, want) = unsafe { (D::mac16_taps(&ptrs[..taps], offset, g, stride), Scalar::mac16_taps(&ptrs[..taps], offset, g, stride)) };
            t.cmp("mac16_taps", taps, &got, &want, fail);
            // SAFETY: as above (8 of the 16 bytes; `g` holds stride + taps words).
            let (got, want) = unsafe { (D::mac8_taps(&ptrs[..taps], offset, g, stride), Scalar::mac8_taps(&ptrs[..taps], offset, g, stride)) };
            t.cmp("mac8_taps", taps, &got, &want, fail);
            // A 3x3 window pair: rows 1..=48 bytes apart, columns 1..=16, the second pixel
            // 1..=16 further, from a start that leaves every tap inside `xin` (at most
            // 2 * 48 + 2 * 16 + 16 + 4 = 148 bytes from it).
            let steps = [1 + (rng.next() % 48) as isize, 1 + (rng.next() % 16) as isize];
            let x_next = 1 + (rng.next() % 16) as isize;
            let x = xin[(rng.next() % (xin.len() as u64 - 148)) as usize..].as_ptr();
            let w9: [i32; 9] = core::array::from_fn(|i| gw[i]);
            let acc2 = [core::array::from_fn(|_| rng.i32()), core::array::from_fn(|_| rng.i32())];
            // SAFETY: every tap of both pixels is at most 148 bytes from `x`, inside `xin`.
            let (got, want) = unsafe { (D::mac3x3_pair(x, steps, x_next, &w9, acc2), Scalar::mac3x3_pair(x, steps, x_next, &w9, acc2)) };
            t.cmp("mac3x3_pair", taps, got.as_flattened(), want.as_flattened(), fail);
            // requant16 in its domain: |bias + sum| < 2^30, m >= 0, shifts 1..=22.
            let mut tails = [0i32; 4 * (25 + 9)];
            let sums: [i32; 16] = core::array::from_fn(|_| (rng.next() as i32) >> 3);
            for j in 0..4 {
                let tj = &mut tails[j * stride..][..9];
                for c in 0..4 {
                    tj[c] = (rng.next() as i32) >> 3;
                    tj[4 + c] = (rng.next() as i32) & i32::MAX;
                }
                tj[8] = i32::from_le_bytes(core::array::from_fn(|_| 1 + (rng.next() % 22) as u8));
            }
            let k = 2 * ((rng.next() % 256) as i32 - 128) + 1;
            let (a, b) = (rng.i8(), rng.i8());
            let (lo, hi) = (a.min(b), a.max(b));
            let tl = &tails[..4 * stride];
            let got = D::requant16(&sums, tl, stride, k, lo, hi).map(i32::from);
            let want = Scalar::requant16(&sums, tl, stride, k, lo, hi).map(i32::from);
            t.cmp("requant16", taps, &got, &want, fail);
            let t8 = &tl[..stride + 9];
            let got = D::requant8(&sums, t8, stride, k, lo, hi).map(i32::from);
            let want = Scalar::requant8(&sums, t8, stride, k, lo, hi).map(i32::from);
            t.cmp("requant8", taps, &got, &want, fail);
            // A row of 0..=3 pixels of eight channels (`mac8_run`): two groups of `stride`
            // words, random weights, each group's tail in requant8's domain (small sums:
            // |bias + sum| < 2^30), pixels px_step = 0, 8 or 16 bytes apart.
            let mut g2 = [0i32; 2 * (25 + 9)];
            for j in 0..2 {
                let gj = &mut g2[j * stride..][..stride];
                gj[..taps].iter_mut().for_each(|v| *v = rng.next() as i32);
                gj[taps..].copy_from_slice(&tails[j * stride..][..9]);
            }
            let pixels = (rng.next() % 4) as usize;
            let px_step = 8 * (rng.next() % 3) as usize;
            let near: [*const i8; 25] = core::array::from_fn(|_| xin[(rng.next() % (xin.len() as u64 - 48)) as usize..].as_ptr());
            let (mut got, mut want) = ([0i8; 32], [0i8; 32]);
            let g2 = &g2[..2 * stride];
            // SAFETY: every pointer starts at least 48 bytes before the end of `xin`, so 8
            // bytes at it plus p * px_step (<= 32) are inside `xin`; `g2` holds
            // 2 * stride = stride + taps + 9 words.
            unsafe {
                D::mac8_run(&near[..taps], px_step, g2, stride, k, lo, hi, &mut got[..8 * pixels]);
                Scalar::mac8_run(&near[..taps], px_step, g2, stride, k, lo, hi, &mut want[..8 * pixels]);
            }
            t.cmp("mac8_run", taps, &got.map(i32::from), &want.map(i32::from), fail);
            // The same for sixteen channels (`mac16_run`): four groups, the block at offset
            // 0..=16, outputs 16 or 32 bytes apart (the bytes between must stay as they were).
            let mut g4 = [0i32; 4 * (25 + 9)];
            for j in 0..4 {
                let gj = &mut g4[j * stride..][..stride];
                gj[..taps].iter_mut().for_each(|v| *v = rng.next() as i32);
                gj[taps..].copy_from_slice(&tails[j * stride..][..9]);
            }
            let offset = (rng.next() % 17) as usize;
            let out_step = 16 * (1 + (rng.next() % 2) as usize);
            let (mut got, mut want) = ([0x5ai8; 112], [0x5ai8; 112]);
            let g4 = &g4[..4 * stride];
            let krq = [k, lo as i32, hi as i32];
            let far: [*const i8; 25] = core::array::from_fn(|_| xin[(rng.next() % (xin.len() as u64 - 80)) as usize..].as_ptr());
            // SAFETY: every pointer starts at least 80 bytes before the end of `xin`, so 16
            // bytes at it plus offset + p * px_step (<= 16 + 2 * 16) are inside `xin`; `g4`
            // holds 4 * stride = 3 * stride + taps + 9 words; `got`/`want` hold 112 >=
            // 2 * 32 + 16 bytes (pixels <= 3).
            unsafe {
                D::mac16_run(&far[..taps], [offset, px_step], g4, stride, krq, &mut got, out_step, pixels);
                Scalar::mac16_run(&far[..taps], [offset, px_step], g4, stride, krq, &mut want, out_step, pixels);
            }
            t.cmp("mac16_run", taps, &got.map(i32::from), &want.map(i32::from), fail);
        }
        // The dense int8 ADD (`add_s8_lanes`, out of place and in place) against
        // `add_lane_ref`, in the domain of `prepare_add`'s results: left shift 20 (now and
        // then 0..=19), offsets -128..=128, multipliers in [2^30, 2^31), right shifts
        // 0..=31 with the small ones over-represented, output offset and clamp in int8.
        // An implementation may decline a case (returns false, nothing to compare).
        for len in 0..=MAX_LEN {
            let mut xa = [0i8; MAX_LEN];
            let mut ya = [0i8; MAX_LEN];
            rng.fill(&mut xa);
            rng.fill(&mut ya);
            let left_shift = if rng.next().is_multiple_of(8) { (rng.next() % 20) as u32 } else { 20 };
            let off = |r: &mut Rng| ((r.next() % 257) as i32 - 128) << left_shift;
            let m = |r: &mut Rng| ((r.next() as u32 | 0x4000_0000) & 0x7fff_ffff) as i32;
            let e = |r: &mut Rng| if r.next().is_multiple_of(2) { (r.next() % 4) as u32 } else { (r.next() % 32) as u32 };
            let (a, b) = (rng.i8() as i32, rng.i8() as i32);
            let c = super::AddConsts {
                left_shift,
                offset: [off(&mut rng), off(&mut rng)],
                m: [m(&mut rng), m(&mut rng), m(&mut rng)],
                e: [e(&mut rng), e(&mut rng), e(&mut rng)],
                out_offset: (rng.next() % 256) as i32 - 128,
                min: a.min(b),
                max: a.max(b),
            };
            let (x, y) = (&xa[..len], &ya[..len]);
            let want: [i32; MAX_LEN] = core::array::from_fn(|i| if i < len { super::add_lane_ref(&c, x[i], y[i]) as i32 } else { 0 });
            let mut got = [0i8; MAX_LEN];
            if D::add_s8_lanes(&c, x, y, &mut got[..len]) {
                t.cmp("add_s8_lanes", len, &got.map(i32::from), &want, fail);
            }
            let mut inout = xa;
            if D::add_s8_lanes_in_place(&c, &mut inout[..len], y) {
                let got: [i32; MAX_LEN] = core::array::from_fn(|i| if i < len { inout[i] as i32 } else { 0 });
                t.cmp("add_s8_lanes_in_place", len, &got, &want, fail);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_passes_and_checks_every_kernel() {
        let t = run::<Scalar>(2, &mut |what, len, got, want| panic!("{what} at {len}: {got} != {want}"));
        assert_eq!(t.failures, 0);
        assert!(t.checks > 2000, "{t:?}");
    }

    /// The RV32 micro-kernels' Rust forms (their `asm!` forms run in the RV32 firmware),
    /// the four-pixel checks included.
    #[test]
    fn rv32_passes() {
        let t = run::<super::super::rv32::Rv32>(2, &mut |what, len, got, want| panic!("{what} at {len}: {got} != {want}"));
        assert_eq!(t.failures, 0);
        assert!(t.checks > run::<Scalar>(2, &mut |_, _, _, _| {}).checks, "{t:?}");
    }

    #[test]
    fn selected_passes() {
        let t = run::<crate::isa::Dot>(2, &mut |what, len, got, want| panic!("{what} at {len}: {got} != {want}"));
        assert_eq!(t.failures, 0);
    }

    /// A wrong implementation is caught (the check is not vacuous).
    #[test]
    fn catches_a_wrong_kernel() {
        struct Off;
        impl Dot for Off {
            const NAME: &'static str = "off";
            fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
                // Drops the 17th element: a lane-tail bug.
                let n = if x.len() == 17 { 16 } else { x.len() };
                Scalar::dot4(&x[..n], w, acc)
            }
            fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
                Scalar::dot1(x, w, acc)
            }
            fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
                Scalar::mac4(x, w, acc)
            }
            fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
                Scalar::dot4_offset(x, w, offset, acc)
            }
            fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
                Scalar::dot1_offset(x, w, offset, acc)
            }
            fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
                Scalar::mac4_offset(x, w, offset, acc)
            }
        }
        let mut seen = 0;
        let t = run::<Off>(1, &mut |what, len, _, _| {
            assert_eq!((what, len), ("dot4", 17));
            seen += 1;
        });
        assert!(t.failures > 0 && t.failures == seen);
    }
}
