mod error;
mod server;
mod tools;
mod transport;

fn main() {}
