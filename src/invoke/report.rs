//! An invocation in the HTML report (`invoke --report`, and `report` given invoke's CSV): its
//! cells as the report's runs (a solution is an engine, a test a case, a verdict a status),
//! and the invocation's own section, the verdict table with the tag check and the strength
//! report, which the page of runs does not have.
//!
//! Invariant: every text from the invocation is escaped ([`escape`]).

use std::path::Path;

use super::Invocation;
use super::strength::Strength;
use super::table::{self, CSV_HEADER};
use super::tags::TagReport;
use super::verdict::CellVerdict;
use crate::compare::{CaseResult, Results};
use crate::status::Status;
use crate::util::markup::escape_attribute;

/// Why an invoke CSV cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum InvokeCsvError {
    #[error("{path}, line {line}: {why}", path = .path.display())]
    Csv {
        path: std::path::PathBuf,
        line: usize,
        why: String,
    },
    #[error("{path}: {source}", path = .0.display(), source = .1)]
    Read(std::path::PathBuf, std::io::Error),
    #[error(transparent)]
    Other(#[from] crate::compare::CompareError),
}

/// The most bytes read of a file's first line to tell invoke's CSV (its header is far shorter).
const HEADER_BYTES: u64 = 4096;

/// One run for `report` from invoke's CSV (`invoke --csv`, known by its header); `None` for
/// any other file (a results CSV, a JSON export, a baseline folder: the report streams those).
pub fn load(path: &Path) -> Result<Option<Results>, InvokeCsvError> {
    use std::io::{BufRead, Read};
    let header = std::fs::File::open(path)
        .ok()
        .filter(|_| path.is_file())
        .and_then(|file| {
            let mut line = String::new();
            std::io::BufReader::new(file)
                .take(HEADER_BYTES)
                .read_line(&mut line)
                .ok()?;
            Some(line)
        });
    let is_invoke = header.is_some_and(|line| {
        let fields: Vec<&str> = line.trim_end().split(',').collect();
        is_invoke_csv(&fields)
    });
    if !is_invoke {
        return Ok(None);
    }
    let bytes = crate::util::atomic::read_capped(path, crate::util::atomic::RESULTS_FILE_BYTES)
        .map_err(|e| InvokeCsvError::Read(path.to_path_buf(), e))?;
    read_csv(path, &bytes).map(Some)
}

/// The status of the report that says `verdict`: a wrong answer or a presentation error is a
/// mismatch (the message says which), the limits and crashes their own.
pub fn status_of(verdict: CellVerdict) -> Status {
    match verdict {
        CellVerdict::Ok => Status::Ok,
        CellVerdict::WrongAnswer | CellVerdict::PresentationError => Status::Mismatch,
        CellVerdict::Timeout => Status::Timeout,
        CellVerdict::MemoryLimit => Status::MemoryLimit,
        CellVerdict::OutputLimit => Status::OutputLimit,
        CellVerdict::RuntimeError => Status::RuntimeError,
        CellVerdict::Error => Status::Error,
    }
}

/// A cell's message for the report: the verdict's name first when the status does not say it
/// (a presentation error is a mismatch), then the cell's message.
fn message(verdict: CellVerdict, text: &str) -> String {
    match (verdict, text.is_empty()) {
        (CellVerdict::WrongAnswer | CellVerdict::PresentationError, true) => {
            verdict.as_str().to_string()
        }
        (CellVerdict::WrongAnswer | CellVerdict::PresentationError, false) => {
            format!("{verdict}: {text}")
        }
        _ => text.to_string(),
    }
}

/// The invocation's cells as the report's runs: one case per (test, solution), its time the
/// test's (a share of a whole file's run), its file the test's path as the invocation found it.
pub fn results(inv: &Invocation, source: &Path) -> Results {
    let mut cases = Vec::with_capacity(inv.tests.len() * inv.solutions.len());
    for (t, test) in inv.tests.iter().enumerate() {
        for (s, cell) in inv.cells[t].iter().enumerate() {
            cases.push(CaseResult {
                game: inv.game.name().to_string(),
                engine: inv.solutions[s].name.clone(),
                file: inv.files[test.file].path.display().to_string(),
                case: test.case,
                label: String::new(),
                size: String::new(),
                cells: None,
                status: status_of(cell.verdict),
                runs: cell.time_ns.into_iter().collect(),
                message: message(cell.verdict, &cell.message),
            });
        }
    }
    Results {
        source: source.to_path_buf(),
        cases,
        meta: None,
    }
}

/// Whether a CSV's `header` is invoke's ([`CSV_HEADER`]: a `solution` and a `verdict` column,
/// no `engine`).
pub fn is_invoke_csv(header: &[&str]) -> bool {
    header.contains(&"solution") && header.contains(&"verdict") && !header.contains(&"engine")
}

