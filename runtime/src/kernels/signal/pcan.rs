//! SignalPCAN: `signal/micro/kernels/pcan.cc` + `signal/src/pcan_argc_fixed.cc` (per-channel
//! amplitude normalisation, `ApplyPcanAutoGainControlFixed`).

use super::msb::most_significant_bit_32;

/// `kPcanSnrBits`.
pub const PCAN_SNR_BITS: u32 = 12;
/// `kPcanOutputBits`.
pub const PCAN_OUTPUT_BITS: u32 = 6;
/// The gain table entries [`wide_dynamic_function`] can read: `4 * 32 - 6 + 2 + 1` (the
/// compiler checks the op's table has at least this many).
pub const PCAN_LUT_MIN_LEN: usize = 125;

/// Compile-time parameters: the option `snr_shift` (checked 0..=63 by the compiler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcanParams {
    /// Right shift applied to the signal-to-noise ratio before the gain table lookup.
    pub snr_shift: u32,
}

/// `WideDynamicFunction`: the gain for noise level `x`, a piecewise quadratic read from
/// `lut` (int32 arithmetic, truncated to int16 at the end).
pub fn wide_dynamic_function(x: u32, lut: &[i16]) -> i16 {
    if x <= 2 {
        return lut[x as usize];
    }
    let interval = most_significant_bit_32(x) as i32;
    let lut = &lut[(4 * interval - 6) as usize..];
    let frac = (if interval < 11 { x << (11 - interval) } else { x >> (interval - 11) } & 0x3FF) as i16 as i32;
    let mut result = (lut[2] as i32).wrapping_mul(frac) >> 5;
    result = result.wrapping_add(((lut[1] as i32 as u32) << 5) as i32);
    result = result.wrapping_mul(frac);
    result = result.wrapping_add(1 << 14) >> 15;
    result = result.wrapping_add(lut[0] as i32);
    result as i16
}

/// `PcanShrink`: `x^2 / 4` below `2 << kPcanSnrBits`, `x - 1` above (in the output's
/// fixed point).
pub fn pcan_shrink(x: u32) -> u32 {
    if x < (2 << PCAN_SNR_BITS) {
        x.wrapping_mul(x) >> (2 + 2 * PCAN_SNR_BITS - PCAN_OUTPUT_BITS)
    } else {
        (x >> (PCAN_SNR_BITS - PCAN_OUTPUT_BITS)).wrapping_sub(1 << PCAN_OUTPUT_BITS)
    }
}

/// `output[i] = PcanShrink((input[i] * gain(noise_estimate[i])) >> snr_shift)`; the int16
/// gain converts to uint32 (sign-extending), as in C.
pub fn pcan_u32(p: &PcanParams, input: &[u32], noise_estimate: &[u32], gain_lut: &[i16], output: &mut [u32]) {
    for ((o, &x), &noise) in output.iter_mut().zip(input).zip(noise_estimate) {
        let gain = wide_dynamic_function(noise, gain_lut) as i32 as u32;
        let snr = ((x as u64).wrapping_mul(gain as u64) >> p.snr_shift) as u32;
        *o = pcan_shrink(snr);
    }
}
