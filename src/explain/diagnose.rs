//! Diagnoses computed from the paste's own numbers and names: which GPU thread failed and what
//! that means, the three readings of an out-of-memory message, which argument sat on which
//! device, the two shapes that do not fit, what a cuBLAS or cuDNN status usually means. Each
//! family names at most one of these (`diagnosis = "..."` in its file); each returns sentences
//! in the learner's language, or none when the paste lacks the numbers.

use super::input::Parsed;
use crate::lesson::Lang;
use regex::Regex;

fn rx(pattern: &str) -> Option<Regex> {
    Regex::new(pattern).ok()
}

/// The first match of `pattern` in the paste, with its groups.
fn find<'p>(p: &'p Parsed, pattern: &str) -> Option<regex::Captures<'p>> {
    rx(pattern)?.captures(&p.text)
}

/// The sentences of diagnosis `name` for this paste.
pub(super) fn diagnose(name: &str, p: &Parsed, lang: Lang) -> Vec<String> {
    match name {
        "device-log" => device_log(p, lang),
        "oom" => oom(p, lang),
        "device-args" => device_args(p, lang),
        "matmul-shapes" => matmul_shapes(p, lang),
        "broadcast" => broadcast(p, lang),
        "cublas" => cublas(p, lang),
        "cudnn" => cudnn(p, lang),
        "nccl" => nccl(p, lang),
        "driver" => driver(p, lang),
        "kernel-image" => kernel_image(p, lang),
        "version-counter" => version_counter(p, lang),
        "batch-size" => batch_size(p, lang),
        _ => Vec::new(),
    }
}

/// The device log's assert lines: the kernel, its source line, the failing threads, and what
/// a thread number means for the kernels whose layout is known.
fn device_log(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(first) = p.asserts.first() else {
        return vec![lang.pick(
            "No `Assertion ... failed.` line is in what you pasted. The device log is printed on stderr, above the traceback (in a notebook, in the server's console): paste it too, it names the kernel and the failing threads.".into(),
            "粘贴的内容里没有 `Assertion ... failed.` 这一行。设备日志打印在 stderr 上、traceback 之前（在 notebook 里则在服务器的控制台）：把它也贴上，它会写出内核名和失败的线程。".into(),
        )];
    };
    let mut threads: Vec<String> = Vec::new();
    for a in &p.asserts {
        let s = format!("[{},{},{}]", a.thread[0], a.thread[1], a.thread[2]);
        if !threads.contains(&s) {
            threads.push(s);
        }
    }
    let shown: Vec<String> = threads.iter().take(8).cloned().collect();
    let more = threads.len().saturating_sub(shown.len());
    let more_en = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let more_zh = if more > 0 {
        format!(" 等另外 {more} 个")
    } else {
        String::new()
    };
    let mut out = vec![lang.pick(
        format!(
            "The device log says: kernel `{}` ({}), condition `{}`, failed in {} thread(s): {}{more_en} (block [{},{},{}]).",
            first.kernel,
            first.source,
            first.condition,
            threads.len(),
            shown.join(" "),
            first.block[0],
            first.block[1],
            first.block[2]
        ),
        format!(
            "设备日志写的是：内核 `{}`（{}），条件 `{}`，在 {} 个线程中失败：{}{more_zh}（block [{},{},{}]）。",
            first.kernel,
            first.source,
            first.condition,
            threads.len(),
            shown.join(" "),
            first.block[0],
            first.block[1],
            first.block[2]
        ),
    )];
    let thread = first.thread[0];
    if first
        .kernel
        .contains("nll_loss_forward_reduce_cuda_kernel_2d")
    {
        out.push(lang.pick(
            format!("In this kernel one block of 32 threads walks the batch: thread {thread} checks samples {thread}, {}, {}, … and stops at its first bad one, so sample {thread} of the batch (or {thread} + a multiple of 32) holds a label < 0 or ≥ the number of classes.", thread + 32, thread + 64),
            format!("这个内核用一个 32 线程的 block 遍历整个 batch：线程 {thread} 检查第 {thread}、{}、{}…… 个样本，遇到第一个坏样本就停下，所以 batch 中第 {thread} 个样本（或 {thread} 加 32 的倍数）的标签 < 0 或 ≥ 类别数。", thread + 32, thread + 64),
        ));
    } else if first
        .kernel
        .contains("nll_loss_forward_no_reduce_cuda_kernel")
        || first.kernel.contains("ClassNLLCriterion")
    {
        out.push(lang.pick(
            format!("Here a thread checks one sample: thread {thread} (of block {}) is sample {} of the batch.", first.block[0], first.block[0] * 128 + thread),
            format!("这里一个线程检查一个样本：线程 {thread}（block {}）就是 batch 中的第 {} 个样本。", first.block[0], first.block[0] * 128 + thread),
        ));
    } else if first.kernel.contains("indexSelectSmallIndex") {
        out.push(lang.pick(
            "indexSelectSmallIndex (embedding and index_select with few indices) has every thread check every index before it copies: the thread numbers do not tell which index was bad, only that one was.".into(),
            "indexSelectSmallIndex（索引不多时的 embedding 和 index_select）让每个线程在复制前检查所有索引：线程号说明不了是哪个索引越界，只说明有一个越界。".into(),
        ));
    }
    out
}

