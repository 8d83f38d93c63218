//! TFLite Micro's signal-library custom operators (the audio front end): SignalWindow,
//! SignalFftAutoScale, SignalRfft (int16), SignalEnergy, SignalFilterBank,
//! SignalFilterBankSquareRoot, SignalFilterBankSpectralSubtraction, SignalPCAN and
//! SignalFilterBankLog.
//!
//! Each lowering mirrors its kernel's Init (the FlexBuffer custom options, read by position
//! as `FlexbufferWrapper::ElementAs*` does, with the key at that position checked) and
//! Prepare (arity, element types, ranks), and checks at compile time every index the
//! runtime loop takes, which TFLite Micro does not (it would read out of bounds). The
//! runtime kernels are `tflc_runtime::kernels::signal::*`.
//!
//! State: SignalFilterBankSpectralSubtraction's noise estimate lives in TFLite Micro's
//! persistent buffer, reset to zero in Prepare, and is copied to the op's second output after
//! every call. The reader marks that output a variable tensor ([`state_output`]); the kernel
//! reads the previous estimate from it and updates it in place, so the output and its
//! carry-over across `run()` calls are TFLite Micro's.
//!
//! Hidden state: SignalDelay, SignalFramer, SignalStacker and SignalOverlapAdd keep circular
//! buffers in TFLite Micro's persistent buffers that no output shows. The reader gives each
//! such op state tensors of its own ([`add_state_tensors`]): variable tensors appended to the
//! subgraph and to the op's outputs, after the file's, sized by the op's own lowering run in
//! [`Slots::Layout`] mode. They are variable tensors like any other (kept across `run()`
//! calls, never reused by the planner, zero at reset, which each kernel's state layout makes
//! the state after TFLite Micro's Prepare and Reset); the lowering ([`Slots::Lower`]) checks
//! that they are there with those types and sizes.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, OpCode, Operator, Tensor, TensorId};
use crate::tflite::flexbuffers::{FlexMap, FlexValue};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::signal::{
    energy::{energy_s16, EnergyParams},
    fft_auto_scale::fft_auto_scale_s16,
    filter_bank::{filter_bank_u32, FilterBankParams},
    filter_bank_log::{filter_bank_log_u32, FilterBankLogParams},
    filter_bank_spectral_subtraction::{filter_bank_spectral_subtraction_u32, SpectralSubtractionParams},
    filter_bank_square_root::filter_bank_square_root_u64,
    pcan::{pcan_u32, PcanParams, PCAN_LUT_MIN_LEN},
    rfft::{kiss_factors, rfft_s16, RfftParams},
    window::{window_s16, WindowParams},
    delay::{delay_s16, DelayParams},
    framer::{framer_s16, FramerParams},
    irfft::{irfft_s16, IrfftParams},
    overlap_add::{overlap_add_f32, overlap_add_s16, OverlapAddParams},
    stacker::{stacker_s16, StackerParams},
};

crate::runtime_struct_lit!(kernels::signal::window::WindowParams { shift });
crate::runtime_struct_lit!(kernels::signal::energy::EnergyParams { start_index, end_index });
crate::runtime_struct_lit!(kernels::signal::filter_bank::FilterBankParams { num_channels });
crate::runtime_struct_lit!(kernels::signal::filter_bank_log::FilterBankLogParams { output_scale, input_correction_bits });
crate::runtime_struct_lit!(kernels::signal::pcan::PcanParams { snr_shift });
crate::runtime_struct_lit!(kernels::signal::filter_bank_spectral_subtraction::SpectralSubtractionParams {
    num_channels,
    smoothing,
    one_minus_smoothing,
    alternate_smoothing,
    alternate_one_minus_smoothing,
    min_signal_remaining,
    smoothing_bits,
    spectral_subtraction_bits,
    clamping,
});
crate::runtime_struct_lit!(kernels::signal::delay::DelayParams { frame_size, delay_length, outer_dims });
crate::runtime_struct_lit!(kernels::signal::framer::FramerParams { frame_size, frame_step, n_frames, outer_dims, capacity, prefilled });
crate::runtime_struct_lit!(kernels::signal::stacker::StackerParams { num_channels, left_context, buffer_size, step_size });
crate::runtime_struct_lit!(kernels::signal::overlap_add::OverlapAddParams { frame_size, frame_step, n_frames, outer_dims });
crate::runtime_struct_lit!(kernels::signal::irfft::IrfftParams<'a> {
    fft_length,
    input_stride,
    frames,
    factors,
    twiddles,
    super_twiddles,
});
crate::runtime_struct_lit!(kernels::signal::rfft::RfftParams<'a> {
    fft_length,
    input_length,
    frames,
    factors,
    twiddles,
    super_twiddles,
});

const SPECTRAL_SUBTRACTION: &str = "SignalFilterBankSpectralSubtraction";

/// The output that holds an op's state across calls, if the op has one: output 1 (the noise
/// estimate) of SignalFilterBankSpectralSubtraction. The reader makes it a variable tensor.
pub(crate) fn state_output(op: &Operator<'_>) -> Option<TensorId> {
    match &op.opcode {
        OpCode::Custom(c) if c == SPECTRAL_SUBTRACTION => op.outputs.get(1).copied(),
        _ => None,
    }
}

/// The ops whose state no output shows, and how many outputs TFLite Micro gives each.
const HIDDEN_STATE: &[(&str, usize)] = &[("SignalDelay", 1), ("SignalFramer", 2), ("SignalStacker", 2), ("SignalOverlapAdd", 1)];

/// Where an op's hidden state tensors come from.
pub(crate) enum Slots {
    /// While reading: the lowering records each state tensor's element type and length.
    Layout(Vec<(DType, usize)>),
    /// While lowering: the state tensors are the op's outputs from `next` on, in order.
    Lower { next: usize },
}

impl Slots {
    /// The op's outputs in the file must be `n` (TFLite Micro's `NumOutputs` check); when
    /// lowering, the state tensors follow them.
    fn file_arity(&mut self, cx: &OpCx<'_, '_>, n: usize) -> Result<(), LowerError> {
        let outs = cx.op.outputs.len();
        let ok = match self {
            Slots::Layout(_) => outs == n,
            Slots::Lower { next } => {
                *next = n;
                outs >= n
            }
        };
        if cx.op.inputs.len() != 1 || !ok {
            return Err(cx.invalid(format!("TFLite Micro requires 1 input and {n} output(s), found {} and {}", cx.op.inputs.len(), outs)));
        }
        Ok(())
    }

    /// The next state tensor: `len` elements of `dtype` (none when `len` is 0).
    fn take(&mut self, cx: &OpCx<'_, '_>, dtype: DType, len: usize) -> Result<Option<TensorId>, LowerError> {
        if len == 0 {
            return Ok(None);
        }
        match self {
            Slots::Layout(v) => {
                v.push((dtype, len));
                Ok(None)
            }
            Slots::Lower { next } => {
                let t = cx.output(*next).map_err(|_| cx.invalid("the op's state tensors are missing (the reader adds them)"))?;
                *next += 1;
                if !t.is_variable || t.is_constant() || t.dtype != dtype || t.num_elements() != len || cx.op.inputs.contains(&Some(t.id)) {
                    return Err(cx.invalid_tensor(t, format!("not the op's state: {len} elements of {dtype} in a variable tensor of its own expected")));
                }
                Ok(Some(t.id))
            }
        }
    }

    /// Every output was the file's or a state tensor.
    fn finish(&self, cx: &OpCx<'_, '_>) -> Result<(), LowerError> {
        match self {
            Slots::Lower { next } if *next != cx.op.outputs.len() => Err(cx.invalid(format!("{} outputs, of which {} are the file's and the op's state", cx.op.outputs.len(), next))),
            _ => Ok(()),
        }
    }
}

/// Gives every op with hidden state ([`HIDDEN_STATE`]) its state tensors: new variable
/// tensors of `sg`, appended to the op's outputs. An op whose lowering fails gets none (its
/// lowering reports the error).
pub(crate) fn add_state_tensors(sg: &mut crate::ir::Subgraph<'_>) {
    let mut wanted = Vec::new();
    for op in sg.ops.iter() {
        let OpCode::Custom(name) = &op.opcode else { continue };
        if !HIDDEN_STATE.iter().any(|(n, _)| n == name) {
            continue;
        }
        let cx = OpCx { sg, op };
        let mut slots = Slots::Layout(Vec::new());
        if lower_with(&cx, &mut slots).is_ok() {
            if let Slots::Layout(v) = slots {
                wanted.push((op.id, name.clone(), v));
            }
        }
    }
    for (op, name, specs) in wanted {
        for (k, (dtype, len)) in specs.into_iter().enumerate() {
            let id = TensorId::new(sg.tensors.len());
            sg.tensors.push(Tensor {
                id,
                name: format!("{name} state {k} (op {})", op.index()),
                dtype,
                shape: vec![len],
                shape_signature: None,
                quant: None,
                data: None,
                is_variable: true,
                sparsity: None,
            });
            sg.ops[op].outputs.push(id);
        }
    }
}

/// A lowered signal op.
#[derive(Debug, Clone)]
pub enum Signal {
    Window { input: TensorId, window: TensorId, output: TensorId, params: WindowParams },
    FftAutoScale { input: TensorId, output: TensorId, scale_bits: TensorId },
    Rfft { input: TensorId, output: TensorId, rfft: HeldRfft },
    Energy { input: TensorId, output: TensorId, params: EnergyParams, input_len: usize, output_len: usize },
    FilterBank { input: TensorId, tables: [TensorId; 5], output: TensorId, params: FilterBankParams },
    FilterBankSquareRoot { input: TensorId, scale_bits: TensorId, output: TensorId },
    SpectralSubtraction { input: TensorId, output: TensorId, noise_estimate: TensorId, params: SpectralSubtractionParams },
    Pcan { input: TensorId, noise_estimate: TensorId, gain_lut: TensorId, output: TensorId, params: PcanParams },
    FilterBankLog { input: TensorId, output: TensorId, params: FilterBankLogParams },
    Delay { input: TensorId, output: TensorId, state: Option<TensorId>, params: DelayParams },
    Framer { input: TensorId, output: TensorId, valid: TensorId, samples: Option<TensorId>, count: Option<TensorId>, params: FramerParams },
    Stacker { input: TensorId, output: TensorId, valid: TensorId, samples: Option<TensorId>, counters: Option<TensorId>, params: StackerParams },
    OverlapAdd { input: TensorId, output: TensorId, state: Option<TensorId>, params: OverlapAddParams, float: bool },
    Irfft { input: TensorId, output: TensorId, irfft: HeldIrfft },
}

