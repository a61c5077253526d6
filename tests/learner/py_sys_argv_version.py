import sys
import torch

print(sys.argv)
print(len(sys.argv))
print(sys.version_info >= (3, 8))
print(sys.version_info.major)
print(sys.platform == "linux")
print(__name__)
