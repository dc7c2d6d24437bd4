// A file that does not parse is reported, and the other files are still checked.
use rmcp::ErrorData;

pub fn broken() -> Result<(), ErrorData> {
    let x = ;  //~ MCP004@13
    Ok(())
}
