//! Kernels, one module per TFLite builtin: `kernels::<op>::<op>_<dtype>`.

pub mod nd;
#[cfg(test)]
pub(crate) mod test_util;

// Elementwise and data-movement kernels (branch k2).
pub mod add;
