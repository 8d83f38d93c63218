// Absolute paths are refused: models are found relative to the crate root.
tflc_macros::include_model!("/models/kws.tflite");
fn main() {}
