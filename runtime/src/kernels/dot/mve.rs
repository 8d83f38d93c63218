//! Helium (M-profile Vector Extension, MVE) versions of the dot micro-kernels, for the
//! Cortex-M55 and M85 (`cfg(tflc_mve)`, `runtime/build.rs`): 128-bit vectors of sixteen
//! int8 or eight int16 lanes, `VMLADAVA` (multiply the lanes pairwise and add every product
//! to a scalar accumulator, wrapping), low-overhead loops (`WLS`/`LE`) and tail-predicated
//! ones (`WLSTP`/`LETP`, which run the last iteration with only the remaining lanes
//! enabled, so no scalar remainder loop).
//!
//! Stable Rust has no Helium intrinsics, hence `asm!`, which accepts MVE instructions when
//! the build sets `-C target-cpu=cortex-m55` (or `cortex-m85`): that is when build.rs sets
//! `tflc_mve`. Each wrapper is one whole inner loop (a vector instruction by itself
//! would have to move its operands between core and vector registers). `VMLADAVA`'s
//! accumulator must be an even core register, so the accumulators are pinned to `r0`,
//! `r2`, `r4` and `r8` (`r6` is LLVM's base pointer and cannot be named).
//!
//! The kernels read the layouts the DSP variants are packed in (the compiler's `ArmDsp`
//! target class): every Helium core has the DSP extension, and the micro-kernels Helium
//! does not speed up (or not yet: the depthwise lane forms, the offset forms of border
//! windows, requantization) are [`super::dsp::ArmDsp`]'s. Where a packed layout leaves a
//! remainder smaller than one vector step, the DSP form finishes it.
//!
//! Every method equals [`super::scalar::Scalar`] bit for bit: the products of int8 (or
//! int8 widened to int16) lanes are exact in 32 bits and `VMLADAVA` adds them modulo 2^32,
//! which is the wrapping accumulation of the reference. The host suites cannot execute
//! this module (it is compiled only for Helium targets); the firmware's on-target self-test
//! (`__private::dot_self_test`, `examples/firmware/run.sh --m55`) runs it under
//! `qemu-system-arm -cpu cortex-m55` against the scalar reference.

use super::dsp;
use core::arch::asm;

/// See [`super::scalar::dot4`]: per 16 elements one load of `x`, and per row one load and
/// one `VMLADAVA.S8`; the last iteration predicated to the remaining elements.
#[inline(always)]
pub(crate) fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    // SAFETY: Helium instructions, which this module is compiled only for (build.rs:
    // `tflc_mve`). The loop runs ceil(n / 16) times (`WLSTP.8` skips it when n = 0) and
    // reads `x` and the four rows from their start with post-increment; `LETP` predicates
    // the last iteration to the n % 16 remaining lanes (disabled lanes of a predicated
    // load read no memory), so every load stays inside the slices, each n long. Writes
    // only the named registers; no flags (the loop instructions use LR only).
    unsafe {
        asm!(
            "wlstp.8 lr, lr, 3f",
            "2:",
            "vldrb.u8 q0, [{x}], #16",
            "vldrb.u8 q1, [{w0}], #16",
            "vmladava.s8 r0, q0, q1",
            "vldrb.u8 q1, [{w1}], #16",
            "vmladava.s8 r2, q0, q1",
            "vldrb.u8 q1, [{w2}], #16",
            "vmladava.s8 r4, q0, q1",
            "vldrb.u8 q1, [{w3}], #16",
            "vmladava.s8 r8, q0, q1",
            "letp lr, 2b",
            "3:",
            x = inout(reg) x.as_ptr() => _,
            w0 = inout(reg) w0.as_ptr() => _,
            w1 = inout(reg) w1.as_ptr() => _,
            w2 = inout(reg) w2.as_ptr() => _,
            w3 = inout(reg) w3.as_ptr() => _,
            inout("lr") n => _,
            inout("r0") a0,
            inout("r2") a1,
            inout("r4") a2,
            inout("r8") a3,
            out("q0") _,
            out("q1") _,
            options(readonly, nostack, preserves_flags)
        );
    }
    [a0, a1, a2, a3]
}

/// See [`super::scalar::dot1`]: per 16 elements two loads and one `VMLADAVA.S8`, tail
/// predicated.
#[inline(always)]
pub(crate) fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
    let n = x.len();
    let w = &w[..n];
    let mut a = acc;
    // SAFETY: as in `dot4`, for `x` and `w` (both n long).
    unsafe {
        asm!(
            "wlstp.8 lr, lr, 3f",
            "2:",
            "vldrb.u8 q0, [{x}], #16",
            "vldrb.u8 q1, [{w}], #16",
            "vmladava.s8 r0, q0, q1",
            "letp lr, 2b",
            "3:",
            x = inout(reg) x.as_ptr() => _,
            w = inout(reg) w.as_ptr() => _,
            inout("lr") n => _,
            inout("r0") a,
            out("q0") _,
            out("q1") _,
            options(readonly, nostack, preserves_flags)
        );
    }
    a
}

/// See [`super::Dot::dot_2x2`], two groups of four taps per iteration: `VLD20`/`VLD21`
/// de-interleave the eight widened words of two groups into pixel 0's and pixel 1's eight
/// int16 taps (words `[t0 t2] [t1 t3] [t4 t6] [t5 t7]`); one `VLDRB` of the four weight
/// words, whose even bytes (`VMOVLB.S8`) are channel `a`'s taps in that same order and
/// whose odd bytes (`VMOVLT.S8`) channel `b`'s; four `VMLADAVA.S16`. Ten instructions
/// (with `LE`) for 32 multiply-accumulates; an odd last group is the DSP form's.
#[inline(always)]
pub(crate) fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let groups = (w.len() / 2).min(x.len() / 4);
    let pairs = groups / 2;
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The loop
    // runs `pairs` times (`WLS` skips it when 0); iteration k reads words 8k..8k + 8 of `x`
    // (VLD20/VLD21 with writeback: 32 bytes, word aligned as `u32` elements are, which
    // VLD2x.32 requires) and words 4k..4k + 4 of `w`, inside both slices since
    // 2 * pairs <= groups. Writes only the named registers; `WLS`/`LE` use LR, no flags.
    unsafe {
        asm!(
            "wls lr, lr, 3f",
            "2:",
            "vld20.32 {{q0, q1}}, [{x}]",
            "vld21.32 {{q0, q1}}, [{x}]!",
            "vldrb.u8 q2, [{w}], #16",
            "vmovlb.s8 q3, q2",
            "vmovlt.s8 q2, q2",
            "vmladava.s16 r0, q0, q3",
            "vmladava.s16 r2, q0, q2",
            "vmladava.s16 r4, q1, q3",
            "vmladava.s16 r8, q1, q2",
            "le lr, 2b",
            "3:",
            x = inout(reg) x.as_ptr() => _,
            w = inout(reg) w.as_ptr() => _,
            inout("lr") pairs => _,
            inout("r0") a0,
            inout("r2") a1,
            inout("r4") a2,
            inout("r8") a3,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            options(readonly, nostack, preserves_flags)
        );
    }
    let acc = [a0, a1, a2, a3];
    if groups % 2 == 1 {
        let g = groups - 1;
        return dsp::dot_2x2(&x[4 * g..4 * groups], &w[2 * g..2 * groups], acc);
    }
    acc
}

