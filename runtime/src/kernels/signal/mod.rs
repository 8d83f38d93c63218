//! TFLite Micro's signal library (`signal/micro/kernels/*.cc`, `signal/src/*.cc`): the audio
//! front end's custom operators, integer code throughout, one file per operator.
//!
//! Every function mirrors the TFLite Micro source it names, in the same integer widths: C's
//! implicit promotions are spelled out (`as i32`, `as u64`), a narrowing assignment is an
//! `as` truncation, and arithmetic that C performs in a wider type or modulo 2^n is written
//! with `wrapping_*`. Compile-time parameters (the custom options, the FFT's twiddle tables
//! and factors) are computed by the compiler, which also checks every index these loops
//! take, so nothing here depends on the model at run time but the tensors' contents.
//!
//! State: SignalFilterBankSpectralSubtraction keeps its noise estimate between calls. TFLite
//! Micro keeps it in a persistent buffer and copies it to the op's second output after every
//! call; tflc makes that output tensor the state itself (a variable tensor, zero at reset,
//! which the kernel updates in place), which gives the same output and the same carry-over.
//! SignalDelay, SignalFramer, SignalStacker and SignalOverlapAdd keep state that no output
//! shows (their circular buffers): the compiler gives each such op state tensors of its own
//! (variable tensors too, zero at reset), which the kernels take as `&mut` slices. Each
//! kernel's state layout is chosen so that all zeros is the state after TFLite Micro's
//! Prepare and Reset.

pub mod delay;
pub mod energy;
pub mod fft_auto_scale;
pub mod filter_bank;
pub mod filter_bank_log;
pub mod filter_bank_spectral_subtraction;
pub mod filter_bank_square_root;
pub mod framer;
pub mod irfft;
pub mod msb;
pub mod overlap_add;
pub mod pcan;
pub mod rfft;
pub mod stacker;
pub mod window;
#[cfg(test)]
mod tests;
