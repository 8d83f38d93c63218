//! The reference implementation: TFLite Micro's `detection_postprocess.cc` step by step
//! (function names in the comments are its). Floats kept in the `i32` scratch are stored
//! as their bits.

use super::DetectionPostProcessParams;
use crate::math::exp_f64_wide;

/// Scratch regions, in words.
struct Scratch<'a> {
    decoded: &'a mut [i32],
    active: &'a mut [i32],
    keep_indices: &'a mut [i32],
    keep_scores: &'a mut [i32],
    sorted: &'a mut [i32],
    class_scores: &'a mut [i32],
    selected: &'a mut [i32],
}

/// The four outputs.
struct Outputs<'a> {
    boxes: &'a mut [f32],
    classes: &'a mut [f32],
    scores: &'a mut [f32],
    num_detections: &'a mut [f32],
}

fn split(s: &mut [i32], n: usize) -> (&mut [i32], &mut [i32]) {
    s.split_at_mut(n)
}

#[allow(clippy::too_many_arguments)]
pub(super) fn detection_postprocess_f32(
    p: &DetectionPostProcessParams,
    box_encodings: &[f32],
    class_predictions: &[f32],
    anchors: &[f32],
    boxes: &mut [f32],
    classes: &mut [f32],
    scores: &mut [f32],
    num_detections: &mut [f32],
    scratch: &mut [i32],
) {
    let nb = p.num_boxes;
    let (decoded, s) = split(scratch, 4 * nb);
    let (active, s) = split(s, nb);
    let (keep_indices, s) = split(s, nb);
    let (keep_scores, s) = split(s, nb);
    let (sorted, s) = split(s, nb);
    let (class_scores, s) = split(s, nb);
    let (selected, rest) = split(s, nb);
    // `rest`: regular NMS's indices, scores, partial-sort indices and sorted values; fast
    // NMS's class order of every anchor.
    let mut sc = Scratch { decoded, active, keep_indices, keep_scores, sorted, class_scores, selected };
    decode_center_size_boxes(p, box_encodings, anchors, sc.decoded);
    let n_out = p.output_entries();
    boxes[..4 * n_out].fill(0.0);
    classes[..n_out].fill(0.0);
    scores[..n_out].fill(0.0);
    num_detections[0] = 0.0;
    // NonMaxSuppressionSingleClassHelper's ValidateBoxes: TFLite Micro fails the invoke
    // before writing any output (num_classes >= 1, so it always runs).
    if !validate_boxes(sc.decoded, nb) {
        return;
    }
    if p.use_regular_nms {
        regular(p, class_predictions, &mut sc, rest, Outputs { boxes, classes, scores, num_detections });
    } else {
        fast(p, class_predictions, &mut sc, rest, Outputs { boxes, classes, scores, num_detections });
    }
}

fn f(bits: i32) -> f32 {
    f32::from_bits(bits as u32)
}

fn bits(x: f32) -> i32 {
    x.to_bits() as i32
}

/// `DecodeCenterSizeBoxes`: `(ymin, xmin, ymax, xmax)` of every anchor, in double precision
/// rounded once to float, as TFLite Micro writes it.
fn decode_center_size_boxes(p: &DetectionPostProcessParams, enc: &[f32], anchors: &[f32], decoded: &mut [i32]) {
    let [ys, xs, hs, ws] = p.scale.map(|v| v as f64);
    for idx in 0..p.num_boxes {
        let b = &enc[idx * p.box_stride..idx * p.box_stride + 4];
        let a = &anchors[idx * 4..idx * 4 + 4];
        let (by, bx, bh, bw) = (b[0] as f64, b[1] as f64, b[2] as f64, b[3] as f64);
        let (ay, ax, ah, aw) = (a[0] as f64, a[1] as f64, a[2] as f64, a[3] as f64);
        let ycenter = (by / ys * ah + ay) as f32;
        let xcenter = (bx / xs * aw + ax) as f32;
        let half_h = (0.5 * exp_f64_wide(bh / hs) * ah) as f32;
        let half_w = (0.5 * exp_f64_wide(bw / ws) * aw) as f32;
        let d = &mut decoded[idx * 4..idx * 4 + 4];
        d[0] = bits(ycenter - half_h);
        d[1] = bits(xcenter - half_w);
        d[2] = bits(ycenter + half_h);
        d[3] = bits(xcenter + half_w);
    }
}

/// `ValidateBoxes`: no box has `ymin >= ymax` or `xmin >= xmax` (NaN passes).
fn validate_boxes(decoded: &[i32], n: usize) -> bool {
    decoded[..4 * n].chunks_exact(4).all(|b| !(f(b[0]) >= f(b[2]) || f(b[1]) >= f(b[3])))
}

