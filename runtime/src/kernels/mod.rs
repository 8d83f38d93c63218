//! Kernels, one module per TFLite builtin: `kernels::<op>::<op>_<dtype>`.

pub mod nd;
#[cfg(test)]
pub(crate) mod test_util;

// Elementwise, broadcasting binary and data-movement kernels.
pub mod add;
pub mod cast;
pub mod div;
pub mod maximum;
pub mod minimum;
pub mod accumulate;
pub mod arg_min_max;
pub mod comparison;
pub mod logical;
pub mod select;
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
// Layout and indexing (issue 14).
pub mod batch_to_space_nd;
pub mod broadcast_args;
pub mod broadcast_to;
pub mod circular_buffer;
pub mod depth_to_space;
pub mod dynamic_update_slice;
pub mod embedding_lookup;
pub mod detection_postprocess;
pub mod fill;
pub mod gather;
pub mod gather_nd;
pub mod mirror_pad;
pub mod reverse_v2;
pub mod space_to_batch_nd;
pub mod space_to_depth;
pub mod zeros_like;
// Elementwise math (issue 14).
pub mod elementwise;

// Convolution, pooling, reduction, recurrent and activation kernels.
pub mod average_pool_2d;
pub mod conv_2d;
pub mod depthwise_conv_2d;
pub mod fully_connected;
pub mod lut;
pub mod int4;
pub mod hard_swish;
pub mod logistic;
pub mod max_pool_2d;
pub mod mean;
pub mod reduce;
pub mod softmax;
pub mod signal;
pub mod svdf;
pub mod tanh;
pub mod unidirectional_sequence_lstm;
// Convolution family (issue 14).
pub mod batch_matmul;
pub mod l2_pool_2d;
pub mod transpose_conv;
// MediaPipe's custom operators (issue 28).
pub mod convolution_2d_transpose_bias;
pub mod max_pooling_with_argmax_2d;
pub mod max_unpooling_2d;
pub mod landmarks_to_transform_matrix;
pub mod transform_landmarks;
pub mod transform_tensor_bilinear;
// The numerics seam, the sliding-window geometry, and the ISA seam (dot micro-kernels) of
// the convolution, fully-connected and pooling kernels; see docs/KERNELS.md.
pub(crate) mod dot;
pub(crate) mod f32x8;
pub mod numerics;
pub mod blocked_f32;
pub(crate) mod requant;
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) mod rows;
pub mod window;
pub mod overlap;
