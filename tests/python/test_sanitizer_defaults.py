"""The AddressSanitizer defaults every binary carries (__asan_default_options in
differential/harness/harness.cpp), and that the environment's ASAN_OPTIONS still wins."""
import os
import re
import subprocess


def asan_flag(binary, name: str, asan_options: str = "") -> str:
    """The value ASan runs `binary` with for flag `name` (help=1 lists every flag's current value)."""
    env = dict(os.environ, ASAN_OPTIONS=":".join(o for o in (asan_options, "help=1") if o))
    proc = subprocess.run([str(binary), os.devnull], env=env, capture_output=True, text=True, errors="replace", timeout=60)
    m = re.search(rf"^\s*{re.escape(name)}\s*\n\s*- .*?\(Current Value: ([^)]*)\)", proc.stderr, re.M)
    assert m, f"{binary.name} did not list ASan's flag {name}:\n{proc.stderr[-2000:]}"
    return m.group(1)


def test_fake_stack_is_the_smallest_asan_allows(build_dir):
    binary = build_dir / "fuzz_targets" / "xor_key"
    # Use-after-return detection itself is left as the runtime has it (on in clang 15 and later).
    assert asan_flag(binary, "max_uar_stack_size_log") == "16"


def test_the_environment_still_wins(build_dir):
    binary = build_dir / "fuzz_targets" / "xor_key"
    assert asan_flag(binary, "max_uar_stack_size_log", "max_uar_stack_size_log=20") == "20"
