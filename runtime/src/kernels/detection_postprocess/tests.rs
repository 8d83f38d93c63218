//! The kernel against a naive oracle (the definition written with std sorts and `Vec`s,
//! on data without NaN, where every order TFLite Micro uses is a total one), and the
//! behaviour where TFLite Micro fails the invoke. TFLite Micro's own vectors (NaN scores,
//! ties, both NMS forms) are the compiler's op tests (`lower::ops::custom`).

use super::*;
use std::vec;
use std::vec::Vec;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

fn decode(p: &DetectionPostProcessParams, enc: &[f32], anchors: &[f32]) -> Vec<[f32; 4]> {
    (0..p.num_boxes)
        .map(|i| {
            let e = &enc[i * p.box_stride..];
            let a = &anchors[i * 4..];
            let s = p.scale.map(|v| v as f64);
            let yc = (e[0] as f64 / s[0] * a[2] as f64 + a[0] as f64) as f32;
            let xc = (e[1] as f64 / s[1] * a[3] as f64 + a[1] as f64) as f32;
            let hh = (0.5 * (e[2] as f64 / s[2]).exp() * a[2] as f64) as f32;
            let hw = (0.5 * (e[3] as f64 / s[3]).exp() * a[3] as f64) as f32;
            [yc - hh, xc - hw, yc + hh, xc + hw]
        })
        .collect()
}

fn iou(a: &[f32; 4], b: &[f32; 4]) -> f32 {
    let (aa, ab) = ((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
    if aa <= 0.0 || ab <= 0.0 {
        return 0.0;
    }
    let i = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0) * (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    i / (aa + ab - i)
}

/// Greedy NMS: anchors by decreasing score (stable), each kept unless it overlaps a kept one
/// by more than the threshold.
fn nms(boxes: &[[f32; 4]], scores: &[f32], thr: f32, iou_thr: f32, max: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= thr).collect();
    order.sort_by(|&a, &b| scores[b].partial_cmp(&scores[a]).unwrap());
    let mut kept: Vec<usize> = Vec::new();
    let mut suppressed = vec![false; order.len()];
    for (k, &i) in order.iter().enumerate() {
        if kept.len() >= max {
            break;
        }
        if suppressed[k] {
            continue;
        }
        kept.push(i);
        for (l, &j) in order.iter().enumerate().skip(k + 1) {
            if !suppressed[l] && iou(&boxes[i], &boxes[j]) > iou_thr {
                suppressed[l] = true;
            }
        }
    }
    kept
}

/// `(boxes, classes, scores, num)` by the definition.
fn oracle(p: &DetectionPostProcessParams, enc: &[f32], preds: &[f32], anchors: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
    let decoded = decode(p, enc, anchors);
    let (nb, nc, ncb) = (p.num_boxes, p.num_classes, p.num_classes_with_background);
    let off = ncb - nc;
    let n_out = p.output_entries();
    let (mut b, mut c, mut s) = (vec![0.0; 4 * n_out], vec![0.0; n_out], vec![0.0; n_out]);
    let score = |a: usize, k: usize| preds[a * ncb + off + k];
    if p.use_regular_nms {
        // Every class's NMS, then the best max_detections over all (score decreasing; ties
        // to the earlier class, then the earlier selection: TFLite Micro's running merge
        // keeps the previous classes' entries first).
        let mut all: Vec<(f32, usize)> = Vec::new();
        for k in 0..nc {
            let cs: Vec<f32> = (0..nb).map(|a| score(a, k)).collect();
            for a in nms(&decoded, &cs, p.score_threshold, p.iou_threshold, p.detections_per_class) {
                all.push((cs[a], a * ncb + k + off));
            }
        }
        all.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap());
        all.truncate(p.max_detections);
        for (i, &(sc, idx)) in all.iter().enumerate() {
            b[4 * i..4 * i + 4].copy_from_slice(&decoded[idx / ncb]);
            c[i] = (idx % ncb - off) as f32;
            s[i] = sc;
        }
        (b, c, s, all.len() as f32)
    } else {
        let best: Vec<Vec<usize>> = (0..nb)
            .map(|a| {
                let mut o: Vec<usize> = (0..nc).collect();
                o.sort_by(|&x, &y| score(a, y).partial_cmp(&score(a, x)).unwrap().then(x.cmp(&y)));
                o
            })
            .collect();
        let max_scores: Vec<f32> = (0..nb).map(|a| score(a, best[a][0])).collect();
        let kept = nms(&decoded, &max_scores, p.score_threshold, p.iou_threshold, p.max_detections);
        let per = p.classes_per_anchor;
        let mut k = 0;
        for &a in &kept {
            for (col, &class) in best[a][..per].iter().enumerate() {
                let at = per * k + col;
                b[4 * at..4 * at + 4].copy_from_slice(&decoded[a]);
                c[at] = class as f32;
                s[at] = score(a, class);
                k += 1;
            }
        }
        (b, c, s, k as f32)
    }
}

