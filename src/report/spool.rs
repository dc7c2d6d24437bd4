//! Output held back until the run's counts are known (`markdown` and `junit` put them
//! before the findings): in memory up to [`IN_MEMORY_BYTES`], then in a temporary file, so
//! memory stays flat whatever the number of findings.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Small enough that the few spools a report holds at once (one per rule of a file, in
/// `junit`) stay small together.
const IN_MEMORY_BYTES: usize = 1 << 20;

#[derive(Default)]
pub struct Spool {
    memory: Vec<u8>,
    file: Option<Spilled>,
}

/// The temporary file a spool spilled to. On Unix it is unlinked as soon as it is open;
/// elsewhere it is removed when dropped.
struct Spilled {
    writer: BufWriter<File>,
    path: Option<PathBuf>,
}

impl Spool {
    pub fn is_empty(&self) -> bool {
        self.memory.is_empty() && self.file.is_none()
    }

    /// Writes what was spooled to `out`, in order, and empties the spool.
    pub fn drain_to(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(mut spilled) = self.file.take() {
            spilled.writer.flush()?;
            let file = spilled.writer.get_mut();
            file.rewind()?;
            io::copy(file, out)?;
        }
        out.write_all(&self.memory)?;
        self.memory.clear();
        Ok(())
    }
}

impl Write for Spool {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Some(spilled) = &mut self.file {
            return spilled.writer.write(bytes);
        }
        self.memory.extend_from_slice(bytes);
        if self.memory.len() > IN_MEMORY_BYTES {
            let mut spilled = Spilled::create()?;
            spilled.writer.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(spilled);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Spilled {
    /// A new file in the temporary directory, named by the process and a counter; never one
    /// that exists already (`create_new`), so no other file or link is written through.
    fn create() -> io::Result<Self> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = format!("mcp-lint-{}-{n}.spool", std::process::id());
            let path = std::env::temp_dir().join(name);
            let file = match File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                file => file?,
            };
            let path = match cfg!(unix) && fs::remove_file(&path).is_ok() {
                true => None,
                false => Some(path),
            };
            let writer = BufWriter::with_capacity(1 << 16, file);
            return Ok(Spilled { writer, path });
        }
    }
}

impl Drop for Spilled {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_back_what_was_written_in_order_past_the_memory_limit() {
        let mut spool = Spool::default();
        assert!(spool.is_empty());
        let mut expected = Vec::new();
        for i in 0..(3 * IN_MEMORY_BYTES / 1000) {
            let row = format!("{i:0999}\n");
            spool.write_all(row.as_bytes()).unwrap();
            expected.extend_from_slice(row.as_bytes());
        }
        assert!(spool.file.is_some(), "spilled to a file");
        let mut out = Vec::new();
        spool.drain_to(&mut out).unwrap();
        assert_eq!(out, expected);
        assert!(spool.is_empty());
    }
}