/// A size as PyTorch prints it (`20.00 MiB`, `512 bytes`), in bytes.
fn bytes(value: &str, unit: &str) -> Option<f64> {
    let v: f64 = value.parse().ok()?;
    let scale = match unit {
        "bytes" | "B" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(v * scale)
}

/// Bytes as PyTorch's format_size prints them (also the sizes after `cudatutor run`).
pub(crate) fn size(b: f64) -> String {
    const K: f64 = 1024.0;
    if b < K {
        format!("{b:.0} bytes")
    } else if b < K * K {
        format!("{:.2} KiB", b / K)
    } else if b < K * K * K {
        format!("{:.2} MiB", b / (K * K))
    } else {
        format!("{:.2} GiB", b / (K * K * K))
    }
}

/// The numbers of an out-of-memory message (2.x and 1.x formats).
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct OomNumbers {
    pub requested: Option<f64>,
    pub total: Option<f64>,
    pub free: Option<f64>,
    /// "this process has X memory in use" (2.x), PyTorch's and the context's.
    pub this_process: Option<f64>,
    /// Other processes' memory ("Process N has X memory in use", not this process).
    pub others: f64,
    pub allocated: Option<f64>,
    /// Reserved by PyTorch but not allocated (2.x), or reserved - allocated (1.x).
    pub cached_free: Option<f64>,
    /// The per-process cap ("X allowed").
    pub allowed: Option<f64>,
}

const SZ: &str = r"([0-9]+(?:\.[0-9]+)?) (bytes|KiB|MiB|GiB|TiB)";

pub(super) fn oom_numbers(text: &str) -> OomNumbers {
    let mut n = OomNumbers::default();
    let grab = |pattern: String| -> Option<f64> {
        let r = rx(&pattern)?;
        let c = r.captures(text)?;
        bytes(c.get(1)?.as_str(), c.get(2)?.as_str())
    };
    n.requested = grab(format!(r"Tried to allocate {SZ}"));
    // 2.x
    n.total = grab(format!(r"has a total capacity of {SZ}"));
    n.free = grab(format!(r"of which {SZ} is free"));
    n.this_process = grab(format!(r"this process has {SZ} memory in use"));
    n.allocated = grab(format!(
        r"Of the allocated memory {SZ} is allocated by PyTorch"
    ));
    n.cached_free = grab(format!(r"and {SZ} is reserved by PyTorch but unallocated"));
    n.allowed = grab(format!(r"{SZ} allowed;"));
    if let Some(r) = rx(&format!(r"Process \d+ has {SZ} memory in use")) {
        n.others = r
            .captures_iter(text)
            .filter_map(|c| bytes(c.get(1)?.as_str(), c.get(2)?.as_str()))
            .sum();
    }
    // 1.x: "(GPU 0; 15.78 GiB total capacity; 4.21 GiB already allocated; 1.02 GiB free; 13.90 GiB reserved in total by PyTorch)"
    if n.total.is_none() {
        n.total = grab(format!(r"{SZ} total capacity"));
        n.allocated = grab(format!(r"{SZ} already allocated"));
        n.free = grab(format!(r"; {SZ} free"));
        let reserved = grab(format!(r"{SZ} reserved in total by PyTorch"));
        if let (Some(r), Some(a)) = (reserved, n.allocated) {
            n.cached_free = Some((r - a).max(0.0));
            if let Some(total) = n.total
                && let Some(free) = n.free
            {
                // what neither this process's cache nor the free memory explains: the
                // context and other processes
                n.others = (total - free - r).max(0.0);
            }
        }
    }
    n
}

/// The three readings of an out-of-memory message (live tensors, a fragmented cache, another
/// process), plus the two that rule them out (a request larger than the card, a cap).
fn oom(p: &Parsed, lang: Lang) -> Vec<String> {
    let n = oom_numbers(&p.text);
    let Some(req) = n.requested else {
        return vec![lang.pick(
            "The message has no numbers (`CUDA error: out of memory` comes from a CUDA call outside PyTorch's allocator: creating the context, cuBLAS's workspace, another library). Run `nvidia-smi` to see what holds the card's memory.".into(),
            "这条消息里没有数字（`CUDA error: out of memory` 来自 PyTorch 分配器之外的 CUDA 调用：创建上下文、cuBLAS 的工作区、其他库）。运行 `nvidia-smi` 看看是谁占着显存。".into(),
        )];
    };
    let mut out = Vec::new();
    if let Some(total) = n.total
        && req > total
    {
        out.push(lang.pick(
            format!("The request alone ({}) is larger than the whole card ({}): no setting frees that much. A shape is wrong — a (N, N) matrix from a long vector, a batch dimension multiplied in twice, an unintended broadcast — check the shapes on the failing line.", size(req), size(total)),
            format!("单这一次请求（{}）就比整张卡（{}）还大：怎么调都腾不出这么多。是某个形状错了——由长向量得到的 (N, N) 矩阵、被乘了两次的 batch 维、意外的广播——检查出错那一行的各个形状。", size(req), size(total)),
        ));
        return out;
    }
    if let (Some(allowed), Some(alloc)) = (n.allowed, n.allocated)
        && alloc + req > allowed
    {
        out.push(lang.pick(
            format!("A per-process cap is set: {} allowed, {} already allocated, {} asked for. The card has memory left; this process may not use it (torch.cuda.set_per_process_memory_fraction, or the lab's limit).", size(allowed), size(alloc), size(req)),
            format!("设置了每进程上限：允许 {}，已分配 {}，又申请 {}。卡上还有空闲显存，但这个进程不许再用（torch.cuda.set_per_process_memory_fraction，或实验室设的限额）。", size(allowed), size(alloc), size(req)),
        ));
    }
    if let Some(total) = n.total {
        let others = if n.others > 0.0 {
            n.others
        } else if let (Some(free), Some(mine)) = (n.free, n.this_process) {
            (total - free - mine).max(0.0)
        } else {
            0.0
        };
        if others >= req.max(total * 0.1) {
            out.push(lang.pick(
                format!("Another process: {} of the card's {} is held by other processes, not by this one. Run `nvidia-smi` to see which (a notebook kernel still running, a previous run that did not exit, a colleague's job) and stop it, or pick another GPU with CUDA_VISIBLE_DEVICES.", size(others), size(total)),
                format!("另一个进程：卡上 {} 中有 {} 被其他进程占着，不是这个进程。运行 `nvidia-smi` 看是哪个（还在运行的 notebook 内核、没有退出的上一次运行、同事的任务），把它停掉，或用 CUDA_VISIBLE_DEVICES 换一张 GPU。", size(total), size(others)),
            ));
        }
    }
    if let Some(cached) = n.cached_free {
        let alloc = n.allocated.unwrap_or(0.0);
        if cached >= req && cached >= 0.25 * (cached + alloc) {
            out.push(lang.pick(
                format!("Fragmentation: PyTorch's cache holds {} reserved but unallocated — more than the {} asked for — yet not in one piece large enough. Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before the process starts (1.x: max_split_size_mb:128), and avoid tensor sizes that change every step.", size(cached), size(req)),
                format!("碎片化：PyTorch 的缓存里有 {} 已预留但未分配——比申请的 {} 还多——却没有一块连续的足够大。在进程启动前设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True（1.x 用 max_split_size_mb:128），并避免每一步都变化的张量大小。", size(cached), size(req)),
            ));
        }
    }
    if let Some(alloc) = n.allocated {
        // this process's own tensors fill most of the card (not: another process does)
        let card = n.total.unwrap_or(alloc);
        if alloc >= 0.5 * card && alloc >= req {
            out.push(lang.pick(
                format!("Live tensors: {} is allocated by PyTorch, i.e. held by tensors that are still referenced. Usual causes: a batch too large for the card, activations kept for backward (evaluate under torch.no_grad()), a loss added up without .item() (it keeps every step's graph), outputs appended to a list. torch.cuda.memory_summary() lists them by size.", size(alloc)),
                format!("存活的张量：PyTorch 分配了 {}，也就是仍被引用的张量占着。常见原因：batch 太大、为反向传播保存的激活值（评估时用 torch.no_grad()）、不用 .item() 就累加 loss（保留了每一步的计算图）、把输出追加到列表里。torch.cuda.memory_summary() 会按大小列出它们。", size(alloc)),
            ));
        }
    }
    if out.is_empty() {
        out.push(lang.pick(
            format!("{} was asked for and the card had{} too little free in one piece. Reduce the batch size first; then look for tensors kept alive between steps.", size(req), n.free.map(|f| format!(" {} free,", size(f))).unwrap_or_default()),
            format!("申请了 {}，而卡上{}没有足够大的连续空闲显存。先减小 batch 大小，再找出在各步之间一直存活的张量。", size(req), n.free.map(|f| format!("空闲 {}，但", size(f))).unwrap_or_default()),
        ));
    }
    out
}

/// Which argument was on which device, from either wording of the mismatch message.
fn device_args(p: &Parsed, lang: Lang) -> Vec<String> {
    let text = &p.text;
    let role = |arg: &str, method: &str| -> (String, String) {
        let m = method
            .trim_start_matches("wrapper_CUDA_")
            .trim_start_matches("wrapper_");
        match (arg, m) {
            ("mat1", "addmm" | "mm" | "linear") => (
                "mat1 — the input of nn.Linear / F.linear (the `x` of `layer(x)`)".into(),
                "mat1——nn.Linear / F.linear 的输入（`layer(x)` 里的 `x`）".into(),
            ),
            ("mat2", _) => (
                "mat2 — the layer's weight (or the right operand of `@`)".into(),
                "mat2——层的权重（或 `@` 的右操作数）".into(),
            ),
            ("target", _) => (
                "target — the labels given to the loss".into(),
                "target——传给损失函数的标签".into(),
            ),
            ("index" | "indices", _) => ("the index tensor".into(), "索引张量".into()),
            ("weight", _) => (
                "weight — a layer's weight or a loss's class weights".into(),
                "weight——层的权重或损失函数的类别权重".into(),
            ),
            (a, _) => (format!("argument `{a}`"), format!("参数 `{a}`")),
        }
    };
    if let Some(c) = rx(r"but got (\w+) is on (\S+), different from other tensors on (\S+?) \(when checking argument in method (\w+)\)")
        .and_then(|r| r.captures(text))
    {
        let (en, zh) = role(&c[1], &c[4]);
        return vec![lang.pick(
            format!("In {}: {en} is on {}, the other tensors on {}. Move that one (or make it on the right device where it is created), not the others.", &c[4], &c[2], &c[3]),
            format!("在 {} 中：{zh} 在 {} 上，其他张量在 {} 上。把这一个移过去（或在创建它的地方就放到正确的设备上），而不是移动其他的。", &c[4], &c[2], &c[3]),
        )];
    }
    if let Some(c) = rx(r"found at least two devices, (\S+?) and (\S+?)!(?: \(when checking argument for argument (\w+) in method (\w+)\))?")
        .and_then(|r| r.captures(text))
    {
        let (a, b) = (&c[1], &c[2]);
        let mut en = format!("One operand is on {a} and another on {b}.");
        let mut zh = format!("一个操作数在 {a} 上，另一个在 {b} 上。");
        if let (Some(arg), Some(method)) = (c.get(3), c.get(4)) {
            let (re, rz) = role(arg.as_str(), method.as_str());
            en += &format!(" The odd one out is {re} (in {}).", method.as_str());
            zh += &format!(" 与众不同的是 {rz}（在 {} 中）。", method.as_str());
        } else {
            en += " An elementwise op (`+`, `*`, a comparison) names no argument: look at both operands on the failing line.";
            zh += " 逐元素运算（`+`、`*`、比较）不会写出参数名：查看出错那一行的两个操作数。";
        }
        return vec![lang.pick(en, zh)];
    }
    if let Some(c) = rx(r"Input type \(([^)]+)\) and weight type \(([^)]+)\) should be the same")
        .and_then(|r| r.captures(text))
    {
        return vec![lang.pick(
            format!(
                "The input is a {} and the layer's weight a {}: `cuda` in one name and not the other is a device mismatch (the model was moved, the batch was not).",
                &c[1], &c[2]
            ),
            format!(
                "输入是 {}，层的权重是 {}：一个名字里有 `cuda` 而另一个没有，就是设备不一致（模型移过去了，batch 没有）。",
                &c[1], &c[2]
            ),
        )];
    }
    Vec::new()
}

fn matmul_shapes(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)",
    ) else {
        return Vec::new();
    };
    let (rows, k1, k2, n) = (&c[1], &c[2], &c[3], &c[4]);
    vec![lang.pick(
        format!(
            "The input has {k1} features per row ({rows} rows) but the layer expects {k2} (it maps {k2} → {n}). For nn.Linear(in, out) the weight is stored (out, in), so the message shows it transposed: the layer was built with in_features={k2}. Either the layer's in_features is wrong, or the tensor before it was flattened or sliced differently than you think."
        ),
        format!(
            "输入每行有 {k1} 个特征（共 {rows} 行），但这一层期望 {k2} 个（它把 {k2} 映射到 {n}）。nn.Linear(in, out) 的权重按 (out, in) 存放，消息里显示的是转置后的：这一层是用 in_features={k2} 建的。要么这一层的 in_features 错了，要么它前面的张量被展平或切片的方式和你想的不一样。"
        ),
    )]
}

