//! Float functions the float32 kernels need and `core` does not have (`no_std`: no libm).
//!
//! [`expf`] computes `e^x` in double precision and rounds once to float, so it returns the
//! correctly rounded result except in the rare cases where `e^x` lies within about 2^-45
//! relative of a float rounding boundary; glibc's and musl's `expf` (which TFLite's
//! `std::exp` calls on Linux) are correctly rounded in all but a few such cases too, so the
//! two agree on almost every input and are never more than one ulp apart.
//!
//! [`tanhf`] likewise computes `tanh` in double precision (through `expm1`) and rounds once.
//! [`sqrtf`] is IEEE's correctly rounded square root (integer arithmetic on the bits), so it
//! is bit-identical with every C library's `sqrtf`. [`expm1f`] and [`logf`] follow
//! [`expf`]'s scheme (double precision, one rounding to float): correctly rounded except
//! near rounding boundaries, within one ulp of glibc's `expm1f` / `logf`.
//!
//! [`f16_to_f32`] widens an IEEE 754 binary16 value exactly (every half is a float).
//!
//! [`sinf`] and [`cosf`] reduce the argument exactly enough for every float (Payne-Hanek:
//! the float's integer significand times a 128-bit window of `2/pi`, in integer
//! arithmetic), evaluate in double precision and round once, so they too are correctly
//! rounded except within about 2^-50 relative of a float rounding boundary. glibc's
//! `sinf`/`cosf` (which TFLite Micro's `std::sin`/`std::cos` on a float call on Linux) are
//! not correctly rounded everywhere (up to about 0.56 ulp): the two differ by one ulp on
//! about 1.3% of the floats above 2^-7 and agree everywhere else (measured in the tests
//! below). A C library on the device (newlib) has its own `sinf`, so no bit pattern is
//! TFLite Micro's on every platform; the correctly rounded one is the portable answer.

/// `1 / ln 2`.
const LOG2_E: f64 = core::f64::consts::LOG2_E;
/// `ln 2`.
const LN_2: f64 = core::f64::consts::LN_2;
/// Adding then subtracting `1.5 * 2^52` rounds a double of magnitude below 2^51 to the
/// nearest integer, ties to even (the default rounding mode): `core` has no `round`.
const ROUND_SHIFT: f64 = 6_755_399_441_055_744.0;

/// `e^x` for `f32`: `e^x = 2^k * e^r` with `k = round(x / ln 2)` and `|r| <= ln 2 / 2`,
/// `e^r` by its Taylor series to degree 12 (truncated below 2^-47 relative), all in `f64`,
/// then one rounding to `f32`. `+inf` past `ln(f32::MAX)`, `0` below half the smallest
/// subnormal, NaN for NaN.
pub fn expf(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    // ln(f32::MAX) = 88.722839..., ln(2^-150) = -103.97208...
    if x > 88.722_84 {
        return f32::INFINITY;
    }
    if x < -103.972_09 {
        return 0.0;
    }
    exp_f64(x as f64) as f32
}

/// `e^x` in double precision for `-104 <= x <= 89` (relative error below 2^-50): the core
/// of [`expf`] and [`expm1f`].
fn exp_f64(xd: f64) -> f64 {
    let kd = (xd * LOG2_E + ROUND_SHIFT) - ROUND_SHIFT;
    let r = xd - kd * LN_2;
    // e^r = 1 + r (1 + r/2 (1 + r/3 (... (1 + r/12)))).
    let mut p = 1.0;
    for n in (1..=12).rev() {
        p = 1.0 + p * r / n as f64;
    }
    let k = kd as i64;
    // 2^k, k in -150..=128: a normal double.
    let scale = f64::from_bits(((k + 1023) as u64) << 52);
    p * scale
}

