//! The fixture crate: mcp-lint reads the modules; tests/fix-compiles.sh builds them fixed.
#![allow(dead_code)] // nothing constructs the servers: they are only built
pub mod delegate;
pub mod handler;
pub mod tools;
