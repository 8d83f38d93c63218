//! QUANTIZE. Mirrors TFLite Micro `quantize_common.cc`:
//! - float32 -> int8: `reference_ops::AffineQuantize`, i.e.
//!   `clamp((int32)roundf(x / scale) + zero_point)`, the division in f32;
//! - float32 -> int16: the same, clamped to int16;
//! - int8 -> int8 (requantization): `reference_ops::Requantize`, i.e.
//!   `clamp(MBQM(x - zp_in, m, s) + zp_out)` with `m, s = QuantizeMultiplier(s_in / s_out)`
//!   (f64). TFLite's XOR-0x80 shortcut exists only for int8 <-> uint8, so int8 -> int8
//!   always takes the general path (which is exact when scales match: m = 2^30, s = 1);
//! - the other integer pairs TFLite Micro's `EvalQuantizeReference` has (int16 -> int8,
//!   int16, int32; int8 -> int16, int32, uint8; uint8 -> int8; int32 -> int8, int16): the same
//!   `Requantize` step, clamped to the output type.

#[cfg(feature = "prepare")]
use crate::prepare::quantize_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

pub mod scalar;
#[cfg(test)]
mod tests;

/// Parameters of a float32 -> int8 QUANTIZE: the output's quantization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantizeParams {
    /// Output scale (f32, as stored in the model; TFLite widens it to double and back).
    pub scale: f32,
    /// Output zero point.
    pub zero_point: i32,
}

/// Parameters of an int8 -> int8 QUANTIZE (requantization).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequantizeParams {
    /// The input's zero point (subtracted).
    pub input_zero_point: i32,
    /// The output's zero point (added).
    pub output_zero_point: i32,
    /// `QuantizeMultiplier(s_in / s_out)`.
    pub multiplier: i32,
    /// Exponent of `multiplier` (positive: a left shift).
    pub shift: i32,
}

/// TFLite Micro `PrepareQuantizeReference` for int8 -> int8. `None` on non-finite scales.
#[cfg(feature = "prepare")]
pub fn prepare_requantize(input: QuantParams, output: QuantParams) -> Option<RequantizeParams> {
    let effective_scale = input.scale as f64 / output.scale as f64;
    let (multiplier, shift) = quantize_multiplier(effective_scale)?;
    Some(RequantizeParams { input_zero_point: input.zero_point, output_zero_point: output.zero_point, multiplier, shift })
}

/// float32 -> int8. Out-of-int32-range and NaN inputs are undefined behaviour in TFLite's
/// `static_cast<int32_t>`; here they saturate (NaN -> zero point), as Arm hardware does.
#[inline]
pub fn quantize_f32_s8(params: &QuantizeParams, input: &[f32], output: &mut [i8]) {
    scalar::quantize_f32_s8(params, input, output)
}

/// int8 -> int8 requantization.
#[inline]
pub fn quantize_s8_s8(params: &RequantizeParams, input: &[i8], output: &mut [i8]) {
    scalar::quantize_s8_s8(params, input, output)
}

/// [`quantize_s8_s8`] in place.
#[inline]
pub fn quantize_s8_s8_in_place(params: &RequantizeParams, data: &mut [i8]) {
    scalar::quantize_s8_s8_in_place(params, data)
}

/// float32 -> int16 (TFLite Micro's `AffineQuantize<int16_t>`): as [`quantize_f32_s8`],
/// clamped to the int16 range.
#[inline]
pub fn quantize_f32_s16(params: &QuantizeParams, input: &[f32], output: &mut [i16]) {
    scalar::quantize_f32_s16(params, input, output)
}

/// The requantizations of TFLite Micro's QUANTIZE between integer types, each TFLite's
/// `Requantize<input_type, output_type>`: `clamp(MBQM(x - zp_in, m, s) + zp_out)` in the
/// output type's range. (TFLite's XOR-0x80 shortcut for int8 <-> uint8 at the same scale
/// and zero points 128 apart gives the same bytes: `m = 2^30, s = 1` is exact.)
macro_rules! requantize_fns {
    ($($(#[$doc:meta])* $name:ident: $i:ty => $o:ty;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(params: &RequantizeParams, input: &[$i], output: &mut [$o]) {
            debug_assert_eq!(input.len(), output.len());
            for (o, &x) in output.iter_mut().zip(input) {
                *o = scalar::requantize_i32(params, x as i32, <$o>::MIN as i32, <$o>::MAX as i32) as $o;
            }
        }
    )*};
}

requantize_fns! {
    /// int16 -> int8 requantization (TFLite `Requantize<int16_t, int8_t>`).
    quantize_s16_s8: i16 => i8;
    /// int16 -> int32 requantization (TFLite `Requantize<int16_t, int32_t>`).
    quantize_s16_s32: i16 => i32;
    /// int8 -> int16 requantization (TFLite `Requantize<int8_t, int16_t>`).
    quantize_s8_s16: i8 => i16;
    /// int8 -> int32 requantization (TFLite `Requantize<int8_t, int32_t>`).
    quantize_s8_s32: i8 => i32;
    /// int8 -> uint8 requantization (TFLite `Requantize<int8_t, uint8_t>`).
    quantize_s8_u8: i8 => u8;
    /// uint8 -> int8 requantization (TFLite `Requantize<uint8_t, int8_t>`).
    quantize_u8_s8: u8 => i8;
    /// int32 -> int8 requantization (TFLite `Requantize<int32_t, int8_t>`; `x - zp_in`
    /// wraps where C++ would overflow).
    quantize_s32_s8: i32 => i8;
    /// int32 -> int16 requantization (TFLite `Requantize<int32_t, int16_t>`).
    quantize_s32_s16: i32 => i16;
}

/// One int16 -> int16 requantization step (TFLite `Requantize<int16_t, int16_t>`).
#[inline(always)]
fn requantize_s16_one(params: &RequantizeParams, x: i16) -> i16 {
    scalar::requantize_i32(params, x as i32, i16::MIN as i32, i16::MAX as i32) as i16
}

/// int16 -> int16 requantization (TFLite `Requantize<int16_t, int16_t>`).
#[inline]
pub fn quantize_s16_s16(params: &RequantizeParams, input: &[i16], output: &mut [i16]) {
    crate::kernels::nd::map(input, output, |x| requantize_s16_one(params, x))
}

/// [`quantize_s16_s16`] in place.
#[inline]
pub fn quantize_s16_s16_in_place(params: &RequantizeParams, data: &mut [i16]) {
    crate::kernels::nd::map_in_place(data, |x| requantize_s16_one(params, x))
}
