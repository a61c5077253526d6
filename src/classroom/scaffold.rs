//! `cudatutor new lesson NAME`: a new lesson file that already passes `cudatutor lint
//! --strict`, with one of each piece (exercise, check with weights, hint, wrong fixes, right
//! fixes, solution, quiz) for the instructor to replace with their own.

use std::path::{Path, PathBuf};

/// `NAME` as a lesson id: lower case, runs of anything but letters and digits become `-`.
pub fn lesson_id(name: &str) -> Option<String> {
    let mut id = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_string();
    (!id.is_empty()).then_some(id)
}

/// The next free `order` among the lessons in `dir` (1 in an empty or missing folder); files
/// that do not parse are skipped.
pub(crate) fn next_order(dir: &Path) -> u32 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 1;
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            crate::lesson::parse_lesson(&p.display().to_string(), &text).ok()
        })
        .map(|l| l.order)
        .max()
        .map_or(1, |o| o.saturating_add(1))
}

/// The text of a new lesson `id` titled `title` at position `order`.
pub(crate) fn lesson_text(id: &str, title: &str, order: u32) -> String {
    let toml_title = title.replace('\\', "\\\\").replace('"', "\\\"");
    TEMPLATE
        .replace("{id}", id)
        .replace("{toml_title}", &toml_title)
        .replace("{title}", title)
        .replace("{order}", &order.to_string())
}

/// Writes `dir/<id>.md` for lesson `name` (never over an existing file). Returns its path.
pub fn new_lesson(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let id = lesson_id(name)
        .ok_or_else(|| format!("`{name}` has no letters or digits to make a lesson id from"))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{id}.md"));
    let text = lesson_text(&id, name.trim(), next_order(dir));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

const TEMPLATE: &str = r####"+++
id = "{id}"
title = "{toml_title}"
order = {order}
lang = "en"
+++

# {title}

Replace this text with your lesson. Everything here is ordinary Markdown; the fenced blocks
below are the interactive pieces (docs/authoring.md describes each one). Run
`cudatutor lint --strict .` in this folder after every change.

## Exercise: a label out of range

Goal: make the loss computable on the GPU. The labels index the classes `0 … num_classes - 1`,
but one of them is out of range. Fix the label, keep four samples, and keep the work on the GPU.

```python exercise id={id}-labels
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(4, num_classes, device='cuda')
labels = torch.tensor([0, 1, 2, 3], device='cuda')
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

```python check
assert error_type() is None, "the script runs to its end without an error"  # weight: 2
assert on_gpu(labels), "keep the labels on the GPU"
assert same(len(labels.tolist()), 4), "keep four samples"
assert same(max(labels.tolist()) < num_classes and min(labels.tolist()) >= 0, True), "every label is a class: 0 to num_classes - 1"
assert ran_on_gpu('cross_entropy') >= 1, "compute the loss on the GPU"
```

```hint
`cross_entropy` needs every label in `0 … num_classes - 1`. Which label is not?
```

```python wrong
# moving everything to the CPU avoids the device but the goal says to stay on the GPU
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(4, num_classes)
labels = torch.tensor([0, 1, 2, 0])
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

```python wrong
# dropping the bad sample leaves three samples instead of four
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(3, num_classes, device='cuda')
labels = torch.tensor([0, 1, 2], device='cuda')
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

```python right
# another valid class for the fourth sample
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(4, num_classes, device='cuda')
labels = torch.tensor([0, 1, 2, 1], device='cuda')
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

```python right
# the labels made on the CPU and moved to the GPU before the loss
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(4, num_classes, device='cuda')
labels = torch.tensor([0, 1, 2, 0]).to('cuda')
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

```python solution
import torch
import torch.nn.functional as F

num_classes = 3
torch.manual_seed(0)
logits = torch.randn(4, num_classes, device='cuda')
labels = torch.tensor([0, 1, 2, 0], device='cuda')
loss = F.cross_entropy(logits, labels)
print(loss.item())
```

## Check yourself

```quiz
question = "Which labels can cross_entropy take with num_classes = 3?"
choices = ["0, 1 and 2", "1, 2 and 3", "any integer"]
answer = 1
explain = "Class indices start at 0, so the largest valid label is num_classes - 1 = 2."
```
"####;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_ids() {
        assert_eq!(
            lesson_id("My First Lesson").as_deref(),
            Some("my-first-lesson")
        );
        assert_eq!(lesson_id("  OOM: part 2! ").as_deref(), Some("oom-part-2"));
        assert_eq!(lesson_id("--"), None);
        assert_eq!(lesson_id("中文"), None);
    }

    #[test]
    fn the_template_parses() {
        let text = lesson_text("x", "A \"quoted\" title", 4);
        let lesson = crate::lesson::parse_lesson("x.md", &text).unwrap();
        assert_eq!(lesson.title, "A \"quoted\" title");
        assert_eq!(lesson.order, 4);
        assert_eq!(lesson.exercises.len(), 1);
        assert_eq!(lesson.exercises[0].wrongs.len(), 2);
        assert_eq!(lesson.exercises[0].rights.len(), 2);
        assert_eq!(lesson.quizzes.len(), 1);
    }
}
