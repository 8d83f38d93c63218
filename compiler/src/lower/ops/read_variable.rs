//! READ_VARIABLE: see [`super::resource_variable`].

pub(crate) use super::resource_variable::lower_read as lower;
