//! The RV32 micro-kernels ([`Rv32`]): the fast variants' inner loops written for a 32-bit
//! RISC-V core without SIMD (RV32IMC: the ESP32-C3, the RP2350's Hazard3, SiFive E2x).
//!
//! The packed layouts are the Arm ones (the compiler packs once for both; `TargetClass::Arm`),
//! made for SXTB16/SMLAD, which RV32 does not have: extracting a signed byte or halfword
//! from a loaded word costs two shifts there (`slli` + `srai`), and there is no
//! multiply-accumulate. What RV32 does have is sign-extending narrow loads (`lb`, `lh`) with
//! a 12-bit immediate offset, and 31 registers. So every operand is read with its own
//! narrow load at a fixed offset from one pointer per stream (the layouts put all the
//! operands of a block at constant offsets: `Dot::dot_4x4`'s group is 16 bytes of four
//! pixels' taps, copied as they are by `Rv32::widen_into`, and 8 bytes of each of two
//! channel pairs' weights; `Dot::dot4x4_row`'s step 4 input bytes and 16 weight bytes),
//! which is one instruction per operand and no extraction, and each block's accumulators
//! stay in registers: per multiply-accumulate a `mul` and an `add`, plus the operand loads
//! shared by the block (`dot_4x4`: 64 products per 32 loads; `dot_2x2`: 16 per 16;
//! `dot4x4_row`: 16 per 20). The views are plain safe slices of the same words (`bytemuck`
//! casts, fixed-size chunks so that no index is checked in the loop).
//!
//! Written in portable Rust, except `dot_4x4`'s loop, which is `asm!` on `riscv32` (LLVM
//! spills its sixteen accumulators): the host test suites run the Rust forms natively
//! (`kernel_tests!` lines `rv32`, `selected_rv32`, the dot self-test's `rv32_passes`), and
//! the RV32 firmware (`examples/firmware/run.sh --rv32`) runs the dot self-test (every
//! micro-kernel, the `asm!` one included, against the scalar reference) and then every
//! model. Requantization (`Dot::doubling_high_mul`, `Dot::requant_lane`) rounds in 32-bit
//! words: the product's high word (`mulhsu`) plus the top bit of its low word (`mul`), with
//! no libgcc call (`__muldi3`, `__ashldi3`: `run.sh --rv32` fails an image that links one;
//! docs/KERNELS.md, "RV32").

/// The RV32 micro-kernels: [`super::scalar::Scalar`]'s arithmetic (and bits) with loads
/// shaped for RV32 (see the module doc).
pub(crate) struct Rv32;

/// `a + x * w`, wrapping (one `mul` and one `add`).
#[inline(always)]
fn mac(a: i32, x: i32, w: i32) -> i32 {
    a.wrapping_add(x.wrapping_mul(w))
}

/// `floor((x * u + 2^31) / 2^32)` for a signed `x` and an unsigned `u`, in 32-bit words:
/// the product's high word (`mulhsu`) plus the top bit of its low word (`mul`; adding 2^31
/// to the low word carries exactly when that bit is set).
#[inline(always)]
pub(crate) fn high_round(x: i32, u: u32) -> i32 {
    let p = i64::from(x) * i64::from(u);
    ((p >> 32) as i32).wrapping_add(((p as u32) >> 31) as i32)
}

impl super::Dot for Rv32 {
    const NAME: &'static str = "rv32";
    const BYTE_LOADS: bool = true;
    const CHUNKED_BLOCK_PAIRS: usize = 32;
    /// 72 groups (288 taps) per chunk, as Helium: a 3x3 window on up to 32 channels is one
    /// chunk, whose accumulators go from the biases to the stores without the round trip
    /// through the stack between chunks (1152 bytes of stack).
    const CHUNKED_GROUPS: usize = 72;