/// The inverse real FFT's compile-time tables, owned ([`IrfftParams`] borrows them).
#[derive(Debug, Clone, PartialEq)]
pub struct HeldIrfft {
    pub fft_length: usize,
    pub input_stride: usize,
    pub frames: usize,
    pub factors: Vec<u16>,
    pub twiddles: Vec<i16>,
    pub super_twiddles: Vec<i16>,
}

impl HeldIrfft {
    fn params(&self) -> IrfftParams<'_> {
        IrfftParams {
            fft_length: self.fft_length,
            input_stride: self.input_stride,
            frames: self.frames,
            factors: &self.factors,
            twiddles: &self.twiddles,
            super_twiddles: &self.super_twiddles,
        }
    }
}

/// The real FFT's compile-time tables, owned ([`RfftParams`] borrows them).
#[derive(Debug, Clone, PartialEq)]
pub struct HeldRfft {
    pub fft_length: usize,
    pub input_length: usize,
    pub frames: usize,
    pub factors: Vec<u16>,
    pub twiddles: Vec<i16>,
    pub super_twiddles: Vec<i16>,
}

impl HeldRfft {
    fn params(&self) -> RfftParams<'_> {
        RfftParams {
            fft_length: self.fft_length,
            input_length: self.input_length,
            frames: self.frames,
            factors: &self.factors,
            twiddles: &self.twiddles,
            super_twiddles: &self.super_twiddles,
        }
    }
}

/// KISS FFT's `kf_cexp` for `FIXED_POINT 16`: `floor(.5 + 32767 * cos(phase))` and the
/// same of `sin`, in double, stored into int16.
fn cexp_q15(phase: f64) -> [i16; 2] {
    [(0.5 + 32767.0 * phase.cos()).floor() as i16, (0.5 + 32767.0 * phase.sin()).floor() as i16]
}

/// `kiss_fftr_alloc(fft_length, inverse, ..)`'s tables: the complex FFT's `nfft = N / 2`
/// twiddles (`phase = -2 * pi * i / nfft`) and the `nfft / 2` super twiddles
/// (`phase = -pi * ((i + 1) / nfft + .5)`), with KISS FFT's double constants; the inverse
/// config negates each phase (`phase *= -1`) before `kf_cexp`.
pub fn kiss_fftr_tables(fft_length: usize, inverse: bool) -> (Vec<i16>, Vec<i16>) {
    let sign = if inverse { -1.0 } else { 1.0 };
    let nfft = fft_length / 2;
    // KISS FFT spells pi as a 61-digit and a 30-digit literal; both round to this double
    // (`kiss_pi_literals_are_pi`).
    const PI: f64 = std::f64::consts::PI;
    const PI_SUPER: f64 = std::f64::consts::PI;
    let twiddles = (0..nfft).flat_map(|i| cexp_q15(-2.0 * PI * i as f64 / nfft as f64 * sign)).collect();
    let super_twiddles = (0..nfft / 2).flat_map(|i| cexp_q15(-PI_SUPER * ((i + 1) as f64 / nfft as f64 + 0.5) * sign)).collect();
    (twiddles, super_twiddles)
}

/// The op's custom options as a FlexBuffer map.
fn options(cx: &OpCx<'_, '_>) -> Result<FlexMap, LowerError> {
    let bytes = cx.op.custom_options.ok_or_else(|| cx.invalid("the custom options (a FlexBuffer map) are missing"))?;
    FlexMap::parse(bytes).map_err(|e| cx.invalid(format!("custom options: {e}")))
}

/// Option `index` (TFLite Micro's position), which must be `key`, as `ElementAsInt32`.
fn opt_i32(cx: &OpCx<'_, '_>, m: &FlexMap, index: usize, key: &str) -> Result<i32, LowerError> {
    let v = m.at(index, key).map_err(|e| cx.invalid(e))?;
    v.as_i32().ok_or_else(|| cx.unsupported(format!("custom option {key:?} is {v:?}, not a number")))
}

/// A shift count option, which must be in `0..=max` (C shifts by more are undefined).
fn opt_shift(cx: &OpCx<'_, '_>, m: &FlexMap, index: usize, key: &str, max: u32) -> Result<u32, LowerError> {
    let v = opt_i32(cx, m, index, key)?;
    u32::try_from(v).ok().filter(|&s| s <= max).ok_or_else(|| cx.unsupported(format!("custom option {key:?} = {v}: a shift outside 0..={max}")))
}

fn opt_count(cx: &OpCx<'_, '_>, m: &FlexMap, index: usize, key: &str) -> Result<usize, LowerError> {
    let v = opt_i32(cx, m, index, key)?;
    usize::try_from(v).map_err(|_| cx.invalid(format!("custom option {key:?} = {v} is negative")))
}

fn expect_rank(cx: &OpCx<'_, '_>, t: &Tensor<'_>, rank: usize) -> Result<(), LowerError> {
    if t.shape.len() != rank {
        return Err(cx.invalid_tensor(t, format!("shape {:?} (TFLite Micro requires rank {rank})", t.shape)));
    }
    Ok(())
}

