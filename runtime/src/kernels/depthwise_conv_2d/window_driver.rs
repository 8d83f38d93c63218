//! The one driver of the host SIMD forms of the int8 (and legacy uint8) depthwise `Window`
//! variant with depth multiplier 1: AVX2 (`crate::arch::x86_64::depthwise`), AVX-512 VNNI
//! (`crate::arch::x86_64::vnni::depthwise`) and NEON (`crate::arch::aarch64::depthwise`).
//!
//! [`drive`] owns the loop nest: the weight sweeps (blocks of channels whose weights the
//! micro-kernel prepares at once), then per batch, output row and output column the window
//! (`ConvGeometry::window_row` / `window_cols`), interior or border, one or two output pixels
//! per pass, and per pixel the channel blocks (full blocks, a half block, a tail of any
//! length), each computed by [`DepthwiseMicro::window`] and requantized by
//! [`DepthwiseMicro::store`]. The micro-kernel ([`DepthwiseMicro`], implemented in `arch/`)
//! gives the block width, the registers, the weight preparation and the multiply-adds; it
//! reads each tap's activations through the driver's [`Activations`], which knows where the
//! taps are:
//!
//! - an **interior** window (every tap inside the image) loads each tap at its offset from
//!   tap `(0, 0)`, computed once per call ([`Tap`]);
//! - a **border** window loads the taps inside the image and gives the input zero point for
//!   the others ([`DepthwiseMicro::zero`]), which adds `w * (zp + input_offset) = 0` to the
//!   folded bias: the reference's sum over the valid taps, modulo 2^32.
//!
//! Every method is `#[inline(always)]` and every entry a `#[target_feature]` function that
//! calls [`drive`] with its micro-kernel, so the whole nest compiles under the entry's
//! instruction set. (No closures carry SIMD code: a closure does not inherit the target
//! features, and its intrinsics would not inline. The activation sources are structs.)

use crate::kernels::window::{ConvGeometry, Window};
use core::ops::Range;

/// A micro-kernel of the depthwise `Window` driver: one block of `BLOCK` channels of one or
/// two output pixels.
pub(crate) trait DepthwiseMicro {
    /// The activation element (`i8`, `u8` for the legacy uint8 form).
    type Act: Copy;
    /// One tap's activations of a block, as loaded.
    type X: Copy;
    /// One pixel's accumulators of a block.
    type Acc: Copy;
    /// Channels per block.
    const BLOCK: usize;
    /// A narrower block the micro-kernel computes with fewer registers (`BLOCK` when none):
    /// a tail of exactly `HALF` channels is passed as that constant.
    const HALF: usize = Self::BLOCK;
    /// Whether the depth may leave a block of fewer than `BLOCK` channels (when not, the
    /// entry only passes depths that are multiples of `BLOCK`: checked, and no tail code).
    const TAILS: bool = true;
    /// Output pixels per interior pass: 1, or 2 (two horizontal neighbours whose windows
    /// are inside the image horizontally share the weight loads).
    const PIXELS: usize = 1;

    /// Prepares the weights of blocks `b0..b0 + nb` (channels `BLOCK * b0..`) for a sweep
    /// of the output, `1 <= nb <= left`, and returns `nb` (by default nothing, every block:
    /// a micro-kernel that reads the model's filter as is).
    ///
    /// # Safety
    /// The instruction set of the micro-kernel's entry.
    #[inline(always)]
    unsafe fn prepare(&mut self, _b0: usize, left: usize) -> usize {
        left
    }

    /// `n <= BLOCK` activations at `at` (the lanes past `n` any value).
    ///
    /// # Safety
    /// The instruction set of the entry; `n` elements at `at` are readable.
    unsafe fn load(&self, at: *const Self::Act, n: usize) -> Self::X;

    /// The input zero point in every lane (a tap outside the image).
    ///
    /// # Safety
    /// The instruction set of the entry.
    unsafe fn zero(&self) -> Self::X;

    /// The accumulators of `P` pixels for block `j` of the sweep (channels `c..c + n`,
    /// `n <= BLOCK`): the folded bias plus every tap's products, tap `t` of pixel `q` read
    /// as `x.tap(q, t, n)`.
    ///
    /// # Safety
    /// The instruction set of the entry; what `x.tap` requires.
    unsafe fn window<S: Activations<Self::X>, const P: usize>(&self, j: usize, c: usize, n: usize, x: &S) -> [Self::Acc; P];

    /// Requantizes channels `c..c + n` of `acc` into `out[c..c + n]`.
    ///
    /// # Safety
    /// The instruction set of the entry.
    unsafe fn store(&self, acc: Self::Acc, c: usize, n: usize, out: &mut [Self::Act]);
}

/// Where a block's activations come from: tap `t` of pixel `q`, `n` channels.
pub(crate) trait Activations<X> {
    /// The window's taps (a micro-kernel's loops bounded by it need no bounds checks on
    /// the driver's table).
    fn taps(&self) -> usize;