    /// Four elements per step: each of the five streams (`x`, four rows) advances one
    /// pointer by 4 and reads its bytes at offsets 0..4 (`lb`), so a step is 20 loads, 16
    /// products and 6 pointer/loop instructions instead of 4 x 6; the last `len % 4` one by one.
    #[inline(always)]
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
        let n = x.len();
        let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        let quads = x.chunks_exact(4).zip(w0.chunks_exact(4)).zip(w1.chunks_exact(4)).zip(w2.chunks_exact(4)).zip(w3.chunks_exact(4));
        for ((((x, w0), w1), w2), w3) in quads {
            for i in 0..4 {
                let xv = i32::from(x[i]);
                a0 = mac(a0, xv, i32::from(w0[i]));
                a1 = mac(a1, xv, i32::from(w1[i]));
                a2 = mac(a2, xv, i32::from(w2[i]));
                a3 = mac(a3, xv, i32::from(w3[i]));
            }
        }
        let t = n / 4 * 4;
        super::scalar::dot4(&x[t..], [&w0[t..], &w1[t..], &w2[t..], &w3[t..]], [a0, a1, a2, a3])
    }
    /// As [`Rv32::dot4`], one row: four elements per step.
    #[inline(always)]
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
        let n = x.len();
        let w = &w[..n];
        let mut a = acc;
        for (x, w) in x.chunks_exact(4).zip(w.chunks_exact(4)) {
            for i in 0..4 {
                a = mac(a, i32::from(x[i]), i32::from(w[i]));
            }
        }
        let t = n / 4 * 4;
        super::scalar::dot1(&x[t..], &w[t..], a)
    }
    #[inline(always)]
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
        super::scalar::mac4(x, w, acc)
    }
    /// One `lb` per lane of each operand, one `mul` and one `add` per lane.
    #[inline(always)]
    fn mac4_ref(x: &[i8; 4], w: &[i8; 4], acc: [i32; 4]) -> [i32; 4] {
        let [a0, a1, a2, a3] = acc;
        [
            mac(a0, i32::from(x[0]), i32::from(w[0])),
            mac(a1, i32::from(x[1]), i32::from(w[1])),
            mac(a2, i32::from(x[2]), i32::from(w[2])),
            mac(a3, i32::from(x[3]), i32::from(w[3])),
        ]
    }
    #[inline(always)]
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        super::scalar::dot4_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        super::scalar::dot1_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        super::scalar::mac4_offset(x, w, offset, acc)
    }

    /// RV32 reads every operand with its own sign-extending load, so the taps need no
    /// widening: `widen_into` copies each word of `src` as it is into slot `slot` (0..4,
    /// [`super::Dot::GEMM_QUADS`]) of its group (word `4i + slot`), and [`Rv32::dot_2x2`]
    /// and [`Rv32::dot_4x4`] read pixel `p`'s taps `t0..t3` at bytes `4p..4p + 4` of the
    /// group with `lb`.
    #[inline(always)]
    fn widen_into(src: &[i8], dst: &mut [u32], slot: usize) {
        // A word-aligned source (a layer whose rows start on words: channels a multiple
        // of 4) is copied a word at a time (`lw`, `sw`); any other byte by byte, since
        // RV32 cores may trap or take many cycles on a misaligned `lw`.
        if let Ok(words) = bytemuck::try_cast_slice::<i8, u32>(src) {
            // Two words a step (LLVM indexes both slices by a counter: the step's address
            // arithmetic is shared by two copies; four a step was slower on vww's rows of
            // three words).
            let at = slot & 3;
            let (pairs, last) = words.as_chunks::<2>();
            let (blocks, _) = dst.as_chunks_mut::<8>();
            for (s, d) in pairs.iter().zip(blocks.iter_mut()) {
                d[at] = s[0];
                d[4 + at] = s[1];
            }
            if let (Some(&s), Some(d)) = (last.first(), dst.get_mut(8 * pairs.len() + at)) {
                *d = s;
            }
            return;
        }
        let dst: &mut [i8] = bytemuck::cast_slice_mut(dst);
        let at = 4 * (slot & 3);
        for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(16)) {
            d[at..at + 4].copy_from_slice(s);
        }
    }

    /// Per group: the 8 bytes of the two pixels' taps (`lb`: pixel `p`'s tap `t` at byte
    /// `4p + t`, [`Rv32::widen_into`]'s layout) and the 8 weight bytes (`lb`: channel `j`'s
    /// `t0, t2` at bytes `j, j + 2`, `t1, t3` at `4 + j, 6 + j`).
    #[inline(always)]
    fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        let x: &[i8] = bytemuck::cast_slice(x);
        let w: &[i8] = bytemuck::cast_slice(w);
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        for (x, w) in x.chunks_exact(16).zip(w.chunks_exact(8)) {
            let (Ok(x), Ok(w)) = (<&[i8; 16]>::try_from(x), <&[i8; 8]>::try_from(w)) else { break };
            // Tap t (t0, t1, t2, t3) is byte t of pixel 0 and byte 4 + t of pixel 1; its
            // weights are byte pair 0, 2, 1, 3 of the group's (t0, t2 in the first word).
            for (xo, wo) in [(0, 0), (1, 4), (2, 2), (3, 6)] {
                let (x0, x1) = (i32::from(x[xo]), i32::from(x[xo + 4]));
                let (wa, wb) = (i32::from(w[wo]), i32::from(w[wo + 1]));
                a0 = mac(a0, x0, wa);
                a1 = mac(a1, x0, wb);
                a2 = mac(a2, x1, wa);
                a3 = mac(a3, x1, wb);
            }
        }
        [a0, a1, a2, a3]
    }

    /// On RV32 the nine taps in `asm!` ([`mac3x3_pair_asm`]): per tap two address adds,
    /// four weight and eight input `lb`, eight `mul` and eight `add` (3.8 per MAC), where
    /// LLVM spilled the eight accumulators and the tap pointers.
    #[inline(always)]
    unsafe fn mac3x3_pair(x: *const i8, steps: [isize; 2], x_next: isize, w: &[i32; 9], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
        #[cfg(target_arch = "riscv32")]
        {
            // SAFETY: the caller's guarantee, passed on.
            unsafe { mac3x3_pair_asm(x, steps, x_next, w, acc) }
        }
        #[cfg(not(target_arch = "riscv32"))]
        {
            // SAFETY: the caller's guarantee, passed on.
            unsafe { super::mac3x3_pair_ref::<Self>(x, steps, x_next, w, acc) }
        }
    }

    const FC_QUADS: bool = true;

    /// Sixteen units per pass: per input byte one `lb` of `x` and, for each of the four
    /// blocks' four units, one `lb` of the weight, a `mul` and an `add`: 202 instructions
    /// per 64 MACs with the loop (3.16 per MAC, against 3.44 for four units). `asm!` on
    /// RV32 ([`dot16x4_row_asm`]); elsewhere four [`Rv32::dot4x4_row`].
    #[inline(always)]
    fn dot16x4_row(x: &[i8], w: [&[i32]; 4], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
        #[cfg(target_arch = "riscv32")]
        {
            dot16x4_row_asm(x, w, acc)
        }
        #[cfg(not(target_arch = "riscv32"))]
        {
            core::array::from_fn(|b| Self::dot4x4_row(x, w[b], acc[b]))
        }
    }

    const ONE_CHANNEL_PAIRS: bool = true;

    /// Eight channels per pass: per window entry the four taps (`lb`) each against
    /// eight weight bytes (`lb`), 32 `mul` + 32 `add`: 104 instructions per 32 MACs with
    /// the loop (3.25 per MAC, against 3.44). `asm!` on RV32 ([`mac8x4_row_asm`]);
    /// elsewhere two [`Rv32::mac4x4_row`].
    #[inline(always)]
    fn mac8x4_row(x: &[[u32; 2]], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
        #[cfg(target_arch = "riscv32")]
        {
            mac8x4_row_asm(x, wa, wb, acc)
        }
        #[cfg(not(target_arch = "riscv32"))]
        {
            let n = x.len().min(wa.len() / 4).min(wb.len() / 4);
            [Self::mac4x4_row(&x[..n], &wa[..4 * n], acc[0]), Self::mac4x4_row(&x[..n], &wb[..4 * n], acc[1])]
        }
    }

    const GEMM_QUADS: bool = true;

    /// Four pixels times two channel pairs: per group 16 tap bytes and 16 weight bytes
    /// (`lb`) feed 64 `mul` + 64 `add` into sixteen accumulators in registers: 164
    /// instructions per 64 MACs with the loop (2.56 per MAC). `asm!` on RV32
    /// ([`dot_4x4_asm`]); elsewhere the scalar reference.
    #[inline(always)]
    fn dot_4x4(x: &[u32], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
        #[cfg(target_arch = "riscv32")]
        {
            dot_4x4_asm(x, wa, wb, acc)
        }
        #[cfg(not(target_arch = "riscv32"))]
        {
            super::scalar::dot_4x4(x, wa, wb, acc)
        }
    }

    /// `(x * 2m + 2^31) >> 32` as the high word of the 32 x 32-bit product (`mulhsu`) plus
    /// the carry of adding 2^31 to its low word (`mul`), which is the low word's top bit:
    /// 4 instructions where LLVM's 64-bit add takes 6.
    #[inline(always)]
    fn doubling_high_mul(x: i32, m2: i32) -> i32 {
        high_round(x, m2 as u32)
    }

    /// [`super::Dot::requant_lane`] with its rounded high product as [`high_round`] of `2m`
    /// (`m` in `[0, 2^31)`, so `2m` fits 32 unsigned bits and `(acc * 2m + 2^31) >> 32 =
    /// (acc * m + 2^30) >> 31`).
    #[inline(always)]
    fn requant_lane(acc: i32, m: i32, e: u32, k: i32) -> i32 {
        let e = e & 31;
        let high = high_round(acc, (m as u32) << 1);
        high.wrapping_add((acc >> 31).wrapping_add(k.wrapping_shl(e) >> 1)) >> e
    }

    /// Per word of `x`: its 4 bytes (`lb`) against the 16 weight bytes of the four units
    /// (`lb`: unit `j`'s bytes at `4j..4j + 4`).
    #[inline(always)]
    fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        let w: &[i8] = bytemuck::cast_slice(w);
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        for (x, w) in x.chunks_exact(4).zip(w.chunks_exact(16)) {
            let (Ok(x), Ok(w)) = (<&[i8; 4]>::try_from(x), <&[i8; 16]>::try_from(w)) else { break };
            for (i, &xv) in x.iter().enumerate() {
                let xv = i32::from(xv);
                a0 = mac(a0, xv, i32::from(w[i]));
                a1 = mac(a1, xv, i32::from(w[4 + i]));
                a2 = mac(a2, xv, i32::from(w[8 + i]));
                a3 = mac(a3, xv, i32::from(w[12 + i]));
            }
        }
        [a0, a1, a2, a3]
    }

    const RAW_WIDE_TAPS: bool = true;

    /// The taps as they are (`[x, 0]`): [`Rv32::mac4x4_row`] reads tap `t` as byte `t` with
    /// `lb`, which sign-extends (no extraction to save).
    #[inline(always)]
    fn widen4(x: u32) -> [u32; 2] {
        [x, 0]
    }

    /// Per entry of `x` (taps `t0..t3` as bytes 0..4 of its first word, [`Rv32::widen4`]:
    /// `lb`) the 16 weight bytes of its four words (`lb`; layout in
    /// [`super::Dot::mac4x4_row`]).
    #[inline(always)]
    fn mac4x4_row(x: &[[u32; 2]], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        let x: &[i8] = bytemuck::cast_slice(x);
        let w: &[i8] = bytemuck::cast_slice(w);
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        for (x, w) in x.chunks_exact(8).zip(w.chunks_exact(16)) {
            let (Ok(x), Ok(w)) = (<&[i8; 8]>::try_from(x), <&[i8; 16]>::try_from(w)) else { break };
            // Tap (t0, t2) of channels (0, 1) in weight word 0, (2, 3) in word 1, tap (t1,
            // t3) in words 2 and 3; tap t is byte t of x.
            for (xo, wo) in [(0, 0), (2, 2), (1, 8), (3, 10)] {
                let xv = i32::from(x[xo]);
                a0 = mac(a0, xv, i32::from(w[wo]));
                a1 = mac(a1, xv, i32::from(w[wo + 1]));
                a2 = mac(a2, xv, i32::from(w[wo + 4]));
                a3 = mac(a3, xv, i32::from(w[wo + 5]));
            }
        }
        [a0, a1, a2, a3]
    }
}

