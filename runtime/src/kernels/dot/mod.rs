//! Dot-product micro-kernels shared by the fast variants of CONV_2D, DEPTHWISE_CONV_2D and
//! FULLY_CONNECTED: int8 x int8 products summed into wrapping i32 accumulators.
//!
//! No zero-point offset is applied by the plain forms: the callers fold
//! `input_offset * sum(filter)` into a per-channel bias at compile time (wrapping i32
//! arithmetic is a ring, so the sum is the same modulo 2^32 in any order and grouping, which
//! is exactly TFLite's int32 accumulator); the `_offset` forms add it per element (border
//! windows).
//!
//! The ISA seam: [`Dot`] is the interface, one type per implementation ([`scalar::Scalar`],
//! always compiled, the reference; [`dsp::ArmDsp`], SXTB16/SMLAD, compiled where the
//! target has the Armv7E-M DSP instructions; `mve::Mve`, Helium vector loops for the
//! Cortex-M55/M85, the DSP forms for the rest, compiled only for them; [`rv32::Rv32`], narrow loads at fixed offsets
//! for 32-bit RISC-V, portable Rust compiled everywhere). [`crate::isa`] selects the one the public
//! kernels use. The fast kernels are generic over `D: Dot`, so the same test suite runs
//! them with every implementation the test machine can execute (the shared `kernel_tests!`,
//! here and in the kernels).

// On DSP, NEON and RV32 targets the scalar implementation is only the tests' reference (RV32
// calls some of its functions).
#[cfg_attr(any(tflc_arm_dsp, all(target_arch = "aarch64", target_feature = "neon"), target_arch = "riscv32"), allow(dead_code))]
pub(crate) mod scalar;

#[cfg(tflc_arm_dsp)]
#[cfg_attr(tflc_mve, allow(dead_code))]
pub(crate) mod dsp;

// Helium (Cortex-M55/M85): compiled only where the target has it (build.rs `tflc_mve`);
// the host suites cannot run it (the firmware's on-target self-test does).
#[cfg(tflc_mve)]
pub(crate) mod mve;

// The on-target check of the selected implementation (`__private::dot_self_test`; cargo
// feature `self-test`).
#[cfg(any(test, feature = "self-test"))]
pub(crate) mod self_test;

// Portable Rust shaped for RV32: compiled everywhere so that the host suites run it; the
// kernels use it on `riscv32` (`crate::isa::Dot`).
#[cfg_attr(not(any(test, target_arch = "riscv32")), allow(dead_code))]
pub(crate) mod rv32;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[cfg_attr(tflc_runtime_scalar, allow(dead_code))]
pub(crate) mod neon;

/// [`Dot::mac3x3_pair`] with `D`'s four-lane [`Dot::mac4_ref`] (the default, and RV32's
/// form where its `asm!` does not build).
///
/// # Safety
/// As [`Dot::mac3x3_pair`].
#[inline(always)]
pub(crate) unsafe fn mac3x3_pair_ref<D: Dot + ?Sized>(x: *const i8, steps: [isize; 2], x_next: isize, w: &[i32; 9], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
    let [mut a, mut b] = acc;
    for r in 0..3 {
        for k in 0..3 {
            let xa = x.wrapping_offset(r as isize * steps[0] + k as isize * steps[1]);
            let w = bytemuck::cast_ref::<i32, [i8; 4]>(&w[3 * r + k]);
            // SAFETY: both taps are in bounds by the caller's guarantee; `[i8; 4]` has
            // alignment 1 and every bit pattern is valid; nothing writes them meanwhile.
            let (xa, xb) = unsafe { (&*xa.cast::<[i8; 4]>(), &*xa.wrapping_offset(x_next).cast::<[i8; 4]>()) };
            a = D::mac4_ref(xa, w, a);
            b = D::mac4_ref(xb, w, b);
        }
    }
    [a, b]
}

