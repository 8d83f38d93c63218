//! Kernels, one module per TFLite builtin: `kernels::<op>::<op>_<dtype>`.

pub mod nd;
#[cfg(test)]
pub(crate) mod test_util;

// Elementwise and data-movement kernels (branch k2).
pub mod add;
pub mod maximum;
pub mod minimum;
pub mod mul;
pub mod prelu;
pub mod sub;
pub mod dequantize;
pub mod leaky_relu;
pub mod quantize;
pub mod relu;
pub mod slice;
pub mod strided_slice;
pub mod transpose;
pub mod concatenation;
pub mod pack;
pub mod pad;
pub mod split;
pub mod split_v;
pub mod unpack;
pub mod reshape;
pub mod resize_bilinear;
pub mod resize_nearest_neighbor;