/// `e^x` for any `f64` (C `exp` on a double, which TFLite Micro's DETECTION_POSTPROCESS
/// calls before rounding to float): `+inf` above `ln(f64::MAX)`, `0` below
/// `ln(2^-1075)`, NaN for NaN; otherwise `2^k * e^r` with `k = round(x / ln 2)`, `r`
/// reduced with a two-part `ln 2` (fdlibm's `ln2_hi`, whose trailing zeros make `k * ln2_hi`
/// exact, and `ln2_lo`) so `|r| <= ln 2 / 2` to within 2^-60, `e^r` by its Taylor series
/// to degree 13, and `2^k` applied in two steps so neither overflows nor goes subnormal
/// early. Relative error below about 2^-50 for normal results: a caller that rounds the
/// result (times float factors) to `f32` gets the correctly rounded float except within
/// about 2^-26 ulp of a float rounding boundary.
pub fn exp_f64_wide(x: f64) -> f64 {
    // fdlibm's 6.93147180369123816490e-01 and 1.90821492927058770002e-10.
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    if x.is_nan() {
        return x;
    }
    if x > 709.782_712_893_384 {
        return f64::INFINITY;
    }
    if x < -745.133_219_101_941_2 {
        return 0.0;
    }
    let kd = (x * LOG2_E + ROUND_SHIFT) - ROUND_SHIFT;
    let r = (x - kd * LN2_HI) - kd * LN2_LO;
    let mut p = 1.0;
    for n in (1..=13).rev() {
        p = 1.0 + p * r / n as f64;
    }
    // k in -1075..=1024: 2^k as 2^(k/2) * 2^(k - k/2), each a normal double.
    let k = kd as i64;
    let (k1, k2) = (k / 2, k - k / 2);
    let pow2 = |e: i64| f64::from_bits(((e + 1023) as u64) << 52);
    p * pow2(k1) * pow2(k2)
}

/// `e^x - 1` for `f32` (C `expm1f`, which TFLite's ELU calls): below `|x| = 1/2` by its
/// Taylor series `x (1 + x/2 (1 + x/3 (...)))` to degree 16 (no cancellation), else
/// `exp(x) - 1` in `f64`; one rounding to `f32`. `-1` below `-104` (as the exact value
/// rounds), `+inf` past `ln(f32::MAX)`, NaN for NaN; `-0` stays `-0`.
pub fn expm1f(x: f32) -> f32 {
    if x.is_nan() || x == 0.0 {
        return x;
    }
    if x > 88.722_84 {
        return f32::INFINITY;
    }
    if x < -104.0 {
        return -1.0;
    }
    let xd = x as f64;
    if xd.abs() < 0.5 {
        let mut p = 1.0;
        for n in (2..=16).rev() {
            p = 1.0 + p * xd / n as f64;
        }
        return (xd * p) as f32;
    }
    (exp_f64(xd) - 1.0) as f32
}

/// Natural logarithm for `f32` (C `logf`): `x = 2^k m` with `m` in `[sqrt(1/2), sqrt(2))`,
/// `ln m = 2 atanh(s)` with `s = (m - 1) / (m + 1)` (`|s| < 0.172`) by its series to
/// `s^31`, `ln x = k ln 2 + ln m`, all in `f64`, then one rounding. `-inf` for zero, NaN
/// below zero and for NaN, `+inf` for `+inf`; `ln 1 = +0`.
pub fn logf(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    // x = mant * 2^e exactly, mant in [1, 2) (subnormals are normal as doubles).
    let xd = x as f64;
    let bits = xd.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // atanh(s) / s = 1 + s^2/3 + s^4/5 + ... + s^30/31.
    let mut p = 0.0;
    for k in (0..=15).rev() {
        p = 1.0 / (2 * k + 1) as f64 + s2 * p;
    }
    (e as f64 * LN_2 + 2.0 * s * p) as f32
}

/// IEEE square root of an `f32`, correctly rounded (C `sqrtf`): the integer square root of
/// the significand scaled to give 24 bits, rounded to nearest by its remainder (a tie is
/// impossible). NaN below zero and for NaN; `+-0` and `+inf` are returned unchanged.
pub fn sqrtf(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 || x == f32::INFINITY {
        return x;
    }
    // x = m * 2^e with m in [2^23, 2^24).
    let bits = x.to_bits();
    let (mut m, mut e) = ((bits & 0x007f_ffff) as u64, ((bits >> 23) & 0xff) as i32);
    if e == 0 {
        // Subnormal: normalise.
        e = 1;
        while m < (1 << 23) {
            m <<= 1;
            e -= 1;
        }
    } else {
        m |= 1 << 23;
    }
    let e = e - 127 - 23;
    // sqrt(m 2^e) = sqrt(m 2^s) 2^((e - s) / 2), s chosen so e - s is even and the root
    // lies in [2^23, 2^24).
    let s = if e & 1 != 0 { 23 } else { 24 };
    let big = m << s;
    let mut r = isqrt_u64(big);
    if big - r * r > r {
        r += 1;
    }
    let k = (e - s) / 2;
    // r <= 2^24 converts exactly; 2^k (k in -98..=40) is a normal float.
    (r as f32) * f32::from_bits(((k + 127) as u32) << 23)
}

