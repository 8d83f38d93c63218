//! TFLite_Detection_PostProcess, TFLite Micro's custom operator (`detection_postprocess.cc`
//! at 90b983c2b3f1): SSD box decoding and non-maximum suppression, float32. The runtime
//! kernel is `tflc_runtime::kernels::detection_postprocess`.
//!
//! Init reads the FlexBuffer map by key (`m["max_detections"].AsInt32()` ...: a missing key
//! reads as 0, `detections_per_class` defaults to 100 and `use_regular_nms` to false).
//! Prepare and Eval's checks are made here, at compile time, each refused the way TFLite
//! Micro fails: 3 inputs and 4 outputs; ranks 3, 3 and 2; batch 1; at least 4 floats per
//! box encoding; `class_predictions` `[1, num_boxes, num_classes (+1)]`; float32
//! `box_encodings` and `class_predictions` (TFLite Micro's Eval returns kTfLiteError for
//! any other type: the int8/uint8 inputs TFLite's kernel dequantizes are not TFLite
//! Micro's); `max_detections >= 0`, an IoU threshold in `(0, 1]`, a positive
//! `detections_per_class` (regular NMS) and `max_classes_per_detection` (fast NMS). tflc
//! refuses further
//! what TFLite Micro would run out of bounds or on uninitialised memory: `num_classes < 1`
//! (fast NMS reads the first class of an empty order), anchors shorter than `4 *
//! num_boxes` floats, and outputs smaller than what Eval writes (fast NMS writes entry
//! `max_classes_per_detection * k + col`, `k` counting every entry written, as TFLite Micro
//! does); the outputs must be float32 (TFLite Micro writes floats into them whatever their
//! type).
//!
//! One divergence, data-dependent: where a decoded box has `ymin >= ymax` or `xmin >= xmax`
//! TFLite Micro's invoke fails; tflc's `run()` cannot fail, so the op then reports zero
//! detections (every output zero).

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use crate::tflite::flexbuffers::{FlexMap, FlexValue};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::detection_postprocess::{detection_postprocess_f32, DetectionPostProcessParams};

crate::runtime_struct_lit!(kernels::detection_postprocess::DetectionPostProcessParams {
    num_boxes,
    box_stride,
    num_classes,
    num_classes_with_background,
    max_detections,
    classes_per_anchor,
    detections_per_class,
    score_threshold,
    iou_threshold,
    use_regular_nms,
    scale,
});

/// TFLite Micro's `kNumDetectionsPerClass`, the default of `detections_per_class`.
const NUM_DETECTIONS_PER_CLASS: i32 = 100;

/// A lowered TFLite_Detection_PostProcess.
#[derive(Debug, Clone)]
pub struct DetectionPostProcess {
    params: DetectionPostProcessParams,
    /// box_encodings, class_predictions, anchors.
    inputs: [TensorId; 3],
    /// detection_boxes, detection_classes, detection_scores, num_detections.
    outputs: [TensorId; 4],
    /// Element counts of the outputs.
    output_lens: [usize; 4],
}

/// `m[key]` as flexbuffers' `AsInt32` (a missing key is null: 0).
fn int(cx: &OpCx<'_, '_>, m: &FlexMap, key: &str) -> Result<i32, LowerError> {
    let v = m.get(key).unwrap_or(FlexValue::Null);
    v.as_i32().ok_or_else(|| cx.unsupported(format!("custom option {key:?} is {v:?}, not a number")))
}

