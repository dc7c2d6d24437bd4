//! The fixture crate: mcp-lint reads the modules; tests/fix-compiles.sh builds them fixed.
#![allow(dead_code)] // nothing runs the servers: they are only built
pub mod callee;
pub mod no_fix;
pub mod server;