fn broadcast(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"The size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at non-singleton dimension (\d+)",
    ) else {
        return Vec::new();
    };
    vec![lang.pick(
        format!(
            "Dimension {} (counted from the end-aligned shapes) is {} on the left operand and {} on the right; broadcasting only stretches a size of 1. Print both shapes on the failing line: a missing or extra dimension (a (N,) target against an (N, 1) output) is the usual cause.",
            &c[3], &c[1], &c[2]
        ),
        format!(
            "（按右对齐的形状数）第 {} 维，左操作数是 {}，右操作数是 {}；广播只会拉伸大小为 1 的维。在出错那一行打印两个形状：常见原因是少了或多了一维（(N,) 的目标对 (N, 1) 的输出）。",
            &c[3], &c[1], &c[2]
        ),
    )]
}

fn batch_size(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"Expected input batch_size \((\d+)\) to match target batch_size \((\d+)\)",
    ) else {
        return Vec::new();
    };
    vec![lang.pick(
        format!(
            "The model produced {} rows and there are {} labels. A view/reshape that folded a dimension into the batch (`x.view(-1, n)` with the wrong n), or the last, smaller batch paired with a fixed-size label tensor, are the usual causes.",
            &c[1], &c[2]
        ),
        format!(
            "模型输出了 {} 行，而标签有 {} 个。常见原因：view/reshape 把某一维并进了 batch 维（`x.view(-1, n)` 的 n 不对），或者最后一个较小的 batch 配上了固定大小的标签张量。",
            &c[1], &c[2]
        ),
    )]
}