/// [`super::Dot::dot16x4_row`] on RV32: the loop in `asm!`, sixteen accumulators (25
/// registers). Per input word (`x` byte `i` at offset `i`), block `b`'s unit `j` reads its
/// weight byte `i` at offset `4j + i` of that block's four words.
#[cfg(target_arch = "riscv32")]
#[inline(always)]
fn dot16x4_row_asm(x: &[i8], w: [&[i32]; 4], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
    let words = (x.len() / 4).min(w[0].len() / 4).min(w[1].len() / 4).min(w[2].len() / 4).min(w[3].len() / 4);
    if words == 0 {
        return acc;
    }
    let [[mut a0, mut a1, mut a2, mut a3], [mut b0, mut b1, mut b2, mut b3], [mut c0, mut c1, mut c2, mut c3], [mut d0, mut d1, mut d2, mut d3]] = acc;
    let mut px = x.as_ptr();
    let end = px.wrapping_add(4 * words);
    let (mut pa, mut pb, mut pc, mut pd) = (w[0].as_ptr().cast::<u8>(), w[1].as_ptr().cast::<u8>(), w[2].as_ptr().cast::<u8>(), w[3].as_ptr().cast::<u8>());
    // One block's four units (accumulators A0..A3) for input byte I (weights at I, 4 + I,
    // 8 + I, 12 + I of pointer P).
    macro_rules! block {
        ($p:literal, $i0:literal, $i1:literal, $i2:literal, $i3:literal, $a0:literal, $a1:literal, $a2:literal, $a3:literal) => {
            concat!(
                "lb {w}, ", $i0, "({", $p, "})\n", "mul {w}, {w}, {x}\n", "add {", $a0, "}, {", $a0, "}, {w}\n",
                "lb {w}, ", $i1, "({", $p, "})\n", "mul {w}, {w}, {x}\n", "add {", $a1, "}, {", $a1, "}, {w}\n",
                "lb {w}, ", $i2, "({", $p, "})\n", "mul {w}, {w}, {x}\n", "add {", $a2, "}, {", $a2, "}, {w}\n",
                "lb {w}, ", $i3, "({", $p, "})\n", "mul {w}, {w}, {x}\n", "add {", $a3, "}, {", $a3, "}, {w}\n",
            )
        };
    }
    // Input byte I of the word against the sixteen units.
    macro_rules! byte {
        ($i:literal, $i0:literal, $i1:literal, $i2:literal, $i3:literal) => {
            concat!(
                "lb {x}, ", $i, "({px})\n",
                block!("pa", $i0, $i1, $i2, $i3, "a0", "a1", "a2", "a3"),
                block!("pb", $i0, $i1, $i2, $i3, "b0", "b1", "b2", "b3"),
                block!("pc", $i0, $i1, $i2, $i3, "c0", "c1", "c2", "c3"),
                block!("pd", $i0, $i1, $i2, $i3, "d0", "d1", "d2", "d3"),
            )
        };
    }
    // SAFETY: the loop runs `words` (> 0) times and reads, per iteration, 4 bytes of `x`
    // (from `px`) and 16 of each block's weights (from `pa`..`pd`), each pointer then
    // advanced by that much: `words` is at most `x.len() / 4` and each `w[b].len() / 4`, so
    // every read is inside its slice (byte loads: no alignment). It writes no memory and
    // only the declared registers.
    unsafe {
        core::arch::asm!(
            "2:",
            byte!("0", "0", "4", "8", "12"),
            byte!("1", "1", "5", "9", "13"),
            byte!("2", "2", "6", "10", "14"),
            byte!("3", "3", "7", "11", "15"),
            "addi {px}, {px}, 4",
            "addi {pa}, {pa}, 16",
            "addi {pb}, {pb}, 16",
            "addi {pc}, {pc}, 16",
            "addi {pd}, {pd}, 16",
            "bne {px}, {end}, 2b",
            px = inout(reg) px,
            end = in(reg) end,
            pa = inout(reg) pa,
            pb = inout(reg) pb,
            pc = inout(reg) pc,
            pd = inout(reg) pd,
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            b0 = inout(reg) b0,
            b1 = inout(reg) b1,
            b2 = inout(reg) b2,
            b3 = inout(reg) b3,
            c0 = inout(reg) c0,
            c1 = inout(reg) c1,
            c2 = inout(reg) c2,
            c3 = inout(reg) c3,
            d0 = inout(reg) d0,
            d1 = inout(reg) d1,
            d2 = inout(reg) d2,
            d3 = inout(reg) d3,
            x = out(reg) _,
            w = out(reg) _,
            options(nostack, readonly),
        );
    }
    let _ = (px, pa, pb, pc, pd);
    [[a0, a1, a2, a3], [b0, b1, b2, b3], [c0, c1, c2, c3], [d0, d1, d2, d3]]
}