/// `floor(sqrt(n))` for `n < 2^50`, bit by bit.
fn isqrt_u64(n: u64) -> u64 {
    let (mut rem, mut root) = (n, 0u64);
    let mut bit = 1u64 << 50;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// `e^y - 1` in `f64` for `0 <= y <= 64`, to a few ulps relative: below `ln 2 / 2` its
/// Taylor series (no cancellation), above it [`exp_f64`]` - 1`.
fn expm1_pos(y: f64) -> f64 {
    if y < 0.346_573_590_279_972_64 {
        // y (1 + y/2 (1 + y/3 (... (1 + y/17)))): the truncation is below 2^-60 relative.
        let mut p = 1.0;
        for n in (2..=17).rev() {
            p = 1.0 + p * y / n as f64;
        }
        return y * p;
    }
    exp_f64(y) - 1.0
}

/// `tanh(x)` for `f32` (C's `std::tanh` on a float): `t / (t + 2)` with `t = e^{2|x|} - 1`
/// in `f64`, the sign restored, then one rounding; `±1` beyond `|x| = 20` (where the
/// float result is `±1` already), NaN for NaN, `-0.0` for `-0.0`.
pub fn tanhf(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    let a = (x as f64).abs();
    let t = if a > 20.0 {
        1.0
    } else {
        let e = expm1_pos(2.0 * a);
        e / (e + 2.0)
    };
    (if x.is_sign_negative() { -t } else { t }) as f32
}

/// IEEE 754 binary16 (`bits`) to binary32, exactly: TFLite's `static_cast<float>` of an
/// `Eigen::half` (and the Arm `VCVTB.F32.F16` with IEEE halves). Normal halves re-bias the
/// exponent; subnormals (`m * 2^-24`, `m < 1024`) are one exact float product; infinities
/// and NaNs keep their sign and payload (a signalling NaN stays signalling, as a bit copy).
/// Integer operations and one multiply by a power of two: no table, no `f16` type, so it is
/// the same on every target (the float32 kernels with float16 weights call it per tap).
#[inline(always)]
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = ((bits & 0x8000) as u32) << 16;
    let em = (bits & 0x7fff) as u32;
    if em >= 0x7c00 {
        // Infinity or NaN: the all-ones float exponent, the half's 10 mantissa bits on top.
        return f32::from_bits(sign | 0x7f80_0000 | ((em & 0x3ff) << 13));
    }
    if em >= 0x0400 {
        // Normal: the exponent bias goes from 15 to 127 (112 more), the mantissa moves up.
        return f32::from_bits(sign | ((em << 13) + (112 << 23)));
    }
    // Zero or subnormal: em * 2^-24 is exact (em < 2^10, the product a normal float).
    f32::from_bits(sign | (em as f32 * (1.0 / 16_777_216.0)).to_bits())
}

/// The first 256 bits of the binary expansion of `2/pi` (bit `p` of the fraction has
/// weight `2^-p`), most significant first: `0.a2f9836e...` in hex.
const TWO_OVER_PI: [u64; 4] = [0xa2f9_836e_4e44_1529, 0xfc27_57d1_f534_ddc0, 0xdb62_9599_3c43_9041, 0xfe51_63ab_debb_c561];

