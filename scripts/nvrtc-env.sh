# shellcheck shell=bash
# Source this file (do not execute it): `source scripts/nvrtc-env.sh`.
#
# Makes NVRTC (the CUDA run-time compiler) available without a CUDA toolkit or a GPU:
# installs the PyPI wheel `nvidia-cuda-nvrtc` into the repo-local, gitignored `.venv/` when it
# is not there yet, then exports
#   CUDATUTOR_NVRTC_LIB  full path of libnvrtc.so.13 (read by src/engine/cuda/nvrtc.rs)
#   LD_LIBRARY_PATH      with that library's directory prepended (for cudarc's own dlopen)
# Idempotent: a second run only looks the file up (well under a second).

_cudatutor_nvrtc_env() {
  local root venv lib libdir
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  venv="$root/.venv"

  _cudatutor_find_nvrtc() {
    # The 13.x wheel puts it in nvidia/cu13/lib; older layouts in nvidia/cuda_nvrtc/lib.
    local f
    for f in "$venv"/lib/python3*/site-packages/nvidia/cu13/lib/libnvrtc.so.13 \
             "$venv"/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.13; do
      if [ -e "$f" ]; then echo "$f"; return 0; fi
    done
    return 1
  }

  lib="$(_cudatutor_find_nvrtc)" || lib=""
  if [ -z "$lib" ]; then
    echo "nvrtc-env: installing nvidia-cuda-nvrtc into $venv (one time, ~60 MB)" >&2
    if [ ! -x "$venv/bin/python" ]; then
      python3 -m venv "$venv" || { echo "nvrtc-env: python3 -m venv failed" >&2; return 1; }
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir nvidia-cuda-nvrtc \
      || { echo "nvrtc-env: pip install nvidia-cuda-nvrtc failed" >&2; return 1; }
    lib="$(_cudatutor_find_nvrtc)" || {
      echo "nvrtc-env: installed, but libnvrtc.so.13 not found under $venv" >&2
      return 1
    }
  fi
  unset -f _cudatutor_find_nvrtc

  libdir="$(dirname "$lib")"
  export CUDATUTOR_NVRTC_LIB="$lib"
  case ":${LD_LIBRARY_PATH:-}:" in
    *":$libdir:"*) ;;
    *) export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
  esac
  echo "nvrtc-env: NVRTC is $CUDATUTOR_NVRTC_LIB"
}

_cudatutor_nvrtc_env
_cudatutor_nvrtc_rc=$?
unset -f _cudatutor_nvrtc_env
# `return` works when sourced; fall back to a plain status when run as a script.
return $_cudatutor_nvrtc_rc 2>/dev/null || exit $_cudatutor_nvrtc_rc
