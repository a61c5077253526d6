# Stack Overflow: argparse in a notebook fails on the kernel's own arguments; parse_args([])
# or parse_known_args() is the fix.
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.01)
parser.add_argument("--epochs", type=int, default=5)
args, unknown = parser.parse_known_args(["-f", "/root/.local/kernel-1234.json", "--lr", "0.1"])
print(args, unknown)
args = parser.parse_args([])
print(args.lr * args.epochs)
parser.parse_args(["-f", "/root/.local/kernel-1234.json"])
