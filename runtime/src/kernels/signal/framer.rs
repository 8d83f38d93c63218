//! SignalFramer: `signal/micro/kernels/framer.cc` (a circular buffer per outer index,
//! `signal/src/circular_buffer.cc`).
//!
//! Every call writes the input's `n_frames` steps of `frame_step` samples, one at a time,
//! into the buffer; after each step, when the buffer holds at least `frame_size` samples,
//! the oldest `frame_size` are output as that step's frame and the oldest `frame_step`
//! discarded. When it holds fewer, that frame of the output is left as it was (TFLite Micro
//! does not write it) and the call's `output_valid` flag is false. With `prefill` the buffer
//! starts with `frame_size - frame_step` zeros.
//!
//! State, zero at reset: per outer index the buffered samples, oldest first, in a linear
//! buffer of the circular buffer's capacity (`frame_size` rounded up to a multiple of
//! `frame_step`); and one count, the samples buffered minus those the reset leaves (every
//! outer index receives the same writes, so one count serves them all).

/// Compile-time parameters (`frame_step >= 1`, and `frame_step <= frame_size` with
/// `prefill`: checked by the compiler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramerParams {
    /// Samples per output frame.
    pub frame_size: usize,
    /// Samples between the starts of two frames (the input's step).
    pub frame_step: usize,
    /// The input's innermost dimension over `frame_step`.
    pub n_frames: usize,
    /// The input's element count over its innermost dimension.
    pub outer_dims: usize,
    /// `frame_size` rounded up to a multiple of `frame_step` (TFLite Micro's capacity).
    pub capacity: usize,
    /// The samples the buffer holds after a reset: `frame_size - frame_step` with
    /// `prefill`, else 0.
    pub prefilled: usize,
}

impl FramerParams {
    /// The int16s of buffered samples in the state.
    pub const fn samples_len(&self) -> usize {
        self.outer_dims * self.capacity
    }
}

/// One call. `valid` is the one-byte bool `output_valid`; `samples` and `count` (one int32)
/// are the state.
pub fn framer_s16(p: &FramerParams, input: &[i16], output: &mut [i16], valid: &mut [u8], samples: &mut [i16], count: &mut [i32]) {
    let (fs, st, cap) = (p.frame_size, p.frame_step, p.capacity);
    debug_assert!(input.len() == p.outer_dims * p.n_frames * st && output.len() == p.outer_dims * p.n_frames * fs && samples.len() == p.samples_len());
    let start = (p.prefilled as i32).wrapping_add(count[0]) as usize;
    let mut held = start;
    let mut all_valid = true;
    for d in 0..p.outer_dims {
        let buf = &mut samples[d * cap..(d + 1) * cap];
        held = start;
        for frame in 0..p.n_frames {
            let k = d * p.n_frames + frame;
            buf[held..held + st].copy_from_slice(&input[k * st..(k + 1) * st]);
            held += st;
            if held >= fs {
                output[k * fs..(k + 1) * fs].copy_from_slice(&buf[..fs]);
                buf.copy_within(st..held, 0);
                held -= st;
            } else {
                all_valid = false;
            }
        }
    }
    count[0] = (held as i32).wrapping_sub(p.prefilled as i32);
    valid[0] = all_valid as u8;
}
