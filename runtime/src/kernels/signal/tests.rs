//! Unit tests of the signal kernels: each against a naive definition (f64 or wide integer
//! arithmetic) and hand-computed values (`test_util::check_output`). The golden data of the
//! corpus' audio preprocessor checks them op by op on a real front end (op conformance).

use super::energy::{energy_s16, EnergyParams};
use super::fft_auto_scale::{fft_auto_scale_s16, max_abs_16};
use super::filter_bank::{filter_bank_u32, FilterBankParams};
use super::filter_bank_log::{filter_bank_log_u32, log32, FilterBankLogParams};
use super::filter_bank_spectral_subtraction::{filter_bank_spectral_subtraction_u32, SpectralSubtractionParams};
use super::filter_bank_square_root::filter_bank_square_root_u64;
use super::msb::{most_significant_bit_32, most_significant_bit_64, sqrt32, sqrt64};
use super::pcan::{pcan_shrink, pcan_u32, wide_dynamic_function, PcanParams};
use super::rfft::{kiss_factors, rfft_s16, RfftParams};
use super::window::{window_s16, WindowParams};
use super::delay::{delay_s16, DelayParams};
use super::framer::{framer_s16, FramerParams};
use super::irfft::{irfft_s16, IrfftParams};
use super::overlap_add::{overlap_add_f32, overlap_add_s16, OverlapAddParams};
use super::stacker::{stacker_s16, StackerParams};
use crate::kernels::test_util::{check_output, Rng};
use std::vec::Vec;

#[test]
fn msb_counts_bits_and_zero_is_the_width() {
    assert_eq!([0u32, 1, 2, 3, 0x8000_0000].map(most_significant_bit_32), [32, 1, 2, 2, 32]);
    assert_eq!([0u64, 1, 1 << 40, u64::MAX].map(most_significant_bit_64), [64, 1, 41, 64]);
}

/// The naive root: `floor(sqrt(n))`, plus one when `n - r^2 > r` (and `r` below the cap).
fn naive_sqrt(n: u64, cap: u64) -> u64 {
    let n = n as u128;
    let mut r = (n as f64).sqrt() as u128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    (if n - r * r > r && r != cap as u128 { r + 1 } else { r }) as u64
}

#[test]
fn square_roots_round_like_the_reference() {
    let mut rng = Rng(7);
    let mut xs: Vec<u32> = std::vec![0, 1, 2, 3, 4, 8, 15, 16, 17, 0xFFFF_FFFF, 0xFFFE_0001, 0xFFFE_0000];
    xs.extend((0..2000).map(|_| (rng.next_u64() >> (rng.next_u64() % 32)) as u32));
    let got: Vec<u64> = xs.iter().map(|&x| sqrt32(x) as u64).collect();
    // The 16-bit result wraps when rounding 0xFFFF.x up would need a 17th bit: it cannot,
    // the cap keeps it at 0xFFFF.
    let want: Vec<u64> = xs.iter().map(|&x| naive_sqrt(x as u64, 0xFFFF)).collect();
    check_output(&got, &want, None).unwrap();
    check_output(&[sqrt32(16), sqrt32(17), sqrt32(20), sqrt32(21)], &[4, 4, 4, 5], Some(&[4, 4, 4, 5])).unwrap();
    let mut ys: Vec<u64> = std::vec![1 << 32, u64::MAX, (1 << 40) + 12345];
    ys.extend((0..2000).map(|_| rng.next_u64() | (1 << 32)));
    let got: Vec<u64> = ys.iter().map(|&x| sqrt64(x) as u64).collect();
    let want: Vec<u64> = ys.iter().map(|&x| naive_sqrt(x, 0xFFFF_FFFF)).collect();
    check_output(&got, &want, None).unwrap();
    let mut out = [0u32; 3];
    filter_bank_square_root_u64(&[100, 1 << 40, 10], &[1], &mut out);
    check_output(&out, &[5, 1 << 19, 1], Some(&[5, 524_288, 1])).unwrap();
}