/// `m[key]` as flexbuffers' `AsFloat` (`(float)AsDouble()`; a missing key is 0).
fn float(cx: &OpCx<'_, '_>, m: &FlexMap, key: &str) -> Result<f32, LowerError> {
    match m.get(key).unwrap_or(FlexValue::Null) {
        FlexValue::Null => Ok(0.0),
        FlexValue::Float(f) => Ok(f as f32),
        FlexValue::Int(i) => Ok(i as f64 as f32),
        FlexValue::UInt(u) => Ok(u as f64 as f32),
        FlexValue::Bool(b) => Ok(f32::from(u8::from(b))),
        v => Err(cx.unsupported(format!("custom option {key:?} is {v:?}, not a number"))),
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<DetectionPostProcess, LowerError> {
    let bytes = cx.op.custom_options.ok_or_else(|| cx.invalid("the custom options (a FlexBuffer map) are missing"))?;
    let m = FlexMap::parse(bytes).map_err(|e| cx.invalid(format!("custom options: {e}")))?;
    let max_detections = int(cx, &m, "max_detections")?;
    let max_classes_per_detection = int(cx, &m, "max_classes_per_detection")?;
    let detections_per_class = match m.get("detections_per_class") {
        None | Some(FlexValue::Null) => NUM_DETECTIONS_PER_CLASS,
        Some(_) => int(cx, &m, "detections_per_class")?,
    };
    let use_regular_nms = match m.get("use_regular_nms") {
        None | Some(FlexValue::Null) => false,
        Some(v) => v.as_bool().ok_or_else(|| cx.unsupported(format!("custom option \"use_regular_nms\" is {v:?}, not a bool")))?,
    };
    let score_threshold = float(cx, &m, "nms_score_threshold")?;
    let iou_threshold = float(cx, &m, "nms_iou_threshold")?;
    let num_classes = int(cx, &m, "num_classes")?;
    let scale = [float(cx, &m, "y_scale")?, float(cx, &m, "x_scale")?, float(cx, &m, "h_scale")?, float(cx, &m, "w_scale")?];

    if cx.op.inputs.len() != 3 || cx.op.outputs.len() != 4 {
        return Err(cx.invalid(format!("TFLite Micro requires 3 inputs and 4 outputs, found {} and {}", cx.op.inputs.len(), cx.op.outputs.len())));
    }
    let (enc, preds, anchors) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    for (t, rank) in [(enc, 3), (preds, 3), (anchors, 2)] {
        if t.shape.len() != rank {
            return Err(cx.invalid_tensor(t, format!("shape {:?} (TFLite Micro requires rank {rank})", t.shape)));
        }
    }
    for t in [enc, preds] {
        if t.dtype != DType::F32 {
            return Err(cx.unsupported_tensor(
                t,
                format!("{} input: TFLite Micro's Eval decodes float32 only (it fails the invoke on any other type)", t.dtype),
            ));
        }
    }
    cx.expect_dtype(anchors, DType::F32)?;
    let (num_boxes, box_stride) = (enc.shape[1], enc.shape[2]);
    if enc.shape[0] != 1 || box_stride < 4 {
        return Err(cx.invalid_tensor(enc, format!("shape {:?}: TFLite Micro requires batch 1 and at least 4 values per box", enc.shape)));
    }
    let num_classes_with_background = preds.shape[2];
    if preds.shape[0] != 1 || preds.shape[1] != num_boxes {
        return Err(cx.invalid_tensor(preds, format!("shape {:?}: TFLite Micro requires [1, {num_boxes}, classes]", preds.shape)));
    }
    let num_classes = usize::try_from(num_classes)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| cx.unsupported(format!("num_classes = {num_classes}: at least 1 (TFLite Micro's fast NMS reads an empty class order)")))?;
    if num_classes_with_background < num_classes || num_classes_with_background - num_classes > 1 {
        return Err(cx.invalid_tensor(
            preds,
            format!("{num_classes_with_background} classes for num_classes = {num_classes} (TFLite Micro requires num_classes or num_classes + 1)"),
        ));
    }
    if anchors.num_elements() < 4 * num_boxes {
        return Err(cx.invalid_tensor(anchors, format!("{} values for {num_boxes} anchors of 4", anchors.num_elements())));
    }
    let max_detections = usize::try_from(max_detections)
        .map_err(|_| cx.invalid(format!("max_detections = {max_detections} (TFLite Micro requires >= 0)")))?;
    if !(iou_threshold > 0.0 && iou_threshold <= 1.0) {
        return Err(cx.invalid(format!("nms_iou_threshold = {iou_threshold} (TFLite Micro requires it in (0, 1])")));
    }
    let (detections_per_class, classes_per_anchor) = if use_regular_nms {
        let d = usize::try_from(detections_per_class)
            .ok()
            .filter(|&d| d > 0)
            .ok_or_else(|| cx.invalid(format!("detections_per_class = {detections_per_class} (TFLite Micro requires > 0)")))?;
        (d, 1)
    } else {
        let c = usize::try_from(max_classes_per_detection)
            .ok()
            .filter(|&c| c > 0)
            .ok_or_else(|| cx.invalid(format!("max_classes_per_detection = {max_classes_per_detection} (TFLite Micro requires > 0)")))?;
        (1, c.min(num_classes))
    };
    let params = DetectionPostProcessParams {
        num_boxes,
        box_stride,
        num_classes,
        num_classes_with_background,
        max_detections,
        classes_per_anchor,
        detections_per_class,
        score_threshold,
        iou_threshold,
        use_regular_nms,
        scale,
    };
    // Output entries Eval writes, checked before the runtime's unchecked `output_entries`.
    let entries = classes_per_anchor
        .checked_mul(classes_per_anchor)
        .and_then(|c| c.checked_mul(num_boxes.min(max_detections)))
        .and_then(|e| e.checked_mul(4))
        .map(|_| params.output_entries())
        .ok_or_else(|| cx.invalid("the outputs TFLite Micro would write overflow the address space"))?;
    let mut outputs = [TensorId::new(0); 4];
    let mut output_lens = [0; 4];
    for (k, (name, per_entry)) in [("detection_boxes", 4), ("detection_classes", 1), ("detection_scores", 1), ("num_detections", 0)].into_iter().enumerate() {
        let t = cx.output(k)?;
        cx.expect_dtype(t, DType::F32)?;
        let need = if per_entry == 0 { 1 } else { per_entry * entries };
        if t.num_elements() < need {
            return Err(cx.invalid_tensor(t, format!("{name}: {} values, TFLite Micro writes {need}", t.num_elements())));
        }
        outputs[k] = t.id;
        output_lens[k] = t.num_elements();
    }
    Ok(DetectionPostProcess { params, inputs: [enc.id, preds.id, anchors.id], outputs, output_lens })
}

impl Kernel for DetectionPostProcess {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let enc = s.f32(self.inputs[0])?.to_vec();
        let preds = s.f32(self.inputs[1])?.to_vec();
        let anchors = s.f32(self.inputs[2])?.to_vec();
        let p = &self.params;
        if enc.len() < p.num_boxes * p.box_stride || preds.len() < p.num_boxes * p.num_classes_with_background || anchors.len() < 4 * p.num_boxes {
            return Err(ExecError("TFLite_Detection_PostProcess: an input is shorter than its shape".into()));
        }
        let [b, c, sc, n] = self.outputs;
        let [lb, lc, ls, ln] = self.output_lens;
        let (mut yb, mut yc, mut ys, mut yn) = (s.take_f32(b, lb), s.take_f32(c, lc), s.take_f32(sc, ls), s.take_f32(n, ln));
        let mut scratch = vec![0i32; p.scratch_words()];
        detection_postprocess_f32(p, &enc, &preds, &anchors, &mut yb, &mut yc, &mut ys, &mut yn, &mut scratch);
        s.insert(b, TensorData::F32(yb));
        s.insert(c, TensorData::F32(yc));
        s.insert(sc, TensorData::F32(ys));
        s.insert(n, TensorData::F32(yn));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::detection_postprocess::DetectionPostProcessParams }, &self.params);
        let [e, c, a] = self.inputs.map(|t| cx.input(t));
        let [yb, yc, ys, yn] = self.outputs.map(|t| cx.output(t));
        let scratch = cx.scratch();
        quote! {
            #rt::kernels::detection_postprocess::detection_postprocess_f32(
                &#p, #e, #c, #a, #yb, #yc, #ys, #yn, #rt::__private::as_i32_mut(#scratch)
            );
        }
    }

    fn scratch_bytes(&self) -> usize {
        self.params.scratch_words() * 4
    }
}

