//! Kernels, one module per TFLite builtin: `kernels::<op>::<op>_<dtype>`.
