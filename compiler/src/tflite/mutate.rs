//! Structure-aware model mutation (feature `fuzzing`, docs/FUZZING.md): a verified `.tflite`
//! is decoded into a generic tree of tables through the schema's description
//! ([`super::schema_desc`], generated from `schema_generated.rs` by
//! `tools/gen_schema_desc.py`), fields are changed through the schema (present or not:
//! an absent field is added), and the tree is written back with `FlatBufferBuilder`, so the
//! mutant is a valid flatbuffer that passes the verifier and reaches lowering, planning and
//! code generation. Byte-level damage stays with `fuzzing::models::mutate`.
//!
//! What [`mutate_fields`] changes: tensor shapes and shape signatures (dims 0, 1, -1, huge,
//! rank changes), element types, quantization (NaN / zero / negative / infinite scales, zero
//! points out of range, per-channel lengths wrong, `quantized_dimension` out of range), every
//! field of an operator's builtin options (extreme values), operator input and output
//! indices (out of range, -1, aliasing, arity changes), opcode indices, builtin codes and
//! versions, subgraph references (`*_subgraph_index` of IF, WHILE, CALL_ONCE and StableHLO
//! options), sparsity metadata (traversal order, block map, dimension metadata, index
//! vectors), custom options bytes, buffer data lengths and tensor buffer indices, and
//! subgraph inputs and outputs.

use super::schema_desc::{MODEL, TABLES};
use arbitrary::{Result, Unstructured};
use flatbuffers::{FlatBufferBuilder, TableFinishedWIPOffset, UnionWIPOffset, WIPOffset};

/// A scalar's type: signed, unsigned, float or bool, and its size in bytes.
#[allow(dead_code, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sc {
    SS1,
    SS2,
    SS4,
    SS8,
    SU1,
    SU2,
    SU4,
    SU8,
    SF4,
    SF8,
    SB1,
}

impl Sc {
    fn size(self) -> usize {
        match self {
            Sc::SS1 | Sc::SU1 | Sc::SB1 => 1,
            Sc::SS2 | Sc::SU2 => 2,
            Sc::SS4 | Sc::SU4 | Sc::SF4 => 4,
            Sc::SS8 | Sc::SU8 | Sc::SF8 => 8,
        }
    }
}

/// What a field holds.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Scalar(Sc),
    Str,
    VecScalar(Sc),
    VecStr,
    /// A vector of tables of `TABLES[i]`.
    VecTable(usize),
    Table(usize),
    /// A union: its type tag sits in slot `tag_vt`; `variants` maps tags to tables.
    Union { tag_vt: u16, variants: &'static [(u8, usize)] },
}

/// One field of a table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub vt: u16,
    pub kind: Kind,
}

/// One table of the schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableDesc {
    pub name: &'static str,
    pub fields: &'static [Field],
}

/// A decoded field value. Scalars keep their little-endian bits (zero-extended).
#[derive(Clone, Debug)]
enum Val {
    Scalar(u64),
    Str(String),
    /// Little-endian elements, the field's element size each.
    VecScalar(Vec<u8>),
    VecStr(Vec<String>),
    VecTable(Vec<Tab>),
    Table(Box<Tab>),
    Union(u8, Box<Tab>),
}

/// A decoded table: `TABLES[desc]` and its present fields (index into its description).
#[derive(Clone, Debug)]
struct Tab {
    desc: usize,
    fields: Vec<(usize, Val)>,
}

fn rd(b: &[u8], at: usize, n: usize) -> Option<u64> {
    let s = b.get(at..at.checked_add(n)?)?;
    Some(s.iter().rev().fold(0u64, |acc, &x| (acc << 8) | x as u64))
}

fn deref(b: &[u8], at: usize) -> Option<usize> {
    at.checked_add(rd(b, at, 4)? as usize)
}

fn vec_at(b: &[u8], at: usize, elem: usize) -> Option<(usize, usize)> {
    let t = deref(b, at)?;
    let n = rd(b, t, 4)? as usize;
    let start = t.checked_add(4)?;
    b.get(start..start.checked_add(n.checked_mul(elem)?)?)?;
    Some((start, n))
}

fn string_at(b: &[u8], at: usize) -> Option<String> {
    let (s, n) = vec_at(b, at, 1)?;
    String::from_utf8(b.get(s..s + n)?.to_vec()).ok()
}