#[test]
fn window_multiplies_shifts_and_saturates_per_frame() {
    let input = [1000i16, -1000, 32767, -32768, 2, 4];
    let window = [16384i16, 32767];
    let mut out = [0i16; 6];
    window_s16(&WindowParams { shift: 14 }, &input, &window, &mut out);
    let want: Vec<i16> =
        input.iter().enumerate().map(|(i, &x)| ((x as i64 * window[i % 2] as i64) >> 14).clamp(-32768, 32767) as i16).collect();
    check_output(&out, &want, Some(&[1000, -2000, 32767, -32768, 2, 7])).unwrap();
}

#[test]
fn auto_scale_uses_the_headroom_of_the_largest_magnitude() {
    let mut out = [0i16; 3];
    let mut bits = [0i32];
    fft_auto_scale_s16(&[3, -100, 50], &mut out, &mut bits);
    // |-100| has 7 bits: 16 - 7 - 1 = 8 bits of headroom.
    check_output(&out, &[768, -25600, 12800], Some(&[768, -25600, 12800])).unwrap();
    assert_eq!(bits, [8]);
    fft_auto_scale_s16(&[0, 0, 0], &mut out, &mut bits);
    assert_eq!((out, bits), ([0, 0, 0], [0]));
    // MaxAbs16's int16 quirk: -32768 stores -32768 as the maximum; the scale is then 0.
    assert_eq!(max_abs_16(&[-32768]), -32768);
    assert_eq!(max_abs_16(&[-32768, 5]), 5);
    fft_auto_scale_s16(&[1, -32768, 0], &mut out, &mut bits);
    assert_eq!((out, bits), ([1, -32768, 0], [0]));
}

#[test]
fn energy_is_the_squared_magnitude_in_its_range_only() {
    let spectrum = [3i16, 4, -32768, -32768, 1, 1, 7, 7];
    let mut out = [9u32; 4];
    energy_s16(&EnergyParams { start_index: 1, end_index: 3 }, &spectrum, &mut out);
    // 2 * 2^30 wraps in int32 to 0x8000_0000.
    check_output(&out, &[9, 0x8000_0000, 2, 9], Some(&[9, 2_147_483_648, 2, 9])).unwrap();
}

#[test]
fn filter_bank_accumulates_weights_and_the_previous_unweights() {
    // Channel 0 is scratch: bins 0..2; channel 1: bins 1..3; channel 2: bins 3..4.
    let input = [10u32, 20, 30, 40];
    let weights = [1i16, 2, 3, 4, 5];
    let unweights = [6i16, 7, 8, 9, -1];
    let starts = [0i16, 1, 3];
    let wstarts = [0i16, 2, 4];
    let widths = [2i16, 2, 1];
    let mut out = [0u64; 2];
    filter_bank_u32(&FilterBankParams { num_channels: 2 }, &input, &weights, &unweights, &starts, &wstarts, &widths, &mut out);
    // out[0] = 3*20 + 4*30 + (6*10 + 7*20); out[1] = 5*40 + (8*20 + 9*30).
    let want = [60 + 120 + 60 + 140, 200 + 160 + 270];
    check_output(&out, &want, Some(&[380, 630])).unwrap();
    // A negative weight wraps in uint64, as the C does.
    let mut out = [0u64; 1];
    filter_bank_u32(&FilterBankParams { num_channels: 1 }, &[3], &[0, -1], &[0, 0], &[0, 0], &[0, 1], &[0, 1], &mut out);
    assert_eq!(out, [3u64.wrapping_neg()]);
}

#[test]
fn spectral_subtraction_tracks_the_noise_across_calls() {
    let p = SpectralSubtractionParams {
        num_channels: 2,
        smoothing: 1 << 12,
        one_minus_smoothing: 3 << 12,
        alternate_smoothing: 2 << 12,
        alternate_one_minus_smoothing: 2 << 12,
        min_signal_remaining: 1 << 12,
        smoothing_bits: 2,
        spectral_subtraction_bits: 14,
        clamping: false,
    };
    let mut noise = [0u32; 2];
    let mut out = [0u32; 2];
    filter_bank_spectral_subtraction_u32(&p, &[100, 100], &mut out, &mut noise);
    // Even channel: noise = (400 * 1/4) = 100 (scaled by 4), output (400 - 100) / 4 = 75;
    // odd channel: noise = 400 / 2 = 200, output 50; floors are 25.
    check_output(&noise, &[100, 200], Some(&[100, 200])).unwrap();
    check_output(&out, &[75, 50], Some(&[75, 50])).unwrap();
    filter_bank_spectral_subtraction_u32(&p, &[100, 0], &mut out, &mut noise);
    // Second call: even (400 + 3 * 100) / 4 = 175 -> output (400 - 175) / 4 = 56; odd: the
    // estimate 100 exceeds the zero signal, is not clamped (clamping off), output 0.
    check_output(&noise, &[175, 100], None).unwrap();
    check_output(&out, &[56, 0], None).unwrap();
    let mut noise = [0u32, 200];
    filter_bank_spectral_subtraction_u32(&SpectralSubtractionParams { clamping: true, ..p }, &[100, 0], &mut out, &mut noise);
    check_output(&noise, &[100, 0], None).unwrap();
}

