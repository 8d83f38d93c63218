//! [`super::Conv2dVariant::Wide`]: the host CONV_2D (int8 and legacy uint8) as a matrix
//! product over int16 weights packed at compile time, eight output channels per block.
//!
//! - **Weights** (`pack`): first one folded bias per output channel, padded to whole
//!   blocks of eight (`bias + input_offset * sum(w)`, wrapping: a window inside the input
//!   then accumulates `sum(x * w)` with no per-tap offset); then per block of eight output
//!   channels, per pair of taps `(2t, 2t + 1)` of the window (OHWI order, an odd last tap
//!   paired with 0), eight words: word `j` holds channel `8 * block + j`'s two weights as
//!   int16 (low half tap `2t`). int8 weights are sign-extended; uint8 weights carry their
//!   offset (`w - filter_zero_point`, in `[-255, 255]`), so the two schemes share one
//!   layout and one loop. A channel past the last is zero.
//! - **Activations**: each output pixel's window is gathered and widened to int16 into a
//!   row of [`MAX_TAPS`] at most, the taps outside the image set to the input zero point:
//!   such a tap contributes `w * (zp + input_offset) = 0` on top of the folded bias, exactly
//!   as the reference's skipped tap, so every window (border ones included) is one row of
//!   the same product. The odd last tap is paired with 0.
//! - **Products**: `x * w` of two int16 in `[-255, 255]` pairs to at most `2 * 255^2` in
//!   magnitude: exact in int32 (`vpmaddwd` never saturates here). The accumulation wraps in
//!   int32 like the reference's (a ring: the order and the folded bias give the same sums).
//!
//! This module holds the layout, the packing and the portable form (any host without a
//! SIMD form, and the suites' check of the layout); the AVX2 form is
//! `crate::arch::x86_64::wide` (four pixels times sixteen channels per block).

use super::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::{S8, U8};
use crate::kernels::requant::Requant;
use crate::kernels::window::valid_taps;
use crate::quant::multiply_by_quantized_multiplier;

/// The longest window (`filter_height * filter_width * depth`) the variant takes: the
/// widened rows of a few pixels live on the stack. [`super::Conv2dVariant::select`] picks
/// another variant for longer ones.
pub const MAX_TAPS: usize = 4608;

/// Output channels per packed block.
pub(crate) const BLOCK: usize = 8;

/// Tap pairs per window (the odd last tap paired with 0).
pub(crate) fn pairs(g: &ConvGeometry) -> usize {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    (f_h * f_w * f_d).div_ceil(2)
}

/// Blocks of [`BLOCK`] output channels.
pub(crate) fn blocks(g: &ConvGeometry) -> usize {
    g.filter_shape[0].div_ceil(BLOCK)
}

/// The length of [`pack`]'s table: the padded biases, then every block's tap pairs.
#[cfg(feature = "prepare")]
pub(crate) fn packed_len(g: &ConvGeometry) -> usize {
    BLOCK * blocks(g) * (1 + pairs(g))
}

/// Whether this geometry fits the variant: ungrouped, a non-empty window of at most
/// [`MAX_TAPS`] taps.
#[cfg(feature = "prepare")]
pub(crate) fn fits(g: &ConvGeometry) -> bool {
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    f_d == g.input_shape[3] && taps > 0 && taps <= MAX_TAPS && out_d > 0
}

/// The layout of the module doc from the int16 weight `weight(c, i)` of tap `i` of
/// channel `c` and the folded bias `folded(c)`.
#[cfg(feature = "prepare")]
fn pack_with(g: &ConvGeometry, weight: impl Fn(usize, usize) -> i16, folded: impl Fn(usize) -> i32, packed: &mut [i32]) {
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let n_pairs = pairs(g);
    packed.fill(0);
    let (biases, rows) = packed.split_at_mut(BLOCK * blocks(g));
    for (c, b) in biases.iter_mut().enumerate().take(out_d) {
        *b = folded(c);
    }
    for (blk, dst) in rows.chunks_exact_mut(BLOCK * n_pairs).enumerate() {
        for (t, words) in dst.chunks_exact_mut(BLOCK).enumerate() {
            for (j, word) in words.iter_mut().enumerate() {
                let c = BLOCK * blk + j;
                if c >= out_d {
                    continue;
                }
                let lo = weight(c, 2 * t);
                let hi = if 2 * t + 1 < taps { weight(c, 2 * t + 1) } else { 0 };
                *word = (lo as u16 as u32 | (hi as u16 as u32) << 16) as i32;
            }
        }
    }
}