/// `std::max<float>(a, b)`: `a < b ? b : a`.
fn std_max(a: f32, b: f32) -> f32 {
    if a < b {
        b
    } else {
        a
    }
}

/// `std::min<float>(a, b)`: `b < a ? b : a`.
fn std_min(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

/// `ComputeIntersectionOverUnion` of decoded boxes `i` and `j`.
fn iou(decoded: &[i32], i: usize, j: usize) -> f32 {
    let bi = [f(decoded[4 * i]), f(decoded[4 * i + 1]), f(decoded[4 * i + 2]), f(decoded[4 * i + 3])];
    let bj = [f(decoded[4 * j]), f(decoded[4 * j + 1]), f(decoded[4 * j + 2]), f(decoded[4 * j + 3])];
    let area_i = (bi[2] - bi[0]) * (bi[3] - bi[1]);
    let area_j = (bj[2] - bj[0]) * (bj[3] - bj[1]);
    if area_i <= 0.0 || area_j <= 0.0 {
        return 0.0;
    }
    let ymin = std_max(bi[0], bj[0]);
    let xmin = std_max(bi[1], bj[1]);
    let ymax = std_min(bi[2], bj[2]);
    let xmax = std_min(bi[3], bj[3]);
    let inter = std_max(ymax - ymin, 0.0) * std_max(xmax - xmin, 0.0);
    inter / (area_i + area_j - inter)
}

/// `InsertionSort`: `std::rotate(std::upper_bound(start, i, *i, compare), i, i + 1)` for
/// every `i`.
fn insertion_sort(v: &mut [i32], gt: &impl Fn(i32, i32) -> bool) {
    for i in 0..v.len() {
        let x = v[i];
        // upper_bound: the first position p in [0, i) with compare(x, v[p]).
        let (mut lo, mut len) = (0usize, i);
        while len > 0 {
            let half = len / 2;
            if gt(x, v[lo + half]) {
                len = half;
            } else {
                lo += half + 1;
                len -= half + 1;
            }
        }
        v[lo..=i].rotate_right(1);
    }
}

/// `MergeSort` (threshold 20) with `TopDownMerge`.
fn merge_sort(v: &mut [i32], scratch: &mut [i32], gt: &impl Fn(i32, i32) -> bool) {
    let n = v.len();
    if n < 20 {
        insertion_sort(v, gt);
        return;
    }
    let half = n / 2;
    merge_sort(&mut v[..half], scratch, gt);
    merge_sort(&mut v[half..], scratch, gt);
    let (mut left, mut right) = (0, half);
    for s in scratch[..n].iter_mut() {
        if left >= half || (right < n && gt(v[right], v[left])) {
            *s = v[right];
            right += 1;
        } else {
            *s = v[left];
            left += 1;
        }
    }
    v.copy_from_slice(&scratch[..n]);
}

/// `DecreasingArgSort`: `indices[..n]` = `0..n` ordered by decreasing `values` (stable).
fn decreasing_arg_sort(values: &[i32], n: usize, indices: &mut [i32], scratch: &mut [i32]) {
    for (k, x) in indices[..n].iter_mut().enumerate() {
        *x = k as i32;
    }
    let gt = |i: i32, j: i32| f(values[i as usize]) > f(values[j as usize]);
    merge_sort(&mut indices[..n], scratch, &gt);
}

/// libstdc++'s `__adjust_heap` then `__push_heap` (max-heap under `comp`).
fn adjust_heap(v: &mut [i32], mut hole: usize, len: usize, value: i32, comp: &impl Fn(i32, i32) -> bool) {
    let top = hole;
    let mut second = hole;
    while second < (len - 1) / 2 {
        second = 2 * (second + 1);
        if comp(v[second], v[second - 1]) {
            second -= 1;
        }
        v[hole] = v[second];
        hole = second;
    }
    if len & 1 == 0 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v[hole] = v[second - 1];
        hole = second - 1;
    }
    // __push_heap.
    while hole > top {
        let parent = (hole - 1) / 2;
        if !comp(v[parent], value) {
            break;
        }
        v[hole] = v[parent];
        hole = parent;
    }
    v[hole] = value;
}

/// libstdc++'s `std::partial_sort(v, v + mid, v + len, comp)`: `__heap_select` then
/// `__sort_heap`. With `mid == 0` nothing is sorted (the callers then use no element).
fn partial_sort(v: &mut [i32], mid: usize, comp: &impl Fn(i32, i32) -> bool) {
    if mid == 0 {
        return;
    }
    // __make_heap.
    if mid >= 2 {
        let mut parent = (mid - 2) / 2;
        loop {
            adjust_heap(v, parent, mid, v[parent], comp);
            if parent == 0 {
                break;
            }
            parent -= 1;
        }
    }
    for i in mid..v.len() {
        if comp(v[i], v[0]) {
            // __pop_heap(first, middle, i).
            let value = v[i];
            v[i] = v[0];
            adjust_heap(v, 0, mid, value, comp);
        }
    }
    // __sort_heap.
    let mut last = mid;
    while last > 1 {
        last -= 1;
        let value = v[last];
        v[last] = v[0];
        adjust_heap(v, 0, last, value, comp);
    }
}

