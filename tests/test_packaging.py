"""The project's packaging and hosting: one version, and workflows that do what they say.

No network: the workflow files are read as YAML and checked for the jobs,
triggers and permissions that CI, the docs site and releases need (their
schema is checked by `.ci/run` with check-jsonschema); building and
installing the wheel is `.ci/run`'s part too.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest
import yaml

import xeri

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest depends on tomli before Python 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def workflow(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict), name
    # YAML 1.1 reads the key `on` as True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps(job: dict) -> list[dict]:
    return job["steps"]


def uses(job: dict) -> list[str]:
    return [step["uses"].split("@")[0] for step in steps(job) if "uses" in step]


def runs(job: dict) -> str:
    return "\n".join(step["run"] for step in steps(job) if "run" in step)


# --------------------------------------------------------------------------
# The version


def test_the_version_is_the_installed_distributions():
    assert xeri.__version__ == importlib.metadata.version("xeri")
    assert re.fullmatch(r"\d+\.\d+\.\d+", xeri.__version__)


def test_the_version_is_written_once_in_the_package():
    project = pyproject()
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    path = project["tool"]["hatch"]["version"]["path"]
    assert path == "src/xeri/__init__.py"
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.findall(r'^__version__ = "(.+)"$', source, flags=re.MULTILINE) == [xeri.__version__]


def test_the_supported_pythons_are_the_ones_ci_runs():
    low = pyproject()["project"]["requires-python"]
    assert low == f">={PYTHONS[0]}"


# --------------------------------------------------------------------------
# The workflows


def test_every_workflow_file_parses():
    names = sorted(path.name for path in WORKFLOWS.glob("*.yml"))
    assert names == ["ci.yml", "docs.yml", "release.yml"]
    for name in names:
        data = workflow(name)
        assert data["name"]
        assert data["jobs"]


def test_ci_runs_the_checks_of_ci_run_on_every_supported_python():
    ci = workflow("ci.yml")
    assert {"push", "pull_request"} <= set(ci["on"])
    (job,) = ci["jobs"].values()
    assert job["strategy"]["matrix"]["python-version"] == PYTHONS
    assert job["strategy"]["fail-fast"] is False
    assert uses(job) == ["actions/checkout", "actions/setup-python"]
    setup = next(s for s in steps(job) if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "${{ matrix.python-version }}"
    assert runs(job) == "bash .ci/run"
    assert ci["permissions"] == {"contents": "read"}


def test_ci_run_checks_the_workflows_and_runs_the_demo_from_the_wheel_alone():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in script
    assert "\npython -m pytest -q\n" in script
    assert (
        "check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml"
        in script
    )
    assert "python -m build" in script
    assert "twine check --strict" in script
    assert re.search(
        r'python -m venv "\$work/venv"\n.*pip install --quiet "\$work"/dist/xeri-', script
    )
    assert '"$work/venv/bin/xeri" demo --rules greek --seed 7' in script
    assert '"$work/venv/bin/python" -m xeri demo --rules greek --seed 7' in script


def test_docs_are_built_strictly_and_deployed_to_pages_from_main():
    docs = workflow("docs.yml")
    assert docs["on"]["push"]["branches"] == ["main"]
    assert docs["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build, deploy = docs["jobs"]["build"], docs["jobs"]["deploy"]
    assert uses(build) == [
        "actions/checkout",
        "actions/setup-python",
        "actions/configure-pages",
        "actions/upload-pages-artifact",
    ]
    assert "mkdocs build --strict --site-dir _site" in runs(build)
    upload = next(s for s in steps(build) if "upload-pages-artifact@" in s.get("uses", ""))
    assert upload["with"]["path"] == "_site"
    assert deploy["needs"] == "build"
    assert uses(deploy) == ["actions/deploy-pages"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"


def test_a_version_tag_builds_checks_and_publishes_with_trusted_publishing():
    release = workflow("release.yml")
    assert release["on"] == {"push": {"tags": ["v*"]}}
    assert release["permissions"] == {"contents": "read"}
    build, publish = release["jobs"]["build"], release["jobs"]["publish"]
    commands = runs(build)
    for command in (
        "python -m build",
        "twine check --strict dist/*",
        'python -m venv "$RUNNER_TEMP/venv"',
        '"$RUNNER_TEMP/venv/bin/xeri" demo --rules greek --seed 7',
        '"$RUNNER_TEMP/venv/bin/python" -m xeri demo --rules greek --seed 7',
        '"v$version" != "$GITHUB_REF_NAME"',
    ):
        assert command in commands, command
    assert uses(build)[-1] == "actions/upload-artifact"
    assert publish["needs"] == "build"
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    assert uses(publish) == ["actions/download-artifact", "pypa/gh-action-pypi-publish"]
    publish_step = steps(publish)[-1]
    assert publish_step["uses"] == "pypa/gh-action-pypi-publish@release/v1"
    assert "with" not in publish_step  # trusted publishing: no token, no repository URL


# --------------------------------------------------------------------------
# README and CONTRIBUTING


def test_the_readme_badges_name_the_workflows_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badges = re.findall(r"actions/workflows/([\w-]+\.yml)/badge\.svg", readme)
    assert badges == ["ci.yml", "docs.yml"]
    for name in badges:
        assert (WORKFLOWS / name).is_file()
    assert "(CONTRIBUTING.md)" in readme


@pytest.mark.parametrize(
    "text",
    ["bash .ci/run", "__version__", "CHANGELOG.md", "git tag -a vX.Y.Z", "git push origin vX.Y.Z"],
)
def test_contributing_says_how_to_check_and_release(text):
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "## Releasing" in contributing
    assert text in contributing