/// One implementation of the micro-kernels. Every method equals the [`scalar::Scalar`]
/// definition bit for bit (wrapping i32 accumulation); rows `w[j]` are at least `x.len()`
/// long.
pub(crate) trait Dot {
    /// Name for test reports.
    const NAME: &'static str;
    /// Whether drivers should hand this implementation its int8 operands as separate byte
    /// loads rather than as words: a core without unaligned word loads and without a
    /// byte-lane extract (RV32: an unaligned `[i8; 4]` is four `lbu` joined by shifts, and
    /// each lane of a word costs two shifts to extract, while `lb` loads and sign-extends a
    /// byte in one instruction). Drivers branch on it at compile time (depthwise `Mult1`).
    const BYTE_LOADS: bool = false;
    /// Channel pairs per block of `Gemm`'s chunked driver (`GemmChunked`, windows of more
    /// than one chunk), whose accumulators wait on the stack between chunks while every
    /// chunk is widened once per block: 8 (128 bytes of stack), or 32 where re-widening the
    /// window costs more than the stack (RV32: a layer of up to 64 channels widens each
    /// chunk once). The driver instantiates these two (any other value runs 8).
    const CHUNKED_BLOCK_PAIRS: usize = 8;
    /// Groups of four taps per chunk of `GemmChunked`'s window: 16 (`gemm::CHUNK_TAPS`,
    /// 256 bytes of widened pixels on the stack), or 72 where the per-call cost of
    /// [`Dot::dot_2x2`] and of keeping the accumulators between chunks outweighs the
    /// stack (Helium: 1152 bytes; a 3x3 window on 32 channels is one chunk). Only the
    /// driver's chunking changes (the packed layout and the variant choice do not); the
    /// driver instantiates these two (any other value runs 16).
    const CHUNKED_GROUPS: usize = 16;
    /// `acc[j] + sum_i x[i] * w[j][i]` for the four rows `w[j]`.
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4];
    /// `acc + sum_i x[i] * w[i]`.
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32;
    /// Four independent lanes: `acc[j] + x[j] * w[j]`.
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4];
    /// [`Dot::mac4`] on operands in memory: what a [`Dot::BYTE_LOADS`] implementation takes,
    /// reading each lane where it is used (a `[i8; 4]` passed by value is one 32-bit
    /// aggregate to LLVM, which RV32 then assembles from four `lbu` and splits again).
    #[inline(always)]
    fn mac4_ref(x: &[i8; 4], w: &[i8; 4], acc: [i32; 4]) -> [i32; 4] {
        Self::mac4(*x, *w, acc)
    }
    /// [`Dot::dot4`] with `offset` (`-128..=128`) added to every `x` first.
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4];
    /// [`Dot::dot1`] with `offset` added to every `x` first.
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32;
    /// [`Dot::mac4`] with `offset` added to every `x` first.
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4];

    // The blocked matrix-product kernels (CONV_2D's `Gemm` variant). Each has a default
    // body with the scalar semantics, so an implementation may override any subset.

    /// Four int8 `x0..x3` (the little-endian word `x`) widened to the two words of int16
    /// lanes that [`Dot::dot_2x2`] reads: `[x0, x2]` and `[x1, x3]`, low halfword first
    /// (what SXTB16 and SXTB16 ROR #8 give, so they pair with the same split of a weight
    /// word and no lane is shuffled).
    #[inline(always)]
    fn widen4(x: u32) -> [u32; 2] {
        scalar::widen4(x)
    }
    /// Whether [`Dot::widen4`] returns the word as it is (`[x, 0]`) because this
    /// implementation's [`Dot::mac4x4_row`] reads the taps as bytes (RV32: `lb` sign-extends,
    /// so widening gains nothing). Only `OneChannel`'s window buffer holds `widen4` words;
    /// the tests compare such an implementation's `widen4` with `[x, 0]`.
    #[cfg_attr(not(any(test, feature = "self-test")), allow(dead_code))]
    const RAW_WIDE_TAPS: bool = false;
    /// [`Dot::widen4`] of each whole word of `src` (a tail of fewer than four bytes is
    /// ignored) into pixel `slot` (0 or 1) of the groups of `dst` (four words per group,
    /// [`Dot::dot_2x2`]'s layout): word `i`'s two words at `dst[4i + slot]` and
    /// `dst[4i + 2 + slot]`, for as many words as `src` has and `dst` has groups.
    #[inline(always)]
    fn widen_into(src: &[i8], dst: &mut [u32], slot: usize) {
        for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
            let [e, o] = Self::widen4(u32::from_le_bytes([s[0] as u8, s[1] as u8, s[2] as u8, s[3] as u8]));
            d[slot] = e;
            d[2 + slot] = o;
        }
    }
    /// A block of two pixels times two output channels: `acc` `[p0 a, p0 b, p1 a, p1 b]`
    /// plus, per group `g` of four taps `t0..t3`, the products of the two pixels' taps and
    /// the two channels' weights, wrapping. Group `g` is the four words `x[4g..4g + 4]`:
    /// pixel 0's and pixel 1's [`Dot::widen4`] `[t0, t2]` words, then their `[t1, t3]`
    /// words; and `w[2g..2g+2]` = the int8 `[a t0, b t0, a t2, b t2]` and
    /// `[a t1, b t1, a t3, b t3]` (little-endian), so that SXTB16 and SXTB16 ROR #8 of one
    /// weight word give one lane pair of each channel. `x` has at least `2 * w.len()`
    /// entries.
    #[inline(always)]
    fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        scalar::dot_2x2(x, w, acc)
    }
    /// [`Dot::dot_2x2`] with the pair's weights as int4, one word per group `g` (`w[g]`):
    /// bytes `[a t0 | a t1 << 4, b t0 | b t1 << 4, a t2 | a t3 << 4, b t2 | b t3 << 4]`
    /// (nibbles two's complement), so that the word masked to its high nibbles, or shifted
    /// left by four and masked, gives by SXTB16 and SXTB16 ROR #8 sixteen times each lane
    /// pair [`Dot::dot_2x2`] reads (`gemm::pack_int4`). `x` is [`Dot::dot_2x2`]'s, at least
    /// `4 * w.len()` words. The exact sums are added to `acc` (the products of the scaled
    /// weights are sixteen times the exact ones, so the scaled sum shifted right by four
    /// is exact).
    #[inline(always)]
    fn dot_2x2_int4(x: &[u32], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        scalar::dot_2x2_int4(x, w, acc)
    }
    /// `acc[j] + sum_i x[i] * w_j[i]` for four units whose int4 weights are two words per
    /// four inputs (FULLY_CONNECTED `Interleaved`'s int4 form): for inputs `4k..4k + 4`,
    /// word `2k` holds units 0 and 1, word `2k + 1` units 2 and 3, each in
    /// [`Dot::dot_2x2_int4`]'s nibble order (unit 0 or 2 as channel `a`, 1 or 3 as `b`).
    /// Whole groups of four inputs only (`x.len() / 4` and `w.len() / 2`, the fewer).
    #[inline(always)]
    fn dot4x4_row_int4(x: &[i8], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        scalar::dot4x4_row_int4(x, w, acc)
    }
    /// Two taps of four channels with int4 weights (DEPTHWISE_CONV_2D `Mult1`'s int4 form):
    /// `acc[c] + 16 * (x0[c] * w_t[c] + x1[c] * w_u[c])`, wrapping, where the word `w` holds
    /// the nibbles of tap `t` (channels 0, 1 in byte 0, channels 2, 3 in byte 2, low nibble
    /// first) and of tap `u` (bytes 1 and 3): sixteen times the products, so that the masks
    /// and SXTB16 of [`Dot::dot_2x2_int4`] need no shift back per tap (the caller shifts the
    /// sums right by four once, exactly).
    #[inline(always)]
    fn mac4x2_int4(x0: [i8; 4], x1: [i8; 4], w: u32, acc: [i32; 4]) -> [i32; 4] {
        scalar::mac4x2_int4(x0, x1, w, acc)
    }
    /// Whether `Gemm`'s drivers hand this implementation its taps as int8 bytes
    /// ([`Dot::permute_into`], [`Dot::dot_2x2_bytes`]) instead of widened words: a vector
    /// unit whose int8 dot product reads sixteen taps at once (Helium's `VMLADAVA.S8`) and
    /// whose de-interleaving load splits a channel pair's packed words into the two
    /// channels' bytes. A compile-time constant, so the other implementations' drivers are
    /// unchanged; the packed layout is the same.
    const GEMM_BYTES: bool = false;
    /// Copies `src` (whole groups of four taps; a tail of fewer than four bytes is ignored)
    /// to `dst` with each group's taps in the order a channel's bytes have in its pair's
    /// packed words ([`Dot::dot_2x2`]): `t0, t2, t1, t3`.
    #[inline(always)]
    fn permute_into(src: &[i8], dst: &mut [i8]) {
        scalar::permute_into(src, dst)
    }
    /// [`Dot::dot_2x2`] on taps as bytes: `acc` `[p0 a, p0 b, p1 a, p1 b]` plus the dot
    /// products of pixel 0's taps `x0` and pixel 1's `x1` (each in [`Dot::permute_into`]'s
    /// order, at least `4 * w.len() / 2` bytes) with the pair's packed words `w` (as
    /// [`Dot::dot_2x2`] reads them: channel `a`'s taps are the even bytes, `b`'s the odd
    /// ones, in that order), wrapping.
    #[inline(always)]
    fn dot_2x2_bytes(x0: &[i8], x1: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        scalar::dot_2x2_bytes(x0, x1, w, acc)
    }
    /// Whether `Gemm`'s drivers run blocks of four output pixels ([`Dot::dot_4x4`]) instead
    /// of two. Such an implementation's [`Dot::widen_into`] takes slots 0..4 and writes each
    /// pixel's taps as they are: slot `s` of group `g` is bytes `4s..4s + 4` of words
    /// `4g..4g + 4` (RV32, whose loads sign-extend bytes). A compile-time constant, so the
    /// other implementations' drivers are unchanged.
    const GEMM_QUADS: bool = false;
    /// Four pixels times two channel pairs: `x` in [`Dot::GEMM_QUADS`]'s layout (group `g`
    /// the 16 bytes of words `4g..4g + 4`, pixel `p`'s taps `t0..t3` at bytes `4p..4p + 4`),
    /// `wa` and `wb` two pairs' packed weights as [`Dot::dot_2x2`] reads them; `acc` is
    /// `[pair a of pixels 0, 1, pair b of pixels 0, 1, pair a of pixels 2, 3, pair b of
    /// pixels 2, 3]`, each in [`Dot::dot_2x2`]'s order `[p a, p b, p' a, p' b]`.
    #[inline(always)]
    fn dot_4x4(x: &[u32], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
        scalar::dot_4x4(x, wa, wb, acc)
    }
    /// Whether [`Dot::requant_pairs`] is this implementation's own (a vector form): then
    /// `Gemm` requantizes a row of channel pairs at once rather than pair by pair. A
    /// compile-time constant, so the other implementations' drivers are unchanged.
    const BLOCK_REQUANT: bool = false;
    /// `Gemm`'s requantization of the channel pairs `j < accs.len()` of two pixels:
    /// `accs[j]` = `[p0 a, p0 b, p1 a, p1 b]`, pair `j`'s packed head (folded biases,
    /// multipliers `m2`, shifts `e - 1` in bytes 0 and 1) at `heads[j * pw..][..5]`; per
    /// output `h = doubling_high_mul(acc, m2)`, `shift_right(h + (h >> 31), e - 1) + c1`,
    /// then [`Dot::pack4_halved`] (halved, saturated, clamped to `[lo, hi]`), pixel 0's two
    /// to `out0[2j..2j + 2]`, pixel 1's to `out1[2j..2j + 2]`, exactly as `requant_pair`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn requant_pairs(accs: &[[i32; 4]], heads: &[i32], pw: usize, c1: i32, lo: i8, hi: i8, out0: &mut [i8], out1: &mut [i8]) {
        requant_pairs_by_one::<Self>(accs, heads, pw, c1, lo, hi, out0, out1)
    }
    /// TFLite's `SaturatingRoundingDoublingHighMul(x, m)` for a multiplier `m` in
    /// `[2^30, 2^31)` (every `QuantizeMultiplier` result but 0, where it never saturates),
    /// given as `m2 = 2 * m - 2^32`: `(x * 2m + 2^31) >> 32`, one SMMLAR.
    #[inline(always)]
    fn doubling_high_mul(x: i32, m2: i32) -> i32 {
        scalar::doubling_high_mul(x, m2)
    }
    /// `x >> (e & 255)` (arithmetic) for `e & 255` in `0..=31`: only the low byte of `e` is
    /// the amount (as Arm's ASR by register reads it), so a word can carry several amounts.
    #[inline(always)]
    fn shift_right(x: i32, e: i32) -> i32 {
        scalar::shift_right(x, e)
    }
    /// Four int32 halved (`v >> 1`), clamped to `[lo, hi]` (a range inside int8) and
    /// packed as four int8, `v[0]` in the low byte.
    #[inline(always)]
    fn pack4_halved(v: [i32; 4], lo: i8, hi: i8) -> u32 {
        scalar::pack4_halved(v, lo, hi)
    }

    /// Whether depthwise `OneChannel` runs two channel groups per pass over a window
    /// ([`Dot::mac8x4_row`]) instead of one. A compile-time constant, so the other
    /// implementations' driver is unchanged.
    const ONE_CHANNEL_PAIRS: bool = false;
    /// Two channel groups' [`Dot::mac4x4_row`] over the same widened window, both over the
    /// words all three have: `[mac4x4_row(x, wa, acc[0]), mac4x4_row(x, wb, acc[1])]` cut to
    /// `n = min(x.len(), wa.len() / 4, wb.len() / 4)` words (RV32: each tap loaded once for
    /// eight channels).
    #[inline(always)]
    fn mac8x4_row(x: &[[u32; 2]], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
        let n = x.len().min(wa.len() / 4).min(wb.len() / 4);
        [Self::mac4x4_row(&x[..n], &wa[..4 * n], acc[0]), Self::mac4x4_row(&x[..n], &wb[..4 * n], acc[1])]
    }
    /// Four taps of one input channel into four output channels, along a window (the
    /// depthwise `OneChannel` variant, whose windows are widened once per output pixel and
    /// read by every channel group): `x[i]` is [`Dot::widen4`] of word `i`'s taps `t0..t3`
    /// (`[t0, t2]`, `[t1, t3]` as int16 halves, low first) and `w[4i..4i + 4]` their
    /// weights paired for SMLAD (bytes `[w(ta, c), w(ta, c + 1), w(tb, c), w(tb, c + 1)]`):
    /// `w[0]` taps (0, 2) channels (0, 1), `w[1]` taps (0, 2) channels (2, 3), `w[2]` taps
    /// (1, 3) channels (0, 1), `w[3]` taps (1, 3) channels (2, 3). Returns `acc[c] +
    /// sum_i sum_t x(i, t) * w(i, t, c)`, wrapping, over as many words as both have.
    #[inline(always)]
    fn mac4x4_row(x: &[[u32; 2]], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        x.iter().zip(w.chunks_exact(4)).fold(acc, |acc, (&[e, o], w)| {
            let h = |v: u32, hi: bool| (if hi { v >> 16 } else { v }) as u16 as i16 as i32;
            let x = [h(e, false), h(o, false), h(e, true), h(o, true)];
            let w = [w[0], w[1], w[2], w[3]].map(|v| (v as u32).to_le_bytes().map(|b| b as i8 as i32));
            core::array::from_fn(|c| {
                let (e, o) = if c < 2 { (w[0], w[2]) } else { (w[1], w[3]) };
                let l = c % 2;
                acc[c].wrapping_add(x[0] * e[l] + x[2] * e[l + 2] + x[1] * o[l] + x[3] * o[l + 2])
            })
        })
    }

    /// Four bytes of `x` against four rows of four weights `w[j]` (words, little endian):
    /// `acc[j] + sum_i x[i] * w[j][i]`, wrapping (FULLY_CONNECTED `Interleaved`).
    #[inline(always)]
    fn dot4x4(x: u32, w: [u32; 4], acc: [i32; 4]) -> [i32; 4] {
        let x = x.to_le_bytes().map(|b| b as i8 as i32);
        core::array::from_fn(|j| {
            let w = w[j].to_le_bytes().map(|b| b as i8 as i32);
            acc[j].wrapping_add(x[0] * w[0] + x[1] * w[1] + x[2] * w[2] + x[3] * w[3])
        })
    }

    /// Whether FULLY_CONNECTED `Interleaved` runs four blocks of four units per pass over the
    /// input ([`Dot::dot16x4_row`]) instead of one. A compile-time constant, so the other
    /// implementations' driver is unchanged.
    const FC_QUADS: bool = false;
    /// Four blocks' [`Dot::dot4x4_row`] over the same `x`: `[dot4x4_row(x, w[b], acc[b])]`
    /// for `b` in 0..4 (RV32: each input byte loaded once for sixteen units, sixteen
    /// accumulators).
    #[inline(always)]
    fn dot16x4_row(x: &[i8], w: [&[i32]; 4], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
        core::array::from_fn(|b| Self::dot4x4_row(x, w[b], acc[b]))
    }
    /// [`Dot::dot4x4`] along a row: word `i` of `x` (bytes `4i..4i + 4`; a tail of fewer
    /// than four bytes is ignored) against the four weight words `w[4i..4i + 4]`, for as
    /// many words as both have (FULLY_CONNECTED `Interleaved`'s inner loop).
    #[inline(always)]
    fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        x.chunks_exact(4).zip(w.chunks_exact(4)).fold(acc, |acc, (x, w)| {
            let x = u32::from_le_bytes([x[0] as u8, x[1] as u8, x[2] as u8, x[3] as u8]);
            Self::dot4x4(x, [w[0] as u32, w[1] as u32, w[2] as u32, w[3] as u32], acc)
        })
    }

    /// Whether [`Dot::mac16_taps`], [`Dot::mac8_taps`], [`Dot::requant16`] and [`Dot::requant8`] are this
    /// implementation's own (a vector form): then the depthwise `Mult1` driver takes sixteen
    /// channels at a time through them (eight for a depth of 8). A compile-time constant, so the other implementations' drivers are
    /// unchanged.
    const MAC16: bool = false;
    /// Depthwise `Mult1` 3x3, one group of four channels over two output pixels: for pixel
    /// `p` and channel `c`, `acc[p][c]` plus the products `x_p(r, k)[c] * w[3r + k][c]` (the
    /// bytes of weight word `w[3r + k]`) over the nine taps, wrapping. Pixel 0's tap `(r,
    /// k)` is the four bytes at `x + r * steps[0] + k * steps[1]`, pixel 1's the four bytes
    /// `x_next` further (RV32: the nine weight words read once for both pixels, eight
    /// accumulators).
    ///
    /// # Safety
    /// Every tap's four bytes of both pixels are inside one live allocation.
    #[inline(always)]
    unsafe fn mac3x3_pair(x: *const i8, steps: [isize; 2], x_next: isize, w: &[i32; 9], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
        // SAFETY: the caller's guarantee, passed on.
        unsafe { mac3x3_pair_ref::<Self>(x, steps, x_next, w, acc) }
    }
    /// Sixteen channels of depthwise `Mult1` (four packed channel groups of `stride` words,
    /// group `j` at `groups[j * stride..]`, tap `t`'s four weights the bytes of word
    /// `groups[j * stride + t]`) over the taps `t` whose sixteen input bytes start at
    /// `taps[t] + offset`: `out[4j + c] = sum_t x_t[4j + c] * w(j, t)[c]`, wrapping (no
    /// bias).
    ///
    /// # Safety
    /// Each `taps[t].wrapping_add(offset)` points to 16 readable bytes inside one live
    /// allocation, and `groups` holds `3 * stride + taps.len()` words at least.
    #[inline(always)]
    unsafe fn mac16_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
        let mut out = [0i32; 16];
        for (t, &p) in taps.iter().enumerate() {
            // SAFETY: the caller's guarantee: 16 readable bytes; `[i8; 16]` has alignment 1.
            let x = unsafe { p.wrapping_add(offset).cast::<[i8; 16]>().read() };
            for (c, o) in out.iter_mut().enumerate() {
                let w = (groups[(c / 4) * stride + t] as u32).to_le_bytes()[c % 4] as i8;
                *o = o.wrapping_add(x[c] as i32 * w as i32);
            }
        }
        out
    }
    /// [`Dot::mac16_taps`] for the first two groups only (eight channels; `out[8..]` is 0).
    ///
    /// # Safety
    /// Each `taps[t].wrapping_add(offset)` points to 8 readable bytes inside one live
    /// allocation, and `groups` holds `stride + taps.len()` words at least.
    #[inline(always)]
    unsafe fn mac8_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
        let mut out = [0i32; 16];
        for (t, &p) in taps.iter().enumerate() {
            // SAFETY: the caller's guarantee: 8 readable bytes; `[i8; 8]` has alignment 1.
            let x = unsafe { p.wrapping_add(offset).cast::<[i8; 8]>().read() };
            for (c, o) in out[..8].iter_mut().enumerate() {
                let w = (groups[(c / 4) * stride + t] as u32).to_le_bytes()[c % 4] as i8;
                *o = o.wrapping_add(x[c] as i32 * w as i32);
            }
        }
        out
    }
    /// Sixteen channels of depthwise `Mult1` for `pixels` output pixels in a row: pixel `p`
    /// is [`Dot::mac16_taps`]`(taps, offset + p * px_step, groups, stride)` requantized by
    /// [`Dot::requant16`]`(.., &groups[taps.len()..], stride, k, lo, hi)` into
    /// `out[p * out_step..][..16]`.
    ///
    /// # Safety
    /// For every pixel `p < pixels`, each `taps[t].wrapping_add(offset + p * px_step)` points
    /// to 16 readable bytes inside one live allocation; `groups` holds `3 * stride +
    /// taps.len() + 9` words at least and `out` `(pixels - 1) * out_step + 16` bytes when
    /// `pixels > 0`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn mac16_run(taps: &[*const i8], [offset, px_step]: [usize; 2], groups: &[i32], stride: usize, [k, lo, hi]: [i32; 3], out: &mut [i8], out_step: usize, pixels: usize) {
        for p in 0..pixels {
            // SAFETY: the caller's guarantee for pixel p.
            let sums = unsafe { Self::mac16_taps(taps, offset + p * px_step, groups, stride) };
            out[p * out_step..][..16].copy_from_slice(&Self::requant16(&sums, &groups[taps.len()..], stride, k, lo as i8, hi as i8));
        }
    }
    /// Eight channels of depthwise `Mult1` for `out.len() / 8` output pixels in a row:
    /// pixel `p` is [`Dot::mac8_taps`]`(taps, p * px_step, groups, stride)` requantized by
    /// [`Dot::requant8`]`(.., &groups[taps.len()..], stride, k, lo, hi)` into
    /// `out[8p..8p + 8]`.
    ///
    /// # Safety
    /// For every pixel `p`, each `taps[t].wrapping_add(p * px_step)` points to 8 readable
    /// bytes inside one live allocation, and `groups` holds `stride + taps.len() + 9` words
    /// at least.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn mac8_run(taps: &[*const i8], px_step: usize, groups: &[i32], stride: usize, k: i32, lo: i8, hi: i8, out: &mut [i8]) {
        for (p, o) in out.chunks_exact_mut(8).enumerate() {
            // SAFETY: the caller's guarantee for pixel p.
            let sums = unsafe { Self::mac8_taps(taps, p * px_step, groups, stride) };
            o.copy_from_slice(&Self::requant8(&sums, &groups[taps.len()..], stride, k, lo, hi));
        }
    }
    /// The sixteen outputs of four channel groups from their sums `sums` (channel order):
    /// group `j`'s folded bias (four words), multipliers (four) and shifts (one word, a byte
    /// each) are the nine words at `tails[j * stride..]`, and output `4j + c` is
    /// [`Dot::requant_lane`]`(bias + sum, m, e, k)` clamped to `[lo, hi]` (`lo <= hi`), as
    /// `Requant4::apply` (same domain: `|bias + sum| < 2^30`, `m >= 0`, `e` in `1..=22`).
    #[inline(always)]
    fn requant16(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 16] {
        let mut out = [0i8; 16];
        for (j, o) in out.chunks_exact_mut(4).enumerate() {
            let t = &tails[j * stride..][..9];
            let e = t[8] as u32;
            let v: [i32; 4] = core::array::from_fn(|c| Self::requant_lane(t[c].wrapping_add(sums[4 * j + c]), t[4 + c], e >> (8 * c), k));
            o.copy_from_slice(&Self::clamp4(v, lo, hi));
        }
        out
    }

    /// [`Dot::requant16`] for the first two groups (eight outputs; `tails` holds
    /// `stride + 9` words at least).
    #[inline(always)]
        fn requant8(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 8] {
        let mut out = [0i8; 8];
        for (j, o) in out.chunks_exact_mut(4).enumerate() {
            let t = &tails[j * stride..][..9];
            let e = t[8] as u32;
            let v: [i32; 4] = core::array::from_fn(|c| Self::requant_lane(t[c].wrapping_add(sums[4 * j + c]), t[4 + c], e >> (8 * c), k));
            o.copy_from_slice(&Self::clamp4(v, lo, hi));
        }
        out
    }

    /// The requantization of one accumulator from packed constants
    /// ([`crate::kernels::requant::PackedRequant`]):
    /// `(floor((acc * m + 2^30) / 2^31) + ((k << e) >> 1) + (acc >> 31)) >> e`, for
    /// `|acc| < 2^30`, `m >= 0`, `e` in `1..=22` and `k = 2 * output_offset + 1` (then it
    /// is `MultiplyByQuantizedMultiplier(acc, m, -e) + output_offset`).
    #[inline(always)]
    fn requant_lane(acc: i32, m: i32, e: u32, k: i32) -> i32 {
        let e = e & 31;
        let high = ((acc as i64 * m as i64 + (1 << 30)) >> 31) as i32;
        high.wrapping_add((acc >> 31).wrapping_add(k.wrapping_shl(e) >> 1)) >> e
    }

    /// Four requantized lanes saturated to int8 and clamped to `[lo, hi]` (`lo <= hi`).
    #[inline(always)]
    fn clamp4(v: [i32; 4], lo: i8, hi: i8) -> [i8; 4] {
        v.map(|x| x.max(lo as i32).min(hi as i32) as i8)
    }

    /// Whether [`Dot::add_s8_lanes`] is this implementation's own (a vector form): then
    /// the dense int8 ADD (`kernels::add::dense`) offers it every call first. A
    /// compile-time constant, so the other implementations' ADD is unchanged.
    /// Whether int8 AVERAGE_POOL_2D sums its windows sixteen channels at a time with
    /// [`Dot::sum16_run`] (a vector form: Helium). A compile-time constant, so the other
    /// implementations' pool is unchanged.
    const SUM16: bool = false;
    /// `acc[i] + sum_{k < n} x[k * step + i]` for `i < 16`, wrapping: sixteen channels of `n`
    /// cells `step` bytes apart (`x` holds them all: at least `(n - 1) * step + 16` bytes
    /// when `n > 0`).
    #[inline(always)]
    fn sum16_run(x: &[i8], n: usize, step: usize, acc: [i32; 16]) -> [i32; 16] {
        scalar::sum16_run(x, n, step, acc)
    }
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "riscv32", test)), allow(dead_code))]
    const ADD_LANES: bool = false;
    /// The dense int8 ADD `out[i] = `[`add_lane_ref`]`(c, x[i], y[i])` for
    /// `i < out.len()` (`x`, `y` at least as long), when `c` is in this implementation's
    /// domain: returns whether it did it (`false`: nothing written, the caller runs its
    /// scalar loop). The default does nothing.
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "riscv32", test)), allow(dead_code))]
    #[inline(always)]
    fn add_s8_lanes(c: &AddConsts, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
        let _ = (c, x, y, out);
        false
    }
    /// [`Dot::add_s8_lanes`] with `x` = `out` (the output written over operand 1).
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "riscv32", test)), allow(dead_code))]
    #[inline(always)]
    fn add_s8_lanes_in_place(c: &AddConsts, inout: &mut [i8], y: &[i8]) -> bool {
        let _ = (c, inout, y);
        false
    }
}