/// `|x|` reduced modulo `pi/2` for finite `|x| >= pi/4`: `(q, r)` with
/// `|x| = (4k + q) pi/2 + r`, `q` in `0..4` and `|r| <= pi/4`, `r` in double precision.
///
/// `|x| = m 2^e` with `m` its 24-bit integer significand. The bits of `2/pi` of weight above
/// `2^(1-e)` multiply `m 2^e` to multiples of 4 and drop out of `q`; the 128 bits from
/// weight `2^(1-e)` down (zeros above the binary point) give `|x| 2/pi mod 4` as a 2.126
/// fixed-point number, exactly the low 128 bits of `m * window`, with the bits of `2/pi`
/// beyond the window contributing less than `m 2^-126 < 2^-102`. The reduced fraction of
/// any float is at least about 2^-32 quadrants, so `r` keeps about 70 correct bits before
/// its conversion to double (one rounding), and one more rounding multiplying by `pi/2`.
fn rem_pio2(a: f32) -> (u32, f64) {
    let bits = a.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32;
    // a >= pi/4 is normal: m in [2^23, 2^24), a = m 2^e.
    let m = ((bits & 0x007f_ffff) | 0x0080_0000) as u128;
    let e = exp - 150;
    // Bit p of 2/pi sits at index p - 1 + 64 of [0, TWO_OVER_PI..] (64 leading zeros for
    // the weights 2^0 .. 2^63 above the binary point); the window starts at p = e - 1.
    let start = (e - 2 + 64) as usize; // e in -25..=104: start in 37..=166
    let words = [0, TWO_OVER_PI[0], TWO_OVER_PI[1], TWO_OVER_PI[2], TWO_OVER_PI[3]];
    let (w, sh) = (start / 64, (start % 64) as u32);
    let hi = ((words[w] as u128) << 64) | words[w + 1] as u128;
    let window = if sh == 0 { hi } else { (hi << sh) | (words[w + 2] >> (64 - sh)) as u128 };
    let prod = m.wrapping_mul(window);
    let mut q = (prod >> 126) as u32;
    let frac = prod << 2;
    // Round to the nearest quadrant: a fraction of one half or more counts from the next.
    if frac >> 127 == 1 {
        q += 1;
    }
    // As a signed number the fraction is in [-1/2, 1/2) quadrants, times 2^128.
    let f = frac as i128 as f64 * (1.0 / 340_282_366_920_938_463_463_374_607_431_768_211_456.0);
    (q & 3, f * core::f64::consts::FRAC_PI_2)
}

/// `sin r` for `|r| <= pi/4` in double precision: Taylor series to `r^21`.
fn sin_kernel(r: f64) -> f64 {
    let r2 = r * r;
    let mut p = 1.0;
    for n in (1..=10).rev() {
        p = 1.0 - p * r2 / ((2 * n) * (2 * n + 1)) as f64;
    }
    r * p
}

/// `cos r` for `|r| <= pi/4` in double precision: Taylor series to `r^20`.
fn cos_kernel(r: f64) -> f64 {
    let r2 = r * r;
    let mut p = 1.0;
    for n in (1..=10).rev() {
        p = 1.0 - p * r2 / ((2 * n - 1) * (2 * n)) as f64;
    }
    p
}

/// `sin(x)` (or `cos(x)` with `cos = true`) for a finite `x`, in double precision.
fn sin_cos_f64(x: f32, cos: bool) -> f64 {
    let a = x.abs();
    let (q, r) = if a < core::f32::consts::FRAC_PI_4 { (0, a as f64) } else { rem_pio2(a) };
    // cos(|x|) = sin(|x| + pi/2): one quadrant on.
    let q = if cos { (q + 1) & 3 } else { q };
    let v = match q {
        0 => sin_kernel(r),
        1 => cos_kernel(r),
        2 => -sin_kernel(r),
        _ => -cos_kernel(r),
    };
    if !cos && x.is_sign_negative() {
        -v
    } else {
        v
    }
}

/// `sin(x)` for `f32` (C `sinf`, TFLite Micro's `std::sin` on a float): exact argument
/// reduction (`rem_pio2`), double-precision series, one rounding. NaN for NaN and
/// `+-inf`; `sin(-0) = -0`.
pub fn sinf(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    sin_cos_f64(x, false) as f32
}

/// `cos(x)` for `f32` (C `cosf`, TFLite Micro's `std::cos` on a float), as [`sinf`]. NaN for
/// NaN and `+-inf`; `cos(+-0) = 1`.
pub fn cosf(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    sin_cos_f64(x, true) as f32
}