/// `DecreasingPartialArgSort`: `indices[..n]` = `0..n`, the first `k` ordered by
/// `std::tie(values[i], j) > std::tie(values[j], i)` (C++17 tuple comparison: with a NaN
/// neither value is less, so the index decides).
fn decreasing_partial_arg_sort(value: impl Fn(usize) -> f32, n: usize, k: usize, indices: &mut [i32]) {
    for (x, i) in indices[..n].iter_mut().zip(0..) {
        *x = i;
    }
    let comp = |i: i32, j: i32| {
        let (vi, vj) = (value(i as usize), value(j as usize));
        vj < vi || (vi.partial_cmp(&vj) != Some(core::cmp::Ordering::Less) && i < j)
    };
    partial_sort(&mut indices[..n], k, &comp);
}

/// `NonMaxSuppressionSingleClassHelper` on `scores` (`num_boxes` of them, stored as bits
/// in `sc.class_scores`): the selected anchors in `sc.selected`, their count returned.
fn single_class(p: &DetectionPostProcessParams, sc: &mut Scratch<'_>, max_detections: usize) -> usize {
    let nb = p.num_boxes;
    let t = p.score_threshold;
    // SelectDetectionsAboveScoreThreshold.
    let mut kept = 0;
    for i in 0..nb {
        let v = f(sc.class_scores[i]);
        if v >= t {
            sc.keep_scores[kept] = bits(v);
            sc.keep_indices[kept] = i as i32;
            kept += 1;
        }
    }
    decreasing_arg_sort(sc.keep_scores, kept, sc.sorted, sc.keep_indices);
    let mut counter = 0;
    for i in 0..nb {
        if f(sc.class_scores[i]) >= t {
            sc.keep_indices[counter] = i as i32;
            counter += 1;
        }
    }
    let output_size = kept.min(max_detections);
    let mut selected = 0;
    let mut active_left = kept;
    sc.active[..kept].fill(1);
    for i in 0..kept {
        if active_left == 0 || selected >= output_size {
            break;
        }
        if sc.active[i] != 1 {
            continue;
        }
        let bi = sc.keep_indices[sc.sorted[i] as usize] as usize;
        sc.selected[selected] = bi as i32;
        selected += 1;
        sc.active[i] = 0;
        active_left -= 1;
        for j in i + 1..kept {
            if sc.active[j] == 1 {
                let bj = sc.keep_indices[sc.sorted[j] as usize] as usize;
                if iou(sc.decoded, bi, bj) > p.iou_threshold {
                    sc.active[j] = 0;
                    active_left -= 1;
                }
            }
        }
    }
    selected
}

fn write_box(decoded: &[i32], anchor: usize, boxes: &mut [f32], at: usize) {
    for c in 0..4 {
        boxes[4 * at + c] = f(decoded[4 * anchor + c]);
    }
}

/// `NonMaxSuppressionMultiClassRegularHelper`.
fn regular(
    p: &DetectionPostProcessParams,
    preds: &[f32],
    sc: &mut Scratch<'_>,
    rest: &mut [i32],
    out: Outputs<'_>,
) {
    let Outputs { boxes, classes, scores, num_detections } = out;
    let (nb, ncb, md) = (p.num_boxes, p.num_classes_with_background, p.max_detections);
    let label_offset = ncb - p.num_classes;
    let n = md + nb;
    let (indices_after, rest) = rest.split_at_mut(n);
    let (scores_after, rest) = rest.split_at_mut(n);
    let (partial, sorted_values) = rest.split_at_mut(n);
    let mut size_of_sorted = 0;
    for col in 0..p.num_classes {
        for row in 0..nb {
            sc.class_scores[row] = bits(preds[row * ncb + col + label_offset]);
        }
        let selected = single_class(p, sc, p.detections_per_class);
        let mut output_index = size_of_sorted;
        for &s in sc.selected[..selected].iter() {
            indices_after[output_index] = s * ncb as i32 + (col + label_offset) as i32;
            scores_after[output_index] = sc.class_scores[s as usize];
            output_index += 1;
        }
        let to_sort = output_index.min(md);
        decreasing_partial_arg_sort(|i| f(scores_after[i]), output_index, to_sort, partial);
        for row in 0..to_sort {
            let t = partial[row] as usize;
            partial[row] = indices_after[t];
            sorted_values[row] = scores_after[t];
        }
        indices_after[..to_sort].copy_from_slice(&partial[..to_sort]);
        scores_after[..to_sort].copy_from_slice(&sorted_values[..to_sort]);
        size_of_sorted = to_sort;
    }
    for k in 0..size_of_sorted {
        let idx = indices_after[k] as usize;
        let anchor = idx / ncb;
        let class = idx - anchor * ncb - label_offset;
        write_box(sc.decoded, anchor, boxes, k);
        classes[k] = class as f32;
        scores[k] = f(scores_after[k]);
    }
    num_detections[0] = size_of_sorted as f32;
}