/// The folded constants of a dense int8 ADD (`kernels::add::dense::Folded`) as
/// [`Dot::add_s8_lanes`] reads them: per operand `f = RDBPOT(SRDHM((x << left_shift) +
/// offset, m), e)`, then `clamp(RDBPOT(SRDHM(f1 + f2, m_out), e_out) + out_offset, min,
/// max)` ([`add_lane_ref`]). The domain every `prepare_add` result is in: `left_shift` in
/// `0..=20`, `offset` = `o << left_shift` with `o` in `-128..=128`, multipliers in
/// `[2^30, 2^31)`, right shifts `e` in `0..=31`, `min <= max` inside int8.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(any(tflc_mve, test, feature = "self-test")), allow(dead_code))]
pub(crate) struct AddConsts {
    pub(crate) left_shift: u32,
    /// Operand 1's and 2's offsets, already shifted left by `left_shift`.
    pub(crate) offset: [i32; 2],
    /// Operand 1's, operand 2's and the output's multipliers (TFLite's, in `[2^30, 2^31)`).
    pub(crate) m: [i32; 3],
    /// Their right shifts (`-shift`), `0..=31`.
    pub(crate) e: [u32; 3],
    pub(crate) out_offset: i32,
    pub(crate) min: i32,
    pub(crate) max: i32,
}

