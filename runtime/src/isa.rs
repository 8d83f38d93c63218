//! The one place that selects an instruction-set implementation for the kernels.
//!
//! Two layers, both chosen here:
//!
//! - The dot micro-kernels of the portable fast variants (`crate::kernels::dot::Dot`:
//!   `Scalar`, `ArmDsp`, `Mve`, ...), chosen at compile time from `cfg`s that
//!   `runtime/build.rs` sets from the target (`tflc_arm_dsp` for Armv7E-M and ARMv7-A, whose
//!   DSP instructions stable Rust does not expose as a `target_feature`; `tflc_mve` for a
//!   Cortex-M55/M85 build, Helium).
//! - Host SIMD kernels (`crate::arch`, issue 15): x86-64 AVX2 and AVX-512 VNNI (the latter
//!   preferred where the CPU has both; kernels without a VNNI form run their AVX2 form), and
//!   aarch64 NEON with and without the dot-product extension (`sdot`; kernels without an
//!   `sdot` form run their NEON form). They are selected once per
//!   process: at compile time when the build enables the feature (`-C target-feature=+avx2`,
//!   `+dotprod`), otherwise at first use by `cpuid` (x86-64) or, for `sdot`, the OS's report
//!   (`std::arch::is_aarch64_feature_detected!`, with the runtime's `std` feature), and the
//!   answer is cached in an atomic ([`selected`]).
//!   A default build on any x86-64 machine thus runs the best variant the CPU has. The
//!   public variant functions (`conv_2d_s8_pointwise`, ...) call `host_simd!` first, which
//!   forwards to the selected implementation with its proof token, and otherwise run the
//!   portable variant. The compiler's variant choice and packing do not depend on this: the
//!   SIMD kernels read the same packed tables.
//!
//! [`force`] overrides the choice for tests and benchmarks (the runtime is `no_std` and reads
//! no environment; the e2e suite maps `TFLC_TEST_FEATURE` to it). `TFLC_RUNTIME_SCALAR=1`
//! at build time keeps the portable micro-kernels and disables the host SIMD kernels.

use core::sync::atomic::{AtomicU8, Ordering};

/// The dot micro-kernels the public fast kernels use.
#[cfg(all(tflc_arm_dsp, not(tflc_mve)))]
pub(crate) type Dot = crate::kernels::dot::dsp::ArmDsp;
/// The dot micro-kernels the public fast kernels use: Helium (Cortex-M55/M85), with the
/// DSP forms where it has no vector form (`crate::kernels::dot::mve`).
#[cfg(tflc_mve)]
pub(crate) type Dot = crate::kernels::dot::mve::Mve;
/// The dot micro-kernels the public fast kernels use.
#[cfg(tflc_neon)]
pub(crate) type Dot = crate::kernels::dot::neon::Neon;
/// The dot micro-kernels the public fast kernels use: the RV32 ones on 32-bit RISC-V
/// (narrow sign-extending loads at fixed offsets, `crate::kernels::dot::rv32`).
#[cfg(all(target_arch = "riscv32", not(tflc_runtime_scalar)))]
pub(crate) type Dot = crate::kernels::dot::rv32::Rv32;
/// The dot micro-kernels the public fast kernels use.
#[cfg(not(any(tflc_arm_dsp, tflc_neon, all(target_arch = "riscv32", not(tflc_runtime_scalar)))))]
pub(crate) type Dot = crate::kernels::dot::scalar::Scalar;

/// The name of the selected dot implementation (`"scalar"`, `"arm-dsp"`, `"mve"`, `"rv32"`, `"neon-micro"`: the
/// NEON micro-kernels, not the whole NEON kernels of [`HostSimd::Neon`]).
pub const DOT: &str = <Dot as crate::kernels::dot::Dot>::NAME;

/// Every dot implementation, and whether this build compiled (and its tests exercise) it.
pub const DOT_IMPLEMENTATIONS: &[(&str, bool)] =
    &[
        ("scalar", true),
        ("arm-dsp", cfg!(tflc_arm_dsp)),
        // Helium: compiled only for Cortex-M55/M85 builds, never on a host; its check is the
        // firmware's on-target self-test (`examples/firmware/run.sh --m55`).
        ("mve", cfg!(tflc_mve)),
        // Portable Rust: compiled and tested on every build (the RV32 firmware runs it too).
        ("rv32", true),
        ("neon-micro", cfg!(all(target_arch = "aarch64", target_feature = "neon"))),
    ];

