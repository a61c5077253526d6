//! The stream model: host and device clocks, modelled op costs, deferred (sticky) errors.
