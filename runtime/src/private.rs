//! Items meant only for tflc-generated code (`tflc_runtime::__private`). Not a stable API.
//!
//! Generated code holds one byte arena; these helpers give it typed, non-overlapping views
//! of fixed ranges without `unsafe` (the casts are bytemuck's checked ones: alignment and
//! length are guaranteed by the compiler's plan, which aligns every buffer).

use core::ops::Range;

pub use bytemuck;

macro_rules! align_wrappers {
    ($($name:ident = $n:literal),* $(,)?) => {$(
        #[doc = concat!("A ", stringify!($n), "-byte aligned wrapper for arenas and weight blobs (`tflc --align ", stringify!($n), "`).")]
        #[repr(C, align($n))]
        pub struct $name<T: ?Sized>(pub T);
    )*};
}

// One per alignment `tflc --align` accepts (16, the default, up to a 4 KiB page); the
// compiler refuses larger ones (`tflc::emit::MAX_ALIGN`).
align_wrappers!(
    Align16 = 16,
    Align32 = 32,
    Align64 = 64,
    Align128 = 128,
    Align256 = 256,
    Align512 = 512,
    Align1024 = 1024,
    Align2048 = 2048,
    Align4096 = 4096,
);

/// Splits `arena` into the shared input views `ins` and the exclusive output views `outs`.
///
/// Outputs must not overlap each other or any input (the planner guarantees it); inputs may
/// overlap each other (an operator reading one tensor twice). A kernel running in place
/// (`*_in_place`) gets its shared input/output range once, as an output.
#[inline]
pub fn io<'a, const NI: usize, const NO: usize>(
    arena: &'a mut [u8],
    ins: [Range<usize>; NI],
    outs: [Range<usize>; NO],
) -> ([&'a [u8]; NI], [&'a mut [u8]; NO]) {
    let mut order: [usize; NO] = core::array::from_fn(|i| i);
    order.sort_unstable_by_key(|&i| outs[i].start);
    let mut out_slices: [Option<&'a mut [u8]>; NO] = [const { None }; NO];
    // The bytes before each output (in address order), then the tail.
    let mut gaps: [(usize, &'a [u8]); NO] = [(0, &[]); NO];
    let mut rest: &'a mut [u8] = arena;
    let mut pos = 0;
    for (k, &i) in order.iter().enumerate() {
        let r = &outs[i];
        assert!(r.start >= pos && r.end >= r.start, "overlapping outputs");
        let (gap, tail) = rest.split_at_mut(r.start - pos);
        let (out, tail) = tail.split_at_mut(r.end - r.start);
        gaps[k] = (pos, gap);
        out_slices[i] = Some(out);
        rest = tail;
        pos = r.end;
    }
    let last: (usize, &'a [u8]) = (pos, rest);
    let in_slices = core::array::from_fn(|j| {
        let r = &ins[j];
        let found = gaps.iter().chain(core::iter::once(&last)).find(|(s, g)| r.start >= *s && r.end <= *s + g.len());
        match found {
            Some((s, g)) => &g[r.start - s..r.end - s],
            None => panic!("an input overlaps an output"),
        }
    });
    let out_slices = out_slices.map(|o| match o {
        Some(o) => o,
        None => panic!("output missing"),
    });
    (in_slices, out_slices)
}

/// [`io`] over several arenas (a model's memory pools, `tflc --pool`): each view is
/// `(pool, range)`, a range of `arenas[pool]`. Outputs must not overlap each other or any input
/// of the same pool; views of different pools never overlap.
#[inline]
pub fn io_pools<'a, const NP: usize, const NI: usize, const NO: usize>(
    arenas: [&'a mut [u8]; NP],
    ins: [(usize, Range<usize>); NI],
    outs: [(usize, Range<usize>); NO],
) -> ([&'a [u8]; NI], [&'a mut [u8]; NO]) {
    let mut order: [usize; NO] = core::array::from_fn(|i| i);
    order.sort_unstable_by_key(|&i| (outs[i].0, outs[i].1.start));
    let mut out_slices: [Option<&'a mut [u8]>; NO] = [const { None }; NO];
    // Per pool, the bytes before each of its outputs, then its tail: `(pool, start, bytes)`.
    let mut gaps: [(usize, usize, &'a [u8]); NO] = [(usize::MAX, 0, &[]); NO];
    let mut tails: [(usize, &'a [u8]); NP] = [(0, &[]); NP];
    let mut next = 0;
    for (p, arena) in arenas.into_iter().enumerate() {
        let mut rest: &'a mut [u8] = arena;
        let mut pos = 0;
        while next < NO && outs[order[next]].0 == p {
            let i = order[next];
            let r = &outs[i].1;
            assert!(r.start >= pos && r.end >= r.start, "overlapping outputs");
            let (gap, tail) = rest.split_at_mut(r.start - pos);
            let (out, tail) = tail.split_at_mut(r.end - r.start);
            gaps[next] = (p, pos, gap);
            out_slices[i] = Some(out);
            rest = tail;
            pos = r.end;
            next += 1;
        }
        tails[p] = (pos, rest);
    }
    assert!(next == NO, "an output names no pool");
    let in_slices = core::array::from_fn(|j| {
        let (p, r) = (ins[j].0, &ins[j].1);
        let tail = tails.get(p).map(|&(s, g)| (p, s, g));
        let found = gaps.iter().copied().chain(tail).find(|&(q, s, g)| q == p && r.start >= s && r.end <= s + g.len());
        match found {
            Some((_, s, g)) => &g[r.start - s..r.end - s],
            None => panic!("an input overlaps an output"),
        }
    });
    let out_slices = out_slices.map(|o| match o {
        Some(o) => o,
        None => panic!("output missing"),
    });
    (in_slices, out_slices)
}

/// Sets `arena[range]` to `value`: a `const fn`, so that a generated `Model::new()` can
/// give variable tensors their reset value.
pub const fn fill(arena: &mut [u8], range: Range<usize>, value: u8) {
    let mut i = range.start;
    while i < range.end {
        arena[i] = value;
        i += 1;
    }
}

macro_rules! views {
    ($($t:ty => $shared:ident, $mutable:ident, $array:ident, $array_mut:ident;)*) => {$(
        #[inline(always)]
        pub fn $shared(b: &[u8]) -> &[$t] {
            bytemuck::cast_slice(b)
        }
        #[inline(always)]
        pub fn $mutable(b: &mut [u8]) -> &mut [$t] {
            bytemuck::cast_slice_mut(b)
        }
        #[inline(always)]
        pub fn $array<const N: usize>(b: &[u8]) -> &[$t; N] {
            bytemuck::from_bytes(b)
        }
        #[inline(always)]
        pub fn $array_mut<const N: usize>(b: &mut [u8]) -> &mut [$t; N] {
            bytemuck::from_bytes_mut(b)
        }
    )*};
}

views! {
    i8 => as_i8, as_i8_mut, array_i8, array_i8_mut;
    u8 => as_u8, as_u8_mut, array_u8, array_u8_mut;
    i16 => as_i16, as_i16_mut, array_i16, array_i16_mut;
    u16 => as_u16, as_u16_mut, array_u16, array_u16_mut;
    i32 => as_i32, as_i32_mut, array_i32, array_i32_mut;
    i64 => as_i64, as_i64_mut, array_i64, array_i64_mut;
    u32 => as_u32, as_u32_mut, array_u32, array_u32_mut;
    u64 => as_u64, as_u64_mut, array_u64, array_u64_mut;
    f32 => as_f32, as_f32_mut, array_f32, array_f32_mut;
}

/// A mark before operator `op`: called by an observer (the firmware's per-operator build
/// passes `Model::run_with` one that calls it in `before`). Does nothing; never inlined, so
/// an instruction counter (the firmware's QEMU plugin) can split an inference at its address.
#[inline(never)]
pub fn op_marker(op: u32) {
    core::hint::black_box(op);
}

/// Runs the selected dot micro-kernels (`crate::isa::DOT`: Helium on a Cortex-M55/M85
/// build) against the scalar reference, `rounds` rounds of pseudo-random operands, every
/// row length 0..=71 at every start offset mod 4: `(implementation name, results compared,
/// results that differed)`, calling `fail(kernel, length, got, want)` for each difference.
/// The firmware's on-target self-test (`examples/firmware/run.sh --m55`, `--rv32`), for the
/// implementations the host suites cannot execute (cargo feature `self-test`).
#[cfg(any(test, feature = "self-test"))]
pub fn dot_self_test(rounds: u32, fail: &mut dyn FnMut(&'static str, usize, i32, i32)) -> (&'static str, u32, u32) {
    let t = crate::kernels::dot::self_test::run::<crate::isa::Dot>(rounds, fail);
    (crate::isa::DOT, t.checks, t.failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_splits_around_outputs_in_any_order() {
        let mut arena = [0u8; 64];
        for (i, b) in arena.iter_mut().enumerate() {
            *b = i as u8;
        }
        let ([a, b, c], [y, z]) = io(&mut arena, [0..4, 40..48, 0..4], [48..64, 16..32]);
        assert_eq!(a, &[0, 1, 2, 3]);
        assert_eq!(b[0], 40);
        assert_eq!(c, a);
        assert_eq!(y.len(), 16);
        assert_eq!(y[0], 48);
        assert_eq!(z[0], 16);
        y[0] = 0xff;
        z[0] = 0xee;
        assert_eq!(arena[48], 0xff);
        assert_eq!(arena[16], 0xee);
    }

    /// The guard behind "outputs never overlap inputs": a plan that broke it would panic in
    /// `io` (never corrupt memory); the compiler also rejects such a layout before emitting.
    #[test]
    fn io_rejects_input_overlapping_output() {
        extern crate std;
        let caught = std::panic::catch_unwind(|| {
            let mut arena = [0u8; 32];
            let (input, output) = (0..8, 4..12);
            let _ = io(&mut arena, [input], [output]);
        });
        let payload = caught.expect_err("an input overlapping an output must be refused");
        let msg = payload.downcast_ref::<&str>().copied().unwrap_or_default();
        assert_eq!(msg, "an input overlaps an output");
    }

    #[test]
    fn io_pools_splits_each_pool_around_its_outputs() {
        let mut a = [0u8; 32];
        let mut b = [0u8; 48];
        for (i, x) in a.iter_mut().enumerate() {
            *x = i as u8;
        }
        for (i, x) in b.iter_mut().enumerate() {
            *x = 100 + i as u8;
        }
        // Inputs in both pools (one read twice), outputs in both, given out of order.
        let ([x, y, z], [u, v, w]) = io_pools([&mut a, &mut b], [(1, 0..4), (0, 16..20), (1, 0..4)], [(1, 32..48), (0, 0..8), (1, 8..16)]);
        assert_eq!(x, &[100, 101, 102, 103]);
        assert_eq!(y, &[16, 17, 18, 19]);
        assert_eq!(z, x);
        assert_eq!((u.len(), u[0], v[0], w[0]), (16, 132, 0, 108));
        u[0] = 0xff;
        v[1] = 0xee;
        w[2] = 0xdd;
        assert_eq!((b[32], a[1], b[10]), (0xff, 0xee, 0xdd));
    }

    #[test]
    fn io_pools_rejects_an_input_overlapping_an_output_of_its_pool() {
        extern crate std;
        // The same range in two pools is fine.
        let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
        let _ = io_pools([&mut a, &mut b], [(0, 0..8)], [(1, 0..8)]);
        let caught = std::panic::catch_unwind(|| {
            let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
            let _ = io_pools([&mut a, &mut b], [(1, 0..8)], [(1, 4..12)]);
        });
        let payload = caught.expect_err("an input overlapping an output of its pool must be refused");
        assert_eq!(payload.downcast_ref::<&str>().copied().unwrap_or_default(), "an input overlaps an output");
    }

    #[test]
    fn fill_sets_only_the_range() {
        const A: [u8; 8] = {
            let mut a = [0u8; 8];
            fill(&mut a, 2..5, 0xce);
            a
        };
        assert_eq!(A, [0, 0, 0xce, 0xce, 0xce, 0, 0, 0]);
    }

    #[test]
    fn every_wrapper_has_its_alignment() {
        use core::mem::{align_of, size_of};
        assert_eq!(align_of::<Align16<[u8; 3]>>(), 16);
        assert_eq!(align_of::<Align32<[u8; 3]>>(), 32);
        assert_eq!(align_of::<Align64<[u8; 3]>>(), 64);
        assert_eq!(align_of::<Align128<[u8; 3]>>(), 128);
        assert_eq!(align_of::<Align256<[u8; 3]>>(), 256);
        assert_eq!(align_of::<Align512<[u8; 3]>>(), 512);
        assert_eq!(align_of::<Align1024<[u8; 3]>>(), 1024);
        assert_eq!(align_of::<Align2048<[u8; 3]>>(), 2048);
        assert_eq!(align_of::<Align4096<[u8; 3]>>(), 4096);
        assert_eq!(size_of::<Align64<[u8; 65]>>(), 128);
        static W: Align64<[u8; 5]> = Align64(*b"abcde");
        assert_eq!(W.0.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn typed_views() {
        let mut a = Align16([0u8; 16]);
        as_i32_mut(&mut a.0)[1] = -2;
        assert_eq!(as_i32(&a.0), &[0, -2, 0, 0]);
        let arr: &mut [f32; 4] = array_f32_mut(&mut a.0);
        arr[0] = 1.5;
        assert_eq!(as_f32(&a.0)[0], 1.5);
        assert_eq!(as_i8(&a.0).len(), 16);
    }
}
