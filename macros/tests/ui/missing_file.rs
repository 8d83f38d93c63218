// A path that does not exist: the error names the absolute path tried.
tflc_macros::include_model!("models/does_not_exist.tflite");
fn main() {}