/// `floor(x)` for `f32` (C `floorf`, exact): NaN, infinities and values of magnitude `2^23`
/// or more (already integers) are returned as they are; `floor(-0) = -0`.
pub fn floorf(x: f32) -> f32 {
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = x as i32 as f32;
    let t = if t > x { t - 1.0 } else { t };
    // Keep the sign of a zero (only -0 itself floors to -0).
    if t == 0.0 {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        t
    }
}

/// `sqrt(x)` for `f64`, `x >= 0` finite: [`sqrtf`]'s estimate refined by three Newton
/// steps (to within an ulp or two of `f64`; [`atan2f`] rounds its result to `f32`).
fn sqrt_f64(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let mut r = sqrtf(x as f32) as f64;
    for _ in 0..3 {
        r = 0.5 * (r + x / r);
    }
    r
}

/// `atan(t)` for `0 <= t <= 1` in `f64`: two half-angle steps (`atan t = 2 atan(t / (1 +
/// sqrt(1 + t^2)))`) bring `t` below `tan(pi/16)`, then the Taylor series to 17 terms.
fn atan_unit_f64(t: f64) -> f64 {
    let t1 = t / (1.0 + sqrt_f64(1.0 + t * t));
    let t2 = t1 / (1.0 + sqrt_f64(1.0 + t1 * t1));
    let z = t2 * t2;
    // Horner on sum_k (-1)^k z^k / (2k + 1), k = 16 down to 0.
    let mut sum = 0.0;
    for k in (0..=16).rev() {
        let term = 1.0 / (2 * k + 1) as f64;
        sum = if k % 2 == 0 { term } else { -term } + z * sum;
    }
    4.0 * t2 * sum
}

/// `atan2(y, x)` for `f32` (C `atan2f`, MediaPipe's `std::atan2` on floats): computed in
/// `f64` ([`atan_unit_f64`] after reduction to `[0, 1]`) and rounded once, with C's special
/// cases (signed zeros, infinities, NaN).
pub fn atan2f(y: f32, x: f32) -> f32 {
    use core::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    if x.is_nan() || y.is_nan() {
        return f32::NAN;
    }
    let neg = y.is_sign_negative();
    let (ay, ax) = (y.abs() as f64, x.abs() as f64);
    let xneg = x.is_sign_negative();
    let a = if ay == 0.0 {
        if xneg {
            PI
        } else {
            0.0
        }
    } else if ax == 0.0 {
        FRAC_PI_2
    } else if ay.is_infinite() && ax.is_infinite() {
        if xneg {
            3.0 * FRAC_PI_4
        } else {
            FRAC_PI_4
        }
    } else if ay.is_infinite() {
        FRAC_PI_2
    } else if ax.is_infinite() {
        if xneg {
            PI
        } else {
            0.0
        }
    } else {
        let r = if ay <= ax { atan_unit_f64(ay / ax) } else { FRAC_PI_2 - atan_unit_f64(ax / ay) };
        if xneg {
            PI - r
        } else {
            r
        }
    };
    let a = a as f32;
    if neg {
        -a
    } else {
        a
    }
}

#[cfg(test)]
mod floor_tests {
    use super::{atan2f, floorf};

    #[test]
    fn atan2f_special_cases_and_values() {
        let pi = core::f32::consts::PI;
        for (y, x, want) in [
            (0.0f32, 1.0f32, 0.0f32),
            (-0.0, 1.0, -0.0),
            (0.0, -1.0, pi),
            (-0.0, -0.0, -pi),
            (1.0, 0.0, pi / 2.0),
            (-1.0, -0.0, -pi / 2.0),
            (f32::INFINITY, f32::INFINITY, pi / 4.0),
            (1.0, f32::NEG_INFINITY, pi),
            (1.0, 1.0, pi / 4.0),
            (1.0, -1.0, 3.0 * pi / 4.0),
        ] {
            assert_eq!(atan2f(y, x).to_bits(), want.to_bits(), "atan2({y}, {x})");
        }
        // Against glibc's correctly rounded values (atan2f from Python's ctypes libm).
        assert_eq!(atan2f(0.5, 2.0), 0.24497867);
        assert_eq!(atan2f(-3.0, 0.25), -1.487655);
        assert_eq!(atan2f(1e-3, -7.0), 3.1414497);
        assert!(atan2f(f32::NAN, 1.0).is_nan());
    }