fn decode(b: &[u8], loc: usize, desc: usize, depth: usize) -> Option<Tab> {
    if depth > 32 {
        return None;
    }
    let soff = rd(b, loc, 4)? as u32 as i32 as i64;
    let vtab = usize::try_from(loc as i64 - soff).ok()?;
    let vlen = rd(b, vtab, 2)? as usize;
    let slot = |vt: u16| -> Option<usize> {
        let vt = vt as usize;
        if vt + 2 > vlen {
            return None;
        }
        match rd(b, vtab + vt, 2)? as usize {
            0 => None,
            o => Some(loc + o),
        }
    };
    let d = TABLES.get(desc)?;
    let mut fields = Vec::new();
    for (fi, f) in d.fields.iter().enumerate() {
        let Some(at) = slot(f.vt) else { continue };
        let val = match f.kind {
            Kind::Scalar(sc) => Val::Scalar(rd(b, at, sc.size())?),
            Kind::Str => Val::Str(string_at(b, at)?),
            Kind::VecScalar(sc) => {
                let (s, n) = vec_at(b, at, sc.size())?;
                Val::VecScalar(b.get(s..s + n * sc.size())?.to_vec())
            }
            Kind::VecStr => {
                let (s, n) = vec_at(b, at, 4)?;
                Val::VecStr((0..n).map(|i| string_at(b, s + 4 * i)).collect::<Option<_>>()?)
            }
            Kind::VecTable(c) => {
                let (s, n) = vec_at(b, at, 4)?;
                Val::VecTable((0..n).map(|i| decode(b, deref(b, s + 4 * i)?, c, depth + 1)).collect::<Option<_>>()?)
            }
            Kind::Table(c) => Val::Table(Box::new(decode(b, deref(b, at)?, c, depth + 1)?)),
            Kind::Union { tag_vt, variants } => {
                let Some(tag_at) = slot(tag_vt) else { continue };
                let tag = rd(b, tag_at, 1)? as u8;
                let Some(&(_, c)) = variants.iter().find(|v| v.0 == tag) else { continue };
                Val::Union(tag, Box::new(decode(b, deref(b, at)?, c, depth + 1)?))
            }
        };
        fields.push((fi, val));
    }
    Some(Tab { desc, fields })
}

fn vec_scalar(fbb: &mut FlatBufferBuilder<'_>, size: usize, bytes: &[u8]) -> WIPOffset<UnionWIPOffset> {
    match size {
        1 => fbb.create_vector(bytes).as_union_value(),
        2 => fbb.create_vector(&bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect::<Vec<_>>()).as_union_value(),
        4 => fbb.create_vector(&bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>()).as_union_value(),
        _ => fbb
            .create_vector(&bytes.chunks_exact(8).map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])).collect::<Vec<_>>())
            .as_union_value(),
    }
}

fn encode(fbb: &mut FlatBufferBuilder<'_>, t: &Tab) -> WIPOffset<TableFinishedWIPOffset> {
    let d = &TABLES[t.desc];
    let mut offsets: Vec<(u16, WIPOffset<UnionWIPOffset>)> = Vec::new();
    let mut scalars: Vec<(u16, usize, u64)> = Vec::new();
    for (fi, v) in &t.fields {
        let f = &d.fields[*fi];
        let o = match (v, f.kind) {
            (Val::Scalar(x), Kind::Scalar(sc)) => {
                scalars.push((f.vt, sc.size(), *x));
                continue;
            }
            (Val::Str(s), _) => fbb.create_string(s).as_union_value(),
            (Val::VecScalar(bytes), Kind::VecScalar(sc)) => vec_scalar(fbb, sc.size(), bytes),
            (Val::VecStr(ss), _) => {
                let o: Vec<_> = ss.iter().map(|s| fbb.create_string(s)).collect();
                fbb.create_vector(&o).as_union_value()
            }
            (Val::VecTable(ts), _) => {
                let o: Vec<_> = ts.iter().map(|c| encode(fbb, c)).collect();
                fbb.create_vector(&o).as_union_value()
            }
            (Val::Table(c), _) => encode(fbb, c).as_union_value(),
            (Val::Union(tag, c), Kind::Union { tag_vt, .. }) => {
                scalars.push((tag_vt, 1, *tag as u64));
                encode(fbb, c).as_union_value()
            }
            _ => continue,
        };
        offsets.push((f.vt, o));
    }
    let start = fbb.start_table();
    for (vt, o) in offsets {
        fbb.push_slot_always(vt, o);
    }
    scalars.sort_by_key(|s| std::cmp::Reverse(s.1));
    for (vt, size, x) in scalars {
        match size {
            1 => fbb.push_slot_always(vt, x as u8),
            2 => fbb.push_slot_always(vt, x as u16),
            4 => fbb.push_slot_always(vt, x as u32),
            _ => fbb.push_slot_always(vt, x),
        }
    }
    let end = fbb.end_table(start);
    WIPOffset::new(end.value())
}

