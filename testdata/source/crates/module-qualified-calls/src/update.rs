pub fn run() -> anyhow::Result<()> {
    let installed = std::fs::read_to_string("VERSION")?;
    if installed.trim().is_empty() {
        anyhow::bail!("no version installed");
    }
    Ok(())
}