fn cublas(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"(CUBLAS_STATUS_[A-Z_]+)(?: when calling `([A-Za-z0-9_]+)\(?)?",
    ) else {
        return Vec::new();
    };
    let status = &c[1];
    let call = c.get(2).map_or("", |m| m.as_str());
    let (en, zh) = match status {
        "CUBLAS_STATUS_NOT_INITIALIZED" | "CUBLAS_STATUS_ALLOC_FAILED" => (
            "cuBLAS could not create its handle or workspace: almost always the GPU is out of memory at that moment (another process, or this one's cache), or the context is already broken by an earlier error.",
            "cuBLAS 无法创建句柄或工作区：几乎总是因为那一刻 GPU 显存不足（别的进程，或本进程的缓存），或者上下文已被更早的错误破坏。",
        ),
        "CUBLAS_STATUS_EXECUTION_FAILED" => (
            "The matrix kernel failed while running. On a correct model that usually means an earlier kernel already broke the context (a device-side assert or an out-of-range index reported late), or a PyTorch build whose CUDA does not match the GPU.",
            "矩阵乘法内核在运行中失败。模型本身没问题时，这通常说明更早的内核已经破坏了上下文（延迟报告的设备端断言或越界索引），或者 PyTorch 所带的 CUDA 与这张 GPU 不匹配。",
        ),
        "CUBLAS_STATUS_INVALID_VALUE" => (
            "cuBLAS refused the call's arguments: unusual shapes or strides (a zero-size or huge dimension, a non-contiguous half-precision tensor), or a dtype the GPU does not support (bfloat16 before Ampere).",
            "cuBLAS 拒绝了这次调用的参数：不寻常的形状或步长（大小为 0 或极大的维度、不连续的半精度张量），或 GPU 不支持的 dtype（Ampere 之前的 bfloat16）。",
        ),
        "CUBLAS_STATUS_ARCH_MISMATCH" | "CUBLAS_STATUS_NOT_SUPPORTED" => (
            "The GPU does not support this operation with this dtype or this cuBLAS: check the dtype (half/bfloat16) and that the PyTorch build supports the card.",
            "这张 GPU 不支持以这种 dtype 或这个 cuBLAS 做这个运算：检查 dtype（half/bfloat16），以及 PyTorch 版本是否支持这张卡。",
        ),
        _ => (
            "cuBLAS reported an internal failure; run once with CUDA_LAUNCH_BLOCKING=1 to see whether an earlier kernel is the real origin.",
            "cuBLAS 报告了内部错误；用 CUDA_LAUNCH_BLOCKING=1 运行一次，看看真正的源头是否是更早的内核。",
        ),
    };
    let call_en = if call.is_empty() {
        String::new()
    } else {
        format!(" (in `{call}`)")
    };
    let call_zh = if call.is_empty() {
        String::new()
    } else {
        format!("（在 `{call}` 中）")
    };
    vec![lang.pick(
        format!("{status}{call_en}: {en}"),
        format!("{status}{call_zh}：{zh}"),
    )]
}

