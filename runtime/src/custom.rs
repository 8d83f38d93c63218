//! Custom operators: what a generated model hands the caller's kernels.
//!
//! A model with CUSTOM operators that tflc has no kernel for compiles into a module with a
//! trait, `CustomOps`, with one method per distinct custom code (`docs/CUSTOM_OPS.md`). Its
//! `run` takes the implementation (`model.run(&mut my_ops)`) and calls the method for each
//! such operator with:
//! - `op: &'static CustomOpInfo`: which operator (its index, code, options), and for each
//!   input and output its element type, shape and quantization, all known at compile time;
//! - one typed view per input (`&[i8]`, `&[f32]`, ...; a constant input reads the weights in
//!   flash) and per output (`&mut [i8]`, ...), never overlapping one another;
//! - `scratch: &mut [u8]` when the code was given scratch bytes (`--custom-scratch NAME=BYTES`).
//!
//! The method returns `Ok(())` or a [`CustomOpError`]; `run` then stops and returns
//! [`CustomOpFailed`], naming the operator (TFLite Micro's kernels return a `TfLiteStatus`
//! the same way).

/// One input or output tensor of a custom operator, as the compiler knows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TensorInfo {
    /// The tensor's index in the model (`tflc inspect`, Netron).
    pub index: u32,
    /// Its name in the model (shortened as in the generated comments).
    pub name: &'static str,
    /// TFLite's element type name: `"int8"`, `"float32"`, `"bool"` (one byte per element).
    pub dtype: &'static str,
    /// Its shape (`[]` for a scalar).
    pub shape: &'static [usize],
    /// Quantization scales: one per tensor, one per channel, or none when not quantized.
    pub scale: &'static [f32],
    /// Quantization zero points, one per scale.
    pub zero_point: &'static [i64],
    /// The axis of per-channel quantization.
    pub quantized_dimension: u32,
    /// Whether the tensor is a constant (its view reads the weights in flash).
    pub constant: bool,
}

impl TensorInfo {
    /// The number of elements: the product of the shape (1 for a scalar).
    pub const fn num_elements(&self) -> usize {
        let mut n = 1;
        let mut i = 0;
        while i < self.shape.len() {
            n *= self.shape[i];
            i += 1;
        }
        n
    }

    /// The per-tensor scale and zero point (`real = scale * (q - zero_point)`), when the
    /// tensor is quantized per tensor.
    pub fn per_tensor(&self) -> Option<(f32, i64)> {
        match (self.scale, self.zero_point) {
            ([s], [z]) => Some((*s, *z)),
            _ => None,
        }
    }
}

/// One custom operator of a generated model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CustomOpInfo {
    /// The operator's index in the model.
    pub index: u32,
    /// Its custom code (`"MyOp"`).
    pub code: &'static str,
    /// Its inputs, in order (as the views the method receives).
    pub inputs: &'static [TensorInfo],
    /// Its outputs, in order.
    pub outputs: &'static [TensorInfo],
    /// Its custom options, as stored in the model: often a FlexBuffer map
    /// ([`crate::flexbuffers::Map::parse`]), sometimes a raw struct; empty when it has none.
    pub options: &'static [u8],
}

/// A custom operator's kernel failed (TFLite Micro's `kTfLiteError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CustomOpError {
    /// Why, in the kernel's words.
    pub reason: &'static str,
}

impl CustomOpError {
    /// An error saying `reason`.
    pub const fn new(reason: &'static str) -> Self {
        Self { reason }
    }
}

impl core::fmt::Display for CustomOpError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason)
    }
}

/// What `run` of a model with custom operators returns when one of them failed: the
/// operator, and its error. The operators after it did not run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CustomOpFailed {
    /// The operator that failed.
    pub op: &'static CustomOpInfo,
    /// Its kernel's error.
    pub error: CustomOpError,
}

impl core::fmt::Display for CustomOpFailed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "op {} (CUSTOM:{}) failed: {}", self.op.index, self.op.code, self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_info_helpers() {
        const T: TensorInfo =
            TensorInfo { index: 3, name: "x", dtype: "int8", shape: &[1, 2, 3], scale: &[0.5], zero_point: &[-1], quantized_dimension: 0, constant: false };
        const N: usize = T.num_elements();
        assert_eq!(N, 6);
        assert_eq!(T.per_tensor(), Some((0.5, -1)));
        let f = TensorInfo { scale: &[], zero_point: &[], shape: &[], dtype: "float32", ..T };
        assert_eq!((f.num_elements(), f.per_tensor()), (1, None));
        static OP: CustomOpInfo = CustomOpInfo { index: 2, code: "Mine", inputs: &[], outputs: &[], options: &[] };
        let e = CustomOpFailed { op: &OP, error: CustomOpError::new("bad shape") };
        assert_eq!(std::format!("{e}"), "op 2 (CUSTOM:Mine) failed: bad shape");
    }
}
