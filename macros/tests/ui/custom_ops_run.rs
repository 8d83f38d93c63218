// A model with custom operators tflc has no kernel for: the module asks for them through its
// `CustomOps` trait, `run` takes the implementation, and `custom_scratch` gives one scratch.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/custom_ops.tflite", custom_scratch = "ClampI8=16");
}

use tflc_runtime::custom::{CustomOpError, CustomOpInfo};

struct Ops;

impl m::CustomOps for Ops {
    fn scale_shift(&mut self, op: &'static CustomOpInfo, x: &[f32], w: &[f32], y: &mut [f32]) -> Result<(), CustomOpError> {
        let map = tflc_runtime::flexbuffers::Map::parse(op.options).map_err(|_| CustomOpError::new("options"))?;
        let add = map.get("add").and_then(|v| v.as_f32()).unwrap_or(0.0);
        for (i, (x, y)) in x.iter().zip(y.iter_mut()).enumerate() {
            *y = x * w[i % w.len()] + add;
        }
        Ok(())
    }

    fn clamp_i8(&mut self, _op: &'static CustomOpInfo, x: &[i8], y: &mut [i8], scratch: &mut [u8]) -> Result<(), CustomOpError> {
        assert_eq!(scratch.len(), 16);
        for (x, y) in x.iter().zip(y.iter_mut()) {
            *y = (*x).clamp(-20, 50);
        }
        Ok(())
    }
}

fn main() {
    let mut model = m::Model::new();
    model.input_0().copy_from_slice(&[1.0; 8]);
    model.input_1().copy_from_slice(&[-100, -20, 0, 20, 50, 60, 127, -128]);
    model.run(&mut Ops).unwrap();
    assert_eq!(model.output_1(), &[-20, -20, 0, 20, 50, 50, 50, -20]);
    assert_eq!(m::CUSTOM_0.code, "ScaleShift");
}