/// The compile-time packing for int8 (see the module doc).
#[cfg(feature = "prepare")]
pub(crate) fn pack_s8(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
    let g = &p.geometry;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let row = f_h * f_w * f_d;
    let folded = |c: usize| crate::prepare::fold_input_offset(filter[c * row..][..row].iter().copied(), bias.map_or(0, |b| b[c]), p.quant.input_offset);
    pack_with(g, |c, i| filter[c * row + i] as i16, folded, packed)
}

/// The compile-time packing for legacy uint8 (see the module doc): weights with their
/// offset, `bias + input_offset * sum(w + weights_offset)`.
#[cfg(feature = "prepare")]
pub(crate) fn pack_u8(p: &Conv2dParams<U8>, filter: &[u8], bias: Option<&[i32]>, packed: &mut [i32]) {
    let g = &p.geometry;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let row = f_h * f_w * f_d;
    let w_off = p.quant.weights_offset;
    let weight = |c: usize, i: usize| (filter[c * row + i] as i32 + w_off) as i16;
    let folded = |c: usize| {
        let sum = filter[c * row..][..row].iter().fold(0i32, |s, &w| s.wrapping_add(w as i32 + w_off));
        bias.map_or(0, |b| b[c]).wrapping_add(p.quant.input_offset.wrapping_mul(sum))
    };
    pack_with(g, weight, folded, packed)
}

/// An activation type of the variant: int8 or uint8, widened to int16 as is.
pub(crate) trait WideAct: Copy + 'static {
    fn widen(self) -> i16;
}

impl WideAct for i8 {
    #[inline(always)]
    fn widen(self) -> i16 {
        self as i16
    }
}

impl WideAct for u8 {
    #[inline(always)]
    fn widen(self) -> i16 {
        self as i16
    }
}

/// Copies the window of output pixel `(b, oy, ox)` widened into the first
/// `filter_height * filter_width * depth` entries of `col`, taps outside the image set to
/// `zp`, and the odd last tap's 0 after them; `copy` widens contiguous runs of input into
/// as many int16.
///
/// A window inside the input with dilation 1 (most of them) is `filter_height` runs of
/// `filter_width * depth` input elements, copied without the per-tap bookkeeping; where
/// the input and `col` have room, each run is widened in whole blocks of
/// [`WidenRun::BLOCK`] ([`WidenRun::widen_over`]), so a short run (3x3 over three
/// channels: nine) is one block instead of a block and a scalar tail. The block's excess
/// lands on the next run (written afterwards) or after the window, at most
/// `BLOCK - 1` entries into `col`: a caller that passes more of its buffer than the window
/// gathers the pixels in order, so the excess is overwritten by the next pixel's window
/// or is past the last one.
#[inline(always)]
pub(crate) fn gather<A: WideAct, W: WidenRun<A>>(g: &ConvGeometry, input: &[A], zp: A, [b, oy, ox]: [usize; 3], col: &mut [i16], copy: &W) {
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let [in_y0, in_x0] = g.origin(oy, ox);
    let run = f_w * f_d;
    if taps % 2 == 1 {
        // Written first: the interior path's excess may land on it.
        col[taps] = 0;
    }
    if g.dilation_height == 1
        && g.dilation_width == 1
        && in_y0 >= 0
        && in_x0 >= 0
        && in_y0 as usize + f_h <= in_h
        && in_x0 as usize + f_w <= in_w
    {
        let row = in_w * in_d;
        let start = ((b * in_h + in_y0 as usize) * in_w + in_x0 as usize) * in_d;
        let whole = run.next_multiple_of(W::BLOCK);
        let last = start + (f_h - 1) * row;
        if last + whole <= input.len() && (f_h - 1) * run + whole <= col.len() {
            for ky in 0..f_h {
                copy.widen_over(&input[start + ky * row..][..whole], &mut col[ky * run..][..whole]);
            }
            if taps % 2 == 1 {
                col[taps] = 0;
            }
        } else {
            for ky in 0..f_h {
                copy.widen_run(&input[start + ky * row..][..run], &mut col[ky * run..][..run]);
            }
        }
        return;
    }
    let zp = zp.widen();
    let ky_range = taps_inside(in_y0, g.dilation_height, f_h, in_h);
    let kx_range = taps_inside(in_x0, g.dilation_width, f_w, in_w);
    let window = &mut col[..taps];
    for (ky, col_row) in window.chunks_exact_mut(f_w * f_d).enumerate() {
        if !ky_range.contains(&ky) {
            col_row.fill(zp);
            continue;
        }
        let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
        let row = (b * in_h + iy) * in_w;
        if g.dilation_width == 1 && kx_range.len() == f_w {
            copy.widen_run(&input[(row + in_x0 as usize) * in_d..][..f_w * f_d], col_row);
            continue;
        }
        for (kx, tap) in col_row.chunks_exact_mut(f_d).enumerate() {
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                copy.widen_run(&input[(row + ix) * in_d..][..f_d], tap);
            } else {
                tap.fill(zp);
            }
        }
    }
}

