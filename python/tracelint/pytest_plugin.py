"""pytest -p tracelint.pytest_plugin --tracelint-traces DIR

Checks every *.py trace under DIR as a test item (DIR is added to what pytest collects)."""
import pathlib

import pytest

import tracelint


def pytest_addoption(parser):
    group = parser.getgroup("tracelint")
    group.addoption("--tracelint-traces", action="append", default=[], metavar="DIR",
                    help="check every *.py trace under DIR with tracelint (repeatable)")
    group.addoption("--tracelint-context-name", action="append", default=[], metavar="NAME",
                    help="a name the traces' python_ctx provides (nvFusion0, ...)")


def _trace_dirs(config):
    return [pathlib.Path(d).resolve() for d in config.getoption("--tracelint-traces")]


def pytest_configure(config):
    for d in _trace_dirs(config):
        if not d.is_dir():
            raise pytest.UsageError(f"--tracelint-traces: {d} is not a directory")
        if str(d) not in config.args:
            config.args.append(str(d))


def pytest_collect_file(file_path, parent):
    dirs = _trace_dirs(parent.config)
    if file_path.suffix == ".py" and any(d == file_path or d in file_path.parents for d in dirs):
        return TraceFile.from_parent(parent, path=file_path)
    return None


class TraceFile(pytest.File):
    def collect(self):
        yield TraceItem.from_parent(self, name="tracelint")


class TraceItem(pytest.Item):
    def runtest(self):
        source = self.path.read_text(encoding="utf-8", errors="surrogateescape")
        names = self.config.getoption("--tracelint-context-name")
        report = tracelint.check(source, str(self.path), context_names=names or None)
        if not report.ok:
            raise TraceProblems(report.render())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, TraceProblems):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"tracelint: {self.path.name}"


class TraceProblems(Exception):
    pass
