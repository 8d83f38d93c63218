//! Sliding-window geometry shared by the convolution and pooling kernels: the geometry part
//! of their parameters (shapes, strides, dilation, padding; CMSIS-NN's `cmsis_nn_conv_params`
//! minus the offsets and the clamp) and the clipping of a window to the input.

/// The geometry of CONV_2D and DEPTHWISE_CONV_2D, computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvGeometry {
    /// Input shape `[batches, height, width, depth]` (NHWC).
    pub input_shape: [usize; 4],
    /// CONV_2D: `[output_depth, filter_height, filter_width, filter_input_depth]` (OHWI;
    /// `input_depth` a multiple of `filter_input_depth` for grouped convolution).
    /// DEPTHWISE_CONV_2D: `[1, filter_height, filter_width, output_depth]`, output channel
    /// `ic * depth_multiplier + m` reading input channel `ic`.
    pub filter_shape: [usize; 4],
    /// Output shape `[batches, out_height, out_width, output_depth]`.
    pub output_shape: [usize; 4],
    /// Rows between two window positions.
    pub stride_height: usize,
    /// Columns between two window positions.
    pub stride_width: usize,
    /// Rows between two filter taps (1: dense).
    pub dilation_height: usize,
    /// Columns between two filter taps (1: dense).
    pub dilation_width: usize,
    /// Padding before the first row / column (TFLite `padding_values.height/width`).
    pub pad_top: usize,
    /// Padding before the first column.
    pub pad_left: usize,
}

impl ConvGeometry {
    /// Output row `oy` of batch `b`: the rows of its windows ([`Window::at`] adds a column).
    #[inline(always)]
    pub(crate) fn window_row(&self, b: usize, oy: usize) -> Window {
        let [in_y0, _] = self.origin(oy, 0);
        let ky = valid_taps(in_y0, self.dilation_height, self.filter_shape[1], self.input_shape[1]);
        Window { b, oy, ox: 0, in_y0, in_x0: 0, ky, kx: 0..0 }
    }

    /// The input pixel of tap `(0, 0)` of output pixel `(oy, ox)`'s window: row and column,
    /// negative in the padding (what [`Self::window`] computes without the valid taps).
    #[inline(always)]
    pub(crate) fn origin(&self, oy: usize, ox: usize) -> [isize; 2] {
        [(oy * self.stride_height) as isize - self.pad_top as isize, (ox * self.stride_width) as isize - self.pad_left as isize]
    }

    /// Output column `ox`'s window columns: where tap column 0 falls and the tap columns
    /// inside the input (what [`Window::at`] adds to a row).
    #[inline(always)]
    pub(crate) fn window_cols(&self, ox: usize) -> (isize, core::ops::Range<usize>) {
        let [_, in_x0] = self.origin(0, ox);
        (in_x0, valid_taps(in_x0, self.dilation_width, self.filter_shape[2], self.input_shape[2]))
    }

    /// Output pixel `(b, oy, ox)`'s window.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn window(&self, b: usize, oy: usize, ox: usize) -> Window {
        self.window_row(b, oy).at(self, ox)
    }

    /// The output rows a call of `rows` computes, in order, as [`Self::window_row`]: every
    /// batch's for the whole tensor, else batch 0's `oy0..oy1` (as [`RowRange::fits`] admits).
    #[inline(always)]
    pub(crate) fn window_rows(&self, rows: RowRange) -> impl Iterator<Item = Window> + '_ {
        let batches = if rows == RowRange::whole(self.output_shape[1]) { self.input_shape[0] } else { 1 };
        // One range over the rows (not a nested iterator: less state in the callers' loops).
        let n = rows.oy1.saturating_sub(rows.oy0);
        (0..batches * n).map(move |i| self.window_row(i / n, rows.oy0 + i % n))
    }

    /// Every output pixel's window, in order (batch, row, column): the walk of the kernels
    /// that compute one pixel at a time.
    #[inline(always)]
    pub(crate) fn windows(&self) -> impl Iterator<Item = Window> + '_ {
        let out_w = self.output_shape[2];
        self.window_rows(RowRange::whole(self.output_shape[1])).flat_map(move |row| (0..out_w).map(move |ox| row.at(self, ox)))
    }
}