#[cfg(test)]
mod tests {
    //! Single-op models built with the builder; expected outputs from TFLite Micro's
    //! interpreter (`tools/op_test_vectors.py --bits`, float32 as bit patterns): regular NMS
    //! over 24 anchors (the merge sort above its insertion-sort threshold) with a background
    //! class, tied, infinite and NaN scores and a box whose size overflows to infinity; fast
    //! NMS with NaN scores (libstdc++'s partial sort decides their order), a 5-value box
    //! encoding and computed anchors; fast NMS keeping 2 classes per anchor (TFLite Micro's
    //! output offsets).
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, TensorId};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};
    use crate::tflite::flexbuffers::{write_map, FlexValue};

    struct Case {
        num_boxes: usize,
        stride: usize,
        classes_with_background: usize,
        entries: usize,
        const_anchors: bool,
        options: Vec<(&'static str, FlexValue)>,
    }

    fn options(regular: bool, num_classes: i64, max_detections: i64, per_anchor: i64, thr: f64, iou: f64) -> Vec<(&'static str, FlexValue)> {
        vec![
            ("detections_per_class", FlexValue::Int(4)),
            ("h_scale", FlexValue::Float(5.0)),
            ("max_classes_per_detection", FlexValue::Int(per_anchor)),
            ("max_detections", FlexValue::Int(max_detections)),
            ("nms_iou_threshold", FlexValue::Float(iou)),
            ("nms_score_threshold", FlexValue::Float(thr)),
            ("num_classes", FlexValue::Int(num_classes)),
            ("use_regular_nms", FlexValue::Bool(regular)),
            ("w_scale", FlexValue::Float(5.0)),
            ("x_scale", FlexValue::Float(10.0)),
            ("y_scale", FlexValue::Float(10.0)),
        ]
    }

    /// The model and its input tensors (box encodings, class predictions, anchors if not
    /// constant) and outputs.
    fn model(c: &Case, anchors: &[f32], enc_dtype: DType) -> (Vec<u8>, Vec<TensorId>, [TensorId; 4]) {
        let mut m = ModelBuilder::new();
        let q = (enc_dtype != DType::F32).then_some((0.05, 0));
        let e = m.activation("box_encodings", enc_dtype, &[1, c.num_boxes, c.stride], q);
        let s = m.activation("class_predictions", enc_dtype, &[1, c.num_boxes, c.classes_with_background], q);
        let a = if c.const_anchors { m.constant_f32("anchors", &[c.num_boxes, 4], anchors) } else { m.activation("anchors", DType::F32, &[c.num_boxes, 4], None) };
        let ob = m.activation("detection_boxes", DType::F32, &[1, c.entries, 4], None);
        let oc = m.activation("detection_classes", DType::F32, &[1, c.entries], None);
        let os = m.activation("detection_scores", DType::F32, &[1, c.entries], None);
        let on = m.activation("num_detections", DType::F32, &[1], None);
        let op = m.op_spec(OpSpecCode::Custom("TFLite_Detection_PostProcess".into()), &[Some(e), Some(s), Some(a)], &[ob, oc, os, on]);
        m.custom_options(op, write_map(&c.options));
        let ins = if c.const_anchors { vec![e, s] } else { vec![e, s, a] };
        m.inputs(&ins).outputs(&[ob, oc, os, on]);
        (m.finish(), ins, [ob, oc, os, on])
    }

    /// Deterministic values in `[lo, hi)` on a grid of `steps` (ties on purpose).
    fn grid(seed: u64, n: usize, lo: f32, hi: f32, steps: u32) -> Vec<f32> {
        i8s(seed, n).iter().map(|&v| lo + (hi - lo) * ((v as u8 as u32 % steps) as f32 / steps as f32)).collect()
    }

    /// Anchors in clusters of 3 (so boxes overlap and NMS suppresses): y, x, h, w.
    fn anchors(n: usize) -> Vec<f32> {
        (0..n).flat_map(|i| [0.1 + 0.2 * (i / 3) as f32 % 0.8, 0.15 + 0.1 * (i / 3 % 4) as f32, 0.2 + 0.02 * (i % 3) as f32, 0.25]).collect()
    }

    /// Runs the case, compares every output TFLite Micro writes with `want` (bits; the
    /// entries fast NMS leaves unwritten are not compared there, and are zero here).
    fn check(name: &str, c: &Case, regular: bool, per_anchor: usize, inputs: Vec<Vec<f32>>, anchors_v: &[f32], want: [&[u32]; 4]) {
        let (bytes, ins, outs) = model(c, anchors_v, DType::F32);
        let data: Vec<(TensorId, TensorData)> = ins.iter().zip(inputs).map(|(&t, v)| (t, TensorData::F32(v))).collect();
        let s = run_op0(name, &bytes, &data);
        if want[3].is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        let got: Vec<Vec<u32>> = outs.iter().map(|&t| s.f32(t).unwrap().iter().map(|v| v.to_bits()).collect()).collect();
        assert_eq!(got[3], want[3], "{name}: num_detections");
        let n = f32::from_bits(want[3][0]) as usize;
        let written: Vec<usize> = if regular {
            (0..c.entries).collect()
        } else {
            (0..n / per_anchor).flat_map(|i| (0..per_anchor).map(move |col| per_anchor * (i * per_anchor + col) + col)).collect()
        };
        for e in 0..c.entries {
            let is_written = written.contains(&e);
            for (k, per) in [(0, 4), (1, 1), (2, 1)] {
                for j in 0..per {
                    let (g, w) = (got[k][e * per + j], want[k][e * per + j]);
                    if is_written {
                        assert_eq!(g, w, "{name}: output {k} entry {e}: {} vs TFLite Micro's {}", f32::from_bits(g), f32::from_bits(w));
                    } else {
                        assert_eq!(g, 0, "{name}: output {k} entry {e} is not written by TFLite Micro: zero here");
                    }
                }
            }
        }
    }

    #[test]
    fn regular_nms_matches_tflite_micro() {
        let c = Case { num_boxes: 24, stride: 4, classes_with_background: 4, entries: 10, const_anchors: true, options: options(true, 3, 10, 1, 0.25, 0.5) };
        let mut enc = grid(11, 24 * 4, -3.0, 3.0, 64);
        enc[4 * 5 + 2] = 500.0; // half height exp(100) * ...: +inf as a float.
        let mut scores = grid(12, 24 * 4, 0.0, 1.0, 8);
        scores[4 * 3 + 1] = f32::NAN;
        scores[4 * 7 + 2] = f32::INFINITY;
        scores[4 * 8 + 3] = f32::NEG_INFINITY;
        scores[4 * 9 + 1] = f32::NAN;
        check("dpp_regular", &c, true, 1, vec![enc, scores], &anchors(24), [WANT_REGULAR_BOXES, WANT_REGULAR_CLASSES, WANT_REGULAR_SCORES, WANT_REGULAR_NUM]);
    }

    #[test]
    fn fast_nms_matches_tflite_micro() {
        let c = Case { num_boxes: 22, stride: 5, classes_with_background: 5, entries: 8, const_anchors: false, options: options(false, 5, 8, 1, 0.3, 0.45) };
        let enc = grid(21, 22 * 5, -2.0, 2.0, 50);
        let mut scores = grid(22, 22 * 5, 0.0, 1.0, 6);
        for &i in &[0, 5 * 2, 5 * 4 + 3, 5 * 6 + 1, 5 * 6 + 4, 5 * 11] {
            scores[i] = f32::NAN;
        }
        let a = anchors(22);
        check("dpp_fast", &c, false, 1, vec![enc, scores, a.clone()], &a, [WANT_FAST_BOXES, WANT_FAST_CLASSES, WANT_FAST_SCORES, WANT_FAST_NUM]);
    }

    #[test]
    fn fast_nms_two_classes_per_anchor_matches_tflite_micro() {
        let c = Case { num_boxes: 3, stride: 4, classes_with_background: 5, entries: 12, const_anchors: true, options: options(false, 4, 6, 2, 0.1, 0.9) };
        let enc = grid(31, 12, -1.0, 1.0, 40);
        let scores = grid(32, 15, 0.0, 1.0, 16);
        check("dpp_fast_two", &c, false, 2, vec![enc, scores], &anchors(3), [WANT_FAST2_BOXES, WANT_FAST2_CLASSES, WANT_FAST2_SCORES, WANT_FAST2_NUM]);
    }

    /// TFLite Micro's refusals (quantized inputs fail its Eval; the option and shape checks
    /// of Prepare and Eval) and tflc's own (outputs too small for what Eval writes).
    #[test]
    fn refusals() {
        let base = || Case { num_boxes: 6, stride: 4, classes_with_background: 3, entries: 4, const_anchors: true, options: options(true, 2, 4, 1, 0.3, 0.5) };
        let lower = |c: &Case, dt: DType| lower_op0(&model(c, &anchors(c.num_boxes), dt).0);
        assert!(lower(&base(), DType::F32).is_ok());
        for dt in [DType::I8, DType::U8] {
            let e = lower(&base(), dt).unwrap_err();
            assert!(matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("float32 only"), "{e}");
        }
        let with = |key: &'static str, v: FlexValue| {
            let mut c = base();
            c.options.retain(|(k, _)| *k != key);
            c.options.push((key, v));
            c
        };
        for (c, needle) in [
            (with("nms_iou_threshold", FlexValue::Float(0.0)), "(0, 1]"),
            (with("nms_iou_threshold", FlexValue::Float(1.5)), "(0, 1]"),
            (with("detections_per_class", FlexValue::Int(0)), "detections_per_class"),
            (with("max_detections", FlexValue::Int(-1)), "max_detections"),
            (with("max_detections", FlexValue::Int(5)), "TFLite Micro writes"),
            (with("num_classes", FlexValue::Int(1)), "num_classes + 1"),
            (with("num_classes", FlexValue::Int(4)), "num_classes + 1"),
            (with("num_classes", FlexValue::Int(0)), "at least 1"),
        ] {
            let e = lower(&c, DType::F32).unwrap_err();
            assert!(e.to_string().contains(needle), "{needle}: {e}");
        }
        let mut fast = with("use_regular_nms", FlexValue::Bool(false));
        fast.options.retain(|(k, _)| *k != "max_classes_per_detection");
        assert!(lower(&fast, DType::F32).unwrap_err().to_string().contains("max_classes_per_detection"));
        let mut no_options = base();
        no_options.options.clear();
        // Every key missing reads as 0: num_classes = 0 is refused.
        assert!(lower(&no_options, DType::F32).unwrap_err().to_string().contains("num_classes = 0"));
        let mut c = base();
        c.stride = 3;
        expect_invalid(&model(&c, &anchors(6), DType::F32).0);
    }

    /// The call the generated `run()` makes: params, the three inputs, the four outputs and
    /// the scratch as `i32` words.
    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let c = Case { num_boxes: 6, stride: 4, classes_with_background: 3, entries: 4, const_anchors: true, options: options(true, 2, 4, 1, 0.3, 0.5) };
        let code = emit_op0(&model(&c, &anchors(6), DType::F32).0);
        assert!(code.contains("detection_postprocess_f32(") && code.contains("as_i32_mut") && code.contains("use_regular_nms: true"), "{code}");
    }

    const WANT_REGULAR_BOXES: &[u32] = &[1053243176, 1049021108, 1058340882, 1054369920, 1059276884, 1051701737, 1061501632, 1057682392, 1008075448, 1031216966, 1042492184, 1048511740, 1056731330, 1049871184, 1062848415, 1060642392, 992113376, 1031980651, 1048376098, 1046387914, 1052358326, 1048278120, 1057443227, 1056064974, 3183537197, 1016984604, 1049505474, 1047806332, 992113376, 1031980651, 1048376098, 1046387914, 1052912606, 1044148890, 1059475053, 1055927579, 1058418146, 1050123534, 1060561012, 1055888934];
    const WANT_REGULAR_CLASSES: &[u32] = &[1065353216, 0, 1065353216, 1065353216, 1073741824, 1073741824, 0, 0, 0, 1073741824];
    const WANT_REGULAR_SCORES: &[u32] = &[2139095040, 1063256064, 1063256064, 1063256064, 1063256064, 1063256064, 1061158912, 1061158912, 1061158912, 1061158912];
    const WANT_REGULAR_NUM: &[u32] = &[1092616192];
    const WANT_FAST_BOXES: &[u32] = &[1052689921, 1047828292, 1057684613, 1056197612, 1059388722, 1050376918, 1062486186, 1056970119, 1027526662, 1017624924, 1044671264, 1046799352, 1042833140, 1039797938, 1054373376, 1054612498, 1058807566, 1048474117, 1062745216, 1058902682, 3171112482, 1033042182, 1048800968, 1049858986, 1049057408, 1039360161, 1054166600, 1051098064, 1050262098, 1044137357, 1058898526, 1057436736];
    const WANT_FAST_CLASSES: &[u32] = &[1073741824, 1073741824, 0, 1073741824, 0, 0, 1082130432, 1065353216];
    const WANT_FAST_SCORES: &[u32] = &[1062557013, 1062557013, 1062557013, 1062557013, 1062557013, 1059760811, 1059760811, 1059760811];
    const WANT_FAST_NUM: &[u32] = &[1090519040];
    const WANT_FAST2_BOXES: &[u32] = &[3153410592, 1019808796, 1043441081, 1047600110, 48, 0, 0, 0, 60, 0, 0, 0, 3153410592, 1019808796, 1043441081, 1047600110, 3158977784, 1020929896, 1046491586, 1047459973, 72, 0, 0, 0, 72, 0, 0, 0, 3158977784, 1020929896, 1046491586, 1047459973, 3170412452, 1012837712, 1047740722, 1049462136, 72, 0, 0, 0, 36, 0, 0, 0, 3170412452, 1012837712, 1047740722, 1049462136];
    const WANT_FAST2_CLASSES: &[u32] = &[1077936128, 1, 72, 1065353216, 1077936128, 21854, 1, 1073741824, 1073741824, 1, 12, 1077936128];
    const WANT_FAST2_SCORES: &[u32] = &[1064304640, 21854, 1, 1058013184, 1062207488, 1, 72, 1052770304, 1056964608, 21854, 1, 1056964608];
    const WANT_FAST2_NUM: &[u32] = &[1086324736];
}
