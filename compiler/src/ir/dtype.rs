//! Element types.

use serde::Serialize;
use std::fmt;

/// A tensor element type. `Other` keeps TFLite's numeric code for types we read but do
/// not name (complex, resource, variant, int4, …), so nothing is silently dropped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    F32,
    F16,
    F64,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    Bool,
    /// TFLite's packed 4-bit integer type.
    I4,
    String,
    Other(i8),
}

impl DType {
    /// Size of one element in bytes; `None` for string and unknown types. `I4` is counted
    /// per element via [`DType::byte_size_of`].
    pub fn size(self) -> Option<usize> {
        Some(match self {
            DType::I8 | DType::U8 | DType::Bool => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
            DType::I4 | DType::String | DType::Other(_) => return None,
        })
    }

    /// Bytes taken by `n` elements (`I4` packs two per byte).
    pub fn byte_size_of(self, n: usize) -> Option<usize> {
        match self {
            DType::I4 => Some(n.div_ceil(2)),
            _ => self.size().and_then(|s| s.checked_mul(n)),
        }
    }

    /// The lower-case name used in summaries and JSON: `int8`, `float32`, …
    pub fn name(self) -> String {
        match self {
            DType::F32 => "float32".into(),
            DType::F16 => "float16".into(),
            DType::F64 => "float64".into(),
            DType::I8 => "int8".into(),
            DType::U8 => "uint8".into(),
            DType::I16 => "int16".into(),
            DType::U16 => "uint16".into(),
            DType::I32 => "int32".into(),
            DType::U32 => "uint32".into(),
            DType::I64 => "int64".into(),
            DType::U64 => "uint64".into(),
            DType::Bool => "bool".into(),
            DType::I4 => "int4".into(),
            DType::String => "string".into(),
            DType::Other(c) => format!("type{c}"),
        }
    }

    /// The Rust element type name used in generated code.
    pub fn rust_name(self) -> Option<&'static str> {
        Some(match self {
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I8 => "i8",
            DType::U8 => "u8",
            DType::I16 => "i16",
            DType::U16 => "u16",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::I64 => "i64",
            DType::U64 => "u64",
            DType::Bool => "bool",
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for DType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}