    #[test]
    fn floorf_is_cs_floor() {
        for (x, want) in [(0.5f32, 0.0f32), (-0.5, -1.0), (2.0, 2.0), (-2.0, -2.0), (-2.25, -3.0), (1e10, 1e10), (8388607.5, 8388607.0), (-8388607.5, -8388608.0), (f32::INFINITY, f32::INFINITY)] {
            assert_eq!(floorf(x).to_bits(), want.to_bits(), "{x}");
        }
        assert_eq!(floorf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(floorf(0.0).to_bits(), 0.0f32.to_bits());
        assert!(floorf(f32::NAN).is_nan());
    }
}

#[cfg(test)]
mod tests {
    use super::{cosf, exp_f64_wide, expf, expm1f, f16_to_f32, logf, sinf, sqrtf, tanhf};

    /// Against the host C library's `exp` (correctly rounded in practice, glibc): relative
    /// error below 2^-49 over the whole range, the limits exact, and the rounded-to-float
    /// products TFLite Micro's box decoding forms identical on a dense sweep.
    #[test]
    fn exp_f64_wide_matches_the_c_library() {
        let mut x = -745.0f64;
        let mut differing_floats = 0;
        while x < 709.7 {
            let (got, want) = (exp_f64_wide(x), x.exp());
            if want > 1e-300 {
                assert!(((got - want) / want).abs() < 2f64.powi(-49), "{x}: {got} vs {want}");
            }
            if (0.5 * got * 0.37) as f32 != (0.5 * want * 0.37) as f32 {
                differing_floats += 1;
            }
            x += 0.000_731;
        }
        assert_eq!(differing_floats, 0);
        assert_eq!(exp_f64_wide(710.0), f64::INFINITY);
        assert_eq!(exp_f64_wide(-746.0), 0.0);
        assert!(exp_f64_wide(f64::NAN).is_nan());
        assert_eq!(exp_f64_wide(f64::NEG_INFINITY), 0.0);
        assert_eq!(exp_f64_wide(0.0), 1.0);
    }

    /// Every one of the 65,536 halves against its value computed in f64 from the definition
    /// (sign, exponent, mantissa), sign of zero and NaN-ness (and payload) included.
    #[test]
    fn every_half_widens_exactly() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let (sign, exp, mant) = ((h >> 15) as i32, ((h >> 10) & 0x1f) as i32, (h & 0x3ff) as f64);
            let want = match exp {
                0 => mant * 2f64.powi(-24),
                0x1f if mant == 0.0 => f64::INFINITY,
                0x1f => f64::NAN,
                e => (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
            } * if sign == 1 { -1.0 } else { 1.0 };
            assert_eq!(f.is_sign_negative(), sign == 1, "{h:#06x}");
            if want.is_nan() {
                assert!(f.is_nan(), "{h:#06x}");
                // The payload (and the quiet bit) move up by 13 bits.
                assert_eq!((f.to_bits() >> 13) & 0x3ff, (h & 0x3ff) as u32, "{h:#06x}");
            } else {
                assert_eq!(f as f64, want, "{h:#06x}");
            }
        }
    }

    /// Ulps between two finite floats of the same sign.
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    /// Correctly rounded on every 97th float of the finite, non-zero range (the oracle: the
    /// host's double `exp`, rounded once), and within one ulp of the host's `expf` (glibc's
    /// is off by one ulp on about 80 inputs in a million, all of them here).
    #[test]
    fn correctly_rounded_and_within_one_ulp_of_the_host_libm() {
        // Every 97th float natively (45 M inputs, seconds); under user-mode emulation (the
        // armv7 and aarch64 CI runs) every 9973rd, 0.4 M inputs, so the suite stays minutes.
        let step = if cfg!(target_arch = "x86_64") { 97 } else { 9973 };
        for bits in (0u32..0x42b2_0000).step_by(step).chain((0x8000_0000u32..0xc2cf_0000).step_by(step)) {
            let x = f32::from_bits(bits);
            let got = expf(x);
            assert_eq!(got, (x as f64).exp() as f32, "expf({x:e})");
            assert!(ulps(got, x.exp()) <= 1, "expf({x:e}) = {got:e}, host {:e}", x.exp());
        }
    }

