"""test_readme.py -- the example in python/README.md runs as written."""

import os
import re

from conftest import HERE


def test_readme_example_runs(daemon, monkeypatch, capsys):
    with open(os.path.join(os.path.dirname(HERE), "README.md")) as f:
        code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    monkeypatch.setenv("SUDOKUD_SOCKET", daemon.sock)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and out[-1].startswith("bad_puzzle ")
