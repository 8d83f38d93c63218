//! ARG_MIN: the index of the minimum along one axis ([`super::arg_min_max`]).

use super::arg_min_max::{lower_arg_min_max, ArgMinMax};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<ArgMinMax, LowerError> {
    lower_arg_min_max(cx, false)
}

#[cfg(test)]
mod tests {
    use crate::ir::OpKind;

    #[test]
    fn against_tflite_micro() {
        super::super::arg_min_max::tests::check_all(OpKind::ArgMin, "arg_min", VECTORS);
    }

    const VECTORS: &[(&str, &[i32])] = &[
        ("arg_min_f32_0", &[0, 0, 5, 3, 3, 3, 0, 0, 5, 5, 1, 4, 1, 0, 2, 4, 0, 5, 5, 4]),
        ("arg_min_f32_1", &[0, 0, 3, 1, 3, 1, 1, 0, 0, 0, 0, 2, 0, 4, 0, 1, 1, 3, 2, 0, 2, 0, 3, 3]),
        ("arg_min_f32_2", &[0, 4, 1]),
        ("arg_min_f32_3", &[0]),
        ("arg_min_f32_4", &[0, 0, 0, 0, 0, 0]),
        ("arg_min_s8_0", &[0, 4, 5, 5, 4, 2, 1, 1, 5, 3, 0, 2, 4, 0, 0, 4, 2, 4, 1, 5]),
        ("arg_min_s8_1", &[2, 2, 0, 0, 2, 4, 1, 1, 0, 4, 0, 2, 0, 1, 1, 2, 1, 0, 4, 1, 3, 2, 0, 0]),
        ("arg_min_s8_2", &[2, 0, 2]),
        ("arg_min_s8_3", &[0]),
        ("arg_min_s8_4", &[0, 0, 0, 0, 0, 0]),
    ];
}