/// [`super::Dot::mac8x4_row`] on RV32: the loop in `asm!`, eight accumulators. Tap `t` is
/// byte `t` of the entry ([`Rv32::widen4`]); the weights of taps `t0, t2, t1, t3` for
/// channels 0..4 of a group are bytes `o, o + 1, o + 4, o + 5` of the group's four words,
/// `o` = 0, 2, 8, 10.
#[cfg(target_arch = "riscv32")]
#[inline(always)]
fn mac8x4_row_asm(x: &[[u32; 2]], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
    let words = x.len().min(wa.len() / 4).min(wb.len() / 4);
    if words == 0 {
        return acc;
    }
    let [[mut a0, mut a1, mut a2, mut a3], [mut b0, mut b1, mut b2, mut b3]] = acc;
    let mut px = x.as_ptr().cast::<u8>();
    let end = px.wrapping_add(8 * words);
    let (mut pa, mut pb) = (wa.as_ptr().cast::<u8>(), wb.as_ptr().cast::<u8>());
    // Tap byte X against both groups' four channels (weight bytes O, O + 1, O + 4, O + 5).
    macro_rules! tap {
        ($x:literal, $o0:literal, $o1:literal, $o4:literal, $o5:literal) => {
            concat!(
                "lb {x}, ", $x, "({px})\n",
                "lb {w}, ", $o0, "({pa})\n", "mul {w}, {w}, {x}\n", "add {a0}, {a0}, {w}\n",
                "lb {w}, ", $o1, "({pa})\n", "mul {w}, {w}, {x}\n", "add {a1}, {a1}, {w}\n",
                "lb {w}, ", $o4, "({pa})\n", "mul {w}, {w}, {x}\n", "add {a2}, {a2}, {w}\n",
                "lb {w}, ", $o5, "({pa})\n", "mul {w}, {w}, {x}\n", "add {a3}, {a3}, {w}\n",
                "lb {w}, ", $o0, "({pb})\n", "mul {w}, {w}, {x}\n", "add {b0}, {b0}, {w}\n",
                "lb {w}, ", $o1, "({pb})\n", "mul {w}, {w}, {x}\n", "add {b1}, {b1}, {w}\n",
                "lb {w}, ", $o4, "({pb})\n", "mul {w}, {w}, {x}\n", "add {b2}, {b2}, {w}\n",
                "lb {w}, ", $o5, "({pb})\n", "mul {w}, {w}, {x}\n", "add {b3}, {b3}, {w}\n",
            )
        };
    }
    // SAFETY: the loop runs `words` (> 0) times and reads, per iteration, bytes of one
    // entry of `x` (from `px`, 8 bytes) and 16 bytes of each group's weights (from `pa`, `pb`), each pointer then
    // advanced by that much: `words` is at most `x.len()`, `wa.len() / 4` and `wb.len() /
    // 4`, so every read is inside its slice. It writes no memory and only the declared
    // registers.
    unsafe {
        core::arch::asm!(
            "2:",
            tap!("0", "0", "1", "4", "5"),
            tap!("2", "2", "3", "6", "7"),
            tap!("1", "8", "9", "12", "13"),
            tap!("3", "10", "11", "14", "15"),
            "addi {px}, {px}, 8",
            "addi {pa}, {pa}, 16",
            "addi {pb}, {pb}, 16",
            "bne {px}, {end}, 2b",
            px = inout(reg) px,
            end = in(reg) end,
            pa = inout(reg) pa,
            pb = inout(reg) pb,
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            b0 = inout(reg) b0,
            b1 = inout(reg) b1,
            b2 = inout(reg) b2,
            b3 = inout(reg) b3,
            x = out(reg) _,
            w = out(reg) _,
            options(nostack, readonly),
        );
    }
    let _ = (px, pa, pb);
    [[a0, a1, a2, a3], [b0, b1, b2, b3]]
}