/// One element of the dense int8 ADD with TFLite's own functions
/// (`SaturatingRoundingDoublingHighMul`, `RoundingDivideByPOT`): the reference
/// [`Dot::add_s8_lanes`] is checked against (`self_test`).
#[cfg(any(test, feature = "self-test"))]
pub(crate) fn add_lane_ref(c: &AddConsts, x: i8, y: i8) -> i8 {
    use crate::quant::{rounding_divide_by_pot as rdbpot, saturating_rounding_doubling_high_mul as srdhm};
    let f = |v: i8, k: usize| rdbpot(srdhm(((v as i32) << c.left_shift).wrapping_add(c.offset[k]), c.m[k]), c.e[k] as i32);
    let raw = f(x, 0).wrapping_add(f(y, 1));
    let v = rdbpot(srdhm(raw, c.m[2]), c.e[2] as i32).wrapping_add(c.out_offset);
    v.max(c.min).min(c.max) as i8
}

/// [`Dot::requant_pairs`] one pair at a time with `D`'s scalar-shaped forms (its default, and
/// the remainder of a vector form).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn requant_pairs_by_one<D: Dot + ?Sized>(accs: &[[i32; 4]], heads: &[i32], pw: usize, c1: i32, lo: i8, hi: i8, out0: &mut [i8], out1: &mut [i8]) {
    for (j, ((acc, o0), o1)) in accs.iter().zip(out0.chunks_exact_mut(2)).zip(out1.chunks_exact_mut(2)).enumerate() {
        let Some(head) = heads.get(j * pw..j * pw + 5) else { return };
        let (ma, mb, sa) = (head[2], head[3], head[4]);
        let sb = sa >> 8;
        let rq = |acc: i32, m2: i32, e: i32| {
            let h = D::doubling_high_mul(acc, m2);
            D::shift_right(h.wrapping_add(h >> 31), e).wrapping_add(c1)
        };
        let v = D::pack4_halved([rq(acc[0], ma, sa), rq(acc[1], mb, sb), rq(acc[2], ma, sa), rq(acc[3], mb, sb)], lo, hi).to_le_bytes();
        o0.copy_from_slice(&[v[0] as i8, v[1] as i8]);
        o1.copy_from_slice(&[v[2] as i8, v[3] as i8]);
    }
}

