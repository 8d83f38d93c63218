//! ARG_MAX: the index of the maximum along one axis ([`super::arg_min_max`]).

use super::arg_min_max::{lower_arg_min_max, ArgMinMax};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<ArgMinMax, LowerError> {
    lower_arg_min_max(cx, true)
}

#[cfg(test)]
mod tests {
    use crate::ir::OpKind;

    #[test]
    fn against_tflite_micro() {
        super::super::arg_min_max::tests::check_all(OpKind::ArgMax, "arg_max", VECTORS);
    }

    const VECTORS: &[(&str, &[i32])] = &[
        ("arg_max_f32_0", &[0, 2, 0, 1, 0, 4, 4, 4, 0, 1, 5, 5, 2, 0, 5, 0, 0, 3, 0, 1]),
        ("arg_max_f32_1", &[0, 3, 0, 0, 4, 0, 4, 0, 4, 3, 4, 3, 4, 1, 0, 4, 2, 0, 0, 2, 0, 0, 0, 0]),
        ("arg_max_f32_2", &[0, 3, 3]),
        ("arg_max_f32_3", &[0]),
        ("arg_max_f32_4", &[0, 0, 0, 0, 0, 0]),
        ("arg_max_s8_0", &[1, 0, 2, 0, 0, 3, 5, 5, 3, 5, 3, 1, 3, 4, 1, 5, 4, 5, 0, 0]),
        ("arg_max_s8_1", &[0, 1, 4, 3, 0, 0, 2, 0, 1, 2, 3, 3, 3, 0, 2, 1, 0, 1, 2, 3, 0, 1, 1, 2]),
        ("arg_max_s8_2", &[0, 1, 4]),
        ("arg_max_s8_3", &[4]),
        ("arg_max_s8_4", &[0, 0, 0, 0, 0, 0]),
    ];
}
