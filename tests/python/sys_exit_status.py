# sys.exit(3) ends the run with status 3 and prints nothing; finally blocks run first.
import sys

try:
    print("before")
    sys.exit(3)
finally:
    print("finally runs")
print("never printed")