/// See [`super::Dot::sum16_run`], one cell per iteration: four `VLDRB.S32` (sixteen
/// channels widened to int32 lanes) added to four accumulators, which stay in `q4..q7`
/// for the whole run.
#[inline(always)]
pub(crate) fn sum16_run(x: &[i8], n: usize, step: usize, acc: [i32; 16]) -> [i32; 16] {
    // The cells the slice holds (a shorter slice than the caller promised is cut, as the
    // reference does).
    let n = match x.len().checked_sub(16) {
        None => 0,
        Some(room) => room.checked_div(step).map_or(n, |k| n.min(k + 1)),
    };
    let mut out = [0i32; 16];
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). Reads
    // `acc` and writes `out` (64 bytes each, word aligned as `[i32; 16]` is, which
    // `VLDRW`/`VSTRW` require); the loop runs n times (`WLS` skips it when 0) and iteration
    // k reads bytes k * step..k * step + 16 of `x`, inside it by the cut above. `VLDRB.S32`
    // takes a low base register (r0). Writes only the named registers and `out`; no flags.
    unsafe {
        asm!(
            "vldrw.u32 q4, [{acc}]",
            "vldrw.u32 q5, [{acc}, #16]",
            "vldrw.u32 q6, [{acc}, #32]",
            "vldrw.u32 q7, [{acc}, #48]",
            "wls lr, lr, 3f",
            "2:",
            "vldrb.s32 q0, [r0]",
            "vldrb.s32 q1, [r0, #4]",
            "vldrb.s32 q2, [r0, #8]",
            "vldrb.s32 q3, [r0, #12]",
            "add r0, {step}",
            "vadd.i32 q4, q4, q0",
            "vadd.i32 q5, q5, q1",
            "vadd.i32 q6, q6, q2",
            "vadd.i32 q7, q7, q3",
            "le lr, 2b",
            "3:",
            "vstrw.32 q4, [{out}]",
            "vstrw.32 q5, [{out}, #16]",
            "vstrw.32 q6, [{out}, #32]",
            "vstrw.32 q7, [{out}, #48]",
            acc = in(reg) acc.as_ptr(),
            out = in(reg) out.as_mut_ptr(),
            step = in(reg) step,
            inout("r0") x.as_ptr() => _,
            inout("lr") n => _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack, preserves_flags)
        );
    }
    out
}

/// [`permute_into`]'s gather offsets: each group of four taps `t0 t2 t1 t3`.
static PERMUTE: [u8; 16] = [0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15];

/// See [`super::Dot::permute_into`], sixteen taps per iteration: one gather (`VLDRB.U8`
/// at [`PERMUTE`]'s offsets) and one `VSTRB`, tail predicated (`WLSTP.8`: the last
/// iteration's lanes are the remaining bytes).
#[inline(always)]
pub(crate) fn permute_into(src: &[i8], dst: &mut [i8]) {
    let n = (src.len() / 4).min(dst.len() / 4) * 4;
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The
    // offsets come from `PERMUTE` (16 bytes). The loop runs ceil(n / 16) times (`WLSTP`
    // skips it when 0) with the lanes of bytes >= n predicated off (they neither read nor
    // write): iteration k reads bytes 16k + PERMUTE[i] of `src` (each below n when its lane
    // is on, n <= src.len(): PERMUTE only swaps bytes inside a group of four, and n is
    // whole groups) and writes bytes 16k..16k + 16 of `dst` (below n <= dst.len()). No
    // flags.
    unsafe {
        asm!(
            "vldrb.u8 q6, [{perm}]",
            "wlstp.8 lr, lr, 3f",
            "2:",
            "vldrb.u8 q0, [{src}, q6]",
            "add {src}, {src}, #16",
            "vstrb.8 q0, [{dst}], #16",
            "letp lr, 2b",
            "3:",
            perm = in(reg) PERMUTE.as_ptr(),
            src = inout(reg) src.as_ptr() => _,
            dst = inout(reg) dst.as_mut_ptr() => _,
            inout("lr") n => _,
            out("q0") _,
            out("q6") _,
            options(nostack, preserves_flags)
        );
    }
}

/// See [`super::Dot::dot_2x2_bytes`], sixteen taps per iteration: `VLD20.8`/`VLD21.8`
/// de-interleave 32 bytes of the pair's words into channel `a`'s sixteen taps (the even
/// bytes) and channel `b`'s (the odd ones), one `VLDRB` per pixel, four `VMLADAVA.S8`:
/// nine instructions (with `LE`) for 64 multiply-accumulates. The last one to three groups
/// run once more with predicated gathers of the two channels' bytes (`VCTP.8`, `VPST`).
#[inline(always)]
pub(crate) fn dot_2x2_bytes(x0: &[i8], x1: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let n = (2 * w.len()).min(x0.len() / 4 * 4).min(x1.len() / 4 * 4);
    let (blocks, rest) = (n / 16, n % 16);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The loop
    // runs `blocks` times (`WLS` skips it when 0); iteration k reads bytes 32k..32k + 32 of
    // `w` (VLD20/VLD21, the second with writeback) and bytes 16k..16k + 16 of `x0` and `x1`,
    // inside the slices since 16 * blocks <= n <= 2 * w.len() (taps; `w` has 4 * w.len()
    // bytes) and n <= x0.len(), x1.len(). Then, when `rest` (a multiple of 4 below 16) is
    // not 0, one predicated step: `VCTP.8` enables lanes 0..rest, the gathers read bytes
    // 2i and 2i + 1 of `w` from 32 * blocks for the enabled lanes i (below 2 * rest, so
    // inside `w` as n = 16 * blocks + rest <= 2 * w.len()), the loads bytes 16 * blocks + i
    // of `x0` and `x1` (below n), and only the enabled lanes accumulate. `VIDUP` needs an
    // even start register (r12). Writes only the named registers; the compare sets flags.
    unsafe {
        asm!(
            "wls lr, lr, 3f",
            "2:",
            "vld20.8 {{q0, q1}}, [{w}]",
            "vld21.8 {{q0, q1}}, [{w}]!",
            "vldrb.u8 q2, [{x0}], #16",
            "vldrb.u8 q3, [{x1}], #16",
            "vmladava.s8 r0, q2, q0",
            "vmladava.s8 r2, q2, q1",
            "vmladava.s8 r4, q3, q0",
            "vmladava.s8 r8, q3, q1",
            "le lr, 2b",
            "3:",
            "cmp {rest}, #0",
            "beq 4f",
            "vidup.u8 q4, r12, #2",
            "vmov.i8 q5, #1",
            "vadd.i8 q5, q4, q5",
            "vctp.8 {rest}",
            "vpstt",
            "vldrbt.u8 q0, [{w}, q4]",
            "vldrbt.u8 q1, [{w}, q5]",
            "vpstt",
            "vldrbt.u8 q2, [{x0}]",
            "vldrbt.u8 q3, [{x1}]",
            "vpstttt",
            "vmladavat.s8 r0, q2, q0",
            "vmladavat.s8 r2, q2, q1",
            "vmladavat.s8 r4, q3, q0",
            "vmladavat.s8 r8, q3, q1",
            "4:",
            x0 = inout(reg) x0.as_ptr() => _,
            x1 = inout(reg) x1.as_ptr() => _,
            w = inout(reg) w.as_ptr() => _,
            rest = in(reg) rest,
            inout("r12") 0u32 => _,
            inout("lr") blocks => _,
            inout("r0") a0,
            inout("r2") a1,
            inout("r4") a2,
            inout("r8") a3,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            options(readonly, nostack)
        );
    }
    [a0, a1, a2, a3]
}