#[cfg(test)]
mod tests {
    //! One [`KernelCase`] for all six micro-kernels (random lengths, data, offsets and
    //! accumulators; lane tails 0..=17 with ±127 / −128 everywhere, accumulators at the
    //! wrap point, offsets −127, 0 and 128), the naive wrapping sums as oracle, and one
    //! suite per implementation.
    use super::scalar::Scalar;
    use super::Dot;
    use crate::kernels::test_util::{kernel_tests, KernelCase, Rng};
    use proptest::prelude::*;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    type Dot4 = fn(&[i8], [&[i8]; 4], [i32; 4]) -> [i32; 4];
    type Dot4Offset = fn(&[i8], [&[i8]; 4], i32, [i32; 4]) -> [i32; 4];
    type Mac4Offset = fn([i8; 4], [i8; 4], i32, [i32; 4]) -> [i32; 4];
    type Dot4x4Row = fn(&[i8], &[i32], [i32; 4]) -> [i32; 4];
    type Mac4x4Row = fn(&[[u32; 2]], &[i32], [i32; 4]) -> [i32; 4];
    type Mac4Ref = fn(&[i8; 4], &[i8; 4], [i32; 4]) -> [i32; 4];

    /// The micro-kernels of one implementation.
    #[derive(Clone, Copy)]
    struct DotFns {
        dot4: Dot4,
        dot1: fn(&[i8], &[i8], i32) -> i32,
        mac4: fn([i8; 4], [i8; 4], [i32; 4]) -> [i32; 4],
        mac4_ref: Mac4Ref,
        dot4_offset: Dot4Offset,
        dot1_offset: fn(&[i8], &[i8], i32, i32) -> i32,
        mac4_offset: Mac4Offset,
        dot4x4_row: Dot4x4Row,
        widen4: fn(u32) -> [u32; 2],
        mac4x4_row: Mac4x4Row,
    }