fn cudnn(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(p, r"(CUDNN_STATUS_[A-Z_]+)") else {
        return Vec::new();
    };
    let status = &c[1];
    let (en, zh) = match status {
        "CUDNN_STATUS_NOT_INITIALIZED" | "CUDNN_STATUS_ALLOC_FAILED" => (
            "cuDNN could not start: usually the GPU is out of memory at that moment, or the cuDNN library does not match the PyTorch build (a system cuDNN found before the bundled one).",
            "cuDNN 无法启动：通常是那一刻 GPU 显存不足，或者 cuDNN 库与 PyTorch 版本不匹配（先找到了系统里的 cuDNN 而不是自带的那个）。",
        ),
        "CUDNN_STATUS_EXECUTION_FAILED" | "CUDNN_STATUS_MAPPING_ERROR" => (
            "The convolution or RNN kernel failed while running — most often because an earlier kernel already broke the context, or because of out-of-range data reaching it.",
            "卷积或 RNN 内核在运行中失败——最常见的原因是更早的内核已经破坏了上下文，或者越界的数据流到了这里。",
        ),
        "CUDNN_STATUS_BAD_PARAM" | "CUDNN_STATUS_NOT_SUPPORTED" => (
            "cuDNN refused the shapes, strides or dtype it was given (a non-contiguous input, a half-precision input with float weights, an unusual padding).",
            "cuDNN 拒绝了它收到的形状、步长或 dtype（不连续的输入、半精度输入配 float 权重、不寻常的 padding）。",
        ),
        _ => (
            "cuDNN reported an internal failure; rerun with torch.backends.cudnn.enabled = False to see whether the plain CUDA kernel gives a clearer error.",
            "cuDNN 报告了内部错误；设置 torch.backends.cudnn.enabled = False 再运行，看看普通的 CUDA 内核是否给出更清楚的错误。",
        ),
    };
    vec![lang.pick(format!("{status}: {en}"), format!("{status}：{zh}"))]
}