    /// Tap `t` of pixel `q` (a tap outside the image: the zero point).
    ///
    /// # Safety
    /// The instruction set of the entry; `t` is a tap of the window, `q` a pixel of the pass.
    unsafe fn tap(&self, q: usize, t: usize, n: usize) -> X;
}

/// One tap of the window: its offset (elements) from tap `(0, 0)`, its row and its column.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tap {
    off: isize,
    ky: usize,
    kx: usize,
}

/// Windows with every tap inside the image (of their rows and columns): a load at each
/// pixel's base (tap `(0, 0)`, channel `c`) plus the tap's offset.
struct Inside<'a, K: DepthwiseMicro, const P: usize> {
    k: &'a K,
    bases: [*const K::Act; P],
    taps: &'a [Tap],
}

impl<K: DepthwiseMicro, const P: usize> Activations<K::X> for Inside<'_, K, P> {
    #[inline(always)]
    fn taps(&self) -> usize {
        self.taps.len()
    }

    #[inline(always)]
    unsafe fn tap(&self, q: usize, t: usize, n: usize) -> K::X {
        // SAFETY: the driver built `bases` for windows inside the image: every tap is a pixel
        // of the input, `n` channels from `c` (`c + n <= depth`).
        unsafe { self.k.load(self.bases[q].wrapping_offset(self.taps[t].off), n) }
    }
}

/// Windows whose columns are inside the image and whose rows `ky` only are.
struct Rows<'a, K: DepthwiseMicro, const P: usize> {
    k: &'a K,
    bases: [*const K::Act; P],
    taps: &'a [Tap],
    ky: Range<usize>,
}

impl<K: DepthwiseMicro, const P: usize> Activations<K::X> for Rows<'_, K, P> {
    #[inline(always)]
    fn taps(&self) -> usize {
        self.taps.len()
    }

    #[inline(always)]
    unsafe fn tap(&self, q: usize, t: usize, n: usize) -> K::X {
        let tap = self.taps[t];
        // SAFETY: as for `Inside`, for a tap of a row inside the image.
        unsafe { if self.ky.contains(&tap.ky) { self.k.load(self.bases[q].wrapping_offset(tap.off), n) } else { self.k.zero() } }
    }
}

/// A border window: the taps of rows `ky` and columns `kx` are inside the image.
struct Border<'a, K: DepthwiseMicro> {
    k: &'a K,
    base: *const K::Act,
    taps: &'a [Tap],
    ky: Range<usize>,
    kx: Range<usize>,
}

impl<K: DepthwiseMicro> Activations<K::X> for Border<'_, K> {
    #[inline(always)]
    fn taps(&self) -> usize {
        self.taps.len()
    }

    #[inline(always)]
    unsafe fn tap(&self, _: usize, t: usize, n: usize) -> K::X {
        let tap = self.taps[t];
        // SAFETY: as for `Inside`, for a tap inside the image.
        unsafe { if self.ky.contains(&tap.ky) && self.kx.contains(&tap.kx) { self.k.load(self.base.wrapping_offset(tap.off), n) } else { self.k.zero() } }
    }
}

/// One block of `P` pixels: [`DepthwiseMicro::window`] and the stores, with `n` a constant
/// when it is `BLOCK` or `HALF`.
///
/// # Safety
/// The instruction set of the entry; what `x.tap` requires.
#[inline(always)]
unsafe fn block<K: DepthwiseMicro, S: Activations<K::X>, const P: usize>(k: &K, j: usize, c: usize, n: usize, x: &S, outs: [&mut [K::Act]; P]) {
    // SAFETY: the caller's guarantee.
    unsafe {
        if n == K::BLOCK {
            block_n(k, j, c, K::BLOCK, x, outs)
        } else if K::HALF < K::BLOCK && n == K::HALF {
            block_n(k, j, c, K::HALF, x, outs)
        } else {
            block_n(k, j, c, n, x, outs)
        }
    }
}

/// [`block`] for one `n`.
///
/// # Safety
/// As [`block`].
#[inline(always)]
unsafe fn block_n<K: DepthwiseMicro, S: Activations<K::X>, const P: usize>(k: &K, j: usize, c: usize, n: usize, x: &S, outs: [&mut [K::Act]; P]) {
    // SAFETY: the caller's guarantee.
    let acc: [K::Acc; P] = unsafe { k.window(j, c, n, x) };
    for (a, out) in acc.into_iter().zip(outs) {
        // SAFETY: the caller's guarantee.
        unsafe { k.store(a, c, n, out) };
    }
}

