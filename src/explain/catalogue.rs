//! The catalogue of error families: one TOML file per family under `src/explain/families/`,
//! embedded in the binary. A family is data — its signatures, what the error is and is not,
//! where its origin lies, the checks to run, in English and Chinese, and the lesson section
//! and exercise that teach it — so `explain`, `run --explain` and the pager all read the same
//! words, and a new family needs no code.

use serde::Deserialize;
use std::sync::OnceLock;

/// `(id, text)` for each id: the file `families/<id>.toml`, so an id and its file name
/// cannot drift apart.
macro_rules! family_files {
    ($($id:literal,)*) => {
        &[$(($id, include_str!(concat!("families/", $id, ".toml")))),*]
    };
}

/// Every family file, in the order the files are named (ties in matching go to the lower
/// `order`, not to this order). `tests/explain_catalogue.rs` checks that every `*.toml` in the
/// folder is listed here.
pub const FAMILY_FILES: &[(&str, &str)] = family_files!(
    "assert-nll-target",
    "assert-embedding",
    "assert-index-select",
    "assert-gather-scatter",
    "assert-index",
    "assert-bce",
    "assert-multinomial",
    "device-assert",
    "device-mismatch",
    "numpy-cuda",
    "numpy-requires-grad",
    "oom",
    "illegal-address",
    "misaligned-address",
    "launch-failure",
    "cublas-status",
    "cudnn-status",
    "no-kernel-image",
    "driver-too-old",
    "no-driver",
    "not-compiled-cuda",
    "invalid-ordinal",
    "fork-reinit",
    "nccl-timeout",
    "cuda-events",
    "dtype-mismatch",
    "shape-matmul",
    "shape-broadcast",
    "shape-view",
    "shape-conv",
    "batch-size-mismatch",
    "inplace-leaf",
    "inplace-version",
    "backward-twice",
    "grad-scalar",
    "detect-anomaly",
    "map-location",
    "scalar-conversion",
    "state-dict-keys",
    "no-grad-fn",
);

/// One error family, as its file says.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Family {
    pub id: String,
    /// Ties between families that match equally well go to the lower order.
    pub order: u32,
    /// A deferred CUDA error: the traceback's last line is where the host noticed it, which is
    /// usually not where it happened.
    #[serde(default)]
    pub deferred: bool,
    /// A computed diagnosis to add (see diagnose.rs): `device-log`, `oom`, `device-args`,
    /// `matmul-shapes`, `broadcast`, `cublas`, `cudnn`, `nccl`, `driver`, `kernel-image`,
    /// `version-counter`, `dtypes`, `batch-size`.
    #[serde(default)]
    pub diagnosis: Option<String>,
    /// Calls that launch the failing kernel of a deferred error (`cross_entropy`,
    /// `criterion`): a line holding one is a candidate origin.
    #[serde(default)]
    pub origin_calls: Vec<String>,
    /// Words of this family's texts, to name the closest family for text no family matches.
    pub keywords: Vec<String>,
    /// Patterns that identify the family; the strongest one that matches is its score.
    pub signature: Vec<Pattern>,
    /// Patterns that add to the score of a family that matched (e.g. `embedding` in the
    /// traceback for an index_select assert).
    #[serde(default)]
    pub context: Vec<Pattern>,
    pub lesson: LessonRef,
    pub en: Words,
    pub zh: Words,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    pub pattern: String,
    pub weight: u32,
}

/// The lesson section that teaches the family, named by the lesson's id and the section's
/// heading in each language (checked against the real lessons by tests/explain_catalogue.rs).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonRef {
    pub id: String,
    pub section_en: String,
    pub section_zh: String,
    /// The exercise that practises it, when one does.
    #[serde(default)]
    pub exercise: Option<String>,
}

/// What the family means, in one language.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    pub title: String,
    /// What the error is.
    pub what: String,
    /// What it is not (the wrong conclusions learners draw).
    pub not: String,
    /// Where its real origin usually is.
    pub origin: String,
    /// Two or three checks to run, most telling first.
    pub checks: Vec<String>,
}

impl Family {
    pub fn words(&self, lang: crate::lesson::Lang) -> &Words {
        lang.pick(&self.en, &self.zh)
    }
}

/// A family with its patterns compiled.
pub struct Compiled {
    pub family: Family,
    pub signature: Vec<(regex::Regex, u32)>,
    pub context: Vec<(regex::Regex, u32)>,
}

/// The loaded catalogue.
pub struct Catalogue {
    pub families: Vec<Compiled>,
}

impl Catalogue {
    /// The embedded catalogue, parsed and compiled once. The files are checked by the tests, so
    /// a broken one is a build of cudatutor that fails its tests, never a learner's error: if
    /// one were broken anyway, the others still load.
    pub fn builtin() -> &'static Catalogue {
        static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
        CATALOGUE.get_or_init(|| {
            let families = FAMILY_FILES
                .iter()
                .filter_map(|(name, text)| parse_family(name, text).ok())
                .collect();
            Catalogue { families }
        })
    }

    pub fn get(&self, id: &str) -> Option<&Family> {
        self.families.iter().map(|c| &c.family).find(|f| f.id == id)
    }
}

/// Parses and compiles one family file; Err names the file and what is wrong.
pub fn parse_family(name: &str, text: &str) -> Result<Compiled, String> {
    let family: Family = toml::from_str(text).map_err(|e| format!("{name}.toml: {e}"))?;
    if family.id != name {
        return Err(format!(
            "{name}.toml: its id is `{}`; a family's id is its file name",
            family.id
        ));
    }
    if family.signature.is_empty() {
        return Err(format!("{name}.toml: no signature"));
    }
    for words in [&family.en, &family.zh] {
        if !(2..=3).contains(&words.checks.len()) {
            return Err(format!(
                "{name}.toml: {} checks; a family lists two or three",
                words.checks.len()
            ));
        }
    }
    let compile = |patterns: &[Pattern]| -> Result<Vec<(regex::Regex, u32)>, String> {
        patterns
            .iter()
            .map(|p| {
                regex::RegexBuilder::new(&p.pattern)
                    .multi_line(true)
                    .size_limit(1 << 20)
                    .build()
                    .map(|r| (r, p.weight))
                    .map_err(|e| format!("{name}.toml: pattern `{}`: {e}", p.pattern))
            })
            .collect()
    };
    Ok(Compiled {
        signature: compile(&family.signature)?,
        context: compile(&family.context)?,
        family,
    })
}
