//! L2_POOL_2D, float32 (the only type TFLite Micro's `l2_pool_2d.cc` runs).
//!
//! Bit-exact with TFLite's `reference_ops::L2Pool`: per output and channel, the squares of
//! the window's cells inside the input summed in row-major window order from `0.0` (one
//! rounding per multiply and per add), divided by the number of those cells, the IEEE
//! square root (correctly rounded, [`sqrt_f32`], since `core` has no `f32::sqrt`), then the
//! fused-activation clamp as `ActivationFunctionWithMinMax` (NaN passes through).

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::Clamp;
pub use crate::kernels::window::PoolGeometry;

/// Everything L2_POOL_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct L2Pool2dParams {
    pub geometry: PoolGeometry,
    /// Fused-activation clamp.
    pub clamp: Clamp<f32>,
}

/// L2_POOL_2D float32, NHWC in and out.
pub fn l2_pool_2d_f32(params: &L2Pool2dParams, input: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), params.geometry.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.geometry.output_len());
    scalar::l2_pool_2d_f32(params, input, output)
}

/// The correctly rounded IEEE-754 square root of `x` (what C++'s `std::sqrt(float)` is on
/// every IEEE target): NaN for negative and NaN inputs, `-0.0` for `-0.0`, `+inf` for
/// `+inf`. Integer arithmetic only: the 24-bit root of the mantissa (scaled to an even
/// exponent) by `u64::isqrt`, rounded to nearest by its remainder (a tie cannot occur).
pub fn sqrt_f32(x: f32) -> f32 {
    let bits = x.to_bits();
    if x.is_nan() || x == 0.0 || x == f32::INFINITY {
        return x;
    }
    if bits >> 31 != 0 {
        return f32::NAN;
    }
    let (mut e, mut m) = (((bits >> 23) & 0xff) as i32, (bits & 0x7f_ffff) as u64);
    if e == 0 {
        // Subnormal: normalize so that bit 23 is set.
        while m & 0x80_0000 == 0 {
            m <<= 1;
            e -= 1;
        }
        e += 1;
    } else {
        m |= 0x80_0000;
    }
    // x = m * 2^(exp - 23), m in [2^23, 2^24); make exp even.
    let mut exp = e - 127;
    if exp & 1 != 0 {
        m <<= 1;
        exp -= 1;
    }
    // sqrt(x) = sqrt(m * 2^23) * 2^(exp / 2 - 23); q has 24 bits.
    let n = m << 23;
    let mut q = n.isqrt();
    if n - q * q > q {
        q += 1;
    }
    // A carry into bit 24 bumps the exponent field by one and leaves the mantissa 0.
    f32::from_bits((((exp / 2 + 127) as u32) << 23) + (q as u32 - 0x80_0000))
}