    #[test]
    fn special_values() {
        assert_eq!(expf(0.0), 1.0);
        assert_eq!(expf(-0.0), 1.0);
        assert_eq!(expf(1.0), core::f32::consts::E);
        assert_eq!(expf(f32::INFINITY), f32::INFINITY);
        assert_eq!(expf(f32::NEG_INFINITY), 0.0);
        assert_eq!(expf(88.8), f32::INFINITY);
        assert_eq!(expf(-104.0), 0.0);
        assert!(expf(f32::NAN).is_nan());
        assert_eq!(expf(88.72283), 88.72283f32.exp());
        assert_eq!(expf(-103.0), (-103.0f32).exp());
    }

    /// Against the host's double `tanh` rounded once, on every 97th float (every 9973rd
    /// under emulation): equal, or one ulp apart where the double result lies within 2^-40
    /// relative of a float rounding boundary.
    #[test]
    fn tanhf_correctly_rounded() {
        let step = if cfg!(target_arch = "x86_64") { 97 } else { 9973 };
        for bits in (0u32..0x4200_0000).step_by(step).chain((0x8000_0000u32..0xc200_0000).step_by(step)) {
            let x = f32::from_bits(bits);
            let want = (x as f64).tanh();
            let got = tanhf(x);
            if got != want as f32 {
                let ulp = (got.to_bits() as i64 - (want as f32).to_bits() as i64).abs();
                let mid = ((got as f64) + (want as f32) as f64) / 2.0;
                assert!(ulp == 1 && ((want - mid) / want).abs() < 1e-12, "tanhf({x:e}) = {got:e}, want {want:e}");
            }
        }
        assert_eq!(tanhf(0.0).to_bits(), 0);
        assert_eq!(tanhf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanhf(f32::INFINITY), 1.0);
        assert_eq!(tanhf(f32::NEG_INFINITY), -1.0);
        assert_eq!(tanhf(1e-30), 1e-30);
        assert!(tanhf(f32::NAN).is_nan());
    }

    /// `sqrtf` is the host's (IEEE, correctly rounded) on every 61st float, subnormals and
    /// specials included.
    #[test]
    fn sqrtf_is_ieee() {
        let step = if cfg!(target_arch = "x86_64") { 61 } else { 9973 };
        for bits in (0u32..0x7f80_0001).step_by(step).chain([1, 2, 3, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff]) {
            let x = f32::from_bits(bits);
            assert_eq!(sqrtf(x).to_bits(), x.sqrt().to_bits(), "sqrtf({x:e})");
        }
        assert!(sqrtf(-1.0).is_nan() && sqrtf(f32::NAN).is_nan());
        assert_eq!(sqrtf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sqrtf(f32::INFINITY), f32::INFINITY);
    }

