// The argument must be a string literal.
const PATH: &str = "model.tflite";
tflc_macros::include_model!(PATH);
fn main() {}
