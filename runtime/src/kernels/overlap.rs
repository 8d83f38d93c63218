//! Streaming window kernels (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D) with
//! their output written over the consumed part of their input, in one buffer; PAD and
//! CONCATENATION, copies whose output grows, are in [`copies`].
//!
//! The traversal is this module's, not a kernel's: [`run_rows`] computes output rows
//! `oy0..oy1` (batch 1, NHWC) by calling the unchanged kernel on the sub-problem "output rows
//! `oy0..oy1` from input rows `r0(oy0)..r1(oy1 - 1)`" (the rows their windows touch; the rows
//! above and below are padding in the full problem too, so every output element sees the
//! same taps and the same arithmetic, and is bit-exact whatever variant runs). A call writes
//! its rows only after the rows before it, and only below input row `r0(oy0)`: the buffer is
//! split there with `split_at_mut`, the input rows are a shared borrow and the output rows
//! an exclusive one, so no kernel variant (scalar, Armv7E-M DSP, AVX2; any pixel or channel
//! blocking inside a call) can read a byte it or an earlier call overwrote. Each call takes
//! as many rows as the placement leaves room for (all of them when the two are apart), so
//! the overlap costs calls only where it saves bytes. The condition for a call of
//! [`Rows::block`] rows from every `s`, `delta + end(s) * out_row <= r0(s) * in_row` with
//! `delta = output_at - input_at`, gives the one declaration the planner gets
//! ([`Rows::max_delta`]): `delta <= min over s`. [`run_rows`] checks every call and panics
//! on a plan that broke it (like `__private::io`'s overlap guard), so a wrong plan is never
//! silently wrong.
//!
//! An operator whose output grows (an expanding 1x1 convolution: more output than input
//! bytes per pixel) is walked the other way when its output lies above its input: calls from
//! the last row down, each writing its rows only above input row `r1(oy1 - 1)`, the end of
//! the rows it and every later call reads ([`Rows::min_delta`], `delta >= max over e of
//! r1(e - 1) * in_row - start(e) * out_row`). [`run_rows`] picks the direction from the
//! placement: output below the input (or apart), forward; output starting inside the input,
//! reversed. The two bounds never meet (forward `< 0`, reversed `> 0`), so a plan names the
//! direction by the sign of its delta.

use crate::kernels::window::{ConvGeometry, PoolGeometry, RowRange};

pub mod copies;
pub use copies::{concatenation_min_delta, concatenation_overlapped, pad_min_delta, pad_overlapped};

/// The row structure of a window operator (batch 1, NHWC), in elements.
///
/// A pointwise convolution (1x1 filter, stride 1, no padding: output pixel `i` reads input
/// pixel `i` only) is described by its pixels instead of its rows: [`Rows::conv_2d`] makes
/// every pixel a "row" of one pixel, and `block` asks for calls of at least
/// [`POINTWISE_BLOCK`] pixels, so the overlap costs neither a partial row per call nor a
/// kernel's odd pixel tail (the matrix-product kernels pair pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    /// Input rows (height).
    pub in_h: usize,
    /// Elements of one input row (`width * depth`).
    pub in_row: usize,
    /// Output rows (height).
    pub out_h: usize,
    /// Elements of one output row.
    pub out_row: usize,
    /// Vertical stride, in input rows.
    pub stride: usize,
    /// Vertical dilation of the window, in input rows.
    pub dilation: usize,
    /// Window height, in taps.
    pub filter_h: usize,
    /// Rows of implicit padding above the input.
    pub pad_top: usize,
    /// Rows per kernel call the declaration ([`Rows::max_delta`]) guarantees (the last call
    /// may have fewer); [`run_rows`] makes every call a multiple of it.
    pub block: usize,
    /// The rows are single pixels of a pointwise convolution ([`Rows::conv`]).
    pub pixels: bool,
}