/// [`valid_taps`] without its divisions for the common dilation 1 (the gather runs once per
/// output pixel; two integer divisions per axis cost more than a small window's copy).
#[inline(always)]
pub(crate) fn taps_inside(origin: isize, dilation: usize, taps: usize, size: usize) -> core::ops::Range<usize> {
    if dilation != 1 {
        return valid_taps(origin, dilation, taps, size);
    }
    let start = (-origin).clamp(0, taps as isize) as usize;
    let end = (size as isize - origin).clamp(0, taps as isize) as usize;
    start..end.max(start)
}

/// Output pixel coordinates `[b, oy, ox]` in NHWC order, advanced one pixel at a time (no
/// divisions per pixel).
#[derive(Clone, Copy)]
pub(crate) struct PixelWalk {
    at: [usize; 3],
    out_h: usize,
    out_w: usize,
}

impl PixelWalk {
    /// Starts at pixel 0 of the output of `g`.
    #[inline(always)]
    pub(crate) fn new(g: &ConvGeometry) -> Self {
        let [_, out_h, out_w, _] = g.output_shape;
        PixelWalk { at: [0; 3], out_h, out_w }
    }

    /// The current pixel, then advances to the next one.
    #[inline(always)]
    pub(crate) fn next_pixel(&mut self) -> [usize; 3] {
        let here = self.at;
        let [b, oy, ox] = &mut self.at;
        *ox += 1;
        if *ox == self.out_w {
            *ox = 0;
            *oy += 1;
            if *oy == self.out_h {
                *oy = 0;
                *b += 1;
            }
        }
        here
    }
}

/// How [`gather`] widens a contiguous run of activations to int16: the portable loop, or a
/// SIMD one (a type rather than a closure, so that a SIMD form inlines into its kernel's
/// `#[target_feature]` function).
pub(crate) trait WidenRun<A> {
    /// The block [`WidenRun::widen_over`] widens at a time.
    const BLOCK: usize = 1;

    /// Widens `src` into `dst[..src.len()]`.
    fn widen_run(&self, src: &[A], dst: &mut [i16]);

    /// [`WidenRun::widen_run`] for a whole number of [`WidenRun::BLOCK`]s (`src` and `dst`
    /// as long).
    #[inline(always)]
    fn widen_over(&self, src: &[A], dst: &mut [i16]) {
        self.widen_run(src, dst)
    }
}

/// The portable widening of a run.
struct ScalarWiden;

impl<A: WideAct> WidenRun<A> for ScalarWiden {
    #[inline(always)]
    fn widen_run(&self, src: &[A], dst: &mut [i16]) {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = s.widen();
        }
    }
}

/// Whether every output pixel's window is the `depth` input elements at `pixel * depth`,
/// an even number of them (1x1, stride 1, no padding, the output as large as the input):
/// then the widened windows of consecutive pixels are one contiguous run, gathered with one
/// widening.
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) fn contiguous(g: &ConvGeometry) -> bool {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    f_h == 1
        && f_w == 1
        && f_d % 2 == 0
        && g.stride_height == 1
        && g.stride_width == 1
        && g.pad_top == 0
        && g.pad_left == 0
        && g.input_shape[..3] == g.output_shape[..3]
}

