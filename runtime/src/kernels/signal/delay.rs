//! SignalDelay: `signal/micro/kernels/delay.cc` (a circular buffer per outer index,
//! `signal/src/circular_buffer.cc`, that Prepare fills with `delay_length` zeros).
//!
//! Each call writes a frame of `frame_size` samples into the buffer, reads the oldest
//! `frame_size` and discards them, so the buffer holds exactly `delay_length` samples before
//! every call: the output is the input delayed by `delay_length` samples, per outer index.
//! tflc keeps those `delay_length` samples (oldest first) as the op's state, zero at reset as
//! after TFLite Micro's Prepare and `DelayReset`.

/// Compile-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayParams {
    /// The input's innermost dimension.
    pub frame_size: usize,
    /// The option `delay_length`.
    pub delay_length: usize,
    /// The input's element count over `frame_size`.
    pub outer_dims: usize,
}

impl DelayParams {
    /// The int16s of state: `delay_length` per outer index.
    pub const fn state_len(&self) -> usize {
        self.outer_dims * self.delay_length
    }
}

/// One call: `output` is `state ++ input` cut to `frame_size`, and the state keeps the last
/// `delay_length` samples of `state ++ input`, per outer index.
pub fn delay_s16(p: &DelayParams, input: &[i16], output: &mut [i16], state: &mut [i16]) {
    let (fs, dl) = (p.frame_size, p.delay_length);
    debug_assert!(input.len() == p.outer_dims * fs && output.len() == input.len() && state.len() == p.state_len());
    for d in 0..p.outer_dims {
        let x = &input[d * fs..(d + 1) * fs];
        let y = &mut output[d * fs..(d + 1) * fs];
        let s = &mut state[d * dl..(d + 1) * dl];
        if dl >= fs {
            y.copy_from_slice(&s[..fs]);
            s.copy_within(fs.., 0);
            s[dl - fs..].copy_from_slice(x);
        } else {
            y[..dl].copy_from_slice(s);
            y[dl..].copy_from_slice(&x[..fs - dl]);
            s.copy_from_slice(&x[fs - dl..]);
        }
    }
}