/// One output pixel's window on the input of a convolution-like operator (CONV_2D,
/// DEPTHWISE_CONV_2D, in every element type): where its tap `(0, 0)` falls, possibly in the
/// padding, and the taps inside the input, the only ones TFLite reads ("zero padding by
/// omitting the areas outside the image"). From [`ConvGeometry::window_row`] and
/// [`Window::at`]: the one output-window walk of the convolution kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// The output pixel's batch.
    pub(crate) b: usize,
    /// The output pixel's row.
    pub(crate) oy: usize,
    /// The output pixel's column.
    pub(crate) ox: usize,
    /// The input row of tap row 0 (negative above the input).
    pub(crate) in_y0: isize,
    /// The input column of tap column 0 (negative left of the input).
    pub(crate) in_x0: isize,
    /// The tap rows inside the input.
    pub(crate) ky: core::ops::Range<usize>,
    /// The tap columns inside the input.
    pub(crate) kx: core::ops::Range<usize>,
}

impl Window {
    /// This row's window at output column `ox`.
    #[inline(always)]
    pub(crate) fn at(&self, g: &ConvGeometry, ox: usize) -> Window {
        let (in_x0, kx) = g.window_cols(ox);
        Window { ox, in_x0, kx, ..self.clone() }
    }

    /// Whether every tap lies inside the input.
    #[inline(always)]
    pub(crate) fn interior(&self, g: &ConvGeometry) -> bool {
        self.ky.len() == g.filter_shape[1] && self.kx.len() == g.filter_shape[2]
    }

    /// The input row of tap row `ky` (one of [`Self::ky`]).
    #[inline(always)]
    pub(crate) fn iy(&self, g: &ConvGeometry, ky: usize) -> usize {
        (self.in_y0 + (g.dilation_height * ky) as isize) as usize
    }

    /// The input column of tap column `kx` (one of [`Self::kx`]).
    #[inline(always)]
    pub(crate) fn ix(&self, g: &ConvGeometry, kx: usize) -> usize {
        (self.in_x0 + (g.dilation_width * kx) as isize) as usize
    }

    /// The input pixel of tap `(ky, kx)` (both inside the input), counted from the input's
    /// start (times the input depth: its first element).
    #[inline(always)]
    pub(crate) fn input_pixel(&self, g: &ConvGeometry, ky: usize, kx: usize) -> usize {
        let [_, in_h, in_w, _] = g.input_shape;
        (self.b * in_h + self.iy(g, ky)) * in_w + self.ix(g, kx)
    }

    /// The output pixel, counted from the output's start (times the output depth: its first
    /// element).
    #[inline(always)]
    pub(crate) fn output_pixel(&self, g: &ConvGeometry) -> usize {
        let [_, out_h, out_w, _] = g.output_shape;
        (self.b * out_h + self.oy) * out_w + self.ox
    }
}

/// The geometry of AVERAGE_POOL_2D and MAX_POOL_2D (no dilation), computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolGeometry {
    /// Input shape `[batches, height, width, depth]` (NHWC); the output has the same
    /// batches and depth.
    pub input_shape: [usize; 4],
    /// Output height, in pixels.
    pub output_height: usize,
    /// Output width, in pixels.
    pub output_width: usize,
    /// Window height, in pixels.
    pub filter_height: usize,
    /// Window width, in pixels.
    pub filter_width: usize,
    /// Rows between two window positions.
    pub stride_height: usize,
    /// Columns between two window positions.
    pub stride_width: usize,
    /// Padding before the first row / column ([`crate::prepare::compute_padding`]).
    pub pad_top: usize,
    /// Padding before the first column.
    pub pad_left: usize,
}

impl PoolGeometry {
    /// Output elements.
    pub fn output_len(&self) -> usize {
        let [n, _, _, c] = self.input_shape;
        n * self.output_height * self.output_width * c
    }