#[test]
fn pcan_gain_and_shrink() {
    let lut: Vec<i16> = (0..125).map(|i| (i * 37 % 1000) as i16 - 200).collect();
    // x <= 2 reads the table directly.
    assert_eq!([0, 1, 2].map(|x| wide_dynamic_function(x, &lut)), [lut[0], lut[1], lut[2]]);
    // The naive quadratic in i64 for every interval.
    for x in [3u32, 7, 100, 2047, 2048, 5000, 1 << 20, u32::MAX] {
        let interval = 32 - x.leading_zeros() as i64;
        let l = &lut[(4 * interval - 6) as usize..];
        let frac = if interval < 11 { (x as i64) << (11 - interval) } else { x as i64 >> (interval - 11) } & 0x3FF;
        let mut r = (l[2] as i64 * frac) >> 5;
        r += ((l[1] as i64) << 5) as i32 as i64;
        r *= frac;
        r = (r + (1 << 14)) >> 15;
        r += l[0] as i64;
        assert_eq!(wide_dynamic_function(x, &lut), r as i16, "x = {x}");
    }
    assert_eq!([0, 100, 8191, 8192, 100_000].map(pcan_shrink), [0, 0, 63, 64, 1498]);
    let mut out = [0u32; 2];
    pcan_u32(&PcanParams { snr_shift: 6 }, &[1000, 1 << 20], &[0, 1], &lut, &mut out);
    let want: Vec<u32> = [(1000u64, lut[0]), (1 << 20, lut[1])]
        .iter()
        .map(|&(x, g)| pcan_shrink(((x * (g as i32 as u32) as u64) >> 6) as u32))
        .collect();
    check_output(&out, &want, None).unwrap();
}

#[test]
fn log_is_close_to_the_natural_logarithm() {
    for x in [2u32, 3, 10, 1000, 65535, 65536, 1 << 20, u32::MAX] {
        // out_scale * ln(x) must stay below 2^16 (the product wraps in uint32, as in C).
        let got = log32(x, 1 << 10) as f64 / 1024.0;
        let want = (x as f64).ln();
        assert!((got - want).abs() < 2e-3, "ln({x}): {got} vs {want}");
    }
    let mut out = [0i16; 5];
    filter_bank_log_u32(&FilterBankLogParams { output_scale: 1600, input_correction_bits: 3 }, &[0, 1, 1000, u32::MAX >> 3, 100], &mut out);
    let want: Vec<i16> = [0u32, 1, 1000, u32::MAX >> 3, 100]
        .iter()
        .map(|&x| {
            let s = x << 3;
            if s > 1 {
                log32(s, 1600).min(32767) as i16
            } else {
                0
            }
        })
        .collect();
    check_output(&out, &want, None).unwrap();
    // 1600 * ln(8000) = 14380.2.
    assert!((out[2] - 14380).abs() <= 1, "{}", out[2]);
}

#[test]
fn kiss_factors_match_kf_factor() {
    let f = |n| kiss_factors(n).map(|(v, l)| v[..l].to_vec());
    assert_eq!(f(256), Some(std::vec![4, 64, 4, 16, 4, 4, 4, 1]));
    assert_eq!(f(8), Some(std::vec![4, 2, 2, 1]));
    assert_eq!(f(30), Some(std::vec![2, 15, 3, 5, 5, 1]));
    assert_eq!(f(7), Some(std::vec![7, 1]));
    assert_eq!(f(0), None);
}

/// The compiler's tables (`lower::ops::signal::kiss_fftr_tables`), recomputed here.
fn tables(n: usize) -> (Vec<i16>, Vec<i16>) {
    tables_dir(n, 1.0)
}

