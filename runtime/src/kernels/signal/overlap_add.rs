//! SignalOverlapAdd: `signal/micro/kernels/overlap_add.cc` + `signal/src/overlap_add.cc`
//! (`OverlapAdd`, int16 and float32).
//!
//! State: a buffer of `frame_size` samples per outer index (TFLite Micro's persistent
//! buffer, zeroed in Prepare and by `OverlapAddReset`). Each frame is added into it
//! (int16: the int32 sum saturated to int16), its first `frame_step` samples are the output,
//! and it shifts left by `frame_step`, zero-filled at the end. tflc keeps the buffer as the
//! op's state, zero at reset.

/// Compile-time parameters (`frame_step <= frame_size`, checked by the compiler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlapAddParams {
    /// The input's innermost dimension.
    pub frame_size: usize,
    /// The option `frame_step`.
    pub frame_step: usize,
    /// The input's second innermost dimension.
    pub n_frames: usize,
    /// The input's element count over `n_frames * frame_size`.
    pub outer_dims: usize,
}

impl OverlapAddParams {
    /// The elements of state: `frame_size` per outer index.
    pub const fn state_len(&self) -> usize {
        self.outer_dims * self.frame_size
    }
}

fn overlap_add<T: Copy + Default>(p: &OverlapAddParams, input: &[T], output: &mut [T], state: &mut [T], add: impl Fn(T, T) -> T) {
    let (fs, st) = (p.frame_size, p.frame_step);
    debug_assert!(input.len() == p.outer_dims * p.n_frames * fs && output.len() == p.outer_dims * p.n_frames * st && state.len() == p.state_len());
    for d in 0..p.outer_dims {
        let buffer = &mut state[d * fs..(d + 1) * fs];
        for frame in 0..p.n_frames {
            let k = d * p.n_frames + frame;
            let x = &input[k * fs..(k + 1) * fs];
            for (b, &v) in buffer.iter_mut().zip(x) {
                *b = add(v, *b);
            }
            output[k * st..(k + 1) * st].copy_from_slice(&buffer[..st]);
            buffer.copy_within(st.., 0);
            buffer[fs - st..].fill(T::default());
        }
    }
}

/// int16: `input + buffer` in int32, saturated to int16.
pub fn overlap_add_s16(p: &OverlapAddParams, input: &[i16], output: &mut [i16], state: &mut [i16]) {
    overlap_add(p, input, output, state, |x, b| (x as i32 + b as i32).clamp(i16::MIN as i32, i16::MAX as i32) as i16);
}

/// float32: `buffer += input`.
pub fn overlap_add_f32(p: &OverlapAddParams, input: &[f32], output: &mut [f32], state: &mut [f32]) {
    overlap_add(p, input, output, state, |x, b| b + x);
}
