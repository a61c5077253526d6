"""One conformance script per torch.nn module: for each ModuleInfo input, the module built with
the database's constructor arguments right after `torch.manual_seed(0)` (so its initial
parameters come from the seeded generator), then

  cN  its repr and its state_dict (every key, dtype, shape and value),
  fN  the float32 forward on the sample's input (training mode, as a fresh module is),
  gN  the gradients of its parameters and of its first float input (not of a loss's target)
      after `out.sum().backward()` on the first tensor it returns,
  vN  the forward in eval mode, for modules whose train and eval behaviour differ,
  dN  the forward of the module moved to float64, on the float64 sample,
  xN  the database's error inputs (construction or forward errors).

One `run_module_input` line runs an input's cN, fN, gN and vN, so its constructor and input
literal are written once.

The modules the database lacks (EXTRA_MODULES) are written the same way from a constructor
spelled here and inputs drawn by make_tensor with a fixed seed.
"""
import torch
from torch.testing import make_tensor

from literal import Unrepresentable, literal
from ops import Checker

SAMPLES_FLOAT32 = 6
SAMPLES_FLOAT64 = 2
BACKWARD_SAMPLES = 3
EVAL_SAMPLES = 2
ERROR_SAMPLES = 4


def args_text(fi):
    """`((arg, ...), {kw: value})` for a FunctionInput."""
    args = [literal(a) for a in fi.args]
    kwargs = ["%s: %s" % (repr(k), literal(v)) for k, v in fi.kwargs.items()]
    return "((%s), {%s})" % ("".join(a + ", " for a in args), ", ".join(kwargs))


def constructor_text(cls_path, fi):
    args = [literal(a) for a in fi.args]
    kwargs = ["%s=%s" % (k, literal(v)) for k, v in fi.kwargs.items()]
    return "%s(%s)" % (cls_path, ", ".join(args + kwargs))


class ModuleChecker(Checker):
    """Runs a candidate under real PyTorch to leave out samples whose result is too large."""

    def keep(self, build, inputs):
        fns = self.compiled(build, inputs)
        if fns is None:
            return False
        build_fn, inputs_fn = fns

        def run():
            module = build_fn()
            args, kwargs = inputs_fn()
            return module(*args, **kwargs)

        return self.keeps(run)


def module_input_lines(n, build, inputs, printed, backward, eval_mode):
    """[(tag, dtype, kind, line)] for one float32 input of a module: cN, fN, then gN and vN where
    asked, all run by one `run_module_input` line (the prelude's runner prints them in this
    order), so the constructor and the input literal are written once; the later tags' line is
    None."""
    call = "run_module_input(%d, %s, %s, printed=%s, backward=%s, eval_mode=%s)" % (
        n, build, inputs, printed, backward, eval_mode)
    tags = [("c%d" % n, "construct"), ("f%d" % n, "forward")]
    if backward:
        tags.append(("g%d" % n, "backward"))
    if eval_mode:
        tags.append(("v%d" % n, "eval"))
    return [(tag, "float32", kind, call if i == 0 else None) for i, (tag, kind) in enumerate(tags)]


