#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image. The zip holds a cudatutor
# binary built for Linux x86-64 (`cargo build --release`, target/release/cudatutor).
set -euo pipefail
install -m 755 /autograder/source/cudatutor /usr/local/bin/cudatutor
cudatutor --version
