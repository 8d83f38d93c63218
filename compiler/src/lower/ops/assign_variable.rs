//! ASSIGN_VARIABLE: see [`super::resource_variable`].

pub(crate) use super::resource_variable::lower_assign as lower;