/// Depth multiplier 1 (`input_shape[3] == output_shape[3]`): every output pixel through the
/// micro-kernel `k`, whose window has at most `T` taps (the table of tap offsets lives on
/// the stack; a larger window returns without computing: the entries never pass one).
///
/// # Safety
/// The instruction set of `k`'s entry.
#[inline(always)]
pub(crate) unsafe fn drive<K: DepthwiseMicro, const T: usize>(k: &mut K, g: &ConvGeometry, input: &[K::Act], output: &mut [K::Act]) {
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w;
    if depth == 0 || taps == 0 || taps > T {
        return;
    }
    // The bounds every unchecked load relies on: a tap inside the image is a pixel of the
    // input.
    assert!(g.output_shape[3] == depth && input.len() >= batches * in_h * in_w * depth);
    assert!(K::TAILS || depth.is_multiple_of(K::BLOCK));
    let mut table = [Tap::default(); T];
    for (t, v) in table.iter_mut().enumerate().take(taps) {
        let (ky, kx) = (t / f_w, t % f_w);
        *v = Tap { off: ((ky * g.dilation_height * in_w + kx * g.dilation_width) * depth) as isize, ky, kx };
    }
    let taps = &table[..taps];
    let x = input.as_ptr();
    let step = g.stride_width * depth;
    let blocks = depth.div_ceil(K::BLOCK);
    let mut b0 = 0;
    while b0 < blocks {
        // SAFETY: the caller's guarantee.
        let nb = unsafe { k.prepare(b0, blocks - b0) };
        let k = &*k;
        // The sweep's full blocks, then a tail of fewer channels (the last sweep's last
        // block) when the depth is not a multiple of `BLOCK`.
        let full = nb.min((depth / K::BLOCK).saturating_sub(b0));
        // `$body` for every block `$j` of the sweep, channels `$c..$c + $n`.
        macro_rules! blocks {
            (|$j:ident, $c:ident, $n:ident| $body:expr) => {
                for $j in 0..full {
                    let ($c, $n) = ((b0 + $j) * K::BLOCK, K::BLOCK);
                    $body
                }
                if K::TAILS && full < nb {
                    let $j = full;
                    let $c = (b0 + $j) * K::BLOCK;
                    let $n = depth - $c;
                    $body
                }
            };
        }
        let mut pixels = output.chunks_exact_mut(depth);
        for b in 0..batches {
            for oy in 0..out_h {
                let Window { in_y0, ky, .. } = g.window_row(b, oy);
                let rows_inside = ky.len() == f_h;
                let row0 = ((b * in_h) as isize + in_y0) * in_w as isize;
                let mut ox = 0;
                while ox < out_w {
                    let (in_x0, kx) = g.window_cols(ox);
                    let cols_inside = kx.len() == f_w;
                    // Tap (0, 0) of the window, possibly outside the input (never read then).
                    let px0 = x.wrapping_offset((row0 + in_x0) * depth as isize);
                    if K::PIXELS == 2 && cols_inside && ox + 1 < out_w && g.window_cols(ox + 1).1.len() == f_w {
                        let (Some(out0), Some(out1)) = (pixels.next(), pixels.next()) else { return };
                        if rows_inside {
                            blocks!(|j, c, n| {
                                let bases = [px0.wrapping_add(c), px0.wrapping_add(step + c)];
                                // SAFETY: the caller's guarantee; both windows are inside the
                                // image: each load is `n` channels from `c` of an input pixel.
                                unsafe { block(k, j, c, n, &Inside { k, bases, taps }, [&mut *out0, &mut *out1]) }
                            });
                        } else {
                            blocks!(|j, c, n| {
                                let bases = [px0.wrapping_add(c), px0.wrapping_add(step + c)];
                                // SAFETY: the caller's guarantee; both windows' columns are
                                // inside the image, and the rows `Rows` reads: each load is `n`
                                // channels from `c` of an input pixel.
                                unsafe { block(k, j, c, n, &Rows { k, bases, taps, ky: ky.clone() }, [&mut *out0, &mut *out1]) }
                            });
                        }
                        ox += 2;
                        continue;
                    }
                    let Some(out_px) = pixels.next() else { return };
                    if rows_inside && cols_inside {
                        blocks!(|j, c, n| {
                            // SAFETY: the caller's guarantee; the window is inside the image:
                            // each load is `n` channels from `c` of an input pixel.
                            unsafe { block(k, j, c, n, &Inside { k, bases: [px0.wrapping_add(c)], taps }, [&mut *out_px]) }
                        });
                    } else {
                        blocks!(|j, c, n| {
                            let (ky, kx) = (ky.clone(), kx.clone());
                            // SAFETY: the caller's guarantee; `Border` reads the taps inside the
                            // image only: `n` channels from `c` of an input pixel.
                            unsafe { block(k, j, c, n, &Border { k, base: px0.wrapping_add(c), taps, ky, kx }, [&mut *out_px]) }
                        });
                    }
                    ox += 1;
                }
            }
        }
        b0 += nb;
    }
}
