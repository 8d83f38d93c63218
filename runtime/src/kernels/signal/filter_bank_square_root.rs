//! SignalFilterBankSquareRoot: `signal/micro/kernels/filter_bank_square_root.cc` +
//! `signal/src/filter_bank_square_root.cc` (`FilterbankSqrt`).

use super::msb::sqrt64;

/// `output[i] = Sqrt64(input[i]) >> scale_bits`, `scale_bits` the scalar int32 the FFT's
/// auto scale produced (its first element). The shift count is taken modulo 32, as the
/// x86 and Arm shift instructions TFLite Micro's C compiles to do (the auto scale's shifts
/// are 0..=15, so this only defines a case C leaves undefined).
pub fn filter_bank_square_root_u64(input: &[u64], scale_bits: &[i32], output: &mut [u32]) {
    debug_assert_eq!(input.len(), output.len());
    let shift = scale_bits.first().copied().unwrap_or(0) as u32;
    for (o, &x) in output.iter_mut().zip(input) {
        *o = sqrt64(x).wrapping_shr(shift);
    }
}
