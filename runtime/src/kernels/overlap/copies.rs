//! PAD / PADV2 and CONCATENATION (and PACK, the same copy) with their output written over
//! the consumed part of one input, in one buffer.
//!
//! Both are copies whose output grows: input element `i` lands at output offset `o(i)` with
//! `o(i) - i` non-decreasing (padding, or the other inputs' rows, only ever come between or
//! around the input's runs). Walked from the output's end, every write lands above the input
//! elements still to be read as long as `delta = output_at - input_at` is large enough: a
//! *reversed* overlap, the output at most `o(0)` elements below the input (the input then
//! sits at or above its own place in the output; the copy of the run that is already there
//! is a `copy_within` onto itself).
//!
//! The traversal is written once per family as a walk ([`pad_walk`], [`concatenation_walk`])
//! of [`Step`]s: each a write of `len` output elements at output offset `at`, with `unread`
//! the input elements (a prefix, `0..unread`) still to be read once the step has read what it
//! copies. The kernels ([`pad_overlapped`], [`concatenation_overlapped`]) execute exactly that
//! walk and check every step against the placement (a write must end at or below the input's
//! start or start at or above `input_at + unread`; a plan bug panics, like
//! [`run_rows`](super::run_rows)); the declarations ([`pad_min_delta`],
//! [`concatenation_min_delta`]) are the maximum of `unread - at` over the same walk's steps,
//! so the smallest delta the check accepts is exactly the declared one, and one element
//! below it fails the binding step (`kernels/overlap/tests.rs` runs both at every delta).
//!
//! The reversed walk costs no more than the forward kernels: the same rows, filled and
//! copied in the other order.

use crate::kernels::concatenation::ConcatenationParams;
use crate::kernels::nd::MAX_RANK;
use crate::kernels::pad::PadParams;

/// One write of a reversed copy walk, in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Fill output `at..at + len` with the pad value.
    Fill {
        /// First output element written.
        at: usize,
        /// Elements written.
        len: usize,
        /// Input elements (the prefix `0..unread`) still to be read after this step.
        unread: usize,
    },
    /// Copy the overlapped input's `from..from + len` to output `at..at + len` (it is read
    /// before it is written: a `copy_within`).
    Move {
        /// First output element written.
        at: usize,
        /// First element of the overlapped input read.
        from: usize,
        /// Elements written.
        len: usize,
        /// Input elements (the prefix `0..unread`) still to be read after this step.
        unread: usize,
    },
    /// Copy another input's (`input`, in operand order) `from..from + len` to output
    /// `at..at + len` (CONCATENATION only; that input lies outside the buffer).
    Other {
        /// First output element written.
        at: usize,
        /// The input read, in operand order.
        input: usize,
        /// First element of that input read.
        from: usize,
        /// Elements written.
        len: usize,
        /// Input elements (the prefix `0..unread`) still to be read after this step.
        unread: usize,
    },
}

impl Step {
    /// `(at, len, unread)`.
    fn write(&self) -> (usize, usize, usize) {
        match *self {
            Step::Fill { at, len, unread } | Step::Move { at, len, unread, .. } | Step::Other { at, len, unread, .. } => (at, len, unread),
        }
    }
}

/// The smallest `delta` a walk's steps allow: the maximum of `unread - at` over the steps
/// that write something while input remains unread. `None` when the input is empty; when no
/// step binds (everything is read before anything is written over it), `-output_len` (any
/// overlapping placement).
fn min_delta_of(input_len: usize, output_len: usize, walk: impl FnOnce(&mut dyn FnMut(Step))) -> Option<i64> {
    if input_len == 0 || output_len == 0 {
        return None;
    }
    let mut bound = -(output_len as i64);
    walk(&mut |s| {
        let (at, len, unread) = s.write();
        if len > 0 && unread > 0 {
            bound = bound.max(unread as i64 - at as i64);
        }
    });
    Some(bound)
}

/// Checks one step against the placement: its write ends at or below the input's start or
/// starts at or above the input elements still to be read.
#[inline]
fn check(input_at: usize, output_at: usize, at: usize, len: usize, unread: usize) {
    let (w0, w1) = (output_at + at, output_at + at + len);
    if len > 0 && unread > 0 && w1 > input_at && w0 < input_at + unread {
        panic!("overlapped copy: an output element would overwrite input still to be read");
    }
}

