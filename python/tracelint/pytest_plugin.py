"""pytest --tracelint-traces DIR: checks every *.py trace under DIR as a test item (alone, or
with the paths given besides it: `pytest tests/ --tracelint-traces DIR`).

Registered through the pytest11 entry point when tracelint is pip-installed (with the module
only on PYTHONPATH: `pytest -p tracelint.pytest_plugin`). It reads [tool.tracelint] from the
pyproject.toml of pytest's rootdir as `tracelint check` does (select, extend-select, ignore,
per-file-ignores, exclude, extend-exclude, context-names, severity, fail-on, dialect,
per-file-dialect); --tracelint-select, --tracelint-ignore, --tracelint-fail-on,
--tracelint-dialect and --tracelint-context-name override it as the CLI's flags do."""
import pathlib

import pytest

import tracelint


def pytest_addoption(parser):
    group = parser.getgroup("tracelint")
    group.addoption("--tracelint-traces", action="append", default=[], metavar="DIR",
                    help="check every *.py trace under DIR with tracelint (repeatable)")
    group.addoption("--tracelint-select", action="append", default=None, metavar="CODES",
                    help="only these rule codes or prefixes (TL003,TL0), over the config's select")
    group.addoption("--tracelint-ignore", action="append", default=None, metavar="CODES",
                    help="skip these rule codes or prefixes, besides the config's ignore")
    group.addoption("--tracelint-fail-on", default=None, choices=["error", "warning", "info"],
                    help="lowest severity that fails a trace (default: the config's fail-on, "
                         "else error)")
    group.addoption("--tracelint-context-name", action="append", default=[], metavar="NAME",
                    help="a name the traces' python_ctx provides (nvFusion0, ...)")
    group.addoption("--tracelint-dialect", default=None,
                    choices=list(tracelint.DIALECTS),
                    help="the printer the traces come from (default: the config's dialect, "
                         "else detected from each file's text)")


def _codes(values):
    if values is None:
        return None
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


class _Settings:
    """The configuration and the overrides every trace item is checked with."""

    def __init__(self, config):
        self.config = None
        try:
            # The configuration `tracelint check` would use for the rootdir: .tracelint.toml,
            # tracelint.toml or pyproject.toml's [tool.tracelint], up to the project root.
            found = tracelint.find_config(str(config.rootpath))
            if found:
                self.config = tracelint.load_config(found)
            self.overrides = dict(
                select=_codes(config.getoption("--tracelint-select")),
                ignore=_codes(config.getoption("--tracelint-ignore")),
                fail_on=config.getoption("--tracelint-fail-on"),
                context_names=config.getoption("--tracelint-context-name") or None,
                dialect=config.getoption("--tracelint-dialect"))
            # Refuse a bad code before any test runs (as the CLI does), not once per trace.
            tracelint.check("", "<options>", config=self.config, **self.overrides)
        except ValueError as e:
            raise pytest.UsageError("tracelint: " + str(e)) from None
        self.dirs = [pathlib.Path(d).resolve() for d in config.getoption("--tracelint-traces")]

    def check(self, source, path):
        return tracelint.check(source, path, config=self.config, **self.overrides)

    def excluded(self, path):
        return tracelint.is_excluded(str(path), config=self.config)


_SETTINGS = pytest.StashKey[_Settings]()


def _settings(config):
    return config.stash[_SETTINGS]


def pytest_configure(config):
    if not config.getoption("--tracelint-traces"):
        return
    settings = _Settings(config)
    config.stash[_SETTINGS] = settings
    # `pytest --tracelint-traces DIR` alone checks the traces, not every test under the current
    # folder too; with paths given (`pytest tests/ --tracelint-traces DIR`) it adds DIR to them.
    if not config.option.file_or_dir:
        config.args[:] = []
    for d in settings.dirs:
        if not d.is_dir():
            raise pytest.UsageError(f"--tracelint-traces: {d} is not a directory")
        if str(d) not in config.args:
            config.args.append(str(d))


def pytest_ignore_collect(collection_path, config):
    if not config.getoption("--tracelint-traces"):
        return None
    settings = _settings(config)
    path = pathlib.Path(str(collection_path))
    inside = any(d == path or d in path.parents for d in settings.dirs)
    # exclude / extend-exclude leave paths under the trace folders out, as in a CLI scan.
    if inside and path not in settings.dirs and settings.excluded(path):
        return True
    return None


def pytest_collect_file(file_path, parent):
    if not parent.config.getoption("--tracelint-traces"):
        return None
    dirs = _settings(parent.config).dirs
    if file_path.suffix == ".py" and any(d == file_path or d in file_path.parents for d in dirs):
        return TraceFile.from_parent(parent, path=file_path)
    return None


class TraceFile(pytest.File):
    def collect(self):
        yield TraceItem.from_parent(self, name="tracelint")


class TraceItem(pytest.Item):
    def runtest(self):
        source = self.path.read_text(encoding="utf-8", errors="surrogateescape")
        report = _settings(self.config).check(source, str(self.path))
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