impl Tab {
    fn new(desc: usize) -> Tab {
        Tab { desc, fields: Vec::new() }
    }
    fn field_index(&self, name: &str) -> Option<usize> {
        TABLES[self.desc].fields.iter().position(|f| f.name == name)
    }
    fn get(&self, name: &str) -> Option<&Val> {
        let fi = self.field_index(name)?;
        self.fields.iter().find(|f| f.0 == fi).map(|f| &f.1)
    }
    fn get_mut(&mut self, name: &str) -> Option<&mut Val> {
        let fi = self.field_index(name)?;
        self.fields.iter_mut().find(|f| f.0 == fi).map(|f| &mut f.1)
    }
    /// Sets a field, adding it if absent (no-op for a name the table does not have).
    fn set(&mut self, name: &str, v: Val) {
        let Some(fi) = self.field_index(name) else { return };
        match self.fields.iter_mut().find(|f| f.0 == fi) {
            Some(f) => f.1 = v,
            None => self.fields.push((fi, v)),
        }
    }
    fn tables(&self, name: &str) -> &[Tab] {
        match self.get(name) {
            Some(Val::VecTable(ts)) => ts,
            _ => &[],
        }
    }
    fn tables_mut(&mut self, name: &str) -> Option<&mut Vec<Tab>> {
        match self.get_mut(name) {
            Some(Val::VecTable(ts)) => Some(ts),
            _ => None,
        }
    }
    fn child_mut(&mut self, name: &str) -> Option<&mut Tab> {
        match self.get_mut(name) {
            Some(Val::Table(t)) | Some(Val::Union(_, t)) => Some(t),
            _ => None,
        }
    }
    fn ints(&self, name: &str) -> Vec<i32> {
        match self.get(name) {
            Some(Val::VecScalar(b)) => b.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
            _ => Vec::new(),
        }
    }
    fn set_ints(&mut self, name: &str, v: &[i32]) {
        self.set(name, Val::VecScalar(v.iter().flat_map(|x| x.to_le_bytes()).collect()));
    }
    fn floats(&self, name: &str) -> Vec<f32> {
        self.ints(name).into_iter().map(|x| f32::from_bits(x as u32)).collect()
    }
    fn set_floats(&mut self, name: &str, v: &[f32]) {
        self.set(name, Val::VecScalar(v.iter().flat_map(|x| x.to_le_bytes()).collect()));
    }
    fn longs(&self, name: &str) -> Vec<i64> {
        match self.get(name) {
            Some(Val::VecScalar(b)) => b.chunks_exact(8).map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])).collect(),
            _ => Vec::new(),
        }
    }
    fn set_longs(&mut self, name: &str, v: &[i64]) {
        self.set(name, Val::VecScalar(v.iter().flat_map(|x| x.to_le_bytes()).collect()));
    }
}

/// Decodes a verified model into the tree; `None` if it does not verify.
fn decode_model(bytes: &[u8]) -> Option<Tab> {
    super::fb::root_as_model(bytes).ok()?;
    decode(bytes, rd(bytes, 0, 4)? as usize, MODEL, 0)
}

fn encode_model(m: &Tab) -> Vec<u8> {
    let mut fbb = FlatBufferBuilder::with_capacity(1024);
    let root = encode(&mut fbb, m);
    fbb.finish(root, Some("TFL3"));
    fbb.finished_data().to_vec()
}

/// The seed decoded and written back unchanged (a check that the round trip keeps a model
/// readable); `None` if the seed does not verify.
pub fn round_trip(seed: &[u8]) -> Option<Vec<u8>> {
    decode_model(seed).map(|m| encode_model(&m))
}

/// Extreme i32 values (dims, indices, subgraph references, option fields).
const I32S: [i32; 14] = [0, 1, -1, 2, 3, -2, 7, 8, 255, 65_536, 1 << 20, 0x4000_0000, i32::MAX, i32::MIN];
/// Extreme floats (scales, option fields).
const F32S: [f32; 10] = [f32::NAN, 0.0, -0.0, -1.0, f32::INFINITY, f32::NEG_INFINITY, 1e-30, 1e30, f32::MIN_POSITIVE, 1.0];
/// Extreme i64 values (zero points, option fields).
const I64S: [i64; 10] = [0, 1, -1, 127, 128, -128, -129, 255, 65_536, i64::MIN];

fn pick_i32(u: &mut Unstructured<'_>, n: usize) -> Result<i32> {
    // Mostly extremes; sometimes an index around `n` (the length of what it indexes).
    Ok(match u.int_in_range(0..=3u8)? {
        0 => n as i32,
        1 => u.int_in_range(0..=(n as i32).max(1))?,
        _ => *u.choose(&I32S)?,
    })
}

