pub mod handler;
pub mod tools;
