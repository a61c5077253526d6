//! PyTorch's signature grammar (python_arg_parser.cpp's `FunctionParameter` and
//! `FunctionSignature` constructors): `name(Type[N]? name=default, *, ...)|deprecated`.

/// python_arg_parser.cpp's `ParameterType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    Tensor,
    Scalar,
    Int64,
    SymInt,
    Double,
    Complex,
    TensorList,
    IntList,
    SymIntList,
    FloatList,
    Generator,
    Bool,
    Storage,
    PyObject,
    ScalarType,
    Layout,
    MemoryFormat,
    QScheme,
    Device,
    Stream,
    String,
    Dimname,
    DimnameList,
    ScalarList,
    DispatchKeySet,
}

impl ParamType {
    fn from_cpp(s: &str) -> Option<ParamType> {
        use ParamType::*;
        Some(match s {
            "Tensor" => Tensor,
            "Scalar" => Scalar,
            "int64_t" | "DeviceIndex" => Int64,
            "SymInt" => SymInt,
            "double" => Double,
            "complex" => Complex,
            "TensorList"
            | "c10::List<::std::optional<Tensor>>"
            | "c10::List<std::optional<Tensor>>"
            | "c10::List<c10::optional<Tensor>>" => TensorList,
            "IntArrayRef" => IntList,
            "SymIntArrayRef" => SymIntList,
            "ArrayRef<double>" => FloatList,
            "Generator" => Generator,
            "bool" => Bool,
            "Storage" => Storage,
            "PyObject*" => PyObject,
            "ScalarType" => ScalarType,
            "Layout" => Layout,
            "MemoryFormat" => MemoryFormat,
            "QScheme" => QScheme,
            "Device" => Device,
            "Stream" => Stream,
            "std::string" | "c10::string_view" | "std::string_view" => String,
            "Dimname" => Dimname,
            "DimnameList" => DimnameList,
            "ScalarList" => ScalarList,
            "DispatchKeySet" => DispatchKeySet,
            _ => return None,
        })
    }

    /// `FunctionParameter::type_name()`: the words PyTorch's messages use.
    pub fn type_name(self) -> &'static str {
        use ParamType::*;
        match self {
            Tensor => "Tensor",
            Scalar => "Number",
            Int64 | SymInt => "int",
            Double => "float",
            Complex => "complex",
            TensorList => "tuple of Tensors",
            IntList | SymIntList => "tuple of ints",
            FloatList => "tuple of floats",
            Generator => "torch.Generator",
            Bool => "bool",
            Storage => "torch.Storage",
            PyObject => "object",
            ScalarType => "torch.dtype",
            Layout => "torch.layout",
            MemoryFormat => "torch.memory_format",
            QScheme => "torch.qscheme",
            Device => "torch.device",
            Stream => "torch.Stream",
            String => "str",
            Dimname => "name",
            DimnameList => "tuple of names",
            ScalarList => "tuple of Scalars",
            DispatchKeySet => "DispatchKeySet",
        }
    }

    pub(crate) fn is_int_list(self) -> bool {
        matches!(self, ParamType::IntList | ParamType::SymIntList)
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub ty: ParamType,
    pub name: String,
    /// The default's text as the signature spells it (`None`, `1`, `at::Reduction::Mean`).
    pub default: Option<String>,
    pub optional: bool,
    pub allow_none: bool,
    pub keyword_only: bool,
    /// `IntArrayRef[2]`: the 2 (a single int then stands for the whole list).
    pub size: usize,
    /// Functions that let a Python number bind to a Tensor parameter (`add`, `mul`, ...).
    pub allow_numbers_as_tensors: bool,
}

impl Param {
    fn parse(text: &str, keyword_only: bool) -> Result<Param, String> {
        let space = text
            .find(' ')
            .ok_or_else(|| format!("missing type: {text}"))?;
        let mut ty = &text[..space];
        let mut allow_none = false;
        if let Some(q) = ty.find('?') {
            allow_none = true;
            ty = &ty[..q];
        }
        let mut size = 0;
        if let Some(b) = ty.find('[') {
            size = ty[b + 1..ty.len().saturating_sub(1)]
                .parse()
                .map_err(|_| format!("bad size in {text}"))?;
            ty = &ty[..b];
        }
        let ty = ParamType::from_cpp(ty).ok_or_else(|| format!("invalid type string: {ty}"))?;
        let rest = &text[space + 1..];
        let (name, default) = match rest.find('=') {
            Some(eq) => (&rest[..eq], Some(rest[eq + 1..].to_string())),
            None => (rest, None),
        };
        if default.as_deref() == Some("None") {
            allow_none = true;
        }
        Ok(Param {
            ty,
            name: name.to_string(),
            optional: default.is_some(),
            default,
            allow_none,
            keyword_only,
            size,
            allow_numbers_as_tensors: false,
        })
    }