/// See [`super::Dot::widen_into`], four words per iteration: two widening gathers
/// (`VLDRB.S16` at the byte offsets `[0, 2, 4, .., 14]` and `[1, 3, .., 15]`) give the four
/// words' `[t0, t2]` and `[t1, t3]` halves (what SXTB16 and SXTB16 ROR #8 give), and two
/// scatters (`VSTRW.32` through a vector of four addresses 16 bytes apart, advanced by 64)
/// put them in the groups' words `slot` and `2 + slot`. Tail predicated (`WLSTP.32`: the
/// last iteration's lanes are the remaining words; a 16-bit lane pair and a 32-bit lane
/// cover the same four bytes of the predicate).
#[inline(always)]
pub(crate) fn widen_into(src: &[i8], dst: &mut [u32], slot: usize) {
    let words = (src.len() / 4).min(dst.len() / 4);
    let slot = slot.min(1);
    // The address vector starts one step (64 bytes) before word `slot` of group 0: the
    // first scatter of each iteration pre-increments it. Only the sum is formed here.
    let base = (dst.as_mut_ptr() as u32).wrapping_add(4 * slot as u32).wrapping_sub(64);
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). `VIDUP`
    // (its start register must be even: r12) and the shifts build the gather offsets
    // [0, 2, .., 14] (q6), [1, 3, .., 15] (q7) and the scatter addresses [base, base + 16,
    // base + 32, base + 48] (q5). The loop runs ceil(words / 4) times (`WLSTP` skips it when
    // 0) with the lanes of words >= `words` predicated off (they neither read nor write):
    // iteration k reads bytes 16k..16k + 16 of `src` (inside it: 4 * words <= len) and
    // writes words 16k + 4i + slot and 16k + 4i + 2 + slot (i < 4) of `dst` (inside it:
    // 4 * words <= len, slot <= 1; word aligned, `u32`). No flags.
    unsafe {
        asm!(
            "vidup.u16 q6, r12, #2",
            "vadd.i16 q7, q6, {one}",
            "mov r12, #0",
            "vidup.u32 q5, r12, #4",
            "vshl.i32 q5, q5, #2",
            "vadd.i32 q5, q5, {base}",
            "wlstp.32 lr, lr, 3f",
            "2:",
            "vldrb.s16 q0, [{src}, q6]",
            "vldrb.s16 q1, [{src}, q7]",
            "vstrw.32 q0, [q5, #64]!",
            "vstrw.32 q1, [q5, #8]",
            "add {src}, {src}, #16",
            "letp lr, 2b",
            "3:",
            inout("r12") 0u32 => _,
            one = in(reg) 1u32,
            base = in(reg) base,
            src = inout(reg) src.as_ptr() => _,
            inout("lr") words => _,
            out("q0") _,
            out("q1") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack, preserves_flags)
        );
    }
}

/// See [`super::Dot::dot4x4_row`], four input words per iteration: one `VLDRB` of the 16
/// input bytes; per row `j` a gather `VLDRW` of the words `4i + j`, `4(i + 1) + j`, ... (the
/// vector of four addresses 16 bytes apart, offset by `4j`; the first load advances it by
/// 64), which holds row `j`'s 16 bytes in input order, and one `VMLADAVA.S8`: ten
/// instructions (with `LE`) for 64 multiply-accumulates. Fewer than four remaining words
/// are the DSP form's.
#[inline(always)]
pub(crate) fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    let words = (x.len() / 4).min(w.len() / 4);
    let blocks = words / 4;
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    // The address vector starts one block (64 bytes) before `w`: the first gather of each
    // iteration pre-increments it. Only the sum is formed here (no pointer is made from it
    // outside the loads below).
    let base = (w.as_ptr() as u32).wrapping_sub(64);
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). `VIDUP`
    // (whose start register must be even, hence r12) and the shift and add only build the address vector [base, base + 16, base + 32, base + 48]
    // in q3. The loop runs `blocks` times (`WLS` skips it when 0); iteration k reads bytes
    // 16k..16k + 16 of `x` and, by the gathers, the words 16k..16k + 16 of `w` (each lane's
    // address word aligned, as `i32` elements are, which `VLDRW` gathers require), inside
    // both slices since 4 * blocks <= words. Writes only the named registers; no flags.
    unsafe {
        asm!(
            "vidup.u32 q3, r12, #4",
            "vshl.i32 q3, q3, #2",
            "vadd.i32 q3, q3, {base}",
            "wls lr, lr, 3f",
            "2:",
            "vldrb.u8 q0, [{x}], #16",
            "vldrw.u32 q1, [q3, #64]!",
            "vmladava.s8 r0, q0, q1",
            "vldrw.u32 q1, [q3, #4]",
            "vmladava.s8 r2, q0, q1",
            "vldrw.u32 q1, [q3, #8]",
            "vmladava.s8 r4, q0, q1",
            "vldrw.u32 q1, [q3, #12]",
            "vmladava.s8 r8, q0, q1",
            "le lr, 2b",
            "3:",
            inout("r12") 0u32 => _,
            base = in(reg) base,
            x = inout(reg) x.as_ptr() => _,
            inout("lr") blocks => _,
            inout("r0") a0,
            inout("r2") a1,
            inout("r4") a2,
            inout("r8") a3,
            out("q0") _,
            out("q1") _,
            out("q3") _,
            options(readonly, nostack, preserves_flags)
        );
    }
    let acc = [a0, a1, a2, a3];
    let done = 4 * blocks;
    if done < words {
        return dsp::dot4x4_row(&x[4 * done..4 * words], &w[4 * done..4 * words], acc);
    }
    acc
}

/// See [`super::Dot::mac16_taps`]: per tap one load of its pointer (plus `offset`), two
/// widening loads (`VLDRB.S16`) of the sixteen input bytes, two widening gathers
/// (`VLDRB.S16` with the offsets `[0, 1, 2, 3, 4s, 4s + 1, 4s + 2, 4s + 3]`, `s` =
/// `stride`) of the four groups' weight words, and per half `VMULLB.S16`/`VMULLT.S16` (the
/// products of the even and of the odd lanes, as int32) each added to its accumulator:
/// channels `0, 2, 4, 6` in q0, `1, 3, 5, 7` in q1, `8, 10, ..` in q2, `9, 11, ..` in q3,
/// which `VST20`/`VST21` store back in channel order. 17 instructions per tap for 16
/// multiply-accumulates.
///
/// # Safety
/// As [`super::Dot::mac16_taps`].
#[inline(always)]
pub(crate) unsafe fn mac16_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
    let mut out = core::mem::MaybeUninit::<[i32; 16]>::uninit();
    let n = taps.len();
    // Byte offset of groups 2 and 3 from groups 0 and 1, and the gather's step between them.
    let half = 8 * stride;
    let step = (4 * stride).wrapping_sub(4) as u32;
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The loop
    // runs n times (`WLS` skips it when 0); tap t reads the pointer `taps[t]` (inside the
    // slice), 16 bytes at it plus `offset` (the caller's guarantee) and, by the gathers,
    // bytes 0..4 of the words `groups[j * stride + t]` for j < 4 (inside `groups` by the
    // caller's guarantee). The stores write all 64 bytes of `out` (stack memory of
    // `[i32; 16]`, word aligned as VST2x.32 requires). `VIDUP` needs an even
    // start register (r12), the widening loads a low base register (r4). Writes only the
    // named registers and `out`; no flags (the loop instructions use LR only).
    unsafe {
        asm!(
            // q7 = the gather offsets [0, 1, 2, 3, 4s, 4s + 1, 4s + 2, 4s + 3] (int16).
            "vidup.u16 q7, r12, #1",
            "vshr.u16 q6, q7, #2",
            "vmul.i16 q6, q6, {step}",
            "vadd.i16 q7, q7, q6",
            "vmov.i32 q0, #0",
            "vmov.i32 q1, #0",
            "vmov.i32 q2, #0",
            "vmov.i32 q3, #0",
            "add {w2}, {w}, {half}",
            "wls lr, lr, 3f",
            "2:",
            "ldr r4, [{taps}], #4",
            "add r4, r4, {off}",
            "vldrb.s16 q4, [r4]",
            "vldrb.s16 q5, [{w}, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q0, q0, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q1, q1, q6",
            "vldrb.s16 q4, [r4, #8]",
            "vldrb.s16 q5, [{w2}, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q2, q2, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q3, q3, q6",
            "add {w}, {w}, #4",
            "add {w2}, {w2}, #4",
            "le lr, 2b",
            "3:",
            "vst20.32 {{q0, q1}}, [{out}]",
            "vst21.32 {{q0, q1}}, [{out}]!",
            "vst20.32 {{q2, q3}}, [{out}]",
            "vst21.32 {{q2, q3}}, [{out}]",
            inout("r12") 0u32 => _,
            step = in(reg) step,
            half = in(reg) half,
            off = in(reg) offset,
            w = inout(reg) groups.as_ptr() => _,
            w2 = out(reg) _,
            out("r4") _,
            taps = inout(reg) taps.as_ptr() => _,
            out = inout(reg) out.as_mut_ptr() => _,
            inout("lr") n => _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack, preserves_flags)
        );
    }
    // SAFETY: the four VST2x stores above wrote all 16 words.
    unsafe { out.assume_init() }
}

