//! A small reader of FlexBuffers for custom operators' options, `no_std` and without
//! allocation: most custom operators (TFLite's own, TFLite Micro's signal library, and the
//! ones `tf.lite` converts from `tf.function`s) store their options as a FlexBuffer map,
//! which a generated model hands to the caller's kernel as `&'static [u8]`
//! ([`crate::custom::CustomOpInfo::options`]).
//!
//! ```
//! use tflc_runtime::flexbuffers::Map;
//!
//! // `flexbuffers.Dumps({"axis": -1, "scale": 0.5})` (Python's `flatbuffers` package).
//! let bytes = [
//!     97, 120, 105, 115, 0, 115, 99, 97, 108, 101, 0, 2, 12, 8, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 2,
//!     0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 63, 6, 14, 10, 38, 1,
//! ];
//! let map = Map::parse(&bytes).unwrap();
//! assert_eq!(map.get("axis").and_then(|v| v.as_i32()), Some(-1));
//! assert_eq!(map.get("scale").and_then(|v| v.as_f32()), Some(0.5));
//! assert!(map.get("bias").is_none());
//! ```
//!
//! Every offset and width is checked, so malformed bytes give an error or `None`, never a
//! panic. Values are decoded when read, not at [`Map::parse`]: a value that cannot be decoded
//! reads as `None` ([`Map::get`]) or [`Value::Invalid`].
//!
//! The format (flatbuffers' `flexbuffers.h`): the last byte is the root's byte width, the one
//! before it the root's packed type (`type << 2 | log2(bit width)`), and the root slot
//! precedes them. A slot holds a scalar inline, or an offset back to its data (strings, blobs,
//! vectors, maps, indirect scalars). A map is a vector of values preceded by the offset of its
//! keys vector, the keys' byte width and its length; an untyped vector's elements are followed
//! by one packed type byte each. The compiler reads the same format at compile time
//! (`tflc::tflite::flexbuffers`); this reader is written apart, for `no_std`.

/// Why a buffer is not a FlexBuffer map this reader can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlexError {
    /// What is wrong.
    pub what: &'static str,
}

impl core::fmt::Display for FlexError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "malformed FlexBuffer: {}", self.what)
    }
}

const fn err(what: &'static str) -> FlexError {
    FlexError { what }
}

// FlexBuffer types (`flexbuffers::Type`).
const NULL: u8 = 0;
const INT: u8 = 1;
const UINT: u8 = 2;
const FLOAT: u8 = 3;
const KEY: u8 = 4;
const STRING: u8 = 5;
const INDIRECT_INT: u8 = 6;
const INDIRECT_UINT: u8 = 7;
const INDIRECT_FLOAT: u8 = 8;
const MAP: u8 = 9;
const VECTOR: u8 = 10;
const VECTOR_INT: u8 = 11;
const VECTOR_KEY: u8 = 14;
const VECTOR_STRING_DEPRECATED: u8 = 15;
const VECTOR_INT2: u8 = 16;
const VECTOR_FLOAT4: u8 = 24;
const BLOB: u8 = 25;
const BOOL: u8 = 26;
const VECTOR_BOOL: u8 = 36;

