//! SignalEnergy: `signal/micro/kernels/energy.cc` + `signal/src/energy.cc`
//! (`SpectrumToEnergy`).

/// Compile-time parameters: the options `start_index` and `end_index` (checked by the
/// compiler: `start <= end <= ` both the input's complex count and the output's length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnergyParams {
    /// First complex bin whose energy is written.
    pub start_index: usize,
    /// One past the last complex bin whose energy is written.
    pub end_index: usize,
}

/// `output[i] = re^2 + im^2` (int32 arithmetic, stored as uint32) for `i` in
/// `start_index..end_index`; `input` holds interleaved (re, im) int16 pairs. As in TFLite
/// Micro, the other outputs are not written.
pub fn energy_s16(p: &EnergyParams, input: &[i16], output: &mut [u32]) {
    for i in p.start_index..p.end_index {
        let (re, im) = (input[2 * i] as i32, input[2 * i + 1] as i32);
        output[i] = re.wrapping_mul(re).wrapping_add(im.wrapping_mul(im)) as u32;
    }
}
