// A file that does not even split into tokens is reported, though nothing in it is about
// MCP: rustc stops here too ("mismatched closing delimiter").
pub fn main() {
    let v = vec![1, 2, 3;
} //~ MCP004@1
