// An element type tflc does not compile yet: the error names the op and the tensor.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/int16_conv.tflite");
}
fn main() {}
