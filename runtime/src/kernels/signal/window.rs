//! SignalWindow: `signal/micro/kernels/window.cc` + `signal/src/window.cc` (`ApplyWindow`).

/// Compile-time parameters: the `shift` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowParams {
    /// Right shift of each int32 product (the option `shift`; the compiler checks 0..=31).
    pub shift: u32,
}

/// `output[i] = saturate_i16((input[i] * window[i % window.len()]) >> shift)`, the window
/// applied to each `window.len()` frame of the input in turn (the compiler checks that the
/// input is a whole number of frames).
pub fn window_s16(p: &WindowParams, input: &[i16], window: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    if window.is_empty() {
        return;
    }
    for (x, y) in input.chunks(window.len()).zip(output.chunks_mut(window.len())) {
        for ((&a, &w), o) in x.iter().zip(window).zip(y.iter_mut()) {
            let raw = (a as i32 * w as i32) >> p.shift;
            *o = raw.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        }
    }
}