/// Pixels per call of an overlapped pointwise convolution: a multiple of every kernel's
/// pixel block (the Arm matrix product pairs pixels, the host `Wide` kernel takes four).
pub const POINTWISE_BLOCK: usize = 4;

impl Rows {
    /// CONV_2D / DEPTHWISE_CONV_2D rows (`None` for batches other than 1): one row per
    /// image row ([`depthwise_rows`], [`depthwise_row_ranges`]).
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
            block: 1,
            pixels: false,
        })
    }

    /// CONV_2D's rows ([`conv_rows`]): a pointwise convolution's pixels in blocks of
    /// [`POINTWISE_BLOCK`], any other's image rows ([`Rows::conv`]).
    pub fn conv_2d(g: &ConvGeometry) -> Option<Rows> {
        let [n, in_h, in_w, in_d] = g.input_shape;
        let [_, out_h, out_w, out_d] = g.output_shape;
        let [_, f_h, f_w, _] = g.filter_shape;
        let pointwise = f_h == 1
            && f_w == 1
            && g.stride_height == 1
            && g.stride_width == 1
            && g.pad_top == 0
            && g.pad_left == 0
            && (in_h, in_w) == (out_h, out_w);
        if n != 1 || !pointwise {
            return Rows::conv(g);
        }
        Some(Rows {
            in_h: in_h * in_w,
            in_row: in_d,
            out_h: out_h * out_w,
            out_row: out_d,
            stride: 1,
            dilation: 1,
            filter_h: 1,
            pad_top: 0,
            block: POINTWISE_BLOCK,
            pixels: true,
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
            block: 1,
            pixels: false,
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
    /// overwrites an input element it will still read, with calls of [`Rows::block`] rows:
    /// the minimum over every multiple `s` of the block of `r0(s) * in_row - end(s) *
    /// out_row`, `end(s) = min(s + block, out_h)` (a call from `s` writes output rows
    /// `s..end(s)` before it has read input row `r0(s)`). Calls start at multiples of the
    /// block; one that would cover `s..end(s)` from an earlier start is bound harder, so the
    /// driver starts one at the binding `s`, and one element beyond the bound fails there. `None` when some output row reads no input
    /// row (all padding: the sub-problem would have no input) or there is nothing to stream.
    pub fn max_delta(&self) -> Option<i64> {
        if !self.streams() {
            return None;
        }
        let block = self.block.max(1);
        (0..self.out_h)
            .step_by(block)
            .map(|s| (self.window(s).0 * self.in_row) as i64 - ((s + block).min(self.out_h) * self.out_row) as i64)
            .min()
    }
}

impl Rows {
    /// Whether the drivers can run it overlapped: something to stream, and every output row
    /// reads some input row (the sub-problem of an all-padding row would have no input).
    fn streams(&self) -> bool {
        self.out_h > 0
            && self.in_h > 0
            && self.out_row > 0
            && self.in_row > 0
            && (0..self.out_h).all(|oy| {
                let (r0, r1) = self.window(oy);
                r0 < r1
            })
    }

    /// The smallest `delta = output_at - input_at` (elements) at which the reversed walk of
    /// [`run_rows`] never overwrites an input element it will still read, with calls of
    /// [`Rows::block`] rows: the maximum over every call end `e` (`out_h` less a multiple of
    /// the block) of `r1(e - 1) * in_row - start(e) * out_row`, `start(e) = e - min(block,
    /// e)` (a call ending at `e` writes output rows `start(e)..e` while input rows up to
    /// `r1(e - 1)` are still to be read). Calls end on that grid, and one crossing a grid
    /// point is bound harder than the call ending there, so one element below the bound fails
    /// where it binds. Always `> 0` (the last call reads input row 0). `None` as for
    /// [`Rows::max_delta`].
    pub fn min_delta(&self) -> Option<i64> {
        if !self.streams() {
            return None;
        }
        let block = self.block.max(1);
        (0..self.out_h)
            .rev()
            .step_by(block)
            .map(|last| {
                let e = last + 1;
                (self.window(last).1 * self.in_row) as i64 - ((e - block.min(e)) * self.out_row) as i64
            })
            .max()
    }
}

/// Runs a window operator whose input starts at `span[input_at]` and whose output starts at
/// `span[output_at]` (elements; the two may overlap within [`Rows::max_delta`]) in calls of
/// consecutive output rows: `rows(oy0, oy1, r0, r1, input_rows, output_rows)` with
/// `input_rows` the input rows `r0..r1` the output rows `oy0..oy1` read ([`Rows::window`])
/// and `output_rows` those output rows. Each call is as long as the placement allows (output
/// rows `oy0..oy1` end at or below input row `r0(oy0)`, or start above the input's end),
/// rounded down to a multiple of [`Rows::block`]: one call when the two are apart, one row
/// (or one block) per call at the declared bound.
///
/// An output starting inside the input (`input_at < output_at < input end`) is walked from
/// its last row instead ([`Rows::min_delta`]): each call as long as the placement allows
/// (output rows `oy0..oy1` start at or above input row `r1(oy1 - 1)`), rounded down to a
/// multiple of the block.
///
/// Panics if a call would overwrite input it still reads, or lies outside `span` (a plan
/// bug: the planner places only declared overlaps, the verifier checks them).
pub fn run_rows<T>(
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    rows: &Rows,
    mut call: impl FnMut(usize, usize, usize, usize, &[T], &mut [T]),
) {
    let in_end = input_at + rows.in_h * rows.in_row;
    if input_at < output_at && output_at < in_end {
        return run_rows_reversed(span, input_at, output_at, rows, call);
    }
    let block = rows.block.max(1);
    let mut oy0 = 0;
    while oy0 < rows.out_h {
        let (r0, _) = rows.window(oy0);
        let boundary = input_at + r0 * rows.in_row;
        let out_start = output_at + oy0 * rows.out_row;
        // Output rows oy0..oy1 lie below the input rows still read, or entirely above the
        // input's end (a disjoint placement); later calls read only rows from r0(oy0) on.
        let below = if out_start >= in_end { rows.out_h - oy0 } else { boundary.saturating_sub(out_start) / rows.out_row.max(1) };
        let fit = below.min(rows.out_h - oy0);
        let n = if fit == rows.out_h - oy0 { fit } else { fit / block * block };
        if n == 0 {
            panic!("overlapped rows: an output row would overwrite input still to be read");
        }
        let oy1 = oy0 + n;
        let r1 = rows.window(oy1 - 1).1;
        let out = out_start..output_at + oy1 * rows.out_row;
        if out.end <= boundary {
            let (lo, hi) = span.split_at_mut(boundary);
            call(oy0, oy1, r0, r1, &hi[..(r1 - r0) * rows.in_row], &mut lo[out]);
        } else {
            let (lo, hi) = span.split_at_mut(in_end);
            let input = &lo[boundary..boundary + (r1 - r0) * rows.in_row];
            call(oy0, oy1, r0, r1, input, &mut hi[out.start - in_end..out.end - in_end]);
        }
        oy0 = oy1;
    }
}

/// [`run_rows`]' walk from the last row, for an output that starts inside the input.
fn run_rows_reversed<T>(
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    rows: &Rows,
    mut call: impl FnMut(usize, usize, usize, usize, &[T], &mut [T]),
) {
    let block = rows.block.max(1);
    let out_row = rows.out_row.max(1);
    let mut oy1 = rows.out_h;
    while oy1 > 0 {
        let (_, r1) = rows.window(oy1 - 1);
        // This call and every later one read input rows below r1(oy1 - 1) only.
        let boundary = input_at + r1 * rows.in_row;
        // The lowest output row that starts at or above the boundary.
        let lowest = boundary.saturating_sub(output_at).div_ceil(out_row);
        let fit = oy1.saturating_sub(lowest);
        let n = if fit == oy1 { fit } else { fit / block * block };
        if n == 0 {
            panic!("overlapped rows: an output row would overwrite input still to be read");
        }
        let oy0 = oy1 - n;
        let (r0, _) = rows.window(oy0);
        let out = output_at + oy0 * rows.out_row..output_at + oy1 * rows.out_row;
        let (lo, hi) = span.split_at_mut(boundary);
        call(oy0, oy1, r0, r1, &lo[input_at + r0 * rows.in_row..], &mut hi[out.start - boundary..out.end - boundary]);
        oy1 = oy0;
    }
}

/// CONV_2D over one buffer ([`run_rows`] on [`Rows::conv_2d`]): `kernel(geometry, input,
/// output)` runs output rows `oy0..oy1` with their geometry (input rows `r0..r1`, the
/// output rows, the padding above them that the full problem had); a pointwise convolution
/// runs pixels `oy0..oy1` as one row of pixels.
pub fn conv_rows<T>(
    g: &ConvGeometry,
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    mut kernel: impl FnMut(&ConvGeometry, &[T], &mut [T]),
) {
    let Some(rows) = Rows::conv_2d(g) else { panic!("overlapped rows: batch must be 1") };
    run_rows(span, input_at, output_at, &rows, |oy0, oy1, r0, r1, input, output| {
        let mut sub = *g;
        if rows.pixels {
            sub.input_shape[1..3].copy_from_slice(&[1, r1 - r0]);
            sub.output_shape[1..3].copy_from_slice(&[1, oy1 - oy0]);
        } else {
            sub.input_shape[1] = r1 - r0;
            sub.output_shape[1] = oy1 - oy0;
            sub.pad_top = r0 + g.pad_top - oy0 * g.stride_height;
        }
        kernel(&sub, input, output)
    })
}

/// DEPTHWISE_CONV_2D over one buffer ([`run_rows`] on [`Rows::conv`]), as [`conv_rows`]
/// with image rows.
pub fn depthwise_rows<T>(
    g: &ConvGeometry,
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    mut kernel: impl FnMut(&ConvGeometry, &[T], &mut [T]),
) {
    let Some(rows) = Rows::conv(g) else { panic!("overlapped rows: batch must be 1") };
    run_rows(span, input_at, output_at, &rows, |oy0, oy1, r0, r1, input, output| {
        let mut sub = *g;
        sub.input_shape[1] = r1 - r0;
        sub.output_shape[1] = oy1 - oy0;
        sub.pad_top = r0 + g.pad_top - oy0 * g.stride_height;
        kernel(&sub, input, output)
    })
}

/// DEPTHWISE_CONV_2D over one buffer, the calls of [`depthwise_rows`] given to a kernel
/// that takes a [`RowRange`] with the operator's own (constant) geometry: `kernel(rows,
/// input, output)`. The compiler then specialises the kernel on the geometry as for a
/// whole-tensor call, which a geometry built per call prevents.
pub fn depthwise_row_ranges<T>(
    g: &ConvGeometry,
    span: &mut [T],
    input_at: usize,
    output_at: usize,
    mut kernel: impl FnMut(RowRange, &[T], &mut [T]),
) {
    let Some(rows) = Rows::conv(g) else { panic!("overlapped rows: batch must be 1") };
    run_rows(span, input_at, output_at, &rows, |oy0, oy1, r0, _, input, output| kernel(RowRange { oy0, oy1, r0 }, input, output))
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
    run_rows(span, input_at, output_at, &rows, |oy0, oy1, r0, r1, input, output| {
        let mut sub = *g;
        sub.input_shape[1] = r1 - r0;
        sub.output_height = oy1 - oy0;
        sub.pad_top = r0 + g.pad_top - oy0 * g.stride_height;
        kernel(&sub, input, output)
    })
}

#[cfg(test)]
mod tests;
