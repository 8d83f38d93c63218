//! Armv7E-M DSP-extension versions of the dot micro-kernels: SXTB16 splits a word of four
//! int8 into two halfword pairs (bytes 0 and 2, or 1 and 3 after `ror #8`), SMLAD multiplies
//! both pairs and adds them to an accumulator, SMLABB / SMLATT one pair each. These have no
//! stable `core::arch` intrinsics for thumbv7em, hence `asm!`; each wrapper is one
//! instruction. The accumulate of SMLAD/SMLAxy wraps (it only sets the sticky Q flag), which
//! is the wrapping i32 accumulation of the scalar reference; the products of two int8 pairs
//! cannot overflow.

use core::arch::asm;

#[inline(always)]
fn sxtb16(v: u32) -> u32 {
    let r: u32;
    // SAFETY: SXTB16 exists on every Armv7E-M core (this module is compiled only for
    // thumbv7em targets, see build.rs); register to register, no memory, no flags.
    unsafe { asm!("sxtb16 {r}, {v}", r = lateout(reg) r, v = in(reg) v, options(pure, nomem, nostack, preserves_flags)) };
    r
}

#[inline(always)]
fn sxtb16_ror8(v: u32) -> u32 {
    let r: u32;
    // SAFETY: as in `sxtb16`.
    unsafe { asm!("sxtb16 {r}, {v}, ror #8", r = lateout(reg) r, v = in(reg) v, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// `sxtb16(v)` added to the two halfwords of `acc` (SXTAB16: no carry between lanes).
#[inline(always)]
fn sxtab16(acc: u32, v: u32) -> u32 {
    let r: u32;
    // SAFETY: as in `sxtb16`.
    unsafe { asm!("sxtab16 {r}, {acc}, {v}", r = lateout(reg) r, acc = in(reg) acc, v = in(reg) v, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// `sxtb16_ror8(v)` added to the two halfwords of `acc`.
#[inline(always)]
fn sxtab16_ror8(acc: u32, v: u32) -> u32 {
    let r: u32;
    // SAFETY: as in `sxtb16`.
    unsafe { asm!("sxtab16 {r}, {acc}, {v}, ror #8", r = lateout(reg) r, acc = in(reg) acc, v = in(reg) v, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// `offset` (`-128..=128`) in both halfwords, for [`sxtab16`]: each lane then holds
/// `x + offset`, within `-256..=255`, exact in 16 bits.
#[inline(always)]
fn offset_pair(offset: i32) -> u32 {
    let h = offset as u32 & 0xffff;
    h | (h << 16)
}

#[inline(always)]
fn smlad(a: u32, b: u32, acc: i32) -> i32 {
    let r: i32;
    // SAFETY: SMLAD is an Armv7E-M DSP instruction; register only. It may set the sticky Q
    // flag, so flags are not declared preserved.
    unsafe { asm!("smlad {r}, {a}, {b}, {acc}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, acc = in(reg) acc, options(pure, nomem, nostack)) };
    r
}

/// [`smlad`] as an ordering point, like [`smlabb`]: the 2x2 block keeps only four operands
/// live per half group, which holds only if LLVM neither hoists nor merges the loads of
/// the next half (with `pure` it loaded a whole group at once and spilled accumulators).
#[inline(always)]
fn smlad_seq(a: u32, b: u32, acc: i32) -> i32 {
    let r: i32;
    // SAFETY: as in `smlad`.
    unsafe { asm!("smlad {r}, {a}, {b}, {acc}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, acc = in(reg) acc, options(nomem, nostack)) };
    r
}

/// SMLABB (bottom halfwords). Not `pure`, unlike the other wrappers, so LLVM keeps these in
/// program order: the depthwise kernels unroll a 3x3 window over four lanes, and with `pure`
/// LLVM scheduled lane by lane, kept all nine input and weight words live and spilled them
/// to the stack.
#[inline(always)]
fn smlabb(a: u32, b: u32, acc: i32) -> i32 {
    let r: i32;
    // SAFETY: as in `smlad`.
    unsafe { asm!("smlabb {r}, {a}, {b}, {acc}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, acc = in(reg) acc, options(nomem, nostack)) };
    r
}

/// SMLATT (top halfwords), an ordering point like [`smlabb`].
#[inline(always)]
fn smlatt(a: u32, b: u32, acc: i32) -> i32 {
    let r: i32;
    // SAFETY: as in `smlad`.
    unsafe { asm!("smlatt {r}, {a}, {b}, {acc}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, acc = in(reg) acc, options(nomem, nostack)) };
    r
}

/// SMMLAR: `(a * b + (acc << 32) + 2^31) >> 32`, the rounded high word of a 64-bit
/// multiply-accumulate.
#[inline(always)]
fn smmlar(a: i32, b: i32, acc: i32) -> i32 {
    let r: i32;
    // SAFETY: SMMLAR is an Armv7E-M DSP instruction; register only, no flags.
    unsafe { asm!("smmlar {r}, {a}, {b}, {acc}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, acc = in(reg) acc, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// ASR by a register amount in `0..=31`, read from the low byte of `e` (Rust's `>>` masks
/// the amount first, one more instruction).
#[inline(always)]
fn asr(x: i32, e: i32) -> i32 {
    let r: i32;
    // SAFETY: ASR exists on every Arm core; register only. Not `preserves_flags`: the
    // Thumb-2 encoding LLVM may pick for the bare mnemonic is the flag-setting one.
    unsafe { asm!("asr {r}, {x}, {e}", r = lateout(reg) r, x = in(reg) x, e = in(reg) e, options(pure, nomem, nostack)) };
    r
}

/// SSAT #8 of `x >> 1` (the shift is part of the instruction): saturated to `-128..=127`.
#[inline(always)]
fn ssat8_asr1(x: i32) -> i32 {
    let r: i32;
    // SAFETY: SSAT is an Armv7E-M instruction; register only. It may set the sticky Q flag.
    unsafe { asm!("ssat {r}, #8, {x}, asr #1", r = lateout(reg) r, x = in(reg) x, options(pure, nomem, nostack)) };
    r
}

/// The bytewise signed maximum of `a` and `b`. Two instructions in one block because SEL
/// reads the GE flags that SSUB8 sets, which LLVM does not model (between two blocks it
/// could not know to keep them).
#[inline(always)]
fn smax8(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: SSUB8 and SEL are Armv7E-M DSP instructions; registers and the GE flags only
    // (flags not declared preserved).
    unsafe { asm!("ssub8 {r}, {a}, {b}", "sel {r}, {a}, {b}", r = out(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack)) };
    r
}

/// The bytewise signed minimum of `a` and `b` (see [`smax8`]).
#[inline(always)]
fn smin8(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: as in `smax8`.
    unsafe { asm!("ssub8 {r}, {a}, {b}", "sel {r}, {b}, {a}", r = out(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack)) };
    r
}

/// `v << (s & 255)` (LSL by register: a shift amount from the packed table needs no masking).
#[inline(always)]
fn lsl_reg(v: i32, s: u32) -> i32 {
    let r: i32;
    // SAFETY: LSL (register) exists on every Armv7-M core; register only. Without `s` it
    // would set no flags either (the non-S form).
    unsafe { asm!("lsl {r}, {v}, {s}", r = lateout(reg) r, v = in(reg) v, s = in(reg) s, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// `v >> (s & 255)`, arithmetic (ASR by register).
#[inline(always)]
fn asr_reg(v: i32, s: u32) -> i32 {
    let r: i32;
    // SAFETY: as in `lsl_reg`.
    unsafe { asm!("asr {r}, {v}, {s}", r = lateout(reg) r, v = in(reg) v, s = in(reg) s, options(pure, nomem, nostack, preserves_flags)) };
    r
}

/// SSAT #8: `v` saturated to `-128..=127`.
#[inline(always)]
fn ssat8(v: i32) -> i32 {
    let r: i32;
    // SAFETY: SSAT exists on every Armv7-M core; register only. It may set the sticky Q
    // flag, so flags are not declared preserved.
    unsafe { asm!("ssat {r}, #8, {v}", r = lateout(reg) r, v = in(reg) v, options(pure, nomem, nostack)) };
    r
}

/// Bytewise signed maximum of two words of four int8: SSUB8 sets the GE flags that SEL
/// reads, so the two are one `asm!` block (flags do not survive between blocks).
#[inline(always)]
fn max8(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: SSUB8 and SEL are Armv7E-M DSP instructions; registers and the GE flags only
    // (clobbered, so not declared preserved). `t` is an early output, distinct from `a`, `b`.
    unsafe { asm!("ssub8 {t}, {a}, {b}", "sel {r}, {a}, {b}", t = out(reg) _, r = lateout(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack)) };
    r
}

/// Bytewise signed minimum, as [`max8`].
#[inline(always)]
fn min8(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: as in `max8`.
    unsafe { asm!("ssub8 {t}, {a}, {b}", "sel {r}, {b}, {a}", t = out(reg) _, r = lateout(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack)) };
    r
}

/// LDRD with post-increment: the two words at `p`, and `p` advanced past them. The
/// blocked product ([`dot_2x2`]) reads its operands in pairs of words; written as Rust, the
/// compiler splits some of the pairs into two LDRs and the pointer increments into adds.
/// Not `pure`: an ordering point like [`smlad_seq`], so that a load is not hoisted above the
/// products before it (which would keep more words live than there are registers).
///
/// # Safety
/// `p` is word aligned (LDRD's requirement on Armv7-M) and the eight bytes at `p` are
/// inside one live allocation, initialised.
#[inline(always)]
unsafe fn ldrd_post(p: &mut *const u32) -> [u32; 2] {
    let (a, b);
    // SAFETY: the caller's guarantee; the instruction reads only those eight bytes and
    // writes only the three output registers (flags untouched).
    #[cfg(tflc_thumb)]
    unsafe {
        asm!("ldrd {a}, {b}, [{p}], #8", a = out(reg) a, b = out(reg) b, p = inout(reg) *p, options(readonly, nostack, preserves_flags))
    };
    // A32 code (ARMv7-A Linux, where the test suites run under qemu-arm): the same
    // instruction, whose destinations must be an even register and the next one there.
    // SAFETY: as above.
    #[cfg(not(tflc_thumb))]
    unsafe {
        asm!("ldrd r4, r5, [{p}], #8", out("r4") a, out("r5") b, p = inout(reg) *p, options(readonly, nostack, preserves_flags))
    };
    [a, b]
}

/// LDR with post-increment: the (possibly unaligned) word at `p`, and `p` advanced past it
/// (an ordering point, as [`ldrd_post`]).
///
/// # Safety
/// The four bytes at `p` are inside one live allocation, initialised.
#[inline(always)]
unsafe fn ldr_post(p: &mut *const i8) -> u32 {
    let a;
    // SAFETY: the caller's guarantee; an unaligned LDR is allowed on Armv7-M and ARMv7-A
    // (no alignment trap is enabled) and reads only those four bytes.
    unsafe { asm!("ldr {a}, [{p}], #4", a = out(reg) a, p = inout(reg) *p, options(readonly, nostack, preserves_flags)) };
    a
}

/// Four int8 as one little-endian word (one unaligned LDR on Armv7E-M).
#[inline(always)]
fn word(c: &[i8]) -> u32 {
    u32::from_le_bytes([c[0] as u8, c[1] as u8, c[2] as u8, c[3] as u8])
}

/// See [`super::scalar::dot4`].
#[inline(always)]
pub(crate) fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    let xs = x.chunks_exact(4);
    let n4 = n - xs.remainder().len();
    for ((((xq, q0), q1), q2), q3) in
        xs.zip(w0.chunks_exact(4)).zip(w1.chunks_exact(4)).zip(w2.chunks_exact(4)).zip(w3.chunks_exact(4))
    {
        let xv = word(xq);
        let (xe, xo) = (sxtb16(xv), sxtb16_ror8(xv));
        let v = word(q0);
        a0 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a0));
        let v = word(q1);
        a1 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a1));
        let v = word(q2);
        a2 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a2));
        let v = word(q3);
        a3 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a3));
    }
    super::scalar::dot4(&x[n4..], [&w0[n4..], &w1[n4..], &w2[n4..], &w3[n4..]], [a0, a1, a2, a3])
}

/// See [`super::scalar::dot1`].
#[inline(always)]
pub(crate) fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
    let n = x.len();
    let w = &w[..n];
    let mut a = acc;
    let xs = x.chunks_exact(4);
    let n4 = n - xs.remainder().len();
    for (xq, wq) in xs.zip(w.chunks_exact(4)) {
        let (xv, wv) = (word(xq), word(wq));
        a = smlad(sxtb16_ror8(xv), sxtb16_ror8(wv), smlad(sxtb16(xv), sxtb16(wv), a));
    }
    super::scalar::dot1(&x[n4..], &w[n4..], a)
}

/// See [`super::scalar::mac4`].
#[inline(always)]
pub(crate) fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
    let (xv, wv) = (word(&x), word(&w));
    let (xe, xo, we, wo) = (sxtb16(xv), sxtb16_ror8(xv), sxtb16(wv), sxtb16_ror8(wv));
    [smlabb(xe, we, acc[0]), smlabb(xo, wo, acc[1]), smlatt(xe, we, acc[2]), smlatt(xo, wo, acc[3])]
}

/// See [`super::scalar::dot4_offset`].
#[inline(always)]
pub(crate) fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    let off = offset_pair(offset);
    let xs = x.chunks_exact(4);
    let n4 = n - xs.remainder().len();
    for ((((xq, q0), q1), q2), q3) in
        xs.zip(w0.chunks_exact(4)).zip(w1.chunks_exact(4)).zip(w2.chunks_exact(4)).zip(w3.chunks_exact(4))
    {
        let xv = word(xq);
        let (xe, xo) = (sxtab16(off, xv), sxtab16_ror8(off, xv));
        let v = word(q0);
        a0 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a0));
        let v = word(q1);
        a1 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a1));
        let v = word(q2);
        a2 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a2));
        let v = word(q3);
        a3 = smlad(xo, sxtb16_ror8(v), smlad(xe, sxtb16(v), a3));
    }
    super::scalar::dot4_offset(&x[n4..], [&w0[n4..], &w1[n4..], &w2[n4..], &w3[n4..]], offset, [a0, a1, a2, a3])
}

/// See [`super::scalar::dot1_offset`].
#[inline(always)]
pub(crate) fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
    let n = x.len();
    let w = &w[..n];
    let mut a = acc;
    let off = offset_pair(offset);
    let xs = x.chunks_exact(4);
    let n4 = n - xs.remainder().len();
    for (xq, wq) in xs.zip(w.chunks_exact(4)) {
        let (xv, wv) = (word(xq), word(wq));
        a = smlad(sxtab16_ror8(off, xv), sxtb16_ror8(wv), smlad(sxtab16(off, xv), sxtb16(wv), a));
    }
    super::scalar::dot1_offset(&x[n4..], &w[n4..], offset, a)
}

/// See [`super::scalar::mac4_offset`].
#[inline(always)]
pub(crate) fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    let off = offset_pair(offset);
    let (xv, wv) = (word(&x), word(&w));
    let (xe, xo, we, wo) = (sxtab16(off, xv), sxtab16_ror8(off, xv), sxtb16(wv), sxtb16_ror8(wv));
    [smlabb(xe, we, acc[0]), smlabb(xo, wo, acc[1]), smlatt(xe, we, acc[2]), smlatt(xo, wo, acc[3])]
}

/// See [`super::Dot::widen4`].
#[inline(always)]
pub(crate) fn widen4(x: u32) -> [u32; 2] {
    [sxtb16(x), sxtb16_ror8(x)]
}

/// See [`super::Dot::dot_2x2`]: per group one LDRD of the two weight words, four SXTB16,
/// two LDRD of the widened pixels and eight SMLAD; each half of a group needs four
/// registers (one lane pair of each pixel and of each channel), so the block's four
/// accumulators and three pointers stay in registers.
///
/// The operands are read with [`ldrd_post`]: per group three LDRD that also advance their
/// pointer, so a group is 17 instructions with the loop's two.
#[inline(always)]
pub(crate) fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let groups = (w.len() / 2).min(x.len() / 4);
    let (mut xp, mut wp) = (x.as_ptr(), w.as_ptr().cast::<u32>());
    let mut group = |a: &mut [i32; 4]| {
        // SAFETY: group g (< groups, the caller's count) reads words 2g..2g + 2 of `w` and
        // 4g..4g + 2 of `x` (then 4g + 2..4g + 4 below), inside both slices; the pointers
        // start at the slices (word aligned: u32 and i32 elements) and each load advances its
        // pointer past its two words.
        let ([w0, w1], [p0, p1]) = unsafe { (ldrd_post(&mut wp), ldrd_post(&mut xp)) };
        let (wa, wb) = (sxtb16(w0), sxtb16_ror8(w0));
        a[0] = smlad_seq(p0, wa, a[0]);
        a[1] = smlad_seq(p0, wb, a[1]);
        a[2] = smlad_seq(p1, wa, a[2]);
        a[3] = smlad_seq(p1, wb, a[3]);
        // SAFETY: as above, words 4g + 2..4g + 4 of `x`.
        let [q0, q1] = unsafe { ldrd_post(&mut xp) };
        let (wa, wb) = (sxtb16(w1), sxtb16_ror8(w1));
        a[0] = smlad_seq(q0, wa, a[0]);
        a[1] = smlad_seq(q0, wb, a[1]);
        a[2] = smlad_seq(q1, wa, a[2]);
        a[3] = smlad_seq(q1, wb, a[3]);
    };
    let mut a = acc;
    // Two groups per iteration (one loop count and branch per 32 MACs), an odd last alone.
    for _ in 0..groups / 2 {
        group(&mut a);
        group(&mut a);
    }
    if groups % 2 == 1 {
        group(&mut a);
    }
    a
}

/// See [`super::Dot::dot_2x2_int4`]: per group one weight word, its low nibbles moved up
/// and masked (one AND with a shifted operand) and its high nibbles masked, four SXTB16
/// (each lane sixteen times the weight), two LDRD of the widened taps and eight SMLAD into
/// scaled sums that start at 0; each sum shifted right by four is added to `acc` at the
/// end. 17 instructions per group, two groups per loop iteration.
#[inline(always)]
pub(crate) fn dot_2x2_int4(x: &[u32], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
    let groups = w.len().min(x.len() / 4);
    let mut t = [0i32; 4];
    let mut xp = x.as_ptr();
    let mut wp = w.as_ptr();
    let mut group = |t: &mut [i32; 4]| {
        // SAFETY: group g (< groups) reads word g of `w` and words 4g..4g + 4 of `x`,
        // inside both slices; the pointers start at the slices (word aligned) and advance
        // past what they read.
        let (v, [p0, p1]) = unsafe {
            let v = wp.read();
            wp = wp.add(1);
            (v, ldrd_post(&mut xp))
        };
        let lo = (v << 4) & 0xF0F0_F0F0;
        let (a, b) = (sxtb16(lo), sxtb16_ror8(lo));
        t[0] = smlad_seq(p0, a, t[0]);
        t[1] = smlad_seq(p0, b, t[1]);
        t[2] = smlad_seq(p1, a, t[2]);
        t[3] = smlad_seq(p1, b, t[3]);
        // SAFETY: as above, words 4g + 2..4g + 4 of `x`.
        let [q0, q1] = unsafe { ldrd_post(&mut xp) };
        let hi = v & 0xF0F0_F0F0;
        let (a, b) = (sxtb16(hi), sxtb16_ror8(hi));
        t[0] = smlad_seq(q0, a, t[0]);
        t[1] = smlad_seq(q0, b, t[1]);
        t[2] = smlad_seq(q1, a, t[2]);
        t[3] = smlad_seq(q1, b, t[3]);
    };
    for _ in 0..groups / 2 {
        group(&mut t);
        group(&mut t);
    }
    if groups % 2 == 1 {
        group(&mut t);
    }
    core::array::from_fn(|i| acc[i].wrapping_add(t[i] >> 4))
}

/// See [`super::Dot::pack4_halved`]: SSAT (with the halving shift) each lane, pack, then
/// the bytewise clamp.
#[inline(always)]
pub(crate) fn pack4_halved(v: [i32; 4], lo: i8, hi: i8) -> u32 {
    let b = |x: i32| ssat8_asr1(x) as u32 & 0xff;
    let packed = b(v[0]) | (b(v[1]) << 8) | (b(v[2]) << 16) | ((ssat8_asr1(v[3]) as u32) << 24);
    let splat = |x: i8| u32::from_ne_bytes([x as u8; 4]);
    smin8(smax8(packed, splat(lo)), splat(hi))
}

/// See [`super::Dot::dot4x4`].
#[inline(always)]
pub(crate) fn dot4x4(x: u32, w: [u32; 4], acc: [i32; 4]) -> [i32; 4] {
    let (xe, xo) = (sxtb16(x), sxtb16_ror8(x));
    core::array::from_fn(|j| smlad(xo, sxtb16_ror8(w[j]), smlad(xe, sxtb16(w[j]), acc[j])))
}

/// See [`super::Dot::dot4x4_row`]: per input word one LDR and two LDRD, all three
/// advancing their pointer, two SXTB16 of the input, eight of the weights, eight SMLAD.
#[inline(always)]
pub(crate) fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    let words = (x.len() / 4).min(w.len() / 4);
    let (mut xp, mut wp) = (x.as_ptr(), w.as_ptr().cast::<u32>());
    for _ in 0..words {
        // SAFETY: word i (< words) reads bytes 4i..4i + 4 of `x` and words 4i..4i + 4 of
        // `w` (word aligned: i32 elements), inside both slices; each load advances its
        // pointer past what it read.
        // The second pair of weight words is loaded after the first pair's products (the
        // loads and SMLADs keep their order), so that at most two are live.
        let (xv, [w0, w1]) = unsafe { (ldr_post(&mut xp), ldrd_post(&mut wp)) };
        let (xe, xo) = (sxtb16(xv), sxtb16_ror8(xv));
        a0 = smlad_seq(xo, sxtb16_ror8(w0), smlad_seq(xe, sxtb16(w0), a0));
        a1 = smlad_seq(xo, sxtb16_ror8(w1), smlad_seq(xe, sxtb16(w1), a1));
        // SAFETY: as above.
        let [w2, w3] = unsafe { ldrd_post(&mut wp) };
        a2 = smlad_seq(xo, sxtb16_ror8(w2), smlad_seq(xe, sxtb16(w2), a2));
        a3 = smlad_seq(xo, sxtb16_ror8(w3), smlad_seq(xe, sxtb16(w3), a3));
    }
    [a0, a1, a2, a3]
}

/// See [`super::Dot::dot4x4_row_int4`]: per four inputs one LDR and two SXTB16 of the
/// input, then per weight word (two units) the two masks and four SXTB16 of
/// [`dot_2x2_int4`] and four SMLAD into scaled sums, shifted right by four at the end.
#[inline(always)]
pub(crate) fn dot4x4_row_int4(x: &[i8], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
    let mut t = [0i32; 4];
    let words = (x.len() / 4).min(w.len() / 2);
    let (mut xp, mut wp) = (x.as_ptr(), w.as_ptr());
    for _ in 0..words {
        // SAFETY: group i (< words) reads bytes 4i..4i + 4 of `x` and words 2i..2i + 2 of
        // `w` (word aligned: u32 elements), inside both slices; each load advances its
        // pointer past what it read.
        let (xv, [va, vb]) = unsafe { (ldr_post(&mut xp), ldrd_post(&mut wp)) };
        let (xe, xo) = (sxtb16(xv), sxtb16_ror8(xv));
        for (j, v) in [va, vb].into_iter().enumerate() {
            let (lo, hi) = ((v << 4) & 0xF0F0_F0F0, v & 0xF0F0_F0F0);
            // lo: [a t0, b t0, a t2, b t2], hi: [a t1, b t1, a t3, b t3], each times 16.
            t[2 * j] = smlad_seq(xo, sxtb16(hi), smlad_seq(xe, sxtb16(lo), t[2 * j]));
            t[2 * j + 1] = smlad_seq(xo, sxtb16_ror8(hi), smlad_seq(xe, sxtb16_ror8(lo), t[2 * j + 1]));
        }
    }
    core::array::from_fn(|i| acc[i].wrapping_add(t[i] >> 4))
}

/// See [`super::Dot::mac4x2_int4`]: two SXTB16 per tap of the inputs, the masks and four
/// SXTB16 of the weight word (lanes sixteen times the weights), eight SMLABB / SMLATT.
#[inline(always)]
pub(crate) fn mac4x2_int4(x0: [i8; 4], x1: [i8; 4], w: u32, acc: [i32; 4]) -> [i32; 4] {
    let (a, b) = (word(&x0), word(&x1));
    let (ae, ao, be, bo) = (sxtb16(a), sxtb16_ror8(a), sxtb16(b), sxtb16_ror8(b));
    let (lo, hi) = ((w << 4) & 0xF0F0_F0F0, w & 0xF0F0_F0F0);
    // lo: [c0 t, c0 u, c2 t, c2 u], hi: [c1 t, c1 u, c3 t, c3 u], each times 16.
    let (et, eu, ot, ou) = (sxtb16(lo), sxtb16_ror8(lo), sxtb16(hi), sxtb16_ror8(hi));
    [
        smlabb(be, eu, smlabb(ae, et, acc[0])),
        smlabb(bo, ou, smlabb(ao, ot, acc[1])),
        smlatt(be, eu, smlatt(ae, et, acc[2])),
        smlatt(bo, ou, smlatt(ao, ot, acc[3])),
    ]
}

/// See [`super::Dot::mac4x4_row`]: per input word three LDRD (the widened taps, then two
/// pairs of weight words), eight SXTB16 and eight SMLAD.
#[inline(always)]
pub(crate) fn mac4x4_row(x: &[[u32; 2]], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    let words = x.len().min(w.len() / 4);
    let (mut xp, mut wp) = (x.as_ptr().cast::<u32>(), w.as_ptr().cast::<u32>());
    for _ in 0..words {
        // SAFETY: word i (< words) reads `x[i]` and words 4i..4i + 4 of `w`, inside both
        // slices (word aligned: u32 and i32 elements); each load advances its pointer past
        // what it read. The loads are ordering points, so at most two weight words are live.
        let ([xe, xo], [w0, w1]) = unsafe { (ldrd_post(&mut xp), ldrd_post(&mut wp)) };
        a0 = smlad_seq(xe, sxtb16(w0), a0);
        a1 = smlad_seq(xe, sxtb16_ror8(w0), a1);
        a2 = smlad_seq(xe, sxtb16(w1), a2);
        a3 = smlad_seq(xe, sxtb16_ror8(w1), a3);
        // SAFETY: as above.
        let [w2, w3] = unsafe { ldrd_post(&mut wp) };
        a0 = smlad_seq(xo, sxtb16(w2), a0);
        a1 = smlad_seq(xo, sxtb16_ror8(w2), a1);
        a2 = smlad_seq(xo, sxtb16(w3), a2);
        a3 = smlad_seq(xo, sxtb16_ror8(w3), a3);
    }
    [a0, a1, a2, a3]
}

/// See [`super::Dot::requant_lane`]: the high multiply is SMMLAR of `2 * acc` (exact for
/// `|acc| < 2^30`), the rounding constant and the output offset its accumulate.
#[inline(always)]
pub(crate) fn requant_lane(acc: i32, m: i32, e: u32, k: i32) -> i32 {
    let t = (acc >> 31).wrapping_add(lsl_reg(k, e) >> 1);
    asr_reg(smmlar(acc.wrapping_add(acc), m, t), e)
}

/// See [`super::Dot::clamp4`]: SSAT each lane, pack the four bytes, bytewise max / min.
#[inline(always)]
pub(crate) fn clamp4(v: [i32; 4], lo: i8, hi: i8) -> [i8; 4] {
    let [a, b, c, d] = v.map(|x| ssat8(x) as u32);
    let w = (a & 0xff) | (b & 0xff) << 8 | (c & 0xff) << 16 | d << 24;
    let splat = |x: i8| (x as u8 as u32).wrapping_mul(0x0101_0101);
    min8(max8(w, splat(lo)), splat(hi)).to_le_bytes().map(|b| b as i8)
}

/// The Armv7E-M DSP implementation (Cortex-M4/M7; the same instructions exist on ARMv7-A).
pub(crate) struct ArmDsp;

impl super::Dot for ArmDsp {
    const NAME: &'static str = "arm-dsp";
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
    #[inline(always)]
    fn widen4(x: u32) -> [u32; 2] {
        widen4(x)
    }
    #[inline(always)]
    fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dot_2x2(x, w, acc)
    }
    #[inline(always)]
    fn dot_2x2_int4(x: &[u32], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        dot_2x2_int4(x, w, acc)
    }
    #[inline(always)]
    fn doubling_high_mul(x: i32, m2: i32) -> i32 {
        // x * m2 + (x << 32) = x * 2m.
        smmlar(x, m2, x)
    }
    #[inline(always)]
    fn shift_right(x: i32, e: i32) -> i32 {
        asr(x, e)
    }
    #[inline(always)]
    fn pack4_halved(v: [i32; 4], lo: i8, hi: i8) -> u32 {
        pack4_halved(v, lo, hi)
    }
    #[inline(always)]
    fn dot4x4(x: u32, w: [u32; 4], acc: [i32; 4]) -> [i32; 4] {
        dot4x4(x, w, acc)
    }
    #[inline(always)]
    fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dot4x4_row(x, w, acc)
    }
    #[inline(always)]
    fn dot4x4_row_int4(x: &[i8], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        dot4x4_row_int4(x, w, acc)
    }
    #[inline(always)]
    fn mac4x2_int4(x0: [i8; 4], x1: [i8; 4], w: u32, acc: [i32; 4]) -> [i32; 4] {
        mac4x2_int4(x0, x1, w, acc)
    }
    #[inline(always)]
    fn mac4x4_row(x: &[[u32; 2]], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        mac4x4_row(x, w, acc)
    }
    #[inline(always)]
    fn requant_lane(acc: i32, m: i32, e: u32, k: i32) -> i32 {
        requant_lane(acc, m, e, k)
    }
    #[inline(always)]
    fn clamp4(v: [i32; 4], lo: i8, hi: i8) -> [i8; 4] {
        clamp4(v, lo, hi)
    }
}
