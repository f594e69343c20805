"""The static site's server for its suites: python3 -m http.server on a free loopback port, as a
person serves build/web/, with no process of the project."""
import re
import subprocess
import sys
import threading


def start_static_server(folder):
    """The server of `folder` and its URL (with a trailing slash)."""
    process = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1",
                                "--directory", folder, "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"port (\d+)", line)
    if not match:
        process.kill()
        raise RuntimeError("http.server said: " + line)
    # http.server logs every request. Unread, its pipe fills after about 900 of them and the
    # server blocks in the middle of a response, so a suite's late test waited on a fetch that
    # never ended (CI, 2026-12-02). A thread reads the log to its end and drops it.
    threading.Thread(target=_drain, args=(process.stdout,), daemon=True).start()
    return process, "http://127.0.0.1:%s/" % match.group(1)


def _drain(pipe):
    with pipe:
        for _ in pipe:
            pass


def stop_static_server(process):
    process.kill()
    process.wait()