/// [`tables`] with every phase times `sign` (-1: the inverse FFT's).
fn tables_dir(n: usize, sign: f64) -> (Vec<i16>, Vec<i16>) {
    let nfft = n / 2;
    let q = |ph: f64| [(0.5 + 32767.0 * ph.cos()).floor() as i16, (0.5 + 32767.0 * ph.sin()).floor() as i16];
    let pi = core::f64::consts::PI;
    let tw = (0..nfft).flat_map(|i| q(-2.0 * pi * i as f64 / nfft as f64 * sign)).collect();
    let st = (0..nfft / 2).flat_map(|i| q(-pi * ((i + 1) as f64 / nfft as f64 + 0.5) * sign)).collect();
    (tw, st)
}

#[test]
fn rfft_is_the_dft_over_n_within_fixed_point_error() {
    // Radices 4 and 2 (n = 32: 16 = 4 * 4; n = 16: 8 = 4 * 2), 3 and 5 (n = 60: 30 = 2 * 3 * 5).
    for (n, input_length) in [(32usize, 32usize), (16, 12), (60, 60), (512, 480)] {
        let (tw, st) = tables(n);
        let (f, l) = kiss_factors(n / 2).unwrap();
        let p = RfftParams { fft_length: n, input_length, frames: 2, factors: &f[..l], twiddles: &tw, super_twiddles: &st };
        let mut rng = Rng(n as u64);
        let input: Vec<i16> = (0..2 * input_length).map(|_| (rng.next_u64() % 40000) as i16).collect();
        let mut out = std::vec![0i16; 2 * (n + 2)];
        let mut scratch = std::vec![0i16; p.scratch_len()];
        rfft_s16(&p, &input, &mut out, &mut scratch);
        for frame in 0..2 {
            let x = &input[frame * input_length..(frame + 1) * input_length];
            for k in 0..=n / 2 {
                let (mut re, mut im) = (0f64, 0f64);
                for (t, &v) in x.iter().enumerate() {
                    let ph = -2.0 * core::f64::consts::PI * (k * t) as f64 / n as f64;
                    re += v as f64 * ph.cos();
                    im += v as f64 * ph.sin();
                }
                let (gr, gi) = (out[frame * (n + 2) + 2 * k] as f64, out[frame * (n + 2) + 2 * k + 1] as f64);
                // One rounding per stage and per split: a few LSBs.
                let tol = 2.0 + (n as f64).log2();
                assert!((gr - re / n as f64).abs() <= tol && (gi - im / n as f64).abs() <= tol, "n {n} frame {frame} bin {k}: ({gr}, {gi}) vs ({}, {})", re / n as f64, im / n as f64);
            }
        }
    }
}

#[test]
fn rfft_of_an_impulse_is_flat() {
    let n = 16;
    let (tw, st) = tables(n);
    let (f, l) = kiss_factors(n / 2).unwrap();
    let p = RfftParams { fft_length: n, input_length: n, frames: 1, factors: &f[..l], twiddles: &tw, super_twiddles: &st };
    let mut input = std::vec![0i16; n];
    input[0] = 16000;
    let mut out = std::vec![0i16; n + 2];
    let mut scratch = std::vec![0i16; p.scratch_len()];
    rfft_s16(&p, &input, &mut out, &mut scratch);
    // 16000 / 16 = 1000 in every bin, imaginary parts 0 (each stage rounds 16000 * 8191 /
    // 32768 etc.; the exact chain gives 999 or 1000).
    for k in 0..=n / 2 {
        assert!((out[2 * k] - 1000).abs() <= 1 && out[2 * k + 1].abs() <= 1, "bin {k}: {} {}", out[2 * k], out[2 * k + 1]);
    }
}

fn samples(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n).map(|_| rng.next_u64() as i16).collect()
}