fn read_uint(b: &[u8], at: usize, width: usize) -> Option<u64> {
    let s = b.get(at..at.checked_add(width)?)?;
    Some(match *s {
        [a] => a as u64,
        [a, b] => u16::from_le_bytes([a, b]) as u64,
        [a, b, c, d] => u32::from_le_bytes([a, b, c, d]) as u64,
        [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => return None,
    })
}

fn read_int(b: &[u8], at: usize, width: usize) -> Option<i64> {
    let u = read_uint(b, at, width)?;
    Some(match width {
        1 => u as u8 as i8 as i64,
        2 => u as u16 as i16 as i64,
        4 => u as u32 as i32 as i64,
        _ => u as i64,
    })
}

fn read_float(b: &[u8], at: usize, width: usize) -> Option<f64> {
    let u = read_uint(b, at, width)?;
    match width {
        4 => Some(f32::from_bits(u as u32) as f64),
        8 => Some(f64::from_bits(u)),
        _ => None,
    }
}

/// The position `offset` bytes before `at`.
fn back(at: usize, offset: u64) -> Option<usize> {
    at.checked_sub(usize::try_from(offset).ok()?)
}

/// The slot at `at` (of `width` bytes) holds an offset back to the data: its position.
fn target(b: &[u8], at: usize, width: usize) -> Option<usize> {
    back(at, read_uint(b, at, width)?)
}

/// The NUL-terminated string at `at`.
fn read_key(b: &[u8], at: usize) -> Option<&str> {
    let rest = b.get(at..)?;
    let len = rest.iter().position(|&c| c == 0)?;
    core::str::from_utf8(&rest[..len]).ok()
}

/// A valid byte width (1, 2, 4 or 8).
fn width(w: u64) -> Option<usize> {
    matches!(w, 1 | 2 | 4 | 8).then_some(w as usize)
}

/// One value of a FlexBuffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A null value.
    Null,
    /// A signed integer (stored inline or indirectly), widened to 64 bits.
    Int(i64),
    /// An unsigned integer, widened to 64 bits.
    UInt(u64),
    /// A float, widened to 64 bits.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string or a key.
    Str(&'a str),
    /// A blob: bytes.
    Blob(&'a [u8]),
    /// A vector (untyped, typed or of fixed length).
    Vector(Vector<'a>),
    /// A map.
    Map(Map<'a>),
    /// A value whose bytes are malformed (an offset outside the buffer, a width that is not
    /// 1, 2, 4 or 8, a string that is not UTF-8) or of a type this reader does not know.
    Invalid,
}

impl<'a> Value<'a> {
    /// Decodes the value of packed type `packed` in the slot at `at` of `slot` bytes.
    fn decode(b: &'a [u8], at: usize, slot: usize, packed: u8) -> Option<Self> {
        let ty = packed >> 2;
        let own = 1usize << (packed & 3);
        Some(match ty {
            NULL => Value::Null,
            INT => Value::Int(read_int(b, at, slot)?),
            UINT => Value::UInt(read_uint(b, at, slot)?),
            FLOAT => Value::Float(read_float(b, at, slot)?),
            BOOL => Value::Bool(read_uint(b, at, slot)? != 0),
            INDIRECT_INT => Value::Int(read_int(b, target(b, at, slot)?, own)?),
            INDIRECT_UINT => Value::UInt(read_uint(b, target(b, at, slot)?, own)?),
            INDIRECT_FLOAT => Value::Float(read_float(b, target(b, at, slot)?, own)?),
            KEY => Value::Str(read_key(b, target(b, at, slot)?)?),
            STRING | BLOB => {
                let data = target(b, at, slot)?;
                let len = usize::try_from(read_uint(b, back(data, own as u64)?, own)?).ok()?;
                let bytes = b.get(data..data.checked_add(len)?)?;
                if ty == BLOB {
                    Value::Blob(bytes)
                } else {
                    Value::Str(core::str::from_utf8(bytes).ok()?)
                }
            }
            MAP => Value::Map(Map::at(b, target(b, at, slot)?, own)?),
            VECTOR | VECTOR_INT..=VECTOR_FLOAT4 | VECTOR_BOOL => Value::Vector(Vector::at(b, target(b, at, slot)?, own, ty)?),
            _ => return None,
        })
    }

    /// An integer as TFLite's `AsInt64` reads it: integers as themselves (an unsigned one
    /// only when it fits), floats truncated toward zero, bools as 0 or 1; `None` for other
    /// types.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => Some(v),
            Value::UInt(v) => i64::try_from(v).ok(),
            Value::Float(f) if f.is_finite() => Some(f as i64),
            Value::Bool(b) => Some(i64::from(b)),
            _ => None,
        }
    }

    /// [`Value::as_i64`] when it fits in an `i32`.
    pub fn as_i32(&self) -> Option<i32> {
        self.as_i64().and_then(|v| i32::try_from(v).ok())
    }

    /// A non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::UInt(v) => Some(v),
            _ => self.as_i64().and_then(|v| u64::try_from(v).ok()),
        }
    }

    /// A number as `f64` (integers converted).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(f) => Some(f),
            Value::Int(v) => Some(v as f64),
            Value::UInt(v) => Some(v as f64),
            _ => None,
        }
    }

    /// A number as `f32` (rounded to nearest).
    pub fn as_f32(&self) -> Option<f32> {
        self.as_f64().map(|f| f as f32)
    }

    /// A bool; numbers are true when not zero.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            Value::Float(f) => Some(f != 0.0),
            _ => self.as_i64().map(|v| v != 0),
        }
    }

    /// A string or key.
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A blob's bytes (a string's too).
    pub fn as_blob(&self) -> Option<&'a [u8]> {
        match *self {
            Value::Blob(b) => Some(b),
            Value::Str(s) => Some(s.as_bytes()),
            _ => None,
        }
    }

    /// A vector.
    pub fn as_vector(&self) -> Option<Vector<'a>> {
        match *self {
            Value::Vector(v) => Some(v),
            _ => None,
        }
    }

    /// A map.
    pub fn as_map(&self) -> Option<Map<'a>> {
        match *self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
}