    /// Every output pixel in order (batch, row, column): its first output element
    /// (`pixel * depth`), the batch, and its window clipped to the input
    /// ([`PoolGeometry::clipped`]). One walk for the x86-64 pooling kernels of both widths.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn windows(&self) -> impl Iterator<Item = (usize, usize, core::ops::Range<usize>, core::ops::Range<usize>)> + '_ {
        let [batches, _, _, depth] = self.input_shape;
        let (out_h, out_w) = (self.output_height, self.output_width);
        (0..batches).flat_map(move |b| {
            (0..out_h).flat_map(move |oy| {
                (0..out_w).map(move |ox| {
                    let (ys, xs) = self.clipped(oy, ox);
                    (((b * out_h + oy) * out_w + ox) * depth, b, ys, xs)
                })
            })
        })
    }

    /// The window of output `(oy, ox)` clipped to the input: rows `y0..y1`, columns
    /// `x0..x1` (TFLite's `filter_y_start..filter_y_end`, in input coordinates).
    #[inline(always)]
    pub(crate) fn clipped(&self, oy: usize, ox: usize) -> (core::ops::Range<usize>, core::ops::Range<usize>) {
        let [_, in_h, in_w, _] = self.input_shape;
        let clip = |o: usize, stride: usize, pad: usize, f: usize, size: usize| {
            let start = (o * stride) as isize - pad as isize;
            let s = start.max(0) as usize;
            let e = (start + f as isize).min(size as isize).max(0) as usize;
            s..e.max(s)
        };
        (
            clip(oy, self.stride_height, self.pad_top, self.filter_height, in_h),
            clip(ox, self.stride_width, self.pad_left, self.filter_width, in_w),
        )
    }
}

/// The part of a window operator one call computes: output rows `oy0..oy1` (batch 1), its
/// input slice starting at input row `r0` (the overlap row driver's calls,
/// `kernels::overlap::conv_row_ranges`); [`RowRange::whole`] for the whole tensor. Kernels
/// taking one keep the full geometry (a constant the compiler specialises them on) and
/// only shift their row loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowRange {
    /// First output row computed.
    pub oy0: usize,
    /// One past the last output row computed.
    pub oy1: usize,
    /// The input row the call's input slice starts at.
    pub r0: usize,
}

impl RowRange {
    /// Every output row of every batch, the input from row 0.
    pub const fn whole(out_h: usize) -> RowRange {
        RowRange { oy0: 0, oy1: out_h, r0: 0 }
    }

    /// Whether a call of these rows is well formed for `g` (`batches` other than 1 only for
    /// the whole tensor) and `input_len` elements from input row `r0` hold every input row
    /// its windows read (rows outside the input are padding, never read).
    pub(crate) fn fits(&self, g: &ConvGeometry, input_len: usize) -> bool {
        let [batches, in_h, in_w, in_d] = g.input_shape;
        let out_h = g.output_shape[1];
        let row = in_w * in_d;
        if batches != 1 {
            return *self == RowRange::whole(out_h) && input_len >= batches * in_h * row;
        }
        if self.oy0 > self.oy1 || self.oy1 > out_h {
            return false;
        }
        if self.oy0 == self.oy1 {
            return true;
        }
        let top = ((self.oy0 * g.stride_height) as isize - g.pad_top as isize).clamp(0, in_h as isize) as usize;
        let bottom = (self.oy1 - 1) * g.stride_height + g.dilation_height * g.filter_shape[1].saturating_sub(1) + 1;
        let bottom = bottom.saturating_sub(g.pad_top).min(in_h);
        self.r0 <= top && (bottom <= self.r0 || (bottom - self.r0) * row <= input_len)
    }
}

/// The filter taps `k` in `0..taps` whose input coordinate `origin + dilation * k` lies in
/// `0..size`: TFLite's "zero padding by omitting the areas outside the image", as one range.
#[inline]
pub(crate) fn valid_taps(origin: isize, dilation: usize, taps: usize, size: usize) -> core::ops::Range<usize> {
    let d = dilation as isize;
    // First k with origin + d*k >= 0, i.e. k >= ceil(-origin / d).
    let start = if origin >= 0 { 0 } else { ((-origin + d - 1) / d) as usize }.min(taps);
    // First k with origin + d*k >= size.
    let end = if origin >= size as isize { 0 } else { ((size as isize - origin + d - 1) / d) as usize }.min(taps);
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::valid_taps;
    use std::vec::Vec;

    #[test]
    fn valid_taps_matches_brute_force() {
        for origin in -12isize..12 {
            for dilation in 1..4 {
                for taps in 0..5 {
                    for size in 0..8 {
                        let brute: Vec<usize> =
                            (0..taps).filter(|&k| (0..size as isize).contains(&(origin + (dilation * k) as isize))).collect();
                        let got: Vec<usize> = valid_taps(origin, dilation, taps, size).collect();
                        assert_eq!(got, brute, "origin {origin} dilation {dilation} taps {taps} size {size}");
                    }
                }
            }
        }
    }
}