#[test]
fn delay_is_the_stream_shifted_by_the_delay() {
    // Delays shorter than, equal to and longer than the frame; 0 (no state).
    for (fs, dl) in [(5usize, 3usize), (4, 4), (3, 7), (6, 0)] {
        let p = DelayParams { frame_size: fs, delay_length: dl, outer_dims: 2 };
        let mut state = std::vec![0i16; p.state_len()];
        let mut rng = Rng((fs * 10 + dl) as u64);
        let calls: Vec<Vec<i16>> = (0..5).map(|_| samples(&mut rng, 2 * fs)).collect();
        for (c, x) in calls.iter().enumerate() {
            let mut out = std::vec![0i16; 2 * fs];
            delay_s16(&p, x, &mut out, &mut state);
            // Outer index d's stream, delayed: sample t of the output is input sample t - dl.
            let want: Vec<i16> = (0..2 * fs)
                .map(|i| {
                    let (d, t) = (i / fs, c * fs + i % fs);
                    t.checked_sub(dl).map_or(0, |u| calls[u / fs][d * fs + u % fs])
                })
                .collect();
            check_output(&out, &want, None).unwrap();
        }
    }
}

#[test]
fn framer_cuts_overlapping_frames_of_the_stream() {
    // (frame_size, frame_step, prefill, steps per call)
    for (fs, st, prefill, n) in [(5usize, 2usize, true, 2usize), (5, 2, false, 3), (3, 4, false, 2), (4, 4, true, 1), (7, 3, false, 1)] {
        let capacity = fs.div_ceil(st) * st;
        let prefilled = if prefill { fs - st } else { 0 };
        let p = FramerParams { frame_size: fs, frame_step: st, n_frames: n, outer_dims: 2, capacity, prefilled };
        let (mut buf, mut count) = (std::vec![0i16; p.samples_len()], [0i32]);
        let mut rng = Rng((fs * 100 + st * 10 + n) as u64);
        // Each outer index's stream, with the prefill zeros in front.
        let mut streams = [std::vec![0i16; prefilled], std::vec![0i16; prefilled]];
        let mut out = std::vec![-1i16; 2 * n * fs];
        // The next frame of each stream: frame j is `stream[j * st..j * st + fs]`, output by
        // the first step after which the stream holds it.
        let mut next = [0usize; 2];
        for call in 0..6 {
            let x = samples(&mut rng, 2 * n * st);
            let mut valid = [9u8];
            framer_s16(&p, &x, &mut out, &mut valid, &mut buf, &mut count);
            let mut all = true;
            for (d, s) in streams.iter_mut().enumerate() {
                for f in 0..n {
                    s.extend_from_slice(&x[(d * n + f) * st..(d * n + f + 1) * st]);
                    let start = next[d] * st;
                    if s.len() >= start + fs {
                        assert_eq!(&out[(d * n + f) * fs..(d * n + f + 1) * fs], &s[start..start + fs], "fs {fs} st {st} call {call} frame {f}");
                        next[d] += 1;
                    } else {
                        all = false;
                    }
                }
            }
            assert_eq!(valid[0], all as u8, "fs {fs} st {st} call {call}");
        }
    }
}

#[test]
fn stacker_stacks_the_padded_frame_history() {
    // (channels, left, right, step)
    for (nc, l, r, step) in [(3usize, 2usize, 1usize, 2usize), (2, 0, 2, 1), (1, 1, 1, 3), (4, 0, 0, 1)] {
        let ctx = l + r + 1;
        let p = StackerParams { num_channels: nc, left_context: l, buffer_size: nc * ctx, step_size: nc * step };
        let (mut buf, mut counters) = (std::vec![0i16; nc * ctx], [0i32; 2]);
        let mut rng = Rng((nc * 1000 + l * 100 + r * 10 + step) as u64);
        // The frame history, the first frame repeated `l` times in front.
        let mut history: Vec<Vec<i16>> = Vec::new();
        let mut next = 0; // The first frame of the next output.
        for call in 0..8 {
            let x = samples(&mut rng, nc + 1);
            let mut out = std::vec![0i16; nc * ctx];
            let mut valid = [9u8];
            stacker_s16(&p, &x, &mut out, &mut valid, &mut buf, &mut counters);
            let frame = x[..nc].to_vec();
            if history.is_empty() {
                history.extend(core::iter::repeat_n(frame.clone(), l));
            }
            history.push(frame);
            if history.len() >= next + ctx {
                assert_eq!(valid[0], 1, "call {call}");
                let want: Vec<i16> = history[next..next + ctx].concat();
                check_output(&out, &want, None).unwrap();
                next += step;
            } else {
                assert_eq!(valid[0], 0, "call {call}");
            }
        }
    }
}