def module_info_samples(mi, checker, stats):
    """[(tag, dtype, kind, line of script)] for one ModuleInfo."""
    cls_path = "torch.nn." + mi.module_cls.__name__
    lines = []

    def inputs_of(dtype):
        torch.manual_seed(0)
        try:
            return list(mi.module_inputs_func(mi, device="cpu", dtype=dtype,
                                              requires_grad=False, training=True))
        except Exception as e:
            stats["sample functions that raised"].append("%s %s: %s" % (mi.name, dtype, e))
            return []

    n = 0
    for module_input in inputs_of(torch.float32):
        if n >= SAMPLES_FLOAT32:
            break
        try:
            build = constructor_text(cls_path, module_input.constructor_input)
            inputs = args_text(module_input.forward_input) if module_input.forward_input else None
        except Unrepresentable as e:
            stats["unrepresentable"][str(e).split(" ")[0]] += 1
            continue
        if inputs is not None and not checker.keep(build, inputs):
            stats["left out (large or duplicate)"] += 1
            continue
        b = "lambda: " + build
        if inputs is None:
            lines.append(("c%d" % n, "float32", "construct", 'construct("c%d", %s)' % (n, b)))
        else:
            lines += module_input_lines(n, b, "lambda: " + inputs, printed=n == 0,
                                        backward=n < BACKWARD_SAMPLES,
                                        eval_mode=bool(mi.train_and_eval_differ) and n < EVAL_SAMPLES)
        n += 1
    if torch.float64 in mi.supported_dtypes("cpu"):
        d = 0
        for module_input in inputs_of(torch.float64):
            if d >= SAMPLES_FLOAT64:
                break
            if not module_input.forward_input:
                continue
            try:
                build = constructor_text(cls_path, module_input.constructor_input)
                inputs = args_text(module_input.forward_input)
            except Unrepresentable as e:
                stats["unrepresentable"][str(e).split(" ")[0]] += 1
                continue
            if not checker.keep(build + ".to(torch.float64)", inputs):
                stats["left out (large or duplicate)"] += 1
                continue
            lines.append(("d%d" % d, "float64", "forward",
                          'run_forward("d%d", lambda: %s, lambda: %s, dtype=f64)'
                          % (d, build, inputs)))
            d += 1
    if mi.module_error_inputs_func is not None:
        torch.manual_seed(0)
        try:
            errors = list(mi.module_error_inputs_func(mi, device="cpu", dtype=torch.float32,
                                                      requires_grad=False, training=True))
        except Exception as e:
            stats["sample functions that raised"].append("%s errors: %s" % (mi.name, e))
            errors = []
        x = 0
        for err in errors:
            if x >= ERROR_SAMPLES:
                break
            module_input = err.module_error_input
            try:
                build = constructor_text(cls_path, module_input.constructor_input)
                on_forward = err.error_on.name == "FORWARD_ERROR"
                inputs = args_text(module_input.forward_input) if on_forward else None
            except Unrepresentable as e:
                stats["unrepresentable"][str(e).split(" ")[0]] += 1
                continue
            lines.append(("x%d" % x, "float32", "error", 'run_error("x%d", lambda: %s, %s)'
                          % (x, build, "None" if inputs is None else "lambda: " + inputs)))
            x += 1
    return lines