fn extreme_scalar(u: &mut Unstructured<'_>, sc: Sc, n: usize) -> Result<u64> {
    Ok(match sc {
        Sc::SB1 => u.int_in_range(0..=2u8)? as u64,
        Sc::SS1 | Sc::SU1 => *u.choose(&[0u8, 1, 2, 3, 4, 5, 6, 0x7f, 0x80, 0xff])? as u64,
        Sc::SS2 | Sc::SU2 => *u.choose(&[0u16, 1, 0x7fff, 0x8000, 0xffff])? as u64,
        Sc::SS4 | Sc::SU4 => pick_i32(u, n)? as u32 as u64,
        Sc::SF4 => u.choose(&F32S)?.to_bits() as u64,
        Sc::SS8 | Sc::SU8 => *u.choose(&I64S)? as u64,
        Sc::SF8 => (*u.choose(&F32S)? as f64).to_bits(),
    })
}

/// Changes one random scalar or scalar-vector field of `t` (present or not) to an extreme.
fn mutate_any_field(t: &mut Tab, u: &mut Unstructured<'_>, n: usize) -> Result<()> {
    let d = TABLES[t.desc];
    let candidates: Vec<&Field> = d.fields.iter().filter(|f| matches!(f.kind, Kind::Scalar(_) | Kind::VecScalar(_))).collect();
    if candidates.is_empty() {
        return Ok(());
    }
    let f = *u.choose(&candidates)?;
    match f.kind {
        Kind::Scalar(sc) => {
            let x = extreme_scalar(u, sc, n)?;
            t.set(f.name, Val::Scalar(x));
        }
        Kind::VecScalar(sc) => {
            let mut bytes = match t.get(f.name) {
                Some(Val::VecScalar(b)) => b.clone(),
                _ => Vec::new(),
            };
            let size = sc.size();
            match u.int_in_range(0..=3u8)? {
                0 => bytes.clear(),
                1 => {
                    let x = extreme_scalar(u, sc, n)?;
                    bytes.extend_from_slice(&x.to_le_bytes()[..size]);
                }
                2 if bytes.len() >= size => bytes.truncate(bytes.len() - size),
                _ if bytes.len() >= size => {
                    let i = u.choose_index(bytes.len() / size)?;
                    let x = extreme_scalar(u, sc, n)?;
                    bytes[i * size..(i + 1) * size].copy_from_slice(&x.to_le_bytes()[..size]);
                }
                _ => {}
            }
            t.set(f.name, Val::VecScalar(bytes));
        }
        _ => {}
    }
    Ok(())
}

/// Edits a vector of i32 (shapes, indices, traversal orders): an element to an extreme or
/// an index near `n`, or the length changed.
fn edit_ints(v: &mut Vec<i32>, u: &mut Unstructured<'_>, n: usize) -> Result<()> {
    match u.int_in_range(0..=7u8)? {
        0 if !v.is_empty() => {
            v.remove(u.choose_index(v.len())?);
        }
        1 => {
            let at = u.int_in_range(0..=v.len())?;
            let x = pick_i32(u, n)?;
            v.insert(at, x);
        }
        2 => v.clear(),
        3 if !v.is_empty() => {
            // Duplicate an element (aliasing, repeated axes).
            let x = v[u.choose_index(v.len())?];
            let at = u.choose_index(v.len())?;
            v[at] = x;
        }
        4 => {
            // A rank (or arity) change to many elements.
            let k = u.int_in_range(5..=9usize)?;
            v.resize(k, 1);
        }
        _ if !v.is_empty() => {
            let at = u.choose_index(v.len())?;
            v[at] = pick_i32(u, n)?;
        }
        _ => v.push(pick_i32(u, n)?),
    }
    Ok(())
}

/// Which part of the model a structure-aware edit changed (for reports).
pub const EDIT_KINDS: [&str; 12] = [
    "shape",
    "element type",
    "quantization",
    "builtin options",
    "operator tensors",
    "opcode",
    "subgraph reference",
    "sparsity",
    "custom options",
    "buffer data",
    "subgraph inputs/outputs",
    "tensor buffer index",
];

/// One to `max_edits` structure-aware edits of `seed`, written back as a valid flatbuffer.
/// `Ok(None)` if the seed does not verify (the caller falls back to byte mutation).
/// Deterministic given `u`'s bytes.
pub fn mutate_fields(seed: &[u8], max_edits: usize, u: &mut Unstructured<'_>) -> Result<Option<Vec<u8>>> {
    let Some(mut m) = decode_model(seed) else { return Ok(None) };
    // Large constant data is dropped from the tree's copy only when it is edited; buffers
    // stored past the flatbuffer (offset/size) are not kept by the rewrite.
    for _ in 0..u.int_in_range(1..=max_edits.max(1))? {
        let kind = u.choose_index(EDIT_KINDS.len())?;
        edit(&mut m, kind, u)?;
    }
    Ok(Some(encode_model(&m)))
}

