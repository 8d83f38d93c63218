//! AVERAGE_POOL_2D, int8, int16 and float32 ([`average_pool_2d_f32`]).
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::AveragePool` (int8 and int16): the
//! window is clipped to the input (padding cells are not counted), the int32 sum is divided
//! by the number of cells actually inside, rounding half away from zero, and clamped.
//! TFLite Micro requires equal input and output quantization, so there is no
//! requantization. One loop nest ([`average_pool_2d`]) for every numerics.

#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
pub mod scalar;
#[cfg(test)]
pub(crate) mod tests;

use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, Numerics, F32, S16, S8, U8};
pub use crate::kernels::window::PoolGeometry;

/// Everything AVERAGE_POOL_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AveragePool2dParams<N: Numerics> {
    /// Window, stride, padding and tensor sizes.
    pub geometry: PoolGeometry,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

/// AVERAGE_POOL_2D for any numerics, NHWC in and out. Precondition (TFLite Micro fails the
/// op otherwise): every window overlaps the input.
pub fn average_pool_2d<N: Numerics>(params: &AveragePool2dParams<N>, input: &[N::Act], output: &mut [N::Act]) {
    debug_assert_eq!(input.len(), params.geometry.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.geometry.output_len());
    scalar::average_pool_2d(params, input, output)
}

/// AVERAGE_POOL_2D int8.
pub fn average_pool_2d_s8(params: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    crate::isa::host_simd!(vnni average_pool_2d_s8(params, input, output));
    if <crate::isa::Dot as Dot>::SUM16 {
        return sum16::<crate::isa::Dot>(params, input, output);
    }
    average_pool_2d(params, input, output)
}

/// AVERAGE_POOL_2D int8 with [`Dot::sum16_run`] (`D::SUM16`, Helium): per output pixel,
/// sixteen channels at a time, each window row one run of cells `depth` bytes apart; the
/// last `depth % 16` channels cell by cell. The same sums (integer, any order) and the same
/// rounding and clamp ([`S8`]'s `pool_average`) as [`average_pool_2d`].
pub(crate) fn sum16<D: Dot>(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let mut outs = output.chunks_exact_mut(depth.max(1));
    for b in 0..batches {
        for oy in 0..g.output_height {
            for ox in 0..g.output_width {
                let Some(out) = outs.next() else { return };
                // Only the cells inside the input are counted.
                let (ys, xs) = g.clipped(oy, ox);
                let count = ys.len() * xs.len();
                let at = |iy: usize, ix: usize| ((b * in_h + iy) * in_w + ix) * depth;
                let blocks = depth / 16;
                for (j, out) in out.chunks_exact_mut(16).enumerate().take(blocks) {
                    let mut acc = [0i32; 16];
                    for iy in ys.clone() {
                        acc = D::sum16_run(input.get(at(iy, xs.start) + 16 * j..).unwrap_or(&[]), xs.len(), depth, acc);
                    }
                    for (o, &a) in out.iter_mut().zip(&acc) {
                        *o = S8::pool_average(a, count, &p.clamp);
                    }
                }
                for (c, o) in out.iter_mut().enumerate().skip(16 * blocks) {
                    let mut a = 0i32;
                    for iy in ys.clone() {
                        for ix in xs.clone() {
                            a = S8::pool_add(a, input[at(iy, ix) + c]);
                        }
                    }
                    *o = S8::pool_average(a, count, &p.clamp);
                }
            }
        }
    }
}

/// AVERAGE_POOL_2D float32 (TFLite's `reference_ops::AveragePool`: each channel summed
/// over the window rows then columns, divided by the count of cells inside).
pub fn average_pool_2d_f32(params: &AveragePool2dParams<F32>, input: &[f32], output: &mut [f32]) {
    average_pool_2d(params, input, output)
}

/// AVERAGE_POOL_2D legacy uint8 (TFLite's uint8 `reference_ops::AveragePool`: the int8
/// loop nest, sums non-negative).
pub fn average_pool_2d_u8(params: &AveragePool2dParams<U8>, input: &[u8], output: &mut [u8]) {
    average_pool_2d(params, input, output)
}

/// AVERAGE_POOL_2D int16 (an int32 sum, as TFLite).
pub fn average_pool_2d_s16(params: &AveragePool2dParams<S16>, input: &[i16], output: &mut [i16]) {
    average_pool_2d(params, input, output)
}
