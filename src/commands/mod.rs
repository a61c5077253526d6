//! The subcommands' work, kept out of main.rs (which only parses and dispatches).

pub mod explain;
pub mod output;
pub mod run_cmd;
pub mod size;
