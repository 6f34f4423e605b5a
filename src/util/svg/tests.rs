//! Tests of the SVG document and its charts.

use super::*;

#[test]
fn numbers_are_written_to_a_tenth_without_a_trailing_zero() {
    assert_eq!(num(62.0).to_string(), "62");
    assert_eq!(num(62.34).to_string(), "62.3");
    assert_eq!(num(-0.01).to_string(), "0");
    assert_eq!(num(f64::NAN).to_string(), "0");
    assert_eq!(num(0.05).to_string(), "0.1");
}

#[test]
fn every_text_and_attribute_is_escaped() {
    let mut svg = Svg::new(10.0, 10.0, "a\"b", Paint::fill("#fff"));
    svg.title("<t>");
    svg.text((1.0, 2.0), Font::new(9.0, Anchor::Middle), "a&b");
    svg.rect((0.0, 0.0), (1.0, 1.0), Paint::fill("#000"), Some("1 < 2"));
    let out = svg.finish();
    assert!(out.contains("class=\"a&quot;b\""), "{out}");
    assert!(out.contains("<title>&lt;t&gt;</title>"), "{out}");
    assert!(out.contains(">a&amp;b</text>"), "{out}");
    assert!(out.contains("<title>1 &lt; 2</title></rect>"), "{out}");
    assert!(out.starts_with("<svg") && out.ends_with("</svg>"));
}

/// Reads `xml` with quick-xml to its end: the texts of its `<text>` elements, unescaped
/// (panics on malformed XML or an unclosed element).
fn texts_of(xml: &str) -> Vec<String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut texts, mut depth, mut in_text) = (Vec::new(), 0usize, false);
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                depth += 1;
                in_text = AsRef::<str>::as_ref(&e.name()) == "text";
                if in_text {
                    texts.push(String::new());
                }
            }
            Event::Text(t) if in_text => {
                let t = t.xml_content(quick_xml::XmlVersion::Implicit1_0);
                texts.last_mut().unwrap().push_str(&t);
            }
            Event::GeneralRef(r) if in_text => {
                let entity = format!("&{};", AsRef::<str>::as_ref(&*r));
                let c = quick_xml::escape::unescape(&entity).expect("a known entity");
                texts.last_mut().unwrap().push_str(&c);
            }
            Event::End(_) => {
                depth = depth.checked_sub(1).expect("a closing tag that was opened");
                in_text = false;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    texts
}

#[test]
fn a_chart_parses_as_xml_with_its_caption_axes_and_legend() {
    let layout = Layout {
        width: 200.0,
        height: 100.0,
        left: 50.0,
        right: 10.0,
        top: 20.0,
        bottom: 30.0,
        font: 10.0,
        caption: 12.0,
    };
    let x = Scale::ticked(
        Axis::new(1.0, 1e6, false),
        false,
        |v| v.to_string(),
        "x <a>",
    );
    let y = Scale::ticked(Axis::new(0.0, 4.0, true), true, |v| v.to_string(), "y & b");
    let mut chart = Chart::new(layout, "c", "t \"q\" 'r'", &x, &y.with_grid());
    let at = chart.at(10.0, 2.0);
    chart.svg().circle(at, 2.0, Paint::fill(colour(0)));
    chart.legend(&[("<one>", colour(0)), ("two & three", colour(1))]);
    let texts = texts_of(&chart.finish());
    for t in [
        "t \"q\" 'r'",
        "x <a>",
        "y & b",
        "<one>",
        "two & three",
        "1",
        "1000000",
    ] {
        assert!(texts.iter().any(|s| s == t), "no text {t:?} in {texts:?}");
    }
}

#[test]
fn small_ranges_of_whole_numbers_get_a_linear_axis_with_whole_ticks() {
    let axis = Axis::new(3.0, 12.0, true);
    assert!(!axis.log);
    assert_eq!(axis.ticks(true), vec![4.0, 6.0, 8.0, 10.0, 12.0]);
    // 1 to 5: a tick per whole number, none at 0.5.
    assert_eq!(
        Axis::new(1.0, 5.0, true).ticks(true),
        vec![1.0, 2.0, 3.0, 4.0, 5.0]
    );
}

#[test]
fn wide_ranges_get_a_log_axis_ticked_at_powers_of_ten() {
    let axis = Axis::new(1_000.0, 2e9, false);
    assert!(axis.log);
    assert_eq!(axis.ticks(false), vec![1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
    // Less than two decades: 2 and 5 times the powers of ten too.
    let axis = Axis::new(30.0, 1_000.0, false);
    assert!(axis.log);
    assert_eq!(axis.ticks(false), vec![50.0, 100.0, 200.0, 500.0, 1_000.0]);
    assert_eq!(axis.map(30.0), 0.0);
    assert_eq!(axis.map(1_000.0), 1.0);
}

#[test]
fn a_narrow_log_axis_still_gets_two_ticks_or_more() {
    // 1.3 to 1.8: no power of ten nor 2 or 5 times one inside; linear steps instead.
    let axis = Axis::logarithmic(1.3, 1.8);
    assert!(axis.log);
    let ticks = axis.ticks(false);
    assert!(ticks.len() >= 2, "{ticks:?}");
    assert!(ticks.iter().all(|t| (1.3..=1.8).contains(t)), "{ticks:?}");
}

#[test]
fn a_single_value_gets_an_axis_around_it() {
    let axis = Axis::new(7.0, 7.0, true);
    assert!(axis.map(7.0) > 0.0 && axis.map(7.0) < 1.0);
    assert!(!axis.ticks(true).is_empty());
    let axis = Axis::logarithmic(5.0, 5.0);
    assert!(axis.map(5.0) > 0.0 && axis.map(5.0) < 1.0);
}
