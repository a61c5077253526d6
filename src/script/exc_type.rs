//! The exception types native code raises, as one enum mirroring CPython's hierarchy (and the
//! few library exceptions torch and numpy define). Native code says
//! `PyException::new(ExcType::TypeError, msg)`: a misspelt type is a compile error, not a
//! silent RuntimeError, and `except LookupError` finds IndexError through [`ExcType::base`].

macro_rules! exc_types {
    ($( $variant:ident : $base:ident @ $module:literal ),* $(,)?) => {
        /// One exception class: its name, its base class and the module it lives in.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ExcType {
            BaseException,
            $( $variant, )*
        }

        impl ExcType {
            /// Every type, each after its base (the order classes are created in).
            pub const ALL: &'static [ExcType] = &[ExcType::BaseException, $( ExcType::$variant, )*];

            /// The class name (`TypeError`, `OutOfMemoryError`).
            pub fn name(self) -> &'static str {
                match self {
                    ExcType::BaseException => "BaseException",
                    $( ExcType::$variant => stringify!($variant), )*
                }
            }

            /// The direct base class (None for BaseException).
            pub fn base(self) -> Option<ExcType> {
                match self {
                    ExcType::BaseException => None,
                    $( ExcType::$variant => Some(ExcType::$base), )*
                }
            }

            /// The module whose attribute the class is (`builtins`, `torch`, `numpy.linalg`):
            /// a traceback prints the type qualified by it unless it is `builtins`.
            pub fn module(self) -> &'static str {
                match self {
                    ExcType::BaseException => "builtins",
                    $( ExcType::$variant => $module, )*
                }
            }
        }
    };
}

exc_types! {
    SystemExit: BaseException @ "builtins",
    KeyboardInterrupt: BaseException @ "builtins",
    GeneratorExit: BaseException @ "builtins",
    Exception: BaseException @ "builtins",
    StopIteration: Exception @ "builtins",
    ArithmeticError: Exception @ "builtins",
    FloatingPointError: ArithmeticError @ "builtins",
    OverflowError: ArithmeticError @ "builtins",
    ZeroDivisionError: ArithmeticError @ "builtins",
    AssertionError: Exception @ "builtins",
    AttributeError: Exception @ "builtins",
    BufferError: Exception @ "builtins",
    EOFError: Exception @ "builtins",
    ImportError: Exception @ "builtins",
    ModuleNotFoundError: ImportError @ "builtins",
    LookupError: Exception @ "builtins",
    IndexError: LookupError @ "builtins",
    KeyError: LookupError @ "builtins",
    MemoryError: Exception @ "builtins",
    NameError: Exception @ "builtins",
    UnboundLocalError: NameError @ "builtins",
    OSError: Exception @ "builtins",
    TimeoutError: OSError @ "builtins",
    FileNotFoundError: OSError @ "builtins",
    PermissionError: OSError @ "builtins",
    FileExistsError: OSError @ "builtins",
    IsADirectoryError: OSError @ "builtins",
    NotADirectoryError: OSError @ "builtins",
    ReferenceError: Exception @ "builtins",
    RuntimeError: Exception @ "builtins",
    NotImplementedError: RuntimeError @ "builtins",
    RecursionError: RuntimeError @ "builtins",
    SyntaxError: Exception @ "builtins",
    IndentationError: SyntaxError @ "builtins",
    TabError: IndentationError @ "builtins",
    SystemError: Exception @ "builtins",
    TypeError: Exception @ "builtins",
    ValueError: Exception @ "builtins",
    UnicodeError: ValueError @ "builtins",
    UnicodeDecodeError: UnicodeError @ "builtins",
    UnicodeEncodeError: UnicodeError @ "builtins",
    Warning: Exception @ "builtins",
    UserWarning: Warning @ "builtins",
    DeprecationWarning: Warning @ "builtins",
    RuntimeWarning: Warning @ "builtins",
    FutureWarning: Warning @ "builtins",
    PendingDeprecationWarning: Warning @ "builtins",
    SyntaxWarning: Warning @ "builtins",
    ImportWarning: Warning @ "builtins",
    UnicodeWarning: Warning @ "builtins",
    BytesWarning: Warning @ "builtins",
    ResourceWarning: Warning @ "builtins",
    EncodingWarning: Warning @ "builtins",
    // torch's own: `torch.OutOfMemoryError` and (2.8+) `torch.AcceleratorError` for every CUDA
    // error, both RuntimeError subclasses, so `except RuntimeError` still catches them.
    OutOfMemoryError: RuntimeError @ "torch",
    AcceleratorError: RuntimeError @ "torch",
    // numpy's, defined when numpy is imported.
    UFuncTypeError: TypeError @ "numpy._core._exceptions",
    AxisError: ValueError @ "numpy.exceptions",
    LinAlgError: ValueError @ "numpy.linalg",
}

impl ExcType {
    /// A builtin the interpreter creates at start (the others belong to a library module and
    /// are created when it is installed).
    pub(crate) fn is_builtin(self) -> bool {
        self.module() == "builtins"
    }

    /// The type named `name` (a builtin's or a library exception's bare name).
    pub fn from_name(name: &str) -> Option<ExcType> {
        ExcType::ALL.iter().copied().find(|t| t.name() == name)
    }

    #[cfg(test)]
    /// True when `self` is `other` or derives from it (`IndexError` is a `LookupError`).
    pub(crate) fn is_subclass_of(self, other: ExcType) -> bool {
        let mut t = Some(self);
        while let Some(c) = t {
            if c == other {
                return true;
            }
            t = c.base();
        }
        false
    }
}

impl std::fmt::Display for ExcType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::ExcType;

    #[test]
    fn every_type_comes_after_its_base() {
        for (i, t) in ExcType::ALL.iter().enumerate() {
            if let Some(b) = t.base() {
                let at = ExcType::ALL.iter().position(|x| *x == b).unwrap();
                assert!(at < i, "{t} is listed before its base {b}");
            }
        }
    }

    #[test]
    fn names_round_trip_and_are_unique() {
        for t in ExcType::ALL {
            assert_eq!(ExcType::from_name(t.name()), Some(*t));
        }
        assert_eq!(ExcType::from_name("NoSuchError"), None);
    }

    #[test]
    fn subclass_follows_cpython_hierarchy() {
        assert!(ExcType::IndexError.is_subclass_of(ExcType::LookupError));
        assert!(ExcType::AcceleratorError.is_subclass_of(ExcType::RuntimeError));
        assert!(ExcType::TimeoutError.is_subclass_of(ExcType::OSError));
        assert!(!ExcType::KeyboardInterrupt.is_subclass_of(ExcType::Exception));
        assert!(!ExcType::ValueError.is_subclass_of(ExcType::TypeError));
    }
}
