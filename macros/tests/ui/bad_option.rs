// An unknown option is named; a bad size says what a size looks like.
mod m {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/conv.tflite", max_ram = 5);
}
mod n {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/conv.tflite", max_arena = "1X");
}
fn main() {}