    /// NumPy spellings PyTorch also accepts for a keyword (`axis` for `dim`, ...).
    pub(crate) fn numpy_names(&self) -> &'static [&'static str] {
        match self.name.as_str() {
            "dim" => &["axis"],
            "keepdim" => &["keepdims"],
            "input" => &["x", "a", "x1"],
            "other" => &["x2"],
            _ => &[],
        }
    }
}

/// One overload.
#[derive(Clone, Debug)]
pub struct Signature {
    pub name: String,
    pub params: Vec<Param>,
    pub hidden: bool,
    pub deprecated: bool,
    /// Ours, not PyTorch's: a METH_NOARGS method, which has no parser (CPython's errors).
    pub noargs: bool,
    pub min_args: usize,
    pub max_args: usize,
    pub max_pos_args: usize,
    /// The line of the table, verbatim.
    pub text: String,
}

/// python_arg_parser.cpp's `should_allow_numbers_as_tensors`.
fn allows_numbers_as_tensors(name: &str) -> bool {
    matches!(
        name,
        "add"
            | "add_"
            | "add_out"
            | "div"
            | "div_"
            | "div_out"
            | "divide"
            | "divide_"
            | "divide_out"
            | "mul"
            | "mul_"
            | "mul_out"
            | "multiply"
            | "multiply_"
            | "multiply_out"
            | "sub"
            | "sub_"
            | "sub_out"
            | "subtract"
            | "subtract_"
            | "subtract_out"
            | "true_divide"
            | "true_divide_"
            | "true_divide_out"
            | "to"
            | "_to_copy"
            | "copy_"
            | "floor_divide"
            | "floor_divide_"
            | "floor_divide_out"
    )
}

impl Signature {
    pub fn parse(fmt: &str) -> Result<Signature, String> {
        let open = fmt
            .find('(')
            .ok_or_else(|| format!("missing opening parenthesis: {fmt}"))?;
        let close = fmt
            .rfind(')')
            .ok_or_else(|| format!("missing closing parenthesis: {fmt}"))?;
        let name = fmt[..open].to_string();
        let numbers = allows_numbers_as_tensors(&name);
        let body = &fmt[open + 1..close];
        let mut params = Vec::new();
        let mut keyword_only = false;
        if !body.is_empty() {
            for p in body.split(", ") {
                if p == "*" {
                    keyword_only = true;
                } else {
                    let mut param = Param::parse(p, keyword_only)?;
                    param.allow_numbers_as_tensors = numbers;
                    params.push(param);
                }
            }
        }
        let tail = &fmt[close + 1..];
        let (hidden, deprecated, noargs) = match tail {
            "" => (false, false, false),
            "|deprecated" => (true, true, false),
            "|hidden" => (true, false, false),
            "|noargs" => (false, false, true),
            _ => return Err(format!("bad signature ending: {fmt}")),
        };
        let min_args = params.iter().filter(|p| !p.optional).count();
        let max_pos_args = params.iter().filter(|p| !p.keyword_only).count();
        Ok(Signature {
            name,
            max_args: params.len(),
            params,
            hidden,
            deprecated,
            noargs,
            min_args,
            max_pos_args,
            text: fmt.to_string(),
        })
    }

    /// `FunctionSignature::toString()`: how an overload is listed in an error.
    pub(crate) fn to_display(&self) -> String {
        let mut s = String::from("(");
        let mut keyword_already = false;
        for (i, p) in self.params.iter().enumerate() {
            if i != 0 {
                s.push_str(", ");
            }
            if p.keyword_only && !keyword_already {
                s.push_str("*, ");
                keyword_already = true;
            }
            s.push_str(p.ty.type_name());
            s.push(' ');
            s.push_str(&p.name);
            if let Some(d) = &p.default {
                s.push_str(" = ");
                s.push_str(d);
            }
        }
        s.push(')');
        s
    }

    pub fn position(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }
}
