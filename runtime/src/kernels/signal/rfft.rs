//! SignalRfft, int16: `signal/micro/kernels/rfft.cc` + `signal/src/rfft_int16.cc`, which is
//! KISS FFT v130 built with `FIXED_POINT 16` (`kiss_fft.c`, `tools/kiss_fftr.c`, with
//! TensorFlow's `kissfft.patch`) as TFLite Micro builds it.
//!
//! Fixed point as KISS FFT's macros define it for int16: `smul` is an int32 product,
//! `sround(x) = (int16)((x + (1 << 14)) >> 15)`, `C_FIXDIV(c, k)` scales by `SAMP_MAX / k`
//! before every butterfly, sums are int arithmetic stored back into int16 (wrapping), and
//! `HALF_OF(x)` is `x >> 1` of the int sum. The twiddles (`floor(.5 + 32767 * cos(phase))`)
//! and the factorisation are computed by the compiler and passed in [`RfftParams`].
//!
//! Radices 2, 3, 4 and 5 only: KISS FFT's generic butterfly allocates its scratch with
//! `KISS_FFT_TMP_ALLOC`, which TensorFlow's patch turns into a null pointer, so TFLite
//! Micro cannot run an FFT length with another prime factor either (the compiler refuses it).

/// Compile-time parameters of an int16 real FFT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfftParams<'a> {
    /// The real FFT length `N` (even); the complex FFT inside has `N / 2` points.
    pub fft_length: usize,
    /// Samples per frame of the input (its last dimension, at most `fft_length`); each
    /// frame is zero-padded to `fft_length`.
    pub input_length: usize,
    /// Frames: the input's element count over `input_length`.
    pub frames: usize,
    /// KISS FFT's `factors` of `N / 2`: pairs (radix p, remaining length m).
    pub factors: &'a [u16],
    /// The `N / 2` twiddles of the complex FFT, interleaved (re, im).
    pub twiddles: &'a [i16],
    /// The `N / 4` super twiddles of the real FFT's split, interleaved (re, im).
    pub super_twiddles: &'a [i16],
}

impl RfftParams<'_> {
    /// Scratch int16s the kernel needs: the zero-padded frame (`N`, TFLite Micro's scratch
    /// buffer; the complex FFT runs in the output, see `kiss_fftr`).
    pub const fn scratch_len(&self) -> usize {
        self.fft_length
    }
}

/// KISS FFT's `kf_factor`: powers of 4, then 2, then odd primes, pairs `(p, n / p)`; `None`
/// for `n < 1` or more than 32 factors (KISS FFT's `MAXFACTORS`).
pub fn kiss_factors(n: usize) -> Option<([u16; 64], usize)> {
    if n < 1 || n > u16::MAX as usize {
        return None;
    }
    let mut out = [0u16; 64];
    let mut len = 0;
    let mut n = n;
    let mut p = 4usize;
    // `floor(sqrt((double)n))`, exact for these sizes.
    let floor_sqrt = (1..=n).take_while(|k| k * k <= n).last().unwrap_or(0);
    loop {
        while !n.is_multiple_of(p) {
            p = match p {
                4 => 2,
                2 => 3,
                _ => p + 2,
            };
            if p > floor_sqrt {
                p = n;
            }
        }
        n /= p;
        if len + 2 > out.len() {
            return None;
        }
        out[len] = p as u16;
        out[len + 1] = n as u16;
        len += 2;
        if n <= 1 {
            break;
        }
    }
    Some((out, len))
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cpx {
    pub(super) r: i16,
    pub(super) i: i16,
}

#[inline]
fn smul(a: i16, b: i16) -> i32 {
    a as i32 * b as i32
}

#[inline]
fn sround(x: i32) -> i16 {
    (x.wrapping_add(1 << 14) >> 15) as i16
}

#[inline]
fn s_mul(a: i16, b: i16) -> i16 {
    sround(smul(a, b))
}

#[inline]
pub(super) fn c_mul(a: Cpx, b: Cpx) -> Cpx {
    Cpx { r: sround(smul(a.r, b.r).wrapping_sub(smul(a.i, b.i))), i: sround(smul(a.r, b.i).wrapping_add(smul(a.i, b.r))) }
}

#[inline]
pub(super) fn c_fixdiv(c: Cpx, div: i16) -> Cpx {
    let k = 32767 / div;
    Cpx { r: sround(smul(c.r, k)), i: sround(smul(c.i, k)) }
}

#[inline]
pub(super) fn c_add(a: Cpx, b: Cpx) -> Cpx {
    Cpx { r: a.r.wrapping_add(b.r), i: a.i.wrapping_add(b.i) }
}

#[inline]
pub(super) fn c_sub(a: Cpx, b: Cpx) -> Cpx {
    Cpx { r: a.r.wrapping_sub(b.r), i: a.i.wrapping_sub(b.i) }
}

#[inline]
pub(super) fn half_of(x: i32) -> i16 {
    (x >> 1) as i16
}

/// A complex view of interleaved int16 pairs.
pub(super) struct Buf<'b>(pub(super) &'b mut [i16]);

