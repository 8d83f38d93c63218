//! AVX2 CONV_2D int8, the `Pointwise` and `Window` variants, reading the model's OHWI filter
//! and the variants' folded bias (`Conv2dVariant::pack`) as they are: the one set of
//! row-product drivers (`crate::kernels::rows`) with the AVX2 micro-kernel
//! ([`super::gemm::Avx2Rows`]).

use super::gemm::{entries, Avx2Rows};
use super::{Avx2, Requant8};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;
use crate::kernels::rows::fits_window;

/// `Conv2dVariant::Pointwise` (1x1, no padding, every window inside the input).
pub(crate) fn conv_2d_pointwise(t: Avx2, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = Avx2Rows { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entries::pointwise(&k, p, input, filter, packed, output) }
}

/// `Conv2dVariant::Window`: any ungrouped window (longer than `rows::GATHER_MAX`: the
/// portable form).
pub(crate) fn conv_2d_window(t: Avx2, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    if !fits_window(p) {
        return crate::kernels::conv_2d::fast::conv_window::<crate::isa::Dot>(p, input, filter, bias, packed, output);
    }
    let k = Avx2Rows { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entries::gathered(&k, p, input, filter, packed, output) }
}
