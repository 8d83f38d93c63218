// `max_arena`: the build fails when the arena needs more, naming the peak and its tensors.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/conv.tflite", max_arena = 150);
}
fn main() {}