impl Buf<'_> {
    #[inline]
    pub(super) fn get(&self, k: usize) -> Cpx {
        Cpx { r: self.0[2 * k], i: self.0[2 * k + 1] }
    }
    #[inline]
    pub(super) fn set(&mut self, k: usize, c: Cpx) {
        self.0[2 * k] = c.r;
        self.0[2 * k + 1] = c.i;
    }
}

#[inline]
pub(super) fn tw(t: &[i16], k: usize) -> Cpx {
    Cpx { r: t[2 * k], i: t[2 * k + 1] }
}

fn bfly2(f: &mut Buf<'_>, fstride: usize, t: &[i16], m: usize) {
    for k in 0..m {
        let a = c_fixdiv(f.get(k), 2);
        let b = c_fixdiv(f.get(k + m), 2);
        let x = c_mul(b, tw(t, k * fstride));
        f.set(k + m, c_sub(a, x));
        f.set(k, c_add(a, x));
    }
}

fn bfly3(f: &mut Buf<'_>, fstride: usize, t: &[i16], m: usize) {
    let epi3 = tw(t, fstride * m);
    for k in 0..m {
        let f0 = c_fixdiv(f.get(k), 3);
        let f1 = c_fixdiv(f.get(k + m), 3);
        let f2 = c_fixdiv(f.get(k + 2 * m), 3);
        let s1 = c_mul(f1, tw(t, k * fstride));
        let s2 = c_mul(f2, tw(t, 2 * k * fstride));
        let s3 = c_add(s1, s2);
        let s0 = c_sub(s1, s2);
        let mut fm = Cpx { r: f0.r.wrapping_sub(s3.r >> 1), i: f0.i.wrapping_sub(s3.i >> 1) };
        let s0 = Cpx { r: s_mul(s0.r, epi3.i), i: s_mul(s0.i, epi3.i) };
        f.set(k, c_add(f0, s3));
        f.set(k + 2 * m, Cpx { r: fm.r.wrapping_add(s0.i), i: fm.i.wrapping_sub(s0.r) });
        fm.r = fm.r.wrapping_sub(s0.i);
        fm.i = fm.i.wrapping_add(s0.r);
        f.set(k + m, fm);
    }
}

