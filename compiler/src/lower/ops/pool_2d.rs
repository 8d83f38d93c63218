//! What AVERAGE_POOL_2D and MAX_POOL_2D share: TFLite Micro `pooling_common.cc`
//! (`PoolingPrepare`): padding from `ComputePaddingHeightWidth` without dilation, input and
//! output quantization equal (`|scale_in - scale_out| <= 1e-6`, same zero point; there is no
//! requantization), the fused activation as a clamp in the output quantization, every
//! window overlapping the input.

use super::conv_common::{clamp_u8, clamp_f32, clamp_s16, clamp_s8, positive, rt_padding, SchemeKind};
use super::{ExecError, OpCx};
use crate::error::LowerError;
use crate::ir::{Pool2dOptions, TensorId};
use tflc_runtime::kernels::numerics::Clamp;
use tflc_runtime::kernels::window::PoolGeometry;
use tflc_runtime::prepare::compute_padding;

/// The compile-time part of a pooling op (AVERAGE_POOL_2D and MAX_POOL_2D): its tensors,
/// geometry and the clamp of its scheme.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool2d {
    pub input: TensorId,
    pub output: TensorId,
    pub geometry: PoolGeometry,
    pub clamp: PoolClamp,
}

/// The fused-activation clamp per quantization scheme (the only per-scheme parameter of a
/// pool: input and output quantization are equal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PoolClamp {
    S8(Clamp<i8>),
    S16(Clamp<i16>),
    F32(Clamp<f32>),
    U8(Clamp<u8>),
}

/// Checks and prepares a pooling op with options `o` (TFLite Micro `PoolingPrepare`).
pub(crate) fn lower_pool(cx: &OpCx<'_, '_>, o: &Pool2dOptions) -> Result<Pool2d, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let (kind, in_q, out_q) = SchemeKind::of(cx, input, output)?;
    if ((in_q.scale - out_q.scale).abs() as f64) > 1.0e-6 || in_q.zero_point != out_q.zero_point {
        return Err(cx.unsupported_tensor(
            output,
            format!(
                "output quantization (scale={} zp={}) differs from the input's (scale={} zp={}); TFLite Micro requires them equal",
                out_q.scale, out_q.zero_point, in_q.scale, in_q.zero_point
            ),
        ));
    }
    let input_shape = cx.shape4(input)?;
    let output_shape = cx.shape4(output)?;
    let [batches, in_h, in_w, depth] = input_shape;
    let filter = [
        positive(cx, "filter_height", o.filter_h)?,
        positive(cx, "filter_width", o.filter_w)?,
    ];
    let stride = [
        positive(cx, "stride_h", o.stride_h)?,
        positive(cx, "stride_w", o.stride_w)?,
    ];
    let padding = rt_padding(cx, o.padding)?;
    let (oh, pad_top) = compute_padding(padding, in_h, filter[0], stride[0], 1)
        .ok_or_else(|| cx.invalid("the window does not fit the input height"))?;
    let (ow, pad_left) = compute_padding(padding, in_w, filter[1], stride[1], 1)
        .ok_or_else(|| cx.invalid("the window does not fit the input width"))?;
    if oh == 0 || ow == 0 {
        return Err(cx.invalid(format!(
            "the {}x{} window does not fit the {in_h}x{in_w} input",
            filter[0], filter[1]
        )));
    }
    if output_shape != [batches, oh, ow, depth] {
        return Err(cx.invalid_tensor(
            output,
            format!(
                "output shape {output_shape:?}, but the options give {:?}",
                [batches, oh, ow, depth]
            ),
        ));
    }
    // Every window must overlap the input (the average kernel divides by the cells inside;
    // TFLite Micro fails the op otherwise). ComputePadding guarantees it; check anyway.
    for (out, inp, f, s, p) in [
        (oh, in_h, filter[0], stride[0], pad_top),
        (ow, in_w, filter[1], stride[1], pad_left),
    ] {
        for o in 0..out {
            let start = (o * s) as i64 - p as i64;
            if start >= inp as i64 || start + f as i64 <= 0 {
                return Err(cx.invalid(format!("pooling window {o} lies entirely in the padding")));
            }
        }
    }
    let clamp = match kind {
        SchemeKind::S8 => PoolClamp::S8(clamp_s8(cx, o.activation, out_q)?),
        SchemeKind::S16 => PoolClamp::S16(clamp_s16(cx, o.activation, out_q)?),
        // float32 tensors are unquantized: the equality above holds trivially.
        SchemeKind::F32 => PoolClamp::F32(clamp_f32(cx, o.activation)?),
        SchemeKind::U8 => PoolClamp::U8(clamp_u8(cx, o.activation, out_q)?),
    };
    let geometry = PoolGeometry {
        input_shape,
        output_height: oh,
        output_width: ow,
        filter_height: filter[0],
        filter_width: filter[1],
        stride_height: stride[0],
        stride_width: stride[1],
        pad_top,
        pad_left,
    };
    Ok(Pool2d { input: input.id, output: output.id, geometry, clamp })
}

impl Pool2d {
    pub(crate) fn output_len(&self) -> usize {
        self.geometry.output_len()
    }

    pub(crate) fn input_len(&self) -> usize {
        self.geometry.input_shape.iter().product()
    }

    /// The input in the store has the lowered shape's element count (`what` names the op).
    pub(crate) fn check_input(&self, what: &str, len: usize) -> Result<(), ExecError> {
        if len != self.input_len() {
            return Err(ExecError(format!("{what}: input has {len} elements, expected {}", self.input_len())));
        }
        Ok(())
    }
}

