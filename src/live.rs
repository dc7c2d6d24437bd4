//! Standard input audited as it arrives (`audit - --format jsonl` as a pipeline's map step).
//! The audit opens its input more than once: to see whether it is text, to tell its format
//! from its first non-blank line, then to judge it. That start is kept and replayed at each
//! opening; what follows is read once, live, by the opening that judges.

use std::cell::RefCell;
use std::io::{self, BufRead, Read};

use crate::transcript;

pub struct Live<'a> {
    head: Vec<u8>,
    rest: RefCell<io::BufReader<&'a mut dyn Read>>,
}

impl<'a> Live<'a> {
    /// Reads `stdin` to the end of its first non-blank line. Gzip is read whole (its lines
    /// are only seen decompressed, and the decoder reads ahead), and so are HAR captures and
    /// Inspector exports (their findings' lines are read again once they are judged).
    pub fn start(stdin: &'a mut dyn Read) -> io::Result<Self> {
        let mut rest = io::BufReader::with_capacity(1 << 16, stdin);
        let mut head = Vec::new();
        loop {
            let start = head.len();
            let read = rest.read_until(b'\n', &mut head)?;
            if read == 0 || !head[start..].iter().all(u8::is_ascii_whitespace) {
                break;
            }
        }
        if head.starts_with(&[0x1f, 0x8b]) || transcript::is_document(&head) {
            rest.read_to_end(&mut head)?;
        }
        Ok(Live {
            head,
            rest: RefCell::new(rest),
        })
    }

    /// The input from its start: the kept head, then what is not read yet.
    pub fn open(&self) -> impl BufRead + '_ {
        io::Cursor::new(&self.head[..]).chain(io::BufReader::new(Rest(&self.rest)))
    }
}

/// The live part, shared by the openings.
struct Rest<'r, 'a>(&'r RefCell<io::BufReader<&'a mut dyn Read>>);

impl Read for Rest<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.borrow_mut().read(buf)
    }
}