/// See [`super::Dot::mac8_taps`]: [`mac16_taps`]'s first half (two groups, q0 and q1).
///
/// # Safety
/// As [`super::Dot::mac8_taps`].
#[inline(always)]
pub(crate) unsafe fn mac8_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
    let mut out = [0i32; 16];
    let n = taps.len();
    let step = (4 * stride).wrapping_sub(4) as u32;
    // SAFETY: as in `mac16_taps`, with 8 bytes per tap (r4: the widening load's low base
    // register) and the words of groups 0 and 1; the stores write words 0..8 of `out`.
    unsafe {
        asm!(
            "vidup.u16 q7, r12, #1",
            "vshr.u16 q6, q7, #2",
            "vmul.i16 q6, q6, {step}",
            "vadd.i16 q7, q7, q6",
            "vmov.i32 q0, #0",
            "vmov.i32 q1, #0",
            "wls lr, lr, 3f",
            "2:",
            "ldr r4, [{taps}], #4",
            "add r4, r4, {off}",
            "vldrb.s16 q4, [r4]",
            "vldrb.s16 q5, [{w}, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q0, q0, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q1, q1, q6",
            "add {w}, {w}, #4",
            "le lr, 2b",
            "3:",
            "vst20.32 {{q0, q1}}, [{out}]",
            "vst21.32 {{q0, q1}}, [{out}]",
            inout("r12") 0u32 => _,
            step = in(reg) step,
            off = in(reg) offset,
            w = inout(reg) groups.as_ptr() => _,
            out("r4") _,
            taps = inout(reg) taps.as_ptr() => _,
            out = in(reg) out.as_mut_ptr(),
            inout("lr") n => _,
            out("q0") _,
            out("q1") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack, preserves_flags)
        );
    }
    out
}

/// See [`super::Dot::mac16_run`]: [`mac16_taps`] and [`requant16`] in one loop over the
/// row's pixels, the sums kept in registers (q0..q3: channels 0, 2, .., 6; 1, 3, .., 7;
/// 8, 10, .., 14; 9, 11, .., 15). The constants (per quarter: folded bias, multiplier,
/// `(k << e) >> 1`, `-e`; the clamp; the gather and scatter offsets) are regrouped once per
/// call into a table in that lane order, so each pixel requantizes its four quarters with
/// `requant16`'s formula lane for lane and stores them with byte scatters (`VSTRB.32`,
/// offsets `[0, 2, 4, 6]` from the quarter's first channel). Per pixel 17 instructions per
/// tap and about 70 more.
///
/// # Safety
/// As [`super::Dot::mac16_run`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn mac16_run(taps: &[*const i8], [offset, px_step]: [usize; 2], groups: &[i32], stride: usize, [k, lo, hi]: [i32; 3], out: &mut [i8], out_step: usize, pixels: usize) {
    if pixels == 0 {
        return;
    }
    let nt = taps.len();
    let out = &mut out[..(pixels - 1) * out_step + 16];
    let tails = &groups[nt..][..3 * stride + 9];
    let chan = |q: usize, l: usize| 8 * (q / 2) + 2 * l + q % 2;
    let at = |c: usize| ((c / 4) * stride, c % 4);
    let shift = |c: usize| {
        let (g, i) = at(c);
        (tails[g + 8] as u32 >> (8 * i)) & 255
    };
    let mut t = [[0i32; 4]; 21];
    for q in 0..4 {
        t[4 * q] = core::array::from_fn(|l| {
            let (g, i) = at(chan(q, l));
            tails[g + i]
        });
        t[4 * q + 1] = core::array::from_fn(|l| {
            let (g, i) = at(chan(q, l));
            tails[g + 4 + i]
        });
        t[4 * q + 2] = core::array::from_fn(|l| k.wrapping_shl(shift(chan(q, l))) >> 1);
        t[4 * q + 3] = core::array::from_fn(|l| -(shift(chan(q, l)) as i32));
    }
    t[16] = [lo; 4];
    t[17] = [hi; 4];
    t[18] = [0, 2, 4, 6];
    t[19] = [nt as i32, (8 * stride) as i32, out_step.wrapping_sub(9) as i32, px_step as i32];
    // The weight gather's int16 offsets [0, 1, 2, 3, 4s, 4s + 1, 4s + 2, 4s + 3].
    let o = |h: usize| (4 * stride * h) as u32 & 0xffff;
    let pair = |a: u32| (a | ((a + 1) << 16)) as i32;
    t[20] = [pair(o(0)), pair(o(0) + 2), pair(o(1)), pair(o(1) + 2)];
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The outer
    // loop runs `pixels` (> 0) times; pixel p's tap loop runs nt times (`WLS` skips it when
    // 0), reading each pointer `taps[t]` (inside the slice), 16 bytes at it plus
    // offset + p * px_step (the caller's guarantee) and, by the gathers, bytes 0..4 of the
    // words `groups[j * stride + t]` for j < 4 (inside `groups`: 3 * stride + nt + 9 words);
    // it reads the 336 bytes of `t` (word aligned) and writes bytes p * out_step..+ 16 of
    // `out` (inside it: its length was cut to (pixels - 1) * out_step + 16). The widening
    // loads and the byte scatters take low base registers (r4, r5). Writes only the named
    // registers and `out`; the flags (the outer loop's count).
    unsafe {
        asm!(
            "4:",
            "vldrw.u32 q7, [{t}, #320]",
            "vmov.i32 q0, #0",
            "vmov.i32 q1, #0",
            "vmov.i32 q2, #0",
            "vmov.i32 q3, #0",
            "mov {tp}, {taps}",
            "mov r12, {g}",
            "ldr {w2}, [{t}, #308]",
            "add {w2}, {w2}, r12",
            "ldr lr, [{t}, #304]",
            "wls lr, lr, 3f",
            "2:",
            "ldr r4, [{tp}], #4",
            "add r4, r4, {off}",
            "vldrb.s16 q4, [r4]",
            "vldrb.s16 q5, [r12, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q0, q0, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q1, q1, q6",
            "vldrb.s16 q4, [r4, #8]",
            "vldrb.s16 q5, [{w2}, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q2, q2, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q3, q3, q6",
            "add r12, r12, #4",
            "add {w2}, {w2}, #4",
            "le lr, 2b",
            "3:",
            "vldrw.u32 q4, [{t}, #256]",
            "vldrw.u32 q6, [{t}, #272]",
            "vldrw.u32 q7, [{t}, #288]",
            "vldrw.u32 q5, [{t}, #0]",
            "vadd.i32 q0, q0, q5",
            "vldrw.u32 q5, [{t}, #16]",
            "vqrdmulh.s32 q5, q0, q5",
            "vshr.s32 q0, q0, #31",
            "vadd.i32 q5, q5, q0",
            "vldrw.u32 q0, [{t}, #32]",
            "vadd.i32 q5, q5, q0",
            "vldrw.u32 q0, [{t}, #48]",
            "vshl.s32 q5, q5, q0",
            "vmax.s32 q5, q5, q4",
            "vmin.s32 q5, q5, q6",
            "vstrb.32 q5, [r5, q7]",
            "adds r5, #1",
            "vldrw.u32 q5, [{t}, #64]",
            "vadd.i32 q1, q1, q5",
            "vldrw.u32 q5, [{t}, #80]",
            "vqrdmulh.s32 q5, q1, q5",
            "vshr.s32 q1, q1, #31",
            "vadd.i32 q5, q5, q1",
            "vldrw.u32 q1, [{t}, #96]",
            "vadd.i32 q5, q5, q1",
            "vldrw.u32 q1, [{t}, #112]",
            "vshl.s32 q5, q5, q1",
            "vmax.s32 q5, q5, q4",
            "vmin.s32 q5, q5, q6",
            "vstrb.32 q5, [r5, q7]",
            "adds r5, #7",
            "vldrw.u32 q5, [{t}, #128]",
            "vadd.i32 q2, q2, q5",
            "vldrw.u32 q5, [{t}, #144]",
            "vqrdmulh.s32 q5, q2, q5",
            "vshr.s32 q2, q2, #31",
            "vadd.i32 q5, q5, q2",
            "vldrw.u32 q2, [{t}, #160]",
            "vadd.i32 q5, q5, q2",
            "vldrw.u32 q2, [{t}, #176]",
            "vshl.s32 q5, q5, q2",
            "vmax.s32 q5, q5, q4",
            "vmin.s32 q5, q5, q6",
            "vstrb.32 q5, [r5, q7]",
            "adds r5, #1",
            "vldrw.u32 q5, [{t}, #192]",
            "vadd.i32 q3, q3, q5",
            "vldrw.u32 q5, [{t}, #208]",
            "vqrdmulh.s32 q5, q3, q5",
            "vshr.s32 q3, q3, #31",
            "vadd.i32 q5, q5, q3",
            "vldrw.u32 q3, [{t}, #224]",
            "vadd.i32 q5, q5, q3",
            "vldrw.u32 q3, [{t}, #240]",
            "vshl.s32 q5, q5, q3",
            "vmax.s32 q5, q5, q4",
            "vmin.s32 q5, q5, q6",
            "vstrb.32 q5, [r5, q7]",
            "ldr r4, [{t}, #312]",
            "add r5, r5, r4",
            "ldr r4, [{t}, #316]",
            "add {off}, {off}, r4",
            "subs {np}, {np}, #1",
            "bne 4b",
            np = inout(reg) pixels => _,
            taps = in(reg) taps.as_ptr(),
            tp = out(reg) _,
            g = in(reg) groups.as_ptr(),
            w2 = out(reg) _,
            off = inout(reg) offset => _,
            t = in(reg) t.as_ptr(),
            out("r4") _,
            inout("r5") out.as_mut_ptr() => _,
            out("r12") _,
            out("lr") _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack)
        );
    }
}

