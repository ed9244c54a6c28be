"""The "Five lines" of docs/python.md and docs/c.md run and print what a user expects."""

import re
import subprocess
import sys

from conftest import ROOT


def five_lines(doc, lang):
    text = (ROOT / "docs" / doc).read_text()
    section = text.split("## Five lines", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(rf"```{lang}\n(.*?)```", section, re.S)
    assert len(blocks) == 1, f"docs/{doc}: one {lang} block under 'Five lines'"
    lines = [l for l in blocks[0].splitlines() if l.strip()]
    assert len(lines) == 5, f"docs/{doc}: the block has {len(lines)} lines"
    return lines


def test_the_python_five_lines_run():
    code = "\n".join(five_lines("python.md", "python"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    games, best, searched = out.stdout.split()
    assert int(games) > 40000 and best == "d3" and len(searched) == 2


def test_the_c_five_lines_compile_and_run(tmp_path, c_lib):
    lines = five_lines("c.md", "c")
    includes = [l for l in lines if l.startswith("#include")]
    body = [l for l in lines if not l.startswith("#include")]
    src = tmp_path / "five.c"
    src.write_text(
        "#include <stdio.h>\n" + "\n".join(includes) + "\nint main(void) {\n" + "\n".join(body)
        + "\nothbook_book_close(book);\nreturn 0;\n}\n"
    )
    exe = tmp_path / "five"
    lib = c_lib.parent
    subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Werror", f"-I{ROOT / 'capi/include'}", str(src), f"-L{lib}", "-lothbook",
         f"-Wl,-rpath,{lib}", "-o", str(exe)],
        check=True,
    )
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, cwd=ROOT)
    assert re.fullmatch(r"\d+ games\n", out.stdout) and int(out.stdout.split()[0]) > 40000