/// How a vector's elements are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Elements {
    /// One packed type byte per element after the elements (`VECTOR`, a map's values).
    Untyped,
    /// Every element of one type (`VECTOR_INT`, `VECTOR_FLOAT2`, `VECTOR_BOOL`, ...).
    Typed(u8),
}

/// A vector of a FlexBuffer: [`Vector::get`] decodes element `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vector<'a> {
    buf: &'a [u8],
    /// Where element 0 starts.
    at: usize,
    len: usize,
    width: usize,
    elements: Elements,
}

impl<'a> Vector<'a> {
    /// The vector of FlexBuffer type `ty` whose elements start at `at`, `width` bytes each.
    fn at(b: &'a [u8], at: usize, width: usize, ty: u8) -> Option<Self> {
        let (len, elements) = match ty {
            VECTOR => (read_uint(b, back(at, width as u64)?, width)?, Elements::Untyped),
            VECTOR_INT..=VECTOR_KEY => (read_uint(b, back(at, width as u64)?, width)?, Elements::Typed(ty - VECTOR_INT + INT)),
            VECTOR_STRING_DEPRECATED => (read_uint(b, back(at, width as u64)?, width)?, Elements::Typed(STRING)),
            VECTOR_BOOL => (read_uint(b, back(at, width as u64)?, width)?, Elements::Typed(BOOL)),
            // VECTOR_INT2, UINT2, FLOAT2, INT3, ..., FLOAT4: fixed length, no size prefix.
            VECTOR_INT2..=VECTOR_FLOAT4 => {
                let k = ty - VECTOR_INT2;
                ((k / 3 + 2) as u64, Elements::Typed(k % 3 + INT))
            }
            _ => return None,
        };
        let len = usize::try_from(len).ok()?;
        // Every element slot (and each type byte of an untyped vector) inside the buffer.
        let types = if elements == Elements::Untyped { len } else { 0 };
        let end = len.checked_mul(width)?.checked_add(types)?.checked_add(at)?;
        if end > b.len() {
            return None;
        }
        Some(Vector { buf: b, at, len, width, elements })
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether every element has one type the vector declares (`VECTOR_INT`, ...,
    /// fixed-length vectors): what flexbuffers' `AsTypedVector` reads (it reads any other
    /// vector as empty).
    pub fn is_typed(&self) -> bool {
        matches!(self.elements, Elements::Typed(_))
    }

    /// Whether the vector has no element.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i` (`None` past the end; [`Value::Invalid`] when its bytes are malformed).
    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        if i >= self.len {
            return None;
        }
        let slot = self.at + i * self.width;
        let packed = match self.elements {
            Elements::Untyped => *self.buf.get(self.at + self.len * self.width + i)?,
            // A typed element's own width is the vector's.
            Elements::Typed(ty) => ty << 2 | self.width.trailing_zeros() as u8,
        };
        Some(Value::decode(self.buf, slot, self.width, packed).unwrap_or(Value::Invalid))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Value<'a>> + '_ {
        (0..self.len).filter_map(|i| self.get(i))
    }
}

/// A map of a FlexBuffer: keys (strings, stored sorted) and their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Map<'a> {
    values: Vector<'a>,
    keys: Vector<'a>,
}

impl<'a> Map<'a> {
    /// Reads a buffer whose root is a map (custom options).
    pub fn parse(b: &'a [u8]) -> Result<Self, FlexError> {
        match root(b)? {
            Value::Map(m) => Ok(m),
            Value::Invalid => Err(err("the root value is malformed")),
            _ => Err(err("the root is not a map")),
        }
    }

