# sys.exit("message") prints the message to stderr and exits with status 1.
import sys

print("working")
sys.exit("stopping: the loss is nan")
