//! LOGICAL_AND, LOGICAL_OR (broadcasting) and LOGICAL_NOT on bool tensors, one byte per
//! element. Mirrors TFLite Micro `logical.cc` / `logical_common.cc` (`LogicalImpl`:
//! `reference_ops::BinaryFunction` on equal shapes, `BroadcastBinaryFunction4DSlow`
//! otherwise, with `x && y` / `x || y`) and `elementwise.cc` (`LogicalNot`: `!x`).
//!
//! A byte other than 0 reads as true (C++ `bool` holds only 0 or 1; every output here is
//! 0 or 1).

use crate::kernels::nd::{broadcast_binary, Broadcast};

/// AND or OR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicalOp {
    /// LOGICAL_AND.
    And,
    /// LOGICAL_OR.
    Or,
}

/// Parameters of LOGICAL_AND / LOGICAL_OR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalParams<'a> {
    /// Which operation.
    pub op: LogicalOp,
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// `input1 && input2` or `input1 || input2` elementwise with broadcasting.
#[inline]
pub fn logical(params: &LogicalParams, input1: &[u8], input2: &[u8], output: &mut [u8]) {
    scalar::logical(params, input1, input2, output)
}

/// `!input` elementwise.
#[inline]
pub fn logical_not(input: &[u8], output: &mut [u8]) {
    scalar::logical_not(input, output)
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    /// LOGICAL_AND / LOGICAL_OR with broadcasting over bools stored as bytes (0 false, anything else true); writes 0 or 1.
    pub fn logical(p: &LogicalParams, input1: &[u8], input2: &[u8], output: &mut [u8]) {
        match p.op {
            LogicalOp::And => broadcast_binary(&p.broadcast, input1, input2, output, |a, b| {
                u8::from(a != 0 && b != 0)
            }),
            LogicalOp::Or => broadcast_binary(&p.broadcast, input1, input2, output, |a, b| {
                u8::from(a != 0 || b != 0)
            }),
        }
    }

    /// LOGICAL_NOT: writes 1 where the input byte is 0, else 0.
    pub fn logical_not(input: &[u8], output: &mut [u8]) {
        debug_assert_eq!(input.len(), output.len());
        for (o, &x) in output.iter_mut().zip(input) {
            *o = u8::from(x == 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;

    /// The truth tables, with broadcasting of a [2, 1] against a [2] operand.
    #[test]
    fn truth_tables() {
        let plan = plan_broadcast(&[2, 1], &[2]).unwrap();
        let (a, b) = ([0u8, 1], [0u8, 1]);
        let mut out = [9u8; 4];
        logical(
            &LogicalParams {
                op: LogicalOp::And,
                broadcast: plan.as_broadcast(),
            },
            &a,
            &b,
            &mut out,
        );
        assert_eq!(out, [0, 0, 0, 1]);
        logical(
            &LogicalParams {
                op: LogicalOp::Or,
                broadcast: plan.as_broadcast(),
            },
            &a,
            &b,
            &mut out,
        );
        assert_eq!(out, [0, 1, 1, 1]);
        let mut out = [9u8; 3];
        logical_not(&[0, 1, 0], &mut out);
        assert_eq!(out, [1, 0, 1]);
    }
}