/// PAD's reversed walk: output rows (last dim) from the last; an input row's output row is
/// `after | row | before` (in that order), any other row all padding.
pub fn pad_walk<T>(p: &PadParams<T>, mut step: impl FnMut(Step)) {
    let rank = p.output_shape.len();
    if rank == 0 || rank > MAX_RANK || p.input_shape.len() != rank || p.before.len() != rank {
        return;
    }
    let out_inner = p.output_shape[rank - 1];
    let in_inner = p.input_shape[rank - 1];
    let b = p.before[rank - 1];
    let out_rows: usize = p.output_shape[..rank - 1].iter().product();
    if out_inner == 0 || out_rows == 0 {
        return;
    }
    // Input rows still to be read (those of output rows below the current one).
    let mut in_rows: usize = if in_inner == 0 { 0 } else { p.input_shape[..rank - 1].iter().product() };
    // The multi-index of the current output row (dims 0..rank - 1), starting at the last.
    let mut idx = [0usize; MAX_RANK];
    for (i, &n) in idx.iter_mut().zip(&p.output_shape[..rank - 1]) {
        *i = n - 1;
    }
    for r in (0..out_rows).rev() {
        let at = r * out_inner;
        let inside = in_inner > 0 && (0..rank - 1).all(|d| idx[d] >= p.before[d] && idx[d] < p.before[d] + p.input_shape[d]);
        if inside {
            let q = in_rows - 1;
            step(Step::Fill { at: at + b + in_inner, len: out_inner - b - in_inner, unread: in_rows * in_inner });
            step(Step::Move { at: at + b, from: q * in_inner, len: in_inner, unread: q * in_inner });
            step(Step::Fill { at, len: b, unread: q * in_inner });
            in_rows = q;
        } else {
            step(Step::Fill { at, len: out_inner, unread: in_rows * in_inner });
        }
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            if idx[d] > 0 {
                idx[d] -= 1;
                break;
            }
            idx[d] = p.output_shape[d] - 1;
        }
    }
}

/// The smallest `delta = output_at - input_at` (elements) at which [`pad_overlapped`] never
/// overwrites input it still reads ([`pad_walk`]); `None` for an empty input or output.
pub fn pad_min_delta<T>(p: &PadParams<T>) -> Option<i64> {
    let input_len = p.input_shape.iter().product();
    let output_len = p.output_shape.iter().product();
    min_delta_of(input_len, output_len, |f| pad_walk(p, f))
}

/// PAD with the input at `span[input_at..]` and the output at `span[output_at..]`, which may
/// overlap within [`pad_min_delta`] (or lie apart). Same result as
/// [`pad`](crate::kernels::pad::pad). Panics on a placement the walk does not allow.
pub fn pad_overlapped<T: Copy>(p: &PadParams<T>, span: &mut [T], input_at: usize, output_at: usize) {
    let input_len: usize = p.input_shape.iter().product();
    let output_len: usize = p.output_shape.iter().product();
    if input_at + input_len > span.len() || output_at + output_len > span.len() {
        panic!("overlapped copy: the tensors lie outside the span");
    }
    pad_walk(p, |s| {
        let (at, len, unread) = s.write();
        check(input_at, output_at, at, len, unread);
        match s {
            Step::Fill { .. } => span[output_at + at..output_at + at + len].fill(p.pad_value),
            Step::Move { from, .. } => span.copy_within(input_at + from..input_at + from + len, output_at + at),
            Step::Other { .. } => {}
        }
    });
}

/// CONCATENATION's reversed walk with input `index` overlapped: outer rows from the last,
/// inside each the inputs from the last.
pub fn concatenation_walk(p: &ConcatenationParams, index: usize, mut step: impl FnMut(Step)) {
    let n = p.lens.len().min(p.offsets.len());
    if index >= n {
        return;
    }
    let len = p.lens[index];
    for k in (0..p.outer).rev() {
        for i in (0..n).rev() {
            let at = k * p.output_row + p.offsets[i];
            if i == index {
                step(Step::Move { at, from: k * len, len, unread: k * len });
            } else {
                let l = p.lens[i];
                // Inputs after `index` in the row are written before its block `k` is read.
                let unread = if i > index { (k + 1) * len } else { k * len };
                step(Step::Other { at, input: i, from: k * l, len: l, unread });
            }
        }
    }
}

/// The smallest `delta = output_at - input_at` (elements) at which
/// [`concatenation_overlapped`] never overwrites input `index`'s elements it still reads
/// ([`concatenation_walk`]); `None` for an empty input or output.
pub fn concatenation_min_delta(p: &ConcatenationParams, index: usize) -> Option<i64> {
    let input_len = p.outer * p.lens.get(index).copied().unwrap_or(0);
    min_delta_of(input_len, p.outer * p.output_row, |f| concatenation_walk(p, index, f))
}

/// CONCATENATION with input `index` at `span[input_at..]` and the output at
/// `span[output_at..]`, which may overlap within [`concatenation_min_delta`] (or lie apart);
/// `others` are the other inputs in operand order (input `index` left out). Same result as
/// [`concatenation`](crate::kernels::concatenation::concatenation). Panics on a placement the
/// walk does not allow.
pub fn concatenation_overlapped<T: Copy>(
    p: &ConcatenationParams,
    index: usize,
    others: &[&[T]],
    span: &mut [T],
    input_at: usize,
    output_at: usize,
) {
    let input_len = p.outer * p.lens.get(index).copied().unwrap_or(0);
    if input_at + input_len > span.len() || output_at + p.outer * p.output_row > span.len() {
        panic!("overlapped copy: the tensors lie outside the span");
    }
    concatenation_walk(p, index, |s| {
        let (at, len, unread) = s.write();
        check(input_at, output_at, at, len, unread);
        match s {
            Step::Move { from, .. } => span.copy_within(input_at + from..input_at + from + len, output_at + at),
            Step::Other { input, from, .. } => {
                let src = others[if input < index { input } else { input - 1 }];
                span[output_at + at..output_at + at + len].copy_from_slice(&src[from..from + len]);
            }
            Step::Fill { .. } => {}
        }
    });
}