fn nccl(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"\[Rank (\d+)\] Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(\d+), OpType=(\w+)[^)]*Timeout\(ms\)=(\d+)\) ran for (\d+) milliseconds",
    ) else {
        return Vec::new();
    };
    let timeout_s = c[4].parse::<u64>().unwrap_or(0) / 1000;
    vec![lang.pick(
        format!(
            "Rank {} waited {timeout_s} s in {} number {} and the other ranks never joined it. A collective only finishes when every rank calls it: one rank is stuck or slower (data loading, evaluation or checkpointing on rank 0 only, a different number of batches per rank, a crash on another rank), not the network.",
            &c[1], &c[3], &c[2]
        ),
        format!(
            "Rank {} 在第 {} 次 {} 中等待了 {timeout_s} 秒，其他 rank 始终没有加入。集合通信要等所有 rank 都调用才能完成：是某个 rank 卡住了或更慢（数据加载、只在 rank 0 上做的评估或保存检查点、各 rank 的 batch 数不同、另一个 rank 崩溃），而不是网络的问题。",
            &c[1], &c[2], &c[3]
        ),
    )]
}

fn driver(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(p, r"too old \(found version (\d+)\)") else {
        return Vec::new();
    };
    let v: u32 = c[1].parse().unwrap_or(0);
    let (major, minor) = (v / 1000, (v % 1000) / 10);
    vec![lang.pick(
        format!(
            "The driver supports CUDA up to {major}.{minor} (it reported {v}); this PyTorch was built for a newer CUDA. `nvidia-smi` shows the driver's CUDA version top right; `python -c \"import torch; print(torch.version.cuda)\"` shows the build's."
        ),
        format!(
            "这个驱动最高支持 CUDA {major}.{minor}（它报告的是 {v}）；而这个 PyTorch 是为更新的 CUDA 构建的。`nvidia-smi` 右上角显示驱动的 CUDA 版本；`python -c \"import torch; print(torch.version.cuda)\"` 显示 PyTorch 构建所用的版本。"
        ),
    )]
}

