import argparse
import sys

p = argparse.ArgumentParser(prog="train.py")
p.add_argument("--epochs", type=int, default=5)
p.add_argument("--mode", choices=["fast", "slow"])
for argv in [["--epochs", "x"], ["--epochs"], ["--mode", "medium"], ["--bogus"], ["extra"]]:
    try:
        p.parse_args(argv)
    except SystemExit as e:
        print("exit", e.code)
p.add_argument("name")
try:
    p.parse_args([])
except SystemExit as e:
    print("exit", e.code)
print(p.parse_args(["--epochs=7", "bob"]))
try:
    p.parse_args(["-h"])
except SystemExit as e:
    print("exit", e.code)
sys.argv = ["train.py", "--epochs", "9", "alice"]
print(p.parse_args())
p.parse_args(["--epochs", "2.5", "n"])
