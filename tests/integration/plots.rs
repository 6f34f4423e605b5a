//! The SVG plots read back as XML (quick-xml): `run --plot` and `--plot-scaling`, `sweep
//! --plot`. Each is one well-formed `<svg>` document whose texts hold its title, both axes'
//! names with their log scale, a label per engine (an engine's name escaped, whatever it holds)
//! and a mark per point.

use crate::common;
use common::{assert_exit, run, s, yut_samples};
use quick_xml::events::Event;

/// What a plot holds: the names of its elements in document order and the text of each
/// `<text>` element (unescaped); panics unless it is one closed `<svg>` element.
struct Plot {
    elements: Vec<String>,
    texts: Vec<String>,
}

impl Plot {
    fn read(xml: &str) -> Plot {
        let mut reader = quick_xml::Reader::from_str(xml);
        let (mut elements, mut texts, mut open) = (Vec::new(), Vec::new(), Vec::<String>::new());
        let name =
            |e: &quick_xml::events::BytesStart<'_>| AsRef::<str>::as_ref(&e.name()).to_string();
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(e) => {
                    assert!(!open.is_empty() || name(&e) == "svg" && elements.is_empty());
                    elements.push(name(&e));
                    open.push(name(&e));
                    if name(&e) == "text" {
                        texts.push(String::new());
                    }
                }
                Event::Empty(e) => {
                    assert!(!open.is_empty(), "an element outside <svg>");
                    elements.push(name(&e));
                }
                Event::Text(t) if open.last().map(String::as_str) == Some("text") => {
                    let t = t.xml_content(quick_xml::XmlVersion::Implicit1_0);
                    texts.last_mut().unwrap().push_str(&t);
                }
                Event::GeneralRef(r) if open.last().map(String::as_str) == Some("text") => {
                    let entity = format!("&{};", AsRef::<str>::as_ref(&*r));
                    let c = quick_xml::escape::unescape(&entity).expect("a known entity");
                    texts.last_mut().unwrap().push_str(&c);
                }
                Event::End(_) => {
                    open.pop().expect("a closing tag that was opened");
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert!(open.is_empty(), "unclosed: {open:?}");
        assert_eq!(elements.first().map(String::as_str), Some("svg"));
        Plot { elements, texts }
    }

    fn count(&self, element: &str) -> usize {
        self.elements.iter().filter(|e| *e == element).count()
    }

    fn has_text(&self, text: &str) -> bool {
        self.texts.iter().any(|t| t == text)
    }
}

#[test]
fn run_plots_parse_as_xml_with_their_axes_and_every_engine() {
    let dir = yut_samples();
    let (boxes, scaling) = (dir.path().join("b.svg"), dir.path().join("s.svg"));
    // An engine named with every character markup reserves: its label must come back as is.
    let program = format!("a<&>\"'b=cmd:{} solve yut", env!("CARGO_BIN_EXE_gamebench"));
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "all",
        "-e",
        &program,
        "-q",
        "--plot",
        s(&boxes),
        "--plot-scaling",
        s(&scaling),
    ]);
    assert_exit(&out, 0);
    let internal = ["yut/table"];
    let external = "yut/a<&>\"'b (file time / cases)";

    let plot = Plot::read(&std::fs::read_to_string(&boxes).unwrap());
    assert!(
        plot.has_text("time per case (log scale)"),
        "{:?}",
        plot.texts
    );
    for engine in internal.iter().chain([&external]) {
        assert!(plot.has_text(engine), "no label {engine}: {:?}", plot.texts);
    }
    // One box per engine (the background and the legend-free plot hold no other rect).
    let engines = plot.texts.iter().filter(|t| t.starts_with("yut/")).count();
    assert_eq!(plot.count("rect"), 1 + engines, "{:?}", plot.elements);

    let plot = Plot::read(&std::fs::read_to_string(&scaling).unwrap());
    for text in [
        "time per case against size (log-log)",
        "size (cells, turns or selections) (log scale)",
        "time per case (log scale)",
    ] {
        assert!(plot.has_text(text), "no {text:?}: {:?}", plot.texts);
    }
    for engine in internal.iter().chain([&external]) {
        assert!(
            plot.has_text(engine),
            "no legend {engine}: {:?}",
            plot.texts
        );
    }
    // Two cases a engine, each a point, and a disc per engine in the legend.
    assert_eq!(plot.count("circle"), 3 * engines, "{:?}", plot.elements);
}

#[test]
fn the_sweep_plot_parses_as_xml_with_a_line_per_engine() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("s.svg");
    let out = run(&[
        "sweep",
        "linkpop",
        "--size",
        "4x4..8x8:4",
        "--count",
        "1",
        "-e",
        "all",
        "--plot",
        s(&svg),
        "-j",
        "2",
    ]);
    assert_exit(&out, 0);
    let plot = Plot::read(&std::fs::read_to_string(&svg).unwrap());
    assert!(
        plot.has_text("time per case (log scale)"),
        "{:?}",
        plot.texts
    );
    let engines: Vec<&String> = plot
        .texts
        .iter()
        .filter(|t| t.contains(" (~ cells^"))
        .collect();
    assert!(
        engines.iter().any(|t| t.starts_with("bitboard (~ cells^")),
        "{:?}",
        plot.texts
    );
    // The axes' two lines are one polyline; each engine's line another.
    assert_eq!(
        plot.count("polyline"),
        1 + engines.len(),
        "{:?}",
        plot.elements
    );
    // Two sizes: two points a line, and a disc per engine in the legend.
    assert_eq!(
        plot.count("circle"),
        3 * engines.len(),
        "{:?}",
        plot.elements
    );
}
