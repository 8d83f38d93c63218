use super::*;
use proptest::prelude::*;

proptest! {
    /// Bit-identical to TFLite's `static_cast<float>(double(scale) * (x - zp))`.
    #[test]
    fn matches_double_path(scale_bits in 0x3000_0000u32..0x4000_0000, zp in -128i32..128) {
        let scale = f32::from_bits(scale_bits);
        let p = DequantizeParams { scale, zero_point: zp };
        let input: std::vec::Vec<i8> = (-128..=127).map(|v| v as i8).collect();
        let mut out = [0f32; 256];
        dequantize_s8_f32(&p, &input, &mut out);
        for (&x, &y) in input.iter().zip(&out) {
            let want = (scale as f64 * (x as i32 - zp) as f64) as f32;
            prop_assert_eq!(y.to_bits(), want.to_bits());
        }
    }
}