#[test]
fn overlap_add_sums_frames_at_each_step() {
    // (frame_size, frame_step, frames per call)
    for (fs, st, n) in [(4usize, 2usize, 3usize), (5, 5, 1), (6, 1, 2), (3, 2, 1)] {
        let p = OverlapAddParams { frame_size: fs, frame_step: st, n_frames: n, outer_dims: 2 };
        let (mut s16, mut s32) = (std::vec![0i16; p.state_len()], std::vec![0f32; p.state_len()]);
        let mut rng = Rng((fs * 100 + st * 10 + n) as u64);
        let mut frames: [Vec<Vec<i16>>; 2] = [Vec::new(), Vec::new()];
        for call in 0..4 {
            let x = samples(&mut rng, 2 * n * fs);
            let (mut y16, mut y32) = (std::vec![0i16; 2 * n * st], std::vec![0f32; 2 * n * st]);
            overlap_add_s16(&p, &x, &mut y16, &mut s16);
            let xf: Vec<f32> = x.iter().map(|&v| v as f32 / 4.0).collect();
            overlap_add_f32(&p, &xf, &mut y32, &mut s32);
            for (d, fr) in frames.iter_mut().enumerate() {
                for f in 0..n {
                    fr.push(x[(d * n + f) * fs..(d * n + f + 1) * fs].to_vec());
                    // Output sample t of the stream: every frame j covering it (j * st <= t
                    // < j * st + fs), in order; int16 saturates after each addition.
                    let j_now = fr.len() - 1;
                    for t in j_now * st..(j_now + 1) * st {
                        let (mut acc16, mut acc32) = (0i16, 0f32);
                        for (j, frame) in fr.iter().enumerate().filter(|(j, _)| j * st <= t && t < j * st + fs) {
                            acc16 = (acc16 as i32 + frame[t - j * st] as i32).clamp(-32768, 32767) as i16;
                            acc32 += frame[t - j * st] as f32 / 4.0;
                        }
                        let k = (d * n + f) * st + t - j_now * st;
                        assert_eq!(y16[k], acc16, "fs {fs} st {st} call {call} sample {t}");
                        assert_eq!(y32[k].to_bits(), acc32.to_bits(), "fs {fs} st {st} call {call} sample {t}");
                    }
                }
            }
        }
    }
}

#[test]
fn irfft_is_the_inverse_dft_over_n_within_fixed_point_error() {
    // Radix 4 (inverse branch of the butterfly), 4 * 2, and 2 * 3 * 5.
    for n in [32usize, 16, 60, 512] {
        let (tw, st) = tables_dir(n, -1.0);
        let (f, l) = kiss_factors(n / 2).unwrap();
        let stride = n + 2;
        let p = IrfftParams { fft_length: n, input_stride: stride, frames: 2, factors: &f[..l], twiddles: &tw, super_twiddles: &st };
        let mut rng = Rng(n as u64 + 7);
        let input: Vec<i16> = (0..2 * stride).map(|_| (rng.next_u64() % 16000) as i16 - 8000).collect();
        let mut out = std::vec![0i16; 2 * n];
        let mut scratch = std::vec![0i16; p.scratch_len()];
        irfft_s16(&p, &input, &mut out, &mut scratch);
        for frame in 0..2 {
            let x = &input[frame * stride..(frame + 1) * stride];
            // The Hermitian spectrum: bins 0..=n/2 given (the imaginary parts of bins 0 and
            // n/2 ignored, as the real inverse does), the rest mirrored.
            let bin = |k: usize| if k <= n / 2 { (x[2 * k] as f64, x[2 * k + 1] as f64) } else { (x[2 * (n - k)] as f64, -(x[2 * (n - k) + 1] as f64)) };
            for t in 0..n {
                let mut v = 0f64;
                for k in 0..n {
                    let (re, im) = if k == 0 || k == n / 2 { (bin(k).0, 0.0) } else { bin(k) };
                    let ph = 2.0 * core::f64::consts::PI * (k * t) as f64 / n as f64;
                    v += re * ph.cos() - im * ph.sin();
                }
                let got = out[frame * n + t] as f64;
                let tol = 2.0 + (n as f64).log2();
                assert!((got - v / n as f64).abs() <= tol, "n {n} frame {frame} sample {t}: {got} vs {}", v / n as f64);
            }
        }
    }
}