/// The portable form: every output pixel's accumulators `folded[c] + sum x * w` from the
/// packed layout, handed to `store(pixel, first_channel, accs)` eight channels at a time.
fn conv_wide<A: WideAct>(g: &ConvGeometry, zp: A, input: &[A], packed: &[i32], mut store: impl FnMut(usize, usize, &[i32])) {
    let [batches, ..] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let n_pairs = pairs(g);
    let (biases, rows) = packed.split_at(BLOCK * blocks(g));
    let mut col = [0i16; MAX_TAPS + 1];
    let col = &mut col[..2 * n_pairs];
    let mut walk = PixelWalk::new(g);
    for px in 0..batches * out_h * out_w {
        gather(g, input, zp, walk.next_pixel(), col, &ScalarWiden);
        for (blk, ws) in rows.chunks_exact(BLOCK * n_pairs).enumerate() {
            let mut acc: [i32; BLOCK] = core::array::from_fn(|j| biases[BLOCK * blk + j]);
            for (t, words) in ws.chunks_exact(BLOCK).enumerate() {
                let (x0, x1) = (col[2 * t] as i32, col[2 * t + 1] as i32);
                for (a, &w) in acc.iter_mut().zip(words) {
                    let (w0, w1) = (w as i16 as i32, (w >> 16) as i16 as i32);
                    *a = a.wrapping_add(x0 * w0 + x1 * w1);
                }
            }
            let n = (out_d - BLOCK * blk).min(BLOCK);
            store(px, BLOCK * blk, &acc[..n]);
        }
    }
}

/// CONV_2D int8, the portable [`super::Conv2dVariant::Wide`].
pub(crate) fn conv_wide_s8(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let out_d = p.geometry.filter_shape[0];
    let rq = Requant::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    conv_wide(&p.geometry, zp, input, packed, |px, c0, accs| rq.store(c0, accs, &mut output[px * out_d + c0..][..accs.len()]));
}

/// CONV_2D legacy uint8, the portable [`super::Conv2dVariant::Wide`].
pub(crate) fn conv_wide_u8(p: &Conv2dParams<U8>, input: &[u8], packed: &[i32], output: &mut [u8]) {
    let out_d = p.geometry.filter_shape[0];
    let q = &p.quant;
    let zp = (-q.input_offset) as u8;
    let (lo, hi) = (p.clamp.min as i32, p.clamp.max as i32);
    conv_wide(&p.geometry, zp, input, packed, |px, c0, accs| {
        for (o, &a) in output[px * out_d + c0..][..accs.len()].iter_mut().zip(accs) {
            *o = multiply_by_quantized_multiplier(a, q.output_multiplier, q.output_shift).wrapping_add(q.output_offset).max(lo).min(hi) as u8;
        }
    });
}

/// Room after the last gathered window for its excess (a widening that writes whole blocks
/// of sixteen, [`WidenRun::BLOCK`]).
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) const SLACK: usize = 16;
/// The longest widened window: the taps rounded up to a pair.
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) const COL: usize = MAX_TAPS + 1;
/// The most pixels a micro-kernel's pass takes.
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) const MAX_PASS: usize = 8;

/// A SIMD micro-kernel of the `Wide` variant: how a run of activations is widened and how a
/// pass's widened windows are multiplied by the packed blocks and stored. [`drive`] does the
/// rest (the pixel walk, the gather buffer, the passes).
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) trait WideMicro<A: WideAct> {
    /// The widening of a run of activations.
    type Widen: WidenRun<A>;
    /// Pixels per pass (at most [`MAX_PASS`]).
    const PIXELS: usize;
    /// Its widening.
    fn widener(&self) -> Self::Widen;
    /// Every channel of `cols.len()` pixels (1 to `PIXELS`): `cols[p]` is pixel `p`'s widened
    /// window (`2 * pairs` int16), its outputs go to `output[p * out_d..][..out_d]`.
    ///
    /// # Safety
    /// The instruction set the implementation names (its entry's `#[target_feature]`).
    unsafe fn pass(&self, g: &ConvGeometry, cols: &[&[i16]], packed: &[i32], output: &mut [A]);
}