    /// The map whose values vector starts at `at`, `width` bytes per value.
    fn at(b: &'a [u8], at: usize, width: usize) -> Option<Self> {
        let values = Vector::at(b, at, width, VECTOR)?;
        let prefix = back(at, 3 * width as u64)?;
        let keys_width = width_at(b, prefix + width, width)?;
        let keys = Vector::at(b, target(b, prefix, width)?, keys_width, VECTOR_KEY)?;
        (keys.len == values.len).then_some(Map { values, keys })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.values.len
    }

    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.values.len == 0
    }

    /// Key `i` in stored (sorted) order.
    pub fn key(&self, i: usize) -> Option<&'a str> {
        self.keys.get(i)?.as_str()
    }

    /// Value `i` in stored (sorted) order: TFLite Micro's `ElementAs*(i)` reads options by
    /// this position.
    pub fn value(&self, i: usize) -> Option<Value<'a>> {
        self.values.get(i)
    }

    /// The value of `key` (`None` when absent or malformed).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let i = (0..self.len()).find(|&i| self.key(i) == Some(key))?;
        self.value(i).filter(|v| *v != Value::Invalid)
    }

    /// The entries in stored (sorted) order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, Value<'a>)> + '_ {
        (0..self.len()).filter_map(|i| Some((self.key(i)?, self.value(i)?)))
    }
}

fn width_at(b: &[u8], at: usize, slot: usize) -> Option<usize> {
    width(read_uint(b, at, slot)?)
}