/// [`super::Dot::mac3x3_pair`] on RV32 in `asm!`: the nine taps unrolled, a running tap
/// pointer `q` (plus `x_next` for the second pixel), the tap's four weights loaded once.
///
/// # Safety
/// As [`super::Dot::mac3x3_pair`].
#[cfg(target_arch = "riscv32")]
#[inline(always)]
unsafe fn mac3x3_pair_asm(x: *const i8, [x_row, x_col]: [isize; 2], x_next: isize, w: &[i32; 9], acc: [[i32; 4]; 2]) -> [[i32; 4]; 2] {
    let [[mut a0, mut a1, mut a2, mut a3], [mut b0, mut b1, mut b2, mut b3]] = acc;
    // One tap at `q` (pixel 0) and `q + x_next` (pixel 1), its weights the word at byte W
    // of `w`.
    macro_rules! tap {
        ($w0:literal, $w1:literal, $w2:literal, $w3:literal) => {
            concat!(
                "add {q2}, {q}, {xn}\n",
                "lb {w0}, ", $w0, "({pw})\n", "lb {w1}, ", $w1, "({pw})\n",
                "lb {w2}, ", $w2, "({pw})\n", "lb {w3}, ", $w3, "({pw})\n",
                "lb {x}, 0({q})\n", "mul {x}, {x}, {w0}\n", "add {a0}, {a0}, {x}\n",
                "lb {x}, 1({q})\n", "mul {x}, {x}, {w1}\n", "add {a1}, {a1}, {x}\n",
                "lb {x}, 2({q})\n", "mul {x}, {x}, {w2}\n", "add {a2}, {a2}, {x}\n",
                "lb {x}, 3({q})\n", "mul {x}, {x}, {w3}\n", "add {a3}, {a3}, {x}\n",
                "lb {x}, 0({q2})\n", "mul {x}, {x}, {w0}\n", "add {b0}, {b0}, {x}\n",
                "lb {x}, 1({q2})\n", "mul {x}, {x}, {w1}\n", "add {b1}, {b1}, {x}\n",
                "lb {x}, 2({q2})\n", "mul {x}, {x}, {w2}\n", "add {b2}, {b2}, {x}\n",
                "lb {x}, 3({q2})\n", "mul {x}, {x}, {w3}\n", "add {b3}, {b3}, {x}\n",
            )
        };
    }
    // SAFETY: every load is a tap byte of one of the two pixels (rows `x + r * x_row`,
    // columns `+ k * x_col`, bytes 0..4, the second pixel `x_next` further), in bounds by
    // the caller's guarantee, or a byte of `w` (offsets 0..36 of its 36 bytes). No memory
    // is written; only the declared registers are.
    unsafe {
        core::arch::asm!(
            "mv {q}, {p}",
            tap!("0", "1", "2", "3"),
            "add {q}, {q}, {xc}",
            tap!("4", "5", "6", "7"),
            "add {q}, {q}, {xc}",
            tap!("8", "9", "10", "11"),
            "add {p}, {p}, {xr}",
            "mv {q}, {p}",
            tap!("12", "13", "14", "15"),
            "add {q}, {q}, {xc}",
            tap!("16", "17", "18", "19"),
            "add {q}, {q}, {xc}",
            tap!("20", "21", "22", "23"),
            "add {p}, {p}, {xr}",
            "mv {q}, {p}",
            tap!("24", "25", "26", "27"),
            "add {q}, {q}, {xc}",
            tap!("28", "29", "30", "31"),
            "add {q}, {q}, {xc}",
            tap!("32", "33", "34", "35"),
            p = inout(reg) x => _,
            xr = in(reg) x_row,
            xc = in(reg) x_col,
            xn = in(reg) x_next,
            pw = in(reg) w.as_ptr(),
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            b0 = inout(reg) b0,
            b1 = inout(reg) b1,
            b2 = inout(reg) b2,
            b3 = inout(reg) b3,
            q = out(reg) _,
            q2 = out(reg) _,
            w0 = out(reg) _,
            w1 = out(reg) _,
            w2 = out(reg) _,
            w3 = out(reg) _,
            x = out(reg) _,
            options(nostack, readonly),
        );
    }
    [[a0, a1, a2, a3], [b0, b1, b2, b3]]
}