/// The class of target a model is compiled for: what [`Conv2dVariant::select`] and the
/// other `select` functions pick a variant for. The compiler asks each `select` once per
/// class and, where the answers differ, emits one call per class under `#[cfg(...)]`
/// (`TargetClass::cfg`), so each build keeps one call and one packed table.
///
/// [`Conv2dVariant::select`]: crate::kernels::conv_2d::Conv2dVariant::select
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetClass {
    /// Arm with the DSP instructions (Armv7E-M `thumbv7em`, ARMv7-A): the
    /// `crate::kernels::dot::dsp` micro-kernels and the layouts packed for them.
    ArmDsp,
    /// Arm without them (Armv6-M `thumbv6m`, Armv7-M `thumbv7m`): the same layouts, read
    /// with the portable micro-kernels.
    Arm,
    /// x86-64: a host ([`TargetClass::is_host`]) whose int8 CONV_2D reads a layout made for
    /// `vpdpbusd` (`Conv2dVariant::Quad`); every other choice is [`TargetClass::Host`]'s.
    X86,
    /// Any other host (aarch64, ...): the variants that have host SIMD forms
    /// ([`crate::variants`], [`OTHER_SIMD_KERNELS`]) or NEON micro-kernels.
    Host,
}

impl TargetClass {
    /// Every class, in the order generated code lists them.
    pub const ALL: [TargetClass; 4] = [TargetClass::ArmDsp, TargetClass::Arm, TargetClass::X86, TargetClass::Host];

    /// The class this build of the runtime is compiled for (tests; the compiler does not
    /// use it: it compiles for every class).
    pub const BUILD: TargetClass = if cfg!(tflc_arm_dsp) {
        TargetClass::ArmDsp
    } else if cfg!(target_arch = "arm") {
        TargetClass::Arm
    } else if cfg!(target_arch = "x86_64") {
        TargetClass::X86
    } else {
        TargetClass::Host
    };

    /// Its name in reports: `"arm-dsp"`, `"arm"`, `"x86"`, `"host"`.
    pub const fn name(self) -> &'static str {
        match self {
            TargetClass::ArmDsp => "arm-dsp",
            TargetClass::Arm => "arm",
            TargetClass::X86 => "x86",
            TargetClass::Host => "host",
        }
    }

    /// Whether this is a host class ([`TargetClass::X86`] or [`TargetClass::Host`]): the
    /// variants made for host SIMD rather than for the Arm micro-kernels.
    pub const fn is_host(self) -> bool {
        matches!(self, TargetClass::X86 | TargetClass::Host)
    }
}

/// The x86-64 instruction-set feature groups the kernels are written for, as bits (detection:
/// `crate::arch::x86_64::features`).
pub mod x86 {
    /// A set of feature groups.
    pub type Features = u8;
    /// x86-64-v3's vector part: AVX2 + FMA + F16C (the OS saving the YMM state).
    pub const V3: Features = 1;
    /// x86-64-v4's AVX-512 F/BW/DQ/VL (the OS saving the opmask and ZMM state).
    pub const V4: Features = 2;
    /// AVX512-VNNI (512-bit `vpdpbusd`).
    pub const VNNI512: Features = 4;
    /// AVX-VNNI (the VEX-encoded 256-bit `vpdpbusd`).
    pub const AVXVNNI: Features = 8;
}

/// A host SIMD implementation: what the public kernels dispatch to ([`selected`]), by name
/// for tests and benchmarks ([`force`]). On x86-64 each is a set of instruction-set feature
/// groups ([`HostSimd::x86`], `crate::arch::x86_64::features`), and a kernel runs the first
/// of its forms (in its variant table's order) whose groups the set holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum HostSimd {
    /// None: the portable variants with [`DOT`].
    Portable = 1,
    /// x86-64-v3 (AVX2, FMA, F16C): `crate::arch::x86_64`.
    Avx2 = 2,
    /// x86-64-v4 with AVX512-VNNI: `crate::arch::x86_64::vnni` where a kernel has that form,
    /// the AVX-512 float kernels, AVX2 for the others.
    Avx512Vnni = 3,
    /// aarch64 NEON (`crate::arch::aarch64`), without the dot-product extension.
    Neon = 4,
    /// aarch64 NEON with the dot-product extension (`sdot`) where a kernel has that form,
    /// plain NEON for the others.
    NeonDotprod = 5,
    /// x86-64-v3 with AVX-VNNI (256-bit `vpdpbusd`, Intel's client CPUs since 2021, without
    /// AVX-512): `crate::arch::x86_64::avxvnni` where a kernel has that form, AVX2 for the
    /// others.
    AvxVnni = 6,
    /// x86-64-v4 without VNNI (AVX-512 F/BW/DQ/VL): the AVX-512 float kernels, AVX2 for the
    /// int8 ones.
    Avx512 = 7,
}