/// The root value of a FlexBuffer.
pub fn root(b: &[u8]) -> Result<Value<'_>, FlexError> {
    let [.., packed, w] = *b else { return Err(err("shorter than 3 bytes")) };
    if b.len() < 3 {
        return Err(err("shorter than 3 bytes"));
    }
    let w = width(w as u64).ok_or(err("the root byte width is not 1, 2, 4 or 8"))?;
    let at = back(b.len() - 2, w as u64).ok_or(err("the root slot is before the buffer"))?;
    Ok(Value::decode(b, at, w, packed).unwrap_or(Value::Invalid))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `flexbuffers.Dumps({'a': 1, 's': 'hi', 'v': [1, 2, 3], 'm': {'x': 1.5},
    /// 'f': [1.0, 2.0], 'b': True})` from Python's `flatbuffers` 25 package.
    const MIXED: &str = "61007300026869007600030102030404046d0078000103000200000001000000010000000000c03f0e660000020000000000803f000000400e0e6200063d04162f3f3a06010601011825454004682a2614280c2401";

    /// `flexbuffers.Dumps({'big': 1 << 40, 'neg': -70000, 'name': 'tflc', 'blob': b'\x00\x01',
    /// 'nested': {'deep': [True, False]}, 'mixed': [1, 'two', 3.0], 'null': None})`.
    const WIDE: &str = "626967006e6567006e616d65000474666c6300626c6f62000200016e65737465640064656570000201006868010b01010109286d69786564000374776f00000003000000010000000e0000000000404006140e6e756c6c00075947285459430c070000000000000001000000000000000700000000000000000000000001000067000000000000004400000000000000820000000000000090eefeffffffffff6f00000000000000000000000000000007642a140724033f2701";

    fn hex(s: &str) -> std::vec::Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn reads_scalars_strings_vectors_and_nested_maps() {
        let b = hex(MIXED);
        let m = Map::parse(&b).unwrap();
        let keys: std::vec::Vec<&str> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["a", "b", "f", "m", "s", "v"]);
        assert_eq!(m.get("a"), Some(Value::Int(1)));
        assert_eq!(m.get("b").and_then(|v| v.as_bool()), Some(true));
        assert_eq!(m.get("s").and_then(|v| v.as_str()), Some("hi"));
        let v = m.get("v").and_then(|v| v.as_vector()).unwrap();
        let ints: std::vec::Vec<i64> = v.iter().filter_map(|x| x.as_i64()).collect();
        assert_eq!(ints, [1, 2, 3]);
        let f = m.get("f").and_then(|v| v.as_vector()).unwrap();
        let floats: std::vec::Vec<f32> = f.iter().filter_map(|x| x.as_f32()).collect();
        assert_eq!(floats, [1.0, 2.0]);
        let inner = m.get("m").and_then(|v| v.as_map()).unwrap();
        assert_eq!(inner.get("x").and_then(|v| v.as_f64()), Some(1.5));
        assert_eq!(m.get("zz"), None);
        assert_eq!(m.value(0), Some(Value::Int(1)));
        assert_eq!(m.key(5), Some("v"));
        assert_eq!(m.key(6), None);
    }

    #[test]
    fn reads_wide_values_blobs_nulls_and_untyped_vectors() {
        let b = hex(WIDE);
        let m = Map::parse(&b).unwrap();
        assert_eq!(m.get("big").and_then(|v| v.as_i64()), Some(1 << 40));
        assert_eq!(m.get("neg").and_then(|v| v.as_i32()), Some(-70000));
        assert_eq!(m.get("neg").and_then(|v| v.as_u64()), None);
        assert_eq!(m.get("name").and_then(|v| v.as_str()), Some("tflc"));
        assert_eq!(m.get("blob").and_then(|v| v.as_blob()), Some(&[0u8, 1][..]));
        assert_eq!(m.get("null"), Some(Value::Null));
        let deep = m.get("nested").and_then(|v| v.as_map()).and_then(|n| n.get("deep")).and_then(|v| v.as_vector()).unwrap();
        let bools: std::vec::Vec<bool> = deep.iter().filter_map(|x| x.as_bool()).collect();
        assert_eq!(bools, [true, false]);
        let mixed = m.get("mixed").and_then(|v| v.as_vector()).unwrap();
        assert_eq!(mixed.len(), 3);
        assert_eq!(mixed.get(0).and_then(|v| v.as_i64()), Some(1));
        assert_eq!(mixed.get(1).and_then(|v| v.as_str()), Some("two"));
        assert_eq!(mixed.get(2).and_then(|v| v.as_f64()), Some(3.0));
        assert_eq!(mixed.get(3), None);
    }

    #[test]
    fn conversions_refuse_what_does_not_fit() {
        assert_eq!(Value::UInt(u64::MAX).as_i64(), None);
        assert_eq!(Value::Int(1 << 40).as_i32(), None);
        assert_eq!(Value::Float(2.9).as_i64(), Some(2));
        assert_eq!(Value::Float(f64::NAN).as_i64(), None);
        assert_eq!(Value::Str("x").as_i64(), None);
        assert_eq!(Value::Int(0).as_bool(), Some(false));
        assert_eq!(Value::Null.as_f64(), None);
    }

    /// Every truncation and every single-byte corruption of both fixtures is an error or a
    /// map whose every value and nested value reads without panicking.
    #[test]
    fn malformed_buffers_never_panic() {
        fn walk(v: Value<'_>, depth: usize) {
            if depth > 8 {
                return;
            }
            match v {
                Value::Vector(x) => x.iter().for_each(|e| walk(e, depth + 1)),
                Value::Map(m) => m.iter().for_each(|(_, e)| walk(e, depth + 1)),
                _ => {}
            }
        }
        for fixture in [MIXED, WIDE] {
            let good = hex(fixture);
            for n in 0..good.len() {
                if let Ok(m) = Map::parse(&good[..n]) {
                    walk(Value::Map(m), 0);
                }
            }
            for i in 0..good.len() {
                for x in [0u8, 1, 2, 3, 0x7f, 0x80, 0xff] {
                    let mut b = good.clone();
                    b[i] = x;
                    if let Ok(m) = Map::parse(&b) {
                        walk(Value::Map(m), 0);
                    }
                }
            }
        }
        assert_eq!(Map::parse(&[]), Err(err("shorter than 3 bytes")));
        assert_eq!(Map::parse(&[1, 2]), Err(err("shorter than 3 bytes")));
        assert_eq!(Map::parse(&[7, INT << 2, 1]), Err(err("the root is not a map")));
        assert!(Map::parse(&[0, 0, 3]).is_err());
    }
}
