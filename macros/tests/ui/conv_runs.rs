// A model that compiles: the generated module's API, used as a firmware would.
mod conv {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/conv.tflite");
}
// Within its budget (256 bytes), with the optional argument and a trailing comma.
mod conv_budget {
    tflc_macros::include_model!("../../../../macros/tests/ui/models/conv.tflite", max_arena = "1K",);
}


fn main() {
    let mut m = conv::Model::new();
    assert_eq!(conv::INPUTS, 1);
    assert_eq!(conv::INPUT_0_SHAPE, [1, 7, 5, 3]);
    for (i, x) in m.input_0().iter_mut().enumerate() {
        *x = (i as i8).wrapping_mul(7);
    }
    m.run();
    let out: &[i8; 140] = m.output_0();
    assert!(out.iter().any(|&v| v != -128), "a ReLU conv of a varied input is not all zero");
    // The output (140 B) overwrites the consumed rows of the input (105 B): at least the
    // larger of the two, at most both apart (aligned).
    assert!(conv::ARENA_BYTES >= 140 && conv::ARENA_BYTES <= 256);
    assert_eq!(conv_budget::ARENA_BYTES, conv::ARENA_BYTES);
}
