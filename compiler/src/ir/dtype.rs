//! Element types.

use serde::Serialize;
use std::fmt;

/// A tensor element type. `Other` keeps TFLite's numeric code for types we read but do
/// not name (complex, resource, variant, int4, …), so nothing is silently dropped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    /// float32.
    F32,
    /// float16 (IEEE binary16).
    F16,
    /// float64.
    F64,
    /// int8.
    I8,
    /// uint8.
    U8,
    /// int16.
    I16,
    /// uint16.
    U16,
    /// int32.
    I32,
    /// uint32.
    U32,
    /// int64.
    I64,
    /// uint64.
    U64,
    /// bool, one byte per element (0 or 1).
    Bool,
    /// TFLite's packed 4-bit integer type.
    I4,
    /// TFLite's variable-length string tensor (no fixed element size).
    String,
    /// TFLite's RESOURCE: a handle naming a resource variable (VAR_HANDLE's output). It
    /// holds no data tflc plans: every handle is resolved at compile time
    /// (`passes::resources`).
    Resource,
    /// Any other `TensorType` code, kept as stored.
    Other(i8),
}

/// What tflc knows about an element type: one row of [`DType::info`], the one dtype table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DTypeInfo {
    /// TFLite's lower-case name (`int8`, `float32`, …), used in summaries and JSON.
    pub name: &'static str,
    /// Bytes per element; `None` for string, packed and unknown types.
    pub size: Option<usize>,
    /// The Rust element type, where one exists (comments and accessors of generated code).
    pub rust: Option<&'static str>,
    /// Generated code can hold it in the arena: the runtime's `__private` has the four
    /// views `as_<rust>`, `as_<rust>_mut`, `array_<rust>`, `array_<rust>_mut` for it (checked
    /// at compile time by `emit`'s `VIEWS_EXIST`).
    pub arena_view: bool,
}

impl DType {
    /// The one dtype table: every fact the compiler and the generated code use about an
    /// element type comes from this match (sizes for planning, names for reports, the Rust
    /// type and arena views for emission).
    pub const fn info(self) -> DTypeInfo {
        const fn row(name: &'static str, size: Option<usize>, rust: Option<&'static str>, arena_view: bool) -> DTypeInfo {
            DTypeInfo { name, size, rust, arena_view }
        }
        match self {
            DType::F32 => row("float32", Some(4), Some("f32"), true),
            DType::F16 => row("float16", Some(2), None, false),
            DType::F64 => row("float64", Some(8), Some("f64"), false),
            DType::I8 => row("int8", Some(1), Some("i8"), true),
            DType::U8 => row("uint8", Some(1), Some("u8"), true),
            DType::I16 => row("int16", Some(2), Some("i16"), true),
            DType::U16 => row("uint16", Some(2), Some("u16"), false),
            DType::I32 => row("int32", Some(4), Some("i32"), true),
            DType::U32 => row("uint32", Some(4), Some("u32"), true),
            DType::I64 => row("int64", Some(8), Some("i64"), true),
            DType::U64 => row("uint64", Some(8), Some("u64"), true),
            DType::Bool => row("bool", Some(1), Some("bool"), false),
            DType::I4 => row("int4", None, None, false),
            DType::String => row("string", None, None, false),
            DType::Resource => row("resource", None, None, false),
            // The name carries the numeric code: see `name`.
            DType::Other(_) => row("", None, None, false),
        }
    }

    /// Size of one element in bytes; `None` for string and unknown types. `I4` is counted
    /// per element via [`DType::byte_size_of`].
    pub fn size(self) -> Option<usize> {
        self.info().size
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
            DType::Other(c) => format!("TensorType code {c}"),
            _ => self.info().name.to_owned(),
        }
    }

    /// The Rust element type name used in generated code.
    pub fn rust_name(self) -> Option<&'static str> {
        self.info().rust
    }

    /// The Rust element type of a type generated code can hold in its arena (one with
    /// runtime views); `None` otherwise.
    pub fn arena_elem(self) -> Option<&'static str> {
        let i = self.info();
        if i.arena_view {
            i.rust
        } else {
            None
        }
    }

    /// Every variant but `Other`, for tests over the table.
    pub const NAMED: [DType; 15] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
        DType::I64,
        DType::U64,
        DType::Bool,
        DType::I4,
        DType::String,
        DType::Resource,
    ];
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

#[cfg(test)]
mod tests {
    use super::DType;

    /// The table is consistent: arena types have a Rust type whose size is the element size,
    /// names are unique.
    #[test]
    fn table_rows_agree() {
        let mut names = std::collections::BTreeSet::new();
        for d in DType::NAMED {
            let i = d.info();
            assert!(names.insert(i.name), "{d:?}");
            if i.arena_view {
                let rust = i.rust.unwrap_or_else(|| panic!("{d:?} has views but no Rust type"));
                let bits: usize = rust[1..].parse().unwrap_or_else(|_| panic!("{rust}"));
                assert_eq!(i.size, Some(bits / 8), "{d:?}");
            }
        }
        assert_eq!(DType::Other(42).name(), "TensorType code 42");
        assert_eq!(DType::I4.byte_size_of(3), Some(2));
    }
}
