//! VAR_HANDLE: see [`super::resource_variable`].

pub(crate) use super::resource_variable::lower_var_handle as lower;