/// Reads an invoke CSV (`bytes`, read from `path`) as the report's runs: one case per line.
pub fn read_csv(path: &Path, bytes: &[u8]) -> Result<Results, InvokeCsvError> {
    let fail = |line: usize, why: String| InvokeCsvError::Csv {
        path: path.to_path_buf(),
        line,
        why,
    };
    let mut reader = csv::Reader::from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| fail(1, e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    let at = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            fail(
                1,
                format!(
                    "no `{name}` column: not an invoke CSV of this version ({})",
                    CSV_HEADER.join(",")
                ),
            )
        })
    };
    let [game, file, case, solution, verdict, time, text] = [
        "game", "file", "case", "solution", "verdict", "time_ms", "message",
    ]
    .map(at);
    let (game, file, case, solution, verdict, time, text) =
        (game?, file?, case?, solution?, verdict?, time?, text?);
    let mut cases = Vec::new();
    for record in reader.records() {
        let record = record
            .map_err(|e| fail(e.position().map_or(0, |p| p.line() as usize), e.to_string()))?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let field = |i: usize| record.get(i).unwrap_or("");
        let verdict_name = field(verdict);
        let cell_verdict = CellVerdict::ALL
            .into_iter()
            .find(|v| v.as_str() == verdict_name)
            .ok_or_else(|| fail(line, format!("unknown verdict {verdict_name:?}")))?;
        let case_number = field(case)
            .parse::<usize>()
            .map_err(|_| fail(line, format!("case {:?} is not a number", field(case))))?;
        let runs = match field(time) {
            "" => Vec::new(),
            ms => {
                let ms = ms
                    .parse::<f64>()
                    .ok()
                    .filter(|m| m.is_finite() && *m >= 0.0)
                    .ok_or_else(|| fail(line, format!("time_ms {ms:?} is not a time")))?;
                vec![(ms * table::NS_PER_MS) as u64]
            }
        };
        cases.push(CaseResult {
            game: field(game).to_string(),
            engine: field(solution).to_string(),
            file: field(file).to_string(),
            case: case_number,
            label: String::new(),
            size: String::new(),
            cells: None,
            status: status_of(cell_verdict),
            runs,
            message: message(cell_verdict, field(text)),
        });
    }
    Ok(Results {
        source: path.to_path_buf(),
        cases,
        meta: None,
    })
}

/// Colours of the verdicts in the section's table (background, as the terminal's).
fn background(verdict: CellVerdict) -> &'static str {
    match verdict {
        CellVerdict::Ok => "#dff0d8",
        CellVerdict::PresentationError => "#fcf8e3",
        _ => "#f2dede",
    }
}

/// The invocation's section of the page: the verdict table (a row per test, a column per
/// solution with its tag, the worst run and its share of the limit), the notes on the times,
/// the tag check and the strength report.
pub fn section(inv: &Invocation, tags: &TagReport, strength: &Strength) -> String {
    let mut out = format!(
        "<h2 id=\"invocation\">Invocation: {} ({} tests, {} solutions)</h2>\n<table>\n<tr><th>test</th>",
        escape_attribute(inv.game.name()),
        inv.tests.len(),
        inv.solutions.len()
    );
    for solution in &inv.solutions {
        let head = match solution.tag {
            Some(tag) => format!("{} ({tag})", solution.name),
            None => solution.name.clone(),
        };
        out.push_str(&format!("<th>{}</th>", escape_attribute(&head)));
    }
    out.push_str("</tr>\n");
    for (t, test) in inv.tests.iter().enumerate() {
        out.push_str(&format!("<tr><td>{}</td>", escape_attribute(&test.name)));
        for (s, cell) in inv.cells[t].iter().enumerate() {
            out.push_str(&format!(
                "<td style=\"background:{}\" title=\"{}\">{}</td>",
                background(cell.verdict),
                escape_attribute(&cell.message),
                escape_attribute(&table::shown_text(inv, t, s))
            ));
        }
        out.push_str("</tr>\n");
    }
    for (label, value) in [
        (
            "worst",
            table::worst_time as fn(&Invocation, usize) -> String,
        ),
        ("of limit", table::worst_share),
    ] {
        out.push_str(&format!("<tr><th>{label}</th>"));
        for s in 0..inv.solutions.len() {
            out.push_str(&format!("<td>{}</td>", escape_attribute(&value(inv, s))));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<ul>\n");
    let lines = table::notes(inv)
        .lines()
        .map(String::from)
        .chain(
            tags.contradictions
                .iter()
                .map(|c| format!("tag contradicted: {}", c.message)),
        )
        .chain(tags.warnings.iter().cloned())
        .chain(
            table::strength_text(inv, strength)
                .lines()
                .map(String::from),
        )
        .collect::<Vec<_>>();
    for line in lines {
        out.push_str(&format!("<li>{}</li>\n", escape_attribute(&line)));
    }
    out.push_str("</ul>\n");
    out
}

/// `page` (the report's HTML) with `section` put before the end of its body (at the end when
/// it has none).
pub fn with_section(mut page: String, section: &str) -> String {
    match page.rfind("<script>").or_else(|| page.rfind("</body>")) {
        Some(at) => page.insert_str(at, section),
        None => page.push_str(section),
    }
    page
}
