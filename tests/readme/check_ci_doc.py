"""docs/ci.md's GitHub Actions workflow is valid YAML and valid for the SARIF upload: the
security-events: write permission, an upload-sarif step whose sarif_file an earlier step writes,
and both SARIF steps run even when the check step fails (if: always())."""
import re
import sys

import yaml

text = open(sys.argv[1]).read()
blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "jobs:" in b]
assert len(blocks) == 1, "docs/ci.md should hold one whole workflow (a yaml block with jobs:)"
workflow = yaml.safe_load(blocks[0])
problems = []
if workflow.get("permissions", {}).get("security-events") != "write":
    problems.append("permissions: security-events: write is missing")
for name, job in workflow["jobs"].items():
    steps = job["steps"]
    uploads = [i for i, s in enumerate(steps) if "upload-sarif" in s.get("uses", "")]
    for i in uploads:
        sarif = steps[i].get("with", {}).get("sarif_file")
        if not sarif:
            problems.append(f"{name}: upload-sarif has no sarif_file")
            continue
        writers = [s for s in steps[:i] if "> " + sarif in s.get("run", "")]
        if not writers:
            problems.append(f"{name}: no step before the upload writes {sarif}")
        for step in writers + [steps[i]]:
            if step.get("if") != "always()":
                problems.append(f"{name}: {step.get('name', step.get('uses'))} needs if: always()")
        if not any("--exit-zero" in s.get("run", "") for s in writers):
            problems.append(f"{name}: the SARIF step should pass --exit-zero")
    if not uploads:
        problems.append(f"{name}: no upload-sarif step")
    if not any("actions/checkout" in s.get("uses", "") for s in steps):
        problems.append(f"{name}: no checkout step")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("docs/ci.md: the workflow is valid for the SARIF upload")
