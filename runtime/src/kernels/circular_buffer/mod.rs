//! CIRCULAR_BUFFER, TFLite Micro's custom operator for strided streaming models
//! (`tensorflow/lite/micro/kernels/circular_buffer.cc`, int8 only).
//!
//! The output `[batch, num_slots, height, width]` is state: it is kept from invoke to invoke
//! (a variable tensor, at its zero point after reset). Every call shifts its first
//! `num_slots * height * width` elements one slot (`height * width` elements) towards the
//! start, dropping the oldest slot, and copies the input's first slot into the last one
//! (`EvalInt8`: one `memmove` and one `memcpy`; with a batch above 1 the later batches are
//! left as they are, exactly as there). Then a countdown decides whether the rest of the graph
//! runs: TFLite Micro's Eval returns `kTfLiteAbort` ("no output yet", the interpreter stops
//! the invoke after this operator) until `cycles_max` calls have passed since the last
//! complete one. [`circular_buffer_s8`] returns `false` for those calls.
//!
//! The countdown is kept as the number of calls since the last complete one (`state[0]`,
//! zero at reset), which is `cycles_max - cycles_until_run` in TFLite Micro's terms: a zero
//! fill is then the state after Prepare and after `CircularBufferReset`.

/// Compile-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CircularBufferParams {
    /// Elements per slot: the output's `height * width` (TFLite Micro's `depth`).
    pub depth: usize,
    /// Slots kept: the output's dimension 1.
    pub num_slots: usize,
    /// Calls per complete invoke (at least 1): the custom option `cycles_max`, or TFLite
    /// Micro's heuristic on the output shape when the option is absent or not positive.
    pub cycles_max: i32,
}

/// One call on int8: shifts `output` one slot and writes `input`'s first slot into the last;
/// counts the call in `state[0]`. Returns `true` when the graph goes on (TFLite Micro's
/// `kTfLiteOk`: `cycles_max` calls since the last `true`, and the count starts again) and
/// `false` when the invoke stops here (`kTfLiteAbort`).
pub fn circular_buffer_s8(p: &CircularBufferParams, input: &[i8], output: &mut [i8], state: &mut [i32]) -> bool {
    let n = p.num_slots * p.depth;
    debug_assert!(p.num_slots >= 1 && input.len() >= p.depth && output.len() >= n && !state.is_empty());
    if let (Some(out), Some(x)) = (output.get_mut(..n), input.get(..p.depth)) {
        if p.depth > 0 && p.num_slots > 0 {
            out.copy_within(p.depth.., 0);
            out[n - p.depth..].copy_from_slice(x);
        }
    }
    let Some(count) = state.first_mut() else { return true };
    // `cycles_max - cycles_until_run`, in 0..cycles_max before the call.
    let calls = count.saturating_add(1);
    if calls >= p.cycles_max {
        *count = 0;
        true
    } else {
        *count = calls;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// TFLite Micro's `circular_buffer_test.cc`, `OutputTensorLength4`: depth 3, 4 slots, run
    /// every other call (cycles_max 2), the same goldens; and `OutputTensorOnEveryIterationLength4`
    /// (cycles_max 1 from the flexbuffer): the same outputs, every call complete.
    #[test]
    fn tflite_micro_goldens() {
        let goldens: [[i8; 12]; 5] = [
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
            [0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6],
            [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        ];
        for cycles_max in [1, 2] {
            let p = CircularBufferParams { depth: 3, num_slots: 4, cycles_max };
            let (mut out, mut state) = ([0i8; 12], [0i32]);
            for (i, g) in goldens.iter().enumerate() {
                let x: Vec<i8> = (0..3).map(|j| (i * 3 + j + 1) as i8).collect();
                let ok = circular_buffer_s8(&p, &x, &mut out, &mut state);
                assert_eq!(&out, g, "cycles_max {cycles_max} call {i}");
                assert_eq!(ok, cycles_max == 1 || i % 2 == 1, "cycles_max {cycles_max} call {i}");
            }
        }
    }

    /// TFLite Micro's countdown, literally: `cycles_until_run` starts at `cycles_max`, each
    /// call decrements it and aborts unless it reached zero, which reloads it. The kernel's
    /// count-up gives the same answers over many calls, for several periods.
    #[test]
    fn countdown_matches_tflite_micro() {
        for cycles_max in [1, 2, 3, 7] {
            let p = CircularBufferParams { depth: 1, num_slots: 1, cycles_max };
            let (mut out, mut state, mut until) = ([0i8], [0i32], cycles_max);
            for call in 0..50 {
                until -= 1;
                let want = until == 0;
                if want {
                    until = cycles_max;
                }
                assert_eq!(circular_buffer_s8(&p, &[call as i8], &mut out, &mut state), want, "{cycles_max} {call}");
                assert_eq!(out, [call as i8]);
            }
        }
    }

    /// Batch 2: only the first `num_slots * depth` elements move, from the input's first
    /// slot; the rest of the output keeps its bytes (TFLite Micro's `EvalInt8`).
    #[test]
    fn later_batches_are_left_alone() {
        let p = CircularBufferParams { depth: 2, num_slots: 3, cycles_max: 1 };
        let mut out: Vec<i8> = (10..22).collect();
        let mut state = [0];
        assert!(circular_buffer_s8(&p, &[-1, -2, -3, -4], &mut out, &mut state));
        assert_eq!(out, [12, 13, 14, 15, -1, -2, 16, 17, 18, 19, 20, 21]);
    }

    /// One slot: the output is the latest input.
    #[test]
    fn one_slot_is_a_copy() {
        let p = CircularBufferParams { depth: 4, num_slots: 1, cycles_max: 3 };
        let (mut out, mut state) = ([0i8; 4], [0]);
        let oks: Vec<bool> = (0..6).map(|i| circular_buffer_s8(&p, &[i, -i, 127, -128], &mut out, &mut state)).collect();
        assert_eq!(out, [5, -5, 127, -128]);
        assert_eq!(oks, [false, false, true, false, false, true]);
    }
}
