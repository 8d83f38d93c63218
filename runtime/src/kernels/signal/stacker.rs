//! SignalStacker: `signal/micro/kernels/stacker.cc` (one circular buffer,
//! `signal/src/circular_buffer.cc`).
//!
//! Every call writes the first `num_channels` input samples into the buffer; the very first
//! call then repeats them `stacker_left_context` more times (`CircularBufferExtend`). When
//! the buffer holds `buffer_size = num_channels * (left + right + 1)` samples, they are the
//! output, `output_valid` is true and the oldest `num_channels * stacker_step` are
//! discarded; otherwise the output is left as it was and `output_valid` is false.
//!
//! State, zero at reset (TFLite Micro's `StackerReset`): the buffered samples, oldest first,
//! in a linear buffer of `buffer_size`, and two int32s: the count buffered and whether the
//! first frame has been seen.

/// Compile-time parameters (`1 <= stacker_step <= left + right + 1`: checked by the
/// compiler, since TFLite Micro's buffer cannot discard more than it holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackerParams {
    /// Samples per input frame (the first `num_channels` input values are stacked).
    pub num_channels: usize,
    /// Frames of context before the current one in each output.
    pub left_context: usize,
    /// `num_channels * (left + right + 1)`.
    pub buffer_size: usize,
    /// `num_channels * stacker_step`.
    pub step_size: usize,
}

/// One call: reads `num_channels` samples of `input`, writes `buffer_size` of `output` when
/// valid. `valid` is the one-byte bool `output_valid`; `samples` (`buffer_size` int16s) and
/// `counters` (two int32s) are the state.
pub fn stacker_s16(p: &StackerParams, input: &[i16], output: &mut [i16], valid: &mut [u8], samples: &mut [i16], counters: &mut [i32]) {
    let (nc, bs) = (p.num_channels, p.buffer_size);
    debug_assert!(input.len() >= nc && output.len() >= bs && samples.len() == bs && counters.len() == 2);
    let mut held = counters[0] as usize;
    samples[held..held + nc].copy_from_slice(&input[..nc]);
    held += nc;
    if counters[1] == 0 {
        for _ in 0..p.left_context {
            samples.copy_within(held - nc..held, held);
            held += nc;
        }
        counters[1] = 1;
    }
    if held >= bs {
        output[..bs].copy_from_slice(&samples[..bs]);
        samples.copy_within(p.step_size..held, 0);
        held -= p.step_size;
        valid[0] = 1;
    } else {
        valid[0] = 0;
    }
    counters[0] = held as i32;
}