impl HostSimd {
    /// Every host SIMD implementation, by name (`TFLC_TEST_FEATURE`, reports).
    pub const ALL: &'static [HostSimd] =
        &[HostSimd::Portable, HostSimd::Avx2, HostSimd::AvxVnni, HostSimd::Avx512, HostSimd::Avx512Vnni, HostSimd::Neon, HostSimd::NeonDotprod];

    /// Its name: `"portable"`, `"avx2"`, `"avxvnni"`, `"avx512"`, `"avx512vnni"`, `"neon"`,
    /// `"neon-dotprod"`.
    pub const fn name(self) -> &'static str {
        match self {
            HostSimd::Portable => "portable",
            HostSimd::Avx2 => "avx2",
            HostSimd::AvxVnni => "avxvnni",
            HostSimd::Avx512 => "avx512",
            HostSimd::Avx512Vnni => "avx512vnni",
            HostSimd::Neon => "neon",
            HostSimd::NeonDotprod => "neon-dotprod",
        }
    }

    /// The x86-64 feature groups it uses (`crate::arch::x86_64::features`; 0 for the others).
    pub const fn x86(self) -> x86::Features {
        use x86::{AVXVNNI, V3, V4, VNNI512};
        match self {
            HostSimd::Avx2 => V3,
            HostSimd::AvxVnni => V3 | AVXVNNI,
            HostSimd::Avx512 => V3 | V4,
            HostSimd::Avx512Vnni => V3 | V4 | VNNI512,
            HostSimd::Portable | HostSimd::Neon | HostSimd::NeonDotprod => 0,
        }
    }

    /// Whether this build compiled it and this CPU executes it.
    pub fn executable(self) -> bool {
        match self {
            HostSimd::Portable => true,
            HostSimd::Avx2 | HostSimd::AvxVnni | HostSimd::Avx512 | HostSimd::Avx512Vnni => {
                !cfg!(tflc_runtime_scalar) && x86_features() & self.x86() == self.x86()
            }
            HostSimd::Neon => cfg!(tflc_neon),
            #[cfg(tflc_neon)]
            HostSimd::NeonDotprod => crate::arch::aarch64::Dotprod::detect().is_some(),
            #[cfg(not(tflc_neon))]
            HostSimd::NeonDotprod => false,
        }
    }

    /// The default: the best executable one (none under `TFLC_RUNTIME_SCALAR=1`).
    fn best() -> HostSimd {
        const ORDER: [HostSimd; 6] = [HostSimd::Avx512Vnni, HostSimd::Avx512, HostSimd::AvxVnni, HostSimd::Avx2, HostSimd::NeonDotprod, HostSimd::Neon];
        ORDER.into_iter().find(|s| s.executable()).unwrap_or(HostSimd::Portable)
    }

    /// Whether a kernel's form for `form` runs under this selection: the selection holds
    /// every x86-64 group the form needs, or (aarch64) is that form, or NEON with `sdot` for
    /// a NEON form.
    pub const fn runs(self, form: HostSimd) -> bool {
        match form {
            HostSimd::Portable => false,
            HostSimd::Neon => matches!(self, HostSimd::Neon | HostSimd::NeonDotprod),
            HostSimd::NeonDotprod => matches!(self, HostSimd::NeonDotprod),
            _ => self.x86() & form.x86() == form.x86(),
        }
    }
}

/// 0: not detected yet, else `0x80 | groups`.
static X86_FEATURES: AtomicU8 = AtomicU8::new(0);

