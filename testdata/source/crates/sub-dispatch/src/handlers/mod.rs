pub mod create;
pub mod notes;
pub mod tools;
pub mod validation;