    impl DotFns {
        const fn of<D: Dot>() -> DotFns {
            DotFns {
                dot4: D::dot4,
                dot1: D::dot1,
                mac4: D::mac4,
                mac4_ref: D::mac4_ref,
                dot4_offset: D::dot4_offset,
                dot1_offset: D::dot1_offset,
                mac4_offset: D::mac4_offset,
                dot4x4_row: D::dot4x4_row,
                widen4: D::widen4,
                mac4x4_row: D::mac4x4_row,
            }
        }
    }

    /// The interleaved weights of [`super::Dot::dot4x4_row`] drawn from the case's rows:
    /// byte `b` of word `4i + j` (unit `j`, input word `i`) is row `j`'s element `4i + b`.
    fn interleaved(w: &[Vec<i8>], i: usize, j: usize, b: usize) -> i8 {
        w[j][4 * i + b]
    }

    /// The four rows' bytes one after the other (the weight words of `mac4x4_row`: four per
    /// input word, as many as the rows hold).
    fn weight_bytes(w: &[Vec<i8>]) -> Vec<i8> {
        w.concat()
    }

    fn naive(x: &[i8], w: &[i8], acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
    }

    fn naive_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
    }

    /// `x` and four rows `w` of length `len`: random from `seed`, or filled with `fill`.
    #[derive(Clone, Debug)]
    struct DotCase {
        len: usize,
        fill: Option<(i8, i8)>,
        seed: u64,
        offset: i32,
        acc: [i32; 4],
    }

    impl DotCase {
        fn data(&self) -> (Vec<i8>, Vec<Vec<i8>>) {
            match self.fill {
                Some((xv, wv)) => (std::vec![xv; self.len], (0..4).map(|_| std::vec![wv; self.len]).collect()),
                None => {
                    let mut rng = Rng(self.seed);
                    let x = rng.i8s(self.len);
                    (x, (0..4).map(|_| rng.i8s(self.len)).collect())
                }
            }
        }

        /// What every micro-kernel should return, in [`KernelCase::run`]'s order.
        fn want(&self) -> Vec<(&'static str, i32)> {
            let (x, w) = self.data();
            let (offset, acc) = (self.offset, self.acc);
            let mut v = Vec::new();
            v.extend((0..4).map(|j| ("dot4", naive(&x, &w[j], acc[j]))));
            v.push(("dot1", naive(&x, &w[0], acc[0])));
            v.extend((0..4).map(|j| ("dot4_offset", naive_offset(&x, &w[j], offset, acc[j]))));
            v.push(("dot1_offset", naive_offset(&x, &w[0], offset, acc[0])));
            // dot4x4_row: unit j's weights are row j (interleaved by `run`), against the
            // whole words of x.
            let whole = &x[..x.len() / 4 * 4];
            v.extend((0..4).map(|j| ("dot4x4_row", naive(whole, &w[j], acc[j]))));
            // mac4x4_row: word k of the rows' concatenated bytes is weight word k; channel c's
            // weight of tap t of input word i is byte 2 * (t / 2) + c % 2 of word
            // 4i + 2 * (t % 2) + c / 2.
            let wb = weight_bytes(&w);
            v.extend((0..4).map(|c| {
                let s = (0..x.len() / 4).fold(acc[c], |a, i| {
                    (0..4).fold(a, |a, t| {
                        let wt = wb[4 * (4 * i + 2 * (t % 2) + c / 2) + 2 * (t / 2) + c % 2];
                        a.wrapping_add(x[4 * i + t] as i32 * wt as i32)
                    })
                });
                ("mac4x4_row", s)
            }));
            if x.len() >= 4 {
                v.extend((0..4).map(|j| ("mac4", acc[j].wrapping_add(x[j] as i32 * w[0][j] as i32))));
                v.extend((0..4).map(|j| ("mac4_ref", acc[j].wrapping_add(x[j] as i32 * w[0][j] as i32))));
                v.extend((0..4).map(|j| ("mac4_offset", acc[j].wrapping_add((x[j] as i32 + offset) * w[0][j] as i32))));
            }
            v
        }
    }

    impl KernelCase for DotCase {
        type Kernel = DotFns;
        type Output = Vec<i32>;
        const REFERENCE: DotFns = DotFns::of::<Scalar>();

        fn strategy() -> BoxedStrategy<Self> {
            (0usize..40, any::<u64>(), any::<[i32; 4]>(), prop_oneof![Just(-127i32), Just(128), Just(0), -127i32..=128])
                .prop_map(|(len, seed, acc, offset)| DotCase { len, fill: None, seed, offset, acc })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let mut v = Vec::new();
            for fill in [(-128i8, -128i8), (-128, 127), (127, 127), (127, -128)] {
                for len in 0usize..=17 {
                    for acc in [i32::MAX, i32::MIN, 0, -1] {
                        for offset in [-127, 0, 128] {
                            v.push(DotCase { len, fill: Some(fill), seed: 0, offset, acc: [acc; 4] });
                        }
                    }
                }
            }
            v
        }

        fn run(&self, k: DotFns) -> Result<Vec<i32>, String> {
            let (x, w) = self.data();
            let rows = [&w[0][..], &w[1][..], &w[2][..], &w[3][..]];
            let (offset, acc) = (self.offset, self.acc);
            let mut v = Vec::new();
            v.extend((k.dot4)(&x, rows, acc));
            v.push((k.dot1)(&x, &w[0], acc[0]));
            v.extend((k.dot4_offset)(&x, rows, offset, acc));
            v.push((k.dot1_offset)(&x, &w[0], offset, acc[0]));
            let words: Vec<i32> = (0..x.len() / 4 * 4)
                .map(|k| i32::from_le_bytes(core::array::from_fn(|b| interleaved(&w, k / 4, k % 4, b) as u8)))
                .collect();
            v.extend((k.dot4x4_row)(&x, &words, acc));
            let wide: Vec<[u32; 2]> =
                x.chunks_exact(4).map(|q| (k.widen4)(u32::from_le_bytes([q[0] as u8, q[1] as u8, q[2] as u8, q[3] as u8]))).collect();
            let ww: Vec<i32> = weight_bytes(&w).chunks_exact(4).map(|b| i32::from_le_bytes([b[0] as u8, b[1] as u8, b[2] as u8, b[3] as u8])).collect();
            v.extend((k.mac4x4_row)(&wide, &ww, acc));
            if x.len() >= 4 {
                let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[0][0], w[0][1], w[0][2], w[0][3]]);
                v.extend((k.mac4)(xa, wa, acc));
                v.extend((k.mac4_ref)(&xa, &wa, acc));
                v.extend((k.mac4_offset)(xa, wa, offset, acc));
            }
            Ok(v)
        }

        fn check(&self, out: &Vec<i32>) -> Result<(), String> {
            let want = self.want();
            if out.len() != want.len() {
                return Err(format!("{} results, {} expected", out.len(), want.len()));
            }
            for (&got, &(what, want)) in out.iter().zip(&want) {
                if got != want {
                    return Err(format!("{what} at len {}: got {got}, want {want}", self.len));
                }
            }
            Ok(())
        }
    }

    kernel_tests!(scalar, DotCase, DotFns::of::<Scalar>());
    // The DSP implementation runs wherever it is compiled (Armv7E-M firmware under QEMU,
    // ARMv7-A Linux under qemu-arm); elsewhere it is not compiled and not tested, which
    // `crate::isa::tests::report` prints.
    #[cfg(tflc_arm_dsp)]
    kernel_tests!(arm_dsp, if true, DotCase, DotFns::of::<crate::kernels::dot::dsp::ArmDsp>());
    // Helium (`mve::Mve`) has no line here: it is compiled only for Cortex-M55/M85 firmware,
    // which runs `self_test` against `Scalar` on the emulated core (`run.sh --m55`).
    // Portable: runs on every build (natively on the host; on RV32 it is what ships).
    kernel_tests!(rv32, if true, DotCase, DotFns::of::<crate::kernels::dot::rv32::Rv32>());
    // NEON is part of the aarch64 base ISA: compiled and run on every aarch64 build
    // (`tools/test-runtime-aarch64.sh` runs it under qemu-aarch64).
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    kernel_tests!(neon, if true, DotCase, DotFns::of::<crate::kernels::dot::neon::Neon>());
}
