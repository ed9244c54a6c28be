//! The README cannot go stale: its two set-up commands are the ones `.ci/run` checks, and
//! every command of its quick tour runs and prints exactly the output the README shows.

mod common;

use std::path::{Path, PathBuf};

/// A fenced block of the README: its language tag and its lines.
struct Block {
    lang: String,
    text: String,
}

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of `text`, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for line in text.lines() {
        match (open.take(), line.strip_prefix("```")) {
            (None, Some(lang)) => {
                open = Some(Block {
                    lang: lang.trim().to_owned(),
                    text: String::new(),
                })
            }
            (Some(b), Some(_)) => out.push(b),
            (Some(mut b), None) => {
                b.text.push_str(line);
                b.text.push('\n');
                open = Some(b);
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "README.md: a fenced block is not closed");
    out
}

/// The part of the README under the heading `## title`, up to the next `## ` heading.
fn section<'a>(text: &'a str, title: &str) -> &'a str {
    let head = format!("\n## {title}\n");
    let start = text
        .find(&head)
        .unwrap_or_else(|| panic!("README.md has no section '## {title}'"))
        + head.len();
    let rest = &text[start..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

/// A command line split into words as a shell would for the quoting the README uses
/// (single and double quotes, no expansion); a trailing `# comment` is dropped.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line:?}");
    out.extend(word);
    out
}

/// One quick-tour step: a command, and the output the README shows for it, if any.
struct Step {
    args: Vec<String>,
    shown: Option<String>,
}

/// The quick tour's commands in order: every line of its `sh` blocks, each `text` block
/// right after an `sh` block being the output of that block's last command.
fn tour() -> Vec<Step> {
    let text = readme();
    let mut steps: Vec<Step> = Vec::new();
    let mut last_lang = String::new();
    for b in blocks(section(&text, "Quick tour")) {
        match b.lang.as_str() {
            "sh" => {
                for line in b.text.lines().filter(|l| !l.trim().is_empty()) {
                    let w = words(line);
                    assert_eq!(
                        w.first().map(String::as_str),
                        Some("othbook"),
                        "a quick-tour command must run othbook: {line}"
                    );
                    steps.push(Step {
                        args: w[1..].to_vec(),
                        shown: None,
                    });
                }
            }
            "text" => {
                assert_eq!(
                    last_lang, "sh",
                    "an output block must follow a command block"
                );
                let step = steps.last_mut().expect("output before any command");
                step.shown = Some(b.text);
            }
            // Run by .ci/bindings (python/tests/test_docs.py) as the docs' copies, which
            // `the_quick_tours_python_and_c_are_the_docs_five_lines` checks they are.
            "python" | "c" => {}
            other => panic!("unexpected block '{other}' in the quick tour"),
        }
        last_lang = b.lang;
    }
    steps
}

/// A folder laid out as a clone is: `books/` of this crate, and `../shared` beside it, so that
/// the tour's relative paths mean what they mean for a user, and what it writes stays there.
fn clone_like(root: &Path) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("clone");
    std::fs::create_dir_all(&work).unwrap();
    std::os::unix::fs::symlink(crate_dir.join("books"), work.join("books")).unwrap();
    std::os::unix::fs::symlink(crate_dir.join("../shared"), root.join("shared")).unwrap();
    work
}

#[test]
fn the_readme_starts_with_the_two_commands_and_ci_runs_the_second() {
    let text = readme();
    let first = blocks(&text)
        .into_iter()
        .next()
        .expect("README.md has no block");
    assert_eq!(
        first.text,
        "cargo run --release -- explore f5\ncargo test --release\n"
    );
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --release"),
        ".ci/run must call exactly the README's test command"
    );
}

#[test]
fn every_quick_tour_command_runs_and_prints_what_the_readme_shows() {
    let steps = tour();
    assert!(steps.len() >= 8, "the quick tour lost its commands");
    assert!(
        steps.iter().filter(|s| s.shown.is_some()).count() >= 3,
        "the quick tour shows too few outputs to check"
    );
    common::need("../shared/data/ffo/ffo.obf");
    let root = tempfile::tempdir_in(common::scratch_dir("readme")).unwrap();
    let work = clone_like(root.path());
    for step in &steps {
        let out = common::othbook_process()
            .current_dir(&work)
            .args(&step.args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "othbook {}: {}\n{stdout}\n{}",
            step.args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(shown) = &step.shown {
            assert_eq!(
                &stdout,
                shown,
                "othbook {}: the README shows another output",
                step.args.join(" ")
            );
        }
    }
}

#[test]
fn the_readme_parser_reads_quotes_comments_and_output_blocks() {
    assert_eq!(
        words(r#"othbook explore --position "a b" 'c'  # note"#),
        ["othbook", "explore", "--position", "a b", "c"]
    );
    let b = blocks("x\n```sh\nothbook a\n```\n\n```text\nout\n```\n");
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[0].lang.as_str(), b[0].text.as_str()),
        ("sh", "othbook a\n")
    );
    assert_eq!((b[1].lang.as_str(), b[1].text.as_str()), ("text", "out\n"));
}

#[test]
fn the_quick_tours_python_and_c_are_the_docs_five_lines() {
    let text = readme();
    let tour = blocks(section(&text, "Quick tour"));
    for (lang, doc) in [("python", "docs/python.md"), ("c", "docs/c.md")] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
        let doc_text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let five: Vec<String> = blocks(section(&doc_text, "Five lines"))
            .into_iter()
            .filter(|b| b.lang == lang)
            .map(|b| b.text)
            .collect();
        let shown: Vec<String> = tour
            .iter()
            .filter(|b| b.lang == lang)
            .map(|b| b.text.clone())
            .collect();
        assert_eq!(five.len(), 1, "{doc}: one {lang} block under Five lines");
        assert_eq!(
            shown, five,
            "README's {lang} block is not {doc}'s five lines"
        );
    }
}
