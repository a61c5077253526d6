# sys.exit() and sys.exit(0) are a clean end (status 0), even inside a function.
import sys


def main():
    print("main runs")
    sys.exit(0)
    print("not reached")


main()
print("not reached either")
