//! SignalFilterBankSpectralSubtraction: `signal/micro/kernels/filter_bank_spectral_subtraction.cc`
//! + `signal/src/filter_bank_spectral_subtraction.cc` (`FilterbankSpectralSubtraction`).

/// Compile-time parameters: the op's options (`SpectralSubtractionConfig`), as TFLite Micro
/// reads them (`ElementAsInt32` stored into uint32 fields; the shift counts checked 0..=31 by
/// the compiler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpectralSubtractionParams {
    /// Number of channels (input, output and noise-estimate length).
    pub num_channels: usize,
    /// Weight of the new input in the noise estimate for even channels, in Q`spectral_subtraction_bits`.
    pub smoothing: u32,
    /// Weight of the old noise estimate for even channels, in Q`spectral_subtraction_bits`.
    pub one_minus_smoothing: u32,
    /// `smoothing` for odd channels.
    pub alternate_smoothing: u32,
    /// `one_minus_smoothing` for odd channels.
    pub alternate_one_minus_smoothing: u32,
    /// The floor: the fraction of the input always kept, in Q`spectral_subtraction_bits`.
    pub min_signal_remaining: u32,
    /// Left shift of the input before smoothing: the noise estimate is kept scaled up by `2^smoothing_bits`.
    pub smoothing_bits: u32,
    /// Fractional bits of the smoothing weights and of `min_signal_remaining`.
    pub spectral_subtraction_bits: u32,
    /// When the estimate exceeds the (scaled-up) input, also store the clamped estimate back into the state (the subtraction always uses the clamped value).
    pub clamping: bool,
}

/// One call: updates the running `noise_estimate` (the op's state, which is also its second
/// output) from `input` and writes the noise-subtracted `output`, floored at
/// `min_signal_remaining` of the input. Even channels use `smoothing`, odd ones the
/// alternate coefficients.
pub fn filter_bank_spectral_subtraction_u32(p: &SpectralSubtractionParams, input: &[u32], output: &mut [u32], noise_estimate: &mut [u32]) {
    for i in 0..p.num_channels {
        let (smoothing, one_minus_smoothing) =
            if i & 1 == 0 { (p.smoothing, p.one_minus_smoothing) } else { (p.alternate_smoothing, p.alternate_one_minus_smoothing) };
        let signal_scaled_up = input[i].wrapping_shl(p.smoothing_bits);
        noise_estimate[i] = ((signal_scaled_up as u64)
            .wrapping_mul(smoothing as u64)
            .wrapping_add((noise_estimate[i] as u64).wrapping_mul(one_minus_smoothing as u64))
            >> p.spectral_subtraction_bits) as u32;
        let mut estimate_scaled_up = noise_estimate[i];
        if estimate_scaled_up > signal_scaled_up {
            estimate_scaled_up = signal_scaled_up;
            if p.clamping {
                noise_estimate[i] = estimate_scaled_up;
            }
        }
        let floor = ((input[i] as u64).wrapping_mul(p.min_signal_remaining as u64) >> p.spectral_subtraction_bits) as u32;
        let subtracted = (signal_scaled_up - estimate_scaled_up) >> p.smoothing_bits;
        output[i] = if subtracted > floor { subtracted } else { floor };
    }
}
