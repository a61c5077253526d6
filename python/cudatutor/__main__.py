"""`python -m cudatutor ARGS`: runs the cudatutor binary installed with this package.

It tells the binary which Python ran it (CUDATUTOR_LAUNCHER_PYTHON), so `--backend pytorch`,
`cudatutor diff`, `doctor` and the pager's `D` use this interpreter and its torch by default.
`--python PATH` and CUDATUTOR_PYTHON still win over it.
"""

import os
import sys
import sysconfig

LAUNCHER_ENV = "CUDATUTOR_LAUNCHER_PYTHON"


def _scripts_dirs():
    """Where pip may have put the binary, most likely first."""
    yield sysconfig.get_path("scripts")
    # `pip install --user`: the user scheme's scripts folder (~/.local/bin on Linux).
    if hasattr(sysconfig, "get_preferred_scheme"):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif sys.platform == "darwin" and getattr(sys, "_framework", None):
        user_scheme = "osx_framework_user"
    else:
        user_scheme = os.name + "_user"
    try:
        yield sysconfig.get_path("scripts", user_scheme)
    except KeyError:
        pass
    # `pip install --target DIR`: the package sits in DIR, the binary in DIR/bin.
    yield os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin")


def find_binary():
    """The installed cudatutor binary, or None."""
    name = "cudatutor" + (sysconfig.get_config_var("EXE") or "")
    for folder in _scripts_dirs():
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def main():
    binary = find_binary()
    if binary is None:
        sys.stderr.write(
            "cudatutor: the cudatutor program is not installed beside this Python package "
            "(looked in: " + ", ".join(_scripts_dirs()) + "); reinstall the package with pip\n"
        )
        return 1
    env = dict(os.environ)
    if sys.executable:
        env[LAUNCHER_ENV] = sys.executable
    args = [binary, *sys.argv[1:]]
    if os.name == "nt":
        # Windows has no exec that keeps the console and the exit status: wait for it instead.
        import subprocess

        return subprocess.call(args, env=env)
    os.execve(binary, args, env)
    return 1  # not reached: execve replaced this process or raised


if __name__ == "__main__":
    sys.exit(main())