    /// `logf` and `expm1f` are correctly rounded (oracle: the host's double functions,
    /// rounded once) except within a hair of a rounding boundary, and within one ulp of the
    /// host's float functions (glibc's, which TFLite calls).
    #[test]
    fn logf_and_expm1f_within_one_ulp() {
        let step = if cfg!(target_arch = "x86_64") { 997 } else { 99991 };
        let (mut off_log, mut off_expm1, mut n) = (0, 0, 0);
        for bits in (1u32..0x7f80_0000).step_by(step) {
            let x = f32::from_bits(bits);
            n += 1;
            let got = logf(x);
            assert!(ulps(got, x.ln()) <= 1, "logf({x:e}) = {got:e}, host {:e}", x.ln());
            off_log += (got != (x as f64).ln() as f32) as u32;
            for x in [x, -x] {
                if x.abs() > 89.0 {
                    continue;
                }
                let got = expm1f(x);
                let host = x.exp_m1();
                assert!(got == host || (got.signum() == host.signum() && ulps(got, host) <= 1), "expm1f({x:e}) = {got:e}, host {host:e}");
                off_expm1 += (got != (x as f64).exp_m1() as f32) as u32;
            }
        }
        // Rounding-boundary misses are rare (a few per million).
        assert!(off_log * 1000 < n && off_expm1 * 1000 < n, "{off_log} {off_expm1} of {n}");
        assert_eq!(logf(1.0).to_bits(), 0);
        assert_eq!(logf(0.0), f32::NEG_INFINITY);
        assert!(logf(-1.0).is_nan());
        assert_eq!(logf(f32::INFINITY), f32::INFINITY);
        assert_eq!(expm1f(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(expm1f(-200.0), -1.0);
        assert_eq!(expm1f(f32::NEG_INFINITY), -1.0);
        assert_eq!(expm1f(100.0), f32::INFINITY);
    }

    /// `sinf` / `cosf` against the host's double `sin` / `cos` rounded once (glibc's, within
    /// about half an ulp of double, so an exact oracle except a hair from a float rounding
    /// boundary) on every 97th float of the whole finite range (every 9973rd under
    /// emulation, every 997th in an unoptimised test build, where every 97th takes over a
    /// minute), huge arguments included; and within one ulp of the host's float
    /// `sinf`/`cosf`, which TFLite Micro calls. Counts the differences from each.
    #[test]
    fn sinf_cosf_correctly_rounded_and_within_one_ulp_of_the_host_libm() {
        let step = match (cfg!(target_arch = "x86_64"), cfg!(debug_assertions)) {
            (true, false) => 97,
            (true, true) => 997,
            _ => 9973,
        };
        let (mut n, mut off_exact, mut off_host) = (0u64, 0u64, 0u64);
        for bits in (0u32..0x7f80_0000).step_by(step).chain([0x4b7f_ffff, 0x7f7f_ffff, 0x3f49_0fdb, 0x3fc9_0fdb, 0x4049_0fdb, 0x5922_aa80, 0x6a44_7f61]) {
            for x in [f32::from_bits(bits), -f32::from_bits(bits)] {
                n += 1;
                for (got, want, host) in [(sinf(x), (x as f64).sin(), x.sin()), (cosf(x), (x as f64).cos(), x.cos())] {
                    if got.to_bits() != (want as f32).to_bits() {
                        // Only where the double result lies a hair from a rounding boundary.
                        let mid = (got as f64 + (want as f32) as f64) / 2.0;
                        assert!(ulps(got, want as f32) == 1 && ((want - mid) / want).abs() < 1e-13, "{x:e}: {got:e}, want {want:e}");
                        off_exact += 1;
                    }
                    if got.to_bits() != host.to_bits() {
                        assert!(got.signum() == host.signum() && ulps(got, host) <= 1, "{x:e}: {got:e}, host {host:e}");
                        off_host += 1;
                    }
                }
            }
        }
        // Measured on x86_64 (glibc 2.3x, whose `sinf`/`cosf` are the Arm optimized-routines
        // ones): none of 44 M off the correctly rounded value; 1.3% one ulp off glibc's float
        // functions, all at |x| > 2^-7 (glibc's own error reaches about 0.56 ulp there).
        assert!(off_exact * 100_000 < n && off_host * 50 < n, "{off_exact} / {off_host} of {n}");
    }

    #[test]
    fn sinf_cosf_special_values() {
        assert_eq!(sinf(0.0).to_bits(), 0);
        assert_eq!(sinf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(cosf(0.0), 1.0);
        assert_eq!(cosf(-0.0), 1.0);
        for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert!(sinf(x).is_nan() && cosf(x).is_nan());
        }
        assert_eq!(sinf(1e-40), 1e-40);
        assert_eq!(sinf(f32::from_bits(1)), f32::from_bits(1));
        // sin(pi_f32) is pi - pi_f32, about -8.742278e-8: the reduction is not fooled.
        assert_eq!(sinf(core::f32::consts::PI), -8.742_278e-8);
        assert_eq!(cosf(core::f32::consts::PI), -1.0);
        assert_eq!(sinf(f32::MAX), (f32::MAX as f64).sin() as f32);
    }
}
