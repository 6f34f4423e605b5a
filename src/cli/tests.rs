use super::*;

#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
struct Shown {
    path: String,
    source: std::io::Error,
}

#[test]
fn a_cause_already_in_the_message_is_not_repeated() {
    let io = std::io::Error::from(std::io::ErrorKind::NotFound);
    let said = io.to_string();
    let error = anyhow::Error::new(Shown {
        path: "/x".into(),
        source: io,
    })
    .context("cannot run");
    assert_eq!(error_text(&error), format!("cannot run: /x: {said}"));
    let plain = anyhow::anyhow!("root").context("outer");
    assert_eq!(error_text(&plain), "outer: root");
}
