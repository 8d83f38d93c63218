use super::*;
use crate::kernels::test_util::{all_i8, extremes, kernel_tests, zero_point, KernelCase, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
use std::vec::Vec;

type Kernel = fn(&DequantizeParams, &[i8], &mut [f32]);

#[derive(Clone, Debug)]
struct Dequantize {
    scale: f32,
    zero_point: i32,
    input: Vec<i8>,
}

impl KernelCase for Dequantize {
    type Kernel = Kernel;
    /// The f32 bit patterns.
    type Output = Vec<u32>;
    const REFERENCE: Kernel = scalar::dequantize_s8_f32;

    fn strategy() -> BoxedStrategy<Self> {
        let input = prop_oneof![Just(all_i8()), (0usize..=70, any::<u64>()).prop_map(|(n, seed)| Rng(seed).i8s(n))];
        (0x3000_0000u32..0x4000_0000, zero_point(), input)
            .prop_map(|(bits, zero_point, input)| Dequantize { scale: f32::from_bits(bits), zero_point, input })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // The smallest normal and the largest finite scale, and 1.
        for scale in [f32::MIN_POSITIVE, 1.0, f32::MAX] {
            for zero_point in [-128, 0, 127] {
                v.push(Dequantize { scale, zero_point, input: Vec::new() });
                v.push(Dequantize { scale, zero_point, input: all_i8() });
                for n in LANE_TAILS {
                    v.push(Dequantize { scale, zero_point, input: extremes(n) });
                }
            }
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<u32>, String> {
        let p = DequantizeParams { scale: self.scale, zero_point: self.zero_point };
        let mut out = std::vec![0f32; self.input.len()];
        kernel(&p, &self.input, &mut out);
        Ok(out.iter().map(|v| v.to_bits()).collect())
    }

    /// Bit-identical to TFLite's `static_cast<float>(double(scale) * (x - zp))`.
    fn check(&self, out: &Vec<u32>) -> Result<(), String> {
        for (&x, &y) in self.input.iter().zip(out) {
            let want = (self.scale as f64 * (x as i32 - self.zero_point) as f64) as f32;
            if y != want.to_bits() {
                return Err(std::format!("x = {x}: got {}, want {want}", f32::from_bits(y)));
            }
        }
        if out.len() == self.input.len() { Ok(()) } else { Err(std::format!("{} outputs for {} inputs", out.len(), self.input.len())) }
    }
}

kernel_tests!(impl_scalar, Dequantize, scalar::dequantize_s8_f32);
kernel_tests!(impl_dispatch, if true, Dequantize, dequantize_s8_f32);

/// int16 and uint8: every input value at several scales and zero points (the type's
/// extremes included), bit for bit TFLite's `static_cast<float>(double(scale) * (x - zp))`.
#[test]
fn int16_and_uint8_every_value() {
    let scales = [f32::MIN_POSITIVE, 3.0517578e-5, 0.0372, 1.0, 117.25, 1e30, f32::MAX];
    let all16: Vec<i16> = (i16::MIN..=i16::MAX).collect();
    let all8: Vec<u8> = (0..=255).collect();
    for scale in scales {
        for zero_point in [i16::MIN as i32, -7, 0, 1234, i16::MAX as i32] {
            let p = DequantizeParams { scale, zero_point };
            let mut out = std::vec![0f32; all16.len()];
            dequantize_s16_f32(&p, &all16, &mut out);
            for (&x, &y) in all16.iter().zip(&out) {
                let want = (scale as f64 * (x as i32 - zero_point) as f64) as f32;
                assert_eq!(y.to_bits(), want.to_bits(), "int16 {x}, scale {scale}, zp {zero_point}");
            }
        }
        for zero_point in [0, 1, 128, 255] {
            let p = DequantizeParams { scale, zero_point };
            let mut out = [0f32; 256];
            dequantize_u8_f32(&p, &all8, &mut out);
            for (&x, &y) in all8.iter().zip(&out) {
                let want = (scale as f64 * (x as i32 - zero_point) as f64) as f32;
                assert_eq!(y.to_bits(), want.to_bits(), "uint8 {x}, scale {scale}, zp {zero_point}");
            }
        }
    }
}