/// [`super::Dot::dot_4x4`] on RV32: the loop in `asm!` with all sixteen accumulators in
/// registers (26 registers in all: every one RV32 lets `asm!` allocate). Per tap: the four
/// pixels' bytes (`lb` at `t`, `4 + t`, `8 + t`, `12 + t`), then each of the four channels'
/// weight (`lb`) times the four pixels. Checked against the scalar reference by the
/// firmware's dot self-test (`run.sh --rv32`).
#[cfg(target_arch = "riscv32")]
#[inline(always)]
fn dot_4x4_asm(x: &[u32], wa: &[i32], wb: &[i32], acc: [[i32; 4]; 4]) -> [[i32; 4]; 4] {
    let groups = (x.len() / 4).min(wa.len() / 2).min(wb.len() / 2);
    if groups == 0 {
        return acc;
    }
    // acc[0]/acc[2]: pair a of pixels 0, 1 / 2, 3; acc[1]/acc[3]: pair b. Lane 2q + c is
    // pixel q of the two and channel c of the pair.
    let [[mut a00, mut a01, mut a10, mut a11], [mut b00, mut b01, mut b10, mut b11], [mut a20, mut a21, mut a30, mut a31], [mut b20, mut b21, mut b30, mut b31]] = acc;
    let (mut px, mut pa, mut pb) = (x.as_ptr().cast::<u8>(), wa.as_ptr().cast::<u8>(), wb.as_ptr().cast::<u8>());
    let end = px.wrapping_add(16 * groups);
    // One channel's weight (byte W of pointer P) times the four pixels into accumulators
    // A0..A3 (pixels 0..3).
    macro_rules! chan {
        ($p:literal, $w:literal, $a0:literal, $a1:literal, $a2:literal, $a3:literal) => {
            concat!(
                "lb {w}, ", $w, "({", $p, "})\n",
                "mul {t}, {x0}, {w}\n", "add {", $a0, "}, {", $a0, "}, {t}\n",
                "mul {t}, {x1}, {w}\n", "add {", $a1, "}, {", $a1, "}, {t}\n",
                "mul {t}, {x2}, {w}\n", "add {", $a2, "}, {", $a2, "}, {t}\n",
                "mul {t}, {x3}, {w}\n", "add {", $a3, "}, {", $a3, "}, {t}\n",
            )
        };
    }
    // One tap: pixel bytes at X, X + 4, X + 8, X + 12; weights at W (channel a of the pair)
    // and W + 1 (channel b).
    macro_rules! tap {
        ($x:literal, $x4:literal, $x8:literal, $x12:literal, $w:literal, $w1:literal) => {
            concat!(
                "lb {x0}, ", $x, "({px})\n",
                "lb {x1}, ", $x4, "({px})\n",
                "lb {x2}, ", $x8, "({px})\n",
                "lb {x3}, ", $x12, "({px})\n",
                chan!("pa", $w, "a00", "a10", "a20", "a30"),
                chan!("pa", $w1, "a01", "a11", "a21", "a31"),
                chan!("pb", $w, "b00", "b10", "b20", "b30"),
                chan!("pb", $w1, "b01", "b11", "b21", "b31"),
            )
        };
    }
    // SAFETY: the loop runs `groups` (> 0) times and reads, per group, 16 bytes of `x`
    // (from `px`), 8 of `wa` (from `pa`) and 8 of `wb` (from `pb`), each pointer then
    // advanced by that much: `groups` is at most `x.len() / 4`, `wa.len() / 2` and
    // `wb.len() / 2`, so every read is inside its slice (byte loads: no alignment). It
    // writes no memory and only the declared registers.
    unsafe {
        core::arch::asm!(
            "2:",
            tap!("0", "4", "8", "12", "0", "1"),
            tap!("1", "5", "9", "13", "4", "5"),
            tap!("2", "6", "10", "14", "2", "3"),
            tap!("3", "7", "11", "15", "6", "7"),
            "addi {px}, {px}, 16",
            "addi {pa}, {pa}, 8",
            "addi {pb}, {pb}, 8",
            "bne {px}, {end}, 2b",
            px = inout(reg) px,
            pa = inout(reg) pa,
            pb = inout(reg) pb,
            end = in(reg) end,
            a00 = inout(reg) a00,
            a01 = inout(reg) a01,
            a10 = inout(reg) a10,
            a11 = inout(reg) a11,
            a20 = inout(reg) a20,
            a21 = inout(reg) a21,
            a30 = inout(reg) a30,
            a31 = inout(reg) a31,
            b00 = inout(reg) b00,
            b01 = inout(reg) b01,
            b10 = inout(reg) b10,
            b11 = inout(reg) b11,
            b20 = inout(reg) b20,
            b21 = inout(reg) b21,
            b30 = inout(reg) b30,
            b31 = inout(reg) b31,
            x0 = out(reg) _,
            x1 = out(reg) _,
            x2 = out(reg) _,
            x3 = out(reg) _,
            w = out(reg) _,
            t = out(reg) _,
            options(nostack, readonly),
        );
    }
    let _ = (px, pa, pb);
    [[a00, a01, a10, a11], [b00, b01, b10, b11], [a20, a21, a30, a31], [b20, b21, b30, b31]]
}

