//! Streaming window kernels (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D) with
//! their output written over the consumed part of their input, in one buffer.
//!
//! The traversal is this module's, not a kernel's: [`run_rows`] computes output row `oy`
//! (batch 1, NHWC) by calling the unchanged kernel on the sub-problem "output row `oy` from
//! input rows `r0(oy)..r1(oy)`" (the rows its windows touch; the rows above and below are
//! padding in the full problem too, so every output element sees the same taps and the same
//! arithmetic, and is bit-exact whatever variant runs). Output row `oy` is written only after
//! the rows before it, and only below input row `r0(oy)`: the buffer is split there with
//! `split_at_mut`, the input rows are a shared borrow and the output row an exclusive one, so
//! no kernel variant (scalar, Armv7E-M DSP, AVX2; any pixel or channel blocking inside a row)
//! can read a byte it or an earlier row overwrote. The condition for every `oy`,
//! `delta + (oy + 1) * out_row <= r0(oy) * in_row` with `delta = output_at - input_at`, gives
//! the one declaration the planner gets ([`Rows::max_delta`]): `delta <= min over oy`.
//! [`run_rows`] checks it for every row and panics on a plan that broke it (like
//! `__private::io`'s overlap guard), so a wrong plan is never silently wrong.

use crate::kernels::window::{ConvGeometry, PoolGeometry};

/// The row structure of a window operator (batch 1, NHWC), in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    pub in_h: usize,
    /// Elements of one input row (`width * depth`).
    pub in_row: usize,
    pub out_h: usize,
    /// Elements of one output row.
    pub out_row: usize,
    pub stride: usize,
    pub dilation: usize,
    pub filter_h: usize,
    pub pad_top: usize,
}

impl Rows {
    /// CONV_2D / DEPTHWISE_CONV_2D rows (`None` for batches other than 1).
    pub fn conv(g: &ConvGeometry) -> Option<Rows> {
        let [n, in_h, in_w, in_d] = g.input_shape;
        let [_, out_h, out_w, out_d] = g.output_shape;
        (n == 1).then_some(Rows {
            in_h,
            in_row: in_w * in_d,
            out_h,
            out_row: out_w * out_d,
            stride: g.stride_height,
            dilation: g.dilation_height,
            filter_h: g.filter_shape[1],
            pad_top: g.pad_top,
        })
    }

    /// AVERAGE_POOL_2D / MAX_POOL_2D rows (`None` for batches other than 1).
    pub fn pool(g: &PoolGeometry) -> Option<Rows> {
        let [n, in_h, in_w, d] = g.input_shape;
        (n == 1).then_some(Rows {
            in_h,
            in_row: in_w * d,
            out_h: g.output_height,
            out_row: g.output_width * d,
            stride: g.stride_height,
            dilation: 1,
            filter_h: g.filter_height,
            pad_top: g.pad_top,
        })
    }

    /// The input rows `r0..r1` output row `oy`'s windows read (clipped to the input).
    pub fn window(&self, oy: usize) -> (usize, usize) {
        let top = (oy * self.stride) as i64 - self.pad_top as i64;
        let bottom = top + (self.dilation * self.filter_h.saturating_sub(1)) as i64 + 1;
        let clip = |v: i64| v.clamp(0, self.in_h as i64) as usize;
        (clip(top), clip(bottom))
    }

    /// The largest `delta = output_at - input_at` (elements) at which [`run_rows`] never
    /// overwrites an input element it will still read: the minimum over `oy` of
    /// `r0(oy) * in_row - (oy + 1) * out_row`. `None` when some output row reads no input
    /// row (all padding: the sub-problem would have no input) or there is nothing to stream.
    pub fn max_delta(&self) -> Option<i64> {
        if self.out_h == 0 || self.in_h == 0 || self.out_row == 0 || self.in_row == 0 {
            return None;
        }
        let mut d = i64::MAX;
        for oy in 0..self.out_h {
            let (r0, r1) = self.window(oy);
            if r1 <= r0 {
                return None;
            }
            d = d.min((r0 * self.in_row) as i64 - ((oy + 1) * self.out_row) as i64);
        }
        Some(d)
    }
}

/// Runs a window operator whose input starts at `span[input_at]` and whose output starts at
/// `span[output_at]` (elements; the two may overlap within [`Rows::max_delta`]): for each
/// output row `oy`, `row(oy, r0, r1, input_rows, output_row)` with `input_rows` the input
/// rows `r0..r1` ([`Rows::window`]) and `output_row` output row `oy`.
///
/// Panics if a row would overwrite input it still reads, or lies outside `span` (a plan bug:
/// the planner places only declared overlaps, the verifier checks them).
pub fn run_rows<T>(
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    rows: &Rows,
    mut row: impl FnMut(usize, usize, usize, &[T], &mut [T]),
) {
    for oy in 0..rows.out_h {
        let (r0, r1) = rows.window(oy);
        let boundary = input_at + r0 * rows.in_row;
        let out = output_at + oy * rows.out_row..output_at + (oy + 1) * rows.out_row;
        // Output row oy either lies below the input rows still read, or entirely above the
        // input's end (a disjoint placement).
        let in_end = input_at + rows.in_h * rows.in_row;
        if out.end <= boundary {
            let (lo, hi) = span.split_at_mut(boundary);
            row(oy, r0, r1, &hi[..(r1 - r0) * rows.in_row], &mut lo[out]);
        } else if out.start >= in_end {
            let (lo, hi) = span.split_at_mut(in_end);
            let input = &lo[boundary..boundary + (r1 - r0) * rows.in_row];
            row(oy, r0, r1, input, &mut hi[out.start - in_end..out.end - in_end]);
        } else {
            panic!("overlapped rows: an output row would overwrite input still to be read");
        }
    }
}

/// CONV_2D / DEPTHWISE_CONV_2D over one buffer ([`run_rows`]): `kernel(geometry, input,
/// output)` runs one output row with the row's geometry (input rows `r0..r1`, one output row,
/// the padding above it that the full problem had).
pub fn conv_rows<T>(
    g: &ConvGeometry,
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    mut kernel: impl FnMut(&ConvGeometry, &[T], &mut [T]),
) {
    let Some(rows) = Rows::conv(g) else { panic!("overlapped rows: batch must be 1") };
    run_rows(span, input_at, output_at, &rows, |oy, r0, r1, input, output| {
        let mut sub = *g;
        sub.input_shape[1] = r1 - r0;
        sub.output_shape[1] = 1;
        sub.pad_top = r0 + g.pad_top - oy * g.stride_height;
        kernel(&sub, input, output)
    })
}

/// AVERAGE_POOL_2D / MAX_POOL_2D over one buffer ([`run_rows`]), as [`conv_rows`].
pub fn pool_rows<T>(
    g: &PoolGeometry,
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    mut kernel: impl FnMut(&PoolGeometry, &[T], &mut [T]),
) {
    let Some(rows) = Rows::pool(g) else { panic!("overlapped rows: batch must be 1") };
    run_rows(span, input_at, output_at, &rows, |oy, r0, r1, input, output| {
        let mut sub = *g;
        sub.input_shape[1] = r1 - r0;
        sub.output_height = 1;
        sub.pad_top = r0 + g.pad_top - oy * g.stride_height;
        kernel(&sub, input, output)
    })
}

#[cfg(test)]
mod tests;
