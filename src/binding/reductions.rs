//! The reductions numpy and torch both offer as a method and as a module function meaning the
//! same (`a.sum(0)` is `np.sum(a, 0)`, `t.sum(0)` is `torch.sum(t, 0)`): each binding turns one
//! form into the other for these names.

/// The reduction names, in the order torch registers its function forms.
pub(crate) const METHOD_REDUCTIONS: [&str; 11] = [
    "sum", "mean", "max", "min", "argmax", "argmin", "any", "all", "prod", "std", "var",
];