/// `NonMaxSuppressionMultiClassFastHelper`.
fn fast(
    p: &DetectionPostProcessParams,
    preds: &[f32],
    sc: &mut Scratch<'_>,
    rest: &mut [i32],
    out: Outputs<'_>,
) {
    let Outputs { boxes, classes, scores, num_detections } = out;
    let (nb, nc, ncb) = (p.num_boxes, p.num_classes, p.num_classes_with_background);
    let label_offset = ncb - nc;
    let per_anchor = p.classes_per_anchor;
    let class_order = rest;
    for row in 0..nb {
        let box_scores = &preds[row * ncb + label_offset..row * ncb + label_offset + nc];
        let order = &mut class_order[row * nc..(row + 1) * nc];
        decreasing_partial_arg_sort(|i| box_scores[i], nc, per_anchor, order);
        sc.class_scores[row] = bits(box_scores[order[0] as usize]);
    }
    let selected = single_class(p, sc, p.max_detections);
    let mut k = 0;
    for &anchor in sc.selected[..selected].iter() {
        let anchor = anchor as usize;
        let box_scores = &preds[anchor * ncb + label_offset..anchor * ncb + label_offset + nc];
        let order = &class_order[anchor * nc..(anchor + 1) * nc];
        for (col, &class) in order[..per_anchor].iter().enumerate() {
            let at = per_anchor * k + col;
            write_box(sc.decoded, anchor, boxes, at);
            classes[at] = class as f32;
            scores[at] = box_scores[class as usize];
            k += 1;
        }
    }
    num_detections[0] = k as f32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 33) as u32
    }

    /// The merge sort is a stable sort by decreasing value (ties in index order), at every
    /// length around the insertion-sort threshold.
    #[test]
    fn decreasing_arg_sort_is_a_stable_sort() {
        let mut seed = 1;
        for n in 0..70 {
            let values: Vec<i32> = (0..n).map(|_| bits((lcg(&mut seed) % 7) as f32 - 3.0)).collect();
            let (mut idx, mut scratch) = (std::vec![0; n], std::vec![0; n]);
            decreasing_arg_sort(&values, n, &mut idx, &mut scratch);
            let mut want: Vec<i32> = (0..n as i32).collect();
            want.sort_by(|&a, &b| f(values[b as usize]).partial_cmp(&f(values[a as usize])).unwrap());
            assert_eq!(idx, want, "n = {n}");
        }
    }

    /// Under a strict total order (no NaN) the heap partial sort's first `k` are the full
    /// sort's first `k` (value decreasing, index increasing on ties), for every `k`, and
    /// the rest is a permutation of the others.
    #[test]
    fn partial_sort_prefix_is_the_sorted_prefix() {
        let mut seed = 7;
        for n in 0..40 {
            let values: Vec<f32> = (0..n).map(|_| (lcg(&mut seed) % 9) as f32).collect();
            let mut want: Vec<i32> = (0..n as i32).collect();
            want.sort_by(|&a, &b| values[b as usize].partial_cmp(&values[a as usize]).unwrap().then(a.cmp(&b)));
            for k in 0..=n {
                let mut idx = std::vec![0; n];
                decreasing_partial_arg_sort(|i| values[i], n, k, &mut idx);
                assert_eq!(idx[..k], want[..k], "n = {n}, k = {k}");
                let mut all = idx.clone();
                all.sort();
                assert_eq!(all, (0..n as i32).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn iou_and_std_min_max() {
        let d: Vec<i32> = [0.0f32, 0.0, 2.0, 2.0, 1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 4.0, 6.0].iter().map(|&x| bits(x)).collect();
        assert_eq!(iou(&d, 0, 1), 1.0 / 7.0);
        // Box 2 has a negative area: no overlap.
        assert_eq!(iou(&d, 0, 2), 0.0);
        assert!(std_max(f32::NAN, 0.0).is_nan() && std_max(0.0, f32::NAN) == 0.0);
        assert!(std_min(f32::NAN, 0.0).is_nan() && std_min(0.0, f32::NAN) == 0.0);
    }
}
