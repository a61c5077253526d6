//! What numpy's and torch's `set_printoptions` share: the four counts both begin with, read the
//! same way (absent or None leaves the option as it is).

use crate::script::{Interpreter, PyResult, Value};

/// The parameters both `set_printoptions` begin with, in their order.
pub(crate) const COUNT_PARAMS: [&str; 4] = ["precision", "threshold", "edgeitems", "linewidth"];

/// `set_printoptions`' first four arguments: `None` where one is absent or None, else the count
/// the library reads from it.
pub(crate) struct PrintCounts {
    pub precision: Option<usize>,
    pub threshold: Option<usize>,
    pub edgeitems: Option<usize>,
    pub linewidth: Option<usize>,
}

/// Reads the arguments bound to [`COUNT_PARAMS`] (the first four of `given`), in order, each
/// with `count` (numpy and torch differ in what they take: torch reads `float('inf')` as
/// "print everything").
pub(crate) fn print_counts(
    it: &mut Interpreter,
    given: &[Option<Value>],
    mut count: impl FnMut(&mut Interpreter, &Value) -> PyResult<usize>,
) -> PyResult<PrintCounts> {
    let mut read = |i: usize| match given.get(i) {
        None | Some(None) | Some(Some(Value::None)) => Ok(None),
        Some(Some(v)) => count(it, v).map(Some),
    };
    Ok(PrintCounts {
        precision: read(0)?,
        threshold: read(1)?,
        edgeitems: read(2)?,
        linewidth: read(3)?,
    })
}
