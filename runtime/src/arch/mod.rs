//! Host SIMD implementations of the int8 convolution family (issue 15), one module per
//! instruction-set family. Each is reached only through [`crate::isa`], the one place that
//! selects, with a zero-sized token that proves the CPU executes it (detection at first use,
//! or the build's `target_feature`). They read the packed layouts of the portable variants
//! (`<Op>Variant::pack`, which do not depend on the build host) and the model's own filter
//! layouts; nothing here changes what the compiler emits. Every function keeps a scalar
//! reference: the variant functions of `kernels::<op>` with `kernels::dot::scalar::Scalar`,
//! which the one test suite compares them with bit for bit.

pub(crate) mod lut;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(tflc_neon)]
pub(crate) mod aarch64;
