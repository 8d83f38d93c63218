//! Typed indices (`TensorId`, `OpId`, …) and `IndexVec`, a `Vec` indexed by one of them.
//!
//! Raw `usize` indices never cross a module boundary: a `TensorId` cannot be used to index
//! the operator list by mistake.

use std::marker::PhantomData;

/// Defines a `Copy` newtype index over `u32` with `new`, `index` and `Display` (`t7`, `op3`).
#[macro_export]
macro_rules! define_index {
    ($(#[$m:meta])* $vis:vis struct $name:ident = $prefix:literal;) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        $vis struct $name(u32);

        impl $name {
            /// Makes an index from a position. Positions come from `Vec` lengths, so they fit.
            #[inline]
            pub fn new(i: usize) -> Self {
                debug_assert!(i <= u32::MAX as usize);
                Self(i as u32)
            }
            /// The position this index stands for.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $crate::index::Idx for $name {
            fn new(i: usize) -> Self {
                $name::new(i)
            }
            fn index(self) -> usize {
                $name::index(self)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_u32(self.0)
            }
        }
    };
}

/// An index type usable with [`IndexVec`].
pub trait Idx: Copy + Eq + Ord + std::fmt::Debug {
    /// Makes an index from a position.
    fn new(i: usize) -> Self;
    /// The position this index stands for.
    fn index(self) -> usize;
}

/// A `Vec<T>` that is indexed by `I` only.
#[derive(Clone, PartialEq, Eq)]
pub struct IndexVec<I: Idx, T> {
    raw: Vec<T>,
    _marker: PhantomData<fn(&I)>,
}

impl<I: Idx, T> IndexVec<I, T> {
    /// An empty vector.
    pub fn new() -> Self {
        Self { raw: Vec::new(), _marker: PhantomData }
    }
    /// An empty vector with room for `n` elements.
    pub fn with_capacity(n: usize) -> Self {
        Self { raw: Vec::with_capacity(n), _marker: PhantomData }
    }
    /// Takes `raw` as is: element `i` gets index `I::new(i)`.
    pub fn from_vec(raw: Vec<T>) -> Self {
        Self { raw, _marker: PhantomData }
    }
    /// Appends `value` and returns its index.
    pub fn push(&mut self, value: T) -> I {
        let id = I::new(self.raw.len());
        self.raw.push(value);
        id
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    /// The element at `i`, if in range.
    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.index())
    }
    /// The element at `i`, mutably, if in range.
    pub fn get_mut(&mut self, i: I) -> Option<&mut T> {
        self.raw.get_mut(i.index())
    }
    /// The elements in index order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    /// The elements in index order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    /// `(index, value)` pairs in order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    /// All indices in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator {
        (0..self.raw.len()).map(I::new)
    }
    /// The elements as a plain slice (position `i` is index `I::new(i)`).
    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }
    /// The elements as a plain `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T: std::fmt::Debug> std::fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.raw.fmt(f)
    }
}

impl<I: Idx, T> std::ops::Index<I> for IndexVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.raw[i.index()]
    }
}

impl<I: Idx, T> std::ops::IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.index()]
    }
}

impl<I: Idx, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Self::from_vec(iter.into_iter().collect())
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    define_index!(struct TestId = "x";);

    #[test]
    fn push_and_index() {
        let mut v: IndexVec<TestId, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!(v[a], "a");
        assert_eq!(v[b], "b");
        assert_eq!(b.to_string(), "x1");
        assert_eq!(v.iter_enumerated().map(|(i, _)| i.index()).collect::<Vec<_>>(), vec![0, 1]);
    }
}
