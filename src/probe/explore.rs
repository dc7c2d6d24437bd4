//! `probe --explore`: calls tools with the arguments [`boundary`] generates from their
//! inputSchema, so that tool failures and output schemas are probed without `--call`. Tools
//! have side effects: only those annotated `readOnlyHint: true` and not `destructiveHint`
//! are called, as `--allow-tool` and `--skip-tool` amend. Every call is checked against the
//! schema before it is sent. The tools take turns, a call each, so that `--max-calls` and
//! `--max-time` leave none unexplored while others are called again. A call answered with a
//! protocol error is shrunk ([`shrink`]) to the smallest arguments that still get that error,
//! which the report names; the failing calls it stands for are not reported again.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use jsonschema::{PatternOptions, Validator};
use serde_json::{Value, json};

use super::{Answer, Clause, Probe, Session, Tool, boundary, call_clause, shrink};
use crate::finding::{FileReport, Finding};
use crate::text::shorten;

/// How far exploring goes, and which tools it calls besides the read-only ones.
pub struct Options {
    pub allow: Vec<String>,
    pub skip: Vec<String>,
    pub max_calls: usize,
    pub max_time: Duration,
}

/// What exploring did, for the report.
#[derive(Default)]
pub struct Explored {
    /// How many tools were called.
    tools: usize,
    /// Each call sent: its id and arguments.
    calls: Vec<(i64, Value)>,
    shrunk: Vec<Shrunk>,
}

/// A failure shrunk: the call with the smallest arguments found, the arguments that first
/// failed, and the other failing calls of the chain, which it stands for.
struct Shrunk {
    id: i64,
    from: Value,
    superseded: Vec<i64>,
}

/// One tool being explored: the arguments still to send, and those sent.
struct Explorer<'t> {
    tool: &'t Tool,
    validator: Validator,
    next: VecDeque<Value>,
    sent: Vec<Value>,
}

/// What is left to spend, of the limits `options` set.
struct Budget<'o> {
    options: &'o Options,
    calls: usize,
    deadline: Instant,
    /// Whether it ran out, which is said once.
    spent: bool,
}

/// The longest arguments a message shows, and the longest string shown whole in them.
const SHOWN: usize = 200;
const LONG_STRING: usize = 32;

impl Explored {
    /// The number of calls and tools, as a clause's row says it.
    pub fn summary(&self) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let (calls, tools) = (self.calls.len(), self.tools);
        format!(
            "--explore: {calls} call{} of {tools} tool{}",
            plural(calls),
            plural(tools)
        )
    }

    /// Why `clause` (tool failure or output validation) went unprobed though exploring ran.
    pub fn unprobed(&self, clause: Clause) -> String {
        if self.tools == 0 {
            return "--explore: no tool is annotated readOnlyHint: true (and not destructiveHint); --allow-tool NAME calls one".to_string();
        }
        let summary = self.summary();
        match clause {
            Clause::ToolFailure => format!("{summary}, and no call failed"),
            _ => format!("{summary}, and no call of a tool with an outputSchema succeeded"),
        }
    }

    /// Names the arguments of each finding on an explored call, and folds each chain of
    /// failing calls that shrinking sent into the finding on its smallest.
    pub fn restate(&self, file: &mut FileReport) {
        let id_of = |f: &Finding| f.request_id.as_ref().and_then(Value::as_i64);
        for shrunk in &self.shrunk {
            let rules: Vec<&str> = file
                .findings
                .iter()
                .filter(|f| id_of(f) == Some(shrunk.id))
                .map(|f| f.rule.code)
                .collect();
            file.findings.retain(|f| {
                !id_of(f).is_some_and(|id| shrunk.superseded.contains(&id))
                    || !rules.contains(&f.rule.code)
            });
        }
        for finding in &mut file.findings {
            let Some(id) = id_of(finding) else { continue };
            let Some((_, args)) = self.calls.iter().find(|(call, _)| *call == id) else {
                continue;
            };
            let mut said = format!("; --explore sent {}", shown(args));
            if let Some(shrunk) = self.shrunk.iter().find(|s| s.id == id && s.from != *args) {
                let failing = shrunk.superseded.len() + 1;
                said += &format!(
                    ", shrunk from {} ({failing} failing calls)",
                    shown(&shrunk.from)
                );
            }
            finding.message += &said;
        }
    }
}

/// `args` as compact JSON, a long string cut to its start and length.
fn shown(args: &Value) -> String {
    fn cut(value: &mut Value) {
        match value {
            Value::String(text) if text.chars().count() > LONG_STRING => {
                let start: String = text.chars().take(LONG_STRING / 2).collect();
                *text = format!("{start}…({} chars)", text.chars().count());
            }
            Value::Array(items) => items.iter_mut().for_each(cut),
            Value::Object(members) => members.values_mut().for_each(cut),
            _ => {}
        }
    }
    let mut args = args.clone();
    cut(&mut args);
    shorten(&args.to_string(), SHOWN)
}

