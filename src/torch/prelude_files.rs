//! The torch preludes made of several files, each its files in order as src/torch/mod.rs
//! concatenates them (`NN_SRC`, `EXTRA_SRC`, `AUTOGRAD_SRC`). build.rs reads this list to
//! find the top-level statements of each concatenation at build time
//! (script/interp/prelude_table.rs); a test holds the two lists to each other.

pub(crate) const COMPOSITE_PRELUDES: &[&[&str]] = &[
    &[
        "nn.py",
        "nn_layers.py",
        "nn_losses.py",
        "nn_attention.py",
        "nn_pool_pad.py",
        "nn_bilinear.py",
        "nn_conv3d.py",
        "nn_conv_transpose.py",
        "nn_fractional_pool.py",
        "nn_interpolate.py",
        "nn_upsample2d.py",
        "nn_sdpa.py",
        "nn_padding.py",
        "nn_lazy.py",
        "nn_inplace.py",
    ],
    &[
        "extra.py",
        "extra_views.py",
        "extra_search.py",
        "extra_runtime.py",
        "extra_poisson_qr.py",
        "extra_aliases.py",
        "extra_parsed.py",
    ],
    &["autograd.py", "autograd_functional.py"],
];
