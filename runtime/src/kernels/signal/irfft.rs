//! SignalIrfft, int16: `signal/micro/kernels/irfft.cc` + `signal/src/irfft_int16.cc`, KISS
//! FFT's `kiss_fftri` with `FIXED_POINT 16` on a config allocated with `inverse = 1`: the
//! twiddles are those of the conjugate phases (computed by the compiler), and `kf_bfly4`
//! takes its inverse branch. The arithmetic helpers are [`super::rfft`]'s.

use super::rfft::{c_add, c_fixdiv, c_mul, c_sub, kf_work, tw, Buf, Cpx};

/// Compile-time parameters of an int16 inverse real FFT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IrfftParams<'a> {
    /// The real FFT length `N` (even): each frame's output has `N` samples.
    pub fft_length: usize,
    /// Int16s per input frame (the input's innermost dimension: interleaved (re, im) pairs,
    /// of which the first `N / 2 + 1` are read).
    pub input_stride: usize,
    /// Frames: the input's element count over `input_stride`.
    pub frames: usize,
    /// KISS FFT's `factors` of `N / 2`.
    pub factors: &'a [u16],
    /// The `N / 2` inverse twiddles of the complex FFT, interleaved (re, im).
    pub twiddles: &'a [i16],
    /// The `N / 4` inverse super twiddles, interleaved (re, im).
    pub super_twiddles: &'a [i16],
}

impl IrfftParams<'_> {
    /// Scratch int16s the kernel needs: KISS FFT's `tmpbuf` (`N / 2` complex values).
    pub const fn scratch_len(&self) -> usize {
        self.fft_length
    }
}

/// `kiss_fftri` on one frame: the split of the `N / 2 + 1` bins of `freq` into `tmp`, then
/// the `N / 2`-point complex inverse FFT of `tmp` into the `N` samples of `time`.
fn kiss_fftri(p: &IrfftParams<'_>, freq: &[i16], tmp: &mut [i16], time: &mut [i16]) {
    let ncfft = p.fft_length / 2;
    let f = |k: usize| Cpx { r: freq[2 * k], i: freq[2 * k + 1] };
    let mut t = Buf(tmp);
    let (f0, fn_) = (f(0), f(ncfft));
    t.set(0, c_fixdiv(Cpx { r: f0.r.wrapping_add(fn_.r), i: f0.r.wrapping_sub(fn_.r) }, 2));
    for k in 1..=ncfft / 2 {
        let fk = c_fixdiv(f(k), 2);
        let n = f(ncfft - k);
        let fnkc = c_fixdiv(Cpx { r: n.r, i: n.i.wrapping_neg() }, 2);
        let fek = c_add(fk, fnkc);
        let fok = c_mul(c_sub(fk, fnkc), tw(p.super_twiddles, k - 1));
        t.set(k, c_add(fek, fok));
        let mut b = c_sub(fek, fok);
        b.i = b.i.wrapping_neg();
        t.set(ncfft - k, b);
    }
    kf_work(time, t.0, 0, 1, p.factors, p.twiddles, true);
}

/// The int16 inverse real FFT of every `input_stride` frame of `input` into `fft_length`
/// samples of `output` per frame. `scratch` holds [`IrfftParams::scratch_len`] int16s.
pub fn irfft_s16(p: &IrfftParams<'_>, input: &[i16], output: &mut [i16], scratch: &mut [i16]) {
    let n = p.fft_length;
    debug_assert!(input.len() == p.frames * p.input_stride && output.len() == p.frames * n && p.input_stride >= n + 2);
    let tmp = &mut scratch[..n];
    for f in 0..p.frames {
        kiss_fftri(p, &input[f * p.input_stride..(f + 1) * p.input_stride], tmp, &mut output[f * n..(f + 1) * n]);
    }
}
