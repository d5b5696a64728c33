"""CPython's answers for the differential fuzz targets (fuzz/python_oracle.hpp starts it once).

Requests on stdin: a kind byte, an 8-byte little-endian length, the payload. Answers on stdout:
an 8-byte length and a JSON object.
  t: the payload as pyproject.toml text, read by tomllib:
     {"valid": true, "tracelint": <[tool.tracelint] or null>} or {"valid": false}
  p: the payload as a Python module; its f(1) is called:
     {"printed": [lines], "raised": <the uncaught exception's class name or null>,
      "timeout": bool}
"""
import contextlib
import datetime
import io
import json
import resource
import signal
import sys
import tomllib


def read_exact(n):
    data = b""
    while len(data) < n:
        chunk = sys.stdin.buffer.read(n - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data


def toml(payload):
    try:
        doc = tomllib.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {"valid": False}
    tool = doc.get("tool")
    table = tool.get("tracelint") if isinstance(tool, dict) else None
    return {"valid": True, "tracelint": table}


class Timeout(BaseException):
    pass


def on_alarm(signum, frame):
    raise Timeout()


class Capped(io.StringIO):
    def write(self, s):  # a program printing without end is cut, not held
        if self.tell() < 1 << 20:
            return super().write(s)
        return len(s)


def program(payload):
    out = Capped()
    raised = None
    timeout = False
    namespace = {"__name__": "__traced__"}
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(payload.decode("utf-8"), "f.py", "exec"), namespace)
            namespace["f"](1)
    except Timeout:
        timeout = True
    except BaseException as e:  # noqa: B036 - the program's own exception is the answer
        raised = type(e).__name__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    lines = out.getvalue().split("\n")
    if lines[-1] == "":
        lines.pop()
    return {"printed": lines, "raised": raised, "timeout": timeout}


def plain(value):
    """JSON has no inf or nan (json.dumps would write Infinity, which is not JSON): as text."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def main():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    signal.signal(signal.SIGALRM, on_alarm)
    while True:
        header = read_exact(9)
        payload = read_exact(int.from_bytes(header[1:], "little"))
        kind = header[:1]
        try:
            answer = toml(payload) if kind == b"t" else program(payload)
        except BaseException as e:  # noqa: B036 - e.g. MemoryError: no answer to compare
            answer = {"skip": type(e).__name__}
        text = json.dumps(plain(answer), default=str, allow_nan=False).encode()
        sys.stdout.buffer.write(len(text).to_bytes(8, "little") + text)
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
