use super::*;
use std::vec::Vec;

/// f64 oracle of TF's nearest-neighbour coordinate rules.
fn oracle(x: usize, in_size: usize, out_size: usize, align: bool, half: bool) -> usize {
    let scale = if align && out_size > 1 { (in_size - 1) as f64 / (out_size - 1) as f64 } else { in_size as f64 / out_size as f64 };
    let v = (x as f64 + if half { 0.5 } else { 0.0 }) * scale;
    let i = if align { v.round() } else { v.floor() } as i64;
    i.clamp(0, in_size as i64 - 1) as usize
}

#[test]
fn indices_match_oracle_on_small_sizes() {
    for in_size in 1..9 {
        for out_size in 1..19 {
            for (align, half) in [(false, false), (true, false), (false, true)] {
                for x in 0..out_size {
                    assert_eq!(
                        nearest_neighbor_index(x, in_size, out_size, align, half),
                        oracle(x, in_size, out_size, align, half),
                        "x={x} in={in_size} out={out_size} align={align} half={half}"
                    );
                }
            }
        }
    }
}

#[test]
fn upscale_2x() {
    // 1x2x2x1 -> 1x4x4x1
    let mut rows = [0usize; 4];
    let mut cols = [0usize; 4];
    prepare_resize_nearest_neighbor(2, 2, 1, false, false, &mut rows, &mut cols);
    let p = ResizeNearestNeighborParams { batches: 1, depth: 1, input_batch_stride: 4, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 16];
    resize_nearest_neighbor_s8(&p, &[1, 2, 3, 4], &mut out);
    assert_eq!(out, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
    let _ = Vec::<u8>::new();
}
