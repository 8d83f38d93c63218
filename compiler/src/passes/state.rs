//! State tensors: the state TFLite Micro keeps in an operator's persistent buffer becomes
//! variable tensors, which live in the arena across `run()` calls and start at their reset
//! value. Run right after reading ([`super::read_model`]), before anything else looks at the
//! graph; the sizes come from each operator's lowering (`lower::ops::signal`,
//! `lower::ops::circular_buffer`), which is why this is a pass and not the reader's.
//!
//! The file's tensor and operator indices stay as they are: new state tensors are appended
//! after the file's tensors.

use crate::ir::Model;
use crate::lower::ops::{circular_buffer, signal};

/// Adds every subgraph's state tensors to `model`.
pub fn apply(model: &mut Model<'_>) {
    for sg in model.subgraphs.iter_mut() {
        // State TFLite Micro copies to one of the op's outputs after every call: that output
        // becomes a variable tensor (`signal::state_output`).
        let outputs: Vec<_> = sg.ops.iter().filter_map(signal::state_output).collect();
        for t in outputs {
            if let Some(t) = sg.tensors.get_mut(t) {
                t.is_variable = true;
            }
        }
        // State no output shows: state tensors of the op's own, appended to the subgraph and
        // to the op's outputs.
        signal::add_state_tensors(sg);
        // CIRCULAR_BUFFER's buffer (its output) and countdown.
        circular_buffer::add_state(sg);
    }
}
