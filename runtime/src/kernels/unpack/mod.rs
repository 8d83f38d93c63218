//! UNPACK, any element type: output `k` is `input[.., k, ..]` along `axis` (the axis is
//! dropped from the output's shape, which does not change its data). Mirrors TFLite
//! Micro `unpack.cc`. Each output is one [`SplitParams`] strided copy.

#[cfg(feature = "prepare")]
use crate::kernels::nd::GatherPlan;
pub use crate::kernels::split::{split as unpack, split_all as unpack_all, split_s8 as unpack_s8, SplitParams};

/// UNPACK parameters of one output.
pub type UnpackParams<'a> = SplitParams<'a>;

/// Compile-time: the strided copy for output `index` of UNPACK along `axis` (resolved).
#[cfg(feature = "prepare")]
pub fn prepare_unpack_output(input_shape: &[usize], axis: usize, index: usize) -> Option<GatherPlan> {
    crate::kernels::split::prepare_split_output(input_shape, axis, index, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpack_axis0_and_axis1() {
        let input: [u32; 6] = [0, 1, 2, 3, 4, 5]; // [2, 3]
        let mut out = [0u32; 3];
        unpack(&prepare_unpack_output(&[2, 3], 0, 1).unwrap().as_params(), &input, &mut out);
        assert_eq!(out, [3, 4, 5]);
        let mut out = [0u32; 2];
        unpack(&prepare_unpack_output(&[2, 3], 1, 2).unwrap().as_params(), &input, &mut out);
        assert_eq!(out, [2, 5]);
    }
}