/// `kf_bfly4`; the inverse FFT (`st->inverse`) rotates the odd outputs the other way.
fn bfly4(f: &mut Buf<'_>, fstride: usize, t: &[i16], m: usize, inverse: bool) {
    for k in 0..m {
        let mut f0 = c_fixdiv(f.get(k), 4);
        let f1 = c_fixdiv(f.get(k + m), 4);
        let f2 = c_fixdiv(f.get(k + 2 * m), 4);
        let f3 = c_fixdiv(f.get(k + 3 * m), 4);
        let s0 = c_mul(f1, tw(t, k * fstride));
        let s1 = c_mul(f2, tw(t, 2 * k * fstride));
        let s2 = c_mul(f3, tw(t, 3 * k * fstride));
        let s5 = c_sub(f0, s1);
        f0 = c_add(f0, s1);
        let s3 = c_add(s0, s2);
        let s4 = c_sub(s0, s2);
        f.set(k + 2 * m, c_sub(f0, s3));
        f.set(k, c_add(f0, s3));
        let (a, b) = (Cpx { r: s5.r.wrapping_add(s4.i), i: s5.i.wrapping_sub(s4.r) }, Cpx { r: s5.r.wrapping_sub(s4.i), i: s5.i.wrapping_add(s4.r) });
        let (fm, fm3) = if inverse { (b, a) } else { (a, b) };
        f.set(k + m, fm);
        f.set(k + 3 * m, fm3);
    }
}

fn bfly5(f: &mut Buf<'_>, fstride: usize, t: &[i16], m: usize) {
    let ya = tw(t, fstride * m);
    let yb = tw(t, fstride * 2 * m);
    for u in 0..m {
        let s0 = c_fixdiv(f.get(u), 5);
        let f1 = c_fixdiv(f.get(u + m), 5);
        let f2 = c_fixdiv(f.get(u + 2 * m), 5);
        let f3 = c_fixdiv(f.get(u + 3 * m), 5);
        let f4 = c_fixdiv(f.get(u + 4 * m), 5);
        let s1 = c_mul(f1, tw(t, u * fstride));
        let s2 = c_mul(f2, tw(t, 2 * u * fstride));
        let s3 = c_mul(f3, tw(t, 3 * u * fstride));
        let s4 = c_mul(f4, tw(t, 4 * u * fstride));
        let s7 = c_add(s1, s4);
        let s10 = c_sub(s1, s4);
        let s8 = c_add(s2, s3);
        let s9 = c_sub(s2, s3);
        f.set(u, Cpx { r: s0.r.wrapping_add(s7.r).wrapping_add(s8.r), i: s0.i.wrapping_add(s7.i).wrapping_add(s8.i) });
        let s5 = Cpx {
            r: s0.r.wrapping_add(s_mul(s7.r, ya.r)).wrapping_add(s_mul(s8.r, yb.r)),
            i: s0.i.wrapping_add(s_mul(s7.i, ya.r)).wrapping_add(s_mul(s8.i, yb.r)),
        };
        let s6 = Cpx {
            r: s_mul(s10.i, ya.i).wrapping_add(s_mul(s9.i, yb.i)),
            i: 0i16.wrapping_sub(s_mul(s10.r, ya.i)).wrapping_sub(s_mul(s9.r, yb.i)),
        };
        f.set(u + m, c_sub(s5, s6));
        f.set(u + 4 * m, c_add(s5, s6));
        let s11 = Cpx {
            r: s0.r.wrapping_add(s_mul(s7.r, yb.r)).wrapping_add(s_mul(s8.r, ya.r)),
            i: s0.i.wrapping_add(s_mul(s7.i, yb.r)).wrapping_add(s_mul(s8.i, ya.r)),
        };
        let s12 = Cpx {
            r: 0i16.wrapping_sub(s_mul(s10.i, yb.i)).wrapping_add(s_mul(s9.i, ya.i)),
            i: s_mul(s10.r, yb.i).wrapping_sub(s_mul(s9.r, ya.i)),
        };
        f.set(u + 2 * m, c_add(s11, s12));
        f.set(u + 3 * m, c_sub(s11, s12));
    }
}

