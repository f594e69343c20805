"""The package installs with pip into a virtual environment, as the README says, and imports
there from outside the source tree."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_pip_installs_the_package_into_a_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=120)
    python = str(venv / "bin" / "python")
    # Debian's numpy, setuptools and wheel are in the system site; nothing is downloaded.
    install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                              "--no-index", "--quiet", ROOT], capture_output=True, text=True,
                             timeout=600)
    assert install.returncode == 0, install.stdout + install.stderr
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    check = subprocess.run(
        [python, "-c", "import quixo, quixo.engine, quixo.pgn, quixo.env, os; "
         "print(quixo.Board().perft(3), os.path.dirname(quixo.__file__))"],
        capture_output=True, text=True, cwd=str(tmp_path), env=environment, timeout=60)
    assert check.returncode == 0, check.stderr
    leaves, location = check.stdout.split()
    assert leaves == "76596"
    assert location.startswith(str(venv))
    assert os.path.exists(os.path.join(location, "py.typed"))
    assert os.path.exists(os.path.join(location, "_quixo.pyi"))