/// See [`super::Dot::mac8_run`]: [`mac8_taps`] and [`requant8`] in one loop over the row's
/// pixels, the sums kept in registers (q0: channels 0, 2, 4, 6; q1: 1, 3, 5, 7). The
/// requantization constants are regrouped once per call into the same even/odd lane order
/// (folded bias, multiplier, `(k << e) >> 1`, `-e`, from the two groups' packed tails), so
/// each pixel requantizes its two halves with `requant8`'s formula lane for lane (`+` bias,
/// `VQRDMULH`, `+ (acc >> 31)`, `+ (k << e) >> 1`, `VSHL` by `-e`, `VMAX`/`VMIN`) and
/// stores them with byte scatters (`VSTRB.32`, offsets `[0, 2, 4, 6]`, the odd half one
/// byte further). Per pixel 10 instructions per tap and about 35 more.
///
/// # Safety
/// As [`super::Dot::mac8_run`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn mac8_run(taps: &[*const i8], px_step: usize, groups: &[i32], stride: usize, k: i32, lo: i8, hi: i8, out: &mut [i8]) {
    let nt = taps.len();
    let pixels = out.len() / 8;
    let tails = &groups[nt..][..stride + 9];
    // Lane c of the even half is channel 2c (group c / 2, channel 2 (c % 2)); of the odd
    // half channel 2c + 1.
    let lane = |c: usize| ((c / 4) * stride, c % 4);
    let shift = |c: usize| {
        let (g, i) = lane(c);
        (tails[g + 8] as u32 >> (8 * i)) & 255
    };
    // [even bias, even m, even kterm, even -e, odd ..., lo, hi, scatter offsets], 4 lanes each.
    let mut t = [[0i32; 4]; 12];
    for half in 0..2 {
        let c = |l: usize| 2 * l + half;
        t[4 * half] = core::array::from_fn(|l| {
            let (g, i) = lane(c(l));
            tails[g + i]
        });
        t[4 * half + 1] = core::array::from_fn(|l| {
            let (g, i) = lane(c(l));
            tails[g + 4 + i]
        });
        t[4 * half + 2] = core::array::from_fn(|l| k.wrapping_shl(shift(c(l))) >> 1);
        t[4 * half + 3] = core::array::from_fn(|l| -(shift(c(l)) as i32));
    }
    t[8] = [lo as i32; 4];
    t[9] = [hi as i32; 4];
    t[10] = [0, 2, 4, 6];
    // The input step between pixels and the tap count, read into free registers.
    t[11] = [px_step as i32, nt as i32, 0, 0];
    let step = (4 * stride).wrapping_sub(4) as u32;
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The outer
    // loop runs `pixels` times (none when 0); pixel p's tap loop runs nt times (`WLS` skips
    // it when 0), reading each pointer `taps[t]` (inside the slice), 8 bytes at it plus
    // p * px_step (the caller's guarantee) and, by the gathers, bytes 0..4 of the words
    // `groups[j * stride + t]` for j < 2 (inside `groups`: stride + nt words); it reads the
    // 192 bytes of `t` (word aligned) and writes bytes 8p..8p + 8 of `out` (p < pixels =
    // len / 8). The widening load and the byte scatters take low base registers (r4, r5); r12
    // is `VIDUP`'s (even) start register, then the weight pointer.
    // Writes only the named registers and `out`; the flags (the outer loop's count).
    unsafe {
        asm!(
            // q7 = the weight gather offsets [0, 1, 2, 3, 4s, 4s + 1, 4s + 2, 4s + 3].
            "vidup.u16 q7, r12, #1",
            "vshr.u16 q6, q7, #2",
            "vmul.i16 q6, q6, {tp}",
            "vadd.i16 q7, q7, q6",
            "cmp {np}, #0",
            "beq 5f",
            "4:",
            "vmov.i32 q0, #0",
            "vmov.i32 q1, #0",
            "mov {tp}, {taps}",
            "mov r12, {g}",
            "ldr lr, [{t}, #180]",
            "wls lr, lr, 3f",
            "2:",
            "ldr r4, [{tp}], #4",
            "add r4, r4, {off}",
            "vldrb.s16 q4, [r4]",
            "vldrb.s16 q5, [r12, q7]",
            "vmullb.s16 q6, q4, q5",
            "vadd.i32 q0, q0, q6",
            "vmullt.s16 q6, q4, q5",
            "vadd.i32 q1, q1, q6",
            "add r12, r12, #4",
            "le lr, 2b",
            "3:",
            // Even half (q0), then odd half (q1): the requantization.
            "vldrw.u32 q5, [{t}, #128]",
            "vldrw.u32 q6, [{t}, #144]",
            "vldrw.u32 q4, [{t}, #160]",
            "vldrw.u32 q2, [{t}]",
            "vadd.i32 q0, q0, q2",
            "vldrw.u32 q2, [{t}, #16]",
            "vqrdmulh.s32 q2, q0, q2",
            "vshr.s32 q0, q0, #31",
            "vadd.i32 q2, q2, q0",
            "vldrw.u32 q3, [{t}, #32]",
            "vadd.i32 q2, q2, q3",
            "vldrw.u32 q3, [{t}, #48]",
            "vshl.s32 q2, q2, q3",
            "vmax.s32 q2, q2, q5",
            "vmin.s32 q2, q2, q6",
            "vstrb.32 q2, [r5, q4]",
            "vldrw.u32 q2, [{t}, #64]",
            "vadd.i32 q1, q1, q2",
            "vldrw.u32 q2, [{t}, #80]",
            "vqrdmulh.s32 q2, q1, q2",
            "vshr.s32 q1, q1, #31",
            "vadd.i32 q2, q2, q1",
            "vldrw.u32 q3, [{t}, #96]",
            "vadd.i32 q2, q2, q3",
            "vldrw.u32 q3, [{t}, #112]",
            "vshl.s32 q2, q2, q3",
            "vmax.s32 q2, q2, q5",
            "vmin.s32 q2, q2, q6",
            "adds r5, #1",
            "vstrb.32 q2, [r5, q4]",
            "adds r5, #7",
            "ldr r4, [{t}, #176]",
            "add {off}, {off}, r4",
            "subs {np}, {np}, #1",
            "bne 4b",
            "5:",
            inout("r12") 0u32 => _,
            tp = inout(reg) step => _,
            np = inout(reg) pixels => _,
            taps = in(reg) taps.as_ptr(),
            g = in(reg) groups.as_ptr(),
            off = inout(reg) 0usize => _,
            t = in(reg) t.as_ptr(),
            out("r4") _,
            inout("r5") out.as_mut_ptr() => _,
            out("lr") _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack)
        );
    }
}