/// `kf_work`: the decimation-in-time recursion over `factors`, from the complex input `x`
/// (starting at complex index `x0`, step `fstride`) into `out`; `inverse` is the config's
/// direction (its twiddles are then the inverse ones).
pub(super) fn kf_work(out: &mut [i16], x: &[i16], x0: usize, fstride: usize, factors: &[u16], t: &[i16], inverse: bool) {
    let (p, m) = (factors[0] as usize, factors[1] as usize);
    if m == 1 {
        for j in 0..p {
            let k = x0 + j * fstride;
            out[2 * j] = x[2 * k];
            out[2 * j + 1] = x[2 * k + 1];
        }
    } else {
        for j in 0..p {
            kf_work(&mut out[2 * j * m..2 * (j + 1) * m], x, x0 + j * fstride, fstride * p, &factors[2..], t, inverse);
        }
    }
    let mut f = Buf(&mut out[..2 * p * m]);
    match p {
        2 => bfly2(&mut f, fstride, t, m),
        3 => bfly3(&mut f, fstride, t, m),
        4 => bfly4(&mut f, fstride, t, m, inverse),
        5 => bfly5(&mut f, fstride, t, m),
        // The compiler refuses other radices (see the module docs).
        _ => {}
    }
}

/// `kiss_fftr` on one zero-padded frame `time` (`N` int16s): the `fft_length / 2`-point complex FFT of `time` into the first
/// `fft_length / 2` bins of `freq`, then the split into `fft_length / 2 + 1` real-FFT bins in
/// place. KISS FFT keeps the complex FFT in a `tmpbuf` of its own; here it is `freq` itself:
/// each step of the split reads bins `k` and `ncfft - k` and writes exactly those two (the DC
/// step reads bin 0 and writes bins 0 and `ncfft`, which no later step reads), so the
/// arithmetic and its order are KISS FFT's.
fn kiss_fftr(p: &RfftParams<'_>, time: &[i16], freq: &mut [i16]) {
    let ncfft = p.fft_length / 2;
    kf_work(&mut freq[..2 * ncfft], time, 0, 1, p.factors, p.twiddles, false);
    let mut out = Buf(freq);
    let tdc = c_fixdiv(out.get(0), 2);
    out.set(0, Cpx { r: tdc.r.wrapping_add(tdc.i), i: 0 });
    out.set(ncfft, Cpx { r: tdc.r.wrapping_sub(tdc.i), i: 0 });
    for k in 1..=ncfft / 2 {
        let fpk = c_fixdiv(out.get(k), 2);
        let n = out.get(ncfft - k);
        let fpnk = c_fixdiv(Cpx { r: n.r, i: 0i16.wrapping_sub(n.i) }, 2);
        let f1k = c_add(fpk, fpnk);
        let f2k = c_sub(fpk, fpnk);
        let t = c_mul(f2k, tw(p.super_twiddles, k - 1));
        out.set(k, Cpx { r: half_of(f1k.r as i32 + t.r as i32), i: half_of(f1k.i as i32 + t.i as i32) });
        out.set(ncfft - k, Cpx { r: half_of(f1k.r as i32 - t.r as i32), i: half_of(t.i as i32 - f1k.i as i32) });
    }
}

/// The int16 real FFT of every `input_length` frame of `input`, zero-padded to
/// `fft_length`, into `output` (`fft_length / 2 + 1` interleaved (re, im) pairs per frame).
/// `scratch` holds [`RfftParams::scratch_len`] int16s.
pub fn rfft_s16(p: &RfftParams<'_>, input: &[i16], output: &mut [i16], scratch: &mut [i16]) {
    let n = p.fft_length;
    let out_len = 2 * (n / 2 + 1);
    let work = &mut scratch[..n];
    for f in 0..p.frames {
        let frame = &input[f * p.input_length..(f + 1) * p.input_length];
        work[..p.input_length].copy_from_slice(frame);
        work[p.input_length..].fill(0);
        kiss_fftr(p, work, &mut output[f * out_len..(f + 1) * out_len]);
    }
}
