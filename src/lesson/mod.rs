//! Lessons: the model, the Markdown + TOML front-matter loader, and the catalog of built-in
//! (embedded) lessons or an instructor's `--lessons DIR`.

mod catalog;
mod model;
mod parse;
pub(crate) mod predict;
pub(crate) mod terminal_text;

pub use catalog::{BUILTIN_SET, Catalog, Lang, folder_set};
pub use model::{Exercise, Lesson, LessonError, Quiz, RightFix, WrongFix};
pub use parse::{FenceKind, classify_fence, parse_lesson, predicted_start};