# torch.nn modules that print but have no ModuleInfo: (class name, constructor source, forward
# inputs). An input is ("f", shape) for a float32 tensor drawn by make_tensor, ("i", shape, high)
# for an int64 one in [0, high).
EXTRA_MODULES = [
    ("AdaptiveLogSoftmaxWithLoss", ["torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4])"],
     [("f", (3, 8)), ("i", (3,), 10)]),
    ("AlphaDropout", ["torch.nn.AlphaDropout(p=0.2)", "torch.nn.AlphaDropout()"], [("f", (4, 5))]),
    ("ChannelShuffle", ["torch.nn.ChannelShuffle(2)"], [("f", (1, 4, 2, 2))]),
    ("CosineSimilarity", ["torch.nn.CosineSimilarity()", "torch.nn.CosineSimilarity(dim=0, eps=1e-6)"],
     [("f", (3, 4)), ("f", (3, 4))]),
    ("CrossMapLRN2d", ["torch.nn.CrossMapLRN2d(3)"], [("f", (1, 4, 2, 2))]),
    ("Dropout", ["torch.nn.Dropout()", "torch.nn.Dropout(p=0.2)", "torch.nn.Dropout(0.5, inplace=True)"],
     [("f", (4, 5))]),
    ("Dropout1d", ["torch.nn.Dropout1d()", "torch.nn.Dropout1d(p=0.3)"], [("f", (2, 3, 4))]),
    ("Dropout2d", ["torch.nn.Dropout2d()", "torch.nn.Dropout2d(0.25)"], [("f", (2, 3, 2, 2))]),
    ("Dropout3d", ["torch.nn.Dropout3d()"], [("f", (2, 2, 2, 2, 2))]),
    ("EmbeddingBag", ["torch.nn.EmbeddingBag(10, 3)", "torch.nn.EmbeddingBag(10, 3, mode='sum')",
                      "torch.nn.EmbeddingBag(10, 3, mode='max')"], [("i", (2, 4), 10)]),
    ("FeatureAlphaDropout", ["torch.nn.FeatureAlphaDropout(0.2)"], [("f", (2, 3, 4))]),
    ("Flatten", ["torch.nn.Flatten()", "torch.nn.Flatten(0, -1)", "torch.nn.Flatten(start_dim=2)"],
     [("f", (2, 3, 4))]),
    ("Fold", ["torch.nn.Fold(output_size=(3, 3), kernel_size=2)",
              "torch.nn.Fold((4, 4), 2, stride=2)"], [("f", (1, 4, 4))]),
    ("Hardsigmoid", ["torch.nn.Hardsigmoid()"], [("f", (3, 4))]),
    ("Identity", ["torch.nn.Identity()", "torch.nn.Identity(54, unused_argument1=0.1)"],
     [("f", (3,))]),
    ("LazyBatchNorm1d", ["torch.nn.LazyBatchNorm1d()"], [("f", (4, 3))]),
    ("LazyLinear", ["torch.nn.LazyLinear(3)", "torch.nn.LazyLinear(2, bias=False)"],
     [("f", (2, 4))]),
    ("ModuleDict", ["torch.nn.ModuleDict({'fc': torch.nn.Linear(2, 3), 'act': torch.nn.ReLU()})"], None),
    ("ModuleList", ["torch.nn.ModuleList([torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1)])"],
     None),
    ("PairwiseDistance", ["torch.nn.PairwiseDistance()", "torch.nn.PairwiseDistance(p=1.0, keepdim=True)"],
     [("f", (3, 4)), ("f", (3, 4))]),
    ("ParameterDict", ["torch.nn.ParameterDict({'w': torch.nn.Parameter(torch.randn(2, 3))})"], None),
    ("ParameterList", ["torch.nn.ParameterList([torch.nn.Parameter(torch.randn(2)), "
                       "torch.nn.Parameter(torch.zeros(3, 1))])"], None),
    ("PixelShuffle", ["torch.nn.PixelShuffle(2)"], [("f", (1, 4, 2, 2))]),
    ("PixelUnshuffle", ["torch.nn.PixelUnshuffle(2)"], [("f", (1, 1, 4, 4))]),
    ("RReLU", ["torch.nn.RReLU()", "torch.nn.RReLU(0.1, 0.3)"], [("f", (3, 4))]),
    ("Sequential", ["torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))",
                    "torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU(), torch.nn.Flatten(), "
                    "torch.nn.Linear(8, 2))"], None),
    ("TransformerDecoder",
     ["torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(d_model=4, nhead=2, "
      "dim_feedforward=8), num_layers=2)"], [("f", (3, 2, 4)), ("f", (3, 2, 4))]),
    ("TripletMarginLoss", ["torch.nn.TripletMarginLoss()", "torch.nn.TripletMarginLoss(margin=0.5, p=1)"],
     [("f", (3, 4)), ("f", (3, 4)), ("f", (3, 4))]),
    ("TripletMarginWithDistanceLoss", ["torch.nn.TripletMarginWithDistanceLoss()"],
     [("f", (3, 4)), ("f", (3, 4)), ("f", (3, 4))]),
    ("Unflatten", ["torch.nn.Unflatten(1, (2, 3))"], [("f", (2, 6))]),
    ("Unfold", ["torch.nn.Unfold(kernel_size=2)", "torch.nn.Unfold(2, stride=2, padding=1)"],
     [("f", (1, 2, 3, 3))]),
    ("Upsample", ["torch.nn.Upsample(scale_factor=2)", "torch.nn.Upsample(scale_factor=2, mode='bilinear')",
                  "torch.nn.Upsample(size=(3, 5), mode='bilinear', align_corners=True)"],
     [("f", (1, 1, 2, 2))]),
    ("UpsamplingBilinear2d", ["torch.nn.UpsamplingBilinear2d(scale_factor=2)"], [("f", (1, 1, 2, 2))]),
    ("UpsamplingNearest2d", ["torch.nn.UpsamplingNearest2d(scale_factor=2)"], [("f", (1, 1, 2, 2))]),
]
# Forward inputs for the containers above, which take no forward arguments of their own.
CONTAINER_INPUTS = {
    "Sequential": [[("f", (2, 4))], [("f", (1, 1, 4, 4))]],
}


def extra_inputs_text(name, inputs, n):
    """`((tensor, ...), {})` for constructor n of an EXTRA_MODULES entry, drawn by make_tensor
    under seed n; None for a container without forward inputs."""
    spec = inputs
    if spec is None and name in CONTAINER_INPUTS:
        spec = CONTAINER_INPUTS[name][n]
    if spec is None:
        return None
    torch.manual_seed(n)
    tensors = []
    for item in spec:
        if item[0] == "f":
            tensors.append(make_tensor(item[1], dtype=torch.float32, device="cpu"))
        else:
            tensors.append(make_tensor(item[1], dtype=torch.int64, device="cpu",
                                       low=0, high=item[2]))
    return "((%s), {})" % "".join(literal(t) + ", " for t in tensors)


def extra_module_samples(name, constructors, inputs, checker, stats):
    lines = []
    for n, build in enumerate(constructors):
        b = "lambda: " + build
        inputs_text = extra_inputs_text(name, inputs, n)
        if inputs_text is not None and not checker.keep(build, inputs_text):
            stats["left out (large or duplicate)"] += 1
            inputs_text = None
        if inputs_text is None:
            lines.append(("c%d" % n, "float32", "construct", 'construct("c%d", %s)' % (n, b)))
            continue
        lines += module_input_lines(n, b, "lambda: " + inputs_text, printed=n == 0, backward=True,
                                    eval_mode="Dropout" in name or name == "RReLU"
                                    or "BatchNorm" in name)
    return lines
