"""tracelint: finds what breaks in printed PyTorch traces before anyone runs them.

    import tracelint
    report = tracelint.check(str(trace))
    assert report.ok, report.render()
    tracelint.assert_valid(str(trace))   # raises AssertionError with the rendered findings
    text = tracelint.trace(source, "foo", {"a": "f32[2, 4]"})   # what `tracelint trace` prints
"""
from ._tracelint import Diagnostic, Report, check, trace

__all__ = ["Diagnostic", "Report", "check", "assert_valid", "trace"]


def assert_valid(source, path="<trace>", **options):
    """Raises AssertionError, with the rendered diagnostics, when the trace has findings at or
    above fail_on (default: errors)."""
    report = check(source, path, **options)
    if not report.ok:
        raise AssertionError("tracelint found problems in " + path + ":\n" + report.render())
    return report