fn edit(m: &mut Tab, kind: usize, u: &mut Unstructured<'_>) -> Result<()> {
    let n_codes = m.tables("operator_codes").len();
    let n_buffers = m.tables("buffers").len();
    let n_subgraphs = m.tables("subgraphs").len();
    if n_subgraphs == 0 {
        return Ok(());
    }
    // Subgraph 0 most of the time: that is what is planned and compiled.
    let si = if u.ratio(3, 4)? { 0 } else { u.choose_index(n_subgraphs)? };
    let Some(sgs) = m.tables_mut("subgraphs") else { return Ok(()) };
    let Some(sg) = sgs.get_mut(si) else { return Ok(()) };
    let n_tensors = sg.tables("tensors").len();
    match kind {
        // Tensor shapes and shape signatures.
        0 => {
            let Some(t) = pick(sg, "tensors", u)? else { return Ok(()) };
            let field = if u.ratio(1, 5)? { "shape_signature" } else { "shape" };
            let mut v = t.ints(field);
            edit_ints(&mut v, u, 4)?;
            t.set_ints(field, &v);
        }
        // Element types.
        1 => {
            let Some(t) = pick(sg, "tensors", u)? else { return Ok(()) };
            let ty = if u.ratio(7, 8)? { u.int_in_range(0..=20u8)? } else { *u.choose(&[0x7fu8, 0x80, 0xff, 50])? };
            t.set("type_", Val::Scalar(ty as u64));
        }
        // Quantization.
        2 => {
            let Some(t) = pick(sg, "tensors", u)? else { return Ok(()) };
            let rank = t.ints("shape").len();
            if t.child_mut("quantization").is_none() {
                t.set("quantization", Val::Table(Box::new(Tab::new(field_table(t.desc, "quantization")))));
            }
            let Some(q) = t.child_mut("quantization") else { return Ok(()) };
            match u.int_in_range(0..=6u8)? {
                0 => {
                    let mut s = q.floats("scale");
                    if s.is_empty() {
                        s.push(1.0);
                    }
                    let i = u.choose_index(s.len())?;
                    s[i] = *u.choose(&F32S)?;
                    q.set_floats("scale", &s);
                }
                1 => {
                    let mut z = q.longs("zero_point");
                    if z.is_empty() {
                        z.push(0);
                    }
                    let i = u.choose_index(z.len())?;
                    z[i] = *u.choose(&I64S)?;
                    q.set_longs("zero_point", &z);
                }
                2 => {
                    // Per-channel lengths wrong (scale and zero point apart).
                    let (mut s, mut z) = (q.floats("scale"), q.longs("zero_point"));
                    let k = *u.choose(&[0usize, 1, 2, 3, 7, 64])?;
                    if u.ratio(1, 2)? {
                        s.resize(k, 0.5);
                    } else {
                        z.resize(k, 0);
                    }
                    q.set_floats("scale", &s);
                    q.set_longs("zero_point", &z);
                }
                3 => {
                    let d = *u.choose(&[-1i32, rank as i32, rank as i32 + 1, 100, i32::MAX, i32::MIN, 0, 3])?;
                    q.set("quantized_dimension", Val::Scalar(d as u32 as u64));
                }
                4 => {
                    let f = if u.ratio(1, 2)? { "min" } else { "max" };
                    q.set_floats(f, &[*u.choose(&F32S)?]);
                }
                5 => q.fields.clear(),
                _ => mutate_any_field(q, u, rank)?,
            }
        }
        // Builtin options (and builtin_options_2): one field to an extreme, or the
        // options of another type.
        3 => {
            let Some(op) = pick(sg, "operators", u)? else { return Ok(()) };
            let name = if u.ratio(1, 8)? { "builtin_options_2" } else { "builtin_options" };
            if u.ratio(1, 10)? {
                // A different options table than the opcode expects (or none).
                let fi = op.field_index(name);
                if let Some(Kind::Union { variants, .. }) = fi.map(|i| TABLES[op.desc].fields[i].kind) {
                    if u.ratio(1, 3)? {
                        op.fields.retain(|f| Some(f.0) != fi);
                    } else {
                        let &(tag, c) = u.choose(variants)?;
                        op.set(name, Val::Union(tag, Box::new(Tab::new(c))));
                    }
                }
                return Ok(());
            }
            if let Some(o) = op.child_mut(name) {
                mutate_any_field(o, u, n_tensors)?;
            }
        }
        // Operator input and output tensor indices.
        4 => {
            let Some(op) = pick(sg, "operators", u)? else { return Ok(()) };
            let field = *u.choose(&["inputs", "outputs", "intermediates"])?;
            let mut v = op.ints(field);
            if u.ratio(1, 3)? && !v.is_empty() {
                // Aliasing: an input and an output the same tensor.
                let other = if field == "inputs" { op.ints("outputs") } else { op.ints("inputs") };
                if let Some(&x) = other.first() {
                    let i = u.choose_index(v.len())?;
                    v[i] = x;
                }
            } else {
                edit_ints(&mut v, u, n_tensors)?;
            }
            op.set_ints(field, &v);
        }
        // Opcode indices, builtin codes and versions.
        5 => {
            if u.ratio(1, 2)? {
                let Some(op) = pick(sg, "operators", u)? else { return Ok(()) };
                let x = pick_i32(u, n_codes)?;
                op.set("opcode_index", Val::Scalar(x as u32 as u64));
            } else {
                let Some(codes) = m.tables_mut("operator_codes") else { return Ok(()) };
                if codes.is_empty() {
                    return Ok(());
                }
                let i = u.choose_index(codes.len())?;
                let c = &mut codes[i];
                match u.int_in_range(0..=3u8)? {
                    0 => {
                        let v = *u.choose(&[0i32, -1, 1, 2, 3, 7, 100, i32::MAX])?;
                        c.set("version", Val::Scalar(v as u32 as u64));
                    }
                    1 => {
                        let b = if u.ratio(3, 4)? { u.int_in_range(0..=210i32)? } else { *u.choose(&[-1, 127, 128, 1000, i32::MAX])? };
                        c.set("builtin_code", Val::Scalar(b as u32 as u64));
                        c.set("deprecated_builtin_code", Val::Scalar(b.clamp(0, 127) as u64));
                    }
                    2 => {
                        let b = u.int_in_range(0..=127u8)?;
                        c.set("deprecated_builtin_code", Val::Scalar(b as u64));
                    }
                    _ => {
                        let s = *u.choose(&["", "TFLite_Detection_PostProcess", "Convolution2DTransposeBias", "MaxPoolingWithArgmax2D", "MaxUnpooling2D", "Landmarks2TransformMatrix", "TransformLandmarks", "TransformTensorBilinear", "Densify", "no_such_op"])?;
                        c.set("custom_code", Val::Str(s.into()));
                        c.set("builtin_code", Val::Scalar(32)); // CUSTOM
                        c.set("deprecated_builtin_code", Val::Scalar(32));
                    }
                }
            }
        }
        // Subgraph references (IF, WHILE, CALL_ONCE, StableHLO): the first op with such a
        // field, or a random op given IF / WHILE / CALL_ONCE options.
        6 => {
            let ops = sg.tables_mut("operators");
            let Some(ops) = ops else { return Ok(()) };
            let refs: Vec<usize> = ops
                .iter()
                .enumerate()
                .filter(|(_, o)| matches!(o.get("builtin_options"), Some(Val::Union(_, t)) if TABLES[t.desc].fields.iter().any(|f| f.name.ends_with("subgraph_index"))))
                .map(|(i, _)| i)
                .collect();
            let oi = if !refs.is_empty() && u.ratio(3, 4)? {
                *u.choose(&refs)?
            } else if !ops.is_empty() {
                u.choose_index(ops.len())?
            } else {
                return Ok(());
            };
            let Some(op) = ops.get_mut(oi) else { return Ok(()) };
            if op.child_mut("builtin_options").is_none_or(|o| !TABLES[o.desc].fields.iter().any(|f| f.name.ends_with("subgraph_index"))) {
                let table = *u.choose(&["IfOptions", "WhileOptions", "CallOnceOptions"])?;
                let fi = op.field_index("builtin_options");
                if let Some(Kind::Union { variants, .. }) = fi.map(|i| TABLES[op.desc].fields[i].kind) {
                    if let Some(&(tag, c)) = variants.iter().find(|v| TABLES[v.1].name == table) {
                        op.set("builtin_options", Val::Union(tag, Box::new(Tab::new(c))));
                    }
                }
            }
            let Some(o) = op.child_mut("builtin_options") else { return Ok(()) };
            let names: Vec<&'static str> = TABLES[o.desc].fields.iter().filter(|f| f.name.ends_with("subgraph_index")).map(|f| f.name).collect();
            if names.is_empty() {
                return Ok(());
            }
            let f = *u.choose(&names)?;
            let x = *u.choose(&[-1i32, 0, si as i32, n_subgraphs as i32, n_subgraphs as i32 - 1, 1, i32::MAX, i32::MIN])?;
            o.set(f, Val::Scalar(x as u32 as u64));
        }
        // Sparsity metadata.
        7 => {
            // A sparse tensor if there is one, else a tensor given sparsity.
            let sparse: Vec<usize> =
                sg.tables("tensors").iter().enumerate().filter(|(_, t)| t.get("sparsity").is_some()).map(|(i, _)| i).collect();
            let Some(ts) = sg.tables_mut("tensors") else { return Ok(()) };
            if ts.is_empty() {
                return Ok(());
            }
            let ti = if !sparse.is_empty() && u.ratio(7, 8)? { *u.choose(&sparse)? } else { u.choose_index(ts.len())? };
            let t = &mut ts[ti];
            let rank = t.ints("shape").len();
            if t.child_mut("sparsity").is_none() {
                let mut s = Tab::new(field_table(t.desc, "sparsity"));
                let order: Vec<i32> = (0..rank as i32).collect();
                s.set_ints("traversal_order", &order);
                let dm = field_table(s.desc, "dim_metadata");
                let dims: Vec<Tab> = t
                    .ints("shape")
                    .iter()
                    .map(|&d| {
                        let mut x = Tab::new(dm);
                        x.set("dense_size", Val::Scalar(d as u32 as u64));
                        x
                    })
                    .collect();
                s.set("dim_metadata", Val::VecTable(dims));
                t.set("sparsity", Val::Table(Box::new(s)));
            }
            let Some(s) = t.child_mut("sparsity") else { return Ok(()) };
            match u.int_in_range(0..=4u8)? {
                0 | 1 => {
                    let f = if u.ratio(1, 2)? { "traversal_order" } else { "block_map" };
                    let mut v = s.ints(f);
                    edit_ints(&mut v, u, rank)?;
                    s.set_ints(f, &v);
                }
                2 => {
                    let Some(dims) = s.tables_mut("dim_metadata") else { return Ok(()) };
                    if u.ratio(1, 3)? && !dims.is_empty() {
                        if u.ratio(1, 2)? {
                            dims.pop();
                        } else {
                            let d = dims[0].clone();
                            dims.push(d);
                        }
                    } else if !dims.is_empty() {
                        let i = u.choose_index(dims.len())?;
                        mutate_any_field(&mut dims[i], u, rank)?;
                    }
                }
                _ => {
                    // Index vectors: segments / indices, their element type and values.
                    let Some(dims) = s.tables_mut("dim_metadata") else { return Ok(()) };
                    if dims.is_empty() {
                        return Ok(());
                    }
                    let i = u.choose_index(dims.len())?;
                    let d = &mut dims[i];
                    let f = if u.ratio(1, 2)? { "array_segments" } else { "array_indices" };
                    d.set("format", Val::Scalar(u.int_in_range(0..=2u8)? as u64));
                    let fi = d.field_index(f);
                    let Some(Kind::Union { variants, .. }) = fi.map(|i| TABLES[d.desc].fields[i].kind) else { return Ok(()) };
                    if d.child_mut(f).is_none() || u.ratio(1, 4)? {
                        let &(tag, c) = u.choose(variants)?;
                        let mut vt = Tab::new(c);
                        vt.set("values", Val::VecScalar(Vec::new()));
                        d.set(f, Val::Union(tag, Box::new(vt)));
                    }
                    if let Some(v) = d.child_mut(f) {
                        mutate_any_field(v, u, 8)?;
                    }
                }
            }
        }
        // Custom options bytes.
        8 => {
            let customs: Vec<usize> =
                sg.tables("operators").iter().enumerate().filter(|(_, o)| o.get("custom_options").is_some()).map(|(i, _)| i).collect();
            let Some(ops) = sg.tables_mut("operators") else { return Ok(()) };
            if ops.is_empty() {
                return Ok(());
            }
            let oi = if !customs.is_empty() && u.ratio(7, 8)? { *u.choose(&customs)? } else { u.choose_index(ops.len())? };
            let op = &mut ops[oi];
            if u.ratio(1, 10)? {
                op.set("custom_options_format", Val::Scalar(*u.choose(&[1u64, 0x7f, 0xff])?));
                return Ok(());
            }
            let mut b = match op.get("custom_options") {
                Some(Val::VecScalar(b)) => b.clone(),
                _ => Vec::new(),
            };
            edit_bytes(&mut b, u)?;
            op.set("custom_options", Val::VecScalar(b));
        }
        // Buffer data lengths and contents.
        9 => {
            let Some(bufs) = m.tables_mut("buffers") else { return Ok(()) };
            let with_data: Vec<usize> = bufs.iter().enumerate().filter(|(_, b)| b.get("data").is_some()).map(|(i, _)| i).collect();
            if with_data.is_empty() {
                return Ok(());
            }
            let b = &mut bufs[*u.choose(&with_data)?];
            let mut data = match b.get("data") {
                Some(Val::VecScalar(d)) => d.clone(),
                _ => Vec::new(),
            };
            edit_bytes(&mut data, u)?;
            b.set("data", Val::VecScalar(data));
        }
        // Subgraph inputs and outputs.
        10 => {
            let f = if u.ratio(1, 2)? { "inputs" } else { "outputs" };
            let mut v = sg.ints(f);
            edit_ints(&mut v, u, n_tensors)?;
            sg.set_ints(f, &v);
        }
        // Tensor buffer indices (constant or not, out of range, shared).
        _ => {
            let Some(t) = pick(sg, "tensors", u)? else { return Ok(()) };
            let b = match u.int_in_range(0..=3u8)? {
                0 => 0,
                1 => n_buffers as u64,
                2 => u.int_in_range(0..=n_buffers.max(1) as u64 - 1)?,
                _ => *u.choose(&[u32::MAX as u64, 0x8000_0000, 65_536])?,
            };
            t.set("buffer", Val::Scalar(b));
        }
    }
    Ok(())
}

