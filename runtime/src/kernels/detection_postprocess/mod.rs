//! TFLite_Detection_PostProcess (TFLite Micro's custom operator, `detection_postprocess.cc`
//! at 90b983c2b3f1): SSD box decoding (centre-size encodings against anchors to corners)
//! followed by non-maximum suppression, regular (per class) or fast (per anchor, on its
//! best class), float32 throughout. TFLite Micro's Eval decodes float32 inputs only (any
//! other type fails the invoke), so that is the one form here.
//!
//! Every step is TFLite Micro's, in its order and precision: the decoding in double
//! precision rounded once to float ([`crate::math::exp_f64_wide`] for `std::exp`), the
//! intersection over union in float with `std::max`/`std::min`'s NaN behaviour, the stable
//! merge sort (`DecreasingArgSort`: insertion sort below 20 elements, top-down merge) and
//! libstdc++'s heap-based `std::partial_sort` for `DecreasingPartialArgSort`, comparator
//! and all, so ties and NaN scores order as they do there. Fast NMS writes its outputs at
//! TFLite Micro's offsets (`max_classes_per_detection * k + col` with `k` counting every
//! written entry); the compiler checks they are in bounds.
//!
//! Where TFLite Micro's Eval fails on the data (a decoded box with `ymin >= ymax` or
//! `xmin >= xmax`, checked before any output is written), this kernel reports zero
//! detections: every output zero. Output entries TFLite Micro leaves unwritten (fast NMS,
//! past the detections) are zero here too.

mod scalar;

/// The op's options (the FlexBuffer map) and the shapes Prepare reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectionPostProcessParams {
    /// Anchors: `box_encodings.dims[1]`.
    pub num_boxes: usize,
    /// Floats per box encoding: `box_encodings.dims[2]` (at least 4; the first 4 are read).
    pub box_stride: usize,
    /// `num_classes` (at least 1).
    pub num_classes: usize,
    /// `class_predictions.dims[2]`: `num_classes` or `num_classes + 1` (a background class
    /// first, skipped).
    pub num_classes_with_background: usize,
    /// `max_detections`: detections the op reports at most (at least 1).
    pub max_detections: usize,
    /// Fast NMS: classes kept per anchor (`min(max_classes_per_detection, num_classes)`, at
    /// least 1).
    pub classes_per_anchor: usize,
    /// Regular NMS: detections kept per class (at least 1).
    pub detections_per_class: usize,
    /// `nms_score_threshold`: a box scoring below it is dropped before NMS (at or above is kept).
    pub score_threshold: f32,
    /// In `(0, 1]`.
    pub iou_threshold: f32,
    /// `use_regular_nms`: per-class (regular) NMS rather than the fast all-class form.
    pub use_regular_nms: bool,
    /// `y_scale`, `x_scale`, `h_scale`, `w_scale`.
    pub scale: [f32; 4],
}

impl DetectionPostProcessParams {
    /// `i32` words of scratch [`detection_postprocess_f32`] needs.
    pub const fn scratch_words(&self) -> usize {
        let nb = self.num_boxes;
        // Decoded boxes, then active flags, keep indices, keep scores, sorted indices,
        // class (or max) scores, selected: one word per anchor each.
        let common = 4 * nb + 6 * nb;
        if self.use_regular_nms {
            // Indices and scores after NMS, the partial sort's indices (max_detections
            // kept plus one class's selection each), sorted values.
            let n = self.max_detections + nb;
            common + 3 * n + self.max_detections
        } else {
            // Every anchor's class order.
            common + nb * self.num_classes
        }
    }

    /// Output entries (boxes, classes, scores) the op writes at most: `max_detections` for
    /// regular NMS; for fast NMS `classes_per_anchor^2 * min(num_boxes, max_detections)`
    /// (TFLite Micro's offsets).
    pub const fn output_entries(&self) -> usize {
        if self.use_regular_nms {
            self.max_detections
        } else {
            let s = if self.num_boxes < self.max_detections { self.num_boxes } else { self.max_detections };
            self.classes_per_anchor * self.classes_per_anchor * s
        }
    }
}

/// TFLite_Detection_PostProcess on float32: `box_encodings` `[1, num_boxes, box_stride]`,
/// `class_predictions` `[1, num_boxes, num_classes_with_background]`, `anchors`
/// `[num_boxes, 4]` (y, x, h, w); outputs `boxes` (4 floats an entry: ymin, xmin, ymax,
/// xmax), `classes`, `scores` (at least [`DetectionPostProcessParams::output_entries`]
/// entries each) and `num_detections` (one float). `scratch` holds
/// [`DetectionPostProcessParams::scratch_words`] words.
#[allow(clippy::too_many_arguments)]
pub fn detection_postprocess_f32(
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
    debug_assert!(box_encodings.len() >= p.num_boxes * p.box_stride && p.box_stride >= 4);
    debug_assert!(class_predictions.len() >= p.num_boxes * p.num_classes_with_background);
    debug_assert!(anchors.len() >= 4 * p.num_boxes);
    debug_assert!(boxes.len() >= 4 * p.output_entries() && classes.len() >= p.output_entries() && scores.len() >= p.output_entries());
    debug_assert!(!num_detections.is_empty() && scratch.len() >= p.scratch_words());
    scalar::detection_postprocess_f32(p, box_encodings, class_predictions, anchors, boxes, classes, scores, num_detections, scratch)
}

#[cfg(test)]
mod tests;