/// Explores the tools of the listing that `options` lets be called.
pub fn explore(session: &mut Session, tools: &[Tool], options: &Options) -> Explored {
    for name in options.allow.iter().chain(&options.skip) {
        if !tools.iter().any(|t| &t.name == name) {
            session
                .notes
                .push(format!("--explore: no tool named `{name}` is listed"));
        }
    }
    let mut explorers = Vec::new();
    for tool in tools {
        let wanted = tool.read_only || options.allow.contains(&tool.name);
        if !wanted || options.skip.contains(&tool.name) {
            continue;
        }
        match explorer(tool) {
            Ok(explorer) => explorers.push(explorer),
            Err(why) => session
                .notes
                .push(format!("--explore: `{}` is not called: {why}", tool.name)),
        }
    }
    let mut explored = Explored {
        tools: explorers.len(),
        ..Explored::default()
    };
    let mut budget = Budget {
        options,
        calls: options.max_calls,
        deadline: Instant::now() + options.max_time,
        spent: false,
    };
    'turns: while explorers.iter().any(|e| !e.next.is_empty()) {
        for explorer in &mut explorers {
            let Some(args) = explorer.next.pop_front() else {
                continue;
            };
            if !budget.spend(session) {
                break 'turns;
            }
            match explorer.call(session, args.clone(), &mut explored) {
                (id, Answer::Error(error)) => {
                    explorer.shrink(session, (id, args), &error, &mut budget, &mut explored);
                    explorer.next.clear();
                }
                // What the tool did is known: its turn is over.
                (_, Answer::None | Answer::Unread) => explorer.next.clear(),
                _ => {}
            }
            if session.gone.is_some() {
                break 'turns;
            }
        }
    }
    explored
}

/// The explorer of `tool`, with the generated arguments its inputSchema accepts (formats
/// checked too: a date that is no date is not sent); why there is none.
fn explorer(tool: &Tool) -> Result<Explorer<'_>, String> {
    let validator = jsonschema::options()
        .with_pattern_options(PatternOptions::regex())
        .should_validate_formats(true)
        .build(&tool.input_schema)
        .map_err(|e| format!("its inputSchema is no schema a call can be checked against ({e})"))?;
    let next: VecDeque<Value> = boundary::arguments(&tool.input_schema)?
        .into_iter()
        .filter(|args| validator.is_valid(args))
        .collect();
    if next.is_empty() {
        return Err("none of the arguments generated from its inputSchema is valid".to_string());
    }
    Ok(Explorer {
        tool,
        validator,
        next,
        sent: Vec::new(),
    })
}

impl Budget<'_> {
    /// Takes one call from the budget; false, said once, when none is left. The first call
    /// is always made: the time counts from it.
    fn spend(&mut self, session: &mut Session) -> bool {
        let options = self.options;
        let first = self.calls == options.max_calls;
        let why = if self.calls == 0 {
            format!("--max-calls {}", options.max_calls)
        } else if !first && Instant::now() >= self.deadline {
            format!("--max-time {}", options.max_time.as_secs_f64())
        } else {
            self.calls -= 1;
            return true;
        };
        if !std::mem::replace(&mut self.spent, true) {
            session.notes.push(format!(
                "--explore: stopped at {why}; what was sent is judged"
            ));
        }
        false
    }
}

impl Explorer<'_> {
    /// Calls the tool with `args`, records the probe, and gives the answer.
    fn call(
        &mut self,
        session: &mut Session,
        args: Value,
        explored: &mut Explored,
    ) -> (i64, Answer) {
        let params = json!({"name": self.tool.name, "arguments": args});
        let (id, answer) = session.request("tools/call", Some(params));
        if answer == Answer::None {
            session.still_there(&[id]);
        }
        explored.calls.push((id, args.clone()));
        self.sent.push(args);
        let clause = call_clause(self.tool, &answer);
        session.probes.push(Probe {
            clause,
            id,
            answer: answer.clone(),
        });
        (id, answer)
    }

    /// Shrinks the failing call `first` (id, arguments), answered with `error`: the first
    /// smaller candidate that the schema allows and that gets an error of the same code is
    /// taken, and shrunk in turn, until none does.
    fn shrink(
        &mut self,
        session: &mut Session,
        first: (i64, Value),
        error: &Value,
        budget: &mut Budget,
        explored: &mut Explored,
    ) {
        let code = error.get("code");
        let (mut id, mut smallest) = first;
        let from = smallest.clone();
        let mut superseded = Vec::new();
        'steps: loop {
            let current = smallest.clone();
            for candidate in shrink::smaller(&current) {
                if self.sent.contains(&candidate) || !self.validator.is_valid(&candidate) {
                    continue;
                }
                if !budget.spend(session) {
                    break 'steps;
                }
                match self.call(session, candidate.clone(), explored) {
                    (next, Answer::Error(e)) if e.get("code") == code => {
                        superseded.push(std::mem::replace(&mut id, next));
                        smallest = candidate;
                        continue 'steps;
                    }
                    (_, Answer::None | Answer::NotSent | Answer::Unread) => break 'steps,
                    _ => {}
                }
            }
            break;
        }
        explored.shrunk.push(Shrunk {
            id,
            from,
            superseded,
        });
    }
}