/// [`expect_rank`] of every `(tensor, rank, dtype)`, then `cx.expect_dtype` of every one, in
/// that order (the order TFLite Micro's Prepare checks them).
fn expect_tensors(cx: &OpCx<'_, '_>, specs: &[(&Tensor<'_>, usize, DType)]) -> Result<(), LowerError> {
    for &(t, rank, _) in specs {
        expect_rank(cx, t, rank)?;
    }
    for &(t, _, dtype) in specs {
        cx.expect_dtype(t, dtype)?;
    }
    Ok(())
}

fn expect_len(cx: &OpCx<'_, '_>, t: &Tensor<'_>, n: usize) -> Result<(), LowerError> {
    if t.num_elements() != n {
        return Err(cx.invalid_tensor(t, format!("{} elements, expected {n}", t.num_elements())));
    }
    Ok(())
}

fn const_i16(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<Vec<i16>, LowerError> {
    cx.expect_dtype(t, DType::I16)?;
    match TensorData::from_le_bytes(DType::I16, cx.expect_constant(t)?) {
        Some(TensorData::I16(v)) if v.len() == t.num_elements() => Ok(v),
        _ => Err(cx.invalid_tensor(t, "malformed int16 constant")),
    }
}

/// The custom codes of TFLite Micro's signal library that tflc lowers ([`lower`]); any other
/// custom code is the caller's kernel (`user_custom`).
pub(crate) const SIGNAL_OPS: &[&str] = &[
    "SignalWindow",
    "SignalFftAutoScale",
    "SignalRfft",
    "SignalEnergy",
    "SignalFilterBank",
    "SignalFilterBankSquareRoot",
    SPECTRAL_SUBTRACTION,
    "SignalPCAN",
    "SignalFilterBankLog",
    "SignalIrfft",
    "SignalDelay",
    "SignalFramer",
    "SignalStacker",
    "SignalOverlapAdd",
];

/// Whether `name` is one of [`SIGNAL_OPS`].
pub(crate) fn is_signal_op(name: &str) -> bool {
    SIGNAL_OPS.contains(&name)
}

/// Lowers a custom op of the signal library; any other custom or unknown op is unsupported.
pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let name = match &cx.op.opcode {
        OpCode::Custom(c) => c.as_str(),
        _ => return Err(cx.unsupported(cx.op.unsupported_reason().unwrap_or("tflc has no kernel for this operator yet"))),
    };
    match name {
        "SignalWindow" => lower_window(cx),
        "SignalFftAutoScale" => lower_fft_auto_scale(cx),
        "SignalRfft" => lower_rfft(cx),
        "SignalEnergy" => lower_energy(cx),
        "SignalFilterBank" => lower_filter_bank(cx),
        "SignalFilterBankSquareRoot" => lower_square_root(cx),
        SPECTRAL_SUBTRACTION => lower_spectral_subtraction(cx),
        "SignalPCAN" => lower_pcan(cx),
        "SignalFilterBankLog" => lower_log(cx),
        "SignalIrfft" => lower_irfft(cx),
        _ => {
            let mut slots = Slots::Lower { next: 0 };
            let op = lower_with(cx, &mut slots)?;
            slots.finish(cx)?;
            Ok(op)
        }
    }
}

/// The ops with hidden state, their state tensors from `slots`; any other custom op is
/// unsupported.
fn lower_with(cx: &OpCx<'_, '_>, slots: &mut Slots) -> Result<Signal, LowerError> {
    match &cx.op.opcode {
        OpCode::Custom(c) if c == "SignalDelay" => lower_delay(cx, slots),
        OpCode::Custom(c) if c == "SignalFramer" => lower_framer(cx, slots),
        OpCode::Custom(c) if c == "SignalStacker" => lower_stacker(cx, slots),
        OpCode::Custom(c) if c == "SignalOverlapAdd" => lower_overlap_add(cx, slots),
        _ => Err(cx.unsupported("custom operator")),
    }
}

/// The innermost dimension of a tensor of rank >= 1 and the element count over it.
fn frames_of(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<(usize, usize), LowerError> {
    let Some(&inner) = t.shape.last() else {
        return Err(cx.invalid_tensor(t, "a scalar (TFLite Micro reads its innermost dimension)"));
    };
    if inner == 0 {
        return Err(cx.unsupported_tensor(t, "an innermost dimension of 0 (TFLite Micro divides by it)"));
    }
    Ok((inner, t.num_elements() / inner))
}

fn lower_delay(cx: &OpCx<'_, '_>, slots: &mut Slots) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let delay_length = opt_count(cx, &m, 0, "delay_length")?;
    slots.file_arity(cx, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    cx.expect_dtype(input, DType::I16)?;
    cx.expect_dtype(output, DType::I16)?;
    let (frame_size, outer_dims) = frames_of(cx, input)?;
    expect_len(cx, output, input.num_elements())?;
    let params = DelayParams { frame_size, delay_length, outer_dims };
    let state = slots.take(cx, DType::I16, params.state_len())?;
    Ok(Signal::Delay { input: input.id, output: output.id, state, params })
}

fn lower_framer(cx: &OpCx<'_, '_>, slots: &mut Slots) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let frame_size = opt_count(cx, &m, 0, "frame_size")?;
    let frame_step = opt_count(cx, &m, 1, "frame_step")?;
    let prefill = m.at(2, "prefill").map_err(|e| cx.invalid(e))?;
    let prefill = prefill.as_bool().ok_or_else(|| cx.unsupported(format!("custom option \"prefill\" is {prefill:?}")))?;
    slots.file_arity(cx, 2)?;
    let (input, output, valid) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    if output.shape.len() != input.shape.len() + 1 || !valid.shape.is_empty() {
        return Err(cx.invalid_tensor(output, format!("ranks {}, {} and {} (TFLite Micro requires the input's plus one, and a scalar flag)", input.shape.len(), output.shape.len(), valid.shape.len())));
    }
    expect_tensors(cx, &[(input, input.shape.len(), DType::I16), (output, output.shape.len(), DType::I16), (valid, 0, DType::Bool)])?;
    if frame_step == 0 || frame_size == 0 {
        return Err(cx.unsupported(format!("frame_size {frame_size}, frame_step {frame_step} (TFLite Micro divides by the step and cannot buffer an empty frame)")));
    }
    if prefill && frame_step > frame_size {
        return Err(cx.unsupported(format!("prefill with frame_step {frame_step} > frame_size {frame_size} (TFLite Micro would prefill a negative count)")));
    }
    let (inner, outer_dims) = frames_of(cx, input)?;
    if inner < frame_step || !inner.is_multiple_of(frame_step) {
        return Err(cx.invalid_tensor(input, format!("innermost dimension {inner} is not a positive multiple of frame_step {frame_step} (TFLite Micro requires it)")));
    }
    let n_frames = inner / frame_step;
    expect_len(cx, output, outer_dims * n_frames * frame_size)?;
    let capacity = frame_size.div_ceil(frame_step) * frame_step;
    let prefilled = if prefill { frame_size - frame_step } else { 0 };
    if i32::try_from(capacity.max(outer_dims * capacity)).is_err() {
        return Err(cx.unsupported(format!("a buffer of {capacity} samples per outer index")));
    }
    let params = FramerParams { frame_size, frame_step, n_frames, outer_dims, capacity, prefilled };
    let samples = slots.take(cx, DType::I16, params.samples_len())?;
    let count = slots.take(cx, DType::I32, 1)?;
    Ok(Signal::Framer { input: input.id, output: output.id, valid: valid.id, samples, count, params })
}

fn lower_stacker(cx: &OpCx<'_, '_>, slots: &mut Slots) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let num_channels = opt_count(cx, &m, 0, "num_channels")?;
    let left = opt_count(cx, &m, 1, "stacker_left_context")?;
    let right = opt_count(cx, &m, 2, "stacker_right_context")?;
    let step = opt_count(cx, &m, 3, "stacker_step")?;
    slots.file_arity(cx, 2)?;
    let (input, output, valid) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    expect_tensors(cx, &[(input, 1, DType::I16), (output, 1, DType::I16), (valid, 0, DType::Bool)])?;
    let context = left + right + 1;
    if num_channels == 0 || step == 0 || step > context {
        return Err(cx.unsupported(format!(
            "num_channels {num_channels}, stacker_step {step} with {context} stacked frames (TFLite Micro's buffer cannot discard an empty or a larger step than it holds)"
        )));
    }
    let buffer_size = num_channels.checked_mul(context).filter(|&b| i32::try_from(b).is_ok()).ok_or_else(|| cx.unsupported("a stacker buffer too large"))?;
    if input.num_elements() < num_channels {
        return Err(cx.invalid_tensor(input, format!("{} elements for {num_channels} channels (TFLite Micro would read past it)", input.num_elements())));
    }
    expect_len(cx, output, buffer_size)?;
    let params = StackerParams { num_channels, left_context: left, buffer_size, step_size: num_channels * step };
    let samples = slots.take(cx, DType::I16, buffer_size)?;
    let counters = slots.take(cx, DType::I32, 2)?;
    Ok(Signal::Stacker { input: input.id, output: output.id, valid: valid.id, samples, counters, params })
}

/// The option `T` (read by key, as TFLite Micro's `InitAll`): int16 or float32 (`None`
/// for another type).
fn opt_type(cx: &OpCx<'_, '_>, m: &FlexMap) -> Result<i32, LowerError> {
    m.get("T").and_then(FlexValue::as_i32).ok_or_else(|| cx.invalid("custom option \"T\" is missing"))
}

fn lower_overlap_add(cx: &OpCx<'_, '_>, slots: &mut Slots) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    // TensorType_FLOAT32 = 0, TensorType_INT16 = 7.
    let dtype = match opt_type(cx, &m)? {
        0 => DType::F32,
        7 => DType::I16,
        t => return Err(cx.unsupported(format!("SignalOverlapAdd of TensorType {t} (TFLite Micro has int16 and float32)"))),
    };
    let frame_step = opt_count(cx, &m, 1, "frame_step")?;
    slots.file_arity(cx, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    if input.shape.len() != output.shape.len() + 1 || input.shape.len() < 2 {
        return Err(cx.invalid_tensor(output, format!("ranks {} and {} (TFLite Micro requires the output's plus one, at least 2)", input.shape.len(), output.shape.len())));
    }
    cx.expect_dtype(input, dtype)?;
    cx.expect_dtype(output, dtype)?;
    let r = input.shape.len();
    let (frame_size, n_frames) = (input.shape[r - 1], input.shape[r - 2]);
    if frame_size * n_frames == 0 {
        return Err(cx.unsupported_tensor(input, "no frames (TFLite Micro divides by their size)"));
    }
    if frame_step == 0 || frame_step > frame_size {
        return Err(cx.unsupported(format!("frame_step {frame_step} for frames of {frame_size} (TFLite Micro shifts its buffer by a step of 1..=frame_size)")));
    }
    let outer_dims = input.num_elements() / (frame_size * n_frames);
    expect_len(cx, output, outer_dims * n_frames * frame_step)?;
    let params = OverlapAddParams { frame_size, frame_step, n_frames, outer_dims };
    let state = slots.take(cx, dtype, params.state_len())?;
    Ok(Signal::OverlapAdd { input: input.id, output: output.id, state, params, float: dtype == DType::F32 })
}

fn lower_irfft(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let ty = opt_type(cx, &m)?;
    let fft_length = opt_count(cx, &m, 1, "fft_length")?;
    if ty != 7 {
        return Err(cx.unsupported(format!("SignalIrfft of TensorType {ty} (tflc implements the int16 inverse FFT)")));
    }
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    if input.shape.is_empty() || input.shape.len() != output.shape.len() {
        return Err(cx.invalid_tensor(output, format!("shapes {:?} and {:?} (equal ranks of at least 1)", input.shape, output.shape)));
    }
    cx.expect_dtype(input, DType::I16)?;
    cx.expect_dtype(output, DType::I16)?;
    if fft_length < 4 || !fft_length.is_multiple_of(2) {
        return Err(cx.unsupported(format!("fft_length {fft_length} (the real FFT needs an even length of at least 4)")));
    }
    let (input_stride, frames) = frames_of(cx, input)?;
    if !input_stride.is_multiple_of(2) || input_stride < fft_length + 2 {
        return Err(cx.unsupported_tensor(input, format!("frames of {input_stride} int16s: {} complex values (re, im) expected for fft_length {fft_length}", fft_length / 2 + 1)));
    }
    if output.shape[output.shape.len() - 1] != fft_length || output.num_elements() != frames * fft_length {
        return Err(cx.unsupported_tensor(output, format!("shape {:?}: {frames} frame(s) of {fft_length} samples expected", output.shape)));
    }
    let (f, n) = kiss_factors(fft_length / 2).ok_or_else(|| cx.unsupported(format!("fft_length {fft_length} cannot be factored")))?;
    let factors = f[..n].to_vec();
    if let Some(p) = factors.iter().step_by(2).find(|&&p| !(2..=5).contains(&p)) {
        return Err(cx.unsupported(format!(
            "fft_length {fft_length} has the radix {p}: KISS FFT's generic butterfly allocates scratch, which TFLite Micro's build does not provide"
        )));
    }
    let (twiddles, super_twiddles) = kiss_fftr_tables(fft_length, true);
    Ok(Signal::Irfft { input: input.id, output: output.id, irfft: HeldIrfft { fft_length, input_stride, frames, factors, twiddles, super_twiddles } })
}

fn lower_window(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let shift = opt_shift(cx, &m, 0, "shift", 31)?;
    cx.expect_arity(2..=2, 1)?;
    let (input, window, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    for t in [input, window, output] {
        cx.expect_dtype(t, DType::I16)?;
    }
    if input.shape.is_empty() {
        return Err(cx.invalid_tensor(input, "a scalar (TFLite Micro requires rank >= 1)"));
    }
    expect_rank(cx, window, 1)?;
    if output.shape.len() != input.shape.len() {
        return Err(cx.invalid_tensor(output, "rank differs from the input's"));
    }
    expect_len(cx, output, input.num_elements())?;
    let w = window.num_elements();
    if w == 0 || !input.num_elements().is_multiple_of(w) {
        return Err(cx.unsupported_tensor(input, format!("{} elements are not whole frames of the {w}-tap window (TFLite Micro would read past the input)", input.num_elements())));
    }
    Ok(Signal::Window { input: input.id, window: window.id, output: output.id, params: WindowParams { shift } })
}

fn lower_fft_auto_scale(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    cx.expect_arity(1..=1, 2)?;
    let (input, output, scale_bits) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    expect_tensors(cx, &[(input, 1, DType::I16), (output, 1, DType::I16), (scale_bits, 0, DType::I32)])?;
    expect_len(cx, output, input.num_elements())?;
    Ok(Signal::FftAutoScale { input: input.id, output: output.id, scale_bits: scale_bits.id })
}

fn lower_rfft(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    // `RfftInitAll` reads `T` by key, `fft_length` by position 1.
    let ty = m.get("T").and_then(FlexValue::as_i32).ok_or_else(|| cx.invalid("custom option \"T\" is missing"))?;
    let fft_length = opt_count(cx, &m, 1, "fft_length")?;
    // TensorType_INT16 = 7.
    if ty != 7 {
        return Err(cx.unsupported(format!("SignalRfft of TensorType {ty} (tflc implements the int16 FFT)")));
    }
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    cx.expect_dtype(input, DType::I16)?;
    cx.expect_dtype(output, DType::I16)?;
    if input.shape.is_empty() || output.shape.len() != input.shape.len() {
        return Err(cx.invalid_tensor(output, format!("shapes {:?} and {:?} (equal ranks of at least 1)", input.shape, output.shape)));
    }
    if fft_length < 4 || !fft_length.is_multiple_of(2) {
        return Err(cx.unsupported(format!("fft_length {fft_length} (the real FFT needs an even length of at least 4)")));
    }
    let input_length = input.shape[input.shape.len() - 1];
    if input_length == 0 || input_length > fft_length {
        return Err(cx.unsupported_tensor(input, format!("frames of {input_length} samples for fft_length {fft_length}")));
    }
    let frames = input.num_elements() / input_length;
    let out_last = output.shape[output.shape.len() - 1];
    if out_last != 2 * (fft_length / 2 + 1) || output.num_elements() != frames * out_last {
        return Err(cx.invalid_tensor(output, format!("shape {:?}: {frames} frame(s) of {} complex values expected", output.shape, fft_length / 2 + 1)));
    }
    let (f, n) = kiss_factors(fft_length / 2).ok_or_else(|| cx.unsupported(format!("fft_length {fft_length} cannot be factored")))?;
    let factors = f[..n].to_vec();
    if let Some(p) = factors.iter().step_by(2).find(|&&p| !(2..=5).contains(&p)) {
        return Err(cx.unsupported(format!(
            "fft_length {fft_length} has the radix {p}: KISS FFT's generic butterfly allocates scratch, which TFLite Micro's build does not provide"
        )));
    }
    let (twiddles, super_twiddles) = kiss_fftr_tables(fft_length, false);
    Ok(Signal::Rfft { input: input.id, output: output.id, rfft: HeldRfft { fft_length, input_length, frames, factors, twiddles, super_twiddles } })
}

fn lower_energy(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let end_index = opt_count(cx, &m, 0, "end_index")?;
    let start_index = opt_count(cx, &m, 1, "start_index")?;
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    expect_tensors(cx, &[(input, 1, DType::I16), (output, 1, DType::U32)])?;
    if start_index > end_index || end_index > input.num_elements() / 2 || end_index > output.num_elements() {
        return Err(cx.invalid(format!(
            "start_index {start_index}, end_index {end_index} outside {} complex inputs / {} outputs",
            input.num_elements() / 2,
            output.num_elements()
        )));
    }
    let params = EnergyParams { start_index, end_index };
    Ok(Signal::Energy { input: input.id, output: output.id, params, input_len: input.num_elements(), output_len: output.num_elements() })
}

fn lower_filter_bank(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let num_channels = opt_count(cx, &m, 0, "num_channels")?;
    cx.expect_arity(6..=6, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    expect_tensors(cx, &[(input, 1, DType::U32), (output, 1, DType::U64)])?;
    expect_len(cx, output, num_channels)?;
    let mut tables = Vec::new();
    let mut data = Vec::new();
    for i in 1..6 {
        let t = cx.input(i)?;
        expect_rank(cx, t, 1)?;
        data.push(const_i16(cx, t)?);
        tables.push(t);
    }
    let [weights, unweights, freq_starts, weight_starts, widths] = [&data[0], &data[1], &data[2], &data[3], &data[4]];
    if unweights.len() != weights.len() {
        return Err(cx.invalid_tensor(tables[1], "unweights and weights differ in length"));
    }
    for (k, t) in [(2, tables[2]), (3, tables[3]), (4, tables[4])] {
        if data[k].len() < num_channels + 1 {
            return Err(cx.invalid_tensor(t, format!("{} entries for {num_channels} channels (num_channels + 1 needed)", data[k].len())));
        }
    }
    for i in 0..=num_channels {
        let (f, w, n) = (freq_starts[i] as i64, weight_starts[i] as i64, widths[i].max(0) as i64);
        if f < 0 || w < 0 || f + n > input.num_elements() as i64 || w + n > weights.len() as i64 {
            return Err(cx.invalid_tensor(
                tables[2],
                format!("channel {i}: frequency start {f}, weight start {w}, width {n} reach outside the {} inputs / {} weights", input.num_elements(), weights.len()),
            ));
        }
    }
    let ids = [tables[0].id, tables[1].id, tables[2].id, tables[3].id, tables[4].id];
    Ok(Signal::FilterBank { input: input.id, tables: ids, output: output.id, params: FilterBankParams { num_channels } })
}

fn lower_square_root(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (input, scale_bits, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    expect_tensors(cx, &[(input, 1, DType::U64), (scale_bits, 0, DType::I32), (output, 1, DType::U32)])?;
    expect_len(cx, output, input.num_elements())?;
    Ok(Signal::FilterBankSquareRoot { input: input.id, scale_bits: scale_bits.id, output: output.id })
}

fn lower_spectral_subtraction(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let u = |i, k| opt_i32(cx, &m, i, k).map(|v| v as u32);
    let alternate_one_minus_smoothing = u(0, "alternate_one_minus_smoothing")?;
    let alternate_smoothing = u(1, "alternate_smoothing")?;
    let clamping = m.at(2, "clamping").map_err(|e| cx.invalid(e))?;
    let clamping = clamping.as_bool().ok_or_else(|| cx.unsupported(format!("custom option \"clamping\" is {clamping:?}")))?;
    let min_signal_remaining = u(3, "min_signal_remaining")?;
    let num_channels = opt_count(cx, &m, 4, "num_channels")?;
    let one_minus_smoothing = u(5, "one_minus_smoothing")?;
    let smoothing = u(6, "smoothing")?;
    let smoothing_bits = opt_shift(cx, &m, 7, "smoothing_bits", 31)?;
    let spectral_subtraction_bits = opt_shift(cx, &m, 8, "spectral_subtraction_bits", 63)?;
    cx.expect_arity(1..=1, 2)?;
    let (input, output, noise) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    for t in [input, output, noise] {
        expect_rank(cx, t, 1)?;
        cx.expect_dtype(t, DType::U32)?;
        expect_len(cx, t, num_channels)?;
    }
    if !noise.is_variable || noise.is_constant() || input.id == noise.id || output.id == noise.id {
        return Err(cx.invalid_tensor(noise, "the noise estimate must be a state tensor of its own"));
    }
    let params = SpectralSubtractionParams {
        num_channels,
        smoothing,
        one_minus_smoothing,
        alternate_smoothing,
        alternate_one_minus_smoothing,
        min_signal_remaining,
        smoothing_bits,
        spectral_subtraction_bits,
        clamping,
    };
    Ok(Signal::SpectralSubtraction { input: input.id, output: output.id, noise_estimate: noise.id, params })
}

fn lower_pcan(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let snr_shift = opt_shift(cx, &m, 0, "snr_shift", 63)?;
    cx.expect_arity(3..=3, 1)?;
    let (input, noise, lut, output) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.output(0)?);
    for t in [input, noise, lut, output] {
        expect_rank(cx, t, 1)?;
    }
    cx.expect_dtype(input, DType::U32)?;
    cx.expect_dtype(noise, DType::U32)?;
    cx.expect_dtype(lut, DType::I16)?;
    cx.expect_dtype(output, DType::U32)?;
    expect_len(cx, noise, input.num_elements())?;
    expect_len(cx, output, input.num_elements())?;
    if lut.num_elements() < PCAN_LUT_MIN_LEN {
        return Err(cx.unsupported_tensor(lut, format!("a gain table of {} entries (the gain function reads up to {PCAN_LUT_MIN_LEN})", lut.num_elements())));
    }
    Ok(Signal::Pcan { input: input.id, noise_estimate: noise.id, gain_lut: lut.id, output: output.id, params: PcanParams { snr_shift } })
}

fn lower_log(cx: &OpCx<'_, '_>) -> Result<Signal, LowerError> {
    let m = options(cx)?;
    let input_correction_bits = opt_shift(cx, &m, 0, "input_correction_bits", 31)?;
    let output_scale = opt_i32(cx, &m, 1, "output_scale")? as u32;
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    expect_tensors(cx, &[(input, 1, DType::U32), (output, 1, DType::I16)])?;
    expect_len(cx, output, input.num_elements())?;
    Ok(Signal::FilterBankLog { input: input.id, output: output.id, params: FilterBankLogParams { output_scale, input_correction_bits } })
}

fn check_len<T>(v: &[T], n: usize, t: TensorId) -> Result<(), ExecError> {
    if v.len() != n {
        return Err(ExecError(format!("tensor {t} has {} elements, expected {n}", v.len())));
    }
    Ok(())
}

impl Kernel for Signal {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            Signal::Window { input, window, output, params } => {
                let x = s.i16(*input)?.to_vec();
                let w = s.i16(*window)?.to_vec();
                let mut y = s.take_i16(*output, x.len());
                window_s16(params, &x, &w, &mut y);
                s.insert(*output, TensorData::I16(y));
            }
            Signal::FftAutoScale { input, output, scale_bits } => {
                let x = s.i16(*input)?.to_vec();
                let mut y = s.take_i16(*output, x.len());
                let mut bits = s.take_i32(*scale_bits, 1);
                fft_auto_scale_s16(&x, &mut y, &mut bits);
                s.insert(*output, TensorData::I16(y));
                s.insert(*scale_bits, TensorData::I32(bits));
            }
            Signal::Rfft { input, output, rfft } => {
                let p = rfft.params();
                let x = s.i16(*input)?.to_vec();
                check_len(&x, p.frames * p.input_length, *input)?;
                let mut y = s.take_i16(*output, p.frames * 2 * (p.fft_length / 2 + 1));
                let mut scratch = vec![0i16; p.scratch_len()];
                rfft_s16(&p, &x, &mut y, &mut scratch);
                s.insert(*output, TensorData::I16(y));
            }
            Signal::Energy { input, output, params, input_len, output_len } => {
                let x = s.i16(*input)?.to_vec();
                check_len(&x, *input_len, *input)?;
                let mut y = s.take_u32(*output, *output_len);
                energy_s16(params, &x, &mut y);
                s.insert(*output, TensorData::U32(y));
            }
            Signal::FilterBank { input, tables, output, params } => {
                let x = s.u32(*input)?.to_vec();
                let t: Vec<Vec<i16>> = tables.iter().map(|&t| s.i16(t).map(<[i16]>::to_vec)).collect::<Result<_, _>>()?;
                let mut y = s.take_u64(*output, params.num_channels);
                filter_bank_u32(params, &x, &t[0], &t[1], &t[2], &t[3], &t[4], &mut y);
                s.insert(*output, TensorData::U64(y));
            }
            Signal::FilterBankSquareRoot { input, scale_bits, output } => {
                let x = s.u64(*input)?.to_vec();
                let bits = s.i32(*scale_bits)?.to_vec();
                let mut y = s.take_u32(*output, x.len());
                filter_bank_square_root_u64(&x, &bits, &mut y);
                s.insert(*output, TensorData::U32(y));
            }
            Signal::SpectralSubtraction { input, output, noise_estimate, params } => {
                let x = s.u32(*input)?.to_vec();
                check_len(&x, params.num_channels, *input)?;
                let mut y = s.take_u32(*output, params.num_channels);
                let mut noise = s.take_u32(*noise_estimate, params.num_channels);
                filter_bank_spectral_subtraction_u32(params, &x, &mut y, &mut noise);
                s.insert(*output, TensorData::U32(y));
                s.insert(*noise_estimate, TensorData::U32(noise));
            }
            Signal::Pcan { input, noise_estimate, gain_lut, output, params } => {
                let x = s.u32(*input)?.to_vec();
                let noise = s.u32(*noise_estimate)?.to_vec();
                let lut = s.i16(*gain_lut)?.to_vec();
                check_len(&noise, x.len(), *noise_estimate)?;
                let mut y = s.take_u32(*output, x.len());
                pcan_u32(params, &x, &noise, &lut, &mut y);
                s.insert(*output, TensorData::U32(y));
            }
            Signal::FilterBankLog { input, output, params } => {
                let x = s.u32(*input)?.to_vec();
                let mut y = s.take_i16(*output, x.len());
                filter_bank_log_u32(params, &x, &mut y);
                s.insert(*output, TensorData::I16(y));
            }
            Signal::Delay { input, output, state, params } => {
                let x = s.i16(*input)?.to_vec();
                check_len(&x, params.outer_dims * params.frame_size, *input)?;
                let mut y = s.take_i16(*output, x.len());
                let mut st = take_state_i16(s, *state, params.state_len());
                delay_s16(params, &x, &mut y, &mut st);
                s.insert(*output, TensorData::I16(y));
                put_state(s, *state, TensorData::I16(st));
            }
            Signal::Framer { input, output, valid, samples, count, params } => {
                let x = s.i16(*input)?.to_vec();
                check_len(&x, params.outer_dims * params.n_frames * params.frame_step, *input)?;
                // A frame not produced keeps what the output held (TFLite Micro does not write it).
                let mut y = s.take_i16(*output, params.outer_dims * params.n_frames * params.frame_size);
                let mut buf = take_state_i16(s, *samples, params.samples_len());
                let mut n = take_state_i32(s, *count, 1);
                let mut v = [0u8];
                framer_s16(params, &x, &mut y, &mut v, &mut buf, &mut n);
                s.insert(*output, TensorData::I16(y));
                s.insert(*valid, TensorData::Bool(vec![v[0] != 0]));
                put_state(s, *samples, TensorData::I16(buf));
                put_state(s, *count, TensorData::I32(n));
            }
            Signal::Stacker { input, output, valid, samples, counters, params } => {
                let x = s.i16(*input)?.to_vec();
                if x.len() < params.num_channels {
                    return Err(ExecError(format!("tensor {input} has {} elements, expected at least {}", x.len(), params.num_channels)));
                }
                let mut y = s.take_i16(*output, params.buffer_size);
                let mut buf = take_state_i16(s, *samples, params.buffer_size);
                let mut n = take_state_i32(s, *counters, 2);
                let mut v = [0u8];
                stacker_s16(params, &x, &mut y, &mut v, &mut buf, &mut n);
                s.insert(*output, TensorData::I16(y));
                s.insert(*valid, TensorData::Bool(vec![v[0] != 0]));
                put_state(s, *samples, TensorData::I16(buf));
                put_state(s, *counters, TensorData::I32(n));
            }
            Signal::OverlapAdd { input, output, state, params, float } => {
                let (n_in, n_out) = (params.outer_dims * params.n_frames * params.frame_size, params.outer_dims * params.n_frames * params.frame_step);
                if *float {
                    let x = s.f32(*input)?.to_vec();
                    check_len(&x, n_in, *input)?;
                    let mut y = s.take_f32(*output, n_out);
                    let mut st = match state {
                        Some(t) => s.take_f32(*t, params.state_len()),
                        None => Vec::new(),
                    };
                    overlap_add_f32(params, &x, &mut y, &mut st);
                    s.insert(*output, TensorData::F32(y));
                    put_state(s, *state, TensorData::F32(st));
                } else {
                    let x = s.i16(*input)?.to_vec();
                    check_len(&x, n_in, *input)?;
                    let mut y = s.take_i16(*output, n_out);
                    let mut st = take_state_i16(s, *state, params.state_len());
                    overlap_add_s16(params, &x, &mut y, &mut st);
                    s.insert(*output, TensorData::I16(y));
                    put_state(s, *state, TensorData::I16(st));
                }
            }
            Signal::Irfft { input, output, irfft } => {
                let p = irfft.params();
                let x = s.i16(*input)?.to_vec();
                check_len(&x, p.frames * p.input_stride, *input)?;
                let mut y = s.take_i16(*output, p.frames * p.fft_length);
                let mut scratch = vec![0i16; p.scratch_len()];
                irfft_s16(&p, &x, &mut y, &mut scratch);
                s.insert(*output, TensorData::I16(y));
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let k = quote! { #rt::kernels::signal };
        match self {
            Signal::Window { input, window, output, params } => {
                let p = cx.params_lit(quote! { kernels::signal::window::WindowParams }, params);
                let (x, w, y) = (cx.input(*input), cx.input(*window), cx.output(*output));
                quote! { #k::window::window_s16(&#p, #x, #w, #y); }
            }
            Signal::FftAutoScale { input, output, scale_bits } => {
                let (x, y, b) = (cx.input(*input), cx.output(*output), cx.output(*scale_bits));
                quote! { #k::fft_auto_scale::fft_auto_scale_s16(#x, #y, #b); }
            }
            Signal::Rfft { input, output, rfft } => {
                let p = cx.params_lit(quote! { kernels::signal::rfft::RfftParams<'static> }, &rfft.params());
                let (x, y) = (cx.input(*input), cx.output(*output));
                let scratch = cx.scratch();
                quote! { #k::rfft::rfft_s16(&#p, #x, #y, #rt::__private::as_i16_mut(#scratch)); }
            }
            Signal::Energy { input, output, params, .. } => {
                let p = cx.params_lit(quote! { kernels::signal::energy::EnergyParams }, params);
                let (x, y) = (cx.input(*input), cx.output(*output));
                quote! { #k::energy::energy_s16(&#p, #x, #y); }
            }
            Signal::FilterBank { input, tables, output, params } => {
                let p = cx.params_lit(quote! { kernels::signal::filter_bank::FilterBankParams }, params);
                let x = cx.input(*input);
                let t: Vec<TokenStream> = tables.iter().map(|&t| cx.input(t)).collect();
                let y = cx.output(*output);
                quote! { #k::filter_bank::filter_bank_u32(&#p, #x, #(#t,)* #y); }
            }
            Signal::FilterBankSquareRoot { input, scale_bits, output } => {
                let (x, b, y) = (cx.input(*input), cx.input(*scale_bits), cx.output(*output));
                quote! { #k::filter_bank_square_root::filter_bank_square_root_u64(#x, #b, #y); }
            }
            Signal::SpectralSubtraction { input, output, noise_estimate, params } => {
                let p = cx.params_lit(quote! { kernels::signal::filter_bank_spectral_subtraction::SpectralSubtractionParams }, params);
                let (x, y, n) = (cx.input(*input), cx.output(*output), cx.output(*noise_estimate));
                quote! { #k::filter_bank_spectral_subtraction::filter_bank_spectral_subtraction_u32(&#p, #x, #y, #n); }
            }
            Signal::Pcan { input, noise_estimate, gain_lut, output, params } => {
                let p = cx.params_lit(quote! { kernels::signal::pcan::PcanParams }, params);
                let (x, n, l, y) = (cx.input(*input), cx.input(*noise_estimate), cx.input(*gain_lut), cx.output(*output));
                quote! { #k::pcan::pcan_u32(&#p, #x, #n, #l, #y); }
            }
            Signal::FilterBankLog { input, output, params } => {
                let p = cx.params_lit(quote! { kernels::signal::filter_bank_log::FilterBankLogParams }, params);
                let (x, y) = (cx.input(*input), cx.output(*output));
                quote! { #k::filter_bank_log::filter_bank_log_u32(&#p, #x, #y); }
            }
            Signal::Delay { input, output, state, params } => {
                let p = cx.params_lit(quote! { kernels::signal::delay::DelayParams }, params);
                let (x, y, st) = (cx.input(*input), cx.output(*output), state_view(cx, *state));
                quote! { #k::delay::delay_s16(&#p, #x, #y, #st); }
            }
            Signal::Framer { input, output, valid, samples, count, params } => {
                let p = cx.params_lit(quote! { kernels::signal::framer::FramerParams }, params);
                let (x, y, v) = (cx.input(*input), cx.output(*output), cx.output_bytes(*valid));
                let (b, n) = (state_view(cx, *samples), state_view(cx, *count));
                quote! { #k::framer::framer_s16(&#p, #x, #y, #v, #b, #n); }
            }
            Signal::Stacker { input, output, valid, samples, counters, params } => {
                let p = cx.params_lit(quote! { kernels::signal::stacker::StackerParams }, params);
                let (x, y, v) = (cx.input(*input), cx.output(*output), cx.output_bytes(*valid));
                let (b, n) = (state_view(cx, *samples), state_view(cx, *counters));
                quote! { #k::stacker::stacker_s16(&#p, #x, #y, #v, #b, #n); }
            }
            Signal::OverlapAdd { input, output, state, params, float } => {
                let p = cx.params_lit(quote! { kernels::signal::overlap_add::OverlapAddParams }, params);
                let (x, y, st) = (cx.input(*input), cx.output(*output), state_view(cx, *state));
                let f = if *float { quote! { overlap_add_f32 } } else { quote! { overlap_add_s16 } };
                quote! { #k::overlap_add::#f(&#p, #x, #y, #st); }
            }
            Signal::Irfft { input, output, irfft } => {
                let p = cx.params_lit(quote! { kernels::signal::irfft::IrfftParams<'static> }, &irfft.params());
                let (x, y) = (cx.input(*input), cx.output(*output));
                let scratch = cx.scratch();
                quote! { #k::irfft::irfft_s16(&#p, #x, #y, #rt::__private::as_i16_mut(#scratch)); }
            }
        }
    }

    fn scratch_bytes(&self) -> usize {
        match self {
            Signal::Rfft { rfft, .. } => rfft.params().scratch_len() * 2,
            Signal::Irfft { irfft, .. } => irfft.params().scratch_len() * 2,
            _ => 0,
        }
    }
}

/// A state tensor's contents for `execute` (its reset value before the first call), or
/// nothing for an empty state.
fn take_state_i16(s: &mut TensorStore, t: Option<TensorId>, len: usize) -> Vec<i16> {
    t.map(|t| s.take_i16(t, len)).unwrap_or_default()
}

fn take_state_i32(s: &mut TensorStore, t: Option<TensorId>, len: usize) -> Vec<i32> {
    t.map(|t| s.take_i32(t, len)).unwrap_or_default()
}

fn put_state(s: &mut TensorStore, t: Option<TensorId>, d: TensorData) {
    if let Some(t) = t {
        s.insert(t, d);
    }
}

/// The exclusive view of a state tensor in the generated call, or an empty slice.
fn state_view(cx: &mut EmitCx<'_, '_, '_>, t: Option<TensorId>) -> TokenStream {
    match t {
        Some(t) => cx.output(t),
        None => quote! { &mut [] },
    }
}

#[cfg(test)]
mod tests {
    //! Single-op models built with the builder, expected outputs from TFLite Micro's
    //! interpreter (`tools/op_test_vectors.py`, which runs the signal library's registered
    //! kernels): configurations the corpus' audio front end does not reach (radix-3/5 FFT
    //! with zero padding and two frames, clamping spectral subtraction, other shifts).
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, TensorId};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};
    use crate::tflite::flexbuffers::{write_map, FlexValue};

    fn custom(m: &mut ModelBuilder, name: &str, opts: &[(&str, FlexValue)], ins: &[TensorId], outs: &[TensorId]) {
        let ins: Vec<Option<TensorId>> = ins.iter().map(|&t| Some(t)).collect();
        let op = m.op_spec(OpSpecCode::Custom(name.into()), &ins, outs);
        m.custom_options(op, write_map(opts));
    }

    fn i16s(seed: u32, n: usize, range: i32) -> Vec<i16> {
        (0..n as u32).map(|i| ((i.wrapping_mul(2_654_435_761).wrapping_add(seed.wrapping_mul(40_503)) >> 7) as i32 % range) as i16).collect()
    }

    fn u32s(seed: u32, n: usize, shift: u32) -> Vec<u32> {
        (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed.wrapping_mul(97_531)) >> shift).collect()
    }

    fn lut() -> Vec<i16> {
        (0..125).map(|i: i32| ((i * 7919) % 2048 - 300) as i16).collect()
    }

    #[test]
    fn rfft_radix_2_3_5_two_zero_padded_frames() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[2, 50], None);
        let y = m.activation("y", DType::I16, &[2, 62], None);
        custom(&mut m, "SignalRfft", &[("T", FlexValue::Int(7)), ("fft_length", FlexValue::Int(60))], &[x], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let s = run_op0("signal_rfft60", &m.finish(), &[(x, TensorData::I16(i16s(1, 100, 30000)))]);
        assert_eq!(s.i16(y).unwrap(), WANT_RFFT60);
    }

    #[test]
    fn window_shift_and_saturation() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[2, 8], None);
        let w = m.constant("w", DType::I16, &[8], [16384i16, 32767, -32768, 1000, 0, 5, -7, 30000].iter().flat_map(|v| v.to_le_bytes()).collect(), None);
        let y = m.activation("y", DType::I16, &[2, 8], None);
        custom(&mut m, "SignalWindow", &[("shift", FlexValue::Int(12))], &[x, w], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let s = run_op0("signal_window", &m.finish(), &[(x, TensorData::I16(i16s(2, 16, 32768)))]);
        assert_eq!(s.i16(y).unwrap(), WANT_WINDOW);
    }

    #[test]
    fn fft_auto_scale_and_square_root_and_energy() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[8], None);
        let y = m.activation("y", DType::I16, &[8], None);
        let b = m.activation("b", DType::I32, &[], None);
        custom(&mut m, "SignalFftAutoScale", &[], &[x], &[y, b]);
        m.inputs(&[x]).outputs(&[y, b]);
        let s = run_op0("signal_auto_scale", &m.finish(), &[(x, TensorData::I16(vec![3, -700, 12, 0, 699, -1, 5, 100]))]);
        assert_eq!(s.i16(y).unwrap(), WANT_AUTO_SCALE);

        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::U64, &[5], None);
        let b = m.activation("b", DType::I32, &[], None);
        let y = m.activation("y", DType::U32, &[5], None);
        custom(&mut m, "SignalFilterBankSquareRoot", &[], &[x, b], &[y]);
        m.inputs(&[x, b]).outputs(&[y]);
        let xs = vec![0u64, 99, 1 << 33, u64::MAX, 123_456_789_012];
        let s = run_op0("signal_sqrt", &m.finish(), &[(x, TensorData::U64(xs)), (b, TensorData::I32(vec![3]))]);
        assert_eq!(s.u32(y).unwrap(), WANT_SQRT);

        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[10], None);
        let y = m.activation("y", DType::U32, &[5], None);
        custom(&mut m, "SignalEnergy", &[("end_index", FlexValue::Int(5)), ("start_index", FlexValue::Int(0))], &[x], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let s = run_op0("signal_energy", &m.finish(), &[(x, TensorData::I16(vec![-32768, -32768, 3, 4, 32767, 0, -5, 12, 0, 0]))]);
        assert_eq!(s.u32(y).unwrap(), WANT_ENERGY);
    }

    #[test]
    fn filter_bank_two_channels() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::U32, &[8], None);
        let c = |m: &mut ModelBuilder, n: &str, v: &[i16]| m.constant(n, DType::I16, &[v.len()], v.iter().flat_map(|v| v.to_le_bytes()).collect(), None);
        let w = c(&mut m, "w", &[100, 2000, 3000, -400, 4095, 1]);
        let u = c(&mut m, "u", &[3995, 2095, 1095, 4095, 0, 4094]);
        let fs = c(&mut m, "fs", &[0, 2, 5]);
        let ws = c(&mut m, "ws", &[0, 2, 4]);
        let wd = c(&mut m, "wd", &[2, 2, 2]);
        let y = m.activation("y", DType::U64, &[2], None);
        custom(&mut m, "SignalFilterBank", &[("num_channels", FlexValue::Int(2))], &[x, w, u, fs, ws, wd], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let s = run_op0("signal_filter_bank", &m.finish(), &[(x, TensorData::U32(u32s(3, 8, 2)))]);
        assert_eq!(s.u64(y).unwrap(), WANT_FILTER_BANK);
    }

    fn spectral_options(clamping: bool) -> Vec<(&'static str, FlexValue)> {
        vec![
            ("alternate_one_minus_smoothing", FlexValue::Int(15000)),
            ("alternate_smoothing", FlexValue::Int(1384)),
            ("clamping", FlexValue::Bool(clamping)),
            ("min_signal_remaining", FlexValue::Int(1000)),
            ("num_channels", FlexValue::Int(6)),
            ("one_minus_smoothing", FlexValue::Int(16000)),
            ("smoothing", FlexValue::Int(384)),
            ("smoothing_bits", FlexValue::Int(10)),
            ("spectral_subtraction_bits", FlexValue::Int(14)),
        ]
    }

    #[test]
    fn spectral_subtraction_pcan_and_log() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::U32, &[6], None);
        let y = m.activation("y", DType::U32, &[6], None);
        let n = m.activation("n", DType::U32, &[6], None);
        custom(&mut m, "SignalFilterBankSpectralSubtraction", &spectral_options(true), &[x], &[y, n]);
        m.inputs(&[x]).outputs(&[y, n]);
        let bytes = m.finish();
        let s = run_op0("signal_spectral", &bytes, &[(x, TensorData::U32(u32s(4, 6, 12)))]);
        assert_eq!(s.u32(y).unwrap(), WANT_SPECTRAL);
        // The noise estimate is the op's state: a variable tensor after reading.
        let model = crate::passes::read_model(&bytes).unwrap();
        assert!(model.main().tensor(n).is_variable && !model.main().tensor(y).is_variable);

        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::U32, &[6], None);
        let n = m.activation("n", DType::U32, &[6], None);
        let l = m.constant("lut", DType::I16, &[125], lut().iter().flat_map(|v| v.to_le_bytes()).collect(), None);
        let y = m.activation("y", DType::U32, &[6], None);
        custom(&mut m, "SignalPCAN", &[("snr_shift", FlexValue::Int(6))], &[x, n, l], &[y]);
        m.inputs(&[x, n]).outputs(&[y]);
        let noise = vec![0, 1, 2, 3, 5000, 1 << 20];
        let s = run_op0("signal_pcan", &m.finish(), &[(x, TensorData::U32(u32s(5, 6, 14))), (n, TensorData::U32(noise))]);
        assert_eq!(s.u32(y).unwrap(), WANT_PCAN);

        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::U32, &[6], None);
        let y = m.activation("y", DType::I16, &[6], None);
        custom(&mut m, "SignalFilterBankLog", &[("input_correction_bits", FlexValue::Int(3)), ("output_scale", FlexValue::Int(1600))], &[x], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let s = run_op0("signal_log", &m.finish(), &[(x, TensorData::U32(vec![0, 1, 2, 1000, u32::MAX >> 3, 77_777]))]);
        assert_eq!(s.i16(y).unwrap(), WANT_LOG);
    }

    /// Lowers op 0 of `bytes` once and runs it on one store for every step of inputs, so
    /// that state carries over; returns the store after each step. With
    /// `TFLC_DUMP_OP_MODELS` set, writes the model and each step's inputs
    /// (`<name>.s<k>.in<i>.bin`) for `tools/op_test_vectors.py`.
    fn run_op0_steps(name: &str, bytes: &[u8], steps: &[Vec<(TensorId, TensorData)>]) -> Vec<super::super::TensorStore> {
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{name}.tflite")), bytes).unwrap();
            for (k, step) in steps.iter().enumerate() {
                for (i, (_, d)) in step.iter().enumerate() {
                    std::fs::write(dir.join(format!("{name}.s{k}.in{i}.bin")), d.to_le_bytes()).unwrap();
                }
            }
        }
        let model = crate::passes::read_model(bytes).unwrap();
        let sg = model.main();
        let kernel = super::super::lower(sg, &sg.ops[crate::ir::OpId::new(0)]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut store = super::super::TensorStore::with_constants(sg);
        let mut out = Vec::new();
        for step in steps {
            for (t, d) in step {
                store.insert(*t, d.clone());
            }
            kernel.execute(&mut store).unwrap();
            out.push(store.clone());
        }
        out
    }

    /// TFLite Micro's outputs of consecutive calls.
    type Calls = &'static [&'static [i16]];

    fn valid(s: &super::super::TensorStore, t: TensorId) -> bool {
        match s.get(t) {
            Some(TensorData::Bool(v)) if v.len() == 1 => v[0],
            other => panic!("output_valid is {other:?}"),
        }
    }

    #[test]
    fn delay_shorter_and_longer_than_the_frame_over_three_calls() {
        for (name, delay, want) in [("signal_delay3", 3, WANT_DELAY3), ("signal_delay7", 7, WANT_DELAY7)] {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[2, 5], None);
            let y = m.activation("y", DType::I16, &[2, 5], None);
            custom(&mut m, "SignalDelay", &[("delay_length", FlexValue::Int(delay))], &[x], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            let steps: Vec<_> = (0..3).map(|k| vec![(x, TensorData::I16(i16s(10 + k, 10, 30000)))]).collect();
            let runs = run_op0_steps(name, &m.finish(), &steps);
            for (k, s) in runs.iter().enumerate() {
                assert_eq!(s.i16(y).unwrap(), want[k], "{name} step {k}");
            }
        }
    }

    #[test]
    fn framer_with_and_without_prefill_and_a_step_past_the_frame() {
        // (name, frame_size, frame_step, prefill, input shape, output shape, steps)
        type Shape = &'static [usize];
        let cases: [(&str, i64, i64, bool, Shape, Shape, Calls); 3] = [
            ("signal_framer_prefill", 5, 2, true, &[2, 4], &[2, 2, 5], WANT_FRAMER_PREFILL),
            ("signal_framer", 5, 2, false, &[1, 6], &[1, 3, 5], WANT_FRAMER),
            ("signal_framer_skip", 3, 4, false, &[8], &[2, 3], WANT_FRAMER_SKIP),
        ];
        for (name, fs, st, prefill, xs, ys, want) in cases {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, xs, None);
            let y = m.activation("y", DType::I16, ys, None);
            let v = m.activation("valid", DType::Bool, &[], None);
            let opts = [("frame_size", FlexValue::Int(fs)), ("frame_step", FlexValue::Int(st)), ("prefill", FlexValue::Bool(prefill))];
            custom(&mut m, "SignalFramer", &opts, &[x], &[y, v]);
            m.inputs(&[x]).outputs(&[y, v]);
            let n: usize = xs.iter().product();
            let steps: Vec<_> = (0..3).map(|k| vec![(x, TensorData::I16(i16s(20 + k, n, 30000)))]).collect();
            let runs = run_op0_steps(name, &m.finish(), &steps);
            assert_eq!(want.len(), runs.len(), "{name}");
            for (k, s) in runs.iter().enumerate() {
                // TFLite Micro's flag, then the frames it wrote: every one when valid; in
                // `signal_framer`'s first call only the third (the others are left as they were).
                let (ok, frames) = (want[k][0] != 0, &want[k][1..]);
                assert_eq!(valid(s, v), ok, "{name} step {k}");
                let got = s.i16(y).unwrap();
                if ok {
                    assert_eq!(got, frames, "{name} step {k}");
                } else if name == "signal_framer" && k == 0 {
                    assert_eq!(&got[10..], &frames[10..], "{name} step {k}");
                }
            }
        }
    }

    #[test]
    fn stacker_pads_the_first_frame_and_steps() {
        // (name, channels, left, right, step, calls)
        let cases: [(&str, usize, i64, i64, i64, Calls); 2] =
            [("signal_stacker", 3, 2, 1, 2, WANT_STACKER), ("signal_stacker_right", 2, 0, 2, 1, WANT_STACKER_RIGHT)];
        for (name, nc, left, right, step, want) in cases {
            let mut m = ModelBuilder::new();
            let out_len = nc * (left + right + 1) as usize;
            // One more input sample than channels: TFLite Micro reads `num_channels` of them.
            let x = m.activation("x", DType::I16, &[nc + 1], None);
            let y = m.activation("y", DType::I16, &[out_len], None);
            let v = m.activation("valid", DType::Bool, &[], None);
            let opts = [
                ("num_channels", FlexValue::Int(nc as i64)),
                ("stacker_left_context", FlexValue::Int(left)),
                ("stacker_right_context", FlexValue::Int(right)),
                ("stacker_step", FlexValue::Int(step)),
            ];
            custom(&mut m, "SignalStacker", &opts, &[x], &[y, v]);
            m.inputs(&[x]).outputs(&[y, v]);
            let steps: Vec<_> = (0..4).map(|k| vec![(x, TensorData::I16(i16s(30 + k, nc + 1, 30000)))]).collect();
            let runs = run_op0_steps(name, &m.finish(), &steps);
            assert_eq!(want.len(), runs.len(), "{name}");
            for (k, s) in runs.iter().enumerate() {
                let ok = want[k][0] != 0;
                assert_eq!(valid(s, v), ok, "{name} step {k}");
                if ok {
                    assert_eq!(s.i16(y).unwrap(), &want[k][1..], "{name} step {k}");
                }
            }
        }
    }

    #[test]
    fn overlap_add_int16_saturates_and_float32_adds_over_calls() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[2, 3, 4], None);
        let y = m.activation("y", DType::I16, &[2, 6], None);
        custom(&mut m, "SignalOverlapAdd", &[("T", FlexValue::Int(7)), ("frame_step", FlexValue::Int(2))], &[x], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        // Large samples, so that the sums saturate.
        let steps: Vec<_> = (0..3).map(|k| vec![(x, TensorData::I16(i16s(40 + k, 24, 32768).iter().map(|v| v.wrapping_mul(3)).collect()))]).collect();
        let runs = run_op0_steps("signal_overlap_add", &m.finish(), &steps);
        for (k, s) in runs.iter().enumerate() {
            assert_eq!(s.i16(y).unwrap(), WANT_OVERLAP_ADD[k], "step {k}");
        }

        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[3, 4], None);
        let y = m.activation("y", DType::F32, &[9], None);
        custom(&mut m, "SignalOverlapAdd", &[("T", FlexValue::Int(0)), ("frame_step", FlexValue::Int(3))], &[x], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let steps: Vec<_> =
            (0..2).map(|k| vec![(x, TensorData::F32(i16s(50 + k, 12, 20000).iter().map(|&v| v as f32 / 7.0).collect()))]).collect();
        let runs = run_op0_steps("signal_overlap_add_f32", &m.finish(), &steps);
        for (k, s) in runs.iter().enumerate() {
            let bits: Vec<u32> = s.f32(y).unwrap().iter().map(|v| v.to_bits()).collect();
            assert_eq!(bits, WANT_OVERLAP_ADD_F32[k], "step {k}");
        }
    }

    #[test]
    fn irfft_radix_4_and_radix_2_3_5() {
        for (name, fft, frames, want) in [("signal_irfft32", 32usize, 2usize, WANT_IRFFT32), ("signal_irfft60", 60, 1, WANT_IRFFT60)] {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[frames, fft + 2], None);
            let y = m.activation("y", DType::I16, &[frames, fft], None);
            custom(&mut m, "SignalIrfft", &[("T", FlexValue::Int(7)), ("fft_length", FlexValue::Int(fft as i64))], &[x], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            let s = run_op0(name, &m.finish(), &[(x, TensorData::I16(i16s(60, frames * (fft + 2), 30000)))]);
            assert_eq!(s.i16(y).unwrap(), want, "{name}");
        }
    }

    #[test]
    fn hidden_state_tensors_are_added_by_the_reader() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[6], None);
        let y = m.activation("y", DType::I16, &[3, 3], None);
        let v = m.activation("valid", DType::Bool, &[], None);
        custom(&mut m, "SignalFramer", &[("frame_size", FlexValue::Int(3)), ("frame_step", FlexValue::Int(2)), ("prefill", FlexValue::Bool(true))], &[x], &[y, v]);
        m.inputs(&[x]).outputs(&[y, v]);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let sg = model.main();
        let op = &sg.ops[crate::ir::OpId::new(0)];
        assert_eq!(op.outputs.len(), 4);
        let (b, n) = (sg.tensor(op.outputs[2]), sg.tensor(op.outputs[3]));
        assert!(b.is_variable && n.is_variable);
        assert_eq!((b.dtype, b.shape.clone(), n.dtype, n.shape.clone()), (DType::I16, vec![4], DType::I32, vec![1]));
        assert_eq!(b.name, "SignalFramer state 0 (op 0)");
    }

    #[test]
    fn stateful_ops_refuse_what_tflite_micro_cannot_run() {
        let framer = |fs: i64, st: i64, prefill: bool, n: usize, outs: usize| {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[n], None);
            let y = m.activation("y", DType::I16, &[(n / st.max(1) as usize).max(1), fs.max(1) as usize], None);
            let v = m.activation("valid", DType::Bool, &[], None);
            let opts = [("frame_size", FlexValue::Int(fs)), ("frame_step", FlexValue::Int(st)), ("prefill", FlexValue::Bool(prefill))];
            let o = [y, v];
            custom(&mut m, "SignalFramer", &opts, &[x], &o[..outs]);
            m.inputs(&[x]).outputs(&o[..outs]);
            m.finish()
        };
        // Prefill of a negative count; a zero step; an input not whole steps; one output.
        expect_unsupported(&framer(2, 4, true, 8, 2));
        expect_unsupported(&framer(3, 0, false, 8, 2));
        expect_invalid(&framer(3, 4, false, 6, 2));
        expect_invalid(&framer(3, 2, false, 6, 1));
        let stacker = |step: i64, out: usize| {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[2], None);
            let y = m.activation("y", DType::I16, &[out], None);
            let v = m.activation("valid", DType::Bool, &[], None);
            let opts = [
                ("num_channels", FlexValue::Int(2)),
                ("stacker_left_context", FlexValue::Int(1)),
                ("stacker_right_context", FlexValue::Int(0)),
                ("stacker_step", FlexValue::Int(step)),
            ];
            custom(&mut m, "SignalStacker", &opts, &[x], &[y, v]);
            m.inputs(&[x]).outputs(&[y, v]);
            m.finish()
        };
        // A step past the two stacked frames; an output too small for them.
        expect_unsupported(&stacker(3, 4));
        expect_invalid(&stacker(1, 3));
        let overlap = |ty: i64, step: i64| {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[2, 4], None);
            let y = m.activation("y", DType::I16, &[2 * step.max(0) as usize], None);
            custom(&mut m, "SignalOverlapAdd", &[("T", FlexValue::Int(ty)), ("frame_step", FlexValue::Int(step))], &[x], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            m.finish()
        };
        // A step longer than the frame; int32 (TFLite Micro has int16 and float32).
        expect_unsupported(&overlap(7, 5));
        expect_unsupported(&overlap(2, 2));
        let irfft = |ty: i64, fft: usize, inner: usize| {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[inner], None);
            let y = m.activation("y", DType::I16, &[fft], None);
            custom(&mut m, "SignalIrfft", &[("T", FlexValue::Int(ty)), ("fft_length", FlexValue::Int(fft as i64))], &[x], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            m.finish()
        };
        // float32 (not implemented), radix 7, too few bins.
        expect_unsupported(&irfft(0, 16, 18));
        expect_unsupported(&irfft(7, 28, 30));
        expect_unsupported(&irfft(7, 16, 16));
    }

    #[test]
    fn kiss_pi_literals_are_pi() {
        for lit in ["3.141592653589793238462643383279502884197169399375105820974944", "3.14159265358979323846264338327"] {
            assert_eq!(lit.parse::<f64>().unwrap().to_bits(), std::f64::consts::PI.to_bits());
        }
    }

    #[test]
    fn malformed_options_and_shapes_are_errors() {
        let build = |opts: Vec<u8>, fft: usize| {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I16, &[fft - 4], None);
            let y = m.activation("y", DType::I16, &[fft + 2], None);
            let op = m.op_spec(OpSpecCode::Custom("SignalRfft".into()), &[Some(x)], &[y]);
            m.custom_options(op, opts);
            m.inputs(&[x]).outputs(&[y]);
            m.finish()
        };
        let ok = |n: i64| write_map(&[("T", FlexValue::Int(7)), ("fft_length", FlexValue::Int(n))]);
        // Radix 7: TFLite Micro's generic butterfly has no scratch.
        expect_unsupported(&build(ok(28), 28));
        // int32 FFT: not implemented.
        expect_unsupported(&build(write_map(&[("T", FlexValue::Int(2)), ("fft_length", FlexValue::Int(16))]), 16));
        // Not a FlexBuffer; an extra key shifts the position TFLite Micro reads.
        expect_invalid(&build(vec![1, 2, 3], 16));
        expect_invalid(&build(write_map(&[("T", FlexValue::Int(7)), ("a", FlexValue::Int(0)), ("fft_length", FlexValue::Int(16))]), 16));
        // Output shape that does not hold fft_length / 2 + 1 complex values.
        expect_invalid(&build(ok(16), 20));
    }

    const WANT_RFFT60: &[i16] = &[12779, 0, -2471, -1306, -2878, -3526, -7, 308, 54, -326, 26, 1182, -115, -729, 106, 393, -668, -266, 228, -403, 79, 749, 275, -12, 804, -106, -662, -392, 79, -425, -10, 121, -92, -646, 466, 628, -652, -172, -297, -356, 418, -409, -437, 480, 315, 136, -495, 37, -312, -214, 1510, 1170, -213, -1011, 1283, -1045, -1335, -656, -421, -1011, -1633, 0, 13036, 0, -2423, -821, -2767, -2122, 752, -1133, 789, -121, -352, 615, 502, 334, 219, 818, 455, -1477, 754, -479, -269, -365, 263, 994, 141, -400, 155, -282, 368, -103, 275, -146, 102, 109, 163, 20, 480, 484, 214, -361, 1321, -657, -462, -145, -270, -807, -176, 707, -417, 261, 2402, 1469, -372, -1734, 1070, -1373, -1059, 214, -158, 29, -134, 0];
    const WANT_WINDOW: &[i16] = &[2528, 32767, -32768, 4957, 0, 14, -13, 20859, 32767, 32767, -32768, 4433, 0, 11, -9, 5119];
    const WANT_AUTO_SCALE: &[i16] = &[96, -22400, 384, 0, 22368, -32, 160, 3200];
    const WANT_SQRT: &[u32] = &[0, 1, 11585, 536870911, 43920];
    const WANT_ENERGY: &[u32] = &[2147483648, 25, 1073676289, 169, 0];
    const WANT_FILTER_BANK: &[u64] = &[1784490554620, 4430933767287];
    const WANT_SPECTRAL: &[u32] = &[92, 593399, 241826, 820025, 483559, 86650];
    const WANT_PCAN: &[u32] = &[30408637, 58288, 18104, 100036, 54006, 5332];
    const WANT_LOG: &[i16] = &[0, 3327, 4436, 14379, 32767, 21344];
    // Several consecutive invokes of one TFLite Micro interpreter (`tools/op_test_vectors.py`):
    // one entry per call; for the framer and stacker, the output_valid flag first, then the
    // output when valid (an invalid stacker call leaves the output as it was: the flag only;
    // in `WANT_FRAMER`'s first call only the third frame was written, the rest is
    // TFLite Micro's untouched arena).
    const WANT_DELAY3: &[&[i16]] = &[&[0, 0, 0, 3164, 10943, 0, 0, 0, 28765, 6544], &[4291, 12070, 5417, 3480, 11260, 29891, 7671, 1018, 29081, 6861], &[4607, 12386, 5734, 3797, 11576, 208, 7987, 1335, 29398, 7177]];
    const WANT_DELAY7: &[&[i16]] = &[&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[0, 0, 3164, 10943, 4291, 0, 0, 28765, 6544, 29891], &[12070, 5417, 3480, 11260, 4607, 7671, 1018, 29081, 6861, 208]];
    const WANT_FRAMER_PREFILL: &[&[i16]] = &[&[1, 0, 0, 0, 6328, 14107, 0, 6328, 14107, 7455, 15234, 0, 0, 0, 8582, 1929, 0, 8582, 1929, 9708, 3056], &[1, 14107, 7455, 15234, 6645, 14424, 15234, 6645, 14424, 7771, 15551, 1929, 9708, 3056, 8898, 2245, 3056, 8898, 2245, 10025, 3372], &[1, 14424, 7771, 15551, 6961, 14740, 15551, 6961, 14740, 8088, 15867, 2245, 10025, 3372, 9214, 2562, 3372, 9214, 2562, 10341, 3689]];
    const WANT_FRAMER: &[&[i16]] = &[&[0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6328, 14107, 7455, 15234, 8582], &[1, 7455, 15234, 8582, 1929, 6645, 8582, 1929, 6645, 14424, 7771, 6645, 14424, 7771, 15551, 8898], &[1, 7771, 15551, 8898, 2245, 6961, 8898, 2245, 6961, 14740, 8088, 6961, 14740, 8088, 15867, 9214]];
    const WANT_FRAMER_SKIP: &[&[i16]] = &[&[1, 6328, 14107, 7455, 8582, 1929, 9708], &[1, 6645, 14424, 7771, 8898, 2245, 10025], &[1, 6961, 14740, 8088, 9214, 2562, 10341]];
    const WANT_STACKER: &[&[i16]] = &[&[0], &[1, 9492, 17272, 10619, 9492, 17272, 10619, 9492, 17272, 10619, 9809, 17588, 10936], &[0], &[1, 9492, 17272, 10619, 9809, 17588, 10936, 10125, 17905, 11252, 10442, 18221, 11568]];
    const WANT_STACKER_RIGHT: &[&[i16]] = &[&[0], &[0], &[1, 9492, 17272, 9809, 17588, 10125, 17905], &[1, 9809, 17588, 10125, 17905, 10442, 18221]];
    const WANT_OVERLAP_ADD: &[&[i16]] = &[&[-27565, 24876, 30143, 32767, 23699, -2491, 11915, -1177, 10805, -15385, 32767, 10939], &[-21280, 32767, 32045, 32767, 25595, -589, -7853, 31493, 12701, -13483, 32767, 12835], &[-19381, 32767, 32767, 7754, -32768, 1307, -5954, 32767, 14603, -11587, 8153, 14737]];
    const WANT_OVERLAP_ADD_F32: &[&[u32]] = &[&[1158496841, 1156766574, 1159156297, 1167224832, 1128998034, 1160474624, 1137541120, 1141063680, 1148899913], &[1161491602, 1157137554, 1159341202, 1167410030, 1131956517, 1160660114, 1140499602, 1141805641, 1149439415]];
    const WANT_IRFFT32: &[i16] = &[-4165, -8074, -3612, 1965, 2740, 8656, 378, -168, -2801, -1330, -2451, 2542, 1472, 820, -770, -2020, -1631, 1552, 312, 1403, 3596, -2748, 66, -180, -463, 1296, 2043, 354, 2328, -4808, -8454, -1624, 13190, -13367, 1582, 3035, 692, -5799, -1672, 15, -753, -1190, 555, 6, -4325, -10, 1270, -1033, 416, 933, -298, -747, 1550, 1105, 418, 1321, 1583, -560, 2645, 1278, -3469, 3540, -608, 9109];
    const WANT_IRFFT60: &[i16] = &[7314, -10497, -3071, 1091, 2687, -1241, -4569, 3563, -138, 5788, -1097, -650, 573, 31, -19, 410, 813, 1184, 1651, 1582, 3583, 1161, 2746, 1287, 624, -1540, -214, -3156, -2131, -1567, -1944, 315, -407, 2469, 1075, 1709, 3317, 3197, 3988, 166, 1969, -538, 2857, -783, 497, 14, -369, -924, -441, 260, -679, -901, 2248, -3177, 800, -1698, -1530, -1706, -4759, 7759];
}