fn kernel_image(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"with CUDA capability (sm_\d+) is not compatible with the current PyTorch installation\.\s*The current PyTorch install supports CUDA capabilities ([a-z0-9_ ]+)\.",
    ) else {
        return Vec::new();
    };
    vec![lang.pick(
        format!(
            "The warning above the error names it: the GPU is {} and this PyTorch carries kernels for {} only. Install a build whose list includes {} (pytorch.org's selector, a newer CUDA wheel).",
            &c[1],
            c[2].trim(),
            &c[1]
        ),
        format!(
            "错误上方的警告已经写明：GPU 是 {}，而这个 PyTorch 只带有 {} 的内核。安装一个列表中包含 {} 的版本（pytorch.org 的选择器，较新的 CUDA wheel）。",
            &c[1],
            c[2].trim(),
            &c[1]
        ),
    )]
}

fn version_counter(p: &Parsed, lang: Lang) -> Vec<String> {
    let Some(c) = find(
        p,
        r"modified by an inplace operation: \[([^\]]+)\], which is output (\d+) of (\w+), is at version (\d+); expected version (\d+)",
    ) else {
        return Vec::new();
    };
    let writes = c[4].parse::<i64>().unwrap_or(0) - c[5].parse::<i64>().unwrap_or(0);
    vec![lang.pick(
        format!(
            "The tensor [{}] — output {} of {} — was saved for backward at version {} and changed in place {writes} time(s) since (now version {}). Find the in-place op on that tensor after {} made it: `x += …`, `x[...] = …`, a method ending in `_`, an nn.ReLU(inplace=True).",
            &c[1], &c[2], &c[3], &c[5], &c[4], &c[3]
        ),
        format!(
            "张量 [{}]——{} 的第 {} 个输出——在版本 {} 时被保存用于反向传播，之后被原地修改了 {writes} 次（现在是版本 {}）。找出 {} 生成它之后对它做的原地操作：`x += …`、`x[...] = …`、以 `_` 结尾的方法、nn.ReLU(inplace=True)。",
            &c[1], &c[3], &c[2], &c[5], &c[4], &c[3]
        ),
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oom_numbers_read_both_formats() {
        let new = oom_numbers(
            "Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.55 GiB of which 301.44 MiB is free. Including non-PyTorch memory, this process has 23.24 GiB memory in use. Of the allocated memory 22.61 GiB is allocated by PyTorch, and 176.52 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(new.requested, Some(512.0 * 1048576.0));
        assert_eq!(new.free, Some(301.44 * 1048576.0));
        assert_eq!(new.cached_free, Some(176.52 * 1048576.0));
        let old = oom_numbers(
            "Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 4.21 GiB already allocated; 1.02 GiB free; 13.90 GiB reserved in total by PyTorch)",
        );
        assert_eq!(old.total, Some(15.78 * 1073741824.0));
        let cached = old.cached_free.unwrap();
        assert!((cached - 9.69 * 1073741824.0).abs() < 1e6, "{cached}");
    }

    #[test]
    fn sizes_print_like_pytorch() {
        assert_eq!(size(512.0), "512 bytes");
        assert_eq!(size(2.0 * 1048576.0), "2.00 MiB");
    }
}