/// A random table of the vector field `field` of `t`.
fn pick<'t>(t: &'t mut Tab, field: &str, u: &mut Unstructured<'_>) -> Result<Option<&'t mut Tab>> {
    let Some(ts) = t.tables_mut(field) else { return Ok(None) };
    if ts.is_empty() {
        return Ok(None);
    }
    let i = u.choose_index(ts.len())?;
    Ok(ts.get_mut(i))
}

/// The table that field `name` of `TABLES[desc]` holds.
fn field_table(desc: usize, name: &str) -> usize {
    TABLES[desc]
        .fields
        .iter()
        .find(|f| f.name == name)
        .and_then(|f| match f.kind {
            Kind::Table(c) | Kind::VecTable(c) => Some(c),
            _ => None,
        })
        .unwrap_or(desc)
}

/// Byte-vector edits: truncated, emptied, extended, bytes set to extremes.
fn edit_bytes(b: &mut Vec<u8>, u: &mut Unstructured<'_>) -> Result<()> {
    match u.int_in_range(0..=5u8)? {
        0 => b.clear(),
        1 if !b.is_empty() => {
            let k = u.choose_index(b.len())?;
            b.truncate(k);
        }
        2 => {
            let k = *u.choose(&[1usize, 3, 4, 16, 255])?;
            b.extend(std::iter::repeat_n(*u.choose(&[0u8, 0xff, 0x7f])?, k));
        }
        3 if b.len() > 1 => b.truncate(b.len() / 2),
        _ if !b.is_empty() => {
            for _ in 0..u.int_in_range(1..=4u8)? {
                let i = u.choose_index(b.len())?;
                b[i] = *u.choose(&[0u8, 1, 0x7f, 0x80, 0xff])?;
            }
        }
        _ => b.push(u.arbitrary()?),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_models_round_trip_through_the_tree() {
        let opts = crate::CompileOptions::default();
        for (name, bytes) in crate::testing::models::fuzz_seeds() {
            let again = round_trip(&bytes).unwrap_or_else(|| panic!("{name}: does not decode"));
            let (a, b) = (crate::compile(&bytes, &opts), crate::compile(&again, &opts));
            match (a, b) {
                // The header names the file's hash; the rest is the same.
                (Ok(a), Ok(b)) => assert_eq!(a.code.lines().skip(1).collect::<Vec<_>>(), b.code.lines().skip(1).collect::<Vec<_>>(), "{name}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}"),
                (a, b) => panic!("{name}: {:?} vs {:?}", a.map(|_| ()), b.map(|_| ())),
            }
        }
    }

    #[test]
    fn mutants_are_deterministic_and_verify() {
        let seed = crate::testing::models::sparse_weights();
        for case in 0..50u8 {
            let noise: Vec<u8> = (0..128u8).map(|i| i.wrapping_mul(31).wrapping_add(case.wrapping_mul(7))).collect();
            let a = mutate_fields(&seed, 3, &mut Unstructured::new(&noise)).ok().flatten();
            let b = mutate_fields(&seed, 3, &mut Unstructured::new(&noise)).ok().flatten();
            assert_eq!(a, b);
            let a = a.unwrap_or_default();
            assert!(super::super::fb::root_as_model(&a).is_ok(), "case {case}: the mutant does not verify");
        }
    }
}
