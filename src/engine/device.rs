//! Devices: what a tensor lives on ([`Device`], always with an index for CUDA) and what
//! `torch.device(...)` denotes ([`DeviceSpec`], whose CUDA index may be absent).

use super::error::{EngineError, Result};
use std::fmt;

/// The device a tensor's storage lives on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    Cuda(u32),
    Meta,
}

impl Device {
    pub fn is_cuda(self) -> bool {
        matches!(self, Device::Cuda(_))
    }
    pub(crate) fn cuda_index(self) -> Option<u32> {
        match self {
            Device::Cuda(i) => Some(i),
            _ => None,
        }
    }
    pub fn type_name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Cuda(_) => "cuda",
            Device::Meta => "meta",
        }
    }
    /// The `torch.device` a tensor's `.device` attribute returns (index always present for
    /// CUDA, absent for cpu and meta).
    pub fn spec(self) -> DeviceSpec {
        match self {
            Device::Cpu => DeviceSpec {
                kind: DeviceType::Cpu,
                index: None,
            },
            Device::Cuda(i) => DeviceSpec {
                kind: DeviceType::Cuda,
                index: Some(i),
            },
            Device::Meta => DeviceSpec {
                kind: DeviceType::Meta,
                index: None,
            },
        }
    }
}

impl fmt::Display for Device {
    /// `cpu`, `cuda:0`, `meta`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
            Device::Meta => f.write_str("meta"),
        }
    }
}

/// A device type PyTorch knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceType {
    Cpu,
    Cuda,
    Meta,
    /// A type PyTorch accepts but cudatutor does not run (mps, xla, ...): kept by name.
    Other(&'static str),
}

/// Every device type name PyTorch's parser accepts, in its error message's order.
const DEVICE_TYPES: [&str; 20] = [
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
];

impl DeviceType {
    pub fn name(self) -> &'static str {
        match self {
            DeviceType::Cpu => "cpu",
            DeviceType::Cuda => "cuda",
            DeviceType::Meta => "meta",
            DeviceType::Other(n) => n,
        }
    }
    fn from_name(s: &str) -> Option<DeviceType> {
        let n = DEVICE_TYPES.iter().find(|t| **t == s)?;
        Some(match *n {
            "cpu" => DeviceType::Cpu,
            "cuda" => DeviceType::Cuda,
            "meta" => DeviceType::Meta,
            other => DeviceType::Other(other),
        })
    }
}

/// What `torch.device(...)` holds: a type and an optional index.
/// `torch.device('cuda') != torch.device('cuda:0')`, as in PyTorch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceSpec {
    pub kind: DeviceType,
    pub index: Option<u32>,
}

fn unknown_type(s: &str) -> EngineError {
    EngineError::runtime(format!(
        "Expected one of {} device type at start of device string: {s}",
        DEVICE_TYPES.join(", ")
    ))
}

impl DeviceSpec {
    pub const CPU: DeviceSpec = DeviceSpec {
        kind: DeviceType::Cpu,
        index: None,
    };

    /// Parse a device string exactly as `torch.device(str)` does.
    pub fn parse(s: &str) -> Result<DeviceSpec> {
        let (ty, idx) = match s.split_once(':') {
            Some((t, i)) => (t, Some(i)),
            None => (s, None),
        };
        let valid_ty = !ty.is_empty() && ty.chars().all(|c| c.is_ascii_alphabetic() || c == '_');
        let kind = if valid_ty {
            DeviceType::from_name(ty)
        } else {
            None
        };
        let Some(kind) = kind else {
            if valid_ty || idx.is_none() {
                return Err(unknown_type(s));
            }
            return Err(EngineError::runtime(format!(
                "Invalid device string: '{s}'"
            )));
        };
        let index = match idx {
            None => None,
            Some(i) => {
                let ok = !i.is_empty()
                    && i.chars().all(|c| c.is_ascii_digit())
                    && (i == "0" || !i.starts_with('0'));
                match i.parse::<u32>() {
                    Ok(n) if ok => Some(n),
                    _ => {
                        return Err(EngineError::runtime(format!(
                            "Invalid device string: '{s}'"
                        )));
                    }
                }
            }
        };
        Ok(DeviceSpec { kind, index })
    }

    /// `torch.device('cuda', 1)`.
    pub fn new(ty: &str, index: Option<i64>) -> Result<DeviceSpec> {
        let mut d = DeviceSpec::parse(ty)?;
        if let Some(i) = index {
            if d.index.is_some() {
                return Err(EngineError::runtime(format!(
                    "type (string) must not include an index because index was passed explicitly: {ty}"
                )));
            }
            if i < 0 {
                return Err(EngineError::runtime(
                    "Device index must not be negative".to_string(),
                ));
            }
            d.index = Some(i as u32);
        }
        Ok(d)
    }

    /// `device(type='cuda', index=0)` / `device(type='cpu')`.
    pub fn repr(&self) -> String {
        match self.index {
            Some(i) => format!("device(type='{}', index={i})", self.kind.name()),
            None => format!("device(type='{}')", self.kind.name()),
        }
    }
}

impl fmt::Display for DeviceSpec {
    /// `cuda`, `cuda:0`, `cpu`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}:{i}", self.kind.name()),
            None => f.write_str(self.kind.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parse() {
        assert_eq!(DeviceSpec::parse("cuda").unwrap().index, None);
        assert_eq!(DeviceSpec::parse("cuda:1").unwrap().index, Some(1));
        assert_eq!(
            DeviceSpec::parse("cuda:x").unwrap_err().message,
            "Invalid device string: 'cuda:x'"
        );
        assert!(
            DeviceSpec::parse("gpu")
                .unwrap_err()
                .message
                .starts_with("Expected one of cpu, cuda, ipu")
        );
        assert_ne!(
            DeviceSpec::parse("cuda").unwrap(),
            DeviceSpec::parse("cuda:0").unwrap()
        );
        assert_eq!(
            DeviceSpec::parse("cuda:0").unwrap().repr(),
            "device(type='cuda', index=0)"
        );
    }
}