/// See [`super::Dot::requant16`], per group of four channels: the sums plus the folded bias,
/// `VQRDMULH` by the multipliers (`floor((acc * m + 2^30) / 2^31)`, which cannot saturate
/// here: `m >= 0`), the shifts widened from their bytes (`VLDRB.U32`), the rounding term
/// `((k << e) >> 1) + (acc >> 31)` added, `VSHL` by `-e` (an arithmetic shift right), the
/// clamp (`VMAX`/`VMIN`), and `VSTRB.32` storing each lane's low byte: [`dsp::requant_lane`]'s
/// formula lane for lane.
#[inline(always)]
pub(crate) fn requant16(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 16] {
    requant_groups::<16, 4>(sums, tails, stride, k, lo, hi)
}

/// See [`super::Dot::requant8`]: [`requant16`]'s loop over two groups.
#[inline(always)]
pub(crate) fn requant8(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 8] {
    requant_groups::<8, 2>(sums, tails, stride, k, lo, hi)
}

/// [`requant16`] for the first `G` groups (`N` = 4 * `G` outputs).
#[inline(always)]
fn requant_groups<const N: usize, const G: usize>(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; N] {
    const { assert!(N == 4 * G && G >= 1 && G <= 4) };
    let tails = &tails[..(G - 1) * stride + 9];
    let mut out = core::mem::MaybeUninit::<[i8; N]>::uninit();
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The loop
    // runs G <= 4 times: iteration j reads words 4j..4j + 4 of `sums` and the nine words at
    // `tails[j * stride..]` (inside `tails`, checked above; word aligned, `i32`), and
    // writes bytes 4j..4j + 4 of `out`. The widening load and the narrowing store take
    // a low base register only, hence r2 and r3. Writes only the named registers and
    // `out`; no flags (the loop instructions use LR only).
    unsafe {
        asm!(
            "vdup.32 q6, {k}",
            "vdup.32 q5, {lo}",
            "vdup.32 q4, {hi}",
            "dls lr, lr",
            "2:",
            "vldrw.u32 q0, [{s}], #16",
            "vldrw.u32 q1, [r2]",
            "vadd.i32 q0, q0, q1",
            "vldrw.u32 q1, [r2, #16]",
            "vldrb.u32 q2, [r2, #32]",
            "vqrdmulh.s32 q1, q0, q1",
            "vshr.s32 q0, q0, #31",
            "vadd.i32 q1, q1, q0",
            "vshl.s32 q3, q6, q2",
            "vshr.s32 q3, q3, #1",
            "vadd.i32 q1, q1, q3",
            "vneg.s32 q2, q2",
            "vshl.s32 q1, q1, q2",
            "vmax.s32 q1, q1, q5",
            "vmin.s32 q1, q1, q4",
            "vstrb.32 q1, [r3], #4",
            "add r2, r2, {st}",
            "le lr, 2b",
            k = in(reg) k,
            lo = in(reg) lo as i32,
            hi = in(reg) hi as i32,
            st = in(reg) 4 * stride,
            s = inout(reg) sums.as_ptr() => _,
            inout("r2") tails.as_ptr() => _,
            inout("r3") out.as_mut_ptr() => _,
            inout("lr") G => _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            options(nostack, preserves_flags)
        );
    }
    // SAFETY: the G VSTRB.32 stores above wrote all N = 4G bytes.
    unsafe { out.assume_init() }
}

