import sys
import torch

print("epoch 1 done")
print("warning: loss went up", file=sys.stderr)
sys.stderr.write("last line on stderr\n")
print("epoch 2 done")
