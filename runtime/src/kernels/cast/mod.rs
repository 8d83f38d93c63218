//! CAST: TFLite Micro `cast.cc` (`copyCast`: `static_cast<ToT>` per element) for the types it
//! supports that have arena views: from int8, int16, int32, uint32, float32 to int8, int16,
//! int32, uint32, float32.
//!
//! Rust's `as` is C++'s `static_cast` for every integer pair (truncation modulo 2^n, sign
//! extension) and for integer to float (round to nearest even). Float to integer truncates
//! toward zero in both; where C++ is undefined (NaN, out of range) Rust saturates (NaN to 0).

#[cfg(test)]
mod tests;

/// One element conversion, `static_cast<T>(self)`.
pub trait CastTo<T>: Copy {
    /// Converts one element as C++'s `static_cast` does.
    fn cast_to(self) -> T;
}

macro_rules! cast_to {
    ($($from:ty),* => $to:tt) => {$(
        impl CastTo<$to> for $from {
            #[inline(always)]
            fn cast_to(self) -> $to {
                self as $to
            }
        }
    )*};
}
cast_to!(i8, i16, i32, u32, f32 => i8);
cast_to!(i8, i16, i32, u32, f32 => i16);
cast_to!(i8, i16, i32, u32, f32 => i32);
cast_to!(i8, i16, i32, u32, f32 => u32);
cast_to!(i8, i16, i32, u32, f32 => f32);

/// `output[i] = static_cast<B>(input[i])`.
pub fn cast<A: CastTo<B>, B>(input: &[A], output: &mut [B]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = x.cast_to();
    }
}