/// See [`super::Dot::requant_pairs`], two pairs (four channels of each pixel) per
/// iteration: gathers (`VLDRW.U32` at byte offsets `[0, 4, 16, 20]` from pixel 0's first
/// accumulator, the same from pixel 1's) collect each pixel's four accumulators; the two
/// heads' multipliers (`[8, 12, 4pw + 8, 4pw + 12]`) and shift bytes (`VLDRB.U32`,
/// `[16, 17, 4pw + 16, 4pw + 17]`) likewise. `doubling_high_mul(x, m2)` is
/// `x + VQRDMULH(x, m2 / 2)` (SMMLAR's `(x * m2 + (x << 32) + 2^31) >> 32`; `m2` is even and
/// `m2 / 2` cannot saturate), `shift_right` a `VSHL` by the negated byte, the halving and
/// clamp `VSHR`/`VMAX`/`VMIN` (the clamp bounds lie inside int8, so saturating to int8
/// first changes nothing), and `VSTRB.32` stores four bytes per pixel. An odd last pair is
/// [`super::requant_pairs_by_one`]'s with the DSP forms.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn requant_pairs(accs: &[[i32; 4]], heads: &[i32], pw: usize, c1: i32, lo: i8, hi: i8, out0: &mut [i8], out1: &mut [i8]) {
    let n = accs.len().min(out0.len() / 2).min(out1.len() / 2);
    let n = if n == 0 { 0 } else { n.min((heads.len() + pw - 5) / pw) };
    let twos = n / 2;
    if twos > 0 {
        let p = 4 * pw as u32;
        let offs: [u32; 12] = [0, 4, 16, 20, 8, 12, p + 8, p + 12, 16, 17, p + 16, p + 17];
        // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The
        // loop runs `twos` times: iteration k reads `accs[2k..2k + 2]` (32 bytes, word
        // aligned), words 2, 3 and bytes 16, 17 of the heads of pairs 2k and 2k + 1
        // (`heads[(2k + 1) * pw + 4]` exists: n <= (heads.len() - 5) / pw + 1), and writes
        // bytes 4k..4k + 4 of `out0` and of `out1` (n <= len / 2). `VLDRB.U32` and `VSTRB.32`
        // take low base registers only (r0, r1, r2). Writes only the named registers and the
        // two outputs; no flags.
        unsafe {
            asm!(
                "vldrw.u32 q7, [{offs}]",
                "vldrw.u32 q6, [{offs}, #16]",
                "vldrw.u32 q5, [{offs}, #32]",
                "vdup.32 q4, {c1}",
                "vdup.32 q3, {lo}",
                "vdup.32 q2, {hi}",
                "dls lr, lr",
                "2:",
                // Pixel 0.
                "vldrw.u32 q0, [{acc}, q7]",
                "vldrw.u32 q1, [r2, q6]",
                "vshr.s32 q1, q1, #1",
                "vqrdmulh.s32 q1, q0, q1",
                "vadd.i32 q0, q0, q1",
                "vshr.s32 q1, q0, #31",
                "vadd.i32 q0, q0, q1",
                "vldrb.u32 q1, [r2, q5]",
                "vneg.s32 q1, q1",
                "vshl.s32 q0, q0, q1",
                "vadd.i32 q0, q0, q4",
                "vshr.s32 q0, q0, #1",
                "vmax.s32 q0, q0, q3",
                "vmin.s32 q0, q0, q2",
                "vstrb.32 q0, [r0], #4",
                // Pixel 1: its accumulators 8 bytes further.
                "add {acc}, {acc}, #8",
                "vldrw.u32 q0, [{acc}, q7]",
                "vldrw.u32 q1, [r2, q6]",
                "vshr.s32 q1, q1, #1",
                "vqrdmulh.s32 q1, q0, q1",
                "vadd.i32 q0, q0, q1",
                "vshr.s32 q1, q0, #31",
                "vadd.i32 q0, q0, q1",
                "vldrb.u32 q1, [r2, q5]",
                "vneg.s32 q1, q1",
                "vshl.s32 q0, q0, q1",
                "vadd.i32 q0, q0, q4",
                "vshr.s32 q0, q0, #1",
                "vmax.s32 q0, q0, q3",
                "vmin.s32 q0, q0, q2",
                "vstrb.32 q0, [r1], #4",
                "add {acc}, {acc}, #24",
                "add r2, r2, {step}",
                "le lr, 2b",
                offs = in(reg) offs.as_ptr(),
                c1 = in(reg) c1,
                lo = in(reg) lo as i32,
                hi = in(reg) hi as i32,
                step = in(reg) 8 * pw,
                acc = inout(reg) accs.as_ptr() => _,
                inout("r2") heads.as_ptr() => _,
                inout("r0") out0.as_mut_ptr() => _,
                inout("r1") out1.as_mut_ptr() => _,
                inout("lr") twos => _,
                out("q0") _,
                out("q1") _,
                out("q2") _,
                out("q3") _,
                out("q4") _,
                out("q5") _,
                out("q6") _,
                out("q7") _,
                options(nostack, preserves_flags)
            );
        }
    }
    let d = 2 * twos;
    if d < n {
        super::requant_pairs_by_one::<dsp::ArmDsp>(&accs[d..n], &heads[d * pw..], pw, c1, lo, hi, &mut out0[2 * d..], &mut out1[2 * d..]);
    }
}

/// [`add_lanes`]'s loop, with or without the rounding term of each operand's
/// `RoundingDivideByPOT` (`$fa`, `$fb`: the two instructions that add `v >> 31`, or
/// nothing for a right shift of 0, where `VRSHL` by 0 leaves the value as it is).
macro_rules! add_loop {
    ($k:expr, $c:expr, $ne:expr, $x:expr, $y:expr, $out:expr, $n:expr, $fa:literal, $fb:literal) => {
        asm!(
            "vldrw.u32 q3, [{k}]",
            "vldrw.u32 q4, [{k}, #16]",
            "vldrw.u32 q5, [{k}, #32]",
            "vldrw.u32 q6, [{k}, #48]",
            "vldrw.u32 q7, [{k}, #64]",
            "wlstp.32 lr, lr, 3f",
            "2:",
            "vldrb.s32 q0, [r0], #4",
            "vldrb.s32 q1, [r1], #4",
            "vshl.i32 q0, q0, #20",
            "vadd.i32 q0, q0, q3",
            "vqrdmulh.s32 q0, q0, {ma}",
            $fa,
            "vrshl.s32 q0, {ea}",
            "vshl.i32 q1, q1, #20",
            "vadd.i32 q1, q1, q4",
            "vqrdmulh.s32 q1, q1, {mb}",
            $fb,
            "vrshl.s32 q1, {eb}",
            "vadd.i32 q0, q0, q1",
            "vqrdmulh.s32 q0, q0, {mo}",
            "vshr.s32 q2, q0, #31",
            "vadd.i32 q0, q0, q2",
            "vrshl.s32 q0, {eo}",
            "vadd.i32 q0, q0, q5",
            "vmax.s32 q0, q0, q6",
            "vmin.s32 q0, q0, q7",
            "vstrb.32 q0, [r2], #4",
            "letp lr, 2b",
            "3:",
            k = in(reg) $k,
            ma = in(reg) $c.m[0],
            mb = in(reg) $c.m[1],
            mo = in(reg) $c.m[2],
            ea = in(reg) $ne[0],
            eb = in(reg) $ne[1],
            eo = in(reg) $ne[2],
            inout("r0") $x => _,
            inout("r1") $y => _,
            inout("r2") $out => _,
            inout("lr") $n => _,
            out("q0") _,
            out("q1") _,
            out("q2") _,
            out("q3") _,
            out("q4") _,
            out("q5") _,
            out("q6") _,
            out("q7") _,
            options(nostack, preserves_flags)
        )
    };
}

/// See [`super::Dot::add_s8_lanes`], four elements per iteration as int32 lanes: per operand
/// a widening load (`VLDRB.S32`), `VSHL #20` and the folded offset (`(x << 20) + (o << 20)`),
/// `VQRDMULH` by the multiplier (exactly TFLite's `SaturatingRoundingDoublingHighMul`:
/// `floor((v * m + 2^30) / 2^31)` equals its round-half-away-from-zero quotient, and with
/// `|v| < 2^28` it cannot saturate), then `RoundingDivideByPOT` by `e`: for `e >= 1` as
/// `v + (v >> 31)` rounded right by `e` (`VRSHL` by `-e`: `(v + 2^(e-1)) >> e`, which is
/// TFLite's ties away from zero), for `e = 0` the value itself (the common case of the
/// operand with the larger scale: multiplier 2^30, shift 0); the sum likewise by the
/// output's constants, the output offset, the clamp (`VMAX`/`VMIN`) and a narrowing store
/// (`VSTRB.32`). Tail predicated (`WLSTP.32`/`LETP`). Its domain: a left shift of 20 (every
/// int8 `prepare_add`) and an output right shift of 1..=31; otherwise `false`.
///
/// # Safety
/// `x` and `y` point to `n` readable bytes each and `out` to `n` writable ones; `out` may be
/// `x` (in place: each element is read before it is written) but overlaps neither otherwise.
#[inline(always)]
unsafe fn add_lanes(c: &super::AddConsts, x: *const i8, y: *const i8, out: *mut i8, n: usize) -> bool {
    if c.left_shift != 20 || c.e.iter().any(|&e| e > 31) || c.e[2] == 0 {
        return false;
    }
    // The vector constants, four lanes each: both offsets, the output offset, min, max.
    let k: [[i32; 4]; 5] = [[c.offset[0]; 4], [c.offset[1]; 4], [c.out_offset; 4], [c.min; 4], [c.max; 4]];
    let k = k.as_ptr();
    let ne = c.e.map(|e| -(e as i32));
    // SAFETY: Helium instructions (this module is compiled only for `tflc_mve`). The loop
    // runs ceil(n / 4) times (`WLSTP.32` skips it when n = 0) with the lanes past n
    // predicated off (they neither read nor write): iteration k reads bytes 4k..4k + 4 of
    // `x` and `y` and writes those of `out` (the caller's guarantee), each byte of `out`
    // after the loads of the same iteration, so `out` = `x` is fine. The widening loads and
    // the narrowing store take low base registers (r0, r1, r2). Reads `k` (80 bytes, word
    // aligned). Writes only the named registers and `out`; no flags.
    unsafe {
        match (c.e[0] == 0, c.e[1] == 0) {
            (false, false) => add_loop!(k, c, ne, x, y, out, n, "vshr.s32 q2, q0, #31\nvadd.i32 q0, q0, q2", "vshr.s32 q2, q1, #31\nvadd.i32 q1, q1, q2"),
            (true, false) => add_loop!(k, c, ne, x, y, out, n, "", "vshr.s32 q2, q1, #31\nvadd.i32 q1, q1, q2"),
            (false, true) => add_loop!(k, c, ne, x, y, out, n, "vshr.s32 q2, q0, #31\nvadd.i32 q0, q0, q2", ""),
            (true, true) => add_loop!(k, c, ne, x, y, out, n, "", ""),
        }
    }
    true
}

