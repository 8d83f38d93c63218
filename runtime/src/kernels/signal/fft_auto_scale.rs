//! SignalFftAutoScale: `signal/micro/kernels/fft_auto_scale_kernel.cc` +
//! `signal/src/fft_auto_scale.cc` and `max_abs.cc` (the portable `MaxAbs16`).

use super::msb::most_significant_bit_32;

/// `MaxAbs16`, including its int16 quirk: `-value` is computed in int and stored back into
/// an int16, so an input of -32768 makes the running maximum -32768 (and the next value
/// larger than that replaces it).
pub fn max_abs_16(input: &[i16]) -> i16 {
    let mut max: i16 = 0;
    for &v in input {
        if v > max {
            max = v;
        } else if -(v as i32) > max as i32 {
            max = (-(v as i32)) as i16;
        }
    }
    max
}

/// `FftAutoScale`: shifts the frame left by as many bits as its largest magnitude allows and
/// returns that shift (written to the op's scalar int32 output).
pub fn fft_auto_scale_s16(input: &[i16], output: &mut [i16], scale_bits: &mut [i32]) {
    debug_assert_eq!(input.len(), output.len());
    let max = max_abs_16(input);
    // `(sizeof(int16_t) * 8) - MostSignificantBit32(max) - 1`: the int16 converts to uint32
    // (a negative maximum has bit 31 set), the difference wraps and is read back as int.
    let bits = 16u32.wrapping_sub(most_significant_bit_32(max as i32 as u32)).wrapping_sub(1) as i32;
    let bits = if bits <= 0 { 0 } else { bits };
    for (o, &x) in output.iter_mut().zip(input) {
        *o = (x as i32).wrapping_mul(1i32 << bits) as i16;
    }
    if let Some(s) = scale_bits.first_mut() {
        *s = bits;
    }
}