/// The x86-64 feature groups this CPU executes (detected at the first call, cached; 0 on
/// other architectures).
pub fn x86_features() -> x86::Features {
    #[cfg(target_arch = "x86_64")]
    {
        match X86_FEATURES.load(Ordering::Relaxed) {
            0 => {
                let f = crate::arch::x86_64::features::detect();
                X86_FEATURES.store(0x80 | f, Ordering::Relaxed);
                f
            }
            f => f & 0x7F,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = &X86_FEATURES;
        0
    }
}

/// The public kernel functions outside the variant tables ([`crate::variants`], whose rows
/// list their own forms, written by the same macro that writes their dispatch) that
/// `host_simd!` forwards to a host SIMD implementation, with the implementations that have
/// one. The int8, uint8 and float32 convolution, depthwise and fully-connected variants are
/// in their tables; these remain: the int8 elementwise ops and AVERAGE_POOL_2D. (AVX2 runs
/// `depthwise_conv_2d_s8_window` for depth multiplier 1 only, and gathers conv windows of
/// at most 4608 int8: larger ones take the portable variant. The Cortex-M variants with
/// compile-time packed requantization or interleaved filters, `conv_2d_s8_gemm`,
/// `depthwise_conv_2d_s8_mult1`, `_one_channel` and `fully_connected_s8_interleaved`, have no
/// host SIMD form yet: their packed layouts are the Arm ones. NEON runs
/// `depthwise_conv_2d_s8_window` for depth multiplier 1 only; `conv_2d_s8_window`
/// (windows longer than `Wide` takes) and `depthwise_conv_2d_u8_window` have no NEON form.
/// `sdot` has no use in `Wide`, whose packed weights are int16, nor in depthwise.)
pub const OTHER_SIMD_KERNELS: &[(&str, &[HostSimd])] = &[
    // int8 elementwise (`crate::arch::x86_64::elementwise`): rows whose operands have
    // inner stride 0 or 1, i.e. every broadcast `nd::plan_broadcast` makes.
    ("add_s8", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("add_s8_in_place", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("sub_s8", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("sub_s8_in_place", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("mul_s8", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("mul_s8_in_place", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
    ("average_pool_2d_s8", &[HostSimd::Avx512Vnni, HostSimd::Avx2]),
];

/// The implementation a call of the public kernel function `function` runs now: the first
/// of its host SIMD forms (listed best first) that the selected implementation runs
/// ([`HostSimd::runs`]: AVX2 under AVX-512 VNNI or AVX-VNNI, NEON under NEON with `sdot`),
/// else [`DOT`] for the portable fast variants (`"scalar"`, `"arm-dsp"`, `"neon-micro"`).
pub fn implementation_of(function: &str) -> &'static str {
    let simd = selected();
    let forms = match crate::variants::row_of_function(function) {
        Some(row) => Some(row.simd),
        None => OTHER_SIMD_KERNELS.iter().find(|(f, _)| *f == function).map(|(_, forms)| *forms),
    };
    match forms {
        Some(forms) if forms.contains(&simd) => simd.name(),
        Some(forms) => forms.iter().find(|&&form| simd.runs(form)).map_or(DOT, |form| form.name()),
        None => DOT,
    }
}

/// 0: not selected yet, else a [`HostSimd`] discriminant.
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// The host SIMD implementation the public kernels use: detected at the first call, cached.
/// Inlined into every variant's dispatch (the detection is [`select_once`], out of line).
#[inline(always)]
pub fn selected() -> HostSimd {
    #[cfg(test)]
    if let Some(simd) = tests::FORCED.with(|f| f.get()) {
        return simd;
    }
    match SELECTED.load(Ordering::Relaxed) {
        1 => HostSimd::Portable,
        2 => HostSimd::Avx2,
        3 => HostSimd::Avx512Vnni,
        4 => HostSimd::Neon,
        5 => HostSimd::NeonDotprod,
        6 => HostSimd::AvxVnni,
        7 => HostSimd::Avx512,
        _ => select_once(),
    }
}

/// The first call's detection of [`selected`], cached.
#[cold]
#[inline(never)]
fn select_once() -> HostSimd {
    let best = HostSimd::best();
    SELECTED.store(best as u8, Ordering::Relaxed);
    best
}

/// Makes the public kernels use `simd` from now on (tests, benchmarks). `Err` (and no
/// change) when this build or CPU cannot execute it.
#[doc(hidden)]
pub fn force(simd: HostSimd) -> Result<(), &'static str> {
    if !simd.executable() {
        return Err("this build or CPU cannot execute that implementation");
    }
    SELECTED.store(simd as u8, Ordering::Relaxed);
    Ok(())
}

/// Whether the selected implementation holds the x86-64 feature groups `groups`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn selected_has(groups: x86::Features) -> bool {
    selected().x86() & groups == groups
}

/// The AVX2 (x86-64-v3) token when the selected implementation includes it.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2() -> Option<crate::arch::x86_64::Avx2> {
    use x86::V3;
    // SAFETY: `selected` is an x86-64 implementation only after its `executable()` (the CPU
    // has every group of its `x86()`) returned true (in `best` or `force`).
    selected_has(V3).then(|| unsafe { crate::arch::x86_64::Avx2::after_detection() })
}

/// The AVX-VNNI token when the selected implementation includes it.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx_vnni() -> Option<crate::arch::x86_64::avxvnni::AvxVnni> {
    use x86::{AVXVNNI, V3};
    // SAFETY: as in `avx2`.
    selected_has(V3 | AVXVNNI).then(|| unsafe { crate::arch::x86_64::avxvnni::AvxVnni::after_detection() })
}

/// The AVX-512 (x86-64-v4, float kernels) token when the selected implementation includes
/// it.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx512() -> Option<crate::arch::x86_64::f32::Avx512F32> {
    use x86::{V3, V4};
    // SAFETY: as in `avx2`.
    selected_has(V3 | V4).then(|| unsafe { crate::arch::x86_64::f32::Avx512F32::after_detection() })
}

/// The AVX-512 VNNI token when the selected implementation includes it.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx512_vnni() -> Option<crate::arch::x86_64::vnni::Avx512Vnni> {
    use x86::{V3, V4, VNNI512};
    // SAFETY: as in `avx2`.
    selected_has(V3 | V4 | VNNI512).then(|| unsafe { crate::arch::x86_64::vnni::Avx512Vnni::after_detection() })
}