/// The Helium implementation (Cortex-M55, M85): the vector forms above, the DSP forms for
/// the rest.
pub(crate) struct Mve;

impl super::Dot for Mve {
    const NAME: &'static str = "mve";
    /// 32 channel pairs per `GemmChunked` block: the 64 channels of ResNet-8's widest layer
    /// in one block, so each chunk is widened once per pixel pair (512 bytes of stack).
    const CHUNKED_BLOCK_PAIRS: usize = 32;
    /// 72 groups (288 taps) per `GemmChunked` chunk: fewer `dot_2x2` calls and accumulator
    /// round trips per window (1152 bytes of stack).
    const CHUNKED_GROUPS: usize = 72;
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
        dsp::mac4(x, w, acc)
    }
    #[inline(always)]
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        dsp::dot4_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        dsp::dot1_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        dsp::mac4_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn widen4(x: u32) -> [u32; 2] {
        dsp::widen4(x)
    }
    #[inline(always)]
    fn widen_into(src: &[i8], dst: &mut [u32], slot: usize) {
        widen_into(src, dst, slot)
    }
    #[inline(always)]
    fn dot_2x2(x: &[u32], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dot_2x2(x, w, acc)
    }
    #[inline(always)]
    fn dot_2x2_int4(x: &[u32], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        dsp::dot_2x2_int4(x, w, acc)
    }
    #[inline(always)]
    fn dot4x4_row_int4(x: &[i8], w: &[u32], acc: [i32; 4]) -> [i32; 4] {
        dsp::dot4x4_row_int4(x, w, acc)
    }
    #[inline(always)]
    fn mac4x2_int4(x0: [i8; 4], x1: [i8; 4], w: u32, acc: [i32; 4]) -> [i32; 4] {
        dsp::mac4x2_int4(x0, x1, w, acc)
    }
    const SUM16: bool = true;
    #[inline(always)]
    fn sum16_run(x: &[i8], n: usize, step: usize, acc: [i32; 16]) -> [i32; 16] {
        sum16_run(x, n, step, acc)
    }
    const GEMM_BYTES: bool = true;
    #[inline(always)]
    fn permute_into(src: &[i8], dst: &mut [i8]) {
        permute_into(src, dst)
    }
    #[inline(always)]
    fn dot_2x2_bytes(x0: &[i8], x1: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dot_2x2_bytes(x0, x1, w, acc)
    }
    #[inline(always)]
    fn doubling_high_mul(x: i32, m2: i32) -> i32 {
        <dsp::ArmDsp as super::Dot>::doubling_high_mul(x, m2)
    }
    #[inline(always)]
    fn shift_right(x: i32, e: i32) -> i32 {
        <dsp::ArmDsp as super::Dot>::shift_right(x, e)
    }
    #[inline(always)]
    fn pack4_halved(v: [i32; 4], lo: i8, hi: i8) -> u32 {
        dsp::pack4_halved(v, lo, hi)
    }
    #[inline(always)]
    fn dot4x4(x: u32, w: [u32; 4], acc: [i32; 4]) -> [i32; 4] {
        dsp::dot4x4(x, w, acc)
    }
    #[inline(always)]
    fn dot4x4_row(x: &[i8], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dot4x4_row(x, w, acc)
    }
    #[inline(always)]
    fn mac4x4_row(x: &[[u32; 2]], w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        dsp::mac4x4_row(x, w, acc)
    }
    const MAC16: bool = true;
    #[inline(always)]
    unsafe fn mac16_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
        // SAFETY: the caller's guarantee, which is `mac16_taps`'s.
        unsafe { mac16_taps(taps, offset, groups, stride) }
    }
    #[inline(always)]
    unsafe fn mac8_taps(taps: &[*const i8], offset: usize, groups: &[i32], stride: usize) -> [i32; 16] {
        // SAFETY: the caller's guarantee, which is `mac8_taps`'s.
        unsafe { mac8_taps(taps, offset, groups, stride) }
    }
    #[inline(always)]
    unsafe fn mac16_run(taps: &[*const i8], at: [usize; 2], groups: &[i32], stride: usize, rq: [i32; 3], out: &mut [i8], out_step: usize, pixels: usize) {
        // SAFETY: the caller's guarantee, which is `mac16_run`'s.
        unsafe { mac16_run(taps, at, groups, stride, rq, out, out_step, pixels) }
    }
    #[inline(always)]
    unsafe fn mac8_run(taps: &[*const i8], px_step: usize, groups: &[i32], stride: usize, k: i32, lo: i8, hi: i8, out: &mut [i8]) {
        // SAFETY: the caller's guarantee, which is `mac8_run`'s.
        unsafe { mac8_run(taps, px_step, groups, stride, k, lo, hi, out) }
    }
    #[inline(always)]
    fn requant16(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 16] {
        requant16(sums, tails, stride, k, lo, hi)
    }
    #[inline(always)]
    fn requant8(sums: &[i32; 16], tails: &[i32], stride: usize, k: i32, lo: i8, hi: i8) -> [i8; 8] {
        requant8(sums, tails, stride, k, lo, hi)
    }
    const BLOCK_REQUANT: bool = true;
    #[inline(always)]
    fn requant_pairs(accs: &[[i32; 4]], heads: &[i32], pw: usize, c1: i32, lo: i8, hi: i8, out0: &mut [i8], out1: &mut [i8]) {
        requant_pairs(accs, heads, pw, c1, lo, hi, out0, out1)
    }
    #[inline(always)]
    fn requant_lane(acc: i32, m: i32, e: u32, k: i32) -> i32 {
        dsp::requant_lane(acc, m, e, k)
    }
    #[inline(always)]
    fn clamp4(v: [i32; 4], lo: i8, hi: i8) -> [i8; 4] {
        dsp::clamp4(v, lo, hi)
    }
    const ADD_LANES: bool = true;
    #[inline(always)]
    fn add_s8_lanes(c: &super::AddConsts, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
        let n = out.len();
        let (x, y) = (&x[..n], &y[..n]);
        // SAFETY: `x`, `y` and `out` are n long; `out` is exclusively borrowed, so it
        // overlaps neither input.
        unsafe { add_lanes(c, x.as_ptr(), y.as_ptr(), out.as_mut_ptr(), n) }
    }
    #[inline(always)]
    fn add_s8_lanes_in_place(c: &super::AddConsts, inout: &mut [i8], y: &[i8]) -> bool {
        let n = inout.len();
        let y = &y[..n];
        let p = inout.as_mut_ptr();
        // SAFETY: `inout` and `y` are n long, `inout` exclusively borrowed (so `y` does not
        // overlap it); operand 1 and the output are the same bytes, which `add_lanes` allows.
        unsafe { add_lanes(c, p, y.as_ptr(), p, n) }
    }
}
