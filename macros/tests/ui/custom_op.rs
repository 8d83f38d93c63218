// A model with an operator tflc cannot compile: the error names op index and opcode.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/custom_op.tflite");
}
fn main() {}
