//! SignalFilterBank: `signal/micro/kernels/filter_bank.cc` + `signal/src/filter_bank.cc`
//! (`FilterbankAccumulateChannels`).

/// Compile-time parameters: the option `num_channels`. The compiler checks that the three
/// channel tables have `num_channels + 1` entries and that every index the loop takes is in
/// range (non-negative starts, `freq_start + width <= input.len()`,
/// `weight_start + width <= weights.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterBankParams {
    /// Number of output channels (mel bands).
    pub num_channels: usize,
}

/// The triangular mel filter bank: channel `i` accumulates `weights * input` over its band
/// plus the previous channel's `unweights * input`; TFLite Micro computes
/// `num_channels + 1` sums into a work area and discards the first, which is what writing
/// `output[i - 1]` does. The int16 weights convert to uint64 (sign-extending) and every sum
/// wraps, as in C.
#[allow(clippy::too_many_arguments)]
pub fn filter_bank_u32(
    p: &FilterBankParams,
    input: &[u32],
    weights: &[i16],
    unweights: &[i16],
    channel_frequency_starts: &[i16],
    channel_weight_starts: &[i16],
    channel_widths: &[i16],
    output: &mut [u64],
) {
    let mut weight_accumulator: u64 = 0;
    let mut unweight_accumulator: u64 = 0;
    for i in 0..p.num_channels + 1 {
        let freq_start = channel_frequency_starts[i] as usize;
        let weight_start = channel_weight_starts[i] as usize;
        let width = channel_widths[i].max(0) as usize;
        for j in 0..width {
            let x = input[freq_start + j] as u64;
            weight_accumulator = weight_accumulator.wrapping_add((weights[weight_start + j] as i64 as u64).wrapping_mul(x));
            unweight_accumulator = unweight_accumulator.wrapping_add((unweights[weight_start + j] as i64 as u64).wrapping_mul(x));
        }
        if i > 0 {
            output[i - 1] = weight_accumulator;
        }
        weight_accumulator = unweight_accumulator;
        unweight_accumulator = 0;
    }
}
