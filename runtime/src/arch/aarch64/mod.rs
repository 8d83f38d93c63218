//! aarch64 NEON kernels: the packed float32 variants ([`f32`]). (The int8 NEON code is the
//! `kernels::dot::neon::Neon` micro-kernel type under the portable loop nests.)

pub(crate) mod f32;