/// The NEON token when NEON or NEON with `sdot` is the selected implementation.
#[cfg(tflc_neon)]
#[inline]
pub(crate) fn neon() -> Option<crate::arch::aarch64::Neon> {
    match selected() {
        HostSimd::Neon | HostSimd::NeonDotprod => Some(crate::arch::aarch64::Neon::new()),
        _ => None,
    }
}

/// The dot-product token when NEON with `sdot` is the selected implementation.
#[cfg(tflc_neon)]
#[inline]
pub(crate) fn dotprod() -> Option<crate::arch::aarch64::Dotprod> {
    if selected() == HostSimd::NeonDotprod {
        // SAFETY: `selected` is `NeonDotprod` only after `HostSimd::NeonDotprod.executable()`,
        // i.e. `Dotprod::detect()`, returned true (in `best` or `force`).
        Some(unsafe { crate::arch::aarch64::Dotprod::after_detection() })
    } else {
        None
    }
}

/// `host_simd!(f(args...))` at the top of a public variant function: returns
/// `crate::arch::<isa>::f(token, args...)` when a host SIMD implementation is selected, else
/// falls through to the portable body. `host_simd!(vnni f(args...))` first tries
/// `crate::arch::x86_64::vnni::f` when AVX-512 VNNI is selected (a kernel with that form).
/// `host_simd!(neon ...)` (before `vnni`) also forwards to `crate::arch::aarch64::f` when
/// NEON is selected (which picks its `sdot` form itself, where it has one). The `@` arms are
/// one instruction set each, what the variant tables' rows dispatch through (`@f32_*`: the
/// packed float variants' `arch::*::f32` forms). The one selection mechanism of the host
/// kernels ([`Dot`] is the microcontrollers').
macro_rules! host_simd {
    (neon vnni $f:ident($($arg:expr),* $(,)?)) => {
        $crate::isa::host_simd!(@neon $f($($arg),*));
        $crate::isa::host_simd!(vnni $f($($arg),*));
    };
    (vnni $f:ident($($arg:expr),* $(,)?)) => {
        $crate::isa::host_simd!(@vnni $f($($arg),*));
        $crate::isa::host_simd!(@avx2 $f($($arg),*));
    };
    // One instruction set each (also what `variants::variant_table!` rows dispatch through).
    (@neon $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(tflc_neon)]
        if let Some(token) = $crate::isa::neon() {
            return $crate::arch::aarch64::$f(token, $($arg),*);
        }
    };
    (@vnni $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::isa::avx512_vnni() {
            return $crate::arch::x86_64::vnni::$f(token, $($arg),*);
        }
    };
    (@avxvnni $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::isa::avx_vnni() {
            return $crate::arch::x86_64::avxvnni::$f(token, $($arg),*);
        }
    };
    (@avx2 $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::isa::avx2() {
            return $crate::arch::x86_64::$f(token, $($arg),*);
        }
    };
    // The packed float variants' forms (`kernels::f32x8`; their variant tables' `f32_*`
    // rows): `arch::x86_64::f32::avx512::f` when the selected implementation includes
    // x86-64-v4, `arch::x86_64::f32::f` with AVX2+FMA (x86-64-v3), `arch::aarch64::f32::f`
    // with NEON (part of aarch64's base ISA).
    (@f32_avx512 $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::arch::x86_64::f32::Avx512F32::selected() {
            return $crate::arch::x86_64::f32::avx512::$f(token, $($arg),*);
        }
    };
    (@f32_avx2 $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::arch::x86_64::f32::Avx2Fma::selected() {
            return $crate::arch::x86_64::f32::$f(token, $($arg),*);
        }
    };
    (@f32_neon $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(tflc_neon)]
        if let Some(token) = $crate::arch::aarch64::f32::Neon::selected() {
            return $crate::arch::aarch64::f32::$f(token, $($arg),*);
        }
    };
    ($f:ident($($arg:expr),* $(,)?)) => {
        $crate::isa::host_simd!(@avx2 $f($($arg),*));
    };
}
pub(crate) use host_simd;