#[cfg(test)]
mod tests {
    use super::super::{scalar::Scalar, Dot};
    use super::Rv32;
    use crate::kernels::test_util::Rng;

    /// The 32-bit-word rounding of [`Rv32`] against the scalar reference's 64-bit
    /// arithmetic: every multiplier and accumulator at and around the extremes, and a million
    /// random pairs.
    #[test]
    fn high_products_match_scalar() {
        let edges = [i32::MIN, i32::MIN + 1, -(1 << 30), -(1 << 30) + 1, -65537, -2, -1, 0, 1, 2, 65535, (1 << 30) - 1, 1 << 30, i32::MAX - 1, i32::MAX];
        let mut rng = Rng(0x5eed_1234);
        let mut pairs: std::vec::Vec<(i32, i32)> = edges.iter().flat_map(|&a| edges.iter().map(move |&b| (a, b))).collect();
        pairs.extend((0..1_000_000).map(|_| (rng.next_u64() as i32, rng.next_u64() as i32)));
        for (x, m) in pairs {
            assert_eq!(Rv32::doubling_high_mul(x, m), Scalar::doubling_high_mul(x, m), "doubling_high_mul({x}, {m})");
            let m = m & i32::MAX;
            // `Requant`'s RV32 form of MultiplyByQuantizedMultiplier's high product.
            assert_eq!(super::high_round(x, (m as u32) << 1), ((x as i64 * m as i64 + (1 << 30)) >> 31) as i32, "high_round({x}, 2 * {m})");
            for e in [0u32, 1, 7, 22, 31] {
                for k in [1, -255, 255] {
                    assert_eq!(Rv32::requant_lane(x, m, e, k), Scalar::requant_lane(x, m, e, k), "requant_lane({x}, {m}, {e}, {k})");
                }
            }
        }
    }
}
