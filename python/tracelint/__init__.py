"""tracelint: finds what breaks in printed PyTorch traces before anyone runs them.

    import tracelint
    report = tracelint.check(str(trace))
    assert report.ok, report.render()
    tracelint.assert_valid(str(trace))   # raises AssertionError with the rendered findings
    text = tracelint.trace(source, "foo", {"a": "f32[2, 4]"})   # what `tracelint trace` prints

A Report is a sequence of its Diagnostics: len(report), report[0], `for d in report`; bool(report)
is "has findings" (it follows len), while report.ok says whether the check passes (nothing at or
above fail_on). With config=tracelint.load_config("pyproject.toml"), check() applies that
[tool.tracelint] as `tracelint check` does, select/ignore/fail_on/dialect overriding it as its
flags. DIALECTS names the printers check(dialect=...) reads ('thunder', 'fx', 'export',
'nvfuser'); without it each trace's dialect is detected from its text.
"""
from ._tracelint import (DIALECTS, Config, Diagnostic, Report, __version__, check, find_config,
                         is_excluded, load_config, trace)

__all__ = ["DIALECTS", "Config", "Diagnostic", "Report", "__version__", "check", "assert_valid",
           "find_config", "is_excluded", "load_config", "trace"]


def assert_valid(source, path="<trace>", **options):
    """Raises AssertionError, with the rendered diagnostics, when the trace has findings at or
    above fail_on (default: errors)."""
    report = check(source, path, **options)
    if not report.ok:
        raise AssertionError("tracelint found problems in " + path + ":\n" + report.render())
    return report
