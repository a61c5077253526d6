import sys
import torch

config = {"lr": -0.1}
print("checking config")
if config["lr"] <= 0:
    sys.exit("error: learning rate must be positive, got %s" % config["lr"])
print("training")