fn params(nb: usize, nc: usize, background: bool, regular: bool, per_anchor: usize, md: usize) -> DetectionPostProcessParams {
    DetectionPostProcessParams {
        num_boxes: nb,
        box_stride: 4,
        num_classes: nc,
        num_classes_with_background: nc + usize::from(background),
        max_detections: md,
        classes_per_anchor: per_anchor,
        detections_per_class: 3,
        score_threshold: 0.3,
        iou_threshold: 0.4,
        use_regular_nms: regular,
        scale: [10.0, 10.0, 5.0, 5.0],
    }
}

fn run(p: &DetectionPostProcessParams, enc: &[f32], preds: &[f32], anchors: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
    let n_out = p.output_entries();
    let (mut b, mut c, mut s, mut n) = (vec![7.0; 4 * n_out], vec![7.0; n_out], vec![7.0; n_out], [7.0]);
    let mut scratch = vec![0; p.scratch_words()];
    detection_postprocess_f32(p, enc, preds, anchors, &mut b, &mut c, &mut s, &mut n, &mut scratch);
    (b, c, s, n[0])
}

/// Random clustered boxes (so NMS suppresses), random scores, both NMS forms, with and
/// without a background class, several sizes (merge sort above 20 kept boxes).
#[test]
fn matches_the_definition_on_random_data() {
    let mut r = Rng(5);
    for &(nb, nc, background, regular, per, md) in &[
        (6, 2, true, true, 1, 4),
        (6, 2, true, false, 1, 4),
        (30, 3, false, true, 1, 10),
        (30, 3, true, false, 1, 10),
        (45, 4, true, true, 1, 7),
        (3, 4, true, false, 2, 6),
        (1, 1, false, false, 1, 1),
    ] {
        for _ in 0..20 {
            let p = params(nb, nc, background, regular, per, md);
            let enc: Vec<f32> = (0..nb * 4).map(|_| r.next() * 4.0 - 2.0).collect();
            let anchors: Vec<f32> = (0..nb).flat_map(|i| [0.2 + 0.05 * (i % 4) as f32, 0.5, 0.3, 0.3 + 0.01 * (i % 3) as f32]).collect();
            // Scores on a coarse grid, so ties happen.
            let preds: Vec<f32> = (0..nb * p.num_classes_with_background).map(|_| (r.next() * 8.0).floor() / 8.0).collect();
            assert_eq!(run(&p, &enc, &preds, &anchors), oracle(&p, &enc, &preds, &anchors), "{p:?}");
        }
    }
}

/// A decoded box with ymin >= ymax (here a zero-height anchor) fails TFLite Micro's invoke;
/// this kernel reports zero detections, every output zero.
#[test]
fn invalid_boxes_give_zero_detections() {
    for regular in [true, false] {
        let p = params(2, 1, false, regular, 1, 2);
        let enc = [0.0; 8];
        let anchors = [0.5, 0.5, 0.2, 0.2, 0.5, 0.5, 0.0, 0.2];
        let (b, c, s, n) = run(&p, &enc, &[0.9, 0.8], &anchors);
        assert_eq!((n, b.iter().chain(&c).chain(&s).all(|&x| x == 0.0)), (0.0, true));
    }
}