/// Runs `f` with `simd` selected on this thread only (the kernel suites, which run in
/// parallel threads: each runs a variant's public function under one implementation).
/// Panics if this CPU cannot execute `simd` (the suites check
/// [`HostSimd::executable`] first).
#[cfg(test)]
pub(crate) fn under<R>(simd: HostSimd, f: impl FnOnce() -> R) -> R {
    assert!(simd.executable(), "{} is not executable here", simd.name());
    let before = tests::FORCED.with(|c| c.replace(Some(simd)));
    let r = f();
    tests::FORCED.with(|c| c.set(before));
    r
}

#[cfg(test)]
pub(crate) mod tests {
    use super::HostSimd;

    std::thread_local! {
        /// [`super::under`]'s selection for this thread.
        pub(super) static FORCED: core::cell::Cell<Option<HostSimd>> = const { core::cell::Cell::new(None) };
    }

    /// Prints which implementations this test run covers and which it does not (it cannot
    /// execute them), so that an untested implementation is reported as such, never as
    /// passed (`cargo test -- --nocapture isa` shows it). With `TFLC_TEST_FEATURE=arm-dsp`
    /// (`tools/test-runtime-armv7.sh`, CI) a build without the DSP implementation fails, and
    /// likewise `TFLC_TEST_FEATURE=avx2` on a machine without AVX2.
    #[test]
    fn report() {
        for &(name, tested) in super::DOT_IMPLEMENTATIONS {
            if crate::kernels::test_util::available(name, tested) {
                std::eprintln!("dot implementation {name}: tested");
            }
        }
        assert!(super::DOT_IMPLEMENTATIONS.iter().any(|&(n, t)| n == super::DOT && t));
        for &simd in HostSimd::ALL {
            if crate::kernels::test_util::available(simd.name(), simd.executable()) {
                std::eprintln!("host SIMD implementation {}: tested", simd.name());
            }
        }
        std::eprintln!("selected: {}", super::selected().name());
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(HostSimd::Avx2.executable(), crate::arch::x86_64::tests::detected());
            assert_eq!(HostSimd::AvxVnni.executable(), crate::arch::x86_64::avxvnni::tests::detected());
            assert_eq!(HostSimd::Avx512Vnni.executable(), crate::arch::x86_64::vnni::tests::detected());
        }
        #[cfg(tflc_neon)]
        assert_eq!(HostSimd::NeonDotprod.executable(), crate::arch::aarch64::tests::dotprod_detected());
    }
}
