//! RESIZE_NEAREST_NEIGHBOR (NHWC, rank 4) to the constant int32 `size = [height, width]`.
//! TFLite Micro `resize_nearest_neighbor.cc` + `reference_ops::ResizeNearestNeighbor`:
//! the source row and column of every output row and column depend only on the sizes and
//! the `align_corners` / `half_pixel_centers` flags, so they are computed here (with
//! TFLite's f32 arithmetic, in the runtime's `nearest_neighbor_index`) and stored as
//! element offsets; the kernel copies pixels. Any movable element type.

use super::movement::{get, kernel_fn, lower_resize, movable_dtype, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, ResizeOptions, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::resize_nearest_neighbor::{
    prepare_resize_nearest_neighbor, resize_nearest_neighbor, ResizeNearestNeighborParams,
};

crate::runtime_struct_lit!(kernels::resize_nearest_neighbor::ResizeNearestNeighborParams<'a> {
    batches,
    depth,
    input_batch_stride,
    row_offsets,
    col_offsets,
});

/// Owns the offset tables its `ResizeNearestNeighborParams` borrows ([`Self::params`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ResizeNearestNeighbor {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub input_len: usize,
    pub output_len: usize,
    pub batches: usize,
    pub depth: usize,
    pub input_batch_stride: usize,
    pub row_offsets: Vec<usize>,
    pub col_offsets: Vec<usize>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &ResizeOptions) -> Result<ResizeNearestNeighbor, LowerError> {
    let r = lower_resize(cx)?;
    let dtype = movable_dtype(cx, r.input)?;
    let ([batches, ih, iw, depth], [oh, ow]) = (r.input_shape, r.output_hw);
    let mut row_offsets = vec![0; oh];
    let mut col_offsets = vec![0; ow];
    prepare_resize_nearest_neighbor(ih, iw, depth, o.align_corners, o.half_pixel_centers, &mut row_offsets, &mut col_offsets);
    Ok(ResizeNearestNeighbor {
        input: r.input.id,
        output: r.output.id,
        dtype,
        input_len: r.input.num_elements(),
        output_len: r.output.num_elements(),
        batches,
        depth,
        input_batch_stride: ih * iw * depth,
        row_offsets,
        col_offsets,
    })
}

impl ResizeNearestNeighbor {
    pub fn params(&self) -> ResizeNearestNeighborParams<'_> {
        ResizeNearestNeighborParams {
            batches: self.batches,
            depth: self.depth,
            input_batch_stride: self.input_batch_stride,
            row_offsets: &self.row_offsets,
            col_offsets: &self.col_offsets,
        }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.input_len {
            return Err(ExecError(format!("RESIZE_NEAREST_NEIGHBOR: input {} has {} elements", self.input, x.len())));
        }
        let mut y = vec![T::default(); self.output_len];
        resize_nearest_neighbor(&self.params(), x, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for ResizeNearestNeighbor {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::resize_nearest_neighbor::ResizeNearestNeighborParams<'static> }, &self.params());
        let f = kernel_fn(cx, "resize_nearest_neighbor", "resize_nearest_neighbor", self.dtype);
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, ResizeOptions, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], size: &[i32], out_shape: &[usize], o: ResizeOptions) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.02, 2)));
        let s = b.constant_i32("size", &[size.len()], size, None);
        let y = b.activation("y", DType::I8, out_shape, Some((0.02, 2)));
        b.op(OpKind::ResizeNearestNeighbor(o), &[Some(x), Some(s)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// Runs a 1 x ih x iw x 1 image holding `0, 1, 2, ...` and returns the source index of
    /// every output pixel.
    fn sources(ih: usize, iw: usize, oh: usize, ow: usize, align_corners: bool, half_pixel_centers: bool) -> Vec<i8> {
        let (bytes, x, y) = model(&[1, ih, iw, 1], &[oh as i32, ow as i32], &[1, oh, ow, 1], ResizeOptions { align_corners, half_pixel_centers });
        let s = run_op0(&bytes, &[(x, TensorData::I8((0..(ih * iw) as i8).collect()))]);
        i8_of(&s, y)
    }

    #[test]
    fn flag_combinations_hand_computed() {
        // 2x upscale, no flags: floor(y * 0.5).
        assert_eq!(sources(2, 2, 4, 4, false, false), vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
        // 1 x 3 -> 1 x 5, align_corners: round(x * 0.5) = 0, 1 (0.5 rounds away), 1, 2 (1.5), 2.
        assert_eq!(sources(1, 3, 1, 5, true, false), vec![0, 1, 1, 2, 2]);
        // 1 x 3 -> 1 x 5, half_pixel_centers: floor((x + 0.5) * 0.6) = 0, 0, 1, 2, 2.
        assert_eq!(sources(1, 3, 1, 5, false, true), vec![0, 0, 1, 2, 2]);
        // 1 x 4 -> 1 x 2 downscale: floor(x * 2) = 0, 2.
        assert_eq!(sources(1, 4, 1, 2, false, false), vec![0, 2]);
        // 1 x 4 -> 1 x 3, both flags: round((x + 0.5) * 1.5) = round(0.75) 1, round(2.25) 2, round(3.75) 4 -> min 3.
        assert_eq!(sources(1, 4, 1, 3, true, true), vec![1, 2, 3]);
    }

    #[test]
    fn batches_and_channels_copy_whole_pixels() {
        let (bytes, x, y) = model(&[2, 1, 2, 3], &[2, 3], &[2, 2, 3, 3], ResizeOptions::default());
        let data = i8s(6, 12);
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        // Column sources floor(x * 2/3) = 0, 0, 1; rows both from row 0.
        let mut want = Vec::new();
        for b in 0..2 {
            for _ in 0..2 {
                for c in [0, 0, 1] {
                    want.extend_from_slice(&data[b * 6 + c * 3..b * 6 + c * 3 + 3]);
                }
            }
        }
        assert_eq!(i8_of(&s, y), want);
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains("row_offsets : & [0 , 0]") && text.contains("col_offsets : & [0 , 0 , 3]"), "{text}");
        assert!(text.contains("resize_nearest_neighbor :: resize_nearest_neighbor_s8 (& P0"), "{text}");
    }

    #[test]
    fn malformed_variants_are_errors() {
        let o = ResizeOptions::default();
        assert!(matches!(lower_err(&model(&[1, 2, 2, 1], &[4, 4], &[1, 4, 3, 1], o.clone()).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 2, 2, 1], &[4], &[1, 4, 4, 1], o.clone()).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 2, 2, 1], &[0, 4], &[1, 0, 4, 1], o.clone()).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 2, 1], &[4, 4], &[4, 4, 1], o).0), LowerError::Unsupported { .. }));
    }
}