/// The widened window length of a layer the SIMD forms run: `2 * pairs`, or `None` when
/// there is nothing to compute (or the window is past [`MAX_TAPS`], which `select` never
/// gives the variant).
#[inline(always)]
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) fn col_len(g: &ConvGeometry) -> Option<usize> {
    let [batches, ..] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w * f_d;
    let empty = out_d == 0 || batches * out_h * out_w == 0 || taps == 0 || taps > MAX_TAPS;
    (!empty).then(|| 2 * pairs(g))
}

/// Every output pixel, `K::PIXELS` at a time, through the micro-kernel `k`, with a gather
/// buffer of `N >= K::PIXELS * len + SLACK` int16 (zeroed on every call; a row-driven op
/// calls the kernel once per row band). [`wide_entry!`] instantiates it per instruction set.
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) unsafe fn drive<A: WideAct, K: WideMicro<A>, const N: usize>(k: &K, g: &ConvGeometry, zp: A, input: &[A], packed: &[i32], output: &mut [A], len: usize) {
    let [batches, ..] = g.input_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let out_d = g.filter_shape[0];
    let n_px = batches * out_h * out_w;
    assert!(K::PIXELS <= MAX_PASS && K::PIXELS * len + SLACK <= N);
    let mut buf = [0i16; N];
    let mut walk = PixelWalk::new(g);
    let flat = contiguous(g);
    let widen = k.widener();
    let mut px0 = 0;
    while px0 < n_px {
        let n = (n_px - px0).min(K::PIXELS);
        if flat {
            // One run: pixel `px`'s window is the `len` elements at `px * len`.
            widen.widen_run(&input[px0 * len..][..n * len], &mut buf[..n * len]);
        } else {
            // In order, each with the rest of the buffer: a window's excess lands on the next
            // one or in the slack.
            for j in 0..n {
                gather(g, input, zp, walk.next_pixel(), &mut buf[j * len..], &widen);
            }
        }
        let cols: [&[i16]; MAX_PASS] = core::array::from_fn(|j| &buf[j.min(n - 1) * len..][..len]);
        // SAFETY: the caller's guarantee.
        unsafe { k.pass(g, &cols[..n], packed, &mut output[px0 * out_d..]) };
        px0 += n;
    }
}

/// `unsafe fn $name<'r, A>(k: &$k, g, zp, input, packed, output)`: [`drive`] for the
/// micro-kernel type `$k` (with the lifetime `'r`), inside a `#[target_feature(enable =
/// $features)]` function where the instruction set needs one, with the smallest gather
/// buffer of the sizes listed, else one of `$max` int16 (which must hold `PIXELS` windows of
/// [`COL`] and [`SLACK`]: [`drive`] asserts it).
#[cfg(any(target_arch = "x86_64", tflc_neon))]
macro_rules! wide_entry {
    ($(#[$doc:meta])* fn $name:ident<$lt:lifetime>($k:ty) $(features $features:literal)? sizes [$($size:expr),*] else $max:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU executes the entry's instruction sets.
        unsafe fn $name<$lt, A: $crate::kernels::conv_2d::wide::WideAct>(k: &$k, g: &$crate::kernels::conv_2d::ConvGeometry, zp: A, input: &[A], packed: &[i32], output: &mut [A])
        where
            $k: $crate::kernels::conv_2d::wide::WideMicro<A>,
        {
            use $crate::kernels::conv_2d::wide::{col_len, drive, WideAct, WideMicro};
            $(#[target_feature(enable = $features)])?
            #[allow(clippy::too_many_arguments)]
            unsafe fn run<$lt, A: WideAct, const N: usize>(k: &$k, g: &$crate::kernels::conv_2d::ConvGeometry, zp: A, input: &[A], packed: &[i32], output: &mut [A], len: usize)
            where
                $k: WideMicro<A>,
            {
                // SAFETY: this function's target features; the caller checked `N`.
                unsafe { drive::<A, $k, N>(k, g, zp, input, packed, output, len) }
            }
            let Some(len) = col_len(g) else { return };
            let need = <$k as WideMicro<A>>::PIXELS * len + $crate::kernels::conv_2d::wide::SLACK;
            $(
                if need <= $size {
                    // SAFETY: the caller's guarantee.
                    return unsafe { run::<A, { $size }>(k, g, zp, input, packed, output, len) };
                }
            )*
            // SAFETY: the caller's guarantee.
            unsafe { run::<A, { $max }>(k, g, zp, input, packed, output, len) }
        }
    };
}
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) use wide_entry;
