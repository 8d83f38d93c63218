// A model with an operator tflc cannot compile (a custom operator whose output shape is
// unknown at compile time): the error names op index, opcode and tensor.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/custom_op.tflite");
}
fn main() {}
