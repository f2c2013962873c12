"""The CI files: GitHub Actions workflows checked against the published workflow schema (by
check-jsonschema, pinned in requirements.txt), each job calling scripts of ci/ only, and the
ClusterFuzzLite files wired to the OSS-Fuzz build script."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
# The project's own workflows (ClusterFuzzLite's call its actions, which run .clusterfuzzlite/build.sh).
OWN = [w for w in WORKFLOWS if not w.name.startswith("cflite-")]


def check_jsonschema() -> list[str]:
    exe = Path(sys.executable).with_name("check-jsonschema")
    if exe.is_file():
        return [str(exe)]
    found = shutil.which("check-jsonschema")
    if found:
        return [found]
    pytest.fail("check-jsonschema is not installed: run ci/install-deps.sh (requirements.txt pins it).")


def yaml_load(path: Path):
    from ruamel.yaml import YAML  # check-jsonschema's own YAML reader
    return YAML(typ="safe").load(path.read_text())


def test_there_are_workflows_for_pull_requests_nightly_and_clusterfuzzlite():
    names = {w.name for w in WORKFLOWS}
    assert {"pull-request.yml", "nightly.yml", "cflite-fuzz.yml", "cflite-pr-address.yml", "cflite-pr-undefined.yml",
            "cflite-batch-address.yml", "cflite-batch-undefined.yml", "cflite-cron.yml"} <= names


def test_every_workflow_validates_against_the_github_workflow_schema():
    proc = subprocess.run([*check_jsonschema(), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_schema_check_fails_on_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text()
    broken.write_text(text.replace("runs-on:", "runs_on:", 1))  # a misspelt key GitHub would reject
    proc = subprocess.run([*check_jsonschema(), "--builtin-schema", "vendor.github-workflows", str(broken)],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr


def actionlint() -> list[str]:
    """actionlint as ci/install-deps.sh installs it (.tools/bin; it needs Go 1.25 or newer to build,
    and says so when there is none): skipped without it, unless EQUIFUZZ_REQUIRE_ACTIONLINT=1."""
    import os
    exe = ROOT / ".tools" / "bin" / "actionlint"
    found = str(exe) if exe.is_file() else shutil.which("actionlint")
    if found:
        # No shellcheck or pyflakes even where installed: the same checks on every machine.
        return [found, "-no-color", "-shellcheck=", "-pyflakes="]
    if os.environ.get("EQUIFUZZ_REQUIRE_ACTIONLINT") == "1":
        pytest.fail("actionlint is not installed (ci/install-deps.sh installs it where Go 1.25 or newer is).")
    pytest.skip("actionlint is not installed: ci/install-deps.sh installs it where Go 1.25 or newer is")


def test_actionlint_finds_nothing_in_any_workflow():
    proc = subprocess.run([*actionlint(), *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_fails_on_an_expression_the_schema_accepts(tmp_path):
    # A context that does not exist is valid YAML and valid against the schema; actionlint's type
    # check of expressions is what catches it.
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text()
    assert "${{ github.run_id }}" in text
    broken = tmp_path / ".github" / "workflows" / "pull-request.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(text.replace("${{ github.run_id }}", "${{ github.run_idd }}", 1))
    proc = subprocess.run([*actionlint(), str(broken)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1 and "run_idd" in proc.stdout, proc.stdout + proc.stderr


# The one command a job runs before its checkout: debian:12 has no git, and without git the
# checkout action fetches a tarball (no commit for reports to name).
GIT_BOOTSTRAP = "apt-get update -qq && apt-get install -y -qq --no-install-recommends git ca-certificates"


@pytest.mark.parametrize("workflow", OWN, ids=lambda p: p.name)
def test_own_workflows_run_scripts_of_ci_only(workflow):
    doc = yaml_load(workflow)
    runs = []
    for name, job in doc["jobs"].items():
        if job.get("uses", "").startswith("./"):
            continue  # a called workflow: checked as a workflow of its own
        steps = job["steps"]
        checkout = next(i for i, step in enumerate(steps) if step.get("uses", "").startswith("actions/checkout@"))
        if job.get("container"):
            assert steps[checkout - 1].get("run") == GIT_BOOTSTRAP, f"{workflow.name}: job {name} checks out without git"
        runs += [step["run"] for step in steps[checkout + 1:] if "run" in step]
        assert all("run" not in step or step["run"] == GIT_BOOTSTRAP for step in steps[:checkout])
    assert runs, f"{workflow.name} runs nothing"
    for run in runs:
        m = re.fullmatch(r"(ci/[\w.-]+\.sh)( [\w.-]+)*", run.strip())
        assert m, f"{workflow.name}: '{run.strip()}' is not a call of one ci/ script"
        script = ROOT / m.group(1)
        assert script.is_file() and script.stat().st_mode & 0o111, f"{m.group(1)} is missing or not executable"


def test_actions_run_on_node_24():
    # GitHub's runners retired Node 20; these majors are the first that declare node24.
    first_node24 = {"actions/checkout": 5, "actions/cache": 5, "actions/cache/restore": 5, "actions/cache/save": 5,
                    "actions/upload-artifact": 6, "github/codeql-action/upload-sarif": 4}
    for workflow in WORKFLOWS:
        for job in yaml_load(workflow)["jobs"].values():
            for step in job.get("steps", []):
                action, _, version = step.get("uses", "").partition("@v")
                if action in first_node24:
                    assert int(version) >= first_node24[action], f"{workflow.name}: {step['uses']} runs on Node 20"


EXPR = re.compile(r"\$\{\{\s*(matrix|inputs)\.([\w-]+)\s*\}\}")


def resolve(value, context: dict):
    """`value` with every ${{ matrix.X }} and ${{ inputs.X }} that `context` knows replaced; other
    expressions stay as written (the same text in every job of a run, as github.run_id is)."""
    if isinstance(value, dict):
        return {k: resolve(v, context) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, context) for v in value]
    if not isinstance(value, str):
        return value
    whole = EXPR.fullmatch(value.strip())
    if whole and whole.group(0) in context:
        return context[whole.group(0)]  # keeps a number or a boolean as it is
    return EXPR.sub(lambda m: str(context.get(m.group(0), m.group(0))), value)


def matrix_contexts(job: dict, workflow: str, name: str) -> list[dict]:
    import itertools
    matrix = (job.get("strategy") or {}).get("matrix")
    if matrix is None:
        return [{}]
    assert isinstance(matrix, dict) and not {"include", "exclude"} & set(matrix), \
        f"{workflow}: job {name}: a matrix this test cannot expand"
    matrix = dict(matrix)
    for key, values in matrix.items():
        if isinstance(values, str) and values.strip().startswith("${{"):
            # A matrix made at run time (another job's output): two cells of unknown values, so that
            # whatever must differ between cells is seen to.
            matrix[key] = [f"<{key} 1>", f"<{key} 2>"]
            continue
        assert isinstance(values, list), f"{workflow}: job {name}: matrix.{key} is neither a list nor an expression"
    keys = list(matrix)
    return [{"${{ matrix.%s }}" % k: v for k, v in zip(keys, combo)}
            for combo in itertools.product(*(matrix[k] for k in keys))]


def skipped_by_inputs(condition: str, inputs: dict) -> bool:
    """A step whose `if:` is a conjunction with a boolean input its caller sets false never runs."""
    terms = [term.strip() for term in str(condition).removeprefix("${{").removesuffix("}}").split("&&")]
    return any(inputs.get("${{ %s }}" % term) is False for term in terms if term.startswith("inputs."))


def job_instances(doc: dict, workflow: str) -> list[dict]:
    """Every job one run of the workflow starts (each matrix entry, each called workflow's jobs),
    with its steps resolved: {"job", "permissions" (the granting job's), "steps"}."""
    instances = []
    for name, job in doc["jobs"].items():
        for context in matrix_contexts(job, workflow, name):
            label = f"{workflow}: job {name}" + "".join(f" {v}" for v in context.values())
            if job.get("uses", "").startswith("./"):
                called = yaml_load(ROOT / job["uses"].removeprefix("./"))
                declared = (called.get("on") or called.get(True))["workflow_call"].get("inputs") or {}
                given = resolve(job.get("with") or {}, context)
                inputs = {"${{ inputs.%s }}" % k: given.get(k, spec.get("default")) for k, spec in declared.items()}
                for cname, cjob in called["jobs"].items():
                    assert "permissions" not in cjob, f"{job['uses']}: job {cname} must take the caller's permissions"
                    steps = [s for s in cjob["steps"] if not skipped_by_inputs(s.get("if", ""), inputs)]
                    for ccontext in matrix_contexts(cjob, job["uses"], cname):
                        instances.append({"job": f"{label} -> {cname}", "permissions": job.get("permissions"),
                                          "steps": resolve(steps, {**inputs, **ccontext})})
            else:
                instances.append({"job": label, "permissions": job.get("permissions"),
                                  "steps": resolve(job["steps"], context)})
    return instances


def may_be_empty(value) -> bool:
    return not value or "${{" in str(value)


def artifacts_uploaded(step: dict) -> list[str]:
    """The Actions artifact names a step uploads. ClusterFuzzLite's, as google/oss-fuzz's
    infra/cifuzz names them (clusterfuzz_deployment.py, filestore/github_actions): crash inputs `crashes-<target>` in every fuzzing mode, corpora
    `cifuzz-corpus-<target>` and the coverage report `cifuzz-coverage-latest` when no storage
    repository takes them, builds `cifuzz-build-<sanitizer>-<commit>`."""
    uses, given = step.get("uses", ""), step.get("with") or {}
    if uses.startswith("actions/upload-artifact@"):
        return [str(given.get("name", "artifact"))]
    names = []
    if uses.startswith("google/clusterfuzzlite/actions/run_fuzzers@"):
        mode = given.get("mode", "code-change")
        if mode in ("code-change", "batch", "prune"):
            names.append("crashes-<target>")
        if mode in ("batch", "prune") and may_be_empty(given.get("storage-repo")):
            names.append("cifuzz-corpus-<target>")
        if mode == "coverage" and may_be_empty(given.get("storage-repo")):
            names.append("cifuzz-coverage-latest")
    if uses.startswith("google/clusterfuzzlite/actions/build_fuzzers@") and str(given.get("upload-build")).lower() == "true":
        names.append(f"cifuzz-build-{given.get('sanitizer', 'address')}-<commit>")
    return names


def shared_artifact_names(doc: dict, workflow: str) -> dict[str, list[str]]:
    """Artifact names that more than one step of one run would upload, with the jobs uploading them."""
    uploads: dict[str, list[str]] = {}
    for instance in job_instances(doc, workflow):
        for step in instance["steps"]:
            for name in artifacts_uploaded(step):
                uploads.setdefault(name, []).append(instance["job"])
    return {name: jobs for name, jobs in uploads.items() if len(jobs) > 1}


# Workflows that start runs (not only called by another).
RUNS = [w for w in WORKFLOWS if set(yaml_load(w).get("on") or yaml_load(w).get(True)) != {"workflow_call"}]


@pytest.mark.parametrize("workflow", RUNS, ids=lambda p: p.name)
def test_no_two_jobs_of_a_run_upload_an_artifact_of_the_same_name(workflow):
    # A name can be uploaded once per workflow run: the second upload fails and its files are lost.
    assert shared_artifact_names(yaml_load(workflow), workflow.name) == {}


def test_the_artifact_check_fails_on_two_sanitizers_in_one_run_and_on_a_shared_name():
    # Both sanitizers of a pull request in one run, as a matrix: ClusterFuzzLite's crash artifacts clash.
    doc = yaml_load(ROOT / ".github" / "workflows" / "cflite-pr-address.yml")
    doc["jobs"]["pr"]["strategy"] = {"matrix": {"sanitizer": ["address", "undefined"]}}
    doc["jobs"]["pr"]["with"]["sanitizer"] = "${{ matrix.sanitizer }}"
    assert list(shared_artifact_names(doc, "matrix")) == ["crashes-<target>"]
    # Two jobs whose upload-artifact steps name the same artifact.
    doc = yaml_load(ROOT / ".github" / "workflows" / "pull-request.yml")
    doc["jobs"]["smoke-again"] = doc["jobs"]["smoke"]
    assert list(shared_artifact_names(doc, "twice")) == ["smoke-${{ github.run_id }}-${{ github.run_attempt }}"]
    # The build per sanitizer in one run is fine: those names carry the sanitizer.
    build = {"jobs": {"b": {"strategy": {"matrix": {"sanitizer": ["address", "undefined"]}}, "steps": [
        {"uses": "google/clusterfuzzlite/actions/build_fuzzers@v1",
         "with": {"sanitizer": "${{ matrix.sanitizer }}", "upload-build": True}}]}}}
    assert shared_artifact_names(build, "build") == {}


def clusterfuzzlite_instances() -> list[dict]:
    return [i for w in RUNS if w.name.startswith("cflite-") for i in job_instances(yaml_load(w), w.name)]


def test_clusterfuzzlite_jobs_are_granted_what_they_use_and_no_more():
    for instance in clusterfuzzlite_instances():
        job, granted, steps = instance["job"], instance["permissions"] or {}, instance["steps"]
        # A job's permissions replace the workflow's: unnamed scopes would be none.
        assert granted.get("contents") == "read", job
        fuzzes = [s for s in steps if "/run_fuzzers@" in s.get("uses", "")]
        sarif = [s for s in steps if "/upload-sarif@" in s.get("uses", "")]
        if fuzzes:
            # Corpora, coverage and main's builds are artifacts of other runs.
            assert granted.get("actions") == "read", f"{job} cannot read artifacts"
            assert all("storage-repo" in s["with"] for s in fuzzes), f"{job} reads no storage repository"
        writes_sarif = any(s["with"].get("output-sarif") is True for s in fuzzes)
        assert bool(sarif) == writes_sarif, f"{job}: SARIF written and uploaded must go together"
        assert (granted.get("security-events") == "write") == writes_sarif, f"{job}: security-events for SARIF only"


def test_batch_mode_writes_no_sarif():
    # run_fuzzers writes the SARIF once, after the loop, from the last target's result: in batch
    # mode, which goes on past a crash, any other target's crash would be reported empty.
    batch = [s for i in clusterfuzzlite_instances() for s in i["steps"]
             if "/run_fuzzers@" in s.get("uses", "") and s["with"].get("mode") == "batch"]
    assert batch, "no batch fuzzing"
    assert all(s["with"].get("output-sarif") is False for s in batch)


def test_each_sanitizer_fuzzes_pull_requests_and_batches_in_a_run_of_its_own():
    fuzzing = {}
    for workflow in (w for w in RUNS if w.name.startswith("cflite-")):
        for instance in job_instances(yaml_load(workflow), workflow.name):
            for step in instance["steps"]:
                if "/run_fuzzers@" in step.get("uses", "") and step["with"].get("mode") in ("code-change", "batch"):
                    fuzzing.setdefault(workflow.name, set()).add((step["with"]["mode"], step["with"]["sanitizer"]))
    assert sorted(s for runs in fuzzing.values() for s in runs) == [
        ("batch", "address"), ("batch", "undefined"), ("code-change", "address"), ("code-change", "undefined")]
    assert all(len(runs) == 1 for runs in fuzzing.values()), fuzzing
    # The two pull-request workflows run on the same changes.
    pr = [yaml_load(ROOT / ".github" / "workflows" / f"cflite-pr-{s}.yml") for s in ("address", "undefined")]
    assert pr[0]["on"] == pr[1]["on"]


def test_clusterfuzzlite_builds_through_the_oss_fuzz_build_script():
    cfl = ROOT / ".clusterfuzzlite"
    project = yaml_load(cfl / "project.yaml")
    assert project["language"] == "c++"
    assert set(project["sanitizers"]) == {"address", "undefined"}
    build = (cfl / "build.sh").read_text()
    assert "ci/oss-fuzz-build.sh" in build and (cfl / "build.sh").stat().st_mode & 0o111
    docker = (cfl / "Dockerfile").read_text()
    assert docker.startswith("#") and "FROM gcr.io/oss-fuzz-base/base-builder" in docker
    assert "COPY .clusterfuzzlite/build.sh $SRC/" in docker


@pytest.mark.parametrize("script", sorted((ROOT / "ci").glob("*.sh")), ids=lambda p: p.name)
def test_ci_scripts_parse(script):
    proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_collect_crashes_takes_this_runs_inputs_of_the_targets_only(tmp_path):
    import os
    import time
    campaigns = tmp_path / "campaigns"
    old = campaigns / "libfuzzer" / "xor_apply" / "crashes" / "crash-old"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"old")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    stamp = tmp_path / "stamp"
    stamp.write_text("")
    os.utime(stamp, (time.time() - 60, time.time() - 60))
    new = campaigns / "libfuzzer" / "xor_apply" / "crashes" / "crash-new"
    new.write_bytes(b"new")
    hunt = campaigns / "libfuzzer" / "xor_apply__tail_skipped" / "crashes" / "crash-mutant"
    hunt.parent.mkdir(parents=True)
    hunt.write_bytes(b"mutant")
    afl = campaigns / "afl" / "xor_key" / "out" / "secondary1" / "crashes" / "id:000000,sig:06,src:000001"
    afl.parent.mkdir(parents=True)
    afl.write_bytes(b"afl")
    env = {**os.environ, "EQUIFUZZ_CAMPAIGNS_DIR": str(campaigns)}
    out = tmp_path / "artifacts"
    for engine in ("libfuzzer", "afl"):
        proc = subprocess.run([str(ROOT / "ci" / "collect-crashes.sh"), engine, str(out), str(stamp)], env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    kept = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.name != "README.txt")
    assert kept == ["crashes/xor_apply/crash-new", "crashes/xor_key/secondary1-id_000000_sig_06_src_000001"]
    assert (out / "crashes" / "README.txt").read_text().splitlines() == [
        "./equifuzz reproduce xor_apply crashes/xor_apply/crash-new",
        "./equifuzz reproduce xor_key crashes/xor_key/secondary1-id_000000_sig_06_src_000001"]


# The scripts whose builds configure Bitcoin Core's sides, and so fetch the pinned trees from git.
BUILDS_CORE = ("ci/test.sh", "ci/replay.sh", "ci/smoke.sh", "ci/nightly.sh", "ci/watch.sh")


def core_git_lock() -> Path:
    sys.path.insert(0, str(ROOT / "tools"))
    from equifuzz import core_git
    return core_git.LOCK


@pytest.mark.parametrize("workflow", OWN, ids=lambda p: p.name)
def test_jobs_that_build_core_cache_the_git_trees_and_say_which_they_used(workflow):
    doc = yaml_load(workflow)
    cache_dir = doc["env"]["EQUIFUZZ_CORE_CACHE"]  # what core_git.py writes to, and what is cached
    lock = core_git_lock().relative_to(ROOT).as_posix()
    building = 0
    for name, job in doc["jobs"].items():
        if job.get("uses", "").startswith("./"):
            building += 1  # a called workflow's jobs are checked in that workflow
            continue
        steps = job["steps"]
        runs = [i for i, s in enumerate(steps) if s.get("run", "").split(" ")[0] in BUILDS_CORE]
        if not runs:
            continue
        building += 1
        restores = [i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/cache/restore@")
                    and s["with"]["path"] == cache_dir]
        assert restores and restores[0] < runs[0], f"{workflow.name}: job {name} does not restore the tree cache first"
        restore = steps[restores[0]]
        assert f"hashFiles('{lock}'" in restore["with"]["key"], f"{workflow.name}: job {name}: key not on {lock}"
        summary = [i for i, s in enumerate(steps) if s.get("run") == "ci/core-trees-summary.sh"]
        assert summary and summary[0] > runs[-1], f"{workflow.name}: job {name} never says which trees it used"
        assert steps[summary[0]].get("if") == "always()", f"{workflow.name}: job {name}: no summary after a failure"
        saves = [s for s in steps[summary[0]:] if s.get("uses", "").startswith("actions/cache/save@")
                 and s["with"]["path"] == cache_dir]
        assert saves and saves[0]["with"]["key"] == restore["with"]["key"], f"{workflow.name}: job {name} never saves it"
        assert f"steps.{steps[summary[0]]['id']}.outputs.cacheable == 'true'" in saves[0]["if"]
    assert building, f"{workflow.name} has no job that builds"


def run_summary(tmp_path, manifests: dict, whole: list[str]) -> tuple[str, str]:
    """ci/core-trees-summary.sh on a copy of the script (reading with the repository's tools/), with
    the given build manifests and a tree cache holding the given commits: (the summary, what it
    wrote to $GITHUB_OUTPUT)."""
    import json
    import os
    repo = tmp_path / "repo"
    (repo / "ci").mkdir(parents=True)
    shutil.copy2(ROOT / "ci" / "core-trees-summary.sh", repo / "ci")
    (repo / "tools").symlink_to(ROOT / "tools")
    for build, manifest in manifests.items():
        (repo / "build" / build).mkdir(parents=True)
        (repo / "build" / build / "equifuzz-targets.json").write_text(json.dumps(manifest))
    cache = tmp_path / "cache"
    for commit in whole:
        (cache / "trees" / commit).mkdir(parents=True)
        (cache / "trees" / commit / "tree.json").write_text("{}")
    summary, output = tmp_path / "summary.md", tmp_path / "output"
    env = {**os.environ, "EQUIFUZZ_CORE_CACHE": str(cache), "GITHUB_STEP_SUMMARY": str(summary),
           "GITHUB_OUTPUT": str(output), "EQUIFUZZ_TREE_CACHE_KEY": "core-git-trees-new",
           "EQUIFUZZ_TREE_CACHE_MATCHED": "core-git-trees-old"}
    proc = subprocess.run([str(repo / "ci" / "core-trees-summary.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return summary.read_text(), output.read_text()


def manifest(source: str, commits: tuple[str, str]) -> dict:
    sides = [{"role": f"core-{r}", "tree": f"git-{c[:12]}" if c else "kernel-0.4.1", "commit": c,
              "label": f"Bitcoin Core commit {c}" if c else "crate libbitcoinkernel-sys 0.4.1"}
             for r, c in zip(("original", "optimized"), commits)]
    return {"version": 1, "core_trees_from": source, "core_sides_missing_because": "", "pairs": {"xor": {"core": sides}}}


def test_the_trees_summary_names_each_builds_trees_and_allows_saving_only_a_whole_git_cache(tmp_path):
    a, b = "a" * 40, "b" * 40
    text, output = run_summary(tmp_path / "1", {"replay": manifest("git (the remote)", (a, b))}, [a, b])
    assert "**build/replay**: Core trees from git (the remote)" in text
    assert f"| xor | core-original | Bitcoin Core commit {a} |" in text and f"commit {b} |" in text
    assert "restored from the older key `core-git-trees-old`" in text
    assert output == "cacheable=true\n"
    # A tree the build used is not whole in the cache: saving it would keep a cache without it.
    assert run_summary(tmp_path / "2", {"replay": manifest("git (the remote)", (a, b))}, [a])[1] == "cacheable=false\n"
    # The remote did not answer: the registry trees, and a cache with none of the pinned ones.
    text, output = run_summary(tmp_path / "3", {"replay": manifest("registry (git remote x unreachable)", ("", ""))}, [])
    assert "Core trees from registry (git remote x unreachable)" in text and "crate libbitcoinkernel-sys 0.4.1" in text
    assert output == "cacheable=false\n"
    text, output = run_summary(tmp_path / "4", {}, [])
    assert "No build was configured." in text and output == "cacheable=false\n"
    # A build configured by another equifuzz: its manifest is named as unreadable, and nothing is saved.
    old = {k: v for k, v in manifest("git (the remote)", (a, b)).items() if k != "version"}
    text, output = run_summary(tmp_path / "5", {"replay": old}, [a, b])
    assert "**build/replay**: its manifest could not be read: build/replay was configured by another equifuzz" in text
    assert output == "cacheable=false\n"


# The declared inputs of each third-party action at the version the workflows use
# (tests/data/actions/README.md says where they come from).
ACTIONS = ROOT / "tests" / "data" / "actions"


def recorded_inputs(uses: str) -> dict | None:
    import json
    action, _, ref = uses.partition("@")
    path = ACTIONS / ("-".join(action.split("/")) + f"-{ref}.json")
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    assert (data["action"], data["ref"]) == (action, ref), f"{path.name} is not {uses}"
    return data["inputs"]


def called_workflow_declared(uses: str, what: str) -> dict:
    """A local reusable workflow's inputs or secrets, in the form of an action's inputs."""
    called = yaml_load(ROOT / uses.removeprefix("./"))
    declared = (called.get("on") or called.get(True))["workflow_call"].get(what) or {}
    return {name: {"required": bool((spec or {}).get("required")), "default": "default" in (spec or {})}
            for name, spec in declared.items()}


def with_key_errors(doc) -> list[str]:
    """Every `with:` of the workflow `doc` against what its action (or called workflow) declares."""
    errors = []
    for job_name, job in doc["jobs"].items():
        calls = [(f"job {job_name}", job)] if "uses" in job else \
                [(f"job {job_name}, step {s.get('name', s['uses'])}", s) for s in job["steps"] if "uses" in s]
        for where, call in calls:
            uses = call["uses"]
            if uses.startswith("docker://"):
                continue
            inputs = called_workflow_declared(uses, "inputs") if uses.startswith("./") else recorded_inputs(uses)
            if uses.startswith("./") and call.get("secrets") != "inherit":
                secrets = called_workflow_declared(uses, "secrets")
                errors += [f"{where}: {uses} declares no secret '{key}'" for key in call.get("secrets") or {}
                           if key not in secrets]
            if inputs is None:
                errors.append(f"{where}: no declared inputs recorded for {uses} (tests/data/actions/)")
                continue
            given = call.get("with") or {}
            errors += [f"{where}: {uses} has no input '{key}'" for key in given if key not in inputs]
            errors += [f"{where}: {uses}'s input '{key}' is deprecated" for key in given
                       if inputs.get(key, {}).get("deprecated")]
            errors += [f"{where}: {uses} requires '{key}'" for key, spec in inputs.items()
                       if spec["required"] and not spec["default"] and key not in given]
    return errors


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_with_key_is_an_input_the_action_declares(workflow):
    assert with_key_errors(yaml_load(workflow)) == []


def test_a_misspelt_clusterfuzzlite_input_fails_the_check():
    workflow = next(w for w in WORKFLOWS if "google/clusterfuzzlite/actions/run_fuzzers@" in w.read_text())
    doc = yaml_load(workflow)
    step = next(s for job in doc["jobs"].values() for s in job.get("steps", []) if "run_fuzzers@" in s.get("uses", ""))
    step["with"]["fuzz_seconds"] = step["with"].pop("fuzz-seconds")  # the underscore GitHub would ignore
    errors = with_key_errors(doc)
    assert len(errors) == 1 and "has no input 'fuzz_seconds'" in errors[0], errors


def test_the_check_fails_on_an_action_version_without_recorded_inputs_and_on_a_missing_required_input():
    doc = yaml_load(ROOT / ".github" / "workflows" / "pull-request.yml")
    steps = doc["jobs"]["tests"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    checkout["uses"] = "actions/checkout@v999"
    restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache/restore@"))
    del restore["with"]["key"]
    errors = with_key_errors(doc)
    assert any("no declared inputs recorded for actions/checkout@v999" in e for e in errors), errors
    assert any("requires 'key'" in e for e in errors), errors


def test_the_recorded_inputs_are_of_every_action_in_use_and_run_on_node_24_or_docker():
    import json
    used = {s["uses"] for w in WORKFLOWS for job in yaml_load(w)["jobs"].values() for s in job.get("steps", [])
            if "uses" in s and not s["uses"].startswith(("./", "docker://"))}
    recorded = {}
    for path in ACTIONS.glob("*.json"):
        data = json.loads(path.read_text())
        recorded[f"{data['action']}@{data['ref']}"] = data
        assert re.fullmatch(r"[0-9a-f]{40}", data["commit"]), path.name
        assert data["runs"] in ("node24", "docker", "composite"), f"{path.name}: runs on {data['runs']}"
    assert used <= set(recorded), f"no inputs recorded for {sorted(used - set(recorded))}"
    assert set(recorded) <= used, f"recorded but unused: {sorted(set(recorded) - used)}"


# GitHub stops a job on a hosted runner after 360 minutes. Besides the fuzzing, a ClusterFuzzLite
# job pulls and builds its image, builds every target with two Core trees, runs the bad-build check
# and moves each target's corpus; it uploads crash inputs only after the last target, so a job cut
# by its limit keeps none.
JOB_LIMIT_MINUTES = 360
BESIDES_FUZZING_MINUTES = 75


def test_every_clusterfuzzlite_run_fits_its_job_limit_with_a_margin_for_a_slow_build():
    checked = 0
    for workflow in (w for w in RUNS if w.name.startswith("cflite-")):
        for name, job in yaml_load(workflow)["jobs"].items():
            given = job.get("with") or {}
            if "fuzz-seconds" not in given:
                continue
            checked += 1
            timeout, fuzzing = given["timeout-minutes"], given["fuzz-seconds"] / 60
            assert timeout <= JOB_LIMIT_MINUTES - 5, f"{workflow.name}: {name} ends at GitHub's limit, not its own"
            assert timeout - fuzzing >= BESIDES_FUZZING_MINUTES, \
                f"{workflow.name}: {name} leaves {timeout - fuzzing:.0f} min besides {fuzzing:.0f} min of fuzzing"
    assert checked >= 4


def test_pushes_to_main_upload_a_build_per_sanitizer_that_pull_requests_fuzz_with():
    # A pull request's crash is checked against main's build of the same sanitizer: without it,
    # every crash counts as the change's.
    build = yaml_load(ROOT / ".github" / "workflows" / "cflite-build.yml")
    assert build["on"]["push"]["branches"] == ["main"] and "paths" not in build["on"]["push"]
    uploaded = {s["with"]["sanitizer"] for i in job_instances(build, "cflite-build.yml") for s in i["steps"]
                if "/build_fuzzers@" in s.get("uses", "") and s["with"].get("upload-build") is True}
    fuzzed = {s["with"]["sanitizer"] for i in clusterfuzzlite_instances() for s in i["steps"]
              if "/run_fuzzers@" in s.get("uses", "") and s["with"].get("mode") == "code-change"}
    assert fuzzed and fuzzed <= uploaded, f"pull requests fuzz {sorted(fuzzed)}, main builds {sorted(uploaded)}"


# --- What would go wrong on GitHub's runners (each test fails on the workflow text before its fix) ---

def own_jobs():
    for w in OWN:
        for name, job in yaml_load(w)["jobs"].items():
            yield w, name, job


def test_every_container_job_that_checks_out_marks_the_workspace_safe_for_git():
    # A debian:12 container runs as root in a workspace the runner created as another user: the
    # first git of ours (check_build.py's git ls-files, a report's commit) fails with "dubious
    # ownership" unless the workspace is marked safe; checkout's own setting covers its git only.
    checked = 0
    for w, name, job in own_jobs():
        steps = job.get("steps", [])
        checkouts = [i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/checkout@")]
        if not job.get("container") or not checkouts:
            continue
        following = steps[checkouts[0] + 1] if checkouts[0] + 1 < len(steps) else {}
        assert following.get("run") == "ci/git-safe-workspace.sh", \
            f"{w.name}: job {name}: the step after checkout does not mark the workspace safe for git"
        checked += 1
    assert checked >= 4
    script = (ROOT / "ci" / "git-safe-workspace.sh").read_text()
    assert 'git config --global --add safe.directory "$workspace"' in script and "GITHUB_WORKSPACE" in script


def test_the_safe_workspace_script_makes_git_accept_a_repository_of_another_owner(tmp_path):
    import os
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "GITHUB_WORKSPACE": str(repo), "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("GIT_CONFIG_GLOBAL", None)
    git_ok = lambda: subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-dir"], env=env,  # noqa: E731
                                    capture_output=True, text=True).returncode == 0
    if os.geteuid() == 0:  # as on the runner: the workspace belongs to another user
        for path in [repo, *repo.rglob("*")]:
            os.lchown(path, 65534, 65534)
        assert not git_ok(), "git accepted a repository of another owner before the script"
    proc = subprocess.run([str(ROOT / "ci" / "git-safe-workspace.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    listed = subprocess.run(["git", "config", "--global", "--get-all", "safe.directory"], env=env,
                            capture_output=True, text=True).stdout.split()
    assert str(repo) in listed
    assert git_ok()


def test_every_artifact_a_job_uploads_survives_a_rerun():
    # A re-run is a new attempt of the same run id: a name made of the run id alone exists already
    # and the upload fails (its files lost) unless the name has the attempt or the step overwrites.
    uploads = 0
    for w, name, job in own_jobs():
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/upload-artifact@"):
                uploads += 1
                assert "github.run_attempt" in step["with"]["name"] or step["with"].get("overwrite") is True, \
                    f"{w.name}: job {name}: artifact {step['with']['name']} fails on a re-run"
    assert uploads >= 2


def tree_cache_steps():
    for w, name, job in own_jobs():
        cache_dir = yaml_load(w)["env"]["EQUIFUZZ_CORE_CACHE"]
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/cache") and step.get("with", {}).get("path") == cache_dir:
                yield w, name, step


def test_the_tree_cache_keys_carry_the_layout_version_and_pull_requests_save_only_their_own():
    steps = list(tree_cache_steps())
    assert steps
    for w, name, step in steps:
        keys = [step["with"]["key"], *str(step["with"].get("restore-keys", "")).split()]
        for key in keys:
            assert re.match(r"core-git-trees-v\d+-", key), f"{w.name}: job {name}: tree cache key {key} has no layout version"
        if w.name == "pull-request.yml" and step["uses"].startswith("actions/cache/save@"):
            # Restored from the nightly's larger cache, a pull request must not save it again.
            assert "startsWith(steps.trees.outputs.cache-matched-key, 'core-git-trees-v" in step["if"] \
                and "-nightly-')" in step["if"], f"{w.name}: job {name} saves the nightly's cache again"


def test_pushes_to_main_are_never_cancelled_by_the_next_push():
    doc = yaml_load(ROOT / ".github" / "workflows" / "pull-request.yml")
    cancel = doc["concurrency"]["cancel-in-progress"]
    assert cancel is not True and "github.event_name == 'pull_request'" in str(cancel)


def test_clusterfuzzlite_fuzzes_a_pull_request_that_changes_the_tools_or_the_workflows():
    for name in ("cflite-pr-address.yml", "cflite-pr-undefined.yml"):
        doc = yaml_load(ROOT / ".github" / "workflows" / name)
        paths = (doc.get("on") or doc.get(True))["pull_request"]["paths"]
        assert "tools/**" in paths, f"{name}: choices.py (tools/) writes headers the targets compile"
        assert any(p.startswith(".github/workflows/") for p in paths), f"{name}: a change of the workflow itself is not run"


def test_the_workflows_count_the_targets_there_are():
    targets = len(list((ROOT / "fuzz_targets").glob("*.cpp")))
    for w in WORKFLOWS:
        for count in re.findall(r"\b(\d+) targets\b", w.read_text()):
            assert int(count) == targets, f"{w.name} says {count} targets; fuzz_targets/ has {targets}"


# The nightly's parts, as ci/nightly.sh names them; each is a job of its own.
NIGHTLY_PARTS = {"libfuzzer", "afl", "tsan", "verify", "trees", "master"}


def test_the_nightly_runs_each_part_as_a_job_of_its_own_within_330_minutes():
    doc = yaml_load(ROOT / ".github" / "workflows" / "nightly.yml")
    called = yaml_load(ROOT / ".github" / "workflows" / "nightly-part.yml")
    declared = (called.get("on") or called.get(True))["workflow_call"]["inputs"]
    assert called["jobs"]["part"]["timeout-minutes"] == "${{ inputs.timeout }}"
    assert declared["timeout"]["default"] <= 330
    parts = set()
    for name, job in doc["jobs"].items():
        if "uses" in job:
            assert job["uses"] == "./.github/workflows/nightly-part.yml", f"nightly.yml: job {name}"
            parts.add(job["with"]["part"])
            limit = job["with"].get("timeout", declared["timeout"]["default"])
        else:
            limit = job["timeout-minutes"]
        # GitHub cancels a job at 360 minutes: 30 are left for the saves and uploads of always().
        assert isinstance(limit, int) and limit <= 330, f"nightly.yml: job {name} may run {limit} minutes"
    assert parts == NIGHTLY_PARTS
    script = (ROOT / "ci" / "nightly.sh").read_text()
    for part in NIGHTLY_PARTS:
        assert re.search(rf"^if runs {part}\b", script, re.M), f"ci/nightly.sh has no part {part}"


def test_the_master_check_is_one_job_per_pair_against_one_master():
    doc = yaml_load(ROOT / ".github" / "workflows" / "nightly.yml")
    plan, master = doc["jobs"]["master-pairs"], doc["jobs"]["master"]
    assert [s["run"] for s in plan["steps"] if "run" in s][-1] == "ci/master-pairs.sh"
    assert master["needs"] == "master-pairs"
    assert master["strategy"]["fail-fast"] is False, "one pair master breaks would cancel the others"
    assert master["strategy"]["matrix"]["pair"] == "${{ fromJSON(needs.master-pairs.outputs.pairs) }}"
    assert master["with"]["pair"] == "${{ matrix.pair }}"
    assert master["with"]["master"] == "${{ needs.master-pairs.outputs.master }}"
    script = (ROOT / "ci" / "master-pairs.sh").read_text()
    assert script.count("--spec git:master") == 1 and "core_git pins" in script and "GITHUB_OUTPUT" in script


def test_nightly_sh_refuses_a_part_it_does_not_have():
    proc = subprocess.run([str(ROOT / "ci" / "nightly.sh"), "fuzz-everything"], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "ARTIFACTS_DIR": "/nonexistent/never-made"})
    assert proc.returncode == 2 and "no part 'fuzz-everything'" in proc.stderr, proc.stdout + proc.stderr


def test_a_pull_request_smokes_from_the_nightly_libfuzzer_corpus():
    # The nightly's libFuzzer part saves build/campaigns/libfuzzer under campaigns-libfuzzer-<run>;
    # a cache is found only under the same paths, so the smoke job must ask for exactly that.
    nightly = yaml_load(ROOT / ".github" / "workflows" / "nightly-part.yml")["jobs"]["part"]["steps"]
    saves = [s for s in nightly if s.get("uses", "").startswith("actions/cache/save@") and "campaigns" in s["with"]["path"]]
    assert [s["with"]["path"] for s in saves] == ["build/campaigns/${{ inputs.part }}"]
    smoke = yaml_load(ROOT / ".github" / "workflows" / "pull-request.yml")["jobs"]["smoke"]["steps"]
    restores = [s for s in smoke if s.get("uses", "").startswith("actions/cache/restore@") and "campaigns" in s["with"]["path"]]
    assert [(s["with"]["path"], s["with"]["restore-keys"]) for s in restores] == [("build/campaigns/libfuzzer", "campaigns-libfuzzer-")]


def cron_starts(cron: str) -> list[int]:
    """The minutes of the day a schedule of the form 'M H * * *' starts at (H: a number, a list or */N)."""
    minute, hour, *rest = cron.split()
    assert rest == ["*", "*", "*"] and minute.isdigit(), f"a schedule this test cannot read: {cron}"
    hours = range(0, 24, int(hour[2:])) if hour.startswith("*/") else [int(h) for h in hour.split(",")]
    return [h * 60 + int(minute) for h in hours]


def scheduled_windows(name: str) -> list[tuple[int, int]]:
    """(start, end) in minutes of the day, end possibly past 1440, of every scheduled run's jobs."""
    doc = yaml_load(ROOT / ".github" / "workflows" / name)
    on = doc.get("on") or doc.get(True)
    limits = []
    for job in doc["jobs"].values():
        limits.append(int(job.get("timeout-minutes") or (job.get("with") or {}).get("timeout-minutes")))
    return [(start, start + max(limits)) for entry in on["schedule"] for start in cron_starts(entry["cron"])]


def overlapping(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple]:
    day = 24 * 60
    return [(x, y) for x in a for y in b for shift in (-day, 0, day)
            if x[0] < y[1] + shift and y[0] + shift < x[1]]


def test_the_daily_prune_never_runs_while_a_batch_run_writes_the_corpora():
    upkeep = scheduled_windows("cflite-cron.yml")
    for batch in ("cflite-batch-address.yml", "cflite-batch-undefined.yml"):
        assert not overlapping(upkeep, scheduled_windows(batch)), f"cflite-cron.yml overlaps {batch}"
    # The check itself: the old schedule (batches every 6 h of up to 355 min, the prune at 05:00) fails it.
    assert overlapping([(300, 420)], [(s, s + 355) for s in cron_starts("0 */6 * * *")])
